/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_prom.c - the monitor's counters as a node_exporter textfile (see
 * health_prom.h), written through report/promfmt.h.
 *
 * Names follow Prometheus' conventions as promtool checks them: what grows
 * for as long as the monitor runs is a counter ending in _total (samples,
 * failures, alarms, and the alarms expected, a sum over windows that only
 * grows, so that rate() of alarms and of expected alarms compare over any
 * range); the claim is a ratio, min-entropy per bit (a bit is not a base
 * unit).  No name here is also a name in the audit's textfile
 * (report/prom.c): node_exporter reads both from one directory, and a
 * family in two files with different HELP texts loses one file's samples. */
#include "config.h"

#include "health/health_prom.h"

#include <stdio.h>

#include "atomicfile.h"
#include "report/promfmt.h"

/* name{source="..."} v */
static void by_source(struct promfmt_family *f, const char *source, double v)
{
	promfmt_sample(f, (const char *const[]){ "source", source, NULL }, v);
}

/* name{source="...",test="..."} v */
static void by_test(struct promfmt_family *f, const char *source, const char *test, double v)
{
	promfmt_sample(f, (const char *const[]){ "source", source, "test", test, NULL }, v);
}

int health_prom_write(const char *path, const char *source, const char *policy,
		      const struct health_monitor_results *r, double now, struct err *e)
{
	const struct health_result *t[] = { &r->rct, &r->apt, &r->prop };
	const char *names[] = { "rct", "apt", "proportion" };
	struct promfmt_family f;
	struct atomicfile af;
	FILE *fp;
	int rc;

	if ((rc = atomicfile_open(&af, path, e)))
		return rc;
	fp = af.fp;
	promfmt_family(&f, fp, "rngaudit_health_samples_total", PROMFMT_COUNTER,
		       "Samples health-tested (SP 800-90B 4.4) since the monitor started.");
	by_source(&f, source, (double)r->samples);
	promfmt_family(&f, fp, "rngaudit_health_failures_total", PROMFMT_COUNTER,
		       "Health-test failures (rct, apt, proportion; words: the native-word checks): "
		       "a source meeting its claim fails with probability alpha over the horizon.");
	for (size_t i = 0; i < 3; i++)
		by_test(&f, source, names[i], (double)t[i]->failures);
	if (r->words_checked)
		by_test(&f, source, "words", (double)r->words.failures);
	promfmt_family(&f, fp, "rngaudit_health_alarms_total", PROMFMT_COUNTER,
		       "Health-test alarms (the lower alarm cutoffs, not failures): "
		       "compare with rngaudit_health_expected_alarms_total.");
	for (size_t i = 0; i < 3; i++)
		by_test(&f, source, names[i], (double)t[i]->alarms);
	promfmt_family(&f, fp, "rngaudit_health_expected_alarms_total", PROMFMT_COUNTER,
		       "Alarms a source meeting the claimed entropy would raise on average in as many samples; "
		       "alarms far above it say the claim is too high.");
	for (size_t i = 0; i < 3; i++)
		by_test(&f, source, names[i], t[i]->expected_alarms);
	promfmt_family(&f, fp, "rngaudit_health_claim_ratio", PROMFMT_GAUGE,
		       "Claimed min-entropy per bit of sample (0..1) behind the cutoffs.");
	by_source(&f, source, r->bits ? r->entropy / r->bits : 0);
	promfmt_family(&f, fp, "rngaudit_health_alpha", PROMFMT_GAUGE,
		       "False-failure probability over the horizon (per window with --per-window).");
	by_source(&f, source, r->alpha);
	promfmt_family(&f, fp, "rngaudit_health_beyond_horizon", PROMFMT_GAUGE,
		       "1 once more samples were tested than alpha was made to cover.");
	by_source(&f, source, r->beyond_horizon);
	promfmt_family(&f, fp, "rngaudit_health_last_update_timestamp_seconds", PROMFMT_GAUGE,
		       "When this file was written (Unix time).");
	by_source(&f, source, now);
	promfmt_build_info(fp, source, PACKAGE_VERSION, policy ? policy : "built-in defaults");
	if (ferror(fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "Prometheus textfile %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}
