/* SPDX-License-Identifier: GPL-3.0-or-later */
/* prom.c - the audit as a node_exporter textfile (Prometheus exposition
 * format 0.0.4, written through report/promfmt.h).  No sample carries a
 * client timestamp: node_exporter skips the whole file for one (CRIB 6); the
 * time goes in a _timestamp_seconds gauge.  Every sample of a family has the
 * same label names, and no label value is empty.  The values describe one
 * audit run, so they are gauges (no _total counters).
 *
 * Names follow Prometheus' conventions as promtool checks them: base units
 * only, and a bit is not one ("use base unit bytes"), so entropy figures
 * are ratios, min-entropy per bit of the K-bit samples (0..1), which also
 * puts them on the kernel's hwrng quality scale.  No name here is also a
 * name in health --follow's textfile (health/health_prom.c): node_exporter
 * reads both from one directory, and a family in two files with different
 * HELP texts loses one file's samples. */
#include "config.h"

#include "report/report.h"

#include "atomicfile.h"
#include "report/promfmt.h"

/* The kernel's hwrng quality scale: bits of entropy credited per 1024 bits
 * read (drivers/char/hw_random/core.c, rng_quality). */
#define PROM_HWRNG_QUALITY_FULL 1024.0

/* The health tests whose results carry alarms (health_monitor.h). */
#define PROM_NTESTS 3

static const char *src_name(const struct report_source *s)
{
	return s->available ? s->info.spec : s->requested;
}

/* name{source="..."} v */
static void by_source(struct promfmt_family *f, const struct report_source *s, double v)
{
	promfmt_sample(f, (const char *const[]){ "source", src_name(s), NULL }, v);
}

/* name{source="...",lname="lvalue"} v */
static void by_source2(struct promfmt_family *f, const struct report_source *s, const char *lname,
		       const char *lvalue, double v)
{
	promfmt_sample(f, (const char *const[]){ "source", src_name(s), lname, lvalue, NULL }, v);
}

static void write_sources(FILE *fp, const struct report_run *r)
{
	static const enum verdict_status statuses[] = {
		VERDICT_PASS, VERDICT_WARN, VERDICT_FAIL, VERDICT_UNAVAILABLE,
	};
	struct promfmt_family f;

	promfmt_family(&f, fp, "rngaudit_verdict", PROMFMT_GAUGE,
		       "Audit verdict per source: 1 for the current status (pass, warn, fail, unavailable), 0 for the others.");
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < sizeof statuses / sizeof statuses[0]; k++)
			by_source2(&f, &r->src[i], "status", verdict_status_name(statuses[k]),
				   r->src[i].verdict.status == statuses[k]);

	promfmt_family(&f, fp, "rngaudit_credibility_ratio", PROMFMT_GAUGE,
		       "How far the verdict can be leaned on, 0..1 (not an entropy).");
	for (size_t i = 0; i < r->n; i++)
		by_source(&f, &r->src[i], r->src[i].verdict.credibility);

	/* An unavailable source has its kind when its backend's probe knows it
	 * (kind_known, as in the CSV); else no sample (rngaudit_verdict says
	 * unavailable) rather than kind="". */
	promfmt_family(&f, fp, "rngaudit_source_info", PROMFMT_GAUGE,
		       "1 for each source whose kind is known (drbg, conditioned or raw), opened or not.");
	for (size_t i = 0; i < r->n; i++)
		if (r->src[i].available || r->src[i].kind_known)
			by_source2(&f, &r->src[i], "kind", source_kind_token(r->src[i].info.kind), 1);

	promfmt_family(&f, fp, "rngaudit_samples", PROMFMT_GAUGE, "Samples collected in the audit run.");
	for (size_t i = 0; i < r->n; i++)
		by_source(&f, &r->src[i], (double)r->src[i].samples);

	/* only the x86 instructions underflow (sources/x86rng.c counts CF=0);
	 * every other opened source reports 0, which the HELP says */
	promfmt_family(&f, fp, "rngaudit_underflow_ratio", PROMFMT_GAUGE,
		       "Fraction of calls that returned no random data (CF=0): RDRAND and RDSEED "
		       "sources only; 0 for every other source, absent for one not opened.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->available && s->counters.calls)
			by_source(&f, s, (double)s->counters.underflows / (double)s->counters.calls);
	}
}

