/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lcpint.h - bottom-up walk of the LCP intervals of a sorted suffix list
 * (Abouelhoda, Kurtz, Ohlebusch 2004), the shared core of the 90B 6.3.5
 * t-tuple and 6.3.6 LRS counts (tuple.c, tuple_packed.c).
 *
 * Fed the LCP of each adjacent pair of sorted suffixes, it visits every
 * maximal run of suffixes sharing a prefix once, as an interval of depth l,
 * size c and parent depth p: the run of every tuple length t in (p, l].
 */
#ifndef RNGAUDIT_LCPINT_H
#define RNGAUDIT_LCPINT_H

#include <stddef.h>
#include <stdint.h>

/* Q and S are sampled every LCPINT_STRIDE lengths in LCPINT_COARSE mode. */
#define LCPINT_STRIDE 64
/* Intervals ahead for the prefetches of a long run's closing (lcpint_step) */
#define LCPINT_AHEAD 16

/* What the walk accumulates, for depths up to v (the LRS length):
 * mx[l - qlo]  = the largest run with depth l, for l in [qlo, qhi], the
 *                deeper ones at qhi (Q is the suffix maximum),
 * sd[W - soff] = the differences of S over W in [soff, send + 1], deeper
 *                runs clipped at send,
 * mc[j], cd[j] = LCPINT_COARSE: the largest run with depth in [64 j, 64 j + 63]
 *                and the differences of S at W = 64 j (every j <= v / 64),
 * me[j]        = LCPINT_COARSE: the largest size + depth of a run with depth
 *                in [64 j, 64 j + 63] (0: none), which bounds Q within the
 *                block more tightly than mc (tuple.c, termmax_scan).
 * Long repeats make v millions, and Q and S at every length arrays that
 * the walk updates at random, millions of times: the first walk keeps them
 * exactly below 64 and at multiples of 64 only (cache-sized), and tuple.c
 * walks again over just the lengths those samples cannot settle, with mx
 * and sd as windows there. */
/* The stack of open intervals (depth, left bound) is kept as runs: count
 * intervals whose depths step by `step` and whose left bounds step by one,
 * from (depth, lb) on.  A chain of ever deeper intervals opened at
 * consecutive suffixes is one run: bits that repeat at every offset (010
 * repeated) open one per suffix, a chain of 27M at 80M bits that took
 * 216 MB as pairs. */
struct lcpint_run {
	uint32_t depth, lb, count, step;
};

struct lcpint {
	struct lcpint_run *run;   /* run[0] holds the depth 0 that never closes */
	size_t top, cap;      /* runs */
	size_t dtop, ltop;    /* the innermost open interval's depth and left bound */
	size_t idx;           /* index of the next item in sorted order */
	uint32_t *mx;
	size_t qlo, qhi;      /* mx covers depths qlo..qhi */
	uint64_t *sd;
	uint32_t *sd32;       /* LCPINT_NARROW: sd in 32 bits instead */
	size_t soff, send;    /* sd covers W in soff..send */
	uint32_t *mc;         /* LCPINT_COARSE: largest run per 64 depths */
	uint64_t *cd;         /* LCPINT_COARSE: differences of S at W = 64 j */
	uint32_t *me;         /* LCPINT_COARSE: largest size + depth per 64 depths */
	size_t ccap;          /* mc and cd cover j in 0..ccap */
	size_t dmax;          /* no interval is deeper (0: unknown) */
	size_t qmin;          /* runs of at least qmin suffixes ... */
	size_t qdeep;         /* ... reach this depth at most */
	int narrow;           /* LCPINT_NARROW */
	int coarse;           /* LCPINT_COARSE */
	size_t v;             /* largest depth seen: the LRS length */
	int nomem;
};

/* mx covers depths qlo..qhi, sd covers W in soff..send (empty when soff >
 * send).  Flags: LCPINT_COARSE also samples Q and S at every 64 j, j >= 1,
 * up to v (mc and cd grow as needed, to st->dmax / 64 + 1 at most when
 * st->dmax, the deepest an interval can be, is set after init).
 * LCPINT_NARROW keeps the differences of S in 32 bits, modulo 2^32, for
 * callers that only read S[W] where it is below 2^32: the sums are exact
 * there.  st->qdeep follows the deepest run of st->qmin suffixes or more
 * (set qmin after init).  Returns 0 or -1 (out of memory). */
#define LCPINT_NARROW 1
#define LCPINT_COARSE 2
int lcpint_init(struct lcpint *st, size_t qlo, size_t qhi, size_t soff, size_t send, int flags);
/* Turns the runs and differences into Q (up to depth `upto`) and S (up to
 * W = upto), and the samples. */
void lcpint_sum(struct lcpint *st, size_t upto);
/* Q[t] (qlo <= t <= qhi) and S[W] (soff <= W <= send) once lcpint_sum()
 * has run. */
static inline uint32_t lcpint_q(const struct lcpint *st, size_t t)
{
	return st->mx[t - st->qlo];
}
static inline uint64_t lcpint_s(const struct lcpint *st, size_t w)
{
	return st->narrow ? st->sd32[w - st->soff] : st->sd[w - st->soff];
}
/* LCPINT_COARSE: Q[64 j] and S[64 j] (1 <= j, 64 j <= v) once lcpint_sum()
 * has run. */
