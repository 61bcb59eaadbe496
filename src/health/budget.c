/* SPDX-License-Identifier: GPL-3.0-or-later */
/* budget.c - per-trial alphas from a run-level alpha (see budget.h). */
#include "config.h"

#include "health/budget.h"

#include <math.h>
#include <string.h>

#include "health/health.h"
#include "health/proportion.h"

unsigned health_budget_tests(unsigned word_bits)
{
	/* RCT, APT, proportion; word RCT, all-zero, all-ones, repeated words */
	return word_bits ? 3 + 4 : 3;
}

uint64_t health_budget_horizon(double samples_per_second, double seconds)
{
	double n = samples_per_second * seconds;
	return n >= 0x1p63 ? (uint64_t)1 << 63 : n < 1 ? 1 : (uint64_t)n;
}

/* Trials of a test with one trial per `per` samples in n: ceil(n / per). */
static double trials(uint64_t n, unsigned per)
{
	return (double)(n / per + (n % per != 0));
}

int health_budget_init(struct health_budget *b, enum health_scope scope, double alpha,
		       uint64_t samples, unsigned bits, unsigned word_bits, struct err *e)
{
	memset(b, 0, sizeof *b);
	if (!(alpha > 0) || !(alpha < 1))
		return err_set(e, ERR_USAGE, "alpha %g is outside (0, 1)", alpha);
	if (bits < 1 || bits > 8)
		return err_set(e, ERR_USAGE, "bits per sample %u is outside 1..8", bits);
	b->scope = scope;
	b->alpha = alpha;
	b->samples = samples;
	b->tests = health_budget_tests(word_bits);
	if (word_bits)        /* N samples of K bits are N * K / w words */
		b->words = (uint64_t)((double)samples * bits / word_bits) + 1;
	if (scope == HEALTH_SCOPE_WINDOW) {
		b->per_test = alpha;
		b->rct_fail = b->apt_fail = alpha;
		/* the proportion test is ours, not 90B's: alpha per window over all
		 * 2^K values, so per value alpha / 2^K */
		b->prop_fail = alpha / exp2(bits);
		return 0;
	}
	if (samples == 0)
		return err_set(e, ERR_USAGE, "health tests: the run length (or horizon) must be "
			       "at least one sample");
	b->per_test = alpha / b->tests;
	/* 90B 4.4.1: a run of C identical samples can start at each of the N
	 * samples; P(some run reaches C) <= N * 2^(-H(C-1)) <= alpha / m when
	 * each start is held to alpha / (m N). */
	b->rct_fail = b->per_test / (double)samples;
	/* 90B 4.4.2: one trial per window of W samples, ceil(N / W) of them. */
	b->apt_fail = b->per_test / trials(samples, health_apt_window(bits));
	/* proportion.h: one trial per window and value. */
	b->prop_fail = b->per_test / (trials(samples, proportion_window(bits)) * exp2(bits));
	/* jitterentropy's shape: the intermittent level at the square root of
	 * the permanent one (2^-30 and 2^-60 there), per trial */
	b->rct_alarm = sqrt(b->rct_fail);
	b->apt_alarm = sqrt(b->apt_fail);
	b->prop_alarm = sqrt(b->prop_fail);
	return 0;
}
