/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_iid.h - the IID track in the words of NIST's ea_iid
 * (SP800-90B_EntropyAssessment commit 68ed165, version 1.1.7): its text at
 * each verbosity (-q, default, -v, -vv: NIST_QUIET .. NIST_EXTRA of
 * report/nist_noniid.h), section by section in the order ea_iid prints
 * them, on the stream given; and its -o document: one test case with the
 * track's figures and verdicts and the permutation counters as three
 * "permutationTestResults" (C[i][0], C[i][1], C[i][2] of every statistic).
 * ea_restart -i prints its IID sections with the same functions. */
#ifndef RNGAUDIT_NIST_IID_H
#define RNGAUDIT_NIST_IID_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "estimators/estimators.h"
#include "iid/iid.h"
#include "report/json.h"

/* "Opening file: ..." (-v and more); sub_count 0: no -l block. */
void nist_iid_print_opening(FILE *fp, const char *path, const char *sha256, size_t sub_index,
			    size_t sub_count, int verbose);
/* The narrower-width warning and "Loaded N samples ..." (-v and more). */
void nist_iid_print_loaded(FILE *fp, const struct iid_data *d, int verbose);
/* From "Number of Binary samples" to the baseline statistics (nbits: the
 * bitstring's length; initial: -i, else -c). */
void nist_iid_print_baseline(FILE *fp, const struct iid_data *d, size_t nbits, int initial,
			     int verbose);
/* An MCV estimate (est_mcv or est_mcv_bits) as most_common.h prints it. */
void nist_iid_print_mcv(FILE *fp, const char *label, const struct est_result *r, int verbose);
/* H_original, H_bitstring and their minimum (or h' with -c). */
void nist_iid_print_entropy(FILE *fp, const struct iid_data *d, int initial, double h_original,
			    double h_bitstring, double h_assessed, int verbose);
/* One chi-square test (what: "independence" or "goodness of fit"). */
void nist_iid_print_chisq(FILE *fp, const char *what, const struct iid_chisq *c, int verbose);
/* "** Passed WHAT" (default, -v) or "WHAT3: Passed" (-vv). */
void nist_iid_print_verdict(FILE *fp, int verbose, int pass, const char *what, const char *what3);
/* The 5.2.5 test's figures (lrs_test.h len_LRS_test), label "Literal". */
void nist_iid_print_lrs(FILE *fp, const struct iid_lrs *lrs, int verbose);
/* "Beginning initial tests..." (-v). */
void nist_iid_print_perm_begin(FILE *fp, int verbose);
/* The statistics of the original ordering (-v, -vv) and, at -v,
 * "Beginning permutation tests...". */
void nist_iid_print_perm_initial(FILE *fp, const struct iid_perm_result *p, int verbose);
/* ea_iid -v's line after each shuffle (permutation_tests.h), from the
 * counters of a complete run (iid_perm_opts.full): shuffle i reports the
 * statistics decided by then, and the lines stop once all 19 are.  NIST
 * prints them as its threads finish; these are in shuffle order, the core
 * number naming worker i mod threads.  On a terminal (tty) each line
 * starts with a carriage return and has no core or newline, as NIST's. */
void nist_iid_print_progress(FILE *fp, const struct iid_perm_result *p, int threads, int tty);
/* The table of counters (-v, -vv); rows rngaudit stopped early say so. */
void nist_iid_print_perm_table(FILE *fp, const struct iid_perm_result *p, int verbose);

struct nist_iid_json_in {
	const char *path;
	const char *sha256;
	double mean, median;
	int binary;
	double h_original, h_bitstring;
	double h_assessed;      /* the correct one, whatever the verbosity */
	int chi_pass, lrs_pass;
	const struct iid_perm_result *perm;
};

/* Appends the three "permutationTestResults" of p (C[i][0], C[i][1],
 * C[i][2] of every statistic, iterations 0, 1, 2) to the array results. */
int nist_iid_json_counters(struct json *results, const struct iid_perm_result *p);
/* NULL when out of memory; nist_json_stamp() adds commandline and date. */
struct json *nist_iid_json(const struct nist_iid_json_in *in);
#endif
