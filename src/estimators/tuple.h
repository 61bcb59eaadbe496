/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple.h - internals of tuple.c shared with its tests: which suffix
 * structure computes the 90B 6.3.5/6.3.6 tuple counts. */
#ifndef RNGAUDIT_TUPLE_H
#define RNGAUDIT_TUPLE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "estimators/estimators.h"

enum tuple_method {
	TUPLE_AUTO = 0,     /* long bitstrings: counting, else packed keys or runs;
			       else the suffix array */
	TUPLE_SUFFIX_ARRAY, /* divsufsort + PLCP, any alphabet, any repeat length */
	TUPLE_PACKED,       /* bitstrings only: suffixes sorted by their first 64 bits,
			       deep ties by byte ranks or word by word; falls back to
			       the suffix array on bit patterns repeating at every offset */
	TUPLE_PACKED_RANKED, /* tests: TUPLE_PACKED with the byte ranks from the first
				deep tie at the same offset */
	TUPLE_RUNS,         /* bitstrings only: the LCPs from the runs of the rarer
			       bit (tuple_runs.c); auto for skewed bitstrings */
	TUPLE_PACKED_STACK, /* tests: TUPLE_PACKED with every depth on lcpint's stack */
	TUPLE_PACKED_SHALLOW, /* tests: TUPLE_PACKED with the depths below 64 from
				 lcpshallow.c, with or without AVX-512 */
	TUPLE_COUNT,        /* bitstrings below 2^32 bits: the windows counted,
			       no suffix order (tuple_count.c); hands repeats
			       to TUPLE_PACKED; auto from 2^18 bits */
};

/* pow(p, r) near 1 without pow(), for tuple.c's terms (and, as hi + lo,
 * for its bounds on blocks of them: tuple_pow_near_one_sum): a stuck source's
 * long run makes millions of them, all taken (they rise towards the middle
 * of the run, so no sample bounds a block below the maximum), at ~20 ns a
 * pow().  For p in [1 - 2^-20, 1] and r <= 1, x = 1 - p is exact, l =
 * log(p) r a short series in x, and p^r = e^l = 1 + l + l^2/2 + l^3/6:
 * what is left out is below 2^-80, l's rounding ~2^-50 |l| <= 2^-70, and
 * hi + lo is that sum (to ~2^-94), hi the double nearest it and lo the
 * rest (two Fast2Sums).  pow() is within 0.54 ulp of the exact power
 * (glibc's e_pow.c since 2.28, musl's, Arm's optimized routines), so where
 * that power is within 0.375 ulp of hi (|lo| <= 0.75 2^-54; below 1 an ulp
 * is 2^-53) pow() returns hi, the only double that close: returns 1 then.
 * Else 0: the power is hi or a neighbour.  *v = hi either way.  The
 * Fast2Sums need IEEE arithmetic as written: -ffast-math reassociates them
 * to lo = 0 (every term "sure", millions wrong), hence the #error.  A libm
 * whose pow() is worse than ~0.6 ulp would break the claim, and
 * test_est_tuple's comparison with pow() would say so. */
#ifdef __FAST_MATH__
#error "tuple_pow_near_one needs IEEE arithmetic: build without -ffast-math"
#endif
static inline void tuple_pow_near_one_sum(double p, double r, double *hi, double *lo)
{
	const double x = 1.0 - p;   /* exact: p >= 1/2 (Sterbenz) */
	const double l = -x * (1.0 + x * (0.5 + x * (1.0 / 3.0))) * r;
	const double t = 1.0 + l;
	/* t's error (exact), and the higher terms: up to 2^-41, thousands of
	 * ulps when l is near 2^-20 */
	const double c = (l - (t - 1.0)) + l * l * (0.5 + l * (1.0 / 6.0));

	*hi = t + c;
	*lo = c - (*hi - t);   /* exact: |c| < |t| */
}

static inline int tuple_pow_near_one(double p, double r, double *v)
{
	double lo;

	tuple_pow_near_one_sum(p, r, v, &lo);
	return fabs(lo) <= 0.75 * 0x1p-54;
}

/* The p of tuple_pow_near_one's series */
#define TUPLE_NEAR_ONE (1.0 - 0x1p-20)

