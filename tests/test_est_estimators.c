/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_est_estimators.c - SP 800-90B 6.3.1-6.3.4 on small hand-computed
 * inputs.  Expected values were computed independently from the 90B text
 * (2018 final, as NIST's tool v1.1.7 implements it) in Python 3 with
 * z = 2.5758293035489008; the formulas are quoted next to each case.  The
 * compression figures come from NIST's own ea_non_iid -vv output
 * (tests/data/nist-90b/refdata/rand1_short.res). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/estimators.h"
#include "engine/samples.h"
#include "tap.h"

static double dx(const struct est_result *r, const char *key)
{
	const struct est_detail *d = est_detail_find(r, key);

	return d ? d->x : NAN;
}

static uint8_t *repeat(const uint8_t *pat, size_t plen, size_t times, size_t *n)
{
	uint8_t *s = malloc(plen * times);

	for (size_t i = 0; i < times; i++)
		memcpy(s + i * plen, pat, plen);
	*n = plen * times;
	return s;
}

static void test_mcv(void)
{
	/* mode 4 of 8: p-hat = 0.5, p_u = 0.5 + z sqrt(0.25/7) = 0.98678598263879 */
	static const uint8_t s[] = { 0, 1, 1, 2, 1, 0, 1, 3 };
	struct est_result r;
	struct err e;

	est_mcv(s, sizeof s, 4, &r, &e);
	tap_eq_long((long long)dx(&r, "Mode count"), 4, "mcv: mode count 4 of 8");
	tap_near(dx(&r, "p-hat"), 0.5, 0, "mcv: p-hat = 4/8");
	tap_near(r.p, 0.9867859826387926, 1e-15, "mcv: p_u = p + z sqrt(p(1-p)/(N-1))");
	tap_near(r.h, 0.01919087268379386, 1e-14, "mcv: h = -log2(p_u)");
	est_mcv(s, 1, 4, &r, &e);
	tap_ok(!r.applicable && strstr(r.reason, "2 samples"), "mcv: one sample is not applicable (%s)", r.reason);
}

static void test_collision(void)
{
	static const uint8_t s1[] = { 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1 };
	static const uint8_t p2[] = { 0, 1 }, k4[] = { 0, 0, 1, 1 }, k3[] = { 0, 1, 0 };
	uint8_t s4[220];
	uint8_t *s;
	size_t n;
	struct est_result r;
	struct err e;

	/* t = 2,3,3,2,2: v = 5, sum 12, X-bar 2.4, sigma sqrt(0.3); X-bar' < 2 -> 2, p = 1 */
	est_collision(s1, sizeof s1, 2, &r, &e);
	tap_eq_long((long long)dx(&r, "v"), 5, "collision: v = 5 collisions");
	tap_eq_long((long long)dx(&r, "Sum t_i"), 12, "collision: sum t_i = 12");
	tap_near(dx(&r, "X-bar"), 2.4, 1e-15, "collision: X-bar = 12/5");
	tap_near(dx(&r, "sigma-hat"), 0.5477225575051667, 1e-15, "collision: sigma-hat = sqrt(0.3)");
	tap_near(dx(&r, "X-bar'"), 2.0, 0, "collision: X-bar' clamped to 2 as NIST's tool does");
	tap_near(r.h, 0.0, 1e-15, "collision: p = 0.5 + sqrt(1.25 - 1) = 1, h = 0");

	/* 80 pairs then 20 triples: v = 100, X-bar 2.2, X-bar' 2.0964477657712224 */
	for (int i = 0; i < 40; i++)
		memcpy(s4 + 4 * i, k4, 4);
	for (int i = 0; i < 20; i++)
		memcpy(s4 + 160 + 3 * i, k3, 3);
	est_collision(s4, sizeof s4, 2, &r, &e);
	tap_near(dx(&r, "X-bar'"), 2.0964477657712224, 1e-14, "collision: X-bar' = X-bar - z sigma/sqrt(v)");
	tap_ok(est_detail_find(&r, "Found p.") != NULL, "collision: X-bar' < 2.5 finds p");
	tap_near(r.p, 0.9491949655933254, 1e-14, "collision: p = 0.5 + sqrt(1.25 - X-bar'/2)");
	tap_near(r.h, 0.07522364620211386, 1e-14, "collision: h = -log2 p");

	/* period 2: every t_v = 3, sigma 0, X-bar' = 3 >= 2.5: no p, lower bound 0.5, h = 1 */
	s = repeat(p2, 2, 100, &n);
	est_collision(s, n, 2, &r, &e);
	tap_ok(est_detail_find(&r, "Could Not Find p. Proceeding with the lower bound for p.") != NULL,
	       "collision: X-bar' >= 2.5 takes NIST's 'Could Not Find p' path");
	tap_near(r.p, 0.5, 0, "collision: p = 0.5 when no root");
	tap_near(r.h, 1.0, 0, "collision: h = 1 when no root");
	free(s);

	est_collision(s1, sizeof s1, 4, &r, &e);
	tap_ok(!r.applicable, "collision: a 4-symbol alphabet is not applicable (%s)", r.reason);
	est_collision(s1, 3, 2, &r, &e);
	tap_ok(!r.applicable, "collision: 3 bits give one collision: not applicable (%s)", r.reason);
}

/* The collision walk takes 12 bits at a time from a table: against the
 * walk one collision at a time (steps 1-5), on random, biased and periodic
 * bits of every length from 2 to 300 and a few long ones (the tail, where
 * the windows stop, at every offset).  v, the sum of t and sigma-hat must
 * be the same numbers, bit for bit. */
static void test_collision_walk(void)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	int bad = 0, cases = 0;

	for (size_t n = 2; n <= 100300; n = n < 300 ? n + 1 : n + 50000) {
		for (int kind = 0; kind < 3; kind++) {
			uint8_t *s = malloc(n);
			size_t i = 0, v = 0;
			double sumsq = 0.0, sigma;
			struct est_result r;
			struct err e;

			for (size_t j = 0; j < n; j++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				s[j] = kind == 0 ? (uint8_t)(x >> 63)
				       : kind == 1 ? (uint8_t)((x >> 60) == 0)
						   : (uint8_t)((j / 3 + (x >> 62 == 0)) & 1u);
			}
			while (i + 1 < n) {
				unsigned t = s[i] == s[i + 1] ? 2 : i + 2 < n ? 3 : 0;
				if (!t)
					break;
				v++;
				sumsq += (double)(t * t);
				i += t;
			}
			est_collision(s, n, 2, &r, &e);
			cases++;
			if (v < 2) {
				bad += r.applicable;
			} else {
				double xbar = (double)i / (double)v;
				sigma = sqrt((sumsq - (double)i * xbar) / (double)(v - 1));
				if (!r.applicable || (size_t)dx(&r, "v") != v || (size_t)dx(&r, "Sum t_i") != i ||
				    memcmp(&sigma, &est_detail_find(&r, "sigma-hat")->x, sizeof sigma) != 0) {
					if (bad++ < 5)
						printf("# n %zu kind %d: v %zu / %g, sum %zu / %g\n", n, kind, v,
						       dx(&r, "v"), i, dx(&r, "Sum t_i"));
				}
			}
			free(s);
		}
	}
	tap_ok(bad == 0, "collision: the 12-bit table walk gives the one-at-a-time walk's numbers on %d inputs",
	       cases);
}

