/* SPDX-License-Identifier: GPL-3.0-or-later */
/* err.c - the error type passed up from library code. */
#include "config.h"

#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void err_vformat(struct err *e, int code, const char *fmt, va_list ap)
{
	e->code = code;
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

int err_set(struct err *e, int code, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		err_vformat(e, code, fmt, ap);
		va_end(ap);
	}
	return code;
}

int err_set_errno(struct err *e, int code, int errnum, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		size_t len;
		va_start(ap, fmt);
		err_vformat(e, code, fmt, ap);
		va_end(ap);
		len = strlen(e->msg);
		snprintf(e->msg + len, sizeof e->msg - len, ": %s", strerror(errnum));
	}
	return code;
}

int err_code_from_errno(int errnum)
{
	switch (errnum) {
	case ENOENT: case ENODEV: case ENXIO: return ERR_UNAVAILABLE;
	case EACCES: case EPERM: return ERR_PERM;
	case ENOMEM: return ERR_NOMEM;
	case EINTR: return ERR_INTERRUPTED;
	case EINVAL: return ERR_USAGE;
	default: return ERR_IO;
	}
}

void err_clear(struct err *e)
{
	if (e) {
		e->code = ERR_OK;
		e->msg[0] = '\0';
	}
}

/* Length of the well-formed UTF-8 character at s (2 to 4 bytes, RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or 0 if s does
 * not start one, or starts a C1 control (U+0080..U+009F, 0xc2 0x80..0x9f). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, lo = s[0] == 0xc2 ? 0xa0 : 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

size_t err_escape_char(const char *s, char piece[ERR_ESCAPE_PIECE], size_t *n, int keep_backslash)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t take = 1;

	switch (*p) {
	case '\n': memcpy(piece, "\\n", *n = 2); break;
	case '\r': memcpy(piece, "\\r", *n = 2); break;
	case '\t': memcpy(piece, "\\t", *n = 2); break;
	case '\\':
		if (keep_backslash)
			memcpy(piece, "\\", *n = 1);
		else
			memcpy(piece, "\\\\", *n = 2);
		break;
	default:
		if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && !(take = utf8_len(p)))) {
			*n = (size_t)snprintf(piece, ERR_ESCAPE_PIECE, "\\x%02x", *p);
			take = 1;
		} else {
			memcpy(piece, p, *n = take);
		}
	}
	piece[*n] = '\0';
	return take;
}

const char *err_escape(char *dst, size_t dstlen, const char *s)
{
	static const char ellipsis[] = "...";
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, mark = 0;   /* mark: the last cut with room for "..." after it */

	if (dstlen == 0)
		return dst;
	while (*p) {
		char piece[ERR_ESCAPE_PIECE];
		size_t n, take = err_escape_char((const char *)p, piece, &n, 0);
		if (o + sizeof ellipsis <= dstlen)
			mark = o;
		if (o + n >= dstlen) {   /* no room: cut at the mark */
			o = mark;
			if (o + sizeof ellipsis <= dstlen) {
				memcpy(dst + o, ellipsis, sizeof ellipsis - 1);
				o += sizeof ellipsis - 1;
			}
			break;
		}
		memcpy(dst + o, piece, n);
		o += n;
		p += take;
	}
	dst[o] = '\0';
	return dst;
}