/* The longest bitstring tuple_count.c takes (its positions are 32-bit) */
#define TUPLE_COUNT_MAX ((size_t)UINT32_MAX - 1)

struct lcpint;

/* 90B 6.3.5 step 1 / 6.3.6 step 1: a tuple must occur at least 35 times. */
#define TUPLE_MIN_COUNT 35

/* The LCPs of 64 bits and more in sorted order, one 63 in place of each
 * run of shorter ones: all the second LRS walk needs (tuple.c).  Kept as
 * runs of arithmetic progressions (first, first + step, ...): the copies
 * of a repeat sort by length, so their LCPs step by its period, and a
 * counter or a repeated block keeps a few runs per group of copies instead
 * of 4 bytes per suffix (the 80M suffixes of a 10M-byte counter: 320 MB).
 * Values and steps wrap modulo 2^32 as they are stored, and every LCP is
 * below 2^32: the runs give each back exactly. */
struct tuple_deep_run {
	uint32_t first, step, count;
};

struct tuple_deep {
	struct tuple_deep_run *run;
	size_t len, cap;   /* runs */
};

/* The k-th value of run r (k < r->count). */
static inline uint32_t tuple_deep_at(const struct tuple_deep_run *r, uint32_t k)
{
	return r->first + k * r->step;
}

/* Appends v to the last run when it continues it (a run of one takes
 * any second value): 1, else 0 (then tuple_deep_new_run). */
static inline int tuple_deep_extend(struct tuple_deep *d, uint32_t v)
{
	struct tuple_deep_run *r = d->len ? &d->run[d->len - 1] : NULL;

	if (!r || r->count == UINT32_MAX || (r->count > 1 && tuple_deep_at(r, r->count) != v))
		return 0;
	if (r->count == 1)
		r->step = v - r->first;
	r->count++;
	return 1;
}

/* Doubles the room for runs: 0, or -1 out of memory. */
int tuple_deep_grow(struct tuple_deep *d);

/* Appends v as a run of its own: 0, or -1 out of memory.  Inline: a
 * block repeated 10 times starts a run every ~5 suffixes. */
static inline int tuple_deep_new_run(struct tuple_deep *d, uint32_t v)
{
	if (d->len == d->cap && tuple_deep_grow(d) != 0)
		return -1;
	d->run[d->len].first = v;
	d->run[d->len].step = 0;
	d->run[d->len].count = 1;
	d->len++;
	return 0;
}

/* The packed scan (tuple_packed.c): 1 when st holds the walk of every
 * suffix and deep its long LCPs (the caller frees deep->lcp either way),
 * 0 when the input should go to the suffix array instead, or a negative
 * err code.  flags: 0, or for tests the TUPLE_SCAN_ ones below. */
#define TUPLE_SCAN_RANKS_NOW 1   /* see TUPLE_PACKED_RANKED */
#define TUPLE_SCAN_STACK 2       /* see TUPLE_PACKED_STACK */
#define TUPLE_SCAN_SHALLOW 4     /* see TUPLE_PACKED_SHALLOW */
int tuple_scan_packed(const uint8_t *s, size_t n, struct lcpint *st, struct tuple_deep *deep,
		      int flags, struct err *e);
/* The same on bits already packed as samples_to_packed packs them. */
int tuple_scan_words(const uint64_t *w, size_t n, struct lcpint *st, struct tuple_deep *deep,
		     int flags, struct err *e);
/* The counting road (tuple_count.c): 1 when st holds Q and S below 64 and
 * the LRS length, and, when that is 64 or more, td the runs that give S
 * (and with a period Q) from 64 on (the caller frees them); 0 when the
 * packed scan should answer (copies of 64-bit windows at more than
 * TUPLE_DIST_MAX distances, or pairs of copies the runs at them do not
 * hold (tuple_dist_account), too many entries met, a group outgrowing its
 * room, or n outside 64 .. TUPLE_COUNT_MAX), or a negative err code. */
struct tuple_dist;
int tuple_count_words(const uint64_t *w, size_t n, struct lcpint *st, struct tuple_dist *td,
		      struct err *e);
