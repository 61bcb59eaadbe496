/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json_sources.c - `rngaudit sources --format json` (report_json.h),
 * shaped by data/rngaudit-sources-1.schema.json: the machine, what its
 * kernel trusts (the same objects as the audit document's) and each real
 * source's probe; "sources" is null when they were not probed (a sysroot
 * describes another machine). */
#include "config.h"

#include "report/report_json.h"
#include "sources/widefmt.h"

static int probe_object(struct json *arr, const struct source_probe *p)
{
	struct json *o;
	int rc = json_append_new(arr, JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= json_set_string(o, "name", p->name);
	rc |= json_set_bool(o, "available", p->available);
	rc |= report_json_text(o, "unavailable_reason", p->available ? "" : p->why);
	rc |= report_json_text(o, "device", p->device);
	rc |= json_set_int(o, "word_bits", p->word_bits);
	rc |= json_set_string(o, "kind", source_kind_token(p->kind));
	rc |= json_set_bool(o, "conditioned", p->kind != SOURCE_RAW);
	rc |= json_set_string(o, "output", p->what[0] ? p->what : source_kind_describe(p->kind));
	rc |= report_json_text(o, "detail", p->detail);
	return rc ? ERR_NOMEM : 0;
}

int report_sources_json_write(FILE *fp, const struct sysinfo *si, const struct kernel_ctx *k,
			      const struct source_probe *probes, size_t n, struct err *e)
{
	struct json *doc = json_new(JSON_OBJECT), *arr;
	int rc;

	if (!doc)
		return err_set(e, ERR_NOMEM, "sources: out of memory for the JSON document");
	rc = json_set_string(doc, "schema", "rngaudit-sources");
	rc |= json_set_int(doc, "schema_version", REPORT_JSON_SOURCES_SCHEMA);
	rc |= json_set_string(doc, "tool_version", PACKAGE_VERSION);
	rc |= report_json_machine(doc, "machine", si);
	rc |= report_json_kernel(doc, "kernel", k);
	if (!probes) {
		rc |= json_set_null(doc, "sources");
	} else if ((rc |= json_set_new(doc, "sources", JSON_ARRAY, &arr)) == 0) {
		for (size_t i = 0; rc == 0 && i < n; i++)
			rc |= probe_object(arr, &probes[i]);
	}
	rc |= report_json_words(doc, "sample_formats", WIDEFMT_NAMES);
	if (rc != 0) {
		json_free(doc);
		return err_set(e, ERR_NOMEM, "sources: out of memory for the JSON document");
	}
	rc = json_write(fp, doc);
	json_free(doc);
	return rc != 0 ? err_set(e, ERR_IO, "sources: write error") : 0;
}
