/* junit.c - the audit as JUnit XML for GitLab and Jenkins: one testsuite per
 * source, one testcase per check.  GitLab keys cases on (classname, name),
 * so each pair is unique; the report never decides the job, the exit status
 * does.  Warnings are failures only under --strict (else system-out). */
#include "config.h"

#include "report/report.h"

#include <string.h>

#include "atomicfile.h"

/* The checks, and which reason codes belong to each. */
static const struct {
	const char *name;
	const char *prefix[4];       /* reason codes (a trailing ':' matches a prefix) */
} checks[] = {
	{ "collection", { "SOURCE_ERROR", "PARTIAL", "NO_SAMPLES", NULL } },
	{ "health_startup", { "HEALTH_STARTUP", "HEALTH_NOT_RUN", NULL } },
	{ "health_rct", { "HEALTH_RCT", NULL } },
	{ "health_apt", { "HEALTH_APT", "HEALTH_PROP", NULL } },
	{ "word_rct", { "WORD_RCT", NULL } },
	{ "word_zeros", { "WORD_ZEROS", NULL } },
	{ "word_ones", { "WORD_ONES", NULL } },
	{ "word_repeats", { "WORD_REPEATS", NULL } },
	{ "underflows", { "UNDERFLOW_RATE", "RETRIES_EXHAUSTED", NULL } },
	{ "min_entropy", { "ENTROPY_LOW", "ENTROPY_MARGINAL", "ESTIMATORS_SKIPPED", NULL } },
	{ "sample_count", { "SAMPLES_FEW", "SAMPLES_BELOW_90B", NULL } },
	{ "known_parts", { "QUIRK:", NULL } },
};
#define NCHECKS (sizeof checks / sizeof checks[0])

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

static void xml_escaped(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default:
			/* XML 1.0 forbids most control characters even escaped. */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc(' ', fp);
			else
				fputc(*s, fp);
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

static void suite_counts(const struct report_run *r, const struct report_source *s, unsigned *tests,
			 unsigned *failures, unsigned *skipped)
{
	*tests = *failures = *skipped = 0;
	if (!s->available || s->verdict.status == VERDICT_UNAVAILABLE) {
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

/* kernel-trust: fails when the kernel credits a source that failed. */
static void write_trust_case(FILE *fp, const char *name, const struct trust_decision *t)
{
	fputs("    <testcase classname=\"rngaudit.", fp);
	xml_escaped(fp, name);
	fputs("\" name=\"kernel-trust\" time=\"0\">", fp);
	if (t->credits_failed) {
		fputs("\n      <failure message=\"the kernel credits a source that failed the audit", fp);
		if (t->recommendation[0]) {
			fputs(": set ", fp);
			xml_escaped(fp, t->recommendation);
		}
		fputs("\" type=\"KERNEL_TRUST\">", fp);
		xml_escaped(fp, t->reason);
		fputs("</failure>\n    ", fp);
	} else {
		fputs("\n      <system-out>", fp);
		if (t->recommendation[0]) {
			fputs("recommend ", fp);
			xml_escaped(fp, t->recommendation);
			fputs(": ", fp);
		}
		xml_escaped(fp, t->reason);
		fputs("</system-out>\n    ", fp);
	}
	fputs("</testcase>\n", fp);
}

static void write_suite(FILE *fp, const struct report_run *r, const struct report_source *s)
{
	const char *name = s->available ? s->info.spec : s->requested;
	unsigned tests, failures, skipped;
	char t[64];

	suite_counts(r, s, &tests, &failures, &skipped);
	fputs("  <testsuite name=\"", fp);
	xml_escaped(fp, name);
	fprintf(fp, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\" time=\"%.3f\" timestamp=\"%s\" hostname=\"",
		tests, failures, skipped, s->stats.seconds + s->est_seconds,
		report_iso_time(r->finished, t, sizeof t));
	xml_escaped(fp, r->sys.hostname);
	fputs("\">\n", fp);
	if (skipped) {
		fputs("    <testcase classname=\"rngaudit.", fp);
		xml_escaped(fp, name);
		fputs("\" name=\"available\" time=\"0\"><skipped message=\"", fp);
		xml_escaped(fp, s->verdict.nreasons ? s->verdict.reasons[0].text : s->why);
		fputs("\"/></testcase>\n", fp);
	} else {
		for (size_t c = 0; c < NCHECKS; c++) {
			int failed = 0, notes = 0;
			if (!check_applies(s, c))
				continue;
			fputs("    <testcase classname=\"rngaudit.", fp);
			xml_escaped(fp, name);
			fprintf(fp, "\" name=\"%s\" time=\"0\">", checks[c].name);
			for (size_t j = 0; j < s->verdict.nreasons; j++) {
				const struct verdict_reason *rs = &s->verdict.reasons[j];
				if (!code_in(rs->code, c) || !counts_as_failure(r, rs->level))
					continue;
				/* JUnit allows one failure element: the first; the others follow in its text. */
				if (!failed) {
					fputs("\n      <failure message=\"", fp);
					xml_escaped(fp, rs->text);
					fputs("\" type=\"", fp);
					xml_escaped(fp, rs->code);
					fputs("\">", fp);
				}
				xml_escaped(fp, rs->code);
				fputs(": ", fp);
				xml_escaped(fp, rs->text);
				fputc('\n', fp);
				failed = 1;
			}
			if (failed)
				fputs("</failure>\n    ", fp);
			for (size_t j = 0; j < s->verdict.nreasons; j++) {
				const struct verdict_reason *rs = &s->verdict.reasons[j];
				if (!code_in(rs->code, c) || counts_as_failure(r, rs->level))
					continue;
				fputs(notes++ ? "" : "\n      <system-out>", fp);
				fprintf(fp, "%s ", verdict_level_name(rs->level));
				xml_escaped(fp, rs->code);
				fputs(": ", fp);
				xml_escaped(fp, rs->text);
				fputc('\n', fp);
			}
			if (notes)
				fputs("</system-out>\n    ", fp);
			fputs("</testcase>\n", fp);
		}
		if (s->trust.role != TRUST_ROLE_NONE)
			write_trust_case(fp, name, &s->trust);
	}
	/* What the figures mean for this kind of source, and every reason. */
	fputs("    <system-out>", fp);
	fprintf(fp, "verdict: %s, credibility %.3f\n", verdict_status_name(s->verdict.status),
		s->verdict.credibility);
	if (s->available)
		xml_escaped(fp, verdict_kind_note(s->info.kind));
	fputs("</system-out>\n  </testsuite>\n", fp);
}

int report_junit_write(const char *path, const struct report_run *r, struct err *e)
{
	struct atomicfile af;
	unsigned tests = 0, failures = 0, skipped = 0;
	int rc;

	if ((rc = atomicfile_open(&af, path, e)) != 0)
		return rc;
	for (size_t i = 0; i < r->n; i++) {
		unsigned t, f, s;
		suite_counts(r, &r->src[i], &t, &f, &s);
		tests += t;
		failures += f;
		skipped += s;
	}
	fprintf(af.fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(af.fp, "<testsuites name=\"rngaudit\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
		"skipped=\"%u\" time=\"%.3f\">\n", tests, failures, skipped, r->seconds);
	for (size_t i = 0; i < r->n; i++)
		write_suite(af.fp, r, &r->src[i]);
	fputs("</testsuites>\n", af.fp);
	if (ferror(af.fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "JUnit report %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}