/* Q[t] and S[t] below 64 (q, s) and, td non-NULL (finished), the counts
 * from 64 on given to the first walk's state st as a walk would have left
 * them, with the LRS length and the last t whose Q reaches 35 (for the
 * counting and periodic roads): 0, or -1 out of memory. */
int tuple_counts_set(struct lcpint *st, const uint32_t *q, const uint64_t *s, const struct tuple_dist *td);
/* The roads' one-line error when n bits' structures do not fit in memory:
 * ERR_NOMEM in e, returned. */
int tuple_nomem(struct err *e, size_t n);
/* The periodic road (tuple_period.c), which the counting road tries first:
 * 1 when the bitstring repeats one period of at most TUPLE_PERIOD_MAX bits
 * from its first bit to its last, its phases distinct on 64 bits (st and
 * td then as for tuple_count_words), 0 when not, or a negative err code. */
#define TUPLE_PERIOD_MAX ((size_t)1 << 16)
int tuple_period_words(const uint64_t *w, size_t n, struct lcpint *st, struct tuple_dist *td,
		       struct err *e);

/* 1 when no term of a block of lengths up to b1 can exceed pmax, p
 * bounding its P's (tuple_max.c: each term is pow(P_t, 1.0 / t), P_t <= p, t
 * <= b1); 0 when the block needs every length. */
int tuple_block_below(double p, size_t b1, double pmax);

/* Where the counts of 64 bits and more come from: the walk's samples
 * every 64 lengths and a second walk over the LCPs of 64 and more, which
 * are the packed scan's deep list (above), every LCP from the runs
 * (tuple_runs.c, in reverse order), or the LCP array lcp[0..n-1] (the
 * suffix array's road); or, on the counting road, S and Q straight from
 * the runs of tuple_dist.c (dist; Q only with a period: otherwise u < 64
 * there, and Q is never read past 63). */
struct tuple_runs;
struct tuple_lcps {
	const uint32_t *lcp;
	size_t n;
	const struct tuple_deep *deep;
	const struct tuple_dist *dist;
	struct tuple_runs *runs;   /* or every LCP from the runs (tuple_runs.c) */
};

/* The first walk (tuple_max.c), over every LCP of lcps (the suffix
 * array's or the runs'; v the largest, or 0 when not known), into st:
 * 0 or a negative err code. */
int tuple_walk_lcps(struct lcpint *st, const struct tuple_lcps *lcps, size_t v, struct err *e);
/* The two estimates from the first walk st over n samples (tuple_max.c),
 * with a second walk over lcps where the samples do not settle the
 * maxima.  Returns 0 or -1 (out of memory). */
int tuple_finish(struct lcpint *st, size_t n, struct est_result *tr, struct est_result *lr,
		 const struct tuple_lcps *lcps);

/* Tests: 0 makes every block of 64 lengths past the first a candidate
 * for the second walk, as if no bound settled any (tuple_block_below):
 * the maxima must not change.  Returns enable. */
int tuple_settle_blocks(int enable);

/* The LCPs of a bitstring's sorted suffixes from the runs of its rarer
 * bit (tuple_runs.c), generated a buffer at a time in O(K) memory for K
 * runs: s[0..n) (bit 0 of each byte) or, s NULL, the packed bits w
 * (estimators.h).  tuple_runs_new: 0, or -1 when out of memory or past
 * its limits (n >= 2^32, 65,535 distinct run lengths, 2^31 bytes of run
 * tokens).  tuple_runs_next fills buf with up to cap of the LCPs in
 * reverse order, lcp[n - 1] first and lcp[1] last (the intervals of the
 * order are those of its reverse), and returns how many: 0 once all n - 1
 * are out; tuple_runs_rewind starts them again. */
int tuple_runs_new(const uint8_t *s, const uint64_t *w, size_t n, struct tuple_runs **r);
size_t tuple_runs_next(struct tuple_runs *r, uint32_t *buf, size_t cap);
void tuple_runs_rewind(struct tuple_runs *r);
void tuple_runs_free(struct tuple_runs *r);

int tuple_lrs_run(const uint8_t *s, size_t n, unsigned k, enum tuple_method m,
		  struct est_result *tuple, struct est_result *lrs, struct err *e);

#endif
