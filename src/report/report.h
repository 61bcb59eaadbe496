/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "audit/baseline.h"
#include "audit/classify.h"
#include "audit/kernel.h"
#include "audit/policy.h"
#include "audit/trust.h"
#include "sources/source.h"
#include "audit/sysinfo.h"
#include "audit/verdict.h"

struct report_source {
	char requested[256];          /* the spec as asked for */
	int available;                /* 0: could not be opened (why says why) */
	char why[256];
	struct source_info info;      /* valid when available; when not, its name,
					 kind, word_bits and device are if kind_known */
	int kind_known;               /* unavailable, but source_describe() knew it */
	char kind_basis[CLASSIFY_BASIS_MAX];   /* why info.kind (classify.h): every report reads
					 the one decision */
	struct source_counters counters;
	struct engine_stats stats;
	uint64_t samples;
	unsigned bits;                /* K */
	int health_ran;
	struct health_monitor_results health;
	int est_ran;
	struct noniid_report est;
	double est_seconds;
	int ideal_known;              /* what an ideal source of this width and size scores */
	struct baseline_cell ideal;   /* (baseline.h), when est_ran */
	int required;                 /* named in the policy's `required` */
	struct verdict verdict;
	struct trust_decision trust;  /* what the kernel should trust of it (trust.h) */
};

struct report_run {
	struct sysinfo sys;
	struct kernel_ctx kernel;     /* what the kernel trusts (kernel.h) */
	time_t finished;              /* wall-clock time the audit finished */
	double seconds;               /* its duration */
	const char *tool_version;     /* PACKAGE_VERSION */
	const struct policy *policy;
	int partial;                  /* interrupted: some sources stopped early */
	int strict;                   /* --strict: warnings fail */
	int junit_host;               /* --junit-host: JUnit classnames name the host */
	size_t width;                 /* the text report's width (textwrap.h); 0: 80 columns */
	size_t n;
	struct report_source *src;
};

/* The CSV's schema version, written in its `schema` column: 1 was the 59
 * columns up to `reasons` (no schema column), 2 added the kernel trust and
 * the schema column (the 70th), 3 the typed credit, the health alarms and
 * the policy's floors after it, 4 (issue 23) the classification and what
 * the kernel credits per source, 5 (issue 26) no column but one form for
 * booleans: true, false or empty (4 wrote 0/1, yes/no/unknown and
 * on/off/unknown).  Each schema's columns begin with the older one's;
 * data/rngaudit-audit-csv-N.tableschema.json types schema N's. */
#define REPORT_CSV_SCHEMA 5
#define REPORT_CSV_SCHEMA_TEXT "5"
/* Schema 1's, 2's, 3's and 4's columns: the first 59, 70, 79 and 87 of
 * report_csv_columns; 4 added the source's classification, the ideal-source
 * baseline, the kernel's per-source credit and its version facts, and 5 is
 * as wide as 4 (its rows' schema column tells them apart). */
#define REPORT_CSV_V1_NCOLUMNS 59
#define REPORT_CSV_V2_NCOLUMNS 70
#define REPORT_CSV_V3_NCOLUMNS 79
#define REPORT_CSV_V4_NCOLUMNS 87
#define REPORT_CSV_SCHEMA_COL 69      /* 0-based index of `schema` */

/* The boolean columns (true, false or empty in schema 5), NULL-terminated;
 * what schemas 1 to 4 wrote there reads back as those (csvread.h). */
extern const char *const report_csv_bool_columns[];

/* The CSV columns, in order (documented in rngaudit-audit(1)); NULL-terminated. */
extern const char *const report_csv_columns[];
size_t report_csv_ncolumns(void);

/* One line per source, then its reasons; on fp (stdout), within r->width
 * columns (textwrap.h: no source spec is ever cut). */
int report_text_write(FILE *fp, const struct report_run *r, struct err *e);

/* path "-" = stdout. */
int report_csv_write(const char *path, const struct report_run *r, struct err *e);
int report_junit_write(const char *path, const struct report_run *r, struct err *e);
int report_prom_write(const char *path, const struct report_run *r, struct err *e);

