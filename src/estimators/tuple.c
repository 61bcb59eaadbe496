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
 * exact, and the floating-point steps below are NIST's, so the figures
 * match ea_non_iid to the last bit.
 *
 * Sorting: divsufsort's suffix array with a PLCP pass (Kärkkäinen, Manzini,
 * Puglisi 2009; 8N bytes, LCP kept over the suffix array so the peak stays
 * there) serves every input.  Long bitstrings first try the cheaper packed
 * order of tuple_packed.c; the walk itself is lcpint.c. */
#include "config.h"

#include <divsufsort.h>
#include <float.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/lcpint.h"
#include "estimators/tuple.h"

/* ---- suffix array + PLCP --------------------------------------------- */

/* u - 1 of 90B 6.3.5 is the deepest run of >= 35 suffixes: the largest
 * minimum over W = 34 consecutive adjacent LCPs.  Sliding-window minima by
 * blocks of W (van Herk, Gil and Werman): a window starting at offset k of
 * one block is the suffix of that block from k and the prefix of the next
 * up to k - 1, so two running minima per block serve every window. */
static size_t tuple_u(const saidx_t *lcp, size_t n)
{
	enum { W = TUPLE_MIN_COUNT - 1 };
	const saidx_t *a = lcp + 1;   /* the n - 1 adjacent LCPs */
	size_t m = n > 0 ? n - 1 : 0;
	saidx_t suf[W], pre[W], best = 0;

	for (size_t s0 = 0; s0 + W <= m; s0 += W) {
		size_t s1 = s0 + W, len1 = m - s1 < W ? m - s1 : W;

		suf[W - 1] = a[s0 + W - 1];
		for (size_t k = W - 1; k-- > 0;)
			suf[k] = a[s0 + k] < suf[k + 1] ? a[s0 + k] : suf[k + 1];
		if (len1 > 0) {
			pre[0] = a[s1];
			for (size_t k = 1; k < len1; k++)
				pre[k] = a[s1 + k] < pre[k - 1] ? a[s1 + k] : pre[k - 1];
		}
		if (suf[0] > best)   /* the window that is this block */
			best = suf[0];
		for (size_t k = 1; k <= len1 && k < W; k++) {
			saidx_t w = suf[k] < pre[k - 1] ? suf[k] : pre[k - 1];
			if (w > best)
				best = w;
		}
	}
	return (size_t)best + 1;
}

/* Suffix array of s into sa.  A bitstring (k = 2) is sorted as the text of
 * its 8-bit windows (byte i = bits i..i+7, zeros past the end): comparing
 * two suffixes window by window compares their bits in order, and a suffix
 * that runs out first is a prefix either way, so the order is the same,
 * while divsufsort's buckets split 256 ways instead of 2. */
static int tuple_sort(const uint8_t *s, size_t n, unsigned k, saidx_t *sa)
{
	uint8_t *win = NULL;
	int rc;

	if (k == 2 && n >= 8)
		win = malloc(n);
	if (win) {
		unsigned x = 0;
		for (size_t i = 0; i < 7; i++)
			x = (x << 1) | (s[i] & 1u);
		for (size_t i = 0; i < n; i++) {
			x = ((x << 1) | (i + 7 < n ? s[i + 7] & 1u : 0u)) & 0xffu;
			win[i] = (uint8_t)x;
		}
	}
	rc = divsufsort(win ? win : s, sa, (saidx_t)n);
	free(win);
	return rc;
}

static int scan_suffix_array(const uint8_t *s, size_t n, unsigned k, struct lcpint *st,
			     struct err *e)
{
	saidx_t *sa, *plcp;
	size_t h = 0, v = 0, u;

