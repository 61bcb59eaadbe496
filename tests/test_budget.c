/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_budget.c - alarms scaled to the run (health/budget.h): the cutoffs
 * against exact binomial tails, false alarms of seeded ideal sources in run
 * scope, observed alarms against expected ones, and every detection bound
 * the man page states (rngaudit-health(1), DETECTION) on runs of 10^6 and
 * 10^9 samples. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "engine/engine.h"
#include "health/budget.h"
#include "health/health.h"
#include "health/health_monitor.h"
#include "health/proportion.h"
#include "sources/source.h"
#include "monitor_run.h"
#include "tap.h"

/* --follow's default horizon: a year at 1 MB/s of 8-bit samples */
#define YEAR_AT_1MBS 31557600000000ULL

/* ---- the cutoffs against exact tails ---- */

/* P(a run of C or more starts at a given sample) when every value has
 * probability q = 2^-H: at most q^(C-1) (90B 4.4.1). */
static double rct_tail(double h, unsigned c)
{
	return exp2(-h * (double)(c - 1));
}

/* Each test's share over the run, T_t * P_t(C_t) <= alpha / m, and the
 * cutoffs are the smallest that do it (one less would exceed the share). */
static void check_union_bound(uint64_t n, unsigned bits, double h, unsigned word_bits)
{
	struct health_budget b;
	struct health_params hp = { .bits = bits, .entropy = h };
	struct health hl;
	struct err e;
	double share, q = exp2(-h), t_rct, t_apt, t_prop, tail, below;
	unsigned w, cp, wp;
	char what[96];

	snprintf(what, sizeof what, "N=%.3g K=%u H=%g%s", (double)n, bits, h,
		 word_bits ? " +words" : "");
	if (health_budget_init(&b, HEALTH_SCOPE_RUN, 0x1p-20, n, bits, word_bits, &e) != 0) {
		tap_ok(0, "%s: budget (%s)", what, e.msg);
		return;
	}
	share = 0x1p-20 / b.tests;
	hp.alpha = b.rct_fail;
	hp.apt_alpha = b.apt_fail;
	hp.rct_alarm_alpha = b.rct_alarm;
	hp.apt_alarm_alpha = b.apt_alarm;
	hp.apt_exact = 1;
	if (health_init(&hl, &hp, &e) != 0) {
		tap_ok(0, "%s: init (%s)", what, e.msg);
		return;
	}
	tap_ok(b.tests == (word_bits ? 7u : 3u), "%s: %u tests share alpha", what, b.tests);
	t_rct = (double)n;
	tail = t_rct * rct_tail(h, hl.rct.cutoff);
	below = t_rct * rct_tail(h, hl.rct.cutoff - 1);
	tap_ok(tail <= share * (1 + 1e-12) && below > share,
	       "%s: RCT cutoff %u: N q^(C-1) = %.3g <= alpha/m = %.3g < N q^(C-2)", what,
	       hl.rct.cutoff, tail, share);
	w = hl.apt.window;
	t_apt = ceil((double)n / w);
	tail = t_apt * gsl_cdf_binomial_Q(hl.apt.cutoff - 2, q, w - 1);
	below = t_apt * gsl_cdf_binomial_Q(hl.apt.cutoff - 3, q, w - 1);
	tap_ok(tail <= share && below > share,
	       "%s: APT cutoff %u: windows x P(1 + Bin(W-1, q) >= C) = %.3g <= alpha/m", what,
	       hl.apt.cutoff, tail);
	wp = proportion_window(bits);
	cp = proportion_cutoff(wp, h, b.prop_fail);
	t_prop = ceil((double)n / wp) * exp2(bits);
	tail = t_prop * gsl_cdf_binomial_Q(cp - 1, q, wp);
	below = t_prop * gsl_cdf_binomial_Q(cp - 2, q, wp);
	tap_ok(tail <= share * (1 + 1e-9) && below > share,
	       "%s: proportion cutoff %u: windows x 2^K x P(Bin(W_p, q) >= C) = %.3g <= alpha/m",
	       what, cp, tail);
	/* the alarm level: the square root of the failure level, per trial */
	tap_ok(fabs(b.rct_alarm * b.rct_alarm / b.rct_fail - 1) < 1e-12 &&
	       hl.rct.alarm_cutoff < hl.rct.cutoff && hl.apt.alarm_cutoff < hl.apt.cutoff,
	       "%s: alarm cutoffs (RCT %u, APT %u) below the failure ones", what,
	       hl.rct.alarm_cutoff, hl.apt.alarm_cutoff);
}

