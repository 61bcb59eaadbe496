/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_max.c - the two estimates of 90B 6.3.5 t-tuple and 6.3.6 LRS from
 * the counts tuple.c's roads leave (Q and S below 64 and every 64
 * lengths): their maxima of P_i^(1/i) over millions of lengths, and the
 * walks over the LCPs that fill in what the samples cannot settle. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "estimators/lcpint.h"
#include "estimators/tuple.h"
#include "estimators/tuple_dist.h"

/* The p-hats of 6.3.5 and 6.3.6 are maxima of P_i^(1/i) over i up to u or
 * v, which long repeats make millions.  The first walk gave Q and S
 * exactly below 64 and at every 64 j (lcpint.h); those terms are a floor
 * for the maximum.  In a block [64 j, 64 j + 63], Q and S are at most
 * their sample at 64 j (both fall as the length grows), and the
 * denominators are smallest at the block's end b1, so every term is at
 * most p^(1/b1) for that bound p (P_i <= 1; for Q a tighter p from the
 * block's runs, tuple_q_bound): a block whose bound stays below the floor
 * (by more than pow's rounding) cannot hold the maximum.  The other
 * blocks (for long repeats, a few hundred near v against millions of
 * lengths; none on a stuck source's 80M-bit run, where they were all of
 * them) need every length: one more walk, over the LCPs of 64 and more,
 * into windows of mx and sd just that wide.  Every term
 * taken is NIST's term in double (term_take), so the maximum is the one
 * NIST's loop finds, in double. */
int tuple_block_below(double p, size_t b1, double pmax)
{
	const double r = 1.0 / (double)b1;
	double hi, lo;

	if (p > 1.0)
		p = 1.0;
	if (!(pmax > 0.0))
		return 0;
	if (p < TUPLE_NEAR_ONE || pmax < 0.5)
		return pow(p, r) * (1.0 + 8 * DBL_EPSILON) <= pmax;
	/* Near 1 a stuck source's terms all lie within a few dozen ulps, and
	 * that slack kept ~40% of its blocks.  There the power is known to
	 * ~2^-70 (tuple_pow_near_one_sum: hi + lo), and a term can exceed
	 * pmax only if its exact power is 0.46 ulp above it at least (pow()
	 * is within 0.54 ulp; an ulp is 2^-53 in [1/2, 1)).  A term's exact
	 * power is at most the bound's (p_t <= p, 1/t >= 1/b1, both rounded
	 * monotonically), so the block can raise the maximum only if the
	 * bound's power is that far above pmax: hi - pmax is exact (Sterbenz),
	 * and 0.45 leaves room for the series' error and this sum's. */
	tuple_pow_near_one_sum(p, r, &hi, &lo);
	return (hi - pmax) + lo < 0.45 * 0x1p-53;
}

/* C(n - W + 1, 2): the pairs of W-tuples (6.3.6 step 4). */
static inline uint64_t tuple_pairs(size_t n, size_t w)
{
	return ((uint64_t)(n - w) * (uint64_t)(n - w + 1)) >> 1;
}

/* One maximum: of 6.3.5's P_t = Q[t] / (n - t + 1) or 6.3.6's P_W =
 * S[W] / C(n - W + 1, 2), raised to 1/i, over i in [lo, hi]. */
struct termmax {
	int lrs;
	size_t lo, hi;
	double pmax;
	unsigned char *cand;   /* cand[j]: block j needs every length */
	size_t jlo, jhi;       /* the first and last such block; jlo = 0: none */
	size_t wlo, whi;       /* the lengths they cover */
};

/* A term's p: P_t = Q[t] / (n - t + 1), or P_W = S[W] / C(n - W + 1, 2). */
static inline double term_p(const struct termmax *tm, uint64_t count, size_t n, size_t i)
{
	return tm->lrs ? (double)count / (double)tuple_pairs(n, i) : (double)count / (double)(n - i + 1);
}

/* tm's maximum, with the term of count at length i: pow(P, 1.0 / i) in
 * double, or the double pow() would return (tuple_pow_near_one, tuple.h).
 * (NIST's tool at 68ed165 takes it in long double, powl() in
 * shared/lrs_test.h; man/ea_non_iid.1 says how far the two agree.) */
