/* SPDX-License-Identifier: GPL-3.0-or-later */
/* widefmt.c - wide raw samples in files: binary and text encodings. */
#include "config.h"

#include "sources/widefmt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

#define WIDEFMT_CHUNK (1u << 20)   /* read size of widefmt_read_file */

static const struct {
	const char *name;
	unsigned size;     /* bytes per sample, 0 = text */
	int big;           /* most significant byte first */
} widefmt_table[] = {
	[WIDEFMT_U8] = { "u8", 1, 0 },
	[WIDEFMT_U16LE] = { "u16le", 2, 0 },
	[WIDEFMT_U16BE] = { "u16be", 2, 1 },
	[WIDEFMT_U32LE] = { "u32le", 4, 0 },
	[WIDEFMT_U32BE] = { "u32be", 4, 1 },
	[WIDEFMT_U64LE] = { "u64le", 8, 0 },
	[WIDEFMT_U64BE] = { "u64be", 8, 1 },
	[WIDEFMT_DEC] = { "dec", 0, 0 },
	[WIDEFMT_HEX] = { "hex", 0, 0 },
};

#define WIDEFMT_COUNT (sizeof widefmt_table / sizeof widefmt_table[0])

int widefmt_parse(const char *text, enum widefmt *f, struct err *e)
{
	for (size_t i = 0; i < WIDEFMT_COUNT; i++)
		if (strcmp(text, widefmt_table[i].name) == 0) {
			*f = (enum widefmt)i;
			return 0;
		}
	return err_set(e, ERR_USAGE, "sample format '%.64s': expected one of %s", text, WIDEFMT_NAMES);
}

const char *widefmt_name(enum widefmt f)
{
	return widefmt_table[f].name;
}

unsigned widefmt_size(enum widefmt f)
{
	return widefmt_table[f].size;
}

unsigned widefmt_width(enum widefmt f)
{
	return widefmt_table[f].size ? widefmt_table[f].size * 8 : 64;
}

void widefmt_decoder_init(struct widefmt_decoder *d, enum widefmt f, const char *name)
{
	memset(d, 0, sizeof *d);
	d->f = f;
	d->name = name;
	d->line = 1;
}

size_t widefmt_max_out(const struct widefmt_decoder *d, size_t len)
{
	unsigned size = widefmt_size(d->f);

	/* text: a sample is completed by its line's end, at most one per byte */
	return size ? (d->npart + len) / size : len;
}

/* ---- binary ------------------------------------------------------------- */

static uint64_t widefmt_load(const uint8_t *p, unsigned size, int big)
{
	uint64_t v = 0;

	if (big)
		for (unsigned i = 0; i < size; i++)
			v = v << 8 | p[i];
	else
		for (unsigned i = size; i-- > 0;)
			v = v << 8 | p[i];
	return v;
}

static size_t widefmt_decode_binary(struct widefmt_decoder *d, const uint8_t *in, size_t len,
				    uint64_t *out)
{
	unsigned size = widefmt_table[d->f].size;
	int big = widefmt_table[d->f].big;
	size_t n = 0, i = 0;

	if (d->npart) {               /* finish the sample the last call left */
		while (d->npart < size && i < len)
			d->part[d->npart++] = in[i++];
		if (d->npart < size)
			return 0;
		out[n++] = widefmt_load(d->part, size, big);
		d->npart = 0;
	}
	if (size == 2 && !big)        /* the common raw-noise case, in one loop */
		for (; i + 2 <= len; i += 2)
			out[n++] = (uint64_t)in[i] | (uint64_t)in[i + 1] << 8;
	for (; i + size <= len; i += size)
		out[n++] = widefmt_load(in + i, size, big);
	while (i < len)
		d->part[d->npart++] = in[i++];
	return n;
}

/* ---- text --------------------------------------------------------------- */

/* Where the decoder is in a line. */
enum {
	WIDEFMT_LEAD,      /* blanks before the number */
	WIDEFMT_DIGITS,    /* in the number (or just after its 0x) */
	WIDEFMT_TRAIL,     /* blanks after it */
	WIDEFMT_CR,        /* a \r: only \n may follow */
};

