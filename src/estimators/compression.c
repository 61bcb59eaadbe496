/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compression.c - 90B 6.3.4 Compression estimate (binary input only).
 *
 * Maurer-style universal statistic over b = 6 bit blocks with a d = 1000
 * block dictionary, then a search for the p whose expected statistic
 * G(p) + (2^b - 1) G(q) equals the lower confidence bound X-bar'.
 * G is evaluated with the O(L) recurrence UL described for NIST's tool
 * (A_i and the sum of sums share the powers (1-z)^i), with the same
 * compensated sums and the same stop once a term underflows, so the figures
 * match ea_non_iid v1.1.7.  The root is found by regula falsi (see
 * comp_search) rather than NIST's bisection: same root, fewer G calls. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/estimators.h"

#define COMP_B 6          /* 90B 6.3.4: block size b */
#define COMP_D 1000       /* 90B 6.3.4: dictionary initialisation blocks d */
#define COMP_ALPH (1u << COMP_B)
#define COMP_SIGMA_C 0.5907   /* 90B 6.3.4 step 5: c = 0.5907 for b = 6 */
/* Search step budget (NIST's ITERMAX: more steps than a double has bits to halve). */
#define SEARCH_ITERMAX 1076

static void kahan_add(double *sum, double *comp, double in)
{
	double y = in - *comp;
	double t = *sum + y;

	*comp = (t - *sum) - y;
	*sum = t;
}

/* log2l(i) for i < len, grown on demand: G() is evaluated ~20 times (two
 * a search step) on the same i range, and log2l dominated its cost.  Each value is kept as
 * its fraction past floor(log2 i), in 63-bit fixed point: 8 bytes, not a
 * long double's 16 (near-constant bits ask for every block: 13M for 10M
 * bytes at 8 bits, 213 -> 107 MB, and half as much copied as it grows).
 * Exact: v = log2l(i) lies in [k, k + 1), k = floor(log2 i), so v - k has
 * at most the 64 bits of v's significand, the lowest at or above 2^-63,
 * and k + that fraction is v again, rounding nothing.  (k from the bit
 * length of i is v's integer part below 2^58; the table checks it.) */
struct log2tab {
	int64_t *v;
	long len, cap;
	long limit;   /* no index past it is asked for: the blocks, + 1 */
	int nomem;    /* out of memory, or a k that failed its check: log2l() */
};

static inline long log2tab_k(long i)
{
	return i > 0 ? 63 - __builtin_clzll((unsigned long long)i) : 0;
}

static inline long double tab_log2(struct log2tab *t, long i)
{
	if (i >= t->len) {
		if (t->nomem)
			return i > 0 ? log2l((long double)i) : 0.0L;
		if (i >= t->cap) {
			long nc = t->cap ? t->cap : 4096;
			int64_t *nv;

			while (nc <= i)
				nc *= 2;
			/* past a quarter of the blocks, all of them at once:
			 * near-constant bits ask for every block, and the last
			 * doubling held the old table beside the new one (67 +
			 * 107 MB at 10M bytes of 0xff with a glitch, at 8 bits) */
			if (nc > t->limit / 4 && i < t->limit)
				nc = t->limit;
			nv = bigmem_realloc(t->v, (size_t)nc, sizeof *nv);
			if (!nv) {
				t->nomem = 1;
				return log2l((long double)i);
			}
			t->v = nv;
			t->cap = nc;
		}
		for (long j = t->len; j <= i; j++) {
			const long double v = j > 0 ? log2l((long double)j) : 0.0L;
			const long k = log2tab_k(j);

			if (!(v >= (long double)k && v < (long double)(k + 1))) {
				t->nomem = 1;
				return i > 0 ? log2l((long double)i) : 0.0L;
			}
			t->v[j] = (int64_t)((v - (long double)k) * 0x1p63L);
		}
		t->len = i + 1;
	}
	return (long double)log2tab_k(i) + (long double)t->v[i] * 0x1p-63L;
}

/* G(z) of 90B 6.3.4 step 7: the expected average log2 distance over the
 * v = L - d test blocks when each block equals the one before with
 * probability z. */
static double comp_G(struct log2tab *lt, double z, long d, long nblocks)
{
	double ai_sum = 0.0, ai_comp = 0.0, first = 0.0, first_comp = 0.0, ad1;
	long double bterm = 1.0L - (long double)z, bi = bterm, ai, scaled;
	const long double lg2n = log2l((long double)nblocks);
	int truncated = 0;

	for (long i = 2; i <= d; i++) {
		kahan_add(&ai_sum, &ai_comp, (double)(tab_log2(lt, i) * bi));
		bi *= bterm;
	}
	ad1 = ai_sum;
	for (long i = d + 1; i <= nblocks - 1; i++) {
		/* The terms left, log2(k) (1-z)^k for k >= i, sum to at most
		 * log2(nblocks) (1-z)^i / z, and the first sum's to nblocks times
		 * that.  NIST's G() (cpp/non_iid/compression_test.h at 68ed165)
		 * goes on until they underflow: ~47,000 terms on random data,
		 * whatever n.  Once both tails are below 2^-110 of their sums,
		 * under the resolution of the Kahan compensation itself (~2^-106),
		 * they can move a sum only when it already lies within about
		 * 2^-57 of a rounding boundary: G is the same double but for that
		 * chance. */
		if ((i & 255) == 0 && lg2n * bi < (long double)z * 0x1p-110L * ai_sum &&
		    lg2n * bi * (long double)nblocks < (long double)z * 0x1p-110L * first) {
			truncated = 1;
			break;
		}
		ai = tab_log2(lt, i) * bi;
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
		ai = tab_log2(lt, nblocks) * bi;
		kahan_add(&ai_sum, &ai_comp, (double)ai);
	}
	return 1.0 / (double)(nblocks - d) * z * (z * first + (ai_sum - ad1));
}

