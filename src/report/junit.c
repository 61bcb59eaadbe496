/* SPDX-License-Identifier: GPL-3.0-or-later */
/* junit.c - the audit as JUnit XML for GitLab and Jenkins: one testsuite per
 * source, one testcase per check.  GitLab keys cases on (classname, name),
 * so each pair is unique; the report never decides the job, the exit status
 * does.  Warnings are failures only under --strict (else system-out).
 *
 * The shape is the one Jenkins' xunit plugin validates (its junit-10.xsd):
 * counts and time on <testsuites> (no `skipped` there, the schema has none),
 * a <properties> block per testsuite, times as seconds with three decimals
 * (the schema's SUREFIRE_TIME takes at most three) and never negative.
 *
 * Grouping: Jenkins splits a classname at its last dot into package and
 * class, so the classname is "rngaudit." followed by the source spec with
 * every '.' replaced by '_' (sim:biased,p=0.1 -> rngaudit.sim:biased,p=0_1):
 * package "rngaudit", one class per source, one test per check.  GitLab
 * shows the classname as the suite.  The exact spec stays in the testsuite
 * name and the `source` property.  With --junit-host the host comes
 * between, its dots replaced too (rngaudit.web01_example_com.rdrand):
 * package "rngaudit.HOST", so the reports of many hosts merged in one job
 * keep one row per host and source.  Two specs that map to the same
 * classname (file:a.bin and file:a_bin, or a source named twice) get "~2",
 * "~3", ... so that the (classname, name) pairs stay unique.
 *
 * Time: a phase's time is counted once, on the testcase that stands for it:
 * `collection` gets the collection loop's wall time (the streaming health
 * tests and the word checks run inside that loop, so they add 0), and
 * `min_entropy` the estimators' (est_seconds); checks decided from those
 * figures afterwards take 0.  A suite's time is the sum of its cases
 * (collection + estimators), as Jenkins and GitLab sum cases for classes
 * and suites; the root's is the audit's wall time (sources run in parallel,
 * so it can be less than the suites' sum, never less than one suite). */
#include "config.h"

#include "report/report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "report/xmltext.h"

/* The checks, which reason codes belong to each, and the phase whose time
 * the check carries. */
enum phase { PHASE_NONE, PHASE_COLLECT, PHASE_ESTIMATE };
static const struct {
	const char *name;
	const char *prefix[4];       /* reason codes (a trailing ':' matches a prefix) */
	enum phase phase;
} checks[] = {
	{ "collection", { "SOURCE_ERROR", "PARTIAL", "NO_SAMPLES", NULL }, PHASE_COLLECT },
	{ "health_startup", { "HEALTH_STARTUP", "HEALTH_NOT_RUN", NULL }, PHASE_NONE },
	{ "health_rct", { "HEALTH_RCT", NULL }, PHASE_NONE },
	{ "health_apt", { "HEALTH_APT", "HEALTH_PROP", NULL }, PHASE_NONE },
	{ "word_rct", { "WORD_RCT", NULL }, PHASE_NONE },
	{ "word_zeros", { "WORD_ZEROS", NULL }, PHASE_NONE },
	{ "word_ones", { "WORD_ONES", NULL }, PHASE_NONE },
	{ "word_repeats", { "WORD_REPEATS", NULL }, PHASE_NONE },
	{ "underflows", { "UNDERFLOW_RATE", "RETRIES_EXHAUSTED", NULL }, PHASE_NONE },
	{ "min_entropy", { "ENTROPY_LOW", "ENTROPY_MARGINAL", "ESTIMATORS_SKIPPED", NULL },
	  PHASE_ESTIMATE },
	{ "sample_count", { "SAMPLES_FEW", "SAMPLES_BELOW_90B", NULL }, PHASE_NONE },
	{ "known_parts", { "QUIRK:", NULL }, PHASE_NONE },
};
#define NCHECKS (sizeof checks / sizeof checks[0])

/* "rngaudit." + a 255-byte spec, each byte perhaps 3 (U+FFFD), + "~" and a
 * suffix number. */
#define CLASSNAME_MAX (9 + 3 * 255 + 1 + 3 * 255 + 16)

