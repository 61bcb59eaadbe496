/* SPDX-License-Identifier: GPL-3.0-or-later */
/* termtext.c - terminal-safe text for the reports on stdout (see termtext.h). */
#include "config.h"

#include "report/termtext.h"

#include <string.h>

#include "err.h"

static _Thread_local char termtext_ring[TERMTEXT_RING][TERMTEXT_MAX];
static _Thread_local unsigned termtext_next;

/* Escapes s into the next ring buffer, at most width bytes (cut at a
 * whole piece; "..." ends a text cut for want of room when ellipsis). */
static const char *termtext_into(const char *s, size_t width, int ellipsis)
{
	char *dst = termtext_ring[termtext_next++ % TERMTEXT_RING];
	size_t o = 0;

	if (width > TERMTEXT_MAX - 1)
		width = TERMTEXT_MAX - 1;
	while (*s) {
		char piece[ERR_ESCAPE_PIECE];
		size_t n, take = err_escape_char(s, piece, &n, 0);
		if (o + n > width) {
			if (ellipsis) {
				while (o > 0 && o + 3 > width)   /* back to room for "..." */
					o--;
				while (o > 0 && ((unsigned char)dst[o] & 0xc0) == 0x80)
					o--;                     /* not inside a UTF-8 character */
				if (o + 3 <= width) {
					memcpy(dst + o, "...", 3);
					o += 3;
				}
			}
			break;
		}
		memcpy(dst + o, piece, n);
		o += n;
		s += take;
	}
	dst[o] = '\0';
	return dst;
}

const char *termtext(const char *s)
{
	return termtext_into(s ? s : "", TERMTEXT_MAX - 1, 1);
}

const char *termtext_mem(const char *s, size_t len)
{
	char buf[TERMTEXT_MAX];
	/* a copy that ends in a NUL: escaping never reads past len */
	if (len > sizeof buf - 1)
		len = sizeof buf - 1;
	memcpy(buf, s ? s : "", s ? len : 0);
	buf[s ? len : 0] = '\0';
	return termtext_into(buf, TERMTEXT_MAX - 1, 1);
}

const char *termtext_cut(const char *s, size_t width)
{
	return termtext_into(s ? s : "", width, 0);
}

static int termtext_write(FILE *fp, const char *s, int keep_backslash)
{
	for (const char *p = s ? s : ""; *p;) {
		char piece[ERR_ESCAPE_PIECE];
		size_t n;
		p += err_escape_char(p, piece, &n, keep_backslash);
		if (fwrite(piece, 1, n, fp) != n)
			return EOF;
	}
	return 0;
}

int termtext_put(FILE *fp, const char *s)
{
	return termtext_write(fp, s, 0);
}

int termtext_put_line(FILE *fp, const char *s)
{
	return termtext_write(fp, s, 1);
}
