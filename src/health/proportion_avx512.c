/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proportion_avx512.c - a window's largest value count from bit planes (see
 * proportion_avx512.h for the method; proportion.c for the test). */
#include "config.h"

#include "health/proportion.h"
#include "health/proportion_avx512.h"

/* GCC 9 and clang 8 build AVX-512 VBMI/VPOPCNTDQ/GFNI intrinsics in a
 * function with a target attribute; the path is chosen at run time. */
#if defined(__x86_64__) && \
	((defined(__clang__) && __clang_major__ >= 8) || (!defined(__clang__) && __GNUC__ >= 9))
#define PROP_HAVE_AVX512 1
#include <immintrin.h>
#else
#define PROP_HAVE_AVX512 0
#endif

#if PROP_HAVE_AVX512

#define PROP_BLOCK 512u                            /* samples per 512-bit plane */
#define PROP_BLOCKS (PROPORTION_WINDOW / PROP_BLOCK)
#define PROP_TARGET "avx512f,avx512bw,avx512vbmi,avx512vpopcntdq,gfni"

int proportion_avx512_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vpopcntdq") &&
	       __builtin_cpu_supports("gfni");
}

/* The bit planes of 512 samples: bit i of plane[m] is bit m of the i-th
 * sample in some order, the same for every plane (that is all counting
 * needs).  GF2P8AFFINEQB with the data as the matrix transposes each 8x8
 * bit block (8 samples) so that byte j holds plane j; VPERMB gathers each
 * plane's bytes of a 64-sample chunk into one qword; an 8x8 qword
 * transpose puts the eight chunks of a plane in one register. */
__attribute__((target(PROP_TARGET)))
static inline __attribute__((always_inline)) void prop_planes(const uint8_t *s, __m512i plane[8])
{
	const __m512i onebit = _mm512_set1_epi64((long long)0x8040201008040201ULL);
	/* byte 8j + i of the result from byte 8i + j */
	const __m512i gather = _mm512_set_epi8(
		63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, 14, 6,
		61, 53, 45, 37, 29, 21, 13, 5, 60, 52, 44, 36, 28, 20, 12, 4,
		59, 51, 43, 35, 27, 19, 11, 3, 58, 50, 42, 34, 26, 18, 10, 2,
		57, 49, 41, 33, 25, 17, 9, 1, 56, 48, 40, 32, 24, 16, 8, 0);
	const __m512i lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
	const __m512i hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
	const __m512i lo3 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
	const __m512i hi3 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
	__m512i z[8], u[8], v[8];

#pragma GCC unroll 8
	for (unsigned c = 0; c < 8; c++) {
		__m512i x = _mm512_loadu_si512((const void *)(s + 64 * c));
		/* byte j of qword i: bit j of the samples 8i..8i+7 */
		x = _mm512_gf2p8affine_epi64_epi8(onebit, x, 0);
		z[c] = _mm512_permutexvar_epi8(gather, x);      /* qword m: plane m */
	}
	/* transpose: plane m = qword m of z[0..7] */
#pragma GCC unroll 8
	for (unsigned j = 0; j < 4; j++) {
		u[2 * j] = _mm512_unpacklo_epi64(z[2 * j], z[2 * j + 1]);      /* even m */
		u[2 * j + 1] = _mm512_unpackhi_epi64(z[2 * j], z[2 * j + 1]);  /* odd m */
	}
#pragma GCC unroll 8
	for (unsigned j = 0; j < 2; j++)
#pragma GCC unroll 8
		for (unsigned h = 0; h < 2; h++) {
			__m512i a = u[4 * j + h], b = u[4 * j + 2 + h];
			v[4 * j + h] = _mm512_permutex2var_epi64(a, lo2, b);      /* m = h, 4 + h */
			v[4 * j + 2 + h] = _mm512_permutex2var_epi64(a, hi2, b);  /* m = 2 + h, 6 + h */
		}
#pragma GCC unroll 8
	for (unsigned m = 0; m < 4; m++) {
		plane[m] = _mm512_permutex2var_epi64(v[m], lo3, v[4 + m]);
		plane[m + 4] = _mm512_permutex2var_epi64(v[m], hi3, v[4 + m]);
	}
}

/* ternary-logic immediates: x & (y or ~y) & (z or ~z) for bits wy, wz of
 * the value; and (x or ~x) & (y or ~y) & (z or ~z) for wx, wy, wz */
#define SEL2(wy, wz) (1 << (4 | (wy) << 1 | (wz)))
#define SEL3(wx, wy, wz) (1 << ((wx) << 2 | (wy) << 1 | (wz)))

