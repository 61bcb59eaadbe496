/* SPDX-License-Identifier: GPL-3.0-or-later */
/* markov.c - 90B 6.3.3 Markov estimate (binary input only).
 *
 * First-order model: P_0, P_1 and the transition probabilities, then the
 * most likely of the six 128-bit sequences the 2018 text lists; H is its
 * -log2 probability over 128, capped at 1.  As in NIST's tool, P_x0 is
 * counted over the first N-1 bits, P_0 over all N, and a path through a
 * zero transition probability is skipped. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "estimators/estimators.h"

/* The sequence length 90B 6.3.3 step 3 fixes. */
#define MARKOV_LEN 128.0

int est_markov(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	return est_binary_only(est_markov_bits, "markov", "Markov", s, n, k, r, e);
}

int est_markov_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	size_t c0 = 0, c1, c00 = 0, c10 = 0;
	double p0, p1, p00, p01, p10, p11, hmin = MARKOV_LEN, t;

	(void)e;
	est_result_init(r, "markov", "Markov");
	if (n < 2) {
		est_not_applicable(r, "needs at least 2 bits, got %zu", n);
		return 0;
	}
	/* the pairs (bit i, bit i+1) for i < n-1, 64 at a time */
	for (size_t i = 0; i + 1 < n; i += 64) {
		uint64_t a = est_bits64(w, i), b = est_bits64(w, i + 1);
		uint64_t live = n - 1 - i >= 64 ? ~(uint64_t)0 : ~(~(uint64_t)0 >> (n - 1 - i));

		c0 += (size_t)__builtin_popcountll(~a & live);
		c00 += (size_t)__builtin_popcountll(~a & ~b & live);
		c10 += (size_t)__builtin_popcountll(a & ~b & live);
	}
	c1 = n - 1 - c0;
	if (c0 > 0) {
		p00 = (double)c00 / (double)c0;
		p01 = 1.0 - p00;
	} else {
		p00 = p01 = 0.0;
	}
	if (c1 > 0) {
		p10 = (double)c10 / (double)c1;
		p11 = 1.0 - p10;
	} else {
		p10 = p11 = 0.0;
	}
	if (est_bit(w, n - 1) == 0)
		c0++;
	p0 = (double)c0 / (double)n;
	p1 = 1.0 - p0;

	est_detail_real(r, "P_0", p0);
	est_detail_real(r, "P_1", p1);
	est_detail_real(r, "P_{0,0}", p00);
	est_detail_real(r, "P_{0,1}", p01);
	est_detail_real(r, "P_{1,0}", p10);
	est_detail_real(r, "P_{1,1}", p11);

	/* step 3: 00...0, 0101...01, 011...1, 100...0, 1010...10, 11...1 */
	if (p00 > 0.0) {
		t = -log2(p0) - 127.0 * log2(p00);
		hmin = fmin(hmin, t);
	}
	if (p01 > 0.0 && p10 > 0.0) {
		t = -log2(p0) - 64.0 * log2(p01) - 63.0 * log2(p10);
		hmin = fmin(hmin, t);
	}
	if (p01 > 0.0 && p11 > 0.0) {
		t = -log2(p0) - log2(p01) - 126.0 * log2(p11);
		hmin = fmin(hmin, t);
	}
	if (p10 > 0.0 && p00 > 0.0) {
		t = -log2(p1) - log2(p10) - 126.0 * log2(p00);
		hmin = fmin(hmin, t);
	}
	if (p10 > 0.0 && p01 > 0.0) {
		t = -log2(p1) - 64.0 * log2(p10) - 63.0 * log2(p01);
		hmin = fmin(hmin, t);
	}
	if (p11 > 0.0) {
		t = -log2(p1) - 127.0 * log2(p11);
		hmin = fmin(hmin, t);
	}
	r->p = pow(2.0, -hmin);
	est_detail_real(r, "p-hat_max", r->p);
	r->h = fmin(hmin / MARKOV_LEN, 1.0);   /* step 4 */
	est_detail_real(r, "min entropy", r->h);
	return 0;
}