static int code_in(const char *code, size_t c)
{
	for (int i = 0; i < 4 && checks[c].prefix[i]; i++) {
		const char *p = checks[c].prefix[i];
		size_t n = strlen(p);
		if (n && p[n - 1] == ':' ? strncmp(code, p, n) == 0 : strcmp(code, p) == 0)
			return 1;
	}
	return 0;
}

/* Seconds as whole milliseconds: what the report shows, so that sums of
 * shown times are exact.  NaN, infinities and negatives (a clock that went
 * back) are 0. */
static uint64_t to_ms(double seconds)
{
	if (!isfinite(seconds) || seconds <= 0)
		return 0;
	if (seconds >= 1e12)            /* 30,000 years: no real audit */
		return (uint64_t)1e15;
	return (uint64_t)llround(seconds * 1000.0);
}

static void put_ms(FILE *fp, uint64_t ms)
{
	fprintf(fp, "%llu.%03u", (unsigned long long)(ms / 1000), (unsigned)(ms % 1000));
}

/* The shortest %g that reads back as v (the CSV writes %.17g; people read
 * these in Jenkins' property table). */
static const char *real_text(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
		return buf;
	}
	for (int digits = 6; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v + 0.0);   /* + 0.0: no "-0" */
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

static const char *spec_of(const struct report_source *s)
{
	return s->available ? s->info.spec : s->requested;
}

/* The classname for each source (see the top of the file); names is
 * n * CLASSNAME_MAX bytes. */
static void classnames_make(const struct report_run *r, char *names)
{
	for (size_t i = 0; i < r->n; i++) {
		char base[CLASSNAME_MAX - 12], *name = names + i * CLASSNAME_MAX;
		size_t at = 9;
		/* compared as a parser reads them back */
		memcpy(base, "rngaudit.", 9);
		if (r->junit_host) {
			xmltext_clean(r->sys.hostname[0] ? r->sys.hostname : "unknown", base + at,
				      sizeof base - at - 1);
			for (char *p = base + at; *p; p++)
				if (*p == '.')
					*p = '_';
			at += strlen(base + at);
			base[at++] = '.';
		}
		xmltext_clean(spec_of(&r->src[i]), base + at, sizeof base - at);
		for (char *p = base + at; *p; p++)
			if (*p == '.')
				*p = '_';
		snprintf(name, CLASSNAME_MAX, "%s", base);
		for (unsigned k = 2;; k++) {
			size_t j = 0;
			while (j < i && strcmp(names + j * CLASSNAME_MAX, name) != 0)
				j++;
			if (j == i)
				break;
			snprintf(name, CLASSNAME_MAX, "%s~%u", base, k);
		}
	}
}

/* Whether a check applies to this source: word checks only when they ran. */
static int check_applies(const struct report_source *s, size_t c)
{
	if (strncmp(checks[c].name, "word_", 5) == 0)
		return s->health_ran && s->health.words_checked;
	return 1;
}

static int counts_as_failure(const struct report_run *r, enum verdict_level l)
{
	return l == VERDICT_LVL_FAIL || (r->strict && l == VERDICT_LVL_WARN);
}

static int skipped_whole(const struct report_source *s)
{
	return !s->available || s->verdict.status == VERDICT_UNAVAILABLE;
}

static void suite_counts(const struct report_run *r, const struct report_source *s, unsigned *tests,
			 unsigned *failures, unsigned *skipped)
{
	*tests = *failures = *skipped = 0;
	if (skipped_whole(s)) {
		*tests = *skipped = 1;
		return;
	}
	for (size_t c = 0; c < NCHECKS; c++) {
		int failed = 0;
		if (!check_applies(s, c))
			continue;
		(*tests)++;
		for (size_t j = 0; j < s->verdict.nreasons; j++)
			if (code_in(s->verdict.reasons[j].code, c) &&
			    counts_as_failure(r, s->verdict.reasons[j].level))
				failed = 1;
		*failures += (unsigned)failed;
	}
	if (s->trust.role != TRUST_ROLE_NONE) {
		(*tests)++;
		*failures += (unsigned)(s->trust.credits_failed != 0);
	}
}

static uint64_t phase_ms(const struct report_source *s, enum phase p)
{
	if (skipped_whole(s))
		return 0;
	return p == PHASE_COLLECT ? to_ms(s->stats.seconds)
	       : p == PHASE_ESTIMATE ? to_ms(s->est_seconds) : 0;
}

