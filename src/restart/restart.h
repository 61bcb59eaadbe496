/* SPDX-License-Identifier: GPL-3.0-or-later */
/* restart.h - SP 800-90B 3.1.4 restart tests.
 *
 * The input is the 1000 x 1000 restart matrix in "row dataset" order (row i =
 * the first 1000 samples after restart i).  The sanity check (3.1.4.3)
 * compares the largest symbol count in any row or column with X_cutoff; the
 * validation test (3.1.4.2) runs the IID (MCV) or non-IID (6.3) estimators on
 * the row and the column datasets and needs min(H_r, H_c) >= H_I / 2.
 *
 * X_cutoff: NIST's ea_restart (v1.1.7) estimates it by simulating 5,000,000
 * rows from the "inverted near-uniform" distribution with P(most likely) =
 * 2^-H_I and taking the (1 - alpha) quantile of the largest count.  We compute
 * the quantile that simulation converges to exactly, from the multinomial
 * distribution of the largest count (no randomness, same answer). */
#ifndef RNGAUDIT_RESTART_H
#define RNGAUDIT_RESTART_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "estimators/estimators.h"
#include "estimators/noniid.h"
#include "iid/iid.h"

#define RESTART_ROWS 1000
#define RESTART_COLS 1000
#define RESTART_SAMPLES (RESTART_ROWS * RESTART_COLS)
/* NIST's simulation size; its quantile index is floor((1-alpha) R) - 1 */
#define RESTART_SIM_ROUNDS 5000000UL

struct restart_result {
	int iid;                   /* 1: IID track (MCV only), 0: non-IID */
	unsigned bits, k;          /* bits per sample, alphabet size */
	int translated;
	double h_i;
	double alpha;              /* 1 - 0.99^(1/(r+c)) */
	int x_cutoff;
	int x_r, x_c, x_max;
	int sanity_passed;

	/* validation (only when the sanity check passed) */
	struct est_result row[NONIID_NEST], col[NONIID_NEST];
	unsigned char ran[NONIID_NEST];
	double h_r, h_c;
	/* IID track: 5.2 tests on the row and the column datasets (reported;
	 * as in NIST's tool they do not enter the verdict) */
	struct iid_chisq chi_ind[2], chi_gof[2];
	struct iid_lrs lrs[2];
	int validation_passed;     /* min(H_r, H_c) >= H_I / 2 */
	double h_min;              /* min(H_r, H_c, H_I) */
	/* IID track: 5.1 permutation tests (restart_permutation), perm_runs
	 * of them: rows then columns, or (as NIST's ea_restart) rows twice;
	 * reported like the 5.2 tests, outside the verdict */
	struct iid_perm_result perm[2];
	int perm_runs;
};

/* The largest count X_cutoff that passes the sanity check for k symbols and
 * entropy h_i, at significance alpha.  ERR_USAGE when h_i needs more symbols
 * (ceil(2^h_i)) than k. */
int restart_cutoff(double h_i, unsigned k, double alpha, int *x_cutoff, struct err *e);

/* Runs the sanity check and, if it passes, the validation test on
 * s[0..n-1] (n must be 1000000; values < 2^bits).  threads <= 0: 2. */
int restart_run(const uint8_t *s, size_t n, unsigned bits, double h_i, int iid, int threads,
		struct restart_result *r, struct err *e);

/* 90B 3.1.4.2, IID track: the 5.1 permutation tests on the row dataset
 * (columns = 0) or the column dataset (columns = 1, column j = sample j of
 * every restart) of the restart matrix s (as read, row i = restart i; n
 * must be RESTART_SAMPLES, values < 2^bits), with the options o. */
int restart_permutation(const uint8_t *s, size_t n, unsigned bits, int columns,
			const struct iid_perm_opts *o, struct iid_perm_result *r, struct err *e);

#endif
