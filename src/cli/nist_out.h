/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_out.h - what the NIST-compatible commands (assess, iid, restart,
 * conditioning) print or save in the manner of NIST's SP800-90B tools: the
 * -o JSON file (built by report/nist_json.h) and --version. */
#ifndef RNGAUDIT_NIST_OUT_H
#define RNGAUDIT_NIST_OUT_H
#include "report/nist_json.h"
#include "report/nist_iid.h"

/* Remembers the command's words for NIST's "commandline" before getopt
 * permutes them (NIST's recreateCommandLine runs first too). */
void nist_note_commandline(int argc, char **argv);
/* Adds NIST's "commandline" ("rngaudit" and the noted words) and
 * "dateTimeStamp" to doc, writes it to path (whole or not at all; "-" is
 * stdout) and frees it.  doc NULL means it could not be built (out of
 * memory).  Returns 0, or prints one line naming cmd and path and returns
 * EXIT_ERROR. */
int nist_json_save(const char *cmd, const char *path, struct json *doc);
/* --version: rngaudit's version and the NIST tool (name as NIST's
 * printVersion says it) it is compatible with.  Returns EXIT_OK. */
int nist_print_version(const char *cmd, const char *nist_name);
/* The IID track's figures before its permutation tests. */
struct nist_iid_pretests {
	double h_original, h_bitstring, h_assessed; /* 90B 5, 6.3.1 */
	int chi_pass, lrs_pass;                     /* 5.2 */
};
/* Prints, as NIST's iid tool does, the bitstring's baseline (nbits), the
 * MCV estimates, the entropy and the chi-square and LRS tests of d, and
 * fills out.  Shared by `rngaudit iid` and ea_iid.  Returns 0, or -1 with
 * e set. */
int nist_iid_print_pretests(const struct iid_data *d, size_t nbits, int initial, int verbose,
			    struct nist_iid_pretests *out, struct err *e);
#endif
