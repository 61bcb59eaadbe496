/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proportion_avx512.h - the proportion test's (proportion.h; 90B 4.5, a
 * developer-defined test) window counts with AVX-512 bit planes instead of
 * a table increment per sample (proportion.c uses it for whole windows of
 * 8-bit samples where the CPU has it).
 *
 * A window of PROPORTION_WINDOW 8-bit samples is turned into its eight bit
 * planes; the samples whose top seven bits equal a given prefix are the AND
 * of seven planes (or their complements), and a popcount of that over the
 * window is the prefix's count, the sum of its two values' counts.  A value
 * can reach t only if its prefix does; a prefix that does (rare: 16 values a
 * window expected at H = 8, and t above the largest count so far) is split
 * by the lowest plane into its two values.  So the largest count in the
 * window is found exactly whenever it reaches t, with no per-sample work
 * but bitwise operations on 512 samples at a time.
 */
#ifndef RNGAUDIT_PROPORTION_AVX512_H
#define RNGAUDIT_PROPORTION_AVX512_H

#include <stdint.h>

/* 1 if this build has the AVX-512 path and the CPU runs it (AVX-512 F, BW,
 * VBMI, VPOPCNTDQ and GFNI, with the OS saving the registers). */
int proportion_avx512_usable(void);

/* Over s[0..PROPORTION_WINDOW-1], 8-bit samples: the largest count of any
 * value if it is at least t (1 <= t <= PROPORTION_WINDOW + 1), else 0.
 * Only after proportion_avx512_usable() returned 1. */
unsigned proportion_avx512_window_max(const uint8_t *s, unsigned t);

#endif
