/* prom.c - the audit as a node_exporter textfile (Prometheus exposition
 * format 0.0.4).  No sample carries a client timestamp: node_exporter skips
 * the whole file for one (CRIB 6); the time goes in a _timestamp_seconds
 * gauge.  Every metric of a family has the same label names.  The values
 * describe one audit run, so they are gauges (no _total counters). */
#include "config.h"

#include "report/report.h"

#include <math.h>
#include <string.h>

#include "atomicfile.h"

void report_prom_label(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", fp);
		else if (*s == '"')
			fputs("\\\"", fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else
			fputc(*s, fp);
	}
}

static void head(FILE *fp, const char *name, const char *help)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static const char *src_name(const struct report_source *s)
{
	return s->available ? s->info.spec : s->requested;
}

static void sample(FILE *fp, const char *name, const struct report_source *s, const char *lname,
		   const char *lvalue, double v)
{
	fprintf(fp, "%s{source=\"", name);
	report_prom_label(fp, src_name(s));
	if (lname) {
		fprintf(fp, "\",%s=\"", lname);
		report_prom_label(fp, lvalue);
	}
	if (isnan(v))
		fputs("\"} NaN\n", fp);
	else
		fprintf(fp, "\"} %.17g\n", v);
}

int report_prom_write(const char *path, const struct report_run *r, struct err *e)
{
	static const enum verdict_status statuses[] = {
		VERDICT_PASS, VERDICT_WARN, VERDICT_FAIL, VERDICT_UNAVAILABLE,
	};
	struct atomicfile af;
	FILE *fp;
	int rc;

	if ((rc = atomicfile_open(&af, path, e)) != 0)
		return rc;
	fp = af.fp;

	head(fp, "rngaudit_verdict", "Audit verdict per source: 1 for the current status (pass, warn, fail, unavailable).");
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
			sample(fp, "rngaudit_verdict", &r->src[i], "status", verdict_status_name(statuses[k]),
			       r->src[i].verdict.status == statuses[k]);

	head(fp, "rngaudit_credibility_ratio", "How far the verdict can be leaned on, 0..1 (not an entropy).");
	for (size_t i = 0; i < r->n; i++)
		sample(fp, "rngaudit_credibility_ratio", &r->src[i], NULL, NULL, r->src[i].verdict.credibility);

	head(fp, "rngaudit_source_info", "Source identity: kind is drbg, conditioned or raw.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		sample(fp, "rngaudit_source_info", s, "kind", s->available ? source_kind_token(s->info.kind) : "",
		       1);
	}

	head(fp, "rngaudit_samples", "Samples collected in the audit run.");
	for (size_t i = 0; i < r->n; i++)
		sample(fp, "rngaudit_samples", &r->src[i], NULL, NULL, (double)r->src[i].samples);

	head(fp, "rngaudit_health_failures", "SP 800-90B 4.4 health-test failures in the audit run (rct, apt).");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (!s->health_ran)
			continue;
		sample(fp, "rngaudit_health_failures", s, "test", "rct", (double)s->health.rct.failures);
		sample(fp, "rngaudit_health_failures", s, "test", "apt", (double)s->health.apt.failures);
	}

	head(fp, "rngaudit_word_events", "Native-word checks: all-zero, all-ones and repeated words seen.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (!s->health_ran || !s->health.words_checked)
			continue;
		sample(fp, "rngaudit_word_events", s, "event", "zeros", (double)s->health.words.zeros.count);
		sample(fp, "rngaudit_word_events", s, "event", "ones", (double)s->health.words.ones.count);
		sample(fp, "rngaudit_word_events", s, "event", "repeats", (double)s->health.words.repeats.count);
	}

	head(fp, "rngaudit_underflow_ratio", "Fraction of RDRAND/RDSEED calls that returned CF=0.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->available && s->counters.calls)
			sample(fp, "rngaudit_underflow_ratio", s, NULL, NULL,
			       (double)s->counters.underflows / (double)s->counters.calls);
	}

	head(fp, "rngaudit_estimate_bits", "SP 800-90B non-IID estimate per sample; a statistical check only, "
	     "not an entropy credit, unless kind is raw (see rngaudit_entropy_credit_bits).");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->est_ran)
			sample(fp, "rngaudit_estimate_bits", s, NULL, NULL, s->est.h_assessed);
	}

	head(fp, "rngaudit_entropy_credit_bits", "Assessed min-entropy per sample of raw noise sources that did not fail.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->est_ran && s->verdict.entropy_credit)
			sample(fp, "rngaudit_entropy_credit_bits", s, NULL, NULL, s->est.h_assessed);
	}

	/* What the kernel trusts: host-wide gauges, absent when unknown. */
	head(fp, "rngaudit_kernel_trust_cpu", "1 if the kernel credits the CPU RNG at boot (random.trust_cpu on), 0 if not.");
	if (r->kernel.trust_cpu.state != KERNEL_UNKNOWN)
		fprintf(fp, "rngaudit_kernel_trust_cpu %d\n", r->kernel.trust_cpu.state == KERNEL_ON);
	head(fp, "rngaudit_hwrng_quality", "Bits of entropy the kernel credits per 1024 bits read from the current hwrng.");
	if (r->kernel.hwrng_quality >= 0)
		fprintf(fp, "rngaudit_hwrng_quality %ld\n", r->kernel.hwrng_quality);
	head(fp, "rngaudit_recommendation_change", "1 where the audit recommends a kernel setting that differs from the current one.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->trust.role != TRUST_ROLE_NONE)
			sample(fp, "rngaudit_recommendation_change", s, "recommendation", s->trust.recommendation,
			       s->trust.change);
	}

	head(fp, "rngaudit_partial", "1 if the audit was interrupted and the figures rest on fewer samples.");
	fprintf(fp, "rngaudit_partial %d\n", r->partial ? 1 : 0);
	head(fp, "rngaudit_duration_seconds", "Wall time of the audit run.");
	fprintf(fp, "rngaudit_duration_seconds %.6f\n", r->seconds);
	head(fp, "rngaudit_last_run_timestamp_seconds", "Unix time the audit finished.");
	fprintf(fp, "rngaudit_last_run_timestamp_seconds %lld\n", (long long)r->finished);

	if (ferror(fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "Prometheus textfile %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}
