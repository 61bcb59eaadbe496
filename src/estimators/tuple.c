/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple.c - 90B 6.3.5 t-tuple and 6.3.6 longest repeated substring (LRS)
 * estimates over one sorted-suffix structure.
 *
 * Both need, for every length t, counts of the t-tuples of the input:
 * Q[t], the count of the most common t-tuple (6.3.5), and
 * S[t] = sum over t-tuples of C(count, 2) (6.3.6 step 3).  In the sorted
 * order of the suffixes, the suffixes starting with one t-tuple form a run
 * whose adjacent longest common prefixes (LCP) are all >= t.  A bottom-up
 * walk of the LCP intervals (Abouelhoda, Kurtz, Ohlebusch 2004) visits each
 * maximal run once, as an interval with depth l, size c and parent depth
 * l_p: it is the run of every t in (l_p, l].  So Q[t] is the largest c with
 * l >= t, and S gains C(c, 2) on (l_p, l]: a difference array.  The whole
 * pass is O(N) after sorting, whatever the input repeats; NIST's Kaufer
 * loops (v1.1.7) are quadratic on long repeats.  The integer counts are
 * exact, and the floating-point steps below are NIST's, in double where
 * NIST's tool uses long double: the figures agree with ea_non_iid's to a
 * double's last units (man/ea_non_iid.1, DIFFERENCES).
 *
 * Sorting: divsufsort's suffix array with a sparse PLCP pass (Kärkkäinen,
 * Manzini, Puglisi 2009; 5N bytes, LCP kept over the suffix array) serves
 * every input.  Long bitstrings first try counting their windows
 * (tuple_count.c, no suffix order; one period throughout, tuple_period.c;
 * the LCPs of 64 and more from the bits compared at the distances between
 * copies, tuple_dist.c), then the cheaper packed order of tuple_packed.c,
 * or when skewed (long runs everywhere) the run sort of tuple_runs.c; the
 * walk itself is lcpint.c.  Long repeats make
 * u and v millions: the walk samples Q and S every 64 lengths, and a
 * second walk fills in just the blocks the samples cannot settle (see
 * termmax_scan below). */
#include "config.h"

#include "bigmem.h"

#include <divsufsort.h>
#include <float.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/lcparray.h"
#include "estimators/lcpint.h"
#include "estimators/tuple.h"
#include "estimators/tuple_dist.h"

/* ---- suffix array + PLCP --------------------------------------------- */

/* Suffix array of s[0..n) into sa. */
static int tuple_sort(const uint8_t *s, size_t n, saidx_t *sa)
{
	return divsufsort(s, sa, (saidx_t)n);
}

/* Suffix array of the bitstring w[0..n) into sa, sorted as the text of its
 * 8-bit windows (byte i = bits i..i+7, zeros past the end): comparing two
 * suffixes window by window compares their bits in order, and a suffix
 * that runs out first is a prefix either way, so the order is the same,
 * while divsufsort's buckets split 256 ways instead of 2.  0, -1 when
 * divsufsort failed, -2 out of memory. */
static int tuple_sort_bits(const uint64_t *w, size_t n, saidx_t *sa)
{
	uint8_t *win = malloc(n);
	int rc;

	if (!win)
		return -2;
	for (size_t i = 0; i < n; i++)
		win[i] = (uint8_t)(est_bits64(w, i) >> 56);
	rc = divsufsort(win, sa, (saidx_t)n);
	free(win);
	return rc;
}

/* Sorts the suffixes of s (k symbols) or, s NULL, of the bitstring w;
 * *lcp gets the LCP array (the caller frees it) for the walk and
 * tuple_finish's second walk. */
static int lcp_suffix_array(const uint8_t *s, const uint64_t *w, size_t n, uint32_t **lcp,
			    size_t *v, struct err *e)
{
	saidx_t *sa;
	int rc;

	if (n >= (size_t)INT32_MAX)
		return err_set(e, ERR_DATA, "t-tuple/LRS: %zu samples is more than the suffix array handles", n);
	sa = bigmem_calloc(n, sizeof *sa);
	if (!sa)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu suffixes", n);
	rc = s ? tuple_sort(s, n, sa) : tuple_sort_bits(w, n, sa);
	if (rc != 0) {
		bigmem_free(sa);
		return rc == -2 ? err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu suffixes", n)
				: err_set(e, ERR_INTERNAL, "t-tuple/LRS: divsufsort failed");
	}
	*v = s ? lcparray_over_sa(s, n, sa) : lcparray_over_sa_bits(w, n, sa);
	if (*v == (size_t)-1) {
		bigmem_free(sa);
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu suffixes", n);
	}
	*lcp = (uint32_t *)sa;   /* LCPs are >= 0: the same bits as uint32_t */
	return 0;
}

/* Walks the intervals of the LCP array lcp[0..n) (lcp[0] = 0; v its
 * largest entry) into st. */
