/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lcpshallow.c - S[t] and Q[t] for t < 64 from the LCP sequence, all 64
 * depths a step (see lcpshallow.h). */
#include "config.h"

#include <string.h>

#include "estimators/lcpshallow.h"

#if defined(__x86_64__) && \
	((defined(__clang__) && __clang_major__ >= 8) || (!defined(__clang__) && __GNUC__ >= 9))
#define SHALLOW_HAVE_AVX512 1
#include <immintrin.h>
#else
#define SHALLOW_HAVE_AVX512 0
#endif

void lcpshallow_init(struct lcpshallow *sh, size_t n)
{
	/* s32 gains at most n (an r) a step: flush before 2^32 */
	size_t every = ((size_t)1 << 32) / (2 * n + 2);

	memset(sh, 0, sizeof *sh);
	sh->every = every < 1 ? 1 : every > 64 ? 64 : (unsigned)every;
}

static void shallow_flush(struct lcpshallow *sh)
{
	for (unsigned t = 0; t < LCPSHALLOW_DEPTHS; t++) {
		sh->s[t] += sh->s32[t];
		sh->s32[t] = 0;
	}
	sh->since = 0;
}

/* One lane at a time: where AVX-512 is missing (tests, other machines). */
static void shallow_feed_scalar(struct lcpshallow *sh, const uint8_t *lcp, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		for (unsigned t = 0; t < LCPSHALLOW_DEPTHS; t++) {
			uint32_t r = lcp[i] >= t ? sh->r[t] + 1 : 0;

			sh->r[t] = r;
			sh->s32[t] += r;
			if (r > sh->q[t])
				sh->q[t] = r;
		}
		if (++sh->since == sh->every)
			shallow_flush(sh);
	}
}

#if SHALLOW_HAVE_AVX512

int lcpshallow_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f");
}

/* The 64 lanes in four registers each for r, s32 and q: per suffix four
 * compares against the depths, four masked increments, four adds, four
 * maxima.  Every intrinsic here is AVX-512F alone (GCC 12's
 * avx512fintrin.h, under #pragma GCC target("avx512f"): VPCMPUD,
 * VPADDD with a zeroing mask, VPMAXUD), hence the one CPUID bit checked
 * above.  valgrind (3.19 here) decodes no AVX-512 and clears the bit
 * (KDE bug 383010), so under valgrind the portable loop runs. */
