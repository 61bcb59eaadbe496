/* SPDX-License-Identifier: GPL-3.0-or-later */
/* deeprank.h - order and longest common prefix of two suffixes of a long
 * bitstring that start at the same offset within a byte, from the suffix
 * array of the bitstring's bytes (the deep ties of tuple_packed.c).
 *
 * Bit p = 8k + r begins with the last 8 - r bits of byte k and goes on
 * with byte suffix k + 1.  Two such suffixes with the same r that agree on
 * those bits are ordered as their byte suffixes k + 1 are, and share 8 - r
 * bits, eight per common byte and the common leading bits of the first
 * bytes that differ: one rank lookup and one range minimum over the byte
 * LCPs, however long the repeat.  Suffixes at different offsets are not
 * covered: their bytes do not line up. */
#ifndef RNGAUDIT_DEEPRANK_H
#define RNGAUDIT_DEEPRANK_H

#include <stddef.h>
#include <stdint.h>

struct deeprank {
	const uint64_t *w;   /* the bits, MSB first, zeros past the end */
	size_t n;            /* bits */
	size_t nb;           /* bytes: ceil(n / 8) */
	uint32_t *rank;      /* rank[j]: place of byte suffix j in sorted order */
	uint32_t *lcp;       /* lcp[i]: bytes shared by sorted suffixes i - 1 and i */
	uint32_t *sparse;    /* minima of lcp over 2^l blocks of DEEPRANK_BLOCK */
	size_t nblk, nlev;
};

/* Sorts the byte suffixes of the n bits in w (which must hold a zero word
 * past the last).  Returns 0, or -1 when out of memory or n >= 2^34. */
int deeprank_init(struct deeprank *dr, const uint64_t *w, size_t n);
void deeprank_free(struct deeprank *dr);

/* The rank that orders the suffix at bit a among those at the same offset
 * that agree with it on the rest of its first byte (a + 8 - a % 8 < n). */
static inline uint32_t deeprank_key_at(const uint32_t *rank, size_t a)
{
	return rank[(a >> 3) + 1];
}
static inline uint32_t deeprank_key(const struct deeprank *dr, size_t a)
{
	return deeprank_key_at(dr->rank, a);
}

/* Longest common prefix, in bits, of the suffixes at a and b (a % 8 ==
 * b % 8, agreeing on the rest of their first byte), given their keys. */
size_t deeprank_lcp(const struct deeprank *dr, size_t a, size_t b, uint32_t ka, uint32_t kb);

#endif
