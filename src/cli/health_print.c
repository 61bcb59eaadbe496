/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_print.c - the health-test lines shared by collect, health and audit. */
#include "config.h"

#include "cli/health_print.h"
#include "parse.h"

#include <math.h>
#include <string.h>

const char *health_print_alpha(double alpha, char *buf, size_t len)
{
	int ex;
	double m = frexp(alpha, &ex);
	if (m == 0.5)
		snprintf(buf, len, "2^%d", ex - 1);
	else
		parse_format_double(alpha, buf, len);   /* reads back as the alpha used */
	return buf;
}

static void print_first(FILE *fp, const char *unit, uint64_t first)
{
	if (first != HEALTH_NO_FAILURE)
		fprintf(fp, ", first failure at %s %llu", unit, (unsigned long long)first);
}

static void print_count(FILE *fp, const char *prefix, const char *what,
			const struct wordcheck_count *c, double expected, double p)
{
	fprintf(fp, "%s%s: %llu (expected %.3g, p = %.3g)", prefix, what,
		(unsigned long long)c->count, expected, p);
	if (c->excessive)
		fprintf(fp, ", EXCESSIVE from word %llu\n", (unsigned long long)c->first_excessive);
	else
		fputs(", ok\n", fp);
}

/* "alpha 2^-20 over the run (10^6 samples, 3 tests)" or "alpha 2^-20 per window". */
static void print_scope(FILE *fp, const struct health_monitor_results *r)
{
	char abuf[32];
	const struct health_budget *b = &r->budget;
	health_print_alpha(r->alpha, abuf, sizeof abuf);
	if (b->scope == HEALTH_SCOPE_WINDOW)
		fprintf(fp, "alpha %s per sample (RCT) and window (APT), SP 800-90B 4.4's meaning\n",
			abuf);
	else
		fprintf(fp, "alpha %s over %llu samples (union bound over %u tests)%s\n", abuf,
			(unsigned long long)b->samples, b->tests,
			r->beyond_horizon ? ", now beyond that horizon" : "");
}

/* One test's cutoff, failure and (in run scope) alarm lines. */
static void print_test(FILE *fp, const char *p, const char *name, const char *unit,
		       const struct health_result *t, int alarms)
{
	if (alarms)
		fprintf(fp, "%s%s cutoff: %u (alarm at %u)\n", p, name, t->cutoff, t->alarm_cutoff);
	else
		fprintf(fp, "%s%s cutoff: %u\n", p, name, t->cutoff);
	if (t->window)
		fprintf(fp, "%s%s window: %u\n", p, name, t->window);
	if (t->window)
		fprintf(fp, "%s%s failures: %llu of %llu windows (%.3g%%)", p, name,
			(unsigned long long)t->failures, (unsigned long long)t->windows,
			100.0 * t->fraction_failed);
	else
		fprintf(fp, "%s%s failures: %llu", p, name, (unsigned long long)t->failures);
	print_first(fp, "sample", t->first_failure);
	fprintf(fp, ", largest %s: %llu (false alarms expected at H: %.3g)\n", unit,
		(unsigned long long)t->max_seen, t->expected_false_alarms);
	if (alarms)
		fprintf(fp, "%s%s alarms: %llu (expected at H: %.3g)\n", p, name,
			(unsigned long long)t->alarms, t->expected_alarms);
}

void health_print_results(FILE *fp, const char *prefix, const struct health_monitor_results *r)
{
	const char *p = prefix ? prefix : "";
	int alarms = r->budget.scope == HEALTH_SCOPE_RUN;
	char abuf[40], hbuf[40];

	/* the claim as it reads back: "%g" showed 7.99999999999 as 8 */
	fprintf(fp, "%shealth tests (SP 800-90B 4.4): %llu samples of %u bit%s, "
		"claimed entropy %s bits/sample (%s), ", p, (unsigned long long)r->samples,
		r->bits, r->bits == 1 ? "" : "s", parse_format_double(r->entropy, hbuf, sizeof hbuf),
		r->entropy_why ? r->entropy_why : "given");
	print_scope(fp, r);
	print_test(fp, p, "RCT", "run", &r->rct, alarms);
	print_test(fp, p, "APT", "count", &r->apt, alarms);
	print_test(fp, p, "proportion", "count", &r->prop, alarms);
	if (alarms)
		fprintf(fp, "%salarms: %llu observed, %.3g expected at H (intermittent: "
			"no failure on their own)\n", p, (unsigned long long)r->alarms,
			r->expected_alarms);
	fprintf(fp, "%sstart-up test (first %u samples): %s\n", p, HEALTH_STARTUP_SAMPLES,
		health_startup_describe(r->startup));
	if (r->words_checked) {
		const struct wordcheck_results *w = &r->words;
		fprintf(fp, "%sword checks: %llu %u-bit words\n", p, (unsigned long long)w->words,
			w->word_bits);
		fprintf(fp, "%sword RCT cutoff: %u\n", p, w->rct_cutoff);
		fprintf(fp, "%sword RCT failures: %llu", p, (unsigned long long)w->rct_failures);
		print_first(fp, "word", w->rct_first_failure);
		fprintf(fp, ", largest run: %llu\n", (unsigned long long)w->rct_max_run);
		print_count(fp, p, "all-zero words", &w->zeros, w->zeros_expected, w->zeros_p);
		print_count(fp, p, "all-ones words", &w->ones, w->ones_expected, w->ones_p);
		snprintf(abuf, sizeof abuf, "words repeated within %u", w->window);
		print_count(fp, p, abuf, &w->repeats, w->repeats_expected, w->repeats_p);
	}
	if (r->first_failure != HEALTH_NO_FAILURE)
		fprintf(fp, "%sfirst failure at sample %llu\n", p,
			(unsigned long long)r->first_failure);
	if (r->failures)
		fprintf(fp, "%shealth: FAIL (%llu failure%s)\n", p, (unsigned long long)r->failures,
			r->failures == 1 ? "" : "s");
	else
		fprintf(fp, "%shealth: pass\n", p);
}