/* The sum of the suite's cases. */
static uint64_t suite_ms(const struct report_source *s)
{
	return phase_ms(s, PHASE_COLLECT) + phase_ms(s, PHASE_ESTIMATE);
}

static void property(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, "      <property name=\"%s\" value=\"", name);
	xmltext_attr(fp, value);
	fputs("\"/>\n", fp);
}

static void property_real(FILE *fp, const char *name, double v)
{
	char buf[40];
	property(fp, name, real_text(v, buf, sizeof buf));
}

static void property_u64(FILE *fp, const char *name, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	property(fp, name, buf);
}

static const char *yes_no(enum kernel_tri t)
{
	return t == KERNEL_ON ? "yes" : t == KERNEL_OFF ? "no" : "unknown";
}

/* The machine, the tool, the policy as it applies to this source, and the
 * claim and alarms of its health tests.  Names follow the CSV's columns
 * where the CSV has the figure (rngaudit-audit(1), JUNIT REPORT). */
static void write_properties(FILE *fp, const struct report_run *r, const struct report_source *s)
{
	const struct sysinfo *si = &r->sys;
	const struct health_monitor_results *h = &s->health;
	struct policy_source pol;
	char buf[64];

	fputs("    <properties>\n", fp);
	property(fp, "source", spec_of(s));
	if (s->available || s->kind_known) {
		property(fp, "kind", source_kind_token(s->info.kind));
		property(fp, "kind_basis", s->kind_basis);
	}
	if (s->est_ran && s->ideal_known) {
		property_real(fp, "ideal_h_low", s->ideal.low);
		property_real(fp, "ideal_h_mean", s->ideal.mean);
	}
	if (s->trust.role != TRUST_ROLE_NONE)
		property(fp, "kernel_credits", kernel_tri_token(s->trust.credited));
	property(fp, "host", si->hostname);
	property(fp, "cpu_vendor", si->cpu_vendor);
	property(fp, "cpu_model_name", si->cpu_model_name);
	property_u64(fp, "cpu_family", si->cpu_family);
	property_u64(fp, "cpu_model", si->cpu_model);
	property_u64(fp, "cpu_stepping", si->cpu_stepping);
	if (si->microcode_known) {
		snprintf(buf, sizeof buf, "0x%lx", si->microcode);
		property(fp, "microcode", buf);
	}
	property(fp, "arch", si->arch);
	property(fp, "kernel", si->kernel);
	if (r->kernel.version[0])
		property(fp, "kernel_version", r->kernel.version);
	property(fp, "virtualized", yes_no(r->kernel.virtualized));
	property(fp, "tool_version", r->tool_version ? r->tool_version : "");
	if (r->policy) {
		/* the audit decides an unavailable source by the default entry */
		policy_for(r->policy, s->available ? s->info.name : "default", &pol);
		property(fp, "policy", r->policy->origin);
		property(fp, "alpha", policy_format_alpha(r->policy->alpha, buf, sizeof buf));
		property_u64(fp, "policy_min_samples", r->policy->min_samples);
		property_real(fp, "policy_claim_per_bit", pol.claim);
		property_real(fp, "policy_warn_below_per_bit", pol.warn_below);
		property_real(fp, "policy_fail_below_per_bit", pol.fail_below);
		property_real(fp, "policy_warn_underflow_rate", pol.warn_underflow_rate);
		property_real(fp, "policy_fail_underflow_rate", pol.fail_underflow_rate);
	}
	if (s->health_ran) {
		property_real(fp, "h_claim", h->entropy);
		property(fp, "h_claim_rule", h->entropy_why ? h->entropy_why : "given");
		property(fp, "health_alpha", policy_format_alpha(h->alpha, buf, sizeof buf));
		property_u64(fp, "health_samples", h->samples);
		if (h->budget.scope == HEALTH_SCOPE_RUN) {
			property_u64(fp, "alarms", h->alarms);
			property_real(fp, "alarms_expected", h->expected_alarms);
		}
	}
	fputs("    </properties>\n", fp);
}

/* One health test's figures: "RCT: failures 0, alarms 1, 0.0103 expected
 * (cutoff 21, alarm level 18)".  Alarms exist only when alpha covers the
 * run (health/budget.h). */
