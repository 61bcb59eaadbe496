/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samples.h - bytes to K-bit samples and back; NIST-format files.
 *
 * NIST format: one sample per byte, the sample in the low K bits (1 <= K <= 8).
 * A source's byte stream is sliced most-significant bit first into K-bit
 * samples; bits left over at the end of a block carry into the next block.
 * Pure functions, no I/O except samples_read_file().
 */
#ifndef RNGAUDIT_SAMPLES_H
#define RNGAUDIT_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define SAMPLES_BITS_MAX 8

struct symbolizer {
	unsigned bits;     /* K, 1..8 */
	uint32_t acc;      /* pending bits, right-aligned */
	unsigned nacc;     /* how many pending bits (< K) */
};

void samples_symbolizer_init(struct symbolizer *sy, unsigned bits);

/* Slices len bytes of in into K-bit samples written to out, which must have
 * room for samples_max_out(sy, len) samples.  Returns the number written. */
size_t samples_symbolize(struct symbolizer *sy, const uint8_t *in, size_t len, uint8_t *out);

/* Upper bound of the samples that len more bytes can yield. */
size_t samples_max_out(const struct symbolizer *sy, size_t len);

/* Expands n K-bit samples into n*K bits (one 0/1 per byte, MSB of each
 * sample first), as 90B's bitstring estimators see them.  out holds n*K. */
void samples_to_bits(const uint8_t *s, size_t n, unsigned bits, uint8_t *out);

/* The same bitstring packed 64 bits a word, its first bit the most
 * significant bit of w[0]: bit i is (w[i / 64] >> (63 - i % 64)) & 1.  The
 * first nbits bits of the n samples are kept (nbits <= n*bits), every bit
 * after them is 0, and w holds samples_packed_words(nbits) words: one zero
 * word past the last bit, so that 64 bits may be read from any bit < nbits
 * (est_bits64).  An eighth of samples_to_bits' memory. */
size_t samples_packed_words(size_t nbits);
void samples_to_packed(const uint8_t *s, size_t n, unsigned bits, size_t nbits, uint64_t *w);

/* Smallest K (1..8) that holds every sample: the bit width NIST's tool infers. */
unsigned samples_infer_bits(const uint8_t *s, size_t n);

/* NIST's read_file symbol translation: numbers the distinct values of s in
 * increasing order 0..k-1 into map[v] (entries of absent values untouched),
 * sets *maxval to the largest value and returns k.  NIST's tool translates
 * the samples (s[i] -> map[s[i]]) when k < *maxval + 1. */
unsigned samples_alphabet(const uint8_t *s, size_t n, uint8_t map[256], unsigned *maxval);

/* The index of the first sample that is not < 2^bits, n when all are. */
size_t samples_first_wide(const uint8_t *s, size_t n, unsigned bits);

/* Returns 0 if every sample is < 2^bits, else ERR_DATA with the index of the
 * first offending sample in *bad (and a message naming what, prefix `what`). */
int samples_check_range(const uint8_t *s, size_t n, unsigned bits, const char *what,
			struct err *e);

/* Reads a whole NIST-format file ("-" = stdin) into a malloc'd array.
 * An empty or unreadable file is an error naming path. */
/* What the estimators need per sample at their peak, on the worst input:
 * peak RSS of `assess -a` on 10^7 8-bit samples (scripts/bench-degenerate.sh)
 * is 114 MB on random data (11 B a sample) but 642 MB on the bits 010
 * repeated (64 B: a repeat at every bit offset sends the bitstring's
 * t-tuple/LRS to the suffix array); `iid` takes 34 MB at 10^6. */
#define SAMPLES_ESTIMATOR_BYTES 64
/* The default cap takes at most a quarter of physical memory for that. */
#define SAMPLES_MEMORY_SHARE 4
/* ... and never less than NIST's recommended 10^6 samples. */
#define SAMPLES_MAX_FLOOR 1000000

/* The most samples assess, iid, restart and conditioning -i read by
 * default: physical memory / SAMPLES_MEMORY_SHARE / SAMPLES_ESTIMATOR_BYTES
 * (about 10^8 with 24 GiB).  NIST's tool reads whole files. */
size_t samples_default_max(void);

/* Reads a NIST-format file ("-" = stdin) whole, up to max samples (0 = no
 * cap); *more (may be NULL) is set to 1 when the input held more than max.
 * A FIFO or device waits a bounded time for data (input.h).  An empty file
 * is ERR_DATA. */
int samples_read_file_max(const char *path, size_t max, uint8_t **out, size_t *n, int *more,
			  struct err *e);
/* The same with no cap (for tests and trusted files). */
int samples_read_file(const char *path, uint8_t **out, size_t *n, struct err *e);

/* Parses K from text: an integer in 1..8. */
int samples_parse_bits(const char *text, unsigned *bits, struct err *e);

#endif