/* SP 800-90B 4.4 health tests, per source and test, as in the text
 * report's HEALTH_CLAIM line (alarms against expected, issue 16). */
static void write_health(FILE *fp, const struct report_run *r)
{
	static const char *const tests[PROM_NTESTS] = { "rct", "apt", "proportion" };
	struct promfmt_family f;

	promfmt_family(&f, fp, "rngaudit_health_failures", PROMFMT_GAUGE,
		       "SP 800-90B 4.4 health-test failures in the audit run (rct, apt, proportion; words: the native-word checks).");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		const struct health_result *t[PROM_NTESTS] = { &s->health.rct, &s->health.apt, &s->health.prop };
		if (!s->health_ran)
			continue;
		for (size_t k = 0; k < PROM_NTESTS; k++)
			by_source2(&f, s, "test", tests[k], (double)t[k]->failures);
		if (s->health.words_checked)
			by_source2(&f, s, "test", "words", (double)s->health.words.failures);
	}

	promfmt_family(&f, fp, "rngaudit_health_alarms", PROMFMT_GAUGE,
		       "Health-test alarms in the audit run (the lower alarm cutoffs, not failures); "
		       "compare with rngaudit_health_expected_alarms.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		const struct health_result *t[PROM_NTESTS] = { &s->health.rct, &s->health.apt, &s->health.prop };
		if (s->health_ran)
			for (size_t k = 0; k < PROM_NTESTS; k++)
				by_source2(&f, s, "test", tests[k], (double)t[k]->alarms);
	}

	promfmt_family(&f, fp, "rngaudit_health_expected_alarms", PROMFMT_GAUGE,
		       "Alarms a source meeting the claimed entropy would raise on average in this run's samples; "
		       "alarms far above it say the claim is too high.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		const struct health_result *t[PROM_NTESTS] = { &s->health.rct, &s->health.apt, &s->health.prop };
		if (s->health_ran)
			for (size_t k = 0; k < PROM_NTESTS; k++)
				by_source2(&f, s, "test", tests[k], t[k]->expected_alarms);
	}

	promfmt_family(&f, fp, "rngaudit_word_events", PROMFMT_GAUGE,
		       "Native-word checks: all-zero, all-ones and repeated words seen.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (!s->health_ran || !s->health.words_checked)
			continue;
		by_source2(&f, s, "event", "zeros", (double)s->health.words.zeros.count);
		by_source2(&f, s, "event", "ones", (double)s->health.words.ones.count);
		by_source2(&f, s, "event", "repeats", (double)s->health.words.repeats.count);
	}
}

/* The 90B estimate per bit (h_assessed / K), as trust.c's h_per_bit. */
static void write_estimates(FILE *fp, const struct report_run *r)
{
	struct promfmt_family f;

	promfmt_family(&f, fp, "rngaudit_estimate_ratio", PROMFMT_GAUGE,
		       "SP 800-90B non-IID estimate, min-entropy per bit of sample (0..1): a statistical check only, "
		       "not an entropy credit, unless kind is raw (see rngaudit_entropy_credit_ratio).");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->est_ran && s->bits)
			by_source(&f, s, s->est.h_assessed / s->bits);
	}

	promfmt_family(&f, fp, "rngaudit_ideal_estimate_ratio", PROMFMT_GAUGE,
		       "What an ideal source of the same width and sample count scores in the estimators, per bit "
		       "(0.1% quantile of simulated runs: their downward bias); an estimate above it is no "
		       "evidence of a weak source.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->est_ran && s->ideal_known && s->ideal.bits)
			by_source(&f, s, s->ideal.low / s->ideal.bits);
	}

	promfmt_family(&f, fp, "rngaudit_entropy_credit_ratio", PROMFMT_GAUGE,
		       "Assessed min-entropy per bit of sample (0..1) of raw noise sources that did not fail.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->est_ran && s->bits && s->verdict.entropy_credit)
			by_source(&f, s, s->est.h_assessed / s->bits);
	}
}

