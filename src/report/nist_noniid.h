/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_noniid.h - the non-IID track in the words of NIST's ea_non_iid
 * (SP800-90B_EntropyAssessment, commit 68ed165, prints version 1.1.7):
 * its four text levels (-q, default, -v, -vv) line for line, and its -o
 * JSON document (same keys, nesting and types). */
#ifndef RNGAUDIT_NIST_NONIID_H
#define RNGAUDIT_NIST_NONIID_H
#include <stdio.h>
#include "estimators/noniid.h"
#include "report/json.h"
#include "report/nist_json.h"
#include "sha256.h"

/* NIST's testCaseDesc of each estimator, by enum noniid_est: the JSON of
 * non_iid_main.cpp and restart_main.cpp */
extern const char *const nist_case_desc[NONIID_NEST];

/* NIST's verbosity levels (ea_non_iid's `verbose`): -q, none, -v, -vv. */
enum { NIST_QUIET = 0, NIST_NORMAL = 1, NIST_VERBOSE = 2, NIST_EXTRA = 3 };

struct nist_noniid_run {
	const char *path;          /* as given: NIST prints it as given */
	char sha256[SHA256_HEX];   /* of the bytes read */
	int have_block;            /* -l INDEX,SAMPLES given */
	size_t sub_index, sub_count;
	int conditioned;           /* -c */
	int verbose;               /* NIST_QUIET .. NIST_EXTRA */
	int opening_printed;       /* the "Opening file" line is out already (ea_non_iid
				      prints it before reading, as NIST does) */
};

/* The one line NIST's estimator prints about itself at -v (e.g. "Literal
 * MCV Estimate: mode = ..."), or its warning when it did not run; also
 * what ea_restart -v prints for rows and columns. */
void nist_print_estimate_v(FILE *fp, const char *label, const struct est_result *r);
/* The same at -vv: every intermediate on its own line. */
void nist_print_estimate_vv(FILE *fp, const char *label, const struct est_result *r);
/* Prints what ea_non_iid prints at run->verbose for this report. */
void nist_noniid_print(FILE *fp, const struct nist_noniid_run *run, const struct noniid_report *rep);
/* NIST's -o document for this report, without commandline and
 * dateTimeStamp (nist_json_stamp adds them); NULL when out of memory. */
struct json *nist_noniid_json(const struct nist_noniid_run *run, const struct noniid_report *rep);
#endif
