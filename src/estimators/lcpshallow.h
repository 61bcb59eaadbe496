/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lcpshallow.h - the 90B 6.3.5/6.3.6 counts at depths 1..63, from the LCPs
 * of a sorted suffix list, without the interval stack.
 *
 * lcpint.h walks the LCP intervals with a stack: on random bits every
 * suffix opens or closes about one interval, at a depth the branch
 * predictor cannot guess, and the walk cost ~45 cycles a suffix (80M bits:
 * 1.5 s).  Below depth 64 the same two sums have a form with no branch:
 * with r_t(j) the number of LCPs >= t just before suffix j in a row,
 *   S[t] = sum over j of r_t(j)   (each run of c suffixes gives C(c, 2)),
 *   Q[t] = max over j of r_t(j) + 1   (0 when no LCP reaches t),
 * and r_t(j) = (lcp_j >= t) ? r_t(j - 1) + 1 : 0 for all 64 t at once is a
 * few AVX-512 operations a suffix.  tuple_packed.c feeds it the LCPs
 * clamped to 63 and leaves only the intervals of 64 and more to lcpint's
 * stack (lcpint_set_floor), and lcpshallow_finish() puts S, Q, the deepest
 * run of qmin suffixes and the largest LCP where lcpint keeps them: what
 * tuple_finish() reads is the same either way (tests/test_est_tuple.c
 * compares the two walks field by field). */
#ifndef RNGAUDIT_LCPSHALLOW_H
#define RNGAUDIT_LCPSHALLOW_H

#include <stddef.h>
#include <stdint.h>

#include "estimators/lcpint.h"

#define LCPSHALLOW_DEPTHS 64   /* lanes t = 0..63; lane 0 is not read */

struct lcpshallow {
	uint32_t r[LCPSHALLOW_DEPTHS];     /* r_t of the last suffix fed */
	uint32_t q[LCPSHALLOW_DEPTHS];     /* max r_t so far */
	uint32_t s32[LCPSHALLOW_DEPTHS];   /* sum of r_t since the last flush */
	uint64_t s[LCPSHALLOW_DEPTHS];     /* sum of r_t before it */
	unsigned since, every;             /* suffixes since the flush; the limit */
};

/* 1 when this CPU runs lcpshallow_feed() (AVX-512F), else 0: then the
 * caller walks every depth with lcpint_step(). */
int lcpshallow_usable(void);
/* Tests: 0 makes lcpshallow_feed() take its portable loop, 1 AVX-512
 * where usable (the default).  Returns whether AVX-512 is now in use. */
int lcpshallow_simd(int enable);

/* For a list of n suffixes (n < 2^32). */
void lcpshallow_init(struct lcpshallow *sh, size_t n);

/* The next k LCPs; any of 63 or more counts as 63 (deeper ones may come
 * clamped to any value from 63 to 255). */
void lcpshallow_feed(struct lcpshallow *sh, const uint8_t *lcp, size_t k);

/* Adds depths 1..63 to st, an lcpint set up as tuple_scan_words() sets it
 * (qlo 0, qhi 63, soff 1, send 63) whose stack held every depth below 64
 * (lcpint_set_floor(st, 63)) and has been closed to that floor. */
void lcpshallow_finish(struct lcpshallow *sh, struct lcpint *st);

#endif
