/* health_print.c - the health-test lines shared by collect, health and audit. */
#include "config.h"

#include "cli/health_print.h"

#include <math.h>
#include <string.h>

const char *health_print_alpha(double alpha, char *buf, size_t len)
{
	int ex;
	double m = frexp(alpha, &ex);
	if (m == 0.5)
		snprintf(buf, len, "2^%d", ex - 1);
	else
		snprintf(buf, len, "%g", alpha);
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

void health_print_results(FILE *fp, const char *prefix, const struct health_monitor_results *r)
{
	char abuf[32];
	const char *p = prefix ? prefix : "";

	fprintf(fp, "%shealth tests (SP 800-90B 4.4): %llu samples of %u bit%s, "
		"claimed entropy %g bits/sample, alpha %s\n", p, (unsigned long long)r->samples,
		r->bits, r->bits == 1 ? "" : "s", r->entropy,
		health_print_alpha(r->alpha, abuf, sizeof abuf));
	fprintf(fp, "%sRCT cutoff: %u\n", p, r->rct.cutoff);
	fprintf(fp, "%sRCT failures: %llu", p, (unsigned long long)r->rct.failures);
	print_first(fp, "sample", r->rct.first_failure);
	fprintf(fp, ", largest run: %llu (false alarms expected at H: %.3g)\n",
		(unsigned long long)r->rct.max_seen, r->rct.expected_false_alarms);
	fprintf(fp, "%sAPT cutoff: %u\n", p, r->apt.cutoff);
	fprintf(fp, "%sAPT window: %u\n", p, r->apt.window);
	fprintf(fp, "%sAPT failures: %llu of %llu windows (%.3g%%)", p,
		(unsigned long long)r->apt.failures, (unsigned long long)r->apt.windows,
		100.0 * r->apt.fraction_failed);
	print_first(fp, "sample", r->apt.first_failure);
	fprintf(fp, ", largest count: %llu (false alarms expected at H: %.3g)\n",
		(unsigned long long)r->apt.max_seen, r->apt.expected_false_alarms);
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

void health_print_event(FILE *fp, const char *prefix, const struct health_event *ev)
{
	const char *p = prefix ? prefix : "";
	unsigned long long i = ev->index, v = ev->value;
	const char *su = ev->startup ? " (start-up)" : "";

	if (strcmp(ev->test, "rct") == 0)
		fprintf(fp, "%sFAILURE rct at sample %llu%s: run of %llu identical samples (cutoff %u)\n",
			p, i, su, v, ev->cutoff);
	else if (strcmp(ev->test, "apt") == 0)
		fprintf(fp, "%sFAILURE apt at sample %llu%s: %llu samples of the window equal its "
			"first (cutoff %u)\n", p, i, su, v, ev->cutoff);
	else if (strcmp(ev->test, "word-rct") == 0)
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
	fprintf(fp, "%sstatus: %llu samples in %.1f s (%.3g samples/s), failures: rct %llu, apt %llu",
		prefix ? prefix : "", (unsigned long long)r->samples, seconds,
		seconds > 0 ? (double)r->samples / seconds : 0.0,
		(unsigned long long)r->rct.failures, (unsigned long long)r->apt.failures);
	if (r->words_checked)
		fprintf(fp, ", words %llu", (unsigned long long)r->words.failures);
	fputc('\n', fp);
}