static inline uint32_t lcpint_q_sample(const struct lcpint *st, size_t j)
{
	return st->mc[j];
}
static inline uint64_t lcpint_s_sample(const struct lcpint *st, size_t j)
{
	return st->cd[j];
}
/* LCPINT_COARSE: the largest size + depth of a run with depth in
 * [64 j, 64 j + 63], 0 when there is none (j <= v / 64).  A run of size c
 * at depth l has c + l <= n + 1 (only n - l + 1 suffixes are l long), so
 * this fits 32 bits wherever the walk's depths and sizes do. */
static inline uint32_t lcpint_reach_sample(const struct lcpint *st, size_t j)
{
	return st->me[j];
}
/* Leaves every depth up to `floor` to the caller (lcpshallow.h does those
 * below 64): the stack starts at floor, and fed LCPs clamped up to floor
 * it opens and closes only the deeper intervals, each with a parent depth
 * of at least floor (which keeps S below it untouched).  Right after init;
 * close with lcpint_step(st, floor) instead of 0. */
void lcpint_set_floor(struct lcpint *st, size_t floor);
/* Q[t] and S[t] for t up to `upto` (< 64, within qhi and send) given
 * outright, as a walk would have left them for lcpint_sum(), by a road
 * that counts them without one (tuple_count.c); the caller sets v and
 * qdeep.  Right after init. */
void lcpint_set_counts(struct lcpint *st, const uint32_t *q, const uint64_t *s, size_t upto);
void lcpint_free(struct lcpint *st);
/* Internals of lcpint_step(): an interval closes; the stack grows. */
void lcpint_report(struct lcpint *st, size_t depth, size_t size, size_t parent);
int lcpint_push_grow(struct lcpint *st);

/* Closes the innermost open interval: the next one out is now innermost. */
static inline void lcpint_pop(struct lcpint *st)
{
	struct lcpint_run *r = &st->run[st->top];

	if (r->count > 1) {
		r->count--;
		st->dtop -= r->step;
		st->ltop--;
	} else {
		r = &st->run[--st->top];
		st->dtop = r->depth + (size_t)(r->count - 1) * r->step;
		st->ltop = r->lb + r->count - 1;
	}
}

/* Opens an interval of depth > dtop at left bound lb: 0, or -1 out of
 * memory. */
static inline int lcpint_push(struct lcpint *st, size_t depth, size_t lb)
{
	struct lcpint_run *r = &st->run[st->top];

	if (lb == st->ltop + 1 && (r->count == 1 || depth - st->dtop == r->step) &&
	    depth - st->dtop <= UINT32_MAX && r->count < UINT32_MAX) {
		r->step = (uint32_t)(depth - st->dtop);
		r->count++;
	} else {
		if (st->top + 1 >= st->cap && lcpint_push_grow(st) != 0)
			return -1;
		r = &st->run[++st->top];
		r->depth = (uint32_t)depth;
		r->lb = (uint32_t)lb;
		r->count = 1;
		r->step = 0;
	}
	st->dtop = depth;
	st->ltop = lb;
	return 0;
}

/* Feeds the LCP of sorted items idx-1 and idx; feed 0 once past the last
 * item to close every interval.  Sets st->nomem on allocation failure.
 * Inline, always: the walks call it once per suffix, and with the stack's
 * runs GCC 12 stopped inlining it on its own (the bitstring t-tuple/LRS of
 * a 100 KB block repeated to 10M bytes, min of 5: 4.55 -> 4.13 s; of 10M
 * random bytes 1.91 -> 1.83 s). */
static inline __attribute__((always_inline)) void lcpint_step(struct lcpint *st, size_t lcp)
{
	size_t i = st->idx++, lb = i - 1;

	while (lcp < st->dtop) {
		size_t depth = st->dtop, left = st->ltop;
		const struct lcpint_run *r = &st->run[st->top];

		/* a long run closes one interval a step, each updating the
		 * samples at its depth / 64: what the push asked for has
		 * left the cache when the run is thousands long (a counter's
		 * 39,000 copies), so ask again, LCPINT_AHEAD intervals ahead */
		if (r->count > LCPINT_AHEAD && st->ccap > 0) {
			size_t j = (depth - LCPINT_AHEAD * (size_t)r->step) / LCPINT_STRIDE;

			if (j + 1 <= st->ccap) {
				__builtin_prefetch(&st->mc[j], 1);
				__builtin_prefetch(&st->me[j], 1);
				__builtin_prefetch(&st->cd[j + 1], 1);
			}
		}
		lcpint_pop(st);
		lcpint_report(st, depth, i - left, st->dtop > lcp ? st->dtop : lcp);
		lb = left;
	}
	if (lcp > st->dtop) {
		if (lcpint_push(st, lcp, lb) != 0)
			return;
		/* the interval closes later and then updates its samples at
		 * lcp / 64, anywhere in arrays of v / 64, or the differences
		 * of S at lcp + 1, anywhere in a window of millions (the
		 * second walk of a long repeated block): fetch them now */
		if (lcp >= LCPINT_STRIDE && lcp / LCPINT_STRIDE < st->ccap) {
			__builtin_prefetch(&st->mc[lcp / LCPINT_STRIDE], 1);
			__builtin_prefetch(&st->me[lcp / LCPINT_STRIDE], 1);
			__builtin_prefetch(&st->cd[lcp / LCPINT_STRIDE + 1], 1);
		} else if (st->narrow && lcp >= st->soff && lcp <= st->send) {
			__builtin_prefetch(&st->sd32[lcp + 1 - st->soff], 1);
		}
	}
}

#endif
