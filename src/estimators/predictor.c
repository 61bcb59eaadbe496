/* SPDX-License-Identifier: GPL-3.0-or-later */
/* predictor.c - P_global, P_global' and P_local of the SP 800-90B prediction
 * estimators (6.3.7-6.3.10, the common steps 5-7 / 4-6 of each).
 *
 * The arithmetic follows NIST's ea_non_iid v1.1.7 (predictionEstimate(),
 * calc_p_local() and prediction_estimate_function() in its shared/utils.h)
 * operation for operation, so that the printed values agree to the last bit:
 * the long double fixed-point iteration for x, the bisection with its
 * invariant checks and its relative/ULP equality test.
 */
#include "config.h"

#include "estimators/estsimd.h"
#include "estimators/predictor.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <float.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

/* NIST's ITERMAX: enough halvings to exhaust a double's range. */
#define PRED_ITERMAX 1076
/* 90B 6.3.7 step 7: P_local is the p for which the no-run probability is 0.99. */
#define PRED_ALPHA_LOCAL 0.99
/* 90B 6.3.7 step 6: P_global' = 1 - 0.01^(1/N) when no prediction was right. */
#define PRED_ALPHA_GLOBAL 0.01

#define IN_OPEN(x, a, b) (((a) > (b)) ? (((x) > (b)) && ((x) < (a))) : (((x) > (a)) && ((x) < (b))))
#define IN_CLOSED(x, a, b) (((a) > (b)) ? (((x) >= (b)) && ((x) <= (a))) : (((x) >= (a)) && ((x) <= (b))))

double pred_log_norun(long double p, long r, long N)
{
	long double q = 1.0L - p, x = 1.0L, xlast = 0.0L;

	/* 90B 6.3.7 step 7: x is the fixed point of x = 1 + q p^r x^(r+1);
	 * NIST iterates at most 66 times, in long double. */
	for (int i = 0; i <= 65 && (x - xlast) > (LDBL_EPSILON * x); i++) {
		xlast = x;
		x = 1.0L + q * powl(p, (long double)r) * powl(x, (long double)r + 1.0L);
	}
	return (double)(logl(1.0L - p * x) - logl(((long double)r + 1.0L - (long double)r * x) * q) -
			((long double)N + 1.0L) * logl(x));
}

/* NIST's relEpsilonEqual(A, B, DBL_MIN, DBL_EPSILON, 4): equal within a
 * relative DBL_EPSILON, an absolute DBL_MIN near zero, or 4 ULPs. */
static int pred_close(double a, double b)
{
	const double max_abs = DBL_MIN, max_rel = DBL_EPSILON;
	const uint64_t max_ulp = 4;
	double fa, fb, diff;
	uint64_t ia, ib;

	if (isnan(a) || isnan(b))
		return 0;
	if (!islessgreater(a, b))
		return 1;
	if (isinf(a) || isinf(b))
		return 0;
	fa = fabs(a);
	fb = fabs(b);
	if (fa > fb) {
		double t = a; a = b; b = t;
		t = fa; fa = fb; fb = t;
	}
	diff = fabs(b - a);
	if (fa < DBL_MIN || diff < DBL_MIN || isinf(diff) || fb * max_rel < DBL_MIN)
		return diff <= max_abs;
	if (diff <= fb * max_rel)
		return 1;
	if (signbit(a) != signbit(b))
		return 0;
	memcpy(&ia, &fa, sizeof ia);
	memcpy(&ib, &fb, sizeof ib);
	return ib - ia <= max_ulp;
}

