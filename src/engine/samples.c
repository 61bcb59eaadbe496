/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samples.c - bytes to K-bit samples (MSB first), bit expansion, NIST files. */
#include "config.h"

#include "bigmem.h"
#include "engine/samples.h"
#include "input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/stat.h>

void samples_symbolizer_init(struct symbolizer *sy, unsigned bits)
{
	sy->bits = bits;
	sy->acc = 0;
	sy->nacc = 0;
}

size_t samples_max_out(const struct symbolizer *sy, size_t len)
{
	return (len * 8 + sy->nacc) / sy->bits;
}

size_t samples_symbolize(struct symbolizer *sy, const uint8_t *in, size_t len, uint8_t *out)
{
	const unsigned k = sy->bits;
	const uint32_t mask = (1u << k) - 1;
	uint32_t acc = sy->acc;
	unsigned nacc = sy->nacc;
	size_t n = 0;

	if (k == 8) {            /* the common case: one sample per byte */
		memcpy(out, in, len);
		return len;
	}
	if (k == 1 && nacc == 0) {
		for (size_t i = 0; i < len; i++) {
			unsigned b = in[i];
			for (int j = 7; j >= 0; j--)
				out[n++] = (uint8_t)((b >> j) & 1);
		}
		return n;
	}
	if (k == 4 && nacc == 0) {
		for (size_t i = 0; i < len; i++) {
			out[n++] = (uint8_t)(in[i] >> 4);
			out[n++] = (uint8_t)(in[i] & 15);
		}
		return n;
	}
	for (size_t i = 0; i < len; i++) {
		acc = (acc << 8) | in[i];
		nacc += 8;
		while (nacc >= k) {
			nacc -= k;
			out[n++] = (uint8_t)((acc >> nacc) & mask);
		}
		acc &= (1u << nacc) - 1;   /* keep only the pending bits */
	}
	sy->acc = acc;
	sy->nacc = nacc;
	return n;
}

