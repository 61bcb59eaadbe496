/* compression.c - 90B 6.3.4 Compression estimate (binary input only).
 *
 * Maurer-style universal statistic over b = 6 bit blocks with a d = 1000
 * block dictionary, then a search for the p whose expected statistic
 * G(p) + (2^b - 1) G(q) equals the lower confidence bound X-bar'.
 * G is evaluated with the O(L) recurrence UL described for NIST's tool
 * (A_i and the sum of sums share the powers (1-z)^i), with the same
 * compensated sums and the same stop once a term underflows, so the figures
 * match ea_non_iid v1.1.7.  The search is NIST's guarded bisection. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "estimators/estimators.h"

#define COMP_B 6          /* 90B 6.3.4: block size b */
#define COMP_D 1000       /* 90B 6.3.4: dictionary initialisation blocks d */
#define COMP_ALPH (1u << COMP_B)
#define COMP_SIGMA_C 0.5907   /* 90B 6.3.4 step 5: c = 0.5907 for b = 6 */
/* NIST's bisection budget: more steps than a double has bits to halve. */
#define SEARCH_ITERMAX 1076

static void kahan_add(double *sum, double *comp, double in)
{
	double y = in - *comp;
	double t = *sum + y;

	*comp = (t - *sum) - y;
	*sum = t;
}

/* G(z) of 90B 6.3.4 step 7, times nothing: returns the average over the
 * v = L - d test blocks of the expected log2 distance. */
static double comp_G(double z, long d, long nblocks)
{
	double ai_sum = 0.0, ai_comp = 0.0, first = 0.0, first_comp = 0.0, ad1;
	long double bterm = 1.0L - (long double)z, bi = bterm, ai, scaled;
	int truncated = 0;

	for (long i = 2; i <= d; i++) {
		kahan_add(&ai_sum, &ai_comp, (double)(log2l((long double)i) * bi));
		bi *= bterm;
	}
	ad1 = ai_sum;
	for (long i = d + 1; i <= nblocks - 1; i++) {
		ai = log2l((long double)i) * bi;
		kahan_add(&ai_sum, &ai_comp, (double)ai);
		scaled = (long double)(nblocks - i) * ai;
		if ((double)scaled > 0.0) {
			kahan_add(&first, &first_comp, (double)scaled);
		} else {
			truncated = 1;   /* the remaining terms are below DBL_MIN */
			break;
		}
		bi *= bterm;
	}
	kahan_add(&first, &first_comp, (double)(nblocks - d) * ad1);
	if (!truncated) {
		ai = log2l((long double)nblocks) * bi;
		kahan_add(&ai_sum, &ai_comp, (double)ai);
	}
	return 1.0 / (double)(nblocks - d) * z * (z * first + (ai_sum - ad1));
}

static double comp_expected(double p, long d, long nblocks)
{
	double q = (1.0 - p) / ((double)COMP_ALPH - 1.0);

	return comp_G(p, d, nblocks) + ((double)COMP_ALPH - 1.0) * comp_G(q, d, nblocks);
}

/* "Equal" as NIST's search decides it: relatively within DBL_EPSILON, within
 * DBL_MIN where a relative test is meaningless, or within 4 ULPs. */
static int close_enough(double a, double b)
{
	double d, fa, fb, t;
	uint64_t ia, ib;

	if (isnan(a) || isnan(b))
		return 0;
	if (!(a < b) && !(a > b))
		return 1;
	if (isinf(a) || isinf(b))
		return 0;
	fa = fabs(a);
	fb = fabs(b);
	if (fa > fb) {
		t = a; a = b; b = t;
		t = fa; fa = fb; fb = t;
	}
	d = fabs(b - a);
	if (fa < DBL_MIN || d < DBL_MIN || isinf(d) || fb * DBL_EPSILON < DBL_MIN)
		return d <= DBL_MIN;
	if (d <= fb * DBL_EPSILON)
		return 1;
	if (signbit(a) != signbit(b))
		return 0;
	memcpy(&ia, &fa, sizeof ia);
	memcpy(&ib, &fb, sizeof ib);
	return ib - ia <= 4;
}

