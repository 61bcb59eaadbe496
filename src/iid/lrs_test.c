/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lrs_test.c - SP 800-90B 5.2.5 length of the longest repeated substring
 * test, as NIST's ea_iid v1.1.7 computes it: W from a suffix array and its
 * LCP array (Kasai et al.), P_col from the symbol proportions, and a pass iff
 * Pr(X >= 1) = 1 - (1 - P_col^W)^N >= 1/1000 with N = C(n - W + 1, 2),
 * evaluated in logs (log1p) so that tiny P_col^W do not vanish.  Where
 * P_col^W is below even long double's range, NIST's tool aborts (an
 * assertion); here the test fails, Pr(X >= 1) being 0 in the limit. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <divsufsort.h>

#include "bigmem.h"
#include "iid/iid.h"

/* 5.2.5: the test fails when a repeat this long has probability < 1/1000 */
/* (NIST compares against logl(0.999L); 1 - 1/1000 written the same way) */
#define LRS_PASS_PROB 0.999L

/* Longest common prefix of any two suffixes: max of the LCP array. */
static int longest_repeat(const uint8_t *s, size_t n, long *w, struct err *e)
{
	saidx_t *sa, *rank;
	long h = 0, best = 0;

	if (n >= INT32_MAX)
		return err_set(e, ERR_DATA, "too many samples for the LRS test (%zu)", n);
	/* both filled whole: prefaulted (bigmem.h) */
	sa = bigmem_calloc(n, sizeof *sa);
	rank = bigmem_calloc(n, sizeof *rank);
	if (!sa || !rank) {
		bigmem_free(sa); bigmem_free(rank);
		return err_set(e, ERR_NOMEM, "out of memory for the LRS test");
	}
	if (divsufsort(s, sa, (saidx_t)n) != 0) {
		bigmem_free(sa); bigmem_free(rank);
		return err_set(e, ERR_INTERNAL, "suffix sorting failed");
	}
	for (size_t i = 0; i < n; i++)
		rank[sa[i]] = (saidx_t)i;
	for (size_t i = 0; i < n; i++) {
		if (rank[i] > 0) {
			size_t j = (size_t)sa[rank[i] - 1];
			while (i + (size_t)h < n && j + (size_t)h < n && s[i + h] == s[j + h])
				h++;
			if (h > best)
				best = h;
		} else {
			h = 0;
		}
		if (h > 0)
			h--;
	}
	bigmem_free(sa);
	bigmem_free(rank);
	*w = best;
	return 0;
}

int iid_lrs_test(const uint8_t *sym, size_t n, unsigned k, struct iid_lrs *r, struct err *e)
{
	size_t count[256] = { 0 };
	double step;
	long double p_col = 0.0L, pw, log_no;
	int rc;

	r->p_col = 0; r->w = 0; r->n_pairs = 0; r->pr_ge1 = 0;
	r->degenerate = 0; r->passed = 0; r->underflow = 0;
	if (n < 2 || k < 1 || k > 256)
		return err_set(e, ERR_DATA, "LRS test needs at least 2 samples");
	/* proportions as NIST accumulates them (1/n added per sample) */
	step = 1.0 / (double)n;
	for (size_t i = 0; i < n; i++)
		count[sym[i]]++;
	for (unsigned v = 0; v < k; v++) {
		double p = 0.0;
		for (size_t c = 0; c < count[v]; c++)
			p += step;
		p_col += powl((long double)p, 2.0L);
	}
	r->p_col = p_col;
	if (p_col > 1.0L - LDBL_EPSILON) {
		/* one symbol: every repeat is certain */
		r->degenerate = 1;
		r->pr_ge1 = 1.0L;
		r->passed = 1;
		return 0;
	}
	rc = longest_repeat(sym, n, &r->w, e);
	if (rc)
		return rc;
	pw = powl(p_col, (long double)r->w);
	{
		long m = (long)n - r->w + 1;
		r->n_pairs = (m * m - m) / 2;
	}
	/* (pw == 0 too: where long double is emulated in double, valgrind,
	 * LDBL_MIN itself flushes to 0) */
	if (pw == 0.0L || !(pw >= LDBL_MIN)) {
		/* A repeat so long that P_col^W is below long double's range
		 * (stuck or periodic data).  NIST's tool stops on an assertion
		 * here; Pr(X >= 1) goes to 0 with P_col^W, so the test fails. */
		r->underflow = 1;
		r->pr_ge1 = 0.0L;
		r->passed = 0;
		return 0;
	}
	log_no = log1pl(-pw);
	r->pr_ge1 = 1.0L - expl((long double)r->n_pairs * log_no);
	r->passed = logl(LRS_PASS_PROB) >= (long double)r->n_pairs * log_no;
	return 0;
}
