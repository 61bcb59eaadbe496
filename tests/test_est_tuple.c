/* test_est_tuple.c - 90B 6.3.5 t-tuple and 6.3.6 LRS.
 *
 * The suffix-structure code is checked against a brute-force count of
 * every t-tuple (quadratic, fine for a few hundred samples) that applies
 * the 90B definitions directly: Q[t] = count of the most common t-tuple,
 * u = the first t with Q[t] < 35, v = the longest repeated substring,
 * P_t = (Q[t]/(N-t+1))^(1/t), P_W = (sum C(c,2) / C(N-W+1,2))^(1/W).
 * Both sorting methods (suffix array, packed 64-bit keys) must agree with
 * it on random and repetitive input, and with each other on long inputs.
 * The degenerate cases were worked by hand (comments). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/tuple.h"
#include "tap.h"

struct brute {
	size_t v, u;
	int tuple_ok, lrs_ok;
	double tuple_p, lrs_p;
};

static int cmp_mem_len;
static const uint8_t *cmp_base;

static int cmp_pos(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return memcmp(cmp_base + x, cmp_base + y, (size_t)cmp_mem_len);
}

static void brute_force(const uint8_t *s, size_t n, struct brute *b)
{
	size_t *pos = malloc(n * sizeof *pos);
	size_t *q = calloc(n + 1, sizeof *q);
	double *sw = calloc(n + 1, sizeof *sw);
	double pmax;

	b->v = 0;
	for (size_t t = 1; t < n; t++) {
		size_t m = n - t + 1, run = 1, best = 1;
		double pairs = 0;

		for (size_t i = 0; i < m; i++)
			pos[i] = i;
		cmp_base = s;
		cmp_mem_len = (int)t;
		qsort(pos, m, sizeof *pos, cmp_pos);
		for (size_t i = 1; i <= m; i++) {
			if (i < m && memcmp(s + pos[i], s + pos[i - 1], t) == 0) {
				run++;
			} else {
				pairs += (double)run * (double)(run - 1) / 2;
				if (run > best)
					best = run;
				run = 1;
			}
		}
		q[t] = best;
		sw[t] = pairs;
		if (best >= 2)
			b->v = t;
		else
			break;
	}
	for (b->u = 1; b->u <= b->v && q[b->u] >= 35; b->u++)
		;
	pmax = -1;
	for (size_t i = 1; i < b->u; i++) {
		double p = pow((double)q[i] / (double)(n - i + 1), 1.0 / (double)i);
		if (p > pmax)
			pmax = p;
	}
	b->tuple_ok = pmax > 0;
	b->tuple_p = pmax;
	b->lrs_ok = b->v >= b->u && b->v > 0;
	pmax = 0;
	for (size_t w = b->u; b->lrs_ok && w <= b->v; w++) {
		double p = pow(sw[w] / ((double)(n - w) * (double)(n - w + 1) / 2), 1.0 / (double)w);
		if (p > pmax)
			pmax = p;
	}
	b->lrs_p = pmax;
	free(pos);
	free(q);
	free(sw);
}

static double dx(const struct est_result *r, const char *key)
{
	for (int i = 0; i < r->ndetails; i++)
		if (strcmp(r->detail[i].key, key) == 0)
			return r->detail[i].x;
	return NAN;
}

static void against_brute(const char *what, const uint8_t *s, size_t n, unsigned k,
			  enum tuple_method m)
{
	struct brute b;
	struct est_result t, l;
	struct err e;
	int ok;

	brute_force(s, n, &b);
	if (tuple_lrs_run(s, n, k, m, &t, &l, &e) != 0) {
		tap_ok(0, "%s: runs (%s)", what, e.msg);
		return;
	}
	ok = t.applicable == b.tuple_ok && l.applicable == b.lrs_ok;
	if (ok && b.tuple_ok)
		ok = (size_t)dx(&t, "t") == b.u - 1 && fabs(dx(&t, "p-hat_max") - b.tuple_p) <= 1e-12;
	if (ok && b.lrs_ok)
		ok = (size_t)dx(&l, "u") == b.u && (size_t)dx(&l, "v") == b.v &&
		     fabs(dx(&l, "p-hat") - b.lrs_p) <= 1e-12;
	if (!tap_ok(ok, "%s: t, u, v and both p-hats equal the brute-force count", what))
		printf("# brute u=%zu v=%zu tuple %d %.17g lrs %d %.17g; got tuple %d t=%g %.17g lrs %d u=%g v=%g %.17g\n",
		       b.u, b.v, b.tuple_ok, b.tuple_p, b.lrs_ok, b.lrs_p, t.applicable, dx(&t, "t"),
		       dx(&t, "p-hat_max"), l.applicable, dx(&l, "u"), dx(&l, "v"), dx(&l, "p-hat"));
}

static uint64_t rng = 88172645463325252ULL;
static unsigned rnd(unsigned k)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % k);
}

static void test_brute(void)
{
	uint8_t s[600];
	const char *mname[] = { "", "suffix array", "packed" };

	for (int m = TUPLE_SUFFIX_ARRAY; m <= TUPLE_PACKED; m++) {
		char what[128];

		for (int rep = 0; rep < 3; rep++) {
			for (size_t i = 0; i < sizeof s; i++)
				s[i] = (uint8_t)rnd(2);
			snprintf(what, sizeof what, "%s, 600 random bits #%d", mname[m], rep);
			against_brute(what, s, sizeof s, 2, (enum tuple_method)m);
		}
		/* biased bits: long runs of zeros, repeats longer than 64 bits */
		for (size_t i = 0; i < sizeof s; i++)
			s[i] = rnd(10) == 0;
		snprintf(what, sizeof what, "%s, 600 bits with P(1) = 0.1", mname[m]);
		against_brute(what, s, sizeof s, 2, (enum tuple_method)m);
		/* a 100-bit block repeated: v = 500 */
		for (size_t i = 0; i < 100; i++)
			s[i] = (uint8_t)rnd(2);
		for (size_t i = 100; i < sizeof s; i++)
			s[i] = s[i - 100];
		snprintf(what, sizeof what, "%s, a 100-bit block repeated 6 times", mname[m]);
		against_brute(what, s, sizeof s, 2, (enum tuple_method)m);
	}
	for (size_t i = 0; i < 400; i++)
		s[i] = (uint8_t)rnd(4);
	against_brute("suffix array, 400 random 2-bit symbols", s, 400, 4, TUPLE_SUFFIX_ARRAY);
	for (size_t i = 0; i < 300; i++)
		s[i] = (uint8_t)rnd(3) ? 0 : (uint8_t)rnd(256);
	against_brute("suffix array, 300 bytes, mostly zero", s, 300, 256, TUPLE_SUFFIX_ARRAY);
}

