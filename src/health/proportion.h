/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proportion.h - a proportion test over all values, beside the APT.
 *
 * The APT (90B 4.4.2) counts only the value that opens each window, so a
 * source with one value at probability p is caught only in the windows that
 * happen to open with it (a fraction p of them): at p = 0.02 against a
 * claim of H = 8, a median of hundreds of thousands of samples.  This test
 * (a developer-defined test in the sense of 90B 4.5) counts every value over
 * consecutive windows of W_p samples and fails a window when any count
 * reaches C_p.  Each value's count is Binomial(W_p, p_v) with p_v <= 2^-H
 * when the claim holds, so it is bounded by Binomial(W_p, 2^-H), and
 * C_p is the smallest c with P(Binomial(W_p, 2^-H) >= c) <= alpha_v, the
 * per-value alpha (budget.h divides a window's alpha over the 2^K values).
 * Two levels as in health.h: an alarm cutoff and a failure cutoff.
 */
#ifndef RNGAUDIT_PROPORTION_H
#define RNGAUDIT_PROPORTION_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "health/health.h"

/* W_p = 4096 samples: four APT windows, so that a value 6 times as likely as
 * claimed (p = 0.024 against 2^-8: sim:biased,p=0.02) crosses the cutoff
 * within one window (mean 98 against a cutoff near 55 at 10^9 samples), and
 * 16 times 2^8 values, so each value is expected 16 times at H = 8. */
#define PROPORTION_WINDOW 4096u

unsigned proportion_window(unsigned bits);

/* The smallest c with P(Binomial(window, 2^-H) >= c) <= alpha (per value). */
unsigned proportion_cutoff(unsigned window, double entropy, double alpha);

enum proportion_impl {
	PROPORTION_IMPL_PORTABLE,    /* a count table increment per sample (SSE2 for the maximum) */
	PROPORTION_IMPL_AVX512,      /* whole windows of 8-bit samples by bit planes, if the CPU can */
};

struct proportion {
	enum proportion_impl impl;   /* the code path; the results do not depend on it */
	unsigned bits, window;
	double entropy;
	unsigned cutoff, alarm_cutoff;
	double rate, alarm_rate;     /* per window (over all values) at the claimed H */
	uint16_t count[4][256];      /* this window's counts, split four ways (see proportion.c) */
	unsigned pos;                /* samples of the window seen */
	int window_alarmed, window_failed;
	unsigned max_count;          /* largest count reached in any window */
	uint64_t windows;            /* completed windows */
	uint64_t samples;
	uint64_t alarms, failures, first_alarm, first_failure;
	health_event_fn on_event;
	void *event_ctx;
};

/* alpha: per value and window (failure level); alarm_alpha 0 = no alarm level. */
int proportion_init(struct proportion *p, unsigned bits, double entropy, double alpha,
		    double alarm_alpha, health_event_fn on_event, void *ctx, struct err *e);

/* Returns the number of new failures. */
uint64_t proportion_push(struct proportion *p, const uint8_t *s, size_t n);

/* Fills a health_result ("prop"): cutoffs, counts, expected by now. */
void proportion_result(const struct proportion *p, struct health_result *r);

#endif