__attribute__((target(PROP_TARGET)))
unsigned proportion_avx512_window_max(const uint8_t *s, unsigned t)
{
	/* hi[a][k]: samples of block k whose bits 7..4 are a; mid[b][k]: bits
	 * 3..1 are b; low[k]: plane 0 */
	__m512i hi[16][PROP_BLOCKS], mid[8][PROP_BLOCKS], low[PROP_BLOCKS];
	const uint64_t ones = 0x0001000100010001ULL, sign = 0x8000800080008000ULL;
	const uint64_t bias = (0x8000u - (uint64_t)t) * ones;
	const __m512i vbias = _mm512_set1_epi64((long long)bias), vsign = _mm512_set1_epi64((long long)sign);
	uint64_t tot[8][8], hits = 0;
	unsigned max = 0;

	for (unsigned k = 0; k < PROP_BLOCKS; k++) {
		__m512i p[8], top[4];
		prop_planes(s + PROP_BLOCK * k, p);
		top[0] = _mm512_ternarylogic_epi64(p[7], p[6], p[6], 0x03);   /* ~7 & ~6 */
		top[1] = _mm512_andnot_si512(p[7], p[6]);                      /* ~7 &  6 */
		top[2] = _mm512_andnot_si512(p[6], p[7]);                      /*  7 & ~6 */
		top[3] = _mm512_and_si512(p[7], p[6]);
#pragma GCC unroll 4
		for (unsigned a2 = 0; a2 < 4; a2++) {
			hi[4 * a2 + 0][k] = _mm512_ternarylogic_epi64(top[a2], p[5], p[4], SEL2(0, 0));
			hi[4 * a2 + 1][k] = _mm512_ternarylogic_epi64(top[a2], p[5], p[4], SEL2(0, 1));
			hi[4 * a2 + 2][k] = _mm512_ternarylogic_epi64(top[a2], p[5], p[4], SEL2(1, 0));
			hi[4 * a2 + 3][k] = _mm512_ternarylogic_epi64(top[a2], p[5], p[4], SEL2(1, 1));
		}
		mid[0][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(0, 0, 0));
		mid[1][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(0, 0, 1));
		mid[2][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(0, 1, 0));
		mid[3][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(0, 1, 1));
		mid[4][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(1, 0, 0));
		mid[5][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(1, 0, 1));
		mid[6][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(1, 1, 0));
		mid[7][k] = _mm512_ternarylogic_epi64(p[3], p[2], p[1], SEL3(1, 1, 1));
		low[k] = p[0];
	}
	/* the 128 prefix counts, four 16-bit fields to a qword (a lane's
	 * count is at most 8 x 64, a total at most 4096): tot[b][g] holds the
	 * prefixes (4g + f, b), f = 0..3 */
	for (unsigned b = 0; b < 8; b++) {
		__m512i m[PROP_BLOCKS], acc[4], s01, s23, u;
#pragma GCC unroll 8
		for (unsigned k = 0; k < PROP_BLOCKS; k++)
			m[k] = mid[b][k];
#pragma GCC unroll 4
		for (unsigned g = 0; g < 4; g++) {
			acc[g] = _mm512_setzero_si512();
#pragma GCC unroll 4
			for (unsigned f = 0; f < 4; f++) {
				__m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512();
#pragma GCC unroll 4
				for (unsigned k = 0; k < PROP_BLOCKS; k += 2) {
					c0 = _mm512_add_epi64(c0, _mm512_popcnt_epi64(
						_mm512_and_si512(hi[4 * g + f][k], m[k])));
					c1 = _mm512_add_epi64(c1, _mm512_popcnt_epi64(
						_mm512_and_si512(hi[4 * g + f][k + 1], m[k + 1])));
				}
				acc[g] = _mm512_add_epi64(acc[g],
							  _mm512_slli_epi64(_mm512_add_epi64(c0, c1), 16 * f));
			}
		}
		/* the eight lanes of each acc[g] summed: (acc0, acc1) in qwords
		 * 0-1, (acc2, acc3) in qwords 4-5 */
		s01 = _mm512_add_epi64(_mm512_unpacklo_epi64(acc[0], acc[1]),
				       _mm512_unpackhi_epi64(acc[0], acc[1]));
		s23 = _mm512_add_epi64(_mm512_unpacklo_epi64(acc[2], acc[3]),
				       _mm512_unpackhi_epi64(acc[2], acc[3]));
		u = _mm512_add_epi64(_mm512_shuffle_i64x2(s01, s23, 0x88),
				     _mm512_shuffle_i64x2(s01, s23, 0xdd));
		u = _mm512_add_epi64(u, _mm512_shuffle_i64x2(u, u, 0xb1));
		_mm512_storeu_si512((void *)tot[b], u);
		/* a field at or above t: its top bit set once 0x8000 - t is added */
		hits |= (uint64_t)(_mm512_test_epi64_mask(_mm512_add_epi64(u, vbias), vsign) & 0x33)
			<< (8 * b);
	}
	/* the prefixes that reach t (a few a window) split by the lowest plane */
	while (hits) {
		unsigned bit = (unsigned)__builtin_ctzll(hits), b = bit / 8, q = bit % 8;
		uint64_t x = tot[b][q], fields = (x + bias) & sign;
		hits &= hits - 1;
		while (fields) {
			unsigned f = (unsigned)__builtin_ctzll(fields) / 16;
			unsigned a = 4 * ((q & 1) | (q >> 1 & 2)) + f;   /* qword 0, 1, 4, 5: g 0..3 */
			unsigned both = (unsigned)(x >> (16 * f)) & 0xffff, odd, even;
			__m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512();
			fields &= fields - 1;
#pragma GCC unroll 4
			for (unsigned k = 0; k < PROP_BLOCKS; k += 2) {
				c0 = _mm512_add_epi64(c0, _mm512_popcnt_epi64(_mm512_ternarylogic_epi64(
					hi[a][k], mid[b][k], low[k], 0x80)));
				c1 = _mm512_add_epi64(c1, _mm512_popcnt_epi64(_mm512_ternarylogic_epi64(
					hi[a][k + 1], mid[b][k + 1], low[k + 1], 0x80)));
			}
			odd = (unsigned)_mm512_reduce_add_epi64(_mm512_add_epi64(c0, c1));
			even = both - odd;
			if (odd > max)
				max = odd;
			if (even > max)
				max = even;
		}
	}
	return max >= t ? max : 0;
}

#else

int proportion_avx512_usable(void)
{
	return 0;
}

unsigned proportion_avx512_window_max(const uint8_t *s, unsigned t)
{
	(void)s;
	(void)t;
	return 0;
}

#endif
