/* nist_out.h - what the NIST-compatible commands (assess, iid, restart,
 * conditioning) share in the manner of NIST's SP800-90B tools: the -o JSON
 * file and --version. */
#ifndef RNGAUDIT_NIST_OUT_H
#define RNGAUDIT_NIST_OUT_H
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
/* Remembers the command's words for NIST's "commandline" before getopt
 * permutes them (NIST's recreateCommandLine runs first too). */
void nist_note_commandline(int argc, char **argv);
/* Adds NIST's "commandline" ("rngaudit" and the noted words) and
 * "dateTimeStamp" (YYYYMMDDhhmmss, local time) to doc, writes it to path
 * through atomicfile (whole or not at all; "-" is stdout) and frees it.
 * doc NULL means it could not be built (out of memory).  Returns 0, or
 * prints one line naming cmd and path and returns EXIT_ERROR. */
int nist_json_save(const char *cmd, const char *path, struct json *doc);
/* --version: rngaudit's version and the NIST tool (name as NIST's
 * printVersion says it) it is compatible with.  Returns EXIT_OK. */
int nist_print_version(const char *cmd, const char *nist_name);
#endif