static inline void term_take(struct termmax *tm, uint64_t count, size_t n, size_t i)
{
	const double p = term_p(tm, count, n, i), r = 1.0 / (double)i;
	double v;

	if (!(p >= TUPLE_NEAR_ONE && p <= 1.0)) {
		v = pow(p, r);
	} else if (!tuple_pow_near_one(p, r, &v)) {
		/* pow() gives at most hi's upper neighbour, hi + 2^-53 below
		 * 1: when that is not above the maximum, nor is this term */
		if (v < 1.0 && v + 0x1p-53 <= tm->pmax)
			return;
		v = pow(p, r);
	}
	if (tm->pmax < v)
		tm->pmax = v;
}

/* Q[i] or S[i] (as tm is 6.3.5's or 6.3.6's) from the runs of tuple_dist.c,
 * i >= 64. */
static inline uint64_t term_count_dist(const struct termmax *tm, const struct tuple_dist *dist, size_t i)
{
	return tm->lrs ? tuple_dist_s(dist, i) : tuple_dist_q(dist, i);
}

/* Q[64 j] or S[64 j] (j >= 1), a sample of the first walk's or from the
 * runs. */
static uint64_t termmax_sample(const struct termmax *tm, const struct lcpint *st,
			       const struct tuple_lcps *lcps, size_t j)
{
	if (lcps->dist)
		return term_count_dist(tm, lcps->dist, j * LCPINT_STRIDE);
	return tm->lrs ? lcpint_s_sample(st, j) : lcpint_q_sample(st, j);
}

/* 90B 6.3.5: a bound on P_t = Q[t] / (n - t + 1) over the lengths t in
 * [b0, b1] of block j (b0 = 64 j), from the first walk.  Q[t] is the
 * largest run of depth t or more.  One of depth l within the block has
 * at most me - l <= me - t suffixes (me: the block's largest size +
 * depth), and (me - t) / (n - t + 1) falls as t grows (me <= n + 1); the
 * deeper ones are within Q[64 (j + 1)], over at least n - b1 + 1.  The
 * plain bound, Q[b0] / (n - b1 + 1), is above 1 on a stuck source's long
 * run, whose count falls by one a length as its denominator does: every
 * block then stayed a candidate, and the second walk took a window of
 * every length (80M at 10M samples of 8 bits, 320 MB).  Rounding keeps
 * the order: each side is one rounded quotient of exact integers, as
 * term_p's is. */
static double tuple_q_bound(const struct lcpint *st, size_t n, size_t j, size_t b1)
{
	const size_t b0 = j * LCPINT_STRIDE, me = lcpint_reach_sample(st, j);
	const uint64_t deeper = j + 1 <= st->ccap ? lcpint_q_sample(st, j + 1) : 0;
	double p = (double)deeper / (double)(n - b1 + 1);

	if (me > b0) {
		const double here = (double)(me - b0) / (double)(n - b0 + 1);

		if (here > p)
			p = here;
	}
	return p;
}

static int settle_blocks = 1;

int tuple_settle_blocks(int enable)
{
	__atomic_store_n(&settle_blocks, enable, __ATOMIC_RELAXED);
	return enable;
}

/* The exact terms of the first walk, then the blocks they cannot settle.
 * Returns 0 or -1 (out of memory). */