/* What the kernel trusts (host-wide, absent when unknown) and what the
 * audit recommends. */
static void write_kernel(FILE *fp, const struct report_run *r)
{
	struct promfmt_family f;

	promfmt_family(&f, fp, "rngaudit_kernel_trust_cpu", PROMFMT_GAUGE,
		       "1 if the kernel credits the CPU RNG at boot (random.trust_cpu on), 0 if not.");
	if (r->kernel.trust_cpu.state != KERNEL_UNKNOWN)
		promfmt_sample(&f, NULL, r->kernel.trust_cpu.state == KERNEL_ON);

	promfmt_family(&f, fp, "rngaudit_kernel_hwrng_quality_ratio", PROMFMT_GAUGE,
		       "Entropy the kernel credits per bit read from the current hwrng (its quality / 1024). "
		       "A DRBG hwrng (virtio-rng) has no rngaudit_entropy_credit_ratio to compare it with: "
		       "its statistics cannot support or refute a credit (rngaudit_source_info kind).");
	if (r->kernel.hwrng_quality >= 0)
		promfmt_sample(&f, NULL, (double)r->kernel.hwrng_quality / PROM_HWRNG_QUALITY_FULL);

	promfmt_family(&f, fp, "rngaudit_kernel_credits", PROMFMT_GAUGE,
		       "1 if the kernel credits this source's output as entropy (rdrand, rdseed: random.trust_cpu "
		       "and the flag not cleared; hwrng: a quality above 0), 0 if not; absent when unknown.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->trust.role != TRUST_ROLE_NONE && s->trust.credited != KERNEL_UNKNOWN)
			by_source(&f, s, s->trust.credited == KERNEL_ON);
	}

	promfmt_family(&f, fp, "rngaudit_recommendation_change", PROMFMT_GAUGE,
		       "1 where the audit recommends a kernel setting that differs from the current one; "
		       "recommendation is the setting, or none.");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->trust.role != TRUST_ROLE_NONE)
			by_source2(&f, s, "recommendation",
				   s->trust.recommendation[0] ? s->trust.recommendation : "none", s->trust.change);
	}
}

static void write_run(FILE *fp, const struct report_run *r)
{
	struct promfmt_family f;

	promfmt_family(&f, fp, "rngaudit_partial", PROMFMT_GAUGE,
		       "1 if the audit was interrupted and the figures rest on fewer samples.");
	promfmt_sample(&f, NULL, r->partial ? 1 : 0);
	promfmt_family(&f, fp, "rngaudit_duration_seconds", PROMFMT_GAUGE, "Wall time of the audit run.");
	promfmt_sample(&f, NULL, r->seconds);
	promfmt_family(&f, fp, "rngaudit_last_run_timestamp_seconds", PROMFMT_GAUGE,
		       "Unix time the audit finished.");
	promfmt_sample(&f, NULL, (double)r->finished);
	promfmt_build_info(fp, NULL, r->tool_version ? r->tool_version : "unknown",
			   r->policy ? r->policy->origin : "built-in defaults");
}

int report_prom_write(const char *path, const struct report_run *r, struct err *e)
{
	struct atomicfile af;
	int rc;

	if ((rc = atomicfile_open(&af, path, e)) != 0)
		return rc;
	write_sources(af.fp, r);
	write_health(af.fp, r);
	write_estimates(af.fp, r);
	write_kernel(af.fp, r);
	write_run(af.fp, r);
	if (ferror(af.fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "Prometheus textfile %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}
