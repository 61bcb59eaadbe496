/* nist_out.c - see nist_out.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomicfile.h"
#include "cli/cli_util.h"
#include "cli/nist_out.h"

static char *noted;   /* the run's words, from nist_note_commandline() */

/* recreateCommandLine (shared/utils.h): the words joined by one space. */
static char *nist_commandline(int argc, char **argv)
{
	size_t len = sizeof "rngaudit";
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (!(s = malloc(len)))
		return NULL;
	strcpy(s, "rngaudit");
	for (int i = 0; i < argc; i++) {
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

void nist_note_commandline(int argc, char **argv)
{
	free(noted);
	noted = nist_commandline(argc, argv);
}

int nist_json_save(const char *cmd, const char *path, struct json *doc)
{
	struct atomicfile af;
	struct err e;
	char stamp[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	const char *line = noted ? noted : "rngaudit";
	int rc = 0;

	/* getCurrentTimestamp (shared/TestRunUtils.h): local time, no separators */
	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
	if (!doc || json_set_string(doc, "commandline", line) != 0 ||
	    json_set_string(doc, "dateTimeStamp", stamp) != 0) {
		json_free(doc);
		return cli_error(cmd, "%s: out of memory building the JSON report", path);
	}
	err_clear(&e);
	if (atomicfile_open(&af, path, &e) != 0) {
		json_free(doc);
		return cli_error_err(cmd, &e);
	}
	if (json_write(af.fp, doc) != 0) {
		atomicfile_abort(&af);
		rc = cli_error(cmd, "%s: write failed", path);
	} else if (atomicfile_commit(&af, &e) != 0) {
		rc = cli_error_err(cmd, &e);
	}
	json_free(doc);
	return rc;
}

int nist_print_version(const char *cmd, const char *nist_name)
{
	printf("rngaudit %s %s\n", cmd, PACKAGE_VERSION);
	printf("Its options and outputs follow NIST's %s %s (SP800-90B_EntropyAssessment "
	       "commit 68ed165); see rngaudit-%s(1) for the differences.\n",
	       nist_name, NIST_TOOL_VERSION, cmd);
	return cli_finish_stdout(EXIT_OK);
}
