/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_restart.h - the 90B 3.1.4 restart tests in the words of NIST's
 * ea_restart (SP800-90B_EntropyAssessment commit 68ed165, version 1.1.7):
 * its text at each verbosity (NIST_QUIET .. NIST_EXTRA, report/nist_noniid.h),
 * in the order restart_main.cpp prints it, on the stream given; and its -o
 * document (type "Restart"). */
#ifndef RNGAUDIT_NIST_RESTART_H
#define RNGAUDIT_NIST_RESTART_H
#include <stddef.h>
#include <stdio.h>

#include "report/json.h"
#include "restart/restart.h"

/* From "Loaded ..." to the sanity check's verdict (n samples read). */
void nist_restart_print_sanity(FILE *fp, const struct restart_result *r, size_t n, int verbose);
/* The validation test's estimators, rows and columns: "Running ... tests"
 * and each estimator's lines (the IID track: MCV, chi-square, LRS test). */
void nist_restart_print_validation(FILE *fp, const struct restart_result *r, int verbose);
/* The IID track's verdicts over rows and columns (chi-square, LRS test,
 * every permutation run). */
int nist_restart_chi_passed(const struct restart_result *r);
int nist_restart_lrs_passed(const struct restart_result *r);
int nist_restart_perm_passed(const struct restart_result *r);
/* Permutation run k of the IID track (r->perm[k]), as ea_iid prints one;
 * progress_threads > 0: with ea_iid -v's line after each shuffle. */
void nist_restart_print_perm(FILE *fp, const struct restart_result *r, int k, int verbose,
			     int progress_threads, int tty);
/* "** Passed IID permutation tests" (all runs) or its -vv form. */
void nist_restart_print_perm_verdict(FILE *fp, const struct restart_result *r, int verbose);
/* H_r, H_c, H_I and the validation's verdict, min(H_r, H_c, H_I). */
void nist_restart_print_result(FILE *fp, const struct restart_result *r, int verbose);
/* NIST's -o document for r, errorLevel -1 and NIST's message when the
 * sanity check or the validation failed; NULL when out of memory. */
struct json *nist_restart_json(const char *path, const char *sha256, const struct restart_result *r);
#endif
