/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_out.c - see nist_out.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli_util.h"
#include "cli/nist_out.h"

static char *noted;   /* the run's words, from nist_note_commandline() */

void nist_note_commandline(int argc, char **argv)
{
	free(noted);
	noted = nist_json_commandline("rngaudit", argc, argv);
}

int nist_json_save(const char *cmd, const char *path, struct json *doc)
{
	struct err e;
	int rc = 0;

	if (!doc || nist_json_stamp(doc, noted ? noted : "rngaudit", time(NULL)) != 0) {
		json_free(doc);
		return cli_error(cmd, "%s: out of memory building the JSON report", path);
	}
	err_clear(&e);
	if (nist_json_write_file(path, doc, &e) != 0)
		rc = cli_error_err(cmd, &e);
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