	if (n >= (size_t)INT32_MAX)
		return err_set(e, ERR_DATA, "t-tuple/LRS: %zu samples is more than the suffix array handles", n);
	sa = malloc(n * sizeof *sa);
	plcp = malloc(n * sizeof *plcp);
	if (!sa || !plcp) {
		free(sa);
		free(plcp);
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu suffixes", n);
	}
	if (tuple_sort(s, n, k, sa) != 0) {
		free(sa);
		free(plcp);
		return err_set(e, ERR_INTERNAL, "t-tuple/LRS: divsufsort failed");
	}
	/* Phi[SA[i]] = SA[i-1]; then PLCP in text order, in place. */
	plcp[sa[0]] = -1;
	for (size_t i = 1; i < n; i++)
		plcp[sa[i]] = sa[i - 1];
	for (size_t i = 0; i < n; i++) {
		saidx_t j = plcp[i];

		if (j < 0) {
			plcp[i] = 0;
			h = 0;
			continue;
		}
		while (i + h < n && (size_t)j + h < n && s[i + h] == s[(size_t)j + h])
			h++;
		plcp[i] = (saidx_t)h;
		if (h > v)
			v = h;
		if (h > 0)
			h--;
	}
	/* LCP in suffix order, over the suffix array itself; PLCP is done */
	for (size_t i = 0; i < n; i++)
		sa[i] = plcp[sa[i]];
	sa[0] = 0;
	free(plcp);

	u = tuple_u(sa, n);
	if (u > v + 1)
		u = v + 1;
	/* Q is needed below u only, S from u to v only (90B 6.3.5, 6.3.6).
	 * Long repeats make that range long; S fits 32 bits there: at W >= u
	 * every run of equal W-tuples has fewer than 35 members, so S[W] <=
	 * (n / 34) C(34, 2) < 17 n. */
	if (lcpint_init(st, u, u, v, n < UINT32_MAX / 17 ? LCPINT_NARROW : 0) != 0) {
		free(sa);
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	}
	for (size_t i = 1; i < n; i++)
		lcpint_step(st, (size_t)sa[i]);
	lcpint_step(st, 0);
	free(sa);
	if (st->nomem)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	return 0;
}

/* ---- the two estimates from Q and S ----------------------------------- */

/* The p-hats of 6.3.5 and 6.3.6 are maxima of P_i^(1/i) over i up to u or
 * v, which long repeats make millions; NIST's pow() is the cost.  They are
 * taken in blocks from the top: when P_i <= p for every i of a block
 * [b0, b1], every term is at most p^(1/b1) (P_i <= 1), so a block whose
 * bound stays below the running maximum (by more than pow's rounding) is
 * skipped, and the maximum is the one NIST's loop finds. */
#define TUPLE_POW_BLOCK 64

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

static void tuple_finish(struct lcpint *st, size_t n, struct est_result *tr,
			 struct est_result *lr)
{
	size_t v = st->v, u, qn = v < st->qcap ? v : st->qcap;
	uint32_t *q = st->mx;
	double pmax, pu;

	if (v == 0) {
		est_not_applicable(tr, "no symbol repeats: no t-tuple occurs %d times", TUPLE_MIN_COUNT);
		est_not_applicable(lr, "no symbol repeats: the longest repeated substring is empty");
		return;
	}
	/* Q[t] = the largest run with depth >= t: the suffix maximum of mx,
	 * in place (mx[qcap] already holds every depth from qcap on) */
	for (size_t t = (qn < st->qcap ? qn : st->qcap - 1); t >= 1; t--)
		if (q[t + 1] > q[t])
			q[t] = q[t + 1];

	/* 90B 6.3.5: u = the first t whose most common tuple occurs < 35 times */
	for (u = 1; u <= qn && q[u] >= TUPLE_MIN_COUNT; u++)
		;
	pmax = -1.0;
	for (size_t b1 = u - 1; b1 >= 1;) {
		size_t b0 = b1 > TUPLE_POW_BLOCK ? b1 - TUPLE_POW_BLOCK + 1 : 1;
		/* within [b0, b1], Q[i] <= Q[b0] and n - i + 1 >= n - b1 + 1 */
		if (!tuple_block_below((double)q[b0] / (double)(n - b1 + 1), b1, pmax)) {
			for (size_t i = b0; i <= b1; i++) {
				double pi = (double)q[i] / (double)(n - i + 1);
				double pm = pow(pi, 1.0 / (double)i);

				if (pm > pmax)
					pmax = pm;
			}
		}
		b1 = b0 - 1;
	}
	if (pmax > 0.0) {
		pu = pmax + EST_ZALPHA * sqrt(pmax * (1.0 - pmax) / ((double)n - 1.0));
		if (pu > 1.0)
			pu = 1.0;
		est_detail_int(tr, "t", (long long)(u - 1));
		est_detail_real(tr, "p-hat_max", pmax);
		est_detail_real(tr, "p_u", pu);
		tr->p = pu;
		tr->h = -log2(pu);
		est_detail_real(tr, "min entropy", tr->h);
	} else {
		est_not_applicable(tr, "no tuple occurs %d times", TUPLE_MIN_COUNT);
	}

