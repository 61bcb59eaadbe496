/* bitops.h - word-level bit counts shared by the health tests and the IID
 * statistics.  Header-only: they sit in hot loops. */
#ifndef RNGAUDIT_BITOPS_H
#define RNGAUDIT_BITOPS_H

#include <stdint.h>

/* Set bits of v, without the libgcc call __builtin_popcountll becomes when
 * the flags do not allow the popcnt instruction (SWAR, a dozen operations). */
static inline unsigned bitops_popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned)((v * 0x0101010101010101ULL) >> 56);
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