double pred_local(long max_run, long N, double ldomain)
{
	const double log_alpha = log(PRED_ALPHA_LOCAL);
	const double hdomain = 1.0;
	double lbound = ldomain, hbound = hdomain;
	double lvalue = INFINITY, hvalue = -INFINITY;
	double p = (lbound + hbound) / 2.0, lastp;
	double pval = pred_log_norun(p, max_run + 1, N);

	for (int j = 0; j < PRED_ITERMAX; j++) {
		if (pred_close(pval, log_alpha))
			break;
		if (log_alpha < pval) {
			lbound = p;
			lvalue = pval;
		} else {
			hbound = p;
			hvalue = pval;
		}
		if (lbound >= hbound) {
			p = fmin(fmax(lbound, hbound), hdomain);
			break;
		}
		if (!(IN_CLOSED(lbound, ldomain, hdomain) && IN_CLOSED(hbound, ldomain, hdomain))) {
			p = hdomain;
			break;
		}
		if (!IN_CLOSED(log_alpha, lvalue, hvalue)) {
			p = hdomain;
			break;
		}
		lastp = p;
		p = (lbound + hbound) / 2.0;
		if (!IN_OPEN(p, lbound, hbound)) {
			p = hbound;
			break;
		}
		if (!islessgreater(lastp, p)) {   /* a cycle */
			p = hbound;
			break;
		}
		pval = pred_log_norun(p, max_run + 1, N);
		if (!IN_CLOSED(pval, lvalue, hvalue)) {
			p = hbound;
			break;
		}
	}
	return p;
}

void pred_finish(struct est_result *r, long long C, long long N, long long max_run, unsigned k)
{
	double cur = 1.0 / (double)k;
	double pg = (double)C / (double)N, pgp, plocal = -1.0;

	/* 90B 6.3.7 step 6: upper 99% bound on the global accuracy.  NIST
	 * writes min(1.0, x), which yields 1.0 when x is NaN (N = 1). */
	if (pg > 0) {
		double up = pg + EST_ZALPHA * sqrt((pg * (1.0 - pg)) / ((double)N - 1.0));
		pgp = (up < 1.0) ? up : 1.0;
	} else {
		pgp = 1.0 - pow(PRED_ALPHA_GLOBAL, 1.0 / (double)N);
	}
	cur = fmax(cur, pgp);
	/* 90B 6.3.7 step 7: P_local only matters when the longest run is
	 * unlikely under the current maximum. */
	if (cur < 1.0 && pred_log_norun(cur, (long)max_run + 1, (long)N) > log(PRED_ALPHA_LOCAL)) {
		plocal = pred_local((long)max_run, (long)N, cur);
		cur = fmax(cur, plocal);
	}
	r->applicable = 1;
	r->p = cur;
	r->h = -log2(cur);
	est_detail_int(r, "C", C);
	est_detail_int(r, "r", max_run + 1);
	est_detail_int(r, "N", N);
	est_detail_real(r, "P_global", pg);
	est_detail_real(r, "P_global'", pgp);
	if (plocal > 0.0)
		est_detail_real(r, "P_local", plocal);
	else
		est_detail_note(r, "P_local can't change the result.");
	est_detail_real(r, "min entropy", r->h);
}