	/* 90B 6.3.6: lengths u..v, P_W = S[W] / C(N-W+1, 2); S[W] is the prefix
	 * sum of the differences from soff (<= u) on */
	if (v >= u) {
		pmax = 0.0;
		lcpint_sum_s(st, v);
		for (size_t b1 = v; b1 >= u;) {
			size_t b0 = b1 - u >= TUPLE_POW_BLOCK ? b1 - TUPLE_POW_BLOCK + 1 : u;
			/* within [b0, b1], S[W] <= S[b0] and the pairs >= those of b1 */
			if (!tuple_block_below((double)lcpint_s(st, b0) / (double)tuple_pairs(n, b1), b1,
					       pmax)) {
				for (size_t i = b0; i <= b1; i++) {
					double pi = (double)lcpint_s(st, i) / (double)tuple_pairs(n, i);
					double pm = pow(pi, 1.0 / (double)i);

					if (pmax < pm)
						pmax = pm;
				}
			}
			if (b0 == u)
				break;
			b1 = b0 - 1;
		}
		pu = pmax + EST_ZALPHA * sqrt(pmax * (1.0 - pmax) / ((double)n - 1.0));
		if (pu > 1.0)
			pu = 1.0;
		est_detail_int(lr, "u", (long long)u);
		est_detail_int(lr, "v", (long long)v);
		est_detail_real(lr, "p-hat", pmax);
		est_detail_real(lr, "p_u", pu);
		lr->p = pu;
		lr->h = -log2(pu);
		est_detail_real(lr, "min entropy", lr->h);
	} else {
		est_not_applicable(lr, "v < u (v = %zu, u = %zu): no substring to assess", v, u);
	}
}

int tuple_lrs_run(const uint8_t *s, size_t n, unsigned k, enum tuple_method m,
		  struct est_result *tr, struct est_result *lr, struct err *e)
{
	struct lcpint st;
	int rc = 0;

	est_result_init(tr, "tuple", "t-Tuple");
	est_result_init(lr, "lrs", "LRS");
	if (n < 2) {
		est_not_applicable(tr, "needs at least 2 samples, got %zu", n);
		est_not_applicable(lr, "needs at least 2 samples, got %zu", n);
		return 0;
	}
	memset(&st, 0, sizeof st);
	if (m == TUPLE_AUTO)
		m = (k == 2 && n >= ((size_t)1 << 21) && n < UINT32_MAX) ? TUPLE_PACKED
									 : TUPLE_SUFFIX_ARRAY;
	if (m == TUPLE_PACKED && k == 2 && n < UINT32_MAX) {
		rc = tuple_scan_packed(s, n, &st, e);
		if (rc == 1) {
			tuple_finish(&st, n, tr, lr);
			lcpint_free(&st);
			return 0;
		}
		lcpint_free(&st);
		if (rc < 0)
			return rc;
		/* hand the packed attempt's freed heap back before the larger
		 * suffix array, so the two peaks do not add up */
		malloc_trim(0);
		memset(&st, 0, sizeof st);
	}
	rc = scan_suffix_array(s, n, k, &st, e);
	if (rc == 0)
		tuple_finish(&st, n, tr, lr);
	lcpint_free(&st);
	return rc;
}

int est_tuple_lrs(const uint8_t *s, size_t n, unsigned k, struct est_result *tuple,
		  struct est_result *lrs, struct err *e)
{
	return tuple_lrs_run(s, n, k, TUPLE_AUTO, tuple, lrs, e);
}