static void test_cutoffs(void)
{
	const uint64_t runs[] = { 1000000, 1000000000, 10000000000ULL, YEAR_AT_1MBS };
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		check_union_bound(runs[i], 8, 8, 0);
		check_union_bound(runs[i], 8, 4, 64);
		check_union_bound(runs[i], 1, 0.5, 0);
	}
	/* the window scope keeps 90B's literal cutoffs */
	{
		struct health_budget b;
		struct err e;
		health_budget_init(&b, HEALTH_SCOPE_WINDOW, 0x1p-20, 0, 8, 0, &e);
		tap_ok(b.rct_fail == 0x1p-20 && b.apt_fail == 0x1p-20 && b.rct_alarm == 0,
		       "per-window scope: alpha per trial, no alarm level");
	}
}

/* A monitor that is not told its run's length is budgeted for 10^9 samples. */
static void test_unknown_length(void)
{
	struct health_monitor *m;
	struct health_monitor_config c = { .bits = 8, .entropy = 8, .kind = SOURCE_RAW, .word_bits = 8 };
	struct health_monitor_results r;
	struct err e;
	if (health_monitor_new(&m, &c, &e) != 0) {
		tap_ok(0, "unknown run length: %s", e.msg);
		return;
	}
	health_monitor_results(m, &r);
	tap_ok(r.budget.samples == HEALTH_RUN_SAMPLES_UNKNOWN && r.budget.scope == HEALTH_SCOPE_RUN,
	       "run_samples 0: budgeted for 10^9 samples (%llu)", (unsigned long long)r.budget.samples);
	health_monitor_free(m);
}

/* ---- the proportion test against a plain reference ---- */

struct pref {
	unsigned count[256], pos, alarmed, failed, max;
	uint64_t n, alarms, failures, first_alarm, first_failure, windows;
};

static void pref_push(struct pref *r, const uint8_t *s, size_t n, unsigned w, unsigned ac,
		      unsigned fc)
{
	for (size_t i = 0; i < n; i++, r->n++) {
		unsigned c = ++r->count[s[i]];
		if (c > r->max)
			r->max = c;
		if (c >= ac && !r->alarmed) {
			r->alarmed = 1;
			if (r->alarms++ == 0)
				r->first_alarm = r->n;
		}
		if (c >= fc && !r->failed) {
			r->failed = 1;
			if (r->failures++ == 0)
				r->first_failure = r->n;
		}
		if (++r->pos == w) {
			memset(r->count, 0, sizeof r->count);
			r->pos = r->alarmed = r->failed = 0;
			r->windows++;
		}
	}
}