/* The largest sample (0 for none). */
static unsigned pred_max_sample(const uint8_t *s, size_t n)
{
	size_t i = 0;
	unsigned top = 0;
#ifdef __SSE2__
	__m128i m = _mm_setzero_si128();
	for (; i + 16 <= n; i += 16)
		m = _mm_max_epu8(m, _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
	{
		uint8_t lanes[16];
		_mm_storeu_si128((__m128i *)(void *)lanes, m);
		for (int j = 0; j < 16; j++)
			top = lanes[j] > top ? lanes[j] : top;
	}
#endif
	for (; i < n; i++)
		top = s[i] > top ? s[i] : top;
	return top;
}

int pred_check_input(const char *name, const uint8_t *s, size_t n, unsigned k, struct err *e)
{
	if (k < 2 || k > 256)
		return err_set(e, ERR_USAGE, "%s: alphabet size %u outside 2..256", name, k);
	if (pred_max_sample(s, n) < k)
		return 0;   /* the common case, found at memory speed */
	for (size_t i = 0; i < n; i++)
		if (s[i] >= k)
			return err_set(e, ERR_DATA, "%s: sample %zu is %u, outside the alphabet 0..%u",
				       name, i, s[i], k - 1);
	return 0;
}


/* ---- blockwise scoreboard (6.3.7 step 3, 6.3.8 step 3, 6.3.9 step 4) ---- */

/* For a byte of steps: a = steps where the subpredictor scores and the
 * reference does not, b = the reverse.  net = popcount(a) - popcount(b),
 * top = the highest prefix sum (>= 0). */
struct pred_walk {
	signed char net;
	signed char top;
};

/* The table is the same for every scoreboard: built once per process
 * (every predictor estimator of every track built its own, 64K entries,
 * 2% of a 1-bit assess's instructions). */
static struct pred_walk walk_table[65536];
static pthread_once_t walk_once = PTHREAD_ONCE_INIT;

/* A nibble pair's walk, 4 steps from bit 0 up. */
static struct pred_walk walk_nibbles(unsigned a, unsigned c)
{
	int sum = 0, top = 0;

	for (unsigned j = 0; j < 4; j++) {
		sum += (int)((a >> j) & 1u) - (int)((c >> j) & 1u);
		if (sum > top)
			top = sum;
	}
	return (struct pred_walk){ (signed char)sum, (signed char)top };
}

/* Each byte pair's walk from its two nibble pairs' (the low ones first):
 * the eight steps bit by bit for all 65,536 pairs cost more than the
 * rest of a 1-bit assess of 1,000 samples. */
static void walk_build(void)
{
	struct pred_walk nib[256];   /* [a << 4 | c], a and c 4 bits */

	for (unsigned a = 0; a < 16; a++)
		for (unsigned c = 0; c < 16; c++)
			nib[a << 4 | c] = walk_nibbles(a, c);
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned c = 0; c < 256; c++) {
			const struct pred_walk lo = nib[(a & 15u) << 4 | (c & 15u)], hi = nib[(a >> 4) << 4 | c >> 4];
			const int top = lo.net + hi.top > lo.top ? lo.net + hi.top : lo.top;

			walk_table[a << 8 | c].net = (signed char)(lo.net + hi.net);
			walk_table[a << 8 | c].top = (signed char)top;
		}
	}
}

int pred_sched_init(struct pred_sched *b)
{
	memset(b, 0, sizeof *b);
	if (pthread_once(&walk_once, walk_build) != 0)
		return -1;
	b->walk = walk_table;
	return 0;
}

void pred_sched_free(struct pred_sched *b)
{
	b->walk = NULL;
}

/* Whether lead + (running sum of a minus b) reaches 0 within the block. */
static int sched_catches_up(const struct pred_walk *t, long long lead, uint64_t a, uint64_t b)
{
	for (unsigned j = 0; j < 64; j += 8) {
		const struct pred_walk *w = &t[((a >> j) & 0xffu) << 8 | ((b >> j) & 0xffu)];
		if (lead + w->top >= 0)
			return 1;
		lead += w->net;
	}
	return 0;
}

/* The popcounts dominate the Lag blocks: build a POPCNT clone as well where
 * the toolchain can pick one at load time (GNU ifunc). */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(__clang__)
#define SCHED_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define SCHED_CLONES
#endif

static int literal_runs = 1;

int pred_literal_runs(int enable)
{
	__atomic_store_n(&literal_runs, enable, __ATOMIC_RELAXED);
	return enable;
}

int pred_literal_runs_on(void)
{
	return __atomic_load_n(&literal_runs, __ATOMIC_RELAXED);
}

#if EST_HAVE_AVX512
/* -1 until the first block asks the CPU; tests set it (sched_simd) */
static int sched_simd_on = -1;

int sched_simd(int enable)
{
	return est_simd_set(&sched_simd_on, enable, EST_SIMD_VPOPCNT);
}

