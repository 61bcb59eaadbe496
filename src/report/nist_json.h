/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_json.h - the -o JSON document of NIST's SP800-90B tools
 * (test_run_base.h's fields), shared by the NIST-compatible commands
 * (assess, iid, restart, conditioning) and the ea_* names: built in memory
 * (report/json.h), stamped with the command line and the time, written to
 * a stream the caller gives or whole to a file. */
#ifndef RNGAUDIT_NIST_JSON_H
#define RNGAUDIT_NIST_JSON_H
#include <time.h>

#include "err.h"
#include "report/json.h"

/* The NIST tool version whose outputs these commands reproduce
 * (SP800-90B_EntropyAssessment commit 68ed165 prints 1.1.7): NIST's JSON
 * carries it as "toolVersion". */
#define NIST_TOOL_VERSION "1.1.7"

/* A new NIST document (test_run_base.h's fields): IID, errorLevel 0,
 * toolVersion, type, and filename and sha256 when path is not NULL, with an
 * empty "testCases" array in *cases; NULL when out of memory. */
struct json *nist_json_doc(int iid, const char *type, const char *path, const char *sha256,
			   struct json **cases);
/* The same with its one test case appended, "testCaseDesc" set to desc,
 * in *tc (ea_iid's and ea_conditioning's documents); NULL when out of memory. */
struct json *nist_json_doc_case(int iid, const char *type, const char *path, const char *sha256,
				const char *desc, struct json **tc);
/* recreateCommandLine (shared/utils.h): first (when not NULL) and the
 * words of argv joined by one space; malloc'd, NULL when out of memory. */
char *nist_json_commandline(const char *first, int argc, char *const *argv);
/* Adds NIST's "commandline" and "dateTimeStamp" (YYYYMMDDhhmmss, local
 * time of `when`) to doc.  Returns 0 or ERR_NOMEM. */
int nist_json_stamp(struct json *doc, const char *commandline, time_t when);
/* Writes doc to path through atomicfile (whole or not at all; "-" is
 * stdout).  Returns 0, or ERR_IO / the open error, e naming path. */
int nist_json_write_file(const char *path, const struct json *doc, struct err *e);
#endif