/* "; 3 alarms so far, 2.1 expected by now" for a sample-level event. */
static void print_context(FILE *fp, const struct health_event *ev)
{
	fprintf(fp, "; %llu %s%s so far, %.3g expected)\n", (unsigned long long)ev->count,
		ev->alarm ? "alarm" : "failure", ev->count == 1 ? "" : "s", ev->expected);
}

void health_print_event(FILE *fp, const char *prefix, const struct health_event *ev)
{
	const char *p = prefix ? prefix : "";
	unsigned long long i = ev->index, v = ev->value;
	const char *su = ev->startup ? " (start-up)" : "";
	const char *level = ev->alarm ? "ALARM" : "FAILURE";
	const char *cut = ev->alarm ? "alarm cutoff" : "cutoff";

	if (strcmp(ev->test, "rct") == 0) {
		fprintf(fp, "%s%s rct at sample %llu%s: run of %llu identical samples (%s %u", p,
			level, i, su, v, cut, ev->cutoff);
		print_context(fp, ev);
	} else if (strcmp(ev->test, "apt") == 0) {
		fprintf(fp, "%s%s apt at sample %llu%s: %llu samples of the window equal its "
			"first (%s %u", p, level, i, su, v, cut, ev->cutoff);
		print_context(fp, ev);
	} else if (strcmp(ev->test, "prop") == 0) {
		fprintf(fp, "%s%s proportion at sample %llu%s: a value %llu times in its window "
			"(%s %u", p, level, i, su, v, cut, ev->cutoff);
		print_context(fp, ev);
	} else if (strcmp(ev->test, "word-rct") == 0)
		fprintf(fp, "%sFAILURE word-rct at word %llu: run of %llu identical words (cutoff %u)\n",
			p, i, v, ev->cutoff);
	else if (strcmp(ev->test, "zero-words") == 0)
		fprintf(fp, "%sFAILURE zero-words at word %llu: %llu all-zero words, expected %.3g\n",
			p, i, v, ev->expected);
	else if (strcmp(ev->test, "ones-words") == 0)
		fprintf(fp, "%sFAILURE ones-words at word %llu: %llu all-ones words, expected %.3g\n",
			p, i, v, ev->expected);
	else if (strcmp(ev->test, "repeat-words") == 0)
		fprintf(fp, "%sFAILURE repeat-words at word %llu: %llu repeated words, expected %.3g\n",
			p, i, v, ev->expected);
	else
		fprintf(fp, "%sFAILURE %s at %llu: %llu\n", p, ev->test, i, v);
}

void health_print_status(FILE *fp, const char *prefix, const struct health_monitor_results *r,
			 double seconds)
{
	fprintf(fp, "%sstatus: %llu samples in %.1f s (%.3g samples/s), failures: rct %llu, apt %llu, "
		"proportion %llu", prefix ? prefix : "", (unsigned long long)r->samples, seconds,
		seconds > 0 ? (double)r->samples / seconds : 0.0,
		(unsigned long long)r->rct.failures, (unsigned long long)r->apt.failures,
		(unsigned long long)r->prop.failures);
	if (r->words_checked)
		fprintf(fp, ", words %llu", (unsigned long long)r->words.failures);
	if (r->budget.scope == HEALTH_SCOPE_RUN)
		fprintf(fp, "; alarms %llu (%.3g expected)", (unsigned long long)r->alarms,
			r->expected_alarms);
	fputc('\n', fp);
}