/* The first test of pred_sched_block for eight subpredictors a register:
 * one that scores in the block (a word not 0) but stays behind the high
 * score even scoring at every step it is right (score + popcount <
 * high) takes its popcount now; the others that score (and the winner)
 * are left in cand, in order, for the scalar tests.  Lag's 128 lags were
 * ~4% of a 1-bit assess a lag at a time, nearly all of them far behind. */
__attribute__((target("avx512f,avx512vpopcntdq")))
static unsigned sched_filter_avx512(struct pred_sched *b, unsigned nsub, const uint64_t *correct,
				    unsigned w0, unsigned *cand)
{
	const __m512i high = _mm512_set1_epi64(b->high);
	unsigned nc = 0;

	for (unsigned d0 = 0; d0 < nsub; d0 += 8) {
		const __mmask8 live = (__mmask8)(nsub - d0 >= 8 ? 0xffu : (1u << (nsub - d0)) - 1u);
		const __m512i m = _mm512_maskz_loadu_epi64(live, correct + d0);
		const __m512i sc = _mm512_maskz_loadu_epi64(live, b->score + d0);
		const __m512i up = _mm512_add_epi64(sc, _mm512_popcnt_epi64(m));
		const __mmask8 scores = _mm512_test_epi64_mask(m, m);   /* 0 past nsub */
		__mmask8 behind = _mm512_cmplt_epi64_mask(up, high) & scores;
		unsigned rest;

		if (w0 - d0 < 8)
			behind &= (__mmask8)~(1u << (w0 - d0));
		_mm512_mask_storeu_epi64(b->score + d0, behind, up);
		for (rest = scores & (unsigned)~behind & 0xffu; rest; rest &= rest - 1)
			cand[nc++] = d0 + (unsigned)__builtin_ctz(rest);
	}
	return nc;
}
#else
int sched_simd(int enable)
{
	(void)enable;
	return 0;
}
#endif

/* Subpredictors from which the AVX-512 pre-filter pays (Lag's 128; not
 * MultiMCW's 4) */
#define SCHED_SIMD_MIN 16

/* Step j of a block, NIST's way: the winner's prediction tallied, then
 * each survivor that was right, in increasing index, scores a point and
 * becomes the winner if its score is at least the winner's. */
static inline void sched_step(struct pred_sched *b, const uint64_t *correct, const uint64_t *predicted,
			      const unsigned *surv, unsigned nsurv, unsigned j)
{
	const unsigned w = b->winner;

	if (!predicted || ((predicted[w] >> j) & 1u))
		pred_tally_add(&b->t, (int)((correct[w] >> j) & 1u));
	for (unsigned i = 0; i < nsurv; i++) {
		const unsigned d = surv[i];

		if ((correct[d] >> j) & 1u) {
			const long long sc = ++b->score[d];

			if (sc >= b->high) {
				b->winner = d;
				b->high = sc;
			}
		}
	}
}

void pred_sched_right(struct pred_sched *b, unsigned nsub, size_t nsteps)
{
	uint64_t ones[PRED_SCHED_MAX];
	const unsigned first = nsteps < 64 ? (unsigned)nsteps : 64;
	const long long rest = (long long)(nsteps - first);

	if (nsteps == 0)
		return;
	for (unsigned d = 0; d < PRED_SCHED_MAX; d++)
		ones[d] = first == 64 ? ~(uint64_t)0 : ((uint64_t)1 << first) - 1;
	pred_sched_block(b, nsub, ones, NULL, first);
	/* then each step as the last (see pred_sched_block's all-right case,
	 * which holds for every subpredictor: the winner stays) */
	if (rest > 0) {
		for (unsigned d = 0; d < nsub; d++)
			b->score[d] += rest;
		b->high += rest;
		pred_tally_add_right(&b->t, rest);
	}
}

/* Whether every survivor is right, and predicts, at every live step, and
 * the winner w0 is one of them. */