static int walk_lcp(struct lcpint *st, const uint32_t *lcp, size_t n, size_t v, struct err *e)
{
	if (lcpint_init(st, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	st->dmax = v;
	st->qmin = TUPLE_MIN_COUNT;
	for (size_t i = 1; i < n; i++)
		lcpint_step(st, lcp[i]);
	lcpint_step(st, 0);
	if (st->nomem)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	return 0;
}

/* A bitstring whose rarer bit is at most a quarter of it: tuple_runs.c
 * sorts its K runs instead of its N bits, and the packed order would meet
 * deep ties (long runs) at every offset. */
static int skewed_bits(const uint8_t *s, size_t n)
{
	size_t ones = 0;

	for (size_t i = 0; i < n; i++)
		ones += s[i] & 1u;
	return ones <= n / 4 || n - ones <= n / 4;
}

/* ---- the two estimates from Q and S ----------------------------------- */

/* The p-hats of 6.3.5 and 6.3.6 are maxima of P_i^(1/i) over i up to u or
 * v, which long repeats make millions.  The first walk gave Q and S
 * exactly below 64 and at every 64 j (lcpint.h); those terms are a floor
 * for the maximum.  In a block [64 j, 64 j + 63], Q and S are at most
 * their sample at 64 j (both fall as the length grows), and the
 * denominators are smallest at the block's end b1, so every term is at
 * most p^(1/b1) for that bound p (P_i <= 1): a block whose bound stays
 * below the floor (by more than pow's rounding) cannot hold the maximum.
 * The other blocks (for long repeats, a few hundred near v against
 * millions of lengths) need every length: one more walk, over the LCPs of
 * 64 and more, into windows of mx and sd just that wide.  Every term
 * taken is NIST's term in double (term_take), so the maximum is the one
 * NIST's loop finds, in double. */
static int tuple_block_below(double p, size_t b1, double pmax)
{
	if (p > 1.0)
		p = 1.0;
	return pmax > 0.0 && pow(p, 1.0 / (double)b1) * (1.0 + 8 * DBL_EPSILON) <= pmax;
}

/* C(n - W + 1, 2): the pairs of W-tuples (6.3.6 step 4). */
static inline uint64_t tuple_pairs(size_t n, size_t w)
{
	return ((uint64_t)(n - w) * (uint64_t)(n - w + 1)) >> 1;
}

/* Where the counts of 64 bits and more come from: the walk's samples
 * every 64 lengths and a second walk over the LCPs of 64 and more, which
 * are the packed scan's deep list (tuple.h) or, deep NULL, the LCP array
 * lcp[0..n-1] (the suffix array's roads); or, on the counting road, S
 * and Q straight from the runs of tuple_dist.c (dist; Q only with a
 * period: otherwise u < 64 there, and Q is never read past 63). */
struct tuple_lcps {
	const uint32_t *lcp;
	size_t n;
	const struct tuple_deep *deep;
	const struct tuple_dist *dist;
};

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

	if (!(p >= 1.0 - 0x1p-20 && p <= 1.0)) {
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
		if (b0 >= tm->lo &&
		    tuple_block_below(term_p(tm, bound, n, b1), b1, tm->pmax))
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
	if (lcps->deep) {
		for (size_t r = 0; r < lcps->deep->len; r++) {
			const struct tuple_deep_run *run = &lcps->deep->run[r];

			for (uint32_t k = 0; k < run->count; k++)
				lcpint_step(&fine, lcp_floored(tuple_deep_at(run, k), floor));
		}
	} else {
		for (size_t i = 0; i < lcps->n; i++)
			lcpint_step(&fine, lcp_floored(lcps->lcp[i], floor));
	}
	lcpint_step(&fine, 0);
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

/* The two estimates from the walk; lcps as for termmax_walk.  Returns 0
 * or -1 (out of memory). */
static int tuple_finish(struct lcpint *st, size_t n, struct est_result *tr,
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
		pu = tu.pmax + EST_ZALPHA * sqrt(tu.pmax * (1.0 - tu.pmax) / ((double)n - 1.0));
		if (pu > 1.0)
			pu = 1.0;
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
		pu = tl.pmax + EST_ZALPHA * sqrt(tl.pmax * (1.0 - tl.pmax) / ((double)n - 1.0));
		if (pu > 1.0)
			pu = 1.0;
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

static int skewed_words(const uint64_t *w, size_t n)
{
	size_t ones = 0;

	for (size_t q = 0; q <= n / 64; q++)   /* bits past n are 0 */
		ones += (size_t)__builtin_popcountll(w[q]);
	return ones <= n / 4 || n - ones <= n / 4;
}

/* tuple_lrs_run on bytes s or, s NULL, on packed bits w (k == 2), which
 * every road reads as they are. */
static int tuple_lrs_any(const uint8_t *s, const uint64_t *w, size_t n, unsigned k,
			 enum tuple_method m, struct est_result *tr, struct est_result *lr,
			 struct err *e)
{
	struct lcpint st;
	struct tuple_deep deep = { NULL, 0, 0 };
	uint32_t *lcp = NULL;
	size_t v = 0;
	int rc = 0;

	est_result_init(tr, "tuple", "t-Tuple");
	est_result_init(lr, "lrs", "LRS");
	if (n < 2) {
		est_not_applicable(tr, "needs at least 2 samples, got %zu", n);
		est_not_applicable(lr, "needs at least 2 samples, got %zu", n);
		return 0;
	}
	memset(&st, 0, sizeof st);
	/* bitstrings from 2^18 bits on take the counting road, which hands
	 * repeats to the 64-bit keys, or, skewed, the runs: at NIST's 10^6
	 * 1-bit samples the keys cost half the suffix array's time (assess
	 * -a on truerand_1bit: 0.19 -> 0.13 s CPU), the counting half the
	 * keys'; below, the roads are even */
	if (m == TUPLE_AUTO && k == 2 && n >= ((size_t)1 << 18) && n < UINT32_MAX)
		m = (s ? skewed_bits(s, n) : skewed_words(w, n)) ? TUPLE_RUNS
		    : n <= TUPLE_COUNT_MAX ? TUPLE_COUNT : TUPLE_PACKED;
	if (m == TUPLE_COUNT && k == 2) {
		uint64_t *ownw = NULL;

		if (!w && !(w = ownw = est_pack_bits(s, n)))
			return tuple_nomem(e, n);
		struct tuple_dist dist = { .len = NULL };

		rc = tuple_count_words(w, n, &st, &dist, e);
		if (ownw) {
			free(ownw);
			w = NULL;
		}
		if (rc == 1) {
			/* v < 64: no deep LCPs for a second walk; else S from the runs */
			const struct tuple_lcps lcps = { NULL, 0, &deep, dist.nrun ? &dist : NULL };

			rc = tuple_finish(&st, n, tr, lr, &lcps);
			lcpint_free(&st);
			tuple_dist_free(&dist);
			return rc != 0 ? err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory") : 0;
		}
		lcpint_free(&st);
		if (rc < 0)
			return rc;
		memset(&st, 0, sizeof st);
		m = TUPLE_PACKED;   /* repeats: the suffix order answers */
	}
	if ((m == TUPLE_PACKED || m == TUPLE_PACKED_RANKED || m == TUPLE_PACKED_STACK ||
	     m == TUPLE_PACKED_SHALLOW) && k == 2 && n < UINT32_MAX) {
		int flags = m == TUPLE_PACKED_RANKED ? TUPLE_SCAN_RANKS_NOW
			    : m == TUPLE_PACKED_STACK ? TUPLE_SCAN_STACK
			    : m == TUPLE_PACKED_SHALLOW ? TUPLE_SCAN_SHALLOW : 0;

		rc = s ? tuple_scan_packed(s, n, &st, &deep, flags, e)
		       : tuple_scan_words(w, n, &st, &deep, flags, e);
		if (rc == 1) {
			const struct tuple_lcps lcps = { NULL, 0, &deep, NULL };

			rc = tuple_finish(&st, n, tr, lr, &lcps);
			lcpint_free(&st);
			free(deep.run);
			if (rc != 0)
				return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
			return 0;
		}
		lcpint_free(&st);
		free(deep.run);
		if (rc < 0)
			return rc;
		/* hand the packed attempt's freed heap back before the larger
		 * suffix array, so the two peaks do not add up */
		malloc_trim(0);
		memset(&st, 0, sizeof st);
	}
	if (m == TUPLE_RUNS && k == 2) {
		/* the runs decline only past their limits (or out of memory):
		 * the suffix array then says which */
		if (tuple_lcp_runs(s, s ? NULL : w, n, &lcp, &v) != 0)
			m = TUPLE_SUFFIX_ARRAY;
	}
	if (m != TUPLE_RUNS || k != 2) {
		/* bits go to the suffix array packed: one bit a byte cost the
		 * bits of 010 repeated to 10M bytes 80 MB more at the peak */
		uint64_t *ownw = NULL;

		if (k == 2 && !w && !(w = ownw = est_pack_bits(s, n)))
			return tuple_nomem(e, n);
		rc = lcp_suffix_array(k == 2 ? NULL : s, w, n, &lcp, &v, e);
		free(ownw);
	}
	if (rc == 0)
		rc = walk_lcp(&st, lcp, n, v, e);
	if (rc == 0 && tuple_finish(&st, n, tr, lr, &(const struct tuple_lcps){ lcp + 1, n - 1, NULL, NULL }) != 0)
		rc = err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	bigmem_free(lcp);
	lcpint_free(&st);
	return rc;
}

int tuple_lrs_run(const uint8_t *s, size_t n, unsigned k, enum tuple_method m,
		  struct est_result *tr, struct est_result *lr, struct err *e)
{
	return tuple_lrs_any(s, NULL, n, k, m, tr, lr, e);
}

int est_tuple_lrs_bits(const uint64_t *w, size_t n, struct est_result *tuple,
		       struct est_result *lrs, struct err *e)
{
	return tuple_lrs_any(NULL, w, n, 2, TUPLE_AUTO, tuple, lrs, e);
}

int est_tuple_lrs(const uint8_t *s, size_t n, unsigned k, struct est_result *tuple,
		  struct est_result *lrs, struct err *e)
{
	return tuple_lrs_run(s, n, k, TUPLE_AUTO, tuple, lrs, e);
}

int tuple_nomem(struct err *e, size_t n)
{
	return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu bits", n);
}