static void health_line(FILE *fp, const char *name, const struct health_result *t, int alarms)
{
	fprintf(fp, "%s: failures %llu", name, (unsigned long long)t->failures);
	if (t->window)
		fprintf(fp, " of %llu windows", (unsigned long long)t->windows);
	if (alarms)
		fprintf(fp, ", alarms %llu, %.3g expected", (unsigned long long)t->alarms,
			t->expected_alarms);
	fprintf(fp, " (cutoff %u", t->cutoff);
	if (t->window)
		fprintf(fp, " in %u", t->window);
	if (alarms)
		fprintf(fp, ", alarm level %u", t->alarm_cutoff);
	fputs(")\n", fp);
}

static void alarms_line(FILE *fp, const struct health_monitor_results *h)
{
	fprintf(fp, "alarms %llu, %.3g expected (RCT, APT and proportion over the run; an alarm "
		"alone is no failure)\n", (unsigned long long)h->alarms, h->expected_alarms);
}

/* Opens a testcase's system-out before its first line. */
static void out_open(FILE *fp, int *open)
{
	if (!*open)
		fputs("\n      <system-out>", fp);
	*open = 1;
}

/* What a health testcase's system-out starts with: its tests' figures. */
static void health_figures(FILE *fp, const struct report_source *s, size_t c, int *open)
{
	const struct health_monitor_results *h = &s->health;
	int alarms = h->budget.scope == HEALTH_SCOPE_RUN;
	const char *name = checks[c].name;

	if (!s->health_ran || strncmp(name, "health_", 7) != 0)
		return;
	out_open(fp, open);
	if (strcmp(name, "health_rct") == 0) {
		health_line(fp, "RCT", &h->rct, alarms);
	} else if (strcmp(name, "health_apt") == 0) {
		health_line(fp, "APT", &h->apt, alarms);
		health_line(fp, "proportion", &h->prop, alarms);
	} else {
		/* the start-up test raises no alarms of its own */
		fprintf(fp, "start-up (first %u samples): %s\n", HEALTH_STARTUP_SAMPLES,
			health_startup_describe(h->startup));
		return;
	}
	if (alarms)
		alarms_line(fp, h);
}

static void case_open(FILE *fp, const char *classname, const char *name, uint64_t ms)
{
	fputs("    <testcase classname=\"", fp);
	xmltext_attr(fp, classname);
	fputs("\" name=\"", fp);
	xmltext_attr(fp, name);
	fputs("\" time=\"", fp);
	put_ms(fp, ms);
	fputs("\">", fp);
}

/* kernel-trust: fails when the kernel credits a source that failed. */
static void write_trust_case(FILE *fp, const char *classname, const struct trust_decision *t)
{
	case_open(fp, classname, "kernel-trust", 0);
	if (t->credits_failed) {
		fputs("\n      <failure message=\"the kernel credits a source that failed the audit", fp);
		if (t->recommendation[0]) {
			fputs(": set ", fp);
			xmltext_attr(fp, t->recommendation);
		}
		fputs("\" type=\"KERNEL_TRUST\">", fp);
		xmltext_put(fp, t->reason);
		fputs("</failure>\n    ", fp);
	} else {
		fputs("\n      <system-out>", fp);
		if (t->recommendation[0]) {
			fputs("recommend ", fp);
			xmltext_put(fp, t->recommendation);
			fputs(": ", fp);
		}
		xmltext_put(fp, t->reason);
		fputs("</system-out>\n    ", fp);
	}
	fputs("</testcase>\n", fp);
}

/* One check: the first failing reason as its failure (JUnit allows one
 * failure element; the others follow in its text), then the figures and
 * the reasons that do not fail it in system-out. */
