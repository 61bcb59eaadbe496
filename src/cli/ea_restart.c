/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea_restart.c - rngaudit run as ea_restart: NIST's restart_main.cpp
 * (commit 68ed165) step by step, its checks, messages and exit codes (255
 * when the sanity check or the validation fails), with rngaudit's restart
 * tests (restart/) and NIST's text and JSON (report/nist_restart.c).
 *
 * Where it differs by design: X_cutoff is the exact quantile NIST's
 * simulation estimates (restart.h), so -s (the simulation's rounds) is
 * checked as NIST checks it and then has nothing to do; -i runs the
 * permutation tests on the row dataset twice, as NIST's tool does (it
 * gives its "column" run the rows; rngaudit restart -i tests the columns),
 * the second run from the next seed; a failed run's JSON says so
 * (errorLevel -1 and NIST's message) on every path, where NIST's -i
 * writes errorLevel 0 after a read error. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/ea.h"
#include "iid/iid.h"
#include "report/nist_iid.h"
#include "report/nist_restart.h"
#include "restart/restart.h"

/* DEFAULT_SIMULATION_ROUNDS: -s may only raise it */
#define EA_SIM_ROUNDS 5000000UL

static unsigned distinct(const uint8_t *s, size_t n)
{
	unsigned char seen[256] = { 0 };
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		if (!seen[s[i]]) {
			seen[s[i]] = 1;
			k++;
		}
	return k;
}

static int restart_main(struct ea_run *run, int argc, char **argv)
{
	struct nistread in;
	struct restart_result *r = NULL;
	struct iid_perm_opts popts;
	struct err e;
	int iid = 0, verbose = 1, quiet = 0, opt, word_size = 0, rc;
	unsigned k;
	double h_i;
	const char *path;
	char msg[ERR_MSG_MAX + 64];

	if (ea_wants_version(argc, argv))
		return ea_print_version("restart");
	optind = 1;
	opterr = 1;
	while ((opt = getopt(argc, argv, "invqo:s:")) != -1) {
		switch (opt) {
		case 'i': iid = 1; break;
		case 'n': iid = 0; break;
		case 'v': verbose++; break;
		case 'q': quiet = 1; break;
		case 'o': run->json_path = optarg; break;
		case 's': {
			unsigned long rounds = strtoul(optarg, NULL, 10);

			if (rounds == 0 || rounds == ULONG_MAX || rounds < EA_SIM_ROUNDS)
				return ea_usage(ea_usage_restart);
			break;
		}
		default:
			return ea_usage(ea_usage_restart);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 3 && argc != 2) {
		printf("Incorrect usage.\n");
		return ea_usage(ea_usage_restart);
	}
	path = argv[0];
	if (quiet)
		verbose = 0;
	ea_check_openable(path);
	err_clear(&e);
	/* the file is hashed first: every JSON below names it */
	nistread_file(path, 0, 0, 0, &in, &e);
	nistread_free(&in);
	if (argc == 3) {
		word_size = atoi(argv[1]);
		if (word_size < 1 || word_size > 8) {
			printf("Invalid bits per symbol.\n");
			ea_fail_json(run, iid, "Restart", path, in.sha256, "Invalid bits per symbol.");
			return ea_usage(ea_usage_restart);
		}
	}
	h_i = atof(argv[argc - 1]);
	if (h_i < 0) {
		printf("H_I %f must be nonnegative.\n", h_i);
		snprintf(msg, sizeof msg, "H_I must be nonnegative: %f.", h_i);
		ea_fail_json(run, iid, "Restart", path, in.sha256, msg);
		return ea_usage(ea_usage_restart);
	}
	rc = nistread_file(path, 0, 0, (unsigned)word_size, &in, &e);
	if (verbose > 1)
		printf("Opening file: '%s' (SHA-256 hash %s)\n", path, in.sha256);
	if (rc != 0) {
		ea_print_read_error(&in, path);
		printf("Error reading file.\n");
		ea_fail_json(run, iid, "Restart", path, in.sha256,
			     ea_read_error_message(&in, path, msg, sizeof msg));
		return ea_usage(ea_usage_restart);
	}
	if (in.narrower)
		printf("Warning: Symbols appear to be narrower than described.\n");
	k = distinct(in.s, in.n);
	/* the checks restart_main.cpp makes after "Loaded", in its order */
	if (h_i > in.bits || k <= 1 || in.n != RESTART_SAMPLES) {
		if (verbose > 1)
			printf("Loaded %zu samples made up of %u distinct %u-bit-wide symbols.\n", in.n,
			       k, in.bits);
		if (h_i > in.bits) {
			snprintf(msg, sizeof msg, "H_I (%f) must be at most 'bits_per_symbol' (%u).",
				 h_i, in.bits);
			printf("%s\n", msg);
		} else if (k <= 1) {
			snprintf(msg, sizeof msg,
				 "Symbol alphabet consists of 1 symbol. No entropy awarded...");
			printf("%s\n", msg);
		} else {
			snprintf(msg, sizeof msg, "*** Error: data (len = %zu) does not contain %d "
				 "samples ***", in.n, RESTART_SAMPLES);
			printf("\n%s\n\n", msg);
		}
		ea_fail_json(run, iid, "Restart", path, in.sha256, msg);
		nistread_free(&in);
		fflush(stdout);
		return EA_EXIT_ERROR;
	}
	if (!(r = malloc(sizeof *r))) {
		nistread_free(&in);
		return ea_error(run, "out of memory");
	}
	if (restart_run(in.s, in.n, in.bits, h_i, iid, 0, r, &e) != 0)
		goto fail;
	nist_restart_print_sanity(stdout, r, in.n, verbose);
	if (!r->sanity_passed)
		goto done;
	nist_restart_print_validation(stdout, r, verbose);
	if (iid) {
		/* NIST's two runs, both on the rows (restart_main.cpp) */
		iid_perm_opts_init(&popts);
		popts.threads = ea_threads();
		popts.full = 1;
		fflush(stdout);
		for (int d = 0; d < 2; d++) {
			popts.seed = IID_DEFAULT_SEED + (uint64_t)d;
			if (restart_permutation(in.s, in.n, in.bits, 0, &popts, &r->perm[d], &e) != 0)
				goto fail;
			r->perm_runs++;
			nist_restart_print_perm(stdout, r, d, verbose, popts.threads,
						isatty(STDOUT_FILENO));
		}
		nist_restart_print_perm_verdict(stdout, r, verbose);
	}
	nist_restart_print_result(stdout, r, verbose);
done:
	fflush(stdout);
	rc = ea_json_save(run, nist_restart_json(path, in.sha256, r));
	if (rc == 0 && !(r->sanity_passed && r->validation_passed))
		rc = EA_EXIT_ERROR;
	free(r);
	nistread_free(&in);
	return rc;
fail:
	free(r);
	nistread_free(&in);
	return ea_error(run, "%s: %s", path, e.msg);
}

int ea_restart(int argc, char **argv)
{
	struct ea_run run;
	int rc;

	ea_run_init(&run, "ea_restart", argc, argv);
	rc = restart_main(&run, argc, argv);
	ea_run_free(&run);
	return rc;
}
