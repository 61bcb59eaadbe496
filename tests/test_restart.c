/* test_restart.c - SP 800-90B 3.1.4 restart tests: X_cutoff, the sanity
 * check, the row/column assessments and the validation of H_I.
 *
 * The restart matrices are generated here (xoshiro256** through iid_rng,
 * fixed seeds) so no 1 MB file is stored; `test_restart --write DIR` writes
 * them out, which is how NIST's ea_restart v1.1.7 was run on the very same
 * data to get the expected values below (tests/data/iid/README). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "restart.h"

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

	if (argc == 3 && strcmp(argv[1], "--write") == 0) {
		gen_uniform(s, 4, 1);
		write_file(argv[2], "restart_u4.bin", s);
		gen_uniform(s, 1, 2);
		write_file(argv[2], "restart_u1.bin", s);
		gen_stuck_rows(s, 3);
		write_file(argv[2], "restart_stuck4.bin", s);
		return 0;
	}

	/* X_cutoff: NIST prints ALPHA 5.0251890107717765e-06 for every run and
	 * simulates X_cutoff; the exact quantiles were checked against ea_restart */
	restart_cutoff(4.0, 16, 1.0 - exp(log(0.99) / 2000.0), &x, &e);
	tap_eq_long(x, EXPECT_CUTOFF_H4, "X_cutoff for H_I = 4, 16 symbols (NIST ea_restart)");
	restart_cutoff(1.0, 2, 1.0 - exp(log(0.99) / 2000.0), &x, &e);
	tap_eq_long(x, EXPECT_CUTOFF_H1, "X_cutoff for H_I = 1, 2 symbols (NIST ea_restart)");
	restart_cutoff(3.5, 16, 1.0 - exp(log(0.99) / 2000.0), &x, &e);
	tap_eq_long(x, EXPECT_CUTOFF_H35, "X_cutoff for H_I = 3.5 (inverted near-uniform, NIST)");
	tap_eq_long(restart_cutoff(4.5, 16, 0.001, &x, &e), ERR_USAGE,
		    "H_I needing more symbols than the data has is rejected");

	gen_uniform(s, 4, 1);
	tap_ok(restart_run(s, RESTART_SAMPLES, 4, 3.5, 0, 2, r, &e) == 0, "non-IID restart runs");
	tap_near(r->alpha, 5.0251890107717765e-06, 1e-20, "alpha = 1 - 0.99^(1/2000)");
	tap_eq_long(r->x_max, EXPECT_U4_XMAX, "X_max of the uniform 4-bit matrix (NIST)");
	tap_ok(r->sanity_passed, "uniform data passes the sanity check");
	tap_near(r->h_r, EXPECT_U4_HR, 1e-6, "H_r as NIST");
	tap_near(r->h_c, EXPECT_U4_HC, 1e-6, "H_c as NIST");
	tap_ok(r->validation_passed, "validation passes for H_I = 3.5");

	tap_ok(restart_run(s, RESTART_SAMPLES, 4, 3.5, 1, 2, r, &e) == 0, "IID restart runs");
	tap_near(r->h_r, EXPECT_U4_HR_IID, 1e-6, "H_r (MCV) as NIST -i");
	tap_near(r->h_c, EXPECT_U4_HC_IID, 1e-6, "H_c (MCV) as NIST -i");

	gen_uniform(s, 1, 2);
	restart_run(s, RESTART_SAMPLES, 1, 1.0, 0, 2, r, &e);
	tap_eq_long(r->x_max, EXPECT_U1_XMAX, "X_max of the uniform 1-bit matrix (NIST)");
	tap_near(r->h_r, EXPECT_U1_HR, 1e-6, "binary H_r as NIST");
	tap_near(r->h_c, EXPECT_U1_HC, 1e-6, "binary H_c as NIST");
	tap_ok(r->validation_passed, "binary validation passes for H_I = 1");

	gen_stuck_rows(s, 3);
	restart_run(s, RESTART_SAMPLES, 4, 3.0, 0, 2, r, &e);
	tap_eq_long(r->x_max, EXPECT_STUCK_XMAX, "X_max of the stuck-row matrix (NIST)");
	tap_ok(!r->sanity_passed, "stuck rows fail the sanity check");

	tap_eq_long(restart_run(s, 999999, 4, 3.0, 0, 2, r, &e), ERR_DATA,
		    "a matrix of the wrong size is rejected");
	tap_eq_long(restart_run(s, RESTART_SAMPLES, 4, 4.5, 0, 2, r, &e), ERR_USAGE,
		    "H_I above the bits per sample is rejected");
	free(s);
	free(r);
	return tap_done();
}
