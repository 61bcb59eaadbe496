/* SPDX-License-Identifier: GPL-3.0-or-later */
/* collision.c - 90B 6.3.2 Collision estimate (binary input only).
 *
 * NIST's tool (v1.1.7) uses the closed form of the 2018 text: with the
 * two-symbol family, E[t] = -2p^2 + 2p + 2 (Uyen Dinh's simplification), so
 * step 7's search reduces to p = 0.5 + sqrt(1.25 - 0.5 X-bar').  X-bar' is
 * clamped below at 2, the smallest possible mean, as the tool does. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "estimators/estimators.h"

int est_collision(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	return est_binary_only(est_collision_bits, "collision", "Collision", s, n, k, r, e);
}

int est_collision_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	size_t i = 0, v = 0;
	double sumsq = 0.0, xbar, sigma, xprime, p;

	(void)e;
	est_result_init(r, "collision", "Collision");
	/* steps 1-5: walk the sequence; each collision time t_v is 2 (two equal
	 * bits) or 3 (two unequal bits, and any third bit collides). */
	while (n >= 2 && i < n - 1) {
		unsigned t;

		if (est_bit(w, i) == est_bit(w, i + 1))
			t = 2;
		else if (i < n - 2)
			t = 3;
		else
			break;
		v++;
		sumsq += (double)(t * t);
		i += t;
	}
	if (v < 2) {   /* sigma-hat divides by v-1 */
		est_not_applicable(r, "needs at least 2 collisions, found %zu in %zu bits", v, n);
		return 0;
	}
	/* step 6: X-bar and sigma-hat (sample standard deviation) */
	xbar = (double)i / (double)v;
	sigma = sqrt((sumsq - (double)i * xbar) / (double)(v - 1));
	est_detail_int(r, "v", (long long)v);
	est_detail_int(r, "Sum t_i", (long long)i);
	est_detail_real(r, "X-bar", xbar);
	est_detail_real(r, "sigma-hat", sigma);

	/* step 7: lower confidence bound, then solve for p */
	xprime = xbar - EST_ZALPHA * sigma / sqrt((double)v);
	if (xprime < 2.0)
		xprime = 2.0;
	est_detail_real(r, "X-bar'", xprime);
	if (xprime < 2.5) {
		p = 0.5 + sqrt(1.25 - 0.5 * xprime);
		est_detail_note(r, "Found p.");
		r->h = -log2(p);
	} else {
		/* step 8: no solution, p takes its lower bound 1/2 */
		est_detail_note(r, "Could Not Find p. Proceeding with the lower bound for p.");
		p = 0.5;
		r->h = 1.0;
	}
	est_detail_real(r, "p", p);
	r->p = p;
	est_detail_real(r, "min entropy", r->h);
	return 0;
}