static double comp_expected(struct log2tab *lt, double p, long d, long nblocks)
{
	double q = (1.0 - p) / ((double)COMP_ALPH - 1.0);

	return comp_G(lt, p, d, nblocks) + ((double)COMP_ALPH - 1.0) * comp_G(lt, q, d, nblocks);
}

/* Finds p in [1/2^b, 1] with comp_expected(p) = target.  The expectation
 * decreases in p, so a root is bracketed whenever E(1/2^b) > target.
 * NIST's tool bisects (~55 evaluations of G); the Illinois variant of
 * regula falsi reaches the same root to the last few ULPs in ~10, and G is
 * this estimator's whole cost.  Returns a value <= 1/2^b when there is no
 * root (90B 6.3.4 step 8). */
static double comp_search(struct log2tab *lt, double target, long d, long nblocks)
{
	double a = 1.0 / (double)COMP_ALPH, b = 1.0, fa, fb, c = a, fc;
	int side = 0;

	fa = comp_expected(lt, a, d, nblocks) - target;
	if (!(fa > 0.0))
		return -1.0;
	/* E(1) = G(1) + 63 G(0) = 0 (every G term carries a factor z), and
	 * evaluating G(0) would walk all L blocks for nothing. */
	fb = 0.0 - target;
	if (!(fb < 0.0))
		return b;   /* the bound lies at or below E(1) = 0: p = 1 */
	for (int it = 0; it < SEARCH_ITERMAX; it++) {
		c = (a * fb - b * fa) / (fb - fa);
		if (!(c > a && c < b))
			c = 0.5 * (a + b);
		if (!(c > a && c < b))
			break;   /* a and b are adjacent doubles */
		fc = comp_expected(lt, c, d, nblocks) - target;
		if (fabs(fc) <= 4.0 * DBL_EPSILON * fabs(target) || !(fc > 0.0 || fc < 0.0))
			break;
		/* Near-constant bits make the target tiny (X-bar' ~ 1e-7):
		 * the test above then asks E to come closer to it than E moves
		 * in 1/16 ULP of p, which it cannot, and the steps halved the
		 * bracket down to 4 ULPs, each a G over every block (20 G over
		 * 13M blocks for 10M bytes of 0xff with a glitch, at 8 bits).
		 * There, stop once the bracket's slope puts the root within
		 * half an ULP of c.  Elsewhere the test above decides, as
		 * before. */
		{
			const double slope = fabs(fb - fa) / (b - a);

			if (64.0 * fabs(target) < slope * c && fabs(fc) <= 0.5 * DBL_EPSILON * c * slope)
				break;
		}
		if (fc > 0.0) {
			a = c;
			fa = fc;
			if (side == 1)
				fb *= 0.5;
			side = 1;
		} else {
			b = c;
			fb = fc;
			if (side == -1)
				fa *= 0.5;
			side = -1;
		}
		if (b - a <= 4.0 * DBL_EPSILON * b)
			break;
	}
	return c;
}

int est_compression(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	return est_binary_only(est_compression_bits, "compression", "Compression", s, n, k, r, e);
}

int est_compression_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	long nblocks = (long)(n / COMP_B), v;
	size_t dict[COMP_ALPH];
	double x = 0.0, xc = 0.0, sg = 0.0, sgc = 0.0, sigma, xprime, p;
	struct log2tab lt = { NULL, 0, 0, nblocks + 1, 0 };

	(void)e;
	est_result_init(r, "compression", "Compression");
	if (nblocks <= COMP_D + 1) {
		est_not_applicable(r, "needs more than %d blocks of %d bits, got %ld",
				   COMP_D + 1, COMP_B, nblocks);
		return 0;
	}
	/* steps 2-3: dictionary from the first d blocks, then the log2 distance
	 * of every later block to its previous occurrence (or to the start). */
	memset(dict, 0, sizeof dict);
	for (long i = 0; i < nblocks; i++) {
		unsigned blk = (unsigned)(est_bits64(w, (size_t)i * COMP_B) >> (64 - COMP_B));
		double lg;

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
	p = comp_search(&lt, xprime, COMP_D, nblocks);
	bigmem_free(lt.v);
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