static int sched_all_right(const uint64_t *correct, const uint64_t *predicted, const unsigned *surv,
			   unsigned nsurv, unsigned w0, uint64_t live)
{
	int has_w0 = 0;

	for (unsigned i = 0; i < nsurv; i++) {
		const unsigned d = surv[i];

		if ((correct[d] & live) != live || (predicted && (predicted[d] & live) != live))
			return 0;
		has_w0 |= d == w0;
	}
	return has_w0;
}

SCHED_CLONES
void pred_sched_block(struct pred_sched *b, unsigned nsub, const uint64_t *correct,
		      const uint64_t *predicted, unsigned nsteps)
{
	unsigned surv[PRED_SCHED_MAX], nsurv = 0, w0 = b->winner;
	uint64_t cw0 = correct[w0];
	unsigned cand[PRED_SCHED_MAX], ncand = 0;
	int filtered = 0;

#if EST_HAVE_AVX512
	if (nsub >= SCHED_SIMD_MIN && est_simd_get(&sched_simd_on, EST_SIMD_VPOPCNT)) {
		ncand = sched_filter_avx512(b, nsub, correct, w0, cand);
		filtered = 1;
	}
#endif
	for (unsigned k = 0, nk = filtered ? ncand : nsub; k < nk; k++) {
		const unsigned d = filtered ? cand[k] : k;
		uint64_t m = correct[d];
		if (!m)
			continue;
		if (d != w0) {
			long long lead = b->score[d] - b->high;
			/* right where the winner is right and nowhere else, it
			 * keeps its lead: it catches up iff it has (constant
			 * bits: every lag right, each behind stays behind) */
			if (lead + __builtin_popcountll(m) < 0 ||
			    (m == cw0 ? lead < 0 : !sched_catches_up(b->walk, lead, m & ~cw0, cw0 & ~m))) {
				b->score[d] += __builtin_popcountll(m);
				continue;
			}
		}
		surv[nsurv++] = d;
	}
	uint64_t live = nsteps >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << nsteps) - 1;
	if ((nsurv == 0 || (nsurv == 1 && surv[0] == w0)) &&
	    (!predicted || (predicted[w0] & live) == live)) {
		/* Only the winner can score: it stays, and it predicts at every
		 * step (a step without a prediction would not break a run);
		 * tally its word at once. */
		uint64_t c = cw0 & live, x = c;
		long long first = c == live ? (long long)nsteps : __builtin_ctzll(~c), inner = 0, last;
		b->t.C += __builtin_popcountll(c);
		if (first == nsteps) {
			b->t.run += nsteps;
		} else {
			if (b->t.run + first > b->t.max_run)
				b->t.max_run = b->t.run + first;
			while (x) {   /* longest run of ones */
				x &= x >> 1;
				inner++;
			}
			last = __builtin_clzll(~(c << (64 - nsteps)));
			b->t.run = last;
		}
		if (inner > b->t.max_run)
			b->t.max_run = inner;
		if (b->t.run > b->t.max_run)
			b->t.max_run = b->t.run;
		if (nsurv) {
			b->score[w0] += __builtin_popcountll(c);
			b->high = b->score[w0];
		}
		return;
	}
	if (sched_all_right(correct, predicted, surv, nsurv, w0, live) && nsteps > 1) {
		/* Every survivor right (and predicting) at every step, the
		 * winner among them: which one wins a step depends only on the
		 * survivors' scores relative to each other and to the highest,
		 * which such a step moves all by one.  So after the first step
		 * the winner stays, and each step is a right prediction and a
		 * point for every survivor (constant bits: every depth and lag
		 * right, where the steps one at a time were most of a stuck
		 * source's MultiMMC). */
		const long long k = (long long)nsteps - 1;

		sched_step(b, correct, predicted, surv, nsurv, 0);
		pred_tally_add_right(&b->t, k);
		for (unsigned i = 0; i < nsurv; i++)
			b->score[surv[i]] += k;
		b->high += k;
		return;
	}
	for (unsigned j = 0; j < nsteps; j++)
		sched_step(b, correct, predicted, surv, nsurv, j);
}
