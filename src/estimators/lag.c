/* lag.c - SP 800-90B 6.3.8 Lag prediction estimate.
 *
 * 128 subpredictors: lag d predicts that sample i equals sample i-d.  At
 * each step the winner (the lag with the highest score, ties to the largest
 * lag that just scored, as 90B step 3c and NIST's ea_non_iid v1.1.7
 * lag_test() update it) makes the prediction, then every lag whose prediction
 * was right scores a point.
 *
 * Doing that literally costs 128 comparisons per sample.  Here the steps
 * are taken 64 at a time: for each lag a 64-bit word holds which of the 64
 * steps it predicts right (byte comparisons for literal samples, word-wide
 * XNOR for bitstrings).  A lag can only become the winner at a step where
 * its score is at least the current winner's, so lags that cannot catch up
 * with the block's first winner within the block are skipped (their scores
 * just grow by the popcount of their word); the few remaining lags are
 * stepped exactly as NIST's tool steps them.  The pruning is exact: a pruned
 * lag never has a score reaching the running maximum, and when NIST's loop
 * makes such a lag a transient winner in the middle of a step, the block's
 * first winner overrides it later in the same step.
 */
#include "config.h"

#include "estimators/predictor.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* 90B 6.3.8 step 1: D = 128 lags. */
#define LAG_D 128
#define LAG_BLOCK 64
#define LAG_PAD (LAG_D + LAG_BLOCK)

/* walk[a << 8 | b]: for a byte of steps where the lag is right and the
 * reference is not (a) or the reference is right and the lag not (b):
 * net = popcount(a) - popcount(b), top = the highest prefix sum (>= 0). */
struct lag_walk {
	signed char net;
	signed char top;
};

static void lag_walk_init(struct lag_walk *t)
{
	for (unsigned a = 0; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			int sum = 0, top = 0;
			for (unsigned j = 0; j < 8; j++) {
				sum += (int)((a >> j) & 1u) - (int)((b >> j) & 1u);
				if (sum > top)
					top = sum;
			}
			t[a << 8 | b].net = (signed char)sum;
			t[a << 8 | b].top = (signed char)top;
		}
	}
}

/* Highest value of (lead + running sum) over the block's steps. */
static long lag_walk_max(const struct lag_walk *t, long lead, uint64_t a, uint64_t b)
{
	long best = lead;
	for (unsigned j = 0; j < 64; j += 8) {
		const struct lag_walk *w = &t[((a >> j) & 0xffu) << 8 | ((b >> j) & 0xffu)];
		if (lead + w->top > best)
			best = lead + w->top;
		lead += w->net;
		if (best >= 0)
			return best;
	}
	return best;
}

/* 64-bit window of the packed bitstring starting at bit `at` (>= 0). */
static inline uint64_t lag_bits64(const uint64_t *p, size_t at)
{
	size_t w = at >> 6;
	unsigned o = (unsigned)(at & 63u);
	return o ? (p[w] >> o) | (p[w + 1] << (64 - o)) : p[w];
}

static inline uint64_t lag_eq64(const uint8_t *a, const uint8_t *b)
{
#ifdef __SSE2__
	uint64_t m = 0;
	for (unsigned j = 0; j < 64; j += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + j));
		__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b + j));
		m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) << j;
	}
	return m;
#else
	uint64_t m = 0;
	for (unsigned j = 0; j < 64; j++)
		m |= (uint64_t)(a[j] == b[j]) << j;
	return m;
#endif
}

int est_lag(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	uint64_t match[LAG_D + 1];
	long long score[LAG_D + 1];
	unsigned surv[LAG_D];
	struct lag_walk *walk;
	struct pred_tally t = { 0, 0, 0 };
	uint8_t *buf = NULL;
	uint64_t *packed = NULL;
	unsigned winner = 1;      /* a lag, 1..128 (NIST's offset + 1) */
	long long high = 0;       /* the winner's score: the highest score */

	est_result_init(r, "lag", "Lag Prediction");
	if (k < 2 || k > 256)
		return err_set(e, ERR_USAGE, "Lag: alphabet size %u outside 2..256", k);
	if (n < 3) {   /* NIST's lag_test() asserts L > 2 */
		est_not_applicable(r, "needs at least 3 samples, got %zu", n);
		return 0;
	}
	walk = malloc(sizeof *walk * 65536);
	if (k == 2) {
		/* bit t of the stream at bit LAG_PAD + t, zero words around */
		size_t words = (n + 2 * LAG_PAD) / 64 + 2;
		packed = calloc(words, sizeof *packed);
		if (packed)
			for (size_t i = 0; i < n; i++)
				packed[(i + LAG_PAD) >> 6] |= (uint64_t)(s[i] & 1u) << ((i + LAG_PAD) & 63u);
	} else {
		buf = malloc(n + 2 * LAG_PAD);
		if (buf) {
			memset(buf, 0, LAG_PAD);
			memcpy(buf + LAG_PAD, s, n);
			memset(buf + LAG_PAD + n, 0, LAG_PAD);
		}
	}
	if (!walk || (!packed && !buf)) {
		free(walk);
		free(packed);
		free(buf);
		return err_set(e, ERR_NOMEM, "Lag: out of memory");
	}
	lag_walk_init(walk);
	memset(score, 0, sizeof score);

	for (size_t t0 = 0; t0 < n; t0 += LAG_BLOCK) {
		size_t nsteps = n - t0 < LAG_BLOCK ? n - t0 : LAG_BLOCK;
		uint64_t live = nsteps == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nsteps) - 1;
		unsigned nsurv = 0;
		uint64_t cur = packed ? lag_bits64(packed, t0 + LAG_PAD) : 0;

		/* which steps t0..t0+63 each lag predicts right (t >= d only) */
		for (unsigned d = 1; d <= LAG_D; d++) {
			uint64_t m = packed ? ~(cur ^ lag_bits64(packed, t0 + LAG_PAD - d))
					    : lag_eq64(buf + LAG_PAD + t0, buf + LAG_PAD + t0 - d);
			m &= live;
			if (t0 + LAG_BLOCK <= d)
				m = 0;
			else if (t0 < d)
				m &= ~(uint64_t)0 << (d - t0);
			match[d] = m;
		}
		/* lags that may reach the running maximum within this block */
		for (unsigned d = 1; d <= LAG_D; d++) {
			uint64_t m = match[d];
			if (!m)
				continue;
			if (d != winner) {
				long lead = (long)(score[d] - high);
				if (lead + __builtin_popcountll(m) < 0)
					continue;
				if (lag_walk_max(walk, lead, m & ~match[winner], match[winner] & ~m) < 0)
					continue;
			}
			surv[nsurv++] = d;
		}
		for (unsigned d = 1; d <= LAG_D; d++)
			score[d] += __builtin_popcountll(match[d]);
		for (unsigned i = 0; i < nsurv; i++)
			score[surv[i]] -= __builtin_popcountll(match[surv[i]]);

		/* step the survivors as NIST's tool steps every lag */
		for (unsigned j = 0; j < nsteps; j++) {
			if (t0 + j == 0)
				continue;   /* the first sample has no prediction */
			pred_tally_add(&t, (int)((match[winner] >> j) & 1u));
			for (unsigned i = 0; i < nsurv; i++) {
				unsigned d = surv[i];
				if ((match[d] >> j) & 1u) {
					long long sc = ++score[d];
					if (sc >= high) {
						winner = d;
						high = sc;
					}
				}
			}
		}
	}
	free(walk);
	free(packed);
	free(buf);
	pred_finish(r, t.C, (long long)n - 1, t.max_run, k);
	return 0;
}
