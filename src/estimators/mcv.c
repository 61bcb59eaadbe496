/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mcv.c - 90B 6.3.1 Most Common Value estimate. */
#include "config.h"

#include <math.h>

#include "estimators/estimators.h"

/* steps 1-3 from the mode's count */
static void mcv_finish(struct est_result *r, size_t mode, size_t n)
{
	/* step 1: p-hat = mode/N; step 2: p_u = min(1, p-hat + z sqrt(p-hat(1-p-hat)/(N-1))) */
	double phat = (double)mode / (double)n, pu = est_upper_bound(phat, (double)n);

	est_detail_int(r, "Mode count", (long long)mode);
	est_detail_real(r, "p-hat", phat);
	est_detail_real(r, "p_u", pu);
	r->p = pu;
	r->h = -log2(pu);   /* step 3 */
	est_detail_real(r, "min entropy", r->h);
}

static int mcv_short(struct est_result *r, size_t n)
{
	est_result_init(r, "mcv", "Most Common Value");
	if (n >= 2)
		return 0;
	est_not_applicable(r, "needs at least 2 samples, got %zu", n);   /* step 2 divides by N-1 */
	return 1;
}

int est_mcv(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	size_t counts[256] = { 0 };
	size_t mode = 0;

	(void)e;
	(void)k;
	if (mcv_short(r, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		counts[s[i]]++;
	for (unsigned i = 0; i < 256; i++)
		if (counts[i] > mode)
			mode = counts[i];
	mcv_finish(r, mode, n);
	return 0;
}

int est_mcv_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	size_t ones = 0;

	(void)e;
	if (mcv_short(r, n))
		return 0;
	for (size_t q = 0; q <= n / 64; q++)   /* bits past n are 0 */
		ones += (size_t)__builtin_popcountll(w[q]);
	mcv_finish(r, ones > n - ones ? ones : n - ones, n);
	return 0;
}