static void test_proportion_reference(void)
{
	const size_t n = 400000;
	uint8_t *s = malloc(n);
	uint64_t x = 12345;
	struct proportion p;
	struct pref r = { .first_alarm = HEALTH_NO_FAILURE, .first_failure = HEALTH_NO_FAILURE };
	struct health_result res;
	struct err e;
	size_t i = 0;
	int ok;

	if (!s)
		return;
	/* runs of a favoured value now and then, so some windows alarm or fail */
	for (size_t k = 0; k < n; k++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		unsigned region = (unsigned)(k / 20000) % 3;
		s[k] = (region == 1 && (x & 7) == 0) || (region == 2 && (x & 255) == 0)
		     ? 5 : (uint8_t)(x >> 24);
	}
	proportion_init(&p, 8, 8, 0x1p-40, 0x1p-20, NULL, NULL, &e);
	pref_push(&r, s, n, p.window, p.alarm_cutoff, p.cutoff);
	while (i < n) {          /* pieces of random sizes, some tiny */
		size_t m;
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		m = (x & 3) == 0 ? (x >> 8) % 7 : (x >> 8) % 9000;
		if (m > n - i)
			m = n - i;
		proportion_push(&p, s + i, m);
		i += m;
	}
	proportion_result(&p, &res);
	ok = res.failures == r.failures && res.first_failure == r.first_failure &&
	     res.alarms == r.alarms && res.first_alarm == r.first_alarm && res.max_seen == r.max &&
	     p.windows == r.windows && r.failures > 0 && r.alarms > r.failures;
	if (!tap_ok(ok, "proportion test in pieces = one sample at a time: %llu failures, %llu alarms, "
		    "first at %llu", (unsigned long long)r.failures, (unsigned long long)r.alarms,
		    (unsigned long long)r.first_failure))
		printf("# got %llu/%llu %llu/%llu max %llu windows %llu\n",
		       (unsigned long long)res.failures, (unsigned long long)res.first_failure,
		       (unsigned long long)res.alarms, (unsigned long long)res.first_alarm,
		       (unsigned long long)res.max_seen, (unsigned long long)p.windows);
	free(s);
}

/* ---- runs through the monitor ---- */

struct run {
	struct health_monitor_results r;
	uint64_t samples;
};

/* Runs spec through a run-scope monitor made for `budget` samples, reading
 * at most n (stopping at the first failure when stop is set). */
static int run_monitor(const char *spec, double h, double alpha, uint64_t budget, uint64_t n,
		       int stop, struct run *out)
{
	struct health_monitor_config c = { .bits = 8, .entropy = h, .alpha = alpha,
					   .scope = HEALTH_SCOPE_RUN, .run_samples = budget,
					   .stop_on_failure = stop };
	/* small blocks: the run stops close to the failure */
	return monitor_run(spec, &c, n, 1024, &out->r, &out->samples);
}

/* Ideal 8-bit samples meet a claim of H = 8 exactly: in run scope at alpha
 * = 2^-2 over each run, at most a quarter of the runs may fail (the union
 * bound makes it far fewer), and the alarms of RCT and APT, whose rates
 * are exact for such a source, agree with the expected count. */
static void test_false_alarms(void)
{
	const unsigned runs = 300;
	const uint64_t n = 20000;
	unsigned failed = 0;
	double rct_alarms = 0, rct_exp = 0, apt_alarms = 0, apt_exp = 0, bound;

	for (unsigned i = 0; i < runs; i++) {
		char spec[64];
		struct run r;
		snprintf(spec, sizeof spec, "sim:ideal,seed=%u", 1000 + i);
		if (run_monitor(spec, 8, 0x1p-2, n, n, 0, &r) != 0) {
			tap_ok(0, "false alarms: run %u", i);
			return;
		}
		failed += r.r.failures > 0;
		rct_alarms += (double)r.r.rct.alarms;
		rct_exp += r.r.rct.expected_alarms;
		apt_alarms += (double)r.r.apt.alarms;
		apt_exp += r.r.apt.expected_alarms;
	}
	/* binomial: 4 standard deviations above alpha */
	bound = runs * 0.25 + 4 * sqrt(runs * 0.25 * 0.75);
	tap_ok(failed <= bound, "run scope, alpha 2^-2: %u of %u seeded ideal runs failed (<= %.0f)",
	       failed, runs, bound);
	tap_ok(fabs(rct_alarms - rct_exp) <= 5 * sqrt(rct_exp) + 1,
	       "RCT alarms observed %.0f agree with the expected %.1f", rct_alarms, rct_exp);
	tap_ok(fabs(apt_alarms - apt_exp) <= 5 * sqrt(apt_exp) + 1,
	       "APT alarms observed %.0f agree with the expected %.1f", apt_alarms, apt_exp);
	/* the default alpha over 10^7 healthy samples: no failure, and alarms
	 * (expected about 0.1) do not fail the run */
	{
		struct run r;
		tap_ok(run_monitor("sim:ideal,seed=77", 8, 0, 10000000, 10000000, 0, &r) == 0 &&
		       r.r.failures == 0,
		       "10^7 ideal samples at alpha 2^-20 over the run: no failure (%llu alarms, %.3g "
		       "expected)", (unsigned long long)r.r.alarms, r.r.expected_alarms);
	}
}

