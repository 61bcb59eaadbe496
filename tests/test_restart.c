/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_restart.c - SP 800-90B 3.1.4 restart tests: X_cutoff, the sanity
 * check, the row/column assessments and the validation of H_I.
 *
 * The restart matrices are generated here (xoshiro256** through iid_rng,
 * fixed seeds) so no 1 MB file is stored; `test_restart --write DIR` writes
 * them out, which is how NIST's ea_restart v1.1.7 was run on the very same
 * data to get the expected values below (tests/data/iid/README). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "restart/restart.h"

/* 4-bit IID uniform samples */
static void gen_uniform(uint8_t *s, unsigned bits, uint64_t seed)
{
	struct iid_rng g;
	iid_rng_seed(&g, seed, 0);
	for (size_t i = 0; i < RESTART_SAMPLES; i++)
		s[i] = (uint8_t)(iid_rng_next(&g) >> (64 - bits));
}

/* restart i repeats the same first sample in 300 of its 1000 positions: the
 * rows are far too predictable, the sanity check must fail */
static void gen_stuck_rows(uint8_t *s, uint64_t seed)
{
	gen_uniform(s, 4, seed);
	for (size_t i = 0; i < RESTART_ROWS; i++)
		for (size_t j = 0; j < 300; j++)
			s[i * RESTART_COLS + j * 3] = s[i * RESTART_COLS];
}

static void write_file(const char *dir, const char *name, const uint8_t *s)
{
	char path[4096];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(s, 1, RESTART_SAMPLES, f);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	uint8_t *s = malloc(RESTART_SAMPLES);
	struct restart_result *r = malloc(sizeof *r);
	struct err e;
	int x;
	const double alpha = 1.0 - exp(log(0.99) / 2000.0);

	if (argc == 3 && strcmp(argv[1], "--write") == 0) {
		gen_uniform(s, 4, 1);
		write_file(argv[2], "restart_u4.bin", s);
		gen_uniform(s, 1, 2);
		write_file(argv[2], "restart_u1.bin", s);
		gen_stuck_rows(s, 3);
		write_file(argv[2], "restart_stuck4.bin", s);
		return 0;
	}

	/* X_cutoff is the (1 - alpha) quantile NIST's 5,000,000-round simulation
	 * estimates.  Exact values, checked independently with Python (integer
	 * binomial sums for H_I = 1; exact rational multinomial sums for
	 * H_I = 3, where P(X_max <= 177) = 0.99999282 < 0.9999948 <=
	 * P(X_max <= 178) = 0.99999535).  NIST's simulated value wobbles by one
	 * around them (ea_restart printed 571 and 177 on the matrices below). */
	restart_cutoff(1.0, 2, alpha, &x, &e);
	tap_eq_long(x, 572, "X_cutoff for H_I = 1 (exact quantile)");
	restart_cutoff(3.0, 16, alpha, &x, &e);
	tap_eq_long(x, 178, "X_cutoff for H_I = 3 (exact quantile)");
	tap_eq_long(restart_cutoff(4.5, 16, 0.001, &x, &e), ERR_USAGE,
		    "H_I needing more symbols than the data has is rejected");

	/* uniform 1-bit matrix, H_I = 1: NIST ea_restart -v restart_u1.bin 1 1 */
	gen_uniform(s, 1, 2);
	tap_ok(restart_run(s, RESTART_SAMPLES, 1, 1.0, 0, 2, r, &e) == 0, "non-IID restart runs");
	tap_near(r->alpha, 5.0251553006530614e-06, 1e-20, "ALPHA as NIST (5.0251553006530614e-06)");
	tap_eq_long(r->x_max, 552, "X_max as NIST (552)");
	tap_ok(r->sanity_passed, "uniform bits pass the sanity check");
	tap_near(r->row[NONIID_MCV].h, 0.996191, 1e-6, "MCV (rows) as NIST (0.996191)");
	tap_near(r->row[NONIID_COMPRESSION].h, 0.849588, 1e-6, "compression (rows) as NIST");
	tap_near(r->col[NONIID_TUPLE].h, 0.943334, 1e-6, "t-tuple (cols) as NIST (0.943334)");
	tap_near(r->col[NONIID_LRS].h, 0.941635, 1e-6, "LRS (cols) as NIST (0.941635)");
	tap_near(r->h_r, 0.849588, 1e-6, "H_r as NIST (0.849588)");
	tap_near(r->h_c, 0.833948, 1e-6, "H_c as NIST (0.833948)");
	tap_ok(r->validation_passed, "validation passes for H_I = 1");
	tap_near(r->h_min, 0.833948, 1e-6, "min(H_r, H_c, H_I) as NIST (0.833948)");
	tap_ok(restart_run(s, RESTART_SAMPLES, 1, 1.0, 1, 2, r, &e) == 0, "IID restart runs");
	tap_near(r->h_r, 0.996191, 1e-6, "IID H_r is the MCV estimate (0.996191)");
	tap_ok(r->chi_ind[0].p >= IID_CHISQ_ALPHA && r->lrs[1].passed,
	       "IID restart: rows pass chi-square, columns pass LRS");

	/* uniform 4-bit matrix, H_I = 3.5 (inverted near-uniform: 11 symbols
	 * of 2^-3.5 and one of the rest): NIST ea_restart -v restart_u4.bin 4 3.5 */
	gen_uniform(s, 4, 1);
	tap_ok(restart_run(s, RESTART_SAMPLES, 4, 3.5, 0, 2, r, &e) == 0, "4-bit restart runs");
	tap_eq_long(r->x_cutoff, 135, "X_cutoff for H_I = 3.5 as NIST (135)");
	tap_eq_long(r->x_max, 93, "X_max as NIST (93)");
	tap_near(r->h_r, 3.885516, 1e-6, "4-bit H_r as NIST (3.885516)");
	tap_near(r->h_c, 3.687754, 1e-6, "4-bit H_c as NIST (3.687754)");
	tap_ok(r->validation_passed, "validation passes for H_I = 3.5");
	tap_ok(restart_run(s, RESTART_SAMPLES, 4, 3.5, 1, 2, r, &e) == 0 && r->validation_passed,
	       "IID restart of the 4-bit matrix passes");

	/* 300 of each row's 1000 samples equal its first: NIST ea_restart -v
	 * restart_stuck4.bin 4 3 prints X_max 363 and fails the sanity check */
	gen_stuck_rows(s, 3);
	restart_run(s, RESTART_SAMPLES, 4, 3.0, 0, 2, r, &e);
	tap_eq_long(r->x_max, 363, "X_max of the stuck-row matrix as NIST (363)");
	tap_ok(!r->sanity_passed, "stuck rows fail the sanity check");

	tap_eq_long(restart_run(s, 999999, 4, 3.0, 0, 2, r, &e), ERR_DATA,
		    "a matrix of the wrong size is rejected");
	tap_eq_long(restart_run(s, RESTART_SAMPLES, 4, 4.5, 0, 2, r, &e), ERR_USAGE,
		    "H_I above the bits per sample is rejected");
	free(s);
	free(r);
	return tap_done();
}