__attribute__((target("avx512f")))
static void shallow_feed_avx512(struct lcpshallow *sh, const uint8_t *lcp, size_t k)
{
	const __m512i t0 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	const __m512i t1 = _mm512_add_epi32(t0, _mm512_set1_epi32(16));
	const __m512i t2 = _mm512_add_epi32(t0, _mm512_set1_epi32(32));
	const __m512i t3 = _mm512_add_epi32(t0, _mm512_set1_epi32(48));
	const __m512i one = _mm512_set1_epi32(1);
	__m512i r0 = _mm512_loadu_si512(sh->r), r1 = _mm512_loadu_si512(sh->r + 16);
	__m512i r2 = _mm512_loadu_si512(sh->r + 32), r3 = _mm512_loadu_si512(sh->r + 48);
	__m512i q0 = _mm512_loadu_si512(sh->q), q1 = _mm512_loadu_si512(sh->q + 16);
	__m512i q2 = _mm512_loadu_si512(sh->q + 32), q3 = _mm512_loadu_si512(sh->q + 48);
	__m512i s0 = _mm512_loadu_si512(sh->s32), s1 = _mm512_loadu_si512(sh->s32 + 16);
	__m512i s2 = _mm512_loadu_si512(sh->s32 + 32), s3 = _mm512_loadu_si512(sh->s32 + 48);
	size_t i = 0;

	while (i < k) {
		size_t end = k - i < sh->every - sh->since ? k : i + (sh->every - sh->since);

		sh->since += (unsigned)(end - i);
		for (; i < end; i++) {
			const __m512i l = _mm512_set1_epi32(lcp[i]);

			r0 = _mm512_maskz_add_epi32(_mm512_cmple_epu32_mask(t0, l), r0, one);
			r1 = _mm512_maskz_add_epi32(_mm512_cmple_epu32_mask(t1, l), r1, one);
			r2 = _mm512_maskz_add_epi32(_mm512_cmple_epu32_mask(t2, l), r2, one);
			r3 = _mm512_maskz_add_epi32(_mm512_cmple_epu32_mask(t3, l), r3, one);
			s0 = _mm512_add_epi32(s0, r0);
			s1 = _mm512_add_epi32(s1, r1);
			s2 = _mm512_add_epi32(s2, r2);
			s3 = _mm512_add_epi32(s3, r3);
			q0 = _mm512_max_epu32(q0, r0);
			q1 = _mm512_max_epu32(q1, r1);
			q2 = _mm512_max_epu32(q2, r2);
			q3 = _mm512_max_epu32(q3, r3);
		}
		if (sh->since == sh->every) {
			_mm512_storeu_si512(sh->s32, s0);
			_mm512_storeu_si512(sh->s32 + 16, s1);
			_mm512_storeu_si512(sh->s32 + 32, s2);
			_mm512_storeu_si512(sh->s32 + 48, s3);
			shallow_flush(sh);
			s0 = s1 = s2 = s3 = _mm512_setzero_si512();
		}
	}
	_mm512_storeu_si512(sh->r, r0);
	_mm512_storeu_si512(sh->r + 16, r1);
	_mm512_storeu_si512(sh->r + 32, r2);
	_mm512_storeu_si512(sh->r + 48, r3);
	_mm512_storeu_si512(sh->q, q0);
	_mm512_storeu_si512(sh->q + 16, q1);
	_mm512_storeu_si512(sh->q + 32, q2);
	_mm512_storeu_si512(sh->q + 48, q3);
	_mm512_storeu_si512(sh->s32, s0);
	_mm512_storeu_si512(sh->s32 + 16, s1);
	_mm512_storeu_si512(sh->s32 + 32, s2);
	_mm512_storeu_si512(sh->s32 + 48, s3);
}

/* -1 until asked; then whether the AVX-512 loop runs */
static int shallow_simd = -1;

int lcpshallow_simd(int enable)
{
	int on = enable && lcpshallow_usable();

	__atomic_store_n(&shallow_simd, on, __ATOMIC_RELAXED);
	return on;
}

void lcpshallow_feed(struct lcpshallow *sh, const uint8_t *lcp, size_t k)
{
	int simd = __atomic_load_n(&shallow_simd, __ATOMIC_RELAXED);

	if (simd < 0)
		simd = lcpshallow_simd(1);
	if (simd)
		shallow_feed_avx512(sh, lcp, k);
	else
		shallow_feed_scalar(sh, lcp, k);
}

#else

int lcpshallow_usable(void)
{
	return 0;
}

int lcpshallow_simd(int enable)
{
	(void)enable;
	return 0;
}

void lcpshallow_feed(struct lcpshallow *sh, const uint8_t *lcp, size_t k)
{
	shallow_feed_scalar(sh, lcp, k);
}

#endif

void lcpshallow_finish(struct lcpshallow *sh, struct lcpint *st)
{
	uint64_t below = 0;   /* S[t - 1] */

	shallow_flush(sh);
	for (unsigned t = 1; t < LCPSHALLOW_DEPTHS; t++) {
		uint32_t q = sh->q[t] ? sh->q[t] + 1 : 0;

		if (q > st->mx[t - st->qlo])
			st->mx[t - st->qlo] = q;
		if (q >= st->qmin && t > st->qdeep)
			st->qdeep = t;
		if (q && t > st->v)
			st->v = t;   /* some LCP reached t */
		/* sd is a difference array: lcpint_sum() adds it up */
		st->sd[t - st->soff] += sh->s[t] - below;
		below = sh->s[t];
	}
	st->sd[LCPSHALLOW_DEPTHS - st->soff] -= below;
}
