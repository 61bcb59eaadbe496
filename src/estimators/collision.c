/* SPDX-License-Identifier: GPL-3.0-or-later */
/* collision.c - 90B 6.3.2 Collision estimate (binary input only).
 *
 * NIST's tool (v1.1.7) uses the closed form of the 2018 text: with the
 * two-symbol family, E[t] = -2p^2 + 2p + 2 (Uyen Dinh's simplification), so
 * step 7's search reduces to p = 0.5 + sqrt(1.25 - 0.5 X-bar').  X-bar' is
 * clamped below at 2, the smallest possible mean, as the tool does. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "estimators/estimators.h"

int est_collision(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	return est_binary_only(est_collision_bits, "collision", "Collision", s, n, k, r, e);
}

/* The walk below, COLL_WIN bits at a time: for each window of COLL_WIN
 * bits starting where a collision starts, the collisions that its bits
 * decide (the last one may take the bit after it: a third bit collides
 * whatever it is), packed as advance | count << 4 | times-3 << 8.  One
 * bit at a time the walk waited on a branch that fails half the time and
 * on a floating-point sum; a window decides ~4.4 collisions at one load. */
#define COLL_WIN 12
static uint16_t coll_tab[1u << COLL_WIN];
static pthread_once_t coll_once = PTHREAD_ONCE_INIT;

static void coll_tab_build(void)
{
	for (unsigned x = 0; x < (1u << COLL_WIN); x++) {
		unsigned a = 0, c = 0, c3 = 0;

		while (a + 1 < COLL_WIN) {
			unsigned b0 = x >> (COLL_WIN - 1 - a) & 1u, b1 = x >> (COLL_WIN - 2 - a) & 1u;

			c3 += b0 != b1;
			a += b0 == b1 ? 2 : 3;
			c++;
		}
		coll_tab[x] = (uint16_t)(a | c << 4 | c3 << 8);
	}
}

int est_collision_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	size_t i = 0, v = 0, v3 = 0;   /* collisions, and those of 3 bits */
	double sumsq, xbar, sigma, xprime, p;

	(void)e;
	est_result_init(r, "collision", "Collision");
	/* steps 1-5: walk the sequence; each collision time t_v is 2 (two equal
	 * bits) or 3 (two unequal bits, and any third bit collides).  The
	 * windows while their bits and the one after exist; the last bits
	 * one collision at a time. */
	pthread_once(&coll_once, coll_tab_build);
	while (i + COLL_WIN < n) {
		unsigned t = coll_tab[est_bits64(w, i) >> (64 - COLL_WIN)];

		i += t & 15u;
		v += t >> 4 & 15u;
		v3 += t >> 8;
	}
	while (n >= 2 && i < n - 1) {
		if (est_bit(w, i) == est_bit(w, i + 1)) {
			i += 2;
		} else if (i < n - 2) {
			i += 3;
			v3++;
		} else {
			break;
		}
		v++;
	}
	/* the sum of the t_v^2, exactly as the double sum it was */
	sumsq = 4.0 * (double)(v - v3) + 9.0 * (double)v3;
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
