/* SPDX-License-Identifier: GPL-3.0-or-later */
/* multimmc.h - what the two halves of SP 800-90B 6.3.9 MultiMMC share:
 * multimmc.c (the estimator and its bitstring path) and multimmc_literal.c
 * (alphabets of more than two symbols). */
#ifndef RNGAUDIT_MULTIMMC_H
#define RNGAUDIT_MULTIMMC_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct pred_sched;

/* 90B 6.3.9 step 1: D = 16. */
#define MMC_D 16
/* NIST's MAX_ENTRIES: (context, follower) pairs kept per depth. */
#define MMC_MAX_ENTRIES 100000

/* The literal path: steps 2 .. n-1 of s (k symbols) into the scoreboard
 * b.  0, or an err code (out of memory). */
int mmc_literal(const uint8_t *s, size_t n, unsigned k, struct pred_sched *b, struct err *e);

#endif
