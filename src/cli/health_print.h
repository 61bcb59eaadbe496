/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_print.h - how collect, health and audit print health-test results. */
#ifndef RNGAUDIT_HEALTH_PRINT_H
#define RNGAUDIT_HEALTH_PRINT_H

#include <stdio.h>

#include "health/health.h"
#include "health/health_monitor.h"

/* The full results, one fact per line:
 *   RCT cutoff: 4
 *   RCT failures: 1, first failure at sample 1027, largest run: 900
 *   APT cutoff: 18 (W = 1024)
 *   APT failures: 0 of 976 windows (0%), largest count: 9
 *   start-up test (first 1024 samples): passed
 *   first failure at sample 1027
 * then, when the word checks ran, one line each for the word RCT, all-zero,
 * all-ones and repeated words.  Every line starts with prefix (may be ""). */
void health_print_results(FILE *fp, const char *prefix, const struct health_monitor_results *r);

/* One line for a failure as it happens (--follow; fit for journald), e.g.
 *   FAILURE rct at sample 1027: run of 4 identical samples (cutoff 4) */
void health_print_event(FILE *fp, const char *prefix, const struct health_event *ev);

/* One status line for --follow: samples, rate, failures so far. */
void health_print_status(FILE *fp, const char *prefix, const struct health_monitor_results *r,
			 double seconds);

/* "2^-20" when alpha is a power of two, else "%g". */
const char *health_print_alpha(double alpha, char *buf, size_t len);

#endif
