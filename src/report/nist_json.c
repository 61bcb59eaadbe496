/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_json.c - see nist_json.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomicfile.h"
#include "report/nist_json.h"

char *nist_json_commandline(const char *first, int argc, char *const *argv)
{
	size_t len = (first ? strlen(first) : 0) + 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (!(s = malloc(len)))
		return NULL;
	strcpy(s, first ? first : "");
	for (int i = 0; i < argc; i++) {
		if (first || i > 0)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

struct json *nist_json_doc(int iid, const char *type, const char *path, const char *sha256,
			   struct json **cases)
{
	struct json *doc = json_new(JSON_OBJECT);
	int rc;

	*cases = NULL;
	if (!doc)
		return NULL;
	rc = json_set_bool(doc, "IID", iid);
	rc |= json_set_int(doc, "errorLevel", 0);
	rc |= json_set_string(doc, "toolVersion", NIST_TOOL_VERSION);
	rc |= json_set_string(doc, "type", type);
	if (path) {
		rc |= json_set_string(doc, "filename", path);
		rc |= json_set_string(doc, "sha256", sha256);
	}
	rc |= json_set_new(doc, "testCases", JSON_ARRAY, cases);
	if (rc != 0) {
		json_free(doc);
		*cases = NULL;
		return NULL;
	}
	return doc;
}

struct json *nist_json_doc_case(int iid, const char *type, const char *path, const char *sha256,
				const char *desc, struct json **tc)
{
	struct json *cases, *doc = nist_json_doc(iid, type, path, sha256, &cases);

	*tc = NULL;
	if (!doc)
		return NULL;
	if (json_append_new(cases, JSON_OBJECT, tc) != 0 || !*tc ||
	    json_set_string(*tc, "testCaseDesc", desc) != 0) {
		json_free(doc);
		*tc = NULL;
		return NULL;
	}
	return doc;
}

int nist_json_stamp(struct json *doc, const char *commandline, time_t when)
{
	char stamp[32] = "";
	struct tm tm;

	/* getCurrentTimestamp (shared/TestRunUtils.h): local time, no separators */
	if (localtime_r(&when, &tm))
		strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
	if (json_set_string(doc, "commandline", commandline) != 0 ||
	    json_set_string(doc, "dateTimeStamp", stamp) != 0)
		return ERR_NOMEM;
	return 0;
}

int nist_json_write_file(const char *path, const struct json *doc, struct err *e)
{
	struct atomicfile af;
	int rc;

	if ((rc = atomicfile_open(&af, path, e)) != 0)
		return rc;
	if (json_write(af.fp, doc) != 0) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "%s: write failed", path);
	}
	return atomicfile_commit(&af, e);
}
