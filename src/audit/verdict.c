/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verdict.c - per-source credibility from counters, health results,
 * estimates, policy and quirks.  Pure: no I/O, no globals.
 *
 * The status is the worst level among the reasons (fail > warn > pass);
 * "unavailable" when the source could not be read at all.  The credibility
 * figure says how far the verdict can be leaned on, 0..1:
 *   level factor  (pass 1, warn 0.5, fail or unavailable 0)
 *   x sample factor  min(1, log10(N) / log10(N_90B)),  N_90B = 10^6 (90B 3.1.1)
 * so a pass on the 10^6 samples 90B asks for is 1, a pass on 2*10^4 samples
 * (the slow virtio hwrng's default) is about 0.72.  It is not an entropy.
 */
#include "config.h"

#include "audit/verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *verdict_status_name(enum verdict_status s)
{
	switch (s) {
	case VERDICT_PASS: return "pass";
	case VERDICT_WARN: return "warn";
	case VERDICT_FAIL: return "fail";
	default: return "unavailable";
	}
}

const char *verdict_level_name(enum verdict_level l)
{
	return l == VERDICT_LVL_FAIL ? "fail" : l == VERDICT_LVL_WARN ? "warn" : "info";
}

const char *verdict_kind_note(enum source_kind kind)
{
	switch (kind) {
	case SOURCE_DRBG:
		return "This is DRBG output: the health tests and estimators only catch gross defects "
		       "(stuck, biased, repeating or starved output); they cannot exclude a keyed backdoor "
		       "such as AES(K, counter++), which every statistical test sees as ideal, and their "
		       "figure is not an entropy credit.";
	case SOURCE_CONDITIONED:
		return "This is conditioned entropy-source output: a pass means it is statistically "
		       "indistinguishable from ideal, which does not prove the noise source behind the "
		       "conditioner is sound or unbackdoored; the figure is not the noise source's entropy.";
	default:
		return "Raw or unknown output: the SP 800-90B estimate is a min-entropy figure for this "
		       "data, valid as far as the samples represent the source.";
	}
}

static void add(struct verdict *v, enum verdict_level level, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(struct verdict *v, enum verdict_level level, const char *code, const char *fmt, ...)
{
	struct verdict_reason *r;
	va_list ap;

	if (v->nreasons == VERDICT_REASONS_MAX) {
		/* Keep the worst news: overwrite the last slot only with a worse level. */
		r = &v->reasons[VERDICT_REASONS_MAX - 1];
		if (level <= r->level)
			return;
	} else {
		r = &v->reasons[v->nreasons++];
	}
	r->level = level;
	snprintf(r->code, sizeof r->code, "%s", code);
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof r->text, fmt, ap);
	va_end(ap);
}

static void check_health(const struct verdict_input *in, struct verdict *v)
{
	const struct health_monitor_results *h = in->health;
	char a[32];

	if (!h) {
		add(v, VERDICT_LVL_WARN, "HEALTH_NOT_RUN", "The SP 800-90B 4.4 health tests did not run.");
		return;
	}
	add(v, VERDICT_INFO, "HEALTH_CLAIM",
	    "Health tests at H = %.3g bits per sample (%s), alpha = %s %s; alarms %llu, %.3g expected.",
	    h->entropy, h->entropy_why ? h->entropy_why : "given", policy_format_alpha(h->alpha, a, sizeof a),
	    h->budget.scope == HEALTH_SCOPE_WINDOW ? "per window" : "over the run",
	    (unsigned long long)h->alarms, h->expected_alarms);
	if (h->startup == HEALTH_STARTUP_FAILED)
		add(v, VERDICT_LVL_FAIL, "HEALTH_STARTUP",
		    "The 90B 4.3 start-up test failed: RCT or APT failed within the first %u samples.",
		    HEALTH_STARTUP_SAMPLES);
	if (h->rct.failures)
		add(v, VERDICT_LVL_FAIL, "HEALTH_RCT",
		    "Repetition count test (90B 4.4.1): %llu failure%s (cutoff %u at H = %.3g bits per sample, "
		    "alpha = %s), first at sample %llu, longest run %llu.",
		    (unsigned long long)h->rct.failures, h->rct.failures == 1 ? "" : "s", h->rct.cutoff,
		    h->entropy, policy_format_alpha(h->alpha, a, sizeof a), (unsigned long long)h->rct.first_failure,
		    (unsigned long long)h->rct.max_seen);
	if (h->apt.failures)
		add(v, VERDICT_LVL_FAIL, "HEALTH_APT",
		    "Adaptive proportion test (90B 4.4.2): %llu of %llu windows failed (cutoff %u in W = %u at "
		    "H = %.3g, alpha = %s), first at sample %llu, largest count %llu.",
		    (unsigned long long)h->apt.failures, (unsigned long long)h->apt.windows, h->apt.cutoff,
		    h->apt.window, h->entropy, policy_format_alpha(h->alpha, a, sizeof a), (unsigned long long)h->apt.first_failure,
		    (unsigned long long)h->apt.max_seen);
	if (h->prop.failures)
		add(v, VERDICT_LVL_FAIL, "HEALTH_PROP",
		    "Proportion test (every value, beside 90B 4.4.2): %llu of %llu windows failed (cutoff %u "
		    "in %u at H = %.3g), first at sample %llu, largest count %llu.",
		    (unsigned long long)h->prop.failures, (unsigned long long)h->prop.windows,
		    h->prop.cutoff, h->prop.window, h->entropy,
		    (unsigned long long)h->prop.first_failure, (unsigned long long)h->prop.max_seen);
	if (!h->words_checked)
		return;
	const struct wordcheck_results *w = &h->words;
	if (w->rct_failures)
		add(v, VERDICT_LVL_FAIL, "WORD_RCT",
		    "%u-bit native words: %llu run%s of identical words reached the cutoff %u (longest %llu).",
		    w->word_bits, (unsigned long long)w->rct_failures, w->rct_failures == 1 ? "" : "s",
		    w->rct_cutoff, (unsigned long long)w->rct_max_run);
	if (w->zeros.excessive)
		add(v, VERDICT_LVL_FAIL, "WORD_ZEROS",
		    "%llu of %llu %u-bit words were all zeros with success reported, %.3g expected "
		    "(P = %.3g <= alpha).", (unsigned long long)w->zeros.count, (unsigned long long)w->words,
		    w->word_bits, w->zeros_expected, w->zeros_p);
	if (w->ones.excessive)
		add(v, VERDICT_LVL_FAIL, "WORD_ONES",
		    "%llu of %llu %u-bit words were all ones with success reported, %.3g expected "
		    "(P = %.3g <= alpha).", (unsigned long long)w->ones.count, (unsigned long long)w->words,
		    w->word_bits, w->ones_expected, w->ones_p);
	if (w->repeats.excessive)
		add(v, VERDICT_LVL_FAIL, "WORD_REPEATS",
		    "%llu %u-bit words repeated one of the previous %u words, %.3g expected "
		    "(P = %.3g <= alpha).", (unsigned long long)w->repeats.count, w->word_bits, w->window,
		    w->repeats_expected, w->repeats_p);
}

static void check_counters(const struct verdict_input *in, struct verdict *v)
{
	const struct source_counters *c = in->counters;
	const struct policy_source *p = in->pol;
	double rate;

	if (!c || !c->calls)
		return;
	rate = (double)c->underflows / (double)c->calls;
	if (c->underflows && rate > p->fail_underflow_rate)
		add(v, VERDICT_LVL_FAIL, "UNDERFLOW_RATE",
		    "CF=0 (no random value) on %llu of %llu calls (%.3g), above the policy's %.3g.",
		    (unsigned long long)c->underflows, (unsigned long long)c->calls, rate, p->fail_underflow_rate);
	else if (c->underflows && rate > p->warn_underflow_rate)
		add(v, VERDICT_LVL_WARN, "UNDERFLOW_RATE",
		    "CF=0 (no random value) on %llu of %llu calls (%.3g), above the policy's warning level %.3g.",
		    (unsigned long long)c->underflows, (unsigned long long)c->calls, rate, p->warn_underflow_rate);
	if (c->exhausted)
		add(v, p->exhausted_fails ? VERDICT_LVL_FAIL : VERDICT_LVL_WARN, "RETRIES_EXHAUSTED",
		    "The retry budget ran out %llu time%s (every retry returned CF=0)%s.",
		    (unsigned long long)c->exhausted, c->exhausted == 1 ? "" : "s",
		    p->exhausted_fails ? "; for RDRAND Intel's guidance is that the DRNG is then broken" : "");
}

static void check_estimates(const struct verdict_input *in, struct verdict *v)
{
	const struct noniid_report *r = in->est;
	const struct policy_source *p = in->pol;
	double per_bit;

	if (!r) {
		add(v, VERDICT_LVL_WARN, "ESTIMATORS_SKIPPED", "The 90B 6.3 estimators did not run: %s.",
		    in->est_skipped && *in->est_skipped ? in->est_skipped : "not asked for");
		return;
	}
	if (!r->bits || !isfinite(r->h_assessed)) {
		add(v, VERDICT_LVL_WARN, "ESTIMATORS_SKIPPED", "The 90B 6.3 estimators gave no figure.");
		return;
	}
	per_bit = r->h_assessed / r->bits + 0.0;   /* + 0.0 turns -0 into 0 */
	if (per_bit < p->fail_below)
		add(v, VERDICT_LVL_FAIL, "ENTROPY_LOW",
		    "Assessed min-entropy %.4g bits per %u-bit sample (%.3g per bit, set by %s) is under the "
		    "policy floor %.3g per bit.", r->h_assessed + 0.0, r->bits, per_bit,
		    r->assessed_by_bitstring ? "the bitstring estimates" : "the literal estimates", p->fail_below);
	else if (per_bit < p->warn_below)
		add(v, VERDICT_LVL_WARN, "ENTROPY_MARGINAL",
		    "Assessed min-entropy %.4g bits per %u-bit sample (%.3g per bit) is under the policy's "
		    "warning level %.3g per bit.", r->h_assessed + 0.0, r->bits, per_bit, p->warn_below);
}

static void check_quirks(const struct verdict_input *in, struct verdict *v)
{
	for (size_t i = 0; i < in->nquirks; i++) {
		const struct quirk_match *m = &in->quirks[i];
		enum verdict_level lvl = m->q->severity == QUIRK_FAIL ? VERDICT_LVL_FAIL :
					 m->q->severity == QUIRK_WARN ? VERDICT_LVL_WARN : VERDICT_INFO;
		char code[VERDICT_CODE_MAX];
		/* Without the microcode revision a fixed part cannot be told
		 * from an unfixed one: say so and do not fail on a guess. */
		if (m->microcode_unknown && lvl == VERDICT_LVL_FAIL)
			lvl = VERDICT_LVL_WARN;
		snprintf(code, sizeof code, "QUIRK:%.50s", m->q->id);
		add(v, lvl, code, "%s%s.", m->microcode_unknown ?
		    "May apply (the microcode revision could not be read): " : "", m->q->advisory);
	}
}

static double sample_factor(uint64_t n, uint64_t nist)
{
	double f;
	if (n < 2 || nist < 2)
		return 0;
	f = log10((double)n) / log10((double)nist);
	return f > 1 ? 1 : f;
}

void verdict_decide(const struct verdict_input *in, struct verdict *v)
{
	enum verdict_level worst = VERDICT_INFO;
	enum source_kind kind = in->info ? in->info->kind : SOURCE_RAW;

	memset(v, 0, sizeof *v);
	if (in->unavailable || !in->info) {
		v->status = VERDICT_UNAVAILABLE;
		add(v, VERDICT_INFO, "UNAVAILABLE", "The source could not be used: %s.",
		    in->unavailable_why && *in->unavailable_why ? in->unavailable_why : "unknown reason");
		return;
	}
	if (in->samples == 0) {
		v->status = VERDICT_UNAVAILABLE;
		add(v, VERDICT_INFO, "NO_SAMPLES", "No samples were collected%s%s.",
		    in->source_error ? ": " : "", in->source_error ? in->source_error : "");
		return;
	}

	if (in->source_error)
		add(v, VERDICT_LVL_FAIL, "SOURCE_ERROR", "The source failed during collection after %llu "
		    "samples: %s.", (unsigned long long)in->samples, in->source_error);
	if (in->partial)
		add(v, VERDICT_LVL_WARN, "PARTIAL", "Interrupted: this verdict rests on the %llu samples "
		    "collected before the signal.", (unsigned long long)in->samples);
	check_health(in, v);
	check_counters(in, v);
	check_estimates(in, v);
	check_quirks(in, v);
	if (in->samples < in->policy->min_samples)
		add(v, VERDICT_LVL_WARN, "SAMPLES_FEW", "Only %llu samples, under the policy's minimum %llu: "
		    "the estimators' confidence bounds are wide.", (unsigned long long)in->samples,
		    (unsigned long long)in->policy->min_samples);
	else if (in->samples < in->policy->nist_samples)
		add(v, VERDICT_INFO, "SAMPLES_BELOW_90B", "%llu samples: SP 800-90B 3.1.1 asks for at least "
		    "%llu for an entropy assessment.", (unsigned long long)in->samples,
		    (unsigned long long)in->policy->nist_samples);

	if (kind == SOURCE_DRBG)
		add(v, VERDICT_INFO, "DRBG_OUTPUT", "%s", verdict_kind_note(kind));
	else if (kind == SOURCE_CONDITIONED)
		add(v, VERDICT_INFO, "CONDITIONED_OUTPUT", "%s", verdict_kind_note(kind));
	if (in->info->simulated)
		add(v, VERDICT_INFO, "SIMULATED", "Simulated source (%s): a demonstration, not hardware.",
		    in->info->spec);

	for (size_t i = 0; i < v->nreasons; i++)
		if (v->reasons[i].level > worst)
			worst = v->reasons[i].level;
	v->status = worst == VERDICT_LVL_FAIL ? VERDICT_FAIL : worst == VERDICT_LVL_WARN ? VERDICT_WARN :
		    VERDICT_PASS;
	v->credibility = (v->status == VERDICT_PASS ? 1.0 : v->status == VERDICT_WARN ? 0.5 : 0.0) *
			 sample_factor(in->samples, in->policy->nist_samples);
	v->entropy_credit = kind == SOURCE_RAW && in->est && v->status != VERDICT_FAIL;
}

const char *verdict_codes(const struct verdict *v, char *buf, size_t len)
{
	size_t pos = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < v->nreasons && pos < len; i++) {
		int n = snprintf(buf + pos, len - pos, "%s%s", i ? ";" : "", v->reasons[i].code);
		if (n < 0)
			break;
		pos += (size_t)n;
	}
	return buf;
}
