/* SPDX-License-Identifier: GPL-3.0-or-later */
/* budget.h - a run's false-alarm budget: SP 800-90B 4.4 scaled to the run.
 *
 * 90B 4.4 gives each test a false-positive probability alpha per trial (per
 * sample for the RCT, per window for the APT), so a healthy source fails a
 * run of N samples about N * alpha times: a gate that flakes in proportion
 * to the data it reads.  Here alpha means the whole run: a failure (exit 1)
 * happens to a source that meets its claim with probability at most alpha,
 * for a run of N samples, or for --follow over a horizon (default a year at
 * the configured rate).  Union bound: with m tests sharing alpha and T_t
 * trials of test t in N samples, per-trial alpha_t = alpha / (m * T_t) gives
 * P(any failure) <= sum_t T_t * alpha_t = alpha.
 *
 * Two levels, as jitterentropy-library's health tests have them (an
 * intermittent alarm at 2^-30 and a permanent failure at 2^-60 per trial):
 * the failure level above, and an alarm level at the square root of the
 * failure level's per-trial alpha (so its cutoffs are about half as far
 * out).  Alarms are counted and reported against the number a source meeting
 * its claim gives, never an exit status on their own.
 *
 * HEALTH_SCOPE_WINDOW keeps 90B's per-window meaning of alpha (conformance
 * work, --per-window): every test uses alpha per trial and the literal 90B
 * cutoffs; no separate alarm level.
 */
#ifndef RNGAUDIT_BUDGET_H
#define RNGAUDIT_BUDGET_H

#include <stdint.h>

#include "err.h"

enum health_scope {
	HEALTH_SCOPE_RUN,        /* alpha over the whole run or horizon (default) */
	HEALTH_SCOPE_WINDOW,     /* 90B 4.4: alpha per sample (RCT) / window (APT) */
};

/* --follow's default horizon: one year (365.25 days) at the configured rate. */
#define HEALTH_HORIZON_SECONDS (365.25 * 86400.0)

struct health_budget {
	enum health_scope scope;
	double alpha;            /* as configured */
	uint64_t samples;        /* N: the run's length, or the horizon */
	unsigned tests;          /* m: the tests that share alpha */
	double per_test;         /* alpha / m (run scope); alpha (window scope) */
	/* per-trial alphas; the alarm ones are 0 in window scope (no alarm level) */
	double rct_fail, rct_alarm;      /* per sample (90B 4.4.1) */
	double apt_fail, apt_alarm;      /* per APT window (90B 4.4.2) */
	double prop_fail, prop_alarm;    /* per proportion window and value (proportion.h) */
	uint64_t words;          /* native words in N samples (word checks), 0 if none */
};

/* N samples of K bits; word_bits 16/32/64 when the word checks run (else 0).
 * ERR_USAGE for alpha outside (0, 1) or N = 0 in run scope. */
int health_budget_init(struct health_budget *b, enum health_scope scope, double alpha,
		       uint64_t samples, unsigned bits, unsigned word_bits, struct err *e);

/* The number of tests a budget is shared by: RCT, APT, proportion, and with
 * word checks the word RCT and the three word counts. */
unsigned health_budget_tests(unsigned word_bits);

/* Samples in --follow's horizon: seconds at rate samples per second. */
uint64_t health_budget_horizon(double samples_per_second, double seconds);

#endif