static int in_closed(double x, double a, double b)
{
	return a > b ? (x >= b && x <= a) : (x >= a && x <= b);
}

static int in_open(double x, double a, double b)
{
	return a > b ? (x > b && x < a) : (x > a && x < b);
}

/* Finds p in [1/2^b, 1] with comp_expected(p) = target (it decreases in p);
 * returns a value <= 1/2^b when there is none. */
static double comp_search(double target, long d, long nblocks)
{
	const double ldom = 1.0 / (double)COMP_ALPH, hdom = 1.0;
	double lb = ldom, hb = hdom, lv = INFINITY, hv = -INFINITY, p, pv, lastp;

	if (!(comp_expected(ldom, d, nblocks) > target))
		return -1.0;
	p = (lb + hb) / 2.0;
	pv = comp_expected(p, d, nblocks);
	for (int j = 0; j < SEARCH_ITERMAX; j++) {
		if (close_enough(pv, target))
			break;
		if (target < pv) {
			lb = p;
			lv = pv;
		} else {
			hb = p;
			hv = pv;
		}
		if (lb >= hb)
			return fmin(fmax(lb, hb), hdom);
		if (!(in_closed(lb, ldom, hdom) && in_closed(hb, ldom, hdom)))
			return ldom;
		if (!in_closed(target, lv, hv))
			return ldom;
		lastp = p;
		p = (lb + hb) / 2.0;
		if (!in_open(p, lb, hb))
			return hb;
		if (!(lastp < p) && !(lastp > p))
			return hb;
		pv = comp_expected(p, d, nblocks);
		if (!in_closed(pv, lv, hv))
			return hb;
	}
	return p;
}

int est_compression(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	long nblocks = (long)(n / COMP_B), v;
	size_t dict[COMP_ALPH];
	double x = 0.0, xc = 0.0, sg = 0.0, sgc = 0.0, sigma, xprime, p;

	(void)e;
	est_result_init(r, "compression", "Compression");
	if (k != 2) {
		est_not_applicable(r, "binary input only, alphabet has %u symbols", k);
		return 0;
	}
	if (nblocks <= COMP_D + 1) {
		est_not_applicable(r, "needs more than %d blocks of %d bits, got %ld",
				   COMP_D + 1, COMP_B, nblocks);
		return 0;
	}
	/* steps 2-3: dictionary from the first d blocks, then the log2 distance
	 * of every later block to its previous occurrence (or to the start). */
	memset(dict, 0, sizeof dict);
	for (long i = 0; i < nblocks; i++) {
		unsigned blk = 0;
		double lg;

		for (int j = 0; j < COMP_B; j++)
			blk = (blk << 1) | (s[(size_t)i * COMP_B + (size_t)j] & 1u);
		if (i >= COMP_D) {
			lg = log2((double)((size_t)i + 1 - dict[blk]));
			kahan_add(&x, &xc, lg);
			kahan_add(&sg, &sgc, lg * lg);
		}
		dict[blk] = (size_t)i + 1;
	}
	v = nblocks - COMP_D;
	/* steps 4-6: mean, scaled standard deviation, lower bound */
	x /= (double)v;
	sigma = COMP_SIGMA_C * sqrt(sg / ((double)v - 1.0) - x * x);
	est_detail_real(r, "X-bar", x);
	est_detail_real(r, "sigma-hat", sigma);
	xprime = x - EST_ZALPHA * sigma / sqrt((double)v);
	est_detail_real(r, "X-bar'", xprime);

	/* steps 7-8 */
	p = comp_search(xprime, COMP_D, nblocks);
	if (p > 1.0 / (double)COMP_ALPH) {
		r->h = -log2(p) / COMP_B;
		est_detail_note(r, "Found p.");
	} else {
		p = 1.0 / (double)COMP_ALPH;
		r->h = 1.0;
		est_detail_note(r, "Could Not Find p. Proceeding with the lower bound for p.");
	}
	est_detail_real(r, "p", p);
	r->p = p;
	est_detail_real(r, "min entropy", r->h);
	return 0;
}