static void test_markov(void)
{
	/* 0010111001: C_0 = 5 of the first 9 (P_0 counts the last bit: 5/10),
	 * P_00 = 2/5, P_10 = 2/4; most likely path 1010..10 or 0101..01 */
	static const uint8_t s[] = { 0, 0, 1, 0, 1, 1, 1, 0, 0, 1 };
	struct est_result r;
	struct err e;

	est_markov(s, sizeof s, 2, &r, &e);
	tap_near(dx(&r, "P_0"), 0.5, 0, "markov: P_0 = 5/10");
	tap_near(dx(&r, "P_{0,0}"), 0.4, 1e-16, "markov: P_00 = C_00/C_0 = 2/5");
	tap_near(dx(&r, "P_{0,1}"), 0.6, 1e-16, "markov: P_01 = 1 - P_00");
	tap_near(dx(&r, "P_{1,0}"), 0.5, 0, "markov: P_10 = C_10/C_1 = 2/4");
	tap_near(dx(&r, "p-hat_max") / 3.4336838202925215e-34, 1.0, 1e-12,
		 "markov: p-hat_max = 2^-min(-log2 P(path)) over the 6 paths");
	tap_near(r.h, 0.868482797083103, 1e-14, "markov: h = min(-log2 p-hat_max / 128, 1)");
	est_markov(s, sizeof s, 3, &r, &e);
	tap_ok(!r.applicable, "markov: non-binary input is not applicable (%s)", r.reason);
}

