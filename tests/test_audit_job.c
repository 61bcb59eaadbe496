/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_audit_job.c - one source's audit is bounded by the machine
 * (src/audit/audit_job.c, issue 24 item 4): the estimators keep at most
 * keep_max samples, while the health tests see every one, and the verdict
 * says so (SAMPLES_CAPPED); keep_max shares the memory cap among the
 * sources audited at once, never under NIST's 10^6. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit_job.h"
#include "engine/samples.h"
#include "tap.h"

static int has_reason(const struct verdict *v, const char *code)
{
	for (size_t i = 0; i < v->nreasons; i++)
		if (strcmp(v->reasons[i].code, code) == 0)
			return 1;
	return 0;
}

int main(void)
{
	static struct audit_job j;
	static struct report_source out;
	static struct policy pol;
	struct quirk_table qt = { .n = 0 };
	struct quirk_cpu cpu = { .vendor = "" };
	size_t cap = samples_default_max();

	tap_eq_long((long long)audit_job_keep_max(1), (long long)(cap < SAMPLES_MAX_FLOOR ? SAMPLES_MAX_FLOOR : cap),
		    "one source keeps samples_default_max() samples");
	tap_eq_long((long long)audit_job_keep_max(4),
		    (long long)(cap / 4 < SAMPLES_MAX_FLOOR ? SAMPLES_MAX_FLOOR : cap / 4),
		    "four sources share it");
	tap_eq_long((long long)audit_job_keep_max((size_t)1 << 40), SAMPLES_MAX_FLOOR,
		    "never under NIST's 10^6");

	policy_defaults(&pol);
	snprintf(j.spec, sizeof j.spec, "sim:ideal");
	j.samples = 20000;
	j.samples_why = "-n";
	j.keep_max = 5000;
	j.bits = 8;
	j.policy = &pol;
	j.quirks = &qt;
	j.cpu = &cpu;
	j.named = 1;
	j.out = &out;
	audit_job_run(&j);
	tap_eq_long((long long)out.samples, 20000, "all 20000 samples collected");
	tap_eq_long((long long)out.health.samples, 20000, "the health tests saw all 20000");
	tap_ok(out.est_ran, "the estimators ran");
	tap_eq_long((long long)out.est.n, 5000, "on the first 5000 (keep_max) only");
	tap_ok(has_reason(&out.verdict, "SAMPLES_CAPPED"), "the verdict says so (SAMPLES_CAPPED)");
	noniid_report_free(&out.est);
	return tap_done();
}
