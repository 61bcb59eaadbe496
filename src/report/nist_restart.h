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
/* H_r, H_c, H_I and the validation's verdict, min(H_r, H_c, H_I). */
void nist_restart_print_result(FILE *fp, const struct restart_result *r, int verbose);
/* NIST's -o document for r; NULL when out of memory. */
struct json *nist_restart_json(const char *path, const char *sha256, const struct restart_result *r);
#endif
