/* report.h - the audit's writers (text, CSV, JUnit XML, Prometheus textfile)
 * and the fleet merge of many hosts' CSVs.
 *
 * Writers take one struct report_run (the machine, the policy and one
 * struct report_source per audited source, in a stable order) and never
 * print on their own: files go through atomicfile.h (temporary + rename),
 * so a reader never sees half a report.  Numbers are written with the "C"
 * locale's decimal point.
 */
#ifndef RNGAUDIT_REPORT_H
#define RNGAUDIT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "engine/engine.h"
#include "err.h"
#include "estimators/noniid.h"
#include "health/health_monitor.h"
#include "audit/policy.h"
#include "sources/source.h"
#include "audit/sysinfo.h"
#include "audit/verdict.h"

struct report_source {
	char requested[256];          /* the spec as asked for */
	int available;                /* 0: could not be opened (why says why) */
	char why[256];
	struct source_info info;      /* valid when available */
	struct source_counters counters;
	struct engine_stats stats;
	uint64_t samples;
	unsigned bits;                /* K */
	int health_ran;
	struct health_monitor_results health;
	int est_ran;
	struct noniid_report est;
	double est_seconds;
	int required;                 /* named in the policy's `required` */
	struct verdict verdict;
};

struct report_run {
	struct sysinfo sys;
	time_t finished;              /* wall-clock time the audit finished */
	double seconds;               /* its duration */
	const char *tool_version;     /* PACKAGE_VERSION */
	const struct policy *policy;
	int partial;                  /* interrupted: some sources stopped early */
	int strict;                   /* --strict: warnings fail */
	size_t n;
	struct report_source *src;
};

/* The CSV columns, in order (documented in rngaudit-audit(1)); NULL-terminated. */
extern const char *const report_csv_columns[];
size_t report_csv_ncolumns(void);

/* One line per source, then its reasons; on fp (stdout). */
int report_text_write(FILE *fp, const struct report_run *r, struct err *e);

/* path "-" = stdout. */
int report_csv_write(const char *path, const struct report_run *r, struct err *e);
int report_junit_write(const char *path, const struct report_run *r, struct err *e);
int report_prom_write(const char *path, const struct report_run *r, struct err *e);

/* ISO 8601 UTC ("2026-12-03T01:20:00Z") into buf. */
const char *report_iso_time(time_t t, char *buf, size_t len);

/* `rngaudit report merge`: reads the CSVs (libcsv strict mode; the header
 * must be report_csv_columns), groups rows by (cpu_vendor, cpu_family,
 * cpu_model, microcode, source) and writes one row per group: hosts, runs,
 * pass/warn/fail/unavailable counts, min and median h_assessed.  Any
 * malformed input is an ERR_DATA naming FILE:LINE, and nothing is written. */
int report_merge(const char *const *paths, size_t npaths, const char *out, struct err *e);

/* The merged CSV's columns; NULL-terminated. */
extern const char *const report_merge_columns[];

#endif
