/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_prefix.c - the prefix test of the bitstring t-tuple/LRS passes
 * (tuple_prefix.h). */
#include "config.h"

#include <string.h>

#include "estimators/estsimd.h"
#include "estimators/tuple_prefix.h"

/* -1 until the first pass asks the CPU; tests set it (tuple_prefix_simd) */
static int prefix_simd = -1;

int tuple_prefix_simd(int enable)
{
	return est_simd_set(&prefix_simd, enable, EST_SIMD_F);
}

/* The prefix test of TUPLE_PREFIX_WORDS words from q on: bit j of mk[k] is set
 * when the len bits from position 64 (q + k) + j are prefix.  Plane t holds
 * bit t of each window, and the test ANDs len planes or their complements,
 * len word operations per 64 positions a pass.  Reads w[q + TUPLE_PREFIX_WORDS]
 * (the padding word past the last). */
static void prefix_masks_scalar(const uint64_t *w, size_t q, uint32_t prefix, unsigned len,
				uint64_t *mk)
{
	for (unsigned k = 0; k < TUPLE_PREFIX_WORDS; k++)
		mk[k] = ~(uint64_t)0;
	for (unsigned t = 0; t < len; t++) {
		/* all ones where bit t of the prefix is 0: plane ^ flip is 1
		 * where the window's bit t is the prefix's */
		const uint64_t flip = (prefix >> (len - 1 - t)) & 1u ? 0 : ~(uint64_t)0;

		for (unsigned k = 0; k < TUPLE_PREFIX_WORDS; k++) {
			uint64_t plane = t ? (w[q + k] << t) | (w[q + k + 1] >> (64 - t)) : w[q + k];

			mk[k] &= plane ^ flip;
		}
	}
}

#if EST_HAVE_AVX512
/* The same, the eight words in one register: at 80M bits the scalar test
 * (32 passes of 5 planes) was ~7% of assess's CPU time, the one part of
 * the packed scan that grew faster than n (13x from 1M to 10M bytes,
 * against 8.2x for the whole).  AVX-512F alone (VPSLLQ, VPSRLQ, VPORQ,
 * VPTERNLOGQ); under valgrind, which clears the CPUID bit, the scalar loop
 * runs. */
__attribute__((target("avx512f")))
static void prefix_masks_avx512(const uint64_t *w, size_t q, uint32_t prefix, unsigned len,
				uint64_t *mk)
{
	const __m512i lo = _mm512_loadu_si512((const void *)(w + q));
	const __m512i hi = _mm512_loadu_si512((const void *)(w + q + 1));
	__m512i m = _mm512_set1_epi64(-1);

	for (unsigned t = 0; t < len; t++) {
		/* a shift by 64 gives 0: plane 0 is lo itself */
		__m512i plane = _mm512_or_si512(_mm512_sll_epi64(lo, _mm_cvtsi32_si128((int)t)),
						_mm512_srl_epi64(hi, _mm_cvtsi32_si128(64 - (int)t)));
		__m512i want = _mm512_set1_epi64((prefix >> (len - 1 - t)) & 1u ? -1 : 0);

		/* m & ~(plane ^ want) */
		m = _mm512_ternarylogic_epi64(m, plane, want, 0x90);
	}
	_mm512_storeu_si512((void *)mk, m);
}
#endif


void tuple_prefix_block(const uint64_t *w, size_t n, size_t q0, uint32_t prefix, unsigned len,
			uint64_t mk[TUPLE_PREFIX_WORDS])
{
	const size_t nw = (n + 63) / 64;
	const size_t words = nw - q0 < TUPLE_PREFIX_WORDS ? nw - q0 : TUPLE_PREFIX_WORDS;

	if (len == 0) {
		memset(mk, 0xff, TUPLE_PREFIX_WORDS * sizeof *mk);
#if EST_HAVE_AVX512
	} else if (words == TUPLE_PREFIX_WORDS && est_simd_get(&prefix_simd, EST_SIMD_F)) {
		prefix_masks_avx512(w, q0, prefix, len, mk);
#endif
	} else if (words == TUPLE_PREFIX_WORDS) {
		prefix_masks_scalar(w, q0, prefix, len, mk);
	} else {
		/* the tail: w[] has one padding word, not eight */
		uint64_t tail[TUPLE_PREFIX_WORDS + 1] = { 0 };

		memcpy(tail, w + q0, (words + 1) * sizeof *w);
		prefix_masks_scalar(tail, 0, prefix, len, mk);
	}
	for (size_t k = words; k < TUPLE_PREFIX_WORDS; k++)
		mk[k] = 0;
	if (q0 + words == nw && n % 64)
		mk[words - 1] &= ~(uint64_t)0 << (64 - n % 64);   /* no position past the end */
}
