/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lcparray.h - the LCP array of a text from its suffix array, in place:
 * the t-tuple/LRS suffix array road (tuple.c) and the byte ranks behind
 * the deep ties of long bitstrings (deeprank.c). */
#ifndef RNGAUDIT_LCPARRAY_H
#define RNGAUDIT_LCPARRAY_H

#include <divsufsort.h>
#include <stddef.h>
#include <stdint.h>

/* Replaces the suffix array sa[0..n) of s[0..n) by its LCP array: sa[0] =
 * 0, sa[j] = the longest common prefix of the suffixes j - 1 and j in
 * sorted order.  Returns the largest LCP, or (size_t)-1 when out of memory
 * (sa is left as it was). */
size_t lcparray_over_sa(const uint8_t *s, size_t n, saidx_t *sa);
/* The same for the bitstring of n bits packed in w (estimators.h: first bit
 * on top, a zero word after the last), compared 64 bits at a time. */
size_t lcparray_over_sa_bits(const uint64_t *w, size_t n, saidx_t *sa);

#endif
