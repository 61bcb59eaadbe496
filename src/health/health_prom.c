/* health_prom.c - the monitor's counters as a node_exporter textfile (see
 * health_prom.h). */
#include "config.h"

#include "health/health_prom.h"

#include <stdio.h>

#include "atomicfile.h"
#include "report/report.h"

static void head(FILE *fp, const char *name, const char *type, const char *help)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{source="...",test="..."} v (test may be NULL) */
static void sample(FILE *fp, const char *name, const char *source, const char *test, double v)
{
	fprintf(fp, "%s{source=\"", name);
	report_prom_label(fp, source);
	if (test)
		fprintf(fp, "\",test=\"%s", test);
	fprintf(fp, "\"} %.17g\n", v);
}

int health_prom_write(const char *path, const char *source,
		      const struct health_monitor_results *r, double now, struct err *e)
{
	const struct health_result *t[] = { &r->rct, &r->apt, &r->prop };
	const char *names[] = { "rct", "apt", "proportion" };
	struct atomicfile af;
	FILE *fp;
	int rc;

	if ((rc = atomicfile_open(&af, path, e)))
		return rc;
	fp = af.fp;
	head(fp, "rngaudit_health_samples_total", "counter",
	     "Samples health-tested (SP 800-90B 4.4) since the monitor started.");
	sample(fp, "rngaudit_health_samples_total", source, NULL, (double)r->samples);
	head(fp, "rngaudit_health_failures_total", "counter",
	     "Health-test failures: a source meeting its claim fails with probability alpha over the horizon.");
	for (size_t i = 0; i < 3; i++)
		sample(fp, "rngaudit_health_failures_total", source, names[i], (double)t[i]->failures);
	if (r->words_checked)
		sample(fp, "rngaudit_health_failures_total", source, "words", (double)r->words.failures);
	head(fp, "rngaudit_health_alarms_total", "counter",
	     "Intermittent alarms (not failures): compare with rngaudit_health_alarms_expected.");
	for (size_t i = 0; i < 3; i++)
		sample(fp, "rngaudit_health_alarms_total", source, names[i], (double)t[i]->alarms);
	head(fp, "rngaudit_health_alarms_expected", "gauge",
	     "Alarms a source meeting its claim exactly gives in as many samples.");
	for (size_t i = 0; i < 3; i++)
		sample(fp, "rngaudit_health_alarms_expected", source, names[i], t[i]->expected_alarms);
	head(fp, "rngaudit_health_entropy_claim_bits", "gauge",
	     "Claimed min-entropy per sample behind the cutoffs.");
	sample(fp, "rngaudit_health_entropy_claim_bits", source, NULL, r->entropy);
	head(fp, "rngaudit_health_alpha", "gauge",
	     "False-failure probability over the horizon (per window with --per-window).");
	sample(fp, "rngaudit_health_alpha", source, NULL, r->alpha);
	head(fp, "rngaudit_health_beyond_horizon", "gauge",
	     "1 once more samples were tested than alpha was made to cover.");
	sample(fp, "rngaudit_health_beyond_horizon", source, NULL, r->beyond_horizon);
	head(fp, "rngaudit_health_last_update_timestamp_seconds", "gauge",
	     "When this file was written (Unix time).");
	sample(fp, "rngaudit_health_last_update_timestamp_seconds", source, NULL, now);
	return atomicfile_commit(&af, e);
}
