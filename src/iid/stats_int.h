/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats_int.h - what stats.c (the byte path) and stats_bits.c (packed
 * binary data) share: the work buffers, the statistic numbering and the
 * kernels both use.  Internal to src/iid/. */
#ifndef RNGAUDIT_IID_STATS_INT_H
#define RNGAUDIT_IID_STATS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "bitops.h"
#include "iid/iid.h"

enum {
	ST_EXCURSION = 0, ST_NUMDIR, ST_LENDIR, ST_NUMINCDEC, ST_NUMMED, ST_LENMED,
	ST_AVGCOL, ST_MAXCOL, ST_PERIOD0, ST_COV0 = 13, ST_COMPRESSION = 18,
};

/* 90B 5.1.9 / 5.1.10 lags */
static const unsigned iid_lags[5] = { 1, 2, 8, 16, 32 };

/* the excursion's integer form needs 255 n^2 < 2^63 */
#define IID_EXACT_MAX_N 100000000

struct iid_bintab;

struct iid_scratch {
	size_t n;
	uint8_t *cs1, *cs2;      /* Conversion I and II, ceil(n/8) each */
	char *text;              /* decimal rendering for bzip2, <= 4n + 1 */
	uint8_t *vals;           /* binary data's values, unpacked, for bzip2 */
	char *dest;              /* bzip2 output */
	size_t dest_cap;
	struct iid_bzwork *bz;   /* exact bzip2 sizes without libbz2's sorter */
	int fast_bz;             /* use it (validated against libbz2 by the caller) */
	struct iid_bintab *bin;  /* tables for packed binary data ... */
	const struct iid_data *bin_for;   /* ... built for this data */
};

static inline int wanted(const unsigned char *want, int i)
{
	return !want || want[i];
}

static inline int any_wanted(const unsigned char *want, int from, int to)
{
	for (int i = from; i <= to; i++)
		if (wanted(want, i))
			return 1;
	return 0;
}

/* Runs of equal bits in a stream fed 64 bits at a time (bit 0 first), for
 * the run statistics of 5.1.2-5.1.6: a word costs a few operations unless
 * it could hold a run longer than the longest so far. */
struct iid_bitruns {
	size_t changes;   /* adjacent unequal pairs */
	size_t longest;   /* longest finished run (see iid_bitruns_longest) */
	size_t cur;       /* the run in progress */
	unsigned last;    /* its bit; 2 before the first bit */
};

static inline void iid_bitruns_init(struct iid_bitruns *r)
{
	r->changes = r->longest = r->cur = 0;
	r->last = 2;
}

/* the low nbits (1..64) bits of v */
static inline __attribute__((always_inline)) void iid_bitruns_feed(struct iid_bitruns *r,
								   uint64_t v, unsigned nbits)
{
	uint64_t mask = nbits == 64 ? ~0ULL : (1ULL << nbits) - 1, b0 = v & 1, inv, t;
	size_t lead;
	unsigned trail;

	v &= mask;
	/* changes between neighbours: with the previous bit shifted in */
	t = (v ^ (v << 1 | (r->last == 1))) & mask;
	if (r->last == 2)
		t &= ~1ULL;
	r->changes += bitops_popcount64(t);

	if (b0 != r->last) {            /* the run in progress ended */
		r->longest = r->cur > r->longest ? r->cur : r->longest;
		r->cur = 0;
	}
	inv = (b0 ? ~v : v) & mask;     /* ones where the bit differs from bit 0 */
	lead = inv ? (unsigned)__builtin_ctzll(inv) : nbits;
	if (lead == nbits) {            /* one value throughout */
		r->cur += nbits;
		r->last = (unsigned)b0;
		return;
	}
	lead += r->cur;
	r->longest = lead > r->longest ? lead : r->longest;
	/* the word's own runs (the first and last included: each is part of
	 * a real run, so counting it cannot overstate the longest); a run of
	 * all nbits would be the constant word, handled above */
	if (r->longest + 1 < nbits) {
		unsigned want = (unsigned)r->longest + 1;
		uint64_t zeros = ~v & mask;
		/* a run of 15 or more holds a whole aligned byte: most words
		 * have no byte 0x00 or 0xff (SWAR zero-byte tests) and no
		 * such run; the shift tests settle the rest */
		const uint64_t lo = 0x0101010101010101ULL, hi = 0x8080808080808080ULL;
		int maybe = want < 15 || nbits < 64 ||
			    (((v - lo) & ~v & hi) | ((zeros - lo) & ~zeros & hi)) != 0;
		if (maybe && (bitops_has_run(v, want) || bitops_has_run(zeros, want))) {
			unsigned a = bitops_longest_ones(v), b = bitops_longest_ones(zeros);
			unsigned mx = a > b ? a : b;
			r->longest = mx > r->longest ? mx : r->longest;
		}
	}
	r->last = (unsigned)(v >> (nbits - 1) & 1);
	/* the last run: count the top bits equal to the last bit */
	inv = (r->last ? ~v : v) & mask;
	trail = nbits - 1 - (unsigned)(63 - __builtin_clzll(inv));
	r->cur = trail;
}

/* the longest run, the one in progress included */
static inline size_t iid_bitruns_longest(const struct iid_bitruns *r)
{
	return r->cur > r->longest ? r->cur : r->longest;
}

/* 5.1.2-5.1.4 over x[0..m-1]: number of runs, longest run, max(#+1, #-1) */
void iid_stat_directional(const uint8_t *x, size_t m, long double *num, long double *len,
			  long double *incdec);
/* 5.1.7-5.1.8: average and maximum collision stretch */
void iid_stat_collisions(const uint8_t *x, size_t n, long double *avg, long double *max);
/* 5.1.9 and 5.1.10 at lag p */
unsigned long iid_stat_periodicity(const uint8_t *x, size_t m, unsigned p);
unsigned long iid_stat_covariance(const uint8_t *x, size_t m, unsigned p);
/* "v " for v in 0..255 (*len characters, rows padded to 5 bytes) */
const char *iid_dec_str(unsigned v, unsigned *len);
/* 5.1.11: scores the samples v[0..n-1] (bzip2's size of their decimal
 * text; w->text is scratch) */
int iid_compress_values(const uint8_t *v, size_t n, struct iid_scratch *w, long double *out,
			struct err *e);

#endif
