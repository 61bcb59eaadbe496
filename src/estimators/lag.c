/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * stepped exactly as NIST's tool steps them (pred_sched_block() in
 * predictor.c, which says why this is exact).
 */
#include "config.h"

#include "bigmem.h"

#include "estimators/estsimd.h"
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

static int lag_run(uint8_t *buf, uint64_t *packed, size_t n, unsigned k, struct est_result *r,
		   struct err *e);

/* -1 until the first block asks the CPU; tests set it (lag_simd) */
static int lag_simd_on = -1;

int lag_simd(int enable)
{
	return est_simd_set(&lag_simd_on, enable, EST_SIMD_F);
}

#if EST_HAVE_AVX512
/* The match words of all 128 lags for the block of packed bits at bit
 * `at` (at >= LAG_PAD + LAG_D: every lag has a whole window): lag d's
 * window starts at at - d, within the four words from (at - LAG_D) / 64
 * on, so eight lags a register take their two words by permutes of those
 * four and shift them together.  The scalar loop's two loads and shifts a
 * lag were ~5% of assess on 1M bits. */
__attribute__((target("avx512f")))
static void lag_match_avx512(const uint64_t *packed, size_t at, uint64_t cur, uint64_t live,
			     uint64_t *match)
{
	const size_t q0 = (at - LAG_D) >> 6;
	const __m512i words = _mm512_maskz_loadu_epi64(0x0f, packed + q0);
	const __m512i keep = _mm512_set1_epi64((long long)live);
	const __m512i ncur = _mm512_set1_epi64((long long)~cur);
	const __m512i iota = _mm512_setr_epi64(1, 2, 3, 4, 5, 6, 7, 8);
	const __m512i rel = _mm512_set1_epi64((long long)(at - (q0 << 6)));   /* at, from word q0 */

	for (unsigned d0 = 0; d0 < LAG_D; d0 += 8) {
		/* lags d0 + 1 .. d0 + 8: windows from at - d, bit o of word q */
		const __m512i from = _mm512_sub_epi64(rel, _mm512_add_epi64(iota, _mm512_set1_epi64(d0)));
		const __m512i q = _mm512_srli_epi64(from, 6);
		const __m512i o = _mm512_and_si512(from, _mm512_set1_epi64(63));
		const __m512i lo = _mm512_permutexvar_epi64(q, words);
		const __m512i hi = _mm512_permutexvar_epi64(_mm512_add_epi64(q, _mm512_set1_epi64(1)), words);
		/* a shift by 64 (o = 0) gives 0: the window is lo alone */
		const __m512i win = _mm512_or_si512(_mm512_srlv_epi64(lo, o),
						    _mm512_sllv_epi64(hi, _mm512_sub_epi64(_mm512_set1_epi64(64), o)));

		/* ~(cur ^ win) & live */
		_mm512_storeu_si512((void *)(match + d0), _mm512_ternarylogic_epi64(ncur, win, keep, 0x28));
	}
}
#endif

int est_lag(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	uint8_t *buf;

	est_result_init(r, "lag", "Lag Prediction");
	{
		int bad = pred_check_input("Lag", s, n, k, e);
		if (bad < 0)
			return bad;
	}
	if (n < 3) {   /* NIST's lag_test() asserts L > 2 */
		est_not_applicable(r, "needs at least 3 samples, got %zu", n);
		return 0;
	}
	if (k == 2)
		return est_run_packed(est_lag_bits, "Lag", s, n, r, e);
	buf = bigmem_calloc(n + 2 * LAG_PAD, 1);
	if (buf) {
		memset(buf, 0, LAG_PAD);
		memcpy(buf + LAG_PAD, s, n);
		memset(buf + LAG_PAD + n, 0, LAG_PAD);
	}
	return lag_run(buf, NULL, n, k, r, e);
}

/* The steps of 6.3.8 on buf (bytes, LAG_PAD zeros around) or packed (bit t
 * at bit LAG_PAD + t, least significant first, zero words around), which it
 * frees. */
static int lag_run(uint8_t *buf, uint64_t *packed, size_t n, unsigned k, struct est_result *r,
		   struct err *e)
{
	uint64_t match[LAG_D];    /* match[d-1]: lag d */
	struct pred_sched b;

	if ((!packed && !buf) || pred_sched_init(&b) < 0) {
		bigmem_free(packed);
		bigmem_free(buf);
		return err_set(e, ERR_NOMEM, "Lag: out of memory");
	}

#if EST_HAVE_AVX512
	const int simd = est_simd_get(&lag_simd_on, EST_SIMD_F);
#endif
	/* the first sample has no prediction: steps start at 1 */
	for (size_t t0 = 1; t0 < n; t0 += LAG_BLOCK) {
		size_t nsteps = n - t0 < LAG_BLOCK ? n - t0 : LAG_BLOCK;
		uint64_t live = nsteps == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nsteps) - 1;
		uint64_t cur = packed ? lag_bits64(packed, t0 + LAG_PAD) : 0;

		/* which steps t0..t0+63 each lag predicts right (t >= d only) */
#if EST_HAVE_AVX512
		if (simd && packed && t0 >= LAG_D) {
			lag_match_avx512(packed, t0 + LAG_PAD, cur, live, match);
			pred_sched_block(&b, LAG_D, match, NULL, (unsigned)nsteps);
			continue;
		}
#endif
		for (unsigned d = 1; d <= LAG_D; d++) {
			uint64_t m = packed ? ~(cur ^ lag_bits64(packed, t0 + LAG_PAD - d))
					    : lag_eq64(buf + LAG_PAD + t0, buf + LAG_PAD + t0 - d);
			m &= live;
			if (t0 + LAG_BLOCK <= d)
				m = 0;
			else if (t0 < d)
				m &= ~(uint64_t)0 << (d - t0);
			match[d - 1] = m;
		}
		pred_sched_block(&b, LAG_D, match, NULL, (unsigned)nsteps);
	}
	pred_sched_free(&b);
	bigmem_free(packed);
	bigmem_free(buf);
	pred_finish(r, b.t.C, (long long)n - 1, b.t.max_run, k);
	return 0;
}

int est_lag_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	/* LAG_PAD is three words: word q of w, reversed, is word q + 3 */
	size_t words = (n + 2 * LAG_PAD) / 64 + 2, nw = n / 64 + 1;
	uint64_t *packed;

	est_result_init(r, "lag", "Lag Prediction");
	if (n < 3) {   /* NIST's lag_test() asserts L > 2 */
		est_not_applicable(r, "needs at least 3 samples, got %zu", n);
		return 0;
	}
	packed = bigmem_calloc(words, sizeof *packed);
	if (packed)
		for (size_t q = 0; q < nw; q++)
			packed[q + LAG_PAD / 64] = pred_rev64(w[q]);
	return lag_run(NULL, packed, n, 2, r, e);
}