static void write_check(FILE *fp, const struct report_run *r, const struct report_source *s,
			const char *classname, size_t c)
{
	int failed = 0, out;

	case_open(fp, classname, checks[c].name, phase_ms(s, checks[c].phase));
	for (size_t j = 0; j < s->verdict.nreasons; j++) {
		const struct verdict_reason *rs = &s->verdict.reasons[j];
		if (!code_in(rs->code, c) || !counts_as_failure(r, rs->level))
			continue;
		if (!failed) {
			fputs("\n      <failure message=\"", fp);
			xmltext_attr(fp, rs->text);
			fputs("\" type=\"", fp);
			xmltext_attr(fp, rs->code);
			fputs("\">", fp);
		}
		xmltext_put(fp, rs->code);
		fputs(": ", fp);
		xmltext_put(fp, rs->text);
		fputc('\n', fp);
		failed = 1;
	}
	if (failed)
		fputs("</failure>", fp);
	out = 0;
	health_figures(fp, s, c, &out);
	for (size_t j = 0; j < s->verdict.nreasons; j++) {
		const struct verdict_reason *rs = &s->verdict.reasons[j];
		if (!code_in(rs->code, c) || counts_as_failure(r, rs->level))
			continue;
		out_open(fp, &out);
		fprintf(fp, "%s ", verdict_level_name(rs->level));
		xmltext_put(fp, rs->code);
		fputs(": ", fp);
		xmltext_put(fp, rs->text);
		fputc('\n', fp);
	}
	if (out)
		fputs("</system-out>", fp);
	fputs(failed || out ? "\n    </testcase>\n" : "</testcase>\n", fp);
}

static void write_suite(FILE *fp, const struct report_run *r, const struct report_source *s,
			const char *classname)
{
	unsigned tests, failures, skipped;
	char t[64];

	suite_counts(r, s, &tests, &failures, &skipped);
	fputs("  <testsuite name=\"", fp);
	xmltext_attr(fp, spec_of(s));
	fprintf(fp, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" time=\"",
		tests, failures, skipped);
	put_ms(fp, suite_ms(s));
	fprintf(fp, "\" timestamp=\"%s\" hostname=\"", report_iso_time(r->finished, t, sizeof t));
	xmltext_attr(fp, r->sys.hostname);
	fputs("\">\n", fp);
	write_properties(fp, r, s);
	if (skipped) {
		case_open(fp, classname, "available", 0);
		fputs("<skipped message=\"", fp);
		xmltext_attr(fp, s->verdict.nreasons ? s->verdict.reasons[0].text : s->why);
		fputs("\"/></testcase>\n", fp);
	} else {
		for (size_t c = 0; c < NCHECKS; c++)
			if (check_applies(s, c))
				write_check(fp, r, s, classname, c);
		if (s->trust.role != TRUST_ROLE_NONE)
			write_trust_case(fp, classname, &s->trust);
	}
	/* What the figures mean for this kind of source, and every reason. */
	fputs("    <system-out>", fp);
	fprintf(fp, "verdict: %s, credibility %.3f\n", verdict_status_name(s->verdict.status),
		s->verdict.credibility);
	if (s->health_ran && s->health.budget.scope == HEALTH_SCOPE_RUN) {
		fputs("health tests: ", fp);
		alarms_line(fp, &s->health);
	}
	if (s->available)
		xmltext_put(fp, verdict_kind_note(s->info.kind));
	fputs("</system-out>\n  </testsuite>\n", fp);
}

int report_junit_write(const char *path, const struct report_run *r, struct err *e)
{
	struct atomicfile af;
	unsigned tests = 0, failures = 0;
	uint64_t wall_ms = to_ms(r->seconds);
	char *names;
	int rc;

	names = calloc(r->n ? r->n : 1, CLASSNAME_MAX);
	if (!names)
		return err_set(e, ERR_NOMEM, "JUnit report %s: out of memory", path);
	classnames_make(r, names);
	if ((rc = atomicfile_open(&af, path, e)) != 0) {
		free(names);
		return rc;
	}
	for (size_t i = 0; i < r->n; i++) {
		unsigned t, f, s;
		suite_counts(r, &r->src[i], &t, &f, &s);
		tests += t;
		failures += f;
		/* each suite ran within the audit: its rounded time never above the root's */
		if (suite_ms(&r->src[i]) > wall_ms)
			wall_ms = suite_ms(&r->src[i]);
	}
	fprintf(af.fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(af.fp, "<testsuites name=\"rngaudit\" tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"",
		tests, failures);
	put_ms(af.fp, wall_ms);
	fputs("\">\n", af.fp);
	for (size_t i = 0; i < r->n; i++)
		write_suite(af.fp, r, &r->src[i], names + i * CLASSNAME_MAX);
	fputs("</testsuites>\n", af.fp);
	free(names);
	if (ferror(af.fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "JUnit report %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}
