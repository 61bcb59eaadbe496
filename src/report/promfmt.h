/* SPDX-License-Identifier: GPL-3.0-or-later */
/* promfmt.h - the Prometheus text exposition format (0.0.4) as node_exporter's
 * textfile collector reads it: what the audit's textfile (report/prom.c) and
 * health --follow's (health/health_prom.c) have in common.
 *
 * A family's HELP and TYPE lines are written before its first sample, and
 * not at all when it has none, so every family in a file has samples.
 * Values are written as the format spells them (NaN, +Inf, -Inf) and never
 * as negative zero (-log2(1) is -0.0 in IEEE arithmetic; a "-0" sample reads
 * as a sign error).  Label values are escaped; callers pass no empty label
 * value (node_exporter cannot tell label="" from a missing label, and it
 * pads differing label sets with exactly that).
 *
 *   struct promfmt_family f;
 *   promfmt_family(&f, fp, "rngaudit_samples", PROMFMT_GAUGE, "Samples collected.");
 *   promfmt_sample(&f, (const char *[]){ "source", "sim:ideal", NULL }, 20000);
 */
#ifndef RNGAUDIT_PROMFMT_H
#define RNGAUDIT_PROMFMT_H

#include <stdio.h>

#define PROMFMT_GAUGE "gauge"
#define PROMFMT_COUNTER "counter"

struct promfmt_family {
	FILE *fp;
	const char *name;
	const char *type;     /* PROMFMT_GAUGE or PROMFMT_COUNTER */
	const char *help;
	int headed;           /* HELP and TYPE written */
};

/* Starts a family: nothing is written until its first sample. */
void promfmt_family(struct promfmt_family *f, FILE *fp, const char *name, const char *type,
		    const char *help);

/* name{l1="v1",...} value.  labels: name, value, name, value, ..., NULL
 * (NULL or { NULL }: no labels). */
void promfmt_sample(struct promfmt_family *f, const char *const *labels, double v);

/* A label value, escaped (backslash, double quote, newline) and valid
 * UTF-8 whatever s holds: a byte that is not UTF-8 or a control character
 * is written as the text of err_escape()'s escape ("\\xff"). */
void promfmt_label(FILE *fp, const char *s);

/* A sample value: the shortest of 15 to 17 significant digits that reads
 * back exactly (integers up to 2^53 exactly). */
void promfmt_value(FILE *fp, double v);

/* rngaudit_build_info{[source=...,]version=...,policy=...} 1: which build
 * and policy file wrote the file.  The audit's textfile and each health
 * --follow's carry it with one HELP text (node_exporter reads them from one
 * directory, and a family whose HELP differs between files loses samples)
 * and distinct labels (identical label sets in two files are a duplicate
 * series, which fails the scrape): source names the followed source, NULL
 * in the audit's, which covers many.  policy is the file it came from or
 * "built-in defaults". */
void promfmt_build_info(FILE *fp, const char *source, const char *version, const char *policy);

#endif