/* ISO 8601 UTC ("2026-12-03T01:20:00Z") into buf. */
const char *report_iso_time(time_t t, char *buf, size_t len);

/* `rngaudit report merge`: reads audit CSVs (report/csvread.h: libcsv
 * strict mode, the header must be report_csv_columns), keeps each row once
 * by (host, timestamp, source) (the first read), groups the rows by
 * (cpu_vendor, cpu_family, cpu_model, microcode, source) and writes one row
 * per group: hosts, runs, pass/warn/fail/unavailable counts, min and median
 * h_assessed.  O(rows log rows) time; memory grows with the distinct hosts,
 * groups and rows kept.  Any malformed input is one ERR_DATA line naming
 * FILE:LINE, text echoed from the input escaped (err_escape()).
 *
 * In steps, as the command does and as a fuzz target can (none of these
 * prints or exits):
 *     struct merge *m;
 *     report_merge_create(&m, e);
 *     report_merge_add_file(m, path, e);           (or _add_buffer, any number)
 *     report_merge_write(m, out, e);                (or _print to a FILE *)
 *     report_merge_free(m);
 * After an add fails (e says why), m keeps the rows read before the error
 * and stays usable; the command then writes nothing. */
struct merge;
int report_merge_create(struct merge **m, struct err *e);
/* Reads one audit CSV file. */
int report_merge_add_file(struct merge *m, const char *path, struct err *e);
/* The same from len bytes in memory. */
int report_merge_add_buffer(struct merge *m, const char *name, const void *data, size_t len,
			    struct err *e);
/* Writes the merged CSV to fp (ERR_IO on a write error; nothing closed). */
int report_merge_print(struct merge *m, FILE *fp, struct err *e);
/* Writes it whole or not at all through atomicfile.h; out "-" is stdout. */
int report_merge_write(struct merge *m, const char *out, struct err *e);
void report_merge_free(struct merge *m);

/* All of the above for the files at paths; nothing is written unless every
 * file reads cleanly. */
int report_merge(const char *const *paths, size_t npaths, const char *out, struct err *e);

/* One merged group (one row of the merged CSV): its key, in the order of
 * report_merge_columns, and its figures. */
#define REPORT_MERGE_NKEY 7
struct report_merge_group {
	const char *value[REPORT_MERGE_NKEY];   /* vendor, family, model, microcode, virtualized,
						   kernel_release, source */
	size_t len[REPORT_MERGE_NKEY];
	unsigned long family, model;            /* as numbers, for the order */
	unsigned long hosts, runs, counts[4];   /* pass, warn, fail, unavailable */
	size_t nh;                              /* rows with an h_assessed */
	double h_min, h_median;
	unsigned long trust_hosts;              /* hosts whose kernel credits the CPU RNG */
	unsigned long trust_failed;             /* of those, hosts where this source failed */
	int credit_role;                        /* some kernel setting credits this source */
	unsigned long credited_hosts;           /* hosts whose kernel credits this source (the CPU
						   RNG: trust_cpu and not cleared; hwrng: quality) */
	unsigned long credited_failed;          /* of those, hosts where this source failed */
	const char *rec;                        /* the recommendation that holds; "" none */
	size_t reclen;
	int policy_known;                       /* every row gave the same K and floors: */
	double bits, fail_below, warn_below;    /* bits_per_sample, policy_*_below (per bit) */
};

/* The groups, aggregated and in the merged CSV's order (*g NULL when
 * none); the caller frees *g.  Strings point into m. */
int report_merge_groups(struct merge *m, struct report_merge_group **g, size_t *n, struct err *e);

/* The merged table for people (`report merge --format text`): one line per
 * group, the recommendation last. */
int report_merge_print_text(struct merge *m, FILE *fp, struct err *e);
/* 1: report_merge_write() writes that table instead of the CSV. */
void report_merge_set_text(struct merge *m, int text);
/* The width its notes are wrapped to (textwrap.h; 0: 80 columns). */
void report_merge_set_width(struct merge *m, size_t width);
size_t report_merge_width(const struct merge *m);

/* The merged CSV's columns; NULL-terminated. */
extern const char *const report_merge_columns[];

#endif
