/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nistread.c - see nistread.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/nistread.h"

/* The highest bit in use, as read_file_subset establishes the word size:
 * the position of the top set bit of all samples or'ed together. */
static unsigned width_in_use(const uint8_t *s, size_t n)
{
	unsigned all = 0, w = 0;

	for (size_t i = 0; i < n; i++)
		all |= s[i];
	while (all >> w)
		w++;
	return w;
}

int nistread_file(const char *path, unsigned long block_index, unsigned long block_size,
		  unsigned bits, struct nistread *r, struct err *e)
{
	FILE *fp;
	long len;
	size_t got;

	memset(r, 0, sizeof *r);
	if (!(fp = fopen(path, "rb"))) {
		r->fail = NISTREAD_OPEN;
		return err_set_errno(e, ERR_IO, errno, "%s: cannot open", path);
	}
	if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0) {
		fclose(fp);
		r->fail = NISTREAD_SEEK;
		return err_set(e, ERR_IO, "%s: not seekable", path);
	}
	rewind(fp);
	/* the whole file first: its hash covers every byte (sha256_file) */
	r->s = malloc(len > 0 ? (size_t)len : 1);
	if (!r->s) {
		fclose(fp);
		r->fail = NISTREAD_NOMEM;
		return err_set(e, ERR_NOMEM, "%s: out of memory for %ld samples", path, len);
	}
	got = fread(r->s, 1, (size_t)len, fp);
	fclose(fp);
	if (got != (size_t)len) {
		nistread_free(r);
		r->fail = NISTREAD_READ;
		return err_set(e, ERR_IO, "%s: short read", path);
	}
	sha256_hex(r->s, (size_t)len, r->sha256);
	r->n = (size_t)len;
	if (block_size != 0) {
		unsigned long long start;

		/* fseek(index * size) with signed long arithmetic: a start past
		 * LONG_MAX fails there, one past the end gives a negative length
		 * (fread fails), one at the end an empty block */
		if (block_index != 0 && block_size > (unsigned long long)LONG_MAX / block_index) {
			nistread_free(r);
			r->fail = NISTREAD_SEEK;
			return err_set(e, ERR_USAGE, "%s: block %lu of %lu starts past any file", path,
				       block_index, block_size);
		}
		start = (unsigned long long)block_index * block_size;
		if (start > (unsigned long long)len) {
			nistread_free(r);
			r->fail = NISTREAD_READ;
			return err_set(e, ERR_USAGE, "%s: block %lu of %lu starts past its %ld samples",
				       path, block_index, block_size, len);
		}
		r->n = (size_t)len - (size_t)start < block_size ? (size_t)len - (size_t)start
								 : (size_t)block_size;
		memmove(r->s, r->s + start, r->n);
	}
	if (r->n == 0) {
		nistread_free(r);
		r->fail = NISTREAD_EMPTY;
		return err_set(e, ERR_DATA, "%s: no samples", path);
	}
	r->data_bits = width_in_use(r->s, r->n);
	if (bits == 0) {
		r->bits = r->data_bits;
	} else {
		r->bits = bits;
		if (r->data_bits > bits) {
			free(r->s);
			r->s = NULL;
			r->fail = NISTREAD_WIDTH;
			return err_set(e, ERR_DATA, "%s: samples of %u bits do not fit in %u", path,
				       r->data_bits, bits);
		}
		r->narrower = r->data_bits < bits;
	}
	return 0;
}

void nistread_free(struct nistread *r)
{
	free(r->s);
	r->s = NULL;
	r->n = 0;
}