static void test_compression(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	uint8_t *s = NULL, *z;
	size_t n = 0;
	struct est_result r;
	struct err e;

	snprintf(path, sizeof path, "%s/tests/data/nist-90b/bin/rand1_short.bin", top ? top : ".");
	if (samples_read_file(path, &s, &n, &e) != 0) {
		tap_ok(0, "compression: read %s (%s)", path, e.msg);
		return;
	}
	/* NIST ea_non_iid -vv, rand1_short.res: X-bar' 5.1295260964851117, p 0.078547151698718815 */
	est_compression(s, n, 2, &r, &e);
	tap_near(dx(&r, "X-bar"), 5.2322840424169268, 1e-12, "compression: rand1_short X-bar as NIST");
	tap_near(dx(&r, "X-bar'"), 5.1295260964851117, 1e-12, "compression: rand1_short X-bar' as NIST");
	tap_near(r.p, 0.078547151698718815, 1e-10, "compression: rand1_short p as NIST");
	tap_near(r.h, 0.61171620479394784, 1e-10, "compression: rand1_short h = -log2(p)/6 as NIST");
	free(s);

	/* constant bits: every distance is 1, X-bar' = 0 <= E(1) = 0: p = 1, h = 0 */
	z = calloc(7000, 1);
	est_compression(z, 7000, 2, &r, &e);
	tap_near(r.h, 0.0, 0, "compression: constant bits give p = 1, h = 0");
	/* 6006 bits = 1001 blocks: one test block, no variance */
	est_compression(z, 6006, 2, &r, &e);
	tap_ok(!r.applicable, "compression: 1001 blocks are not applicable (%s)", r.reason);
	free(z);

	/* Near-constant bits: 40,000 bytes of 0xff but the last two 1 and 2,
	 * as bits (a source stuck at all ones with a glitch).  The target
	 * X-bar' is ~1e-4, too small for E to meet it within 4 ULPs, so the
	 * root search stops by the bracket's slope.  NIST ea_non_iid -a -v
	 * FILE 8 at 68ed165 on that file: X-bar 0.00090016130228530835,
	 * p = 0.9999928788810476. */
	z = malloc(320000);
	if (z) {
		for (size_t i = 0; i < 320000; i++)
			z[i] = i < 8 * 39998 ? 1 : (uint8_t)((i >= 8 * 39999 ? 2 : 1) >> (7 - i % 8) & 1u);
		est_compression(z, 320000, 2, &r, &e);
		tap_near(dx(&r, "X-bar"), 0.00090016130228530835, 1e-15, "compression: stuck bits with a glitch, X-bar as NIST");
		tap_near(r.p, 0.9999928788810476, 4e-16, "compression: stuck bits with a glitch, p as NIST (to the last digits)");
		free(z);
	}
}

int main(void)
{
	test_mcv();
	test_collision();
	test_collision_walk();
	test_markov();
	test_compression();
	return tap_done();
}