static int termmax_scan(struct termmax *tm, const struct lcpint *st, const struct tuple_lcps *lcps,
			size_t n)
{
	const size_t stride = LCPINT_STRIDE, jmax = tm->hi / stride;

	for (size_t i = tm->lo; i <= tm->hi && i < stride; i++)
		term_take(tm, tm->lrs ? lcpint_s(st, i) : lcpint_q(st, i), n, i);
	for (size_t j = tm->lo > stride ? (tm->lo + stride - 1) / stride : 1; j <= jmax; j++)
		term_take(tm, termmax_sample(tm, st, lcps, j), n, j * stride);
	if (jmax == 0)
		return 0;
	tm->cand = calloc(jmax + 1, 1);
	if (!tm->cand)
		return -1;
	for (size_t j = 1; j <= jmax; j++) {
		size_t b0 = j * stride, b1 = b0 + stride - 1 < tm->hi ? b0 + stride - 1 : tm->hi;
		uint64_t bound = termmax_sample(tm, st, lcps, j);

		if (b1 < tm->lo || b1 == b0)
			continue;   /* no length in [lo, hi], or only the sample */
		double p = term_p(tm, bound, n, b1);

		if (!tm->lrs && !lcps->dist) {
			const double q = tuple_q_bound(st, n, j, b1);

			p = q < p ? q : p;   /* two bounds: the lower holds */
		}
		if (b0 >= tm->lo && __atomic_load_n(&settle_blocks, __ATOMIC_RELAXED) &&
		    tuple_block_below(p, b1, tm->pmax))
			continue;
		tm->cand[j] = 1;
		if (tm->jlo == 0)
			tm->jlo = j;
		tm->jhi = j;
	}
	if (tm->jlo > 0) {
		tm->wlo = tm->jlo * stride > tm->lo ? tm->jlo * stride : tm->lo;
		tm->whi = tm->jhi * stride + stride - 1 < tm->hi ? tm->jhi * stride + stride - 1 : tm->hi;
	}
	return 0;
}

/* The terms of the blocks left, from the second walk (fine) or the runs
 * (dist, for S). */
static void termmax_finish(struct termmax *tm, const struct lcpint *fine, const struct tuple_dist *dist,
			   size_t n)
{
	for (size_t j = tm->jlo; tm->jlo > 0 && j <= tm->jhi; j++) {
		size_t b0 = j * LCPINT_STRIDE > tm->lo ? j * LCPINT_STRIDE : tm->lo;
		size_t b1 = j * LCPINT_STRIDE + LCPINT_STRIDE - 1 < tm->hi ? j * LCPINT_STRIDE + LCPINT_STRIDE - 1
									 : tm->hi;

		for (size_t i = b0; tm->cand[j] && i <= b1; i++)
			term_take(tm, dist ? term_count_dist(tm, dist, i)
					   : tm->lrs ? lcpint_s(fine, i) : lcpint_q(fine, i),
				  n, i);
	}
}

/* LCPs below the windows only close runs: one value for them all keeps
 * the walk to the intervals deep enough to matter */
static inline size_t lcp_floored(size_t l, size_t floor)
{
	return l < floor ? floor - 1 : l;
}

/* Feeds st every LCP of lcps (deep, runs or lcp), floored (floor 0:
 * as they are), then the 0 that closes every interval. */
static void lcps_feed(struct lcpint *st, const struct tuple_lcps *lcps, size_t floor)
{
	if (lcps->deep) {
		for (size_t r = 0; r < lcps->deep->len; r++) {
			const struct tuple_deep_run *run = &lcps->deep->run[r];

			for (uint32_t k = 0; k < run->count; k++)
				lcpint_step(st, lcp_floored(tuple_deep_at(run, k), floor));
		}
	} else if (lcps->runs) {
		uint32_t buf[4096];   /* (in L1 between the two loops) */
		size_t got;

		tuple_runs_rewind(lcps->runs);
		while ((got = tuple_runs_next(lcps->runs, buf, sizeof buf / sizeof *buf)) > 0)
			for (size_t i = 0; i < got; i++)
				lcpint_step(st, lcp_floored(buf[i], floor));
	} else {
		for (size_t i = 0; i < lcps->n; i++)
			lcpint_step(st, lcp_floored(lcps->lcp[i], floor));
	}
	lcpint_step(st, 0);
}