static int widefmt_digit(int c, int hex)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (hex && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (hex && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int widefmt_junk(const struct widefmt_decoder *d, int c, struct err *e)
{
	const char *want = d->f == WIDEFMT_HEX ? "one hexadecimal integer a line"
			   : "one decimal integer a line";

	if (c >= 0x21 && c < 0x7f)
		return err_set(e, ERR_DATA, "%s: line %llu: unexpected '%c' (expected %s)", d->name,
			       (unsigned long long)d->line, c, want);
	return err_set(e, ERR_DATA, "%s: line %llu: unexpected byte 0x%02x (expected %s)", d->name,
		       (unsigned long long)d->line, c, want);
}

/* The line ends: emit its number, if it has one. */
static int widefmt_end_line(struct widefmt_decoder *d, uint64_t *out, size_t *n, struct err *e)
{
	if (d->prefixed && d->ndig == 0)
		return err_set(e, ERR_DATA, "%s: line %llu: 0x without digits", d->name,
			       (unsigned long long)d->line);
	if (d->ndig)
		out[(*n)++] = d->val;
	d->state = WIDEFMT_LEAD;
	d->val = 0;
	d->ndig = 0;
	d->prefixed = 0;
	d->line++;
	return 0;
}

static int widefmt_decode_text(struct widefmt_decoder *d, const uint8_t *in, size_t len,
			       uint64_t *out, size_t *n, struct err *e)
{
	int hex = d->f == WIDEFMT_HEX;
	unsigned base = hex ? 16 : 10;

	for (size_t i = 0; i < len; i++) {
		int c = in[i], v;

		if (c == '\n') {
			if (widefmt_end_line(d, out, n, e))
				return e->code;
			continue;
		}
		if (d->state == WIDEFMT_CR)
			return widefmt_junk(d, c, e);
		if (c == '\r') {
			d->state = WIDEFMT_CR;
			continue;
		}
		if (c == ' ' || c == '\t') {
			if (d->state == WIDEFMT_DIGITS)
				d->state = WIDEFMT_TRAIL;
			continue;
		}
		if (d->state == WIDEFMT_TRAIL)
			return widefmt_junk(d, c, e);
		if (hex && (c == 'x' || c == 'X') && d->ndig == 1 && d->val == 0 && !d->prefixed) {
			d->ndig = 0;          /* "0x": the digits start now */
			d->prefixed = 1;
			continue;
		}
		v = widefmt_digit(c, hex);
		if (v < 0)
			return widefmt_junk(d, c, e);
		if (d->val > (UINT64_MAX - (uint64_t)v) / base)
			return err_set(e, ERR_DATA, "%s: line %llu: number does not fit in 64 bits",
				       d->name, (unsigned long long)d->line);
		d->val = d->val * base + (uint64_t)v;
		if (d->ndig < 2)          /* only "none", "one" (for 0x) and "more" matter */
			d->ndig++;
		else
			d->ndig = 2;
		d->state = WIDEFMT_DIGITS;
	}
	return 0;
}

/* ---- the decoder -------------------------------------------------------- */

int widefmt_decode(struct widefmt_decoder *d, const uint8_t *in, size_t len,
		   uint64_t *out, size_t *nout, struct err *e)
{
	int rc = 0;

	*nout = 0;
	if (widefmt_size(d->f))
		*nout = widefmt_decode_binary(d, in, len, out);
	else
		rc = widefmt_decode_text(d, in, len, out, nout, e);
	d->offset += len;
	return rc;
}

int widefmt_finish(struct widefmt_decoder *d, uint64_t *out, size_t *nout, struct err *e)
{
	unsigned size = widefmt_size(d->f);

	*nout = 0;
	if (size && d->npart)
		return err_set(e, ERR_DATA, "%s: %llu bytes is not a whole number of %u-byte %s "
			       "samples (%u byte%s left over)", d->name,
			       (unsigned long long)d->offset, size, widefmt_name(d->f), d->npart,
			       d->npart == 1 ? "" : "s");
	if (!size)                    /* the last line may lack its newline */
		return widefmt_end_line(d, out, nout, e);
	return 0;
}

/* ---- whole buffers and files ------------------------------------------- */

/* Appends what len more bytes decode to *out (growing it). */
static int widefmt_append(struct widefmt_decoder *d, const uint8_t *in, size_t len, int last,
			  uint64_t **out, size_t *n, size_t *cap, struct err *e)
{
	size_t room = widefmt_max_out(d, len) + (last ? 1 : 0), got = 0;
	int rc;

	if (*n + room > *cap) {
		size_t ncap = *cap ? *cap : 1024;
		uint64_t *nb;

		while (ncap < *n + room)
			ncap *= 2;
		nb = realloc(*out, ncap * sizeof *nb);
		if (!nb)
			return err_set(e, ERR_NOMEM, "%s: out of memory for %zu samples", d->name, ncap);
		*out = nb;
		*cap = ncap;
	}
	rc = widefmt_decode(d, in, len, *out + *n, &got, e);
	*n += got;
	if (rc || !last)
		return rc;
	rc = widefmt_finish(d, *out + *n, &got, e);
	*n += got;
	return rc;
}

static int widefmt_done(struct widefmt_decoder *d, int rc, uint64_t **out, size_t *n,
			struct err *e)
{
	if (rc == 0 && *n == 0)
		rc = err_set(e, ERR_DATA, "%s: no samples", d->name);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int widefmt_decode_buffer(enum widefmt f, const uint8_t *buf, size_t len, const char *name,
			  uint64_t **out, size_t *n, struct err *e)
{
	struct widefmt_decoder d;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	widefmt_decoder_init(&d, f, name);
	return widefmt_done(&d, widefmt_append(&d, buf, len, 1, out, n, &cap, e), out, n, e);
}

int widefmt_read_file(const char *path, enum widefmt f, size_t max, uint64_t **out, size_t *n,
		      int *more, struct err *e)
{
	struct widefmt_decoder d;
	int fd, rc = 0, dummy;
	uint8_t *chunk = NULL;
	size_t cap = 0;
	struct stat st;

	*out = NULL;
	*n = 0;
	if (!more)
		more = &dummy;
	*more = 0;
	fd = input_open(path, e);     /* a FIFO with no writer: a bounded wait */
	if (fd < 0)
		return fd;
	widefmt_decoder_init(&d, f, fd == STDIN_FILENO ? "stdin" : path);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && widefmt_size(f) && st.st_size > 0 &&
	    (*out = malloc(((size_t)st.st_size / widefmt_size(f) + 1) * sizeof **out)) != NULL)
		cap = (size_t)st.st_size / widefmt_size(f) + 1;   /* no growing: one allocation */
	if (!(chunk = malloc(WIDEFMT_CHUNK)))
		rc = err_set(e, ERR_NOMEM, "%s: out of memory", path);
	while (rc == 0) {
		ssize_t got = read(fd, chunk, WIDEFMT_CHUNK);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = err_set_errno(e, ERR_IO, errno, "%s: read failed", path);
			break;
		}
		rc = widefmt_append(&d, chunk, (size_t)got, got == 0, out, n, &cap, e);
		if (got == 0)
			break;
		if (max && *n >= max) {       /* the cap: keep max, say there was more */
			*more = *n > max || read(fd, chunk, 1) > 0;
			*n = max;
			break;
		}
	}
	free(chunk);
	if (fd != STDIN_FILENO)
		close(fd);
	return widefmt_done(&d, rc, out, n, e);
}

int widefmt_encode(enum widefmt f, const uint64_t *x, size_t n, uint8_t *out, struct err *e)
{
	unsigned size = widefmt_size(f);
	int big = widefmt_table[f].big;

	if (!size)
		return err_set(e, ERR_USAGE, "sample format %s: only the binary formats can be written",
			       widefmt_name(f));
	for (size_t i = 0; i < n; i++) {
		uint64_t v = x[i];

		if (size < 8 && v >> (size * 8))
			return err_set(e, ERR_DATA, "sample %zu (%llu) does not fit in %s", i,
				       (unsigned long long)v, widefmt_name(f));
		for (unsigned b = 0; b < size; b++)
			out[i * size + (big ? size - 1 - b : b)] = (uint8_t)(v >> (8 * b));
	}
	return 0;
}