/* ---- detection bounds (rngaudit-health(1), DETECTION) ---- */

static void bound(const char *spec, double h, uint64_t budget, uint64_t limit, const char *unit,
		  unsigned per, uint64_t offset)
{
	struct run r;
	uint64_t at;
	if (run_monitor(spec, h, 0, budget, offset + limit * per + 100000, 1, &r) != 0) {
		tap_ok(0, "%s: run", spec);
		return;
	}
	at = r.r.first_failure;
	if (r.r.words_checked && r.r.words.failures) {
		/* word failures are at word indices: the earliest in samples */
		const struct wordcheck_results *w = &r.r.words;
		uint64_t f[] = { w->rct_first_failure, w->zeros.first_excessive,
				 w->ones.first_excessive, w->repeats.first_excessive };
		for (size_t i = 0; i < 4; i++)
			if (f[i] != HEALTH_NO_FAILURE && f[i] * per < at)
				at = f[i] * per;
	}
	tap_ok(at != HEALTH_NO_FAILURE && at - offset < limit * per,
	       "%s, alpha 2^-20 over %.0e samples: detected within %llu %s (at %s %llu)", spec,
	       (double)budget, (unsigned long long)limit, unit, unit,
	       at == HEALTH_NO_FAILURE ? 0ULL : (unsigned long long)((at - offset) / per));
}

static void test_detection(void)
{
	const uint64_t runs[] = { 1000000, 1000000000 };
	for (size_t i = 0; i < 2; i++) {
		uint64_t n = runs[i];
		bound("sim:amd-rdrand-ffffffff", 0, n, 8, "words", 8, 0);
		bound("sim:rdseed-zero,p=0.1", 0, n, 200, "words", 4, 0);
		bound("sim:repeat-words,p=0.001", 0, n, 5000, "words", 8, 0);
		bound("sim:stuck,after=50000", 0, n, 100, "samples", 1, 50000);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* sim:biased,p=0.02 against a claim of H = 8: value 0 has probability
 * 0.02 (the other values share the rest), five times 2^-8.  The proportion
 * test counts it over windows of 4096 and fails when the count reaches C_p
 * (51 at 10^6 samples, 56 at 10^9), so detection comes at about C_p / 0.02
 * samples (2,550 and 2,800) into the first window, where 82 are expected:
 * the median latency, computed.  Measured here over 21 seeds; the aim is
 * under 150,000. */
static void test_biased(void)
{
	const uint64_t runs[] = { 1000000, 1000000000 };
	for (size_t i = 0; i < 2; i++) {
		uint64_t lat[21];
		unsigned cp = 0;
		for (unsigned k = 0; k < 21; k++) {
			char spec[64];
			struct run r;
			snprintf(spec, sizeof spec, "sim:biased,p=0.02,seed=%u", 50 + k);
			lat[k] = run_monitor(spec, 8, 0, runs[i], 1000000, 1, &r) == 0
			       ? r.r.first_failure : HEALTH_NO_FAILURE;
			cp = r.r.prop.cutoff;
		}
		qsort(lat, 21, sizeof lat[0], cmp_u64);
		tap_ok(lat[10] < 150000 && fabs((double)lat[10] / (cp / 0.02) - 1) < 0.2,
		       "biased,p=0.02 at H=8 over %.0e samples: median latency %llu samples "
		       "(computed C_p / 0.02 = %.0f; aim < 150,000)", (double)runs[i],
		       (unsigned long long)lat[10], cp / 0.02);
	}
}

int main(void)
{
	test_cutoffs();
	test_unknown_length();
	test_proportion_reference();
	test_false_alarms();
	test_detection();
	test_biased();
	return tap_done();
}
