/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256_shani.c - SHA-256 compression with the x86 SHA extensions
 * (SHA256RNDS2, SHA256MSG1/2; Intel SDM vol. 2, "SHA Extensions"), chosen
 * at run time by sha256.c where CPUID.(EAX=07H,ECX=0):EBX bit 29 (SHA) says
 * the CPU has them (SDM vol. 2A, CPUID; GCC's __builtin_cpu_supports("sha")
 * reads that bit, bit_SHA in GCC 12's cpuid.h; this Zen 5 guest's
 * /proc/cpuinfo lists sha_ni).  Four message words a group: each group is
 * two SHA256RNDS2 (two rounds each) on (CDGH, ABEF) state halves, and from the
 * fifth group on the schedule W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) +
 * W[t-16] (FIPS 180-4 6.2.2 step 1) is MSG1 (W[t-16] + s0), plus the W[t-7]
 * quartet, then MSG2 (the s1 terms).  About 5x the portable loop: the hash
 * of the input was 4-6% of a 1-bit `assess`. */
#include "config.h"

#include "sha256_int.h"

#if SHA256_HAVE_SHANI
#include <immintrin.h>

#define SHANI_TARGET "sha,sse4.1,ssse3"

int sha256_shani_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1") &&
	       __builtin_cpu_supports("ssse3");
}

__attribute__((target(SHANI_TARGET)))
void sha256_blocks_shani(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	/* big-endian words from the bytes */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i abef, cdgh, t;

	/* h[0..7] = A..H; the instructions want ABEF and CDGH, high lane first */
	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0xB1);        /* CDAB */
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h + 4)), 0x1B); /* EFGH */
	abef = _mm_alignr_epi8(t, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, t, 0xF0);
	for (; nblocks > 0; nblocks--, p += 64) {
		const __m128i abef0 = abef, cdgh0 = cdgh;
		__m128i m[4];

		for (unsigned g = 0; g < 16; g++) {
			__m128i *cur = &m[g & 3];
			if (g < 4)
				*cur = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
			else
				*cur = _mm_sha256msg2_epu32(
					_mm_add_epi32(_mm_sha256msg1_epu32(*cur, m[(g + 1) & 3]),
						      _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4)),
					m[(g + 3) & 3]);
			t = _mm_add_epi32(*cur, _mm_loadu_si128((const __m128i *)(sha256_k + 4 * g)));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, t);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(t, 0x0E));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	t = _mm_shuffle_epi32(abef, 0x1B);    /* FEBA */
	cdgh = _mm_shuffle_epi32(cdgh, 0xB1); /* DCHG */
	_mm_storeu_si128((__m128i *)h, _mm_blend_epi16(t, cdgh, 0xF0));      /* DCBA */
	_mm_storeu_si128((__m128i *)(h + 4), _mm_alignr_epi8(cdgh, t, 8));   /* HGFE */
}
#else
int sha256_shani_usable(void)
{
	return 0;
}
#endif
