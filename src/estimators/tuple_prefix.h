/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_prefix.h - which positions of a packed bitstring start with a given
 * prefix, 512 at a time: the passes of the bitstring t-tuple/LRS roads
 * (tuple_packed.c's key groups, tuple_count.c's position groups) read the
 * bits once per pass this way. */
#ifndef RNGAUDIT_TUPLE_PREFIX_H
#define RNGAUDIT_TUPLE_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#define TUPLE_PREFIX_WORDS 8

/* Bit j (MSB first) of mk[k] is set when position 64 (q0 + k) + j < n
 * starts with the len bits of prefix (len <= 32; 0: every position), for
 * the TUPLE_PREFIX_WORDS words from q0 (fewer at the end: mk[] past the
 * last word is 0).  w holds n bits and the zero word after them. */
void tuple_prefix_block(const uint64_t *w, size_t n, size_t q0, uint32_t prefix, unsigned len,
			uint64_t mk[TUPLE_PREFIX_WORDS]);

/* Tests: 0 makes tuple_prefix_block take its portable loop, 1 AVX-512
 * where usable (the default).  Returns whether AVX-512 is now in use. */
int tuple_prefix_simd(int enable);

#endif
