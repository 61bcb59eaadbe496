/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bitops.h - word-level bit counts shared by the health tests and the IID
 * statistics.  Header-only: they sit in hot loops. */
#ifndef RNGAUDIT_BITOPS_H
#define RNGAUDIT_BITOPS_H

#include <stdint.h>

/* Byte j of the result: the set bits of byte j of v (SWAR). */
static inline uint64_t bitops_popcount_bytes(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	return (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
}

/* Set bits of v, without the libgcc call __builtin_popcountll becomes when
 * the flags do not allow the popcnt instruction (SWAR, a dozen operations). */
static inline unsigned bitops_popcount64(uint64_t v)
{
	return (unsigned)((bitops_popcount_bytes(v) * 0x0101010101010101ULL) >> 56);
}

/* Each byte of v with its bits in reverse order. */
static inline uint64_t bitops_reverse_bytes(uint64_t v)
{
	v = (v >> 1 & 0x5555555555555555ULL) | (v & 0x5555555555555555ULL) << 1;
	v = (v >> 2 & 0x3333333333333333ULL) | (v & 0x3333333333333333ULL) << 2;
	return (v >> 4 & 0x0f0f0f0f0f0f0f0fULL) | (v & 0x0f0f0f0f0f0f0f0fULL) << 4;
}

/* Non-zero if m holds a run of at least t set bits (1 <= t <= 63): with
 * y_L = the bits that start a run of >= L ones, y_(a+b) = y_a & (y_b >> a),
 * so t's binary digits combine the doublings y_1, y_2, y_4, ... Branch-free
 * for a given t, which changes only when the longest run grows. */
static inline uint64_t bitops_has_run(uint64_t m, unsigned t)
{
	uint64_t acc = ~0ULL, y = m;
	unsigned len = 0;
	for (unsigned p = 1; p <= t; p <<= 1) {
		if (t & p) {
			acc &= y >> len;
			len += p;
		}
		y &= y >> p;
	}
	return acc;
}

/* Length of the longest run of set bits of v (one step per bit of it). */
static inline unsigned bitops_longest_ones(uint64_t v)
{
	unsigned len = 0;
	while (v) {
		v &= v >> 1;
		len++;
	}
	return len;
}

#endif
