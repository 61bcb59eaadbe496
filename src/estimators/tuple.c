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
 * second walk fills in just the blocks the samples cannot settle (the
 * maxima and those walks: tuple_max.c). */
#include "config.h"

#include "bigmem.h"

#include <divsufsort.h>
#include <limits.h>
#include <malloc.h>
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
			const struct tuple_lcps lcps = { NULL, 0, &deep, dist.nrun ? &dist : NULL, NULL };

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
			const struct tuple_lcps lcps = { NULL, 0, &deep, NULL, NULL };

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
		struct tuple_runs *runs;

		if (tuple_runs_new(s, s ? NULL : w, n, &runs) == 0) {
			const struct tuple_lcps lcps = { NULL, 0, NULL, NULL, runs };

			rc = tuple_walk_lcps(&st, &lcps, 0, e);
			if (rc == 0 && tuple_finish(&st, n, tr, lr, &lcps) != 0)
				rc = err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
			tuple_runs_free(runs);
			lcpint_free(&st);
			return rc;
		}
		m = TUPLE_SUFFIX_ARRAY;
	}
	{
		/* bits go to the suffix array packed: one bit a byte cost the
		 * bits of 010 repeated to 10M bytes 80 MB more at the peak */
		uint64_t *ownw = NULL;

		if (k == 2 && !w && !(w = ownw = est_pack_bits(s, n)))
			return tuple_nomem(e, n);
		rc = lcp_suffix_array(k == 2 ? NULL : s, w, n, &lcp, &v, e);
		free(ownw);
	}
	if (rc == 0) {
		const struct tuple_lcps lcps = { lcp + 1, n - 1, NULL, NULL, NULL };

		rc = tuple_walk_lcps(&st, &lcps, v, e);
		if (rc == 0 && tuple_finish(&st, n, tr, lr, &lcps) != 0)
			rc = err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	}
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
