/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report_json.h - the audit and `rngaudit sources` as JSON documents, for
 * programs: typed (numbers as numbers, booleans as booleans, what is not
 * known as null), every fact of the CSV row and what a row cannot hold
 * (each estimator's figures, the reasons as a list, the kernel context as
 * an object).  Their shapes are versioned JSON Schema documents shipped in
 * data/ (rngaudit-audit-N.schema.json, rngaudit-sources-N.schema.json, N
 * the schema_version each document carries).
 *
 * The writers build the document from the structures the other writers
 * read (report.h), one function per object (json_audit.c,
 * json_context.c), so a field added there is one line here and one
 * property in the schema. */
#ifndef RNGAUDIT_REPORT_JSON_H
#define RNGAUDIT_REPORT_JSON_H
#include <stddef.h>
#include <stdio.h>

#include "audit/kernel.h"
#include "audit/sysinfo.h"
#include "err.h"
#include "report/json.h"
#include "report/report.h"
#include "sources/source.h"

/* The schema versions written; a new field that old readers may ignore
 * keeps the version, a field renamed, retyped or removed takes the next. */
#define REPORT_JSON_AUDIT_SCHEMA 1
#define REPORT_JSON_SOURCES_SCHEMA 1

/* The audit document, written whole or not at all through atomicfile.h;
 * path "-" is stdout.  A run stopped early (r->partial) is marked so. */
int report_json_write(const char *path, const struct report_run *r, struct err *e);

/* `rngaudit sources --format json` on fp: the machine, the kernel context
 * and the probe of each real source (probes NULL, n 0: not probed, as from
 * a sysroot). */
int report_sources_json_write(FILE *fp, const struct sysinfo *si, const struct kernel_ctx *k,
			      const struct source_probe *probes, size_t n, struct err *e);

/* The pieces both documents share (json_context.c): obj's member key set
 * to the machine's identity or the kernel's context.  0 or ERR_NOMEM. */
int report_json_machine(struct json *obj, const char *key, const struct sysinfo *si);
int report_json_kernel(struct json *obj, const char *key, const struct kernel_ctx *k);
/* obj.key = s, or null when s is empty: a text the writers did not learn. */
int report_json_text(struct json *obj, const char *key, const char *s);
/* obj.key = x, or null when !known or x is not finite. */
int report_json_real(struct json *obj, const char *key, int known, double x);
/* obj.key = true / false / null for KERNEL_ON / KERNEL_OFF / unknown. */
int report_json_tri(struct json *obj, const char *key, enum kernel_tri t);
/* obj.key = the words of s (separated by spaces, commas or bars) as an array. */
int report_json_words(struct json *obj, const char *key, const char *s);
#endif