void samples_to_bits(const uint8_t *s, size_t n, unsigned bits, uint8_t *out)
{
	size_t o = 0;
	if (bits == 8) {
		for (size_t i = 0; i < n; i++) {
			unsigned v = s[i];
			out[o] = (uint8_t)(v >> 7); out[o + 1] = (uint8_t)((v >> 6) & 1);
			out[o + 2] = (uint8_t)((v >> 5) & 1); out[o + 3] = (uint8_t)((v >> 4) & 1);
			out[o + 4] = (uint8_t)((v >> 3) & 1); out[o + 5] = (uint8_t)((v >> 2) & 1);
			out[o + 6] = (uint8_t)((v >> 1) & 1); out[o + 7] = (uint8_t)(v & 1);
			o += 8;
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (int j = (int)bits - 1; j >= 0; j--)
			out[o++] = (uint8_t)((s[i] >> j) & 1);
}

size_t samples_packed_words(size_t nbits)
{
	return nbits / 64 + 2;
}

void samples_to_packed(const uint8_t *s, size_t n, unsigned bits, size_t nbits, uint64_t *w)
{
	size_t o = 0, i = 0, words = samples_packed_words(nbits);
	uint64_t acc = 0;
	unsigned fill = 0;   /* bits in acc, < 64 */

	if (bits == 1)   /* 64 samples a word, each 8 (bit 0 of a byte) by one multiply */
		for (; i + 64 <= n && o + 1 < words; i += 64) {
			uint64_t x = 0;
			for (unsigned j = 0; j < 8; j++) {
				uint64_t v;
				memcpy(&v, s + i + 8 * j, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
				v = __builtin_bswap64(v);   /* the first sample in the low byte */
#endif
				/* byte j's bit 0 to bit 63 - j: sample i + 8j on top */
				x = x << 8 | ((v & 0x0101010101010101ULL) * 0x8040201008040201ULL) >> 56;
			}
			w[o++] = x;
		}
	if (bits == 8)   /* eight samples a word, first sample on top */
		for (; i + 8 <= n && o + 1 < words; i += 8) {
			uint64_t x = 0;
			for (unsigned j = 0; j < 8; j++)
				x = x << 8 | s[i + j];
			w[o++] = x;
		}
	for (; i < n && o + 1 < words; i++) {
		uint64_t v = s[i] & ((1u << bits) - 1u);
		if (fill + bits < 64) {
			acc = acc << bits | v;
			fill += bits;
		} else {
			unsigned rest = fill + bits - 64;   /* v's low bits for the next word */
			w[o++] = (fill ? acc << (64 - fill) : 0) | v >> rest;
			acc = v & (((uint64_t)1 << rest) - 1u);
			fill = rest;
		}
	}
	if (fill && o < words)
		w[o++] = acc << (64 - fill);
	while (o < words)
		w[o++] = 0;
	/* nothing after bit nbits */
	if (nbits & 63u)
		w[nbits >> 6] &= ~(uint64_t)0 << (64 - (nbits & 63u));
	else
		w[nbits >> 6] = 0;
	for (o = (nbits >> 6) + 1; o < words; o++)
		w[o] = 0;
}

unsigned samples_infer_bits(const uint8_t *s, size_t n)
{
	unsigned all = 0, k = 1;
	for (size_t i = 0; i < n; i++)
		all |= s[i];
	while (k < 8 && (all >> k) != 0)
		k++;
	return k;
}

unsigned samples_alphabet(const uint8_t *s, size_t n, uint8_t map[256], unsigned *maxval)
{
	unsigned char present[256] = { 0 };
	unsigned k = 0;
	*maxval = 0;
	for (size_t i = 0; i < n; i++)
		present[s[i]] = 1;
	for (unsigned v = 0; v < 256; v++)
		if (present[v]) {
			map[v] = (uint8_t)k++;
			*maxval = v;
		}
	return k;
}

size_t samples_first_wide(const uint8_t *s, size_t n, unsigned bits)
{
	/* a block's samples ORed 32 at a time (four independent ORs: ~32 bytes
	 * a cycle), a block searched only when the OR has a bit above the
	 * width: the search sample by sample, with its exit, was 3% of a 1-bit
	 * assess; the health monitor checks every block of a NIST-format file
	 * here too */
	const uint64_t high = 0x0101010101010101ULL * (uint64_t)(0xffu & (0xffu << (bits & 7u)));
	const size_t block = 4096;

	if (bits >= 8)   /* every byte is below 2^8: nothing to read */
		return n;
	for (size_t b = 0; b < n; b += block) {
		const size_t end = n - b < block ? n : b + block;
		uint64_t acc = 0, acc1 = 0, acc2 = 0, acc3 = 0;
		size_t i = b;
		for (; i + 32 <= end; i += 32) {
			uint64_t v[4];
			memcpy(v, s + i, 32);
			acc |= v[0];
			acc1 |= v[1];
			acc2 |= v[2];
			acc3 |= v[3];
		}
		acc |= acc1 | acc2 | acc3;
		for (; i < end; i++)
			acc |= s[i];
		if (acc & high)
			for (i = b; i < end; i++)
				if (s[i] >> bits)
					return i;
	}
	return n;
}

int samples_check_range(const uint8_t *s, size_t n, unsigned bits, const char *what,
			struct err *e)
{
	const size_t i = samples_first_wide(s, n, bits);

	if (i < n)
		return err_set(e, ERR_DATA,
			       "%s: sample %zu has value %u, which does not fit in %u bit%s",
			       what, i, s[i], bits, bits == 1 ? "" : "s");
	return 0;
}

size_t samples_default_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
	uint64_t max = mem / SAMPLES_MEMORY_SHARE / SAMPLES_ESTIMATOR_BYTES;
	if (max < SAMPLES_MAX_FLOOR)   /* unknown or tiny memory: still NIST's 10^6 */
		max = SAMPLES_MAX_FLOOR;
	return max > SIZE_MAX ? SIZE_MAX : (size_t)max;
}

/* Reads into *buf up to max bytes from fd, growing it; *more is set when
 * the input holds a byte past max. */
static int read_up_to(int fd, const char *path, size_t max, size_t hint, uint8_t **buf,
		      size_t *len, int *more, struct err *e)
{
	size_t cap = 0;
	*more = 0;
	for (;;) {
		ssize_t got;
		if (*len == cap) {
			size_t ncap;
			uint8_t *nb;
			if (cap == max) {   /* full: is there more? */
				uint8_t probe;
				do
					got = read(fd, &probe, 1);
				while (got < 0 && errno == EINTR);
				*more = got > 0;
				return 0;
			}
			ncap = !cap && hint ? hint : cap ? cap * 2 : (size_t)1 << 20;
			if (ncap > max || ncap < cap)
				ncap = max;
			/* faulted in ahead: read() would fault a page at a time */
			nb = cap ? realloc(*buf, ncap) : bigmem_malloc(ncap);
			if (!nb)
				return err_set(e, ERR_NOMEM, "%s: out of memory after %zu samples "
					       "(--max-samples lowers the cap)", path, *len);
			*buf = nb;
			if (cap)
				bigmem_prefault(nb + cap, ncap - cap);
			cap = ncap;
		}
		got = read(fd, *buf + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			return err_set(e, ERR_INTERRUPTED, "%s: interrupted after %zu samples", path, *len);
		if (got < 0)
			return err_set_errno(e, ERR_IO, errno, "%s: read failed", path);
		if (got == 0)
			return 0;
		*len += (size_t)got;
	}
}

int samples_read_file_max(const char *path, size_t max, uint8_t **out, size_t *n, int *more,
			  struct err *e)
{
	uint8_t *buf = NULL;
	size_t len = 0, hint = 0;
	struct stat st;
	int fd, rc, dummy;

	*out = NULL;
	*n = 0;
	if (!more)
		more = &dummy;
	if (max == 0)
		max = SIZE_MAX;
	fd = input_open(path, e);   /* a FIFO with no writer: bounded wait */
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		hint = (uint64_t)st.st_size < max ? (size_t)st.st_size + 1 : max;
	rc = read_up_to(fd, path, max, hint, &buf, &len, more, e);
	if (fd != STDIN_FILENO)
		close(fd);
	if (rc == 0 && len == 0)
		rc = err_set(e, ERR_DATA, "%s: file is empty", path);
	if (rc != 0) {
		free(buf);
		return rc;
	}
	*out = buf;
	*n = len;
	return 0;
}

int samples_read_file(const char *path, uint8_t **out, size_t *n, struct err *e)
{
	return samples_read_file_max(path, 0, out, n, NULL, e);
}

int samples_parse_bits(const char *text, unsigned *bits, struct err *e)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end != '\0' || v < 1 || v > SAMPLES_BITS_MAX)
		return err_set(e, ERR_USAGE, "bits per sample '%s': must be an integer from 1 to 8", text);
	*bits = (unsigned)v;
	return 0;
}