static void test_degenerate(void)
{
	uint8_t s[256];
	uint8_t *big;
	struct est_result t, l, t2, l2;
	struct err e;
	size_t n;

	/* 256 distinct symbols: nothing repeats (v = 0): both not applicable */
	for (int i = 0; i < 256; i++)
		s[i] = (uint8_t)i;
	tuple_lrs_run(s, 256, 256, TUPLE_AUTO, &t, &l, &e);
	tap_ok(!t.applicable && !l.applicable, "all-distinct symbols: t-tuple and LRS not applicable (%s)",
	       t.reason);

	/* 100 zeros: Q[t] = 101 - t >= 35 up to t = 66, so t = 66, u = 67,
	 * v = 99; every P is 1: p_u = 1, h = 0 for both */
	memset(s, 0, 100);
	tuple_lrs_run(s, 100, 2, TUPLE_SUFFIX_ARRAY, &t, &l, &e);
	tap_eq_long((long long)dx(&t, "t"), 66, "100 zeros: t = 66 (Q[66] = 35)");
	tap_eq_long((long long)dx(&l, "v"), 99, "100 zeros: v = 99");
	tap_near(t.h, 0, 0, "100 zeros: t-tuple h = 0");
	tap_near(l.h, 0, 0, "100 zeros: LRS h = 0");

	/* 40 samples, every symbol 4 times (0..9 repeated): Q[1] = 4 < 35, u = 1:
	 * t-tuple has no t; v = 30 >= u, LRS runs */
	for (int i = 0; i < 40; i++)
		s[i] = (uint8_t)(i % 10);
	tuple_lrs_run(s, 40, 10, TUPLE_AUTO, &t, &l, &e);
	tap_ok(!t.applicable, "no tuple occurs 35 times: t-tuple not applicable (%s)", t.reason);
	tap_eq_long((long long)dx(&l, "v"), 30, "0..9 four times: v = 30");

	tuple_lrs_run(s, 1, 10, TUPLE_AUTO, &t, &l, &e);
	tap_ok(!t.applicable && !l.applicable, "one sample: not applicable");

	/* 3,000,000 bits of period 2: the packed order gives up (every suffix
	 * repeats for ~N bits) and the suffix array answers: t = u-1 with u
	 * = N - 68, v = N - 2, h = 0 */
	n = 3000000;
	big = malloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = (uint8_t)(i & 1);
	tuple_lrs_run(big, n, 2, TUPLE_PACKED, &t, &l, &e);
	tap_eq_long((long long)dx(&l, "v"), (long long)n - 2, "period-2 bits: v = N - 2");
	tap_near(l.h, 0, 1e-12, "period-2 bits: LRS h = 0");
	/* long random bits with one 1600-bit stretch copied (the packed order
	 * compares those suffixes word by word): packed and suffix array agree
	 * exactly, and v is at least the copy's length */
	for (size_t i = 0; i < n; i++)
		big[i] = (uint8_t)rnd(2);
	memcpy(big + 2000000, big + 1000, 1600);
	tuple_lrs_run(big, n, 2, TUPLE_PACKED, &t, &l, &e);
	tuple_lrs_run(big, n, 2, TUPLE_SUFFIX_ARRAY, &t2, &l2, &e);
	tap_ok(dx(&t, "t") == dx(&t2, "t") && t.h == t2.h && dx(&l, "u") == dx(&l2, "u") &&
	       dx(&l, "v") == dx(&l2, "v") && l.h == l2.h && dx(&l, "v") >= 1600,
	       "3M random bits + a 1600-bit copy: packed and suffix array identical (t=%g, v=%g)",
	       dx(&t, "t"), dx(&l, "v"));
	free(big);
}

int main(void)
{
	test_brute();
	test_degenerate();
	return tap_done();
}