/* (see tuple.h) */
int tuple_walk_lcps(struct lcpint *st, const struct tuple_lcps *lcps, size_t v, struct err *e)
{
	if (lcpint_init(st, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	st->dmax = v;
	st->qmin = TUPLE_MIN_COUNT;
	lcps_feed(st, lcps, 0);
	if (st->nomem)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	return 0;
}

/* The second walk, over the LCPs of 64 and more in sorted order (shorter
 * ones only separate runs), for Q on tu's window and S on tl's.  Returns 0
 * or -1 (out of memory). */
static int termmax_walk(struct termmax *tu, struct termmax *tl, const struct tuple_lcps *lcps,
			size_t n)
{
	struct lcpint fine;
	size_t qlo = tu->jlo ? tu->wlo : SIZE_MAX, qhi = tu->jlo ? tu->whi : SIZE_MAX;
	size_t soff = tl->jlo ? tl->wlo : 1, send = tl->jlo ? tl->whi : 0;
	size_t floor = qlo < soff || !tl->jlo ? qlo : soff;
	int rc = 0;

	if (!tu->jlo && !tl->jlo)
		return 0;
	if (lcps->dist) {
		termmax_finish(tu, NULL, lcps->dist, n);
		termmax_finish(tl, NULL, lcps->dist, n);
		return 0;
	}
	/* S is below 17 n from u on: at W >= u every run of equal W-tuples has
	 * fewer than 35 members, so S[W] <= (n / 34) C(34, 2) */
	if (lcpint_init(&fine, qlo, qhi, soff, send, n < UINT32_MAX / 17 ? LCPINT_NARROW : 0) != 0) {
		lcpint_free(&fine);
		return -1;
	}
	lcps_feed(&fine, lcps, floor);
	if (fine.nomem) {
		rc = -1;
	} else {
		lcpint_sum(&fine, send);
		termmax_finish(tu, &fine, NULL, n);
		termmax_finish(tl, &fine, NULL, n);
	}
	lcpint_free(&fine);
	return rc;
}

/* (see tuple.h) */
int tuple_finish(struct lcpint *st, size_t n, struct est_result *tr,
			struct est_result *lr, const struct tuple_lcps *lcps)
{
	size_t v = st->v, u = st->qdeep + 1;
	struct termmax tu = { 0, 1, u - 1, -1.0, NULL, 0, 0, 0, 0 };
	struct termmax tl = { 1, u, v, 0.0, NULL, 0, 0, 0, 0 };
	double pu;
	int rc = 0;

	if (v == 0) {
		est_not_applicable(tr, "no symbol repeats: no t-tuple occurs %d times", TUPLE_MIN_COUNT);
		est_not_applicable(lr, "no symbol repeats: the longest repeated substring is empty");
		return 0;
	}
	/* 90B 6.3.5: u = the first t whose most common tuple occurs < 35 times,
	 * one past the deepest run of 35 suffixes; 6.3.6: lengths u..v */
	lcpint_sum(st, LCPINT_STRIDE - 1);
	if (termmax_scan(&tu, st, lcps, n) != 0 || (v >= u && termmax_scan(&tl, st, lcps, n) != 0) ||
	    termmax_walk(&tu, &tl, lcps, n) != 0)
		rc = -1;
	free(tu.cand);
	free(tl.cand);
	if (rc != 0)
		return rc;

	if (tu.pmax > 0.0) {
		pu = est_upper_bound(tu.pmax, (double)n);
		est_detail_int(tr, "t", (long long)(u - 1));
		est_detail_real(tr, "p-hat_max", tu.pmax);
		est_detail_real(tr, "p_u", pu);
		tr->p = pu;
		tr->h = -log2(pu);
		est_detail_real(tr, "min entropy", tr->h);
	} else {
		est_not_applicable(tr, "no tuple occurs %d times", TUPLE_MIN_COUNT);
	}
	if (v >= u) {
		pu = est_upper_bound(tl.pmax, (double)n);
		est_detail_int(lr, "u", (long long)u);
		est_detail_int(lr, "v", (long long)v);
		est_detail_real(lr, "p-hat", tl.pmax);
		est_detail_real(lr, "p_u", pu);
		lr->p = pu;
		lr->h = -log2(pu);
		est_detail_real(lr, "min entropy", lr->h);
	} else {
		est_not_applicable(lr, "v < u (v = %zu, u = %zu): no substring to assess", v, u);
	}
	return 0;
}
