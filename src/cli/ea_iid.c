/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea_iid.c - rngaudit run as ea_iid: NIST's iid_main.cpp (commit 68ed165)
 * step by step, its checks, messages and exit codes (0 once the tests ran,
 * whatever they found), with rngaudit's IID track (iid/) and NIST's text
 * and JSON (report/nist_iid.c).  The permutation tests run NIST's complete
 * table (iid_perm_opts.full) from rngaudit's default seed, and -v prints
 * NIST's line after each shuffle. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/ea.h"
#include "engine/samples.h"
#include "estimators/estimators.h"
#include "iid/iid.h"
#include "report/nist_iid.h"
#include "cli/nist_out.h"

/* NIST's MIN_SIZE: -t cuts the bitstring to this many bits */
#define EA_MIN_SIZE 1000000u

static int iid_main(struct ea_run *run, int argc, char **argv)
{
	struct nistread in;
	struct iid_data d;
	struct nist_iid_pretests pre;
	struct iid_perm_result *perm = NULL;
	struct iid_perm_opts popts;
	struct err e;
	unsigned long block_index = ULONG_MAX, block_size = 0;
	int initial = 1, all_bits = 1, verbose = 1, quiet = 0, opt, word_size = 0, rc;
	size_t nbits;
	const char *path;
	char msg[ERR_MSG_MAX + 64];

	if (ea_wants_version(argc, argv))
		return ea_print_version("iid");
	optind = 1;
	opterr = 1;
	while ((opt = getopt(argc, argv, "icatvl:qo:")) != -1) {
		switch (opt) {
		case 'i': initial = 1; break;
		case 'c': initial = 0; break;
		case 'a': all_bits = 1; break;
		case 't': all_bits = 0; break;
		case 'v': verbose++; break;
		case 'l':
			if (ea_parse_block(optarg, &block_index, &block_size) != 0) {
				ea_fail_json(run, 1, "", NULL, NULL, "Error on index/samples.");
				return ea_usage(ea_usage_iid);
			}
			break;
		case 'q': quiet = 1; break;
		case 'o': run->json_path = optarg; break;
		default:
			return ea_usage(ea_usage_iid);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 && argc != 1) {
		printf("Incorrect usage.\n");
		return ea_usage(ea_usage_iid);
	}
	if (quiet)
		verbose = 0;
	path = argv[0];
	if (argc == 2) {
		word_size = atoi(argv[1]);
		if (word_size < 1 || word_size > 8) {
			/* ea_iid checks the width before it hashes the file */
			snprintf(msg, sizeof msg, "Invalid bits per symbol: %d.", word_size);
			ea_fail_json(run, 1, "", path, NULL, msg);
			printf("Invalid bits per symbol: %d.\n", word_size);
			return ea_usage(ea_usage_iid);
		}
	}
	ea_check_openable(path);
	err_clear(&e);
	rc = nistread_file(path, block_index, block_size, (unsigned)word_size, &in, &e);
	if (verbose > 1) {
		printf("Opening file: '%s' (SHA-256 hash %s)", path, in.sha256);
		if (block_size != 0)
			printf(", reading block %ld of size %ld", (long)block_index, (long)block_size);
		printf("\n");
	}
	if (rc != 0) {
		ea_print_read_error(&in, path);
		ea_fail_json(run, 1, "", path, in.sha256,
			     ea_read_error_message(&in, path, msg, sizeof msg));
		printf("Error reading file.\n");
		return ea_usage(ea_usage_iid);
	}
	if (in.bits == 0) {
		/* all zero: NIST's width 0, one symbol */
		if (verbose > 1)
			printf("Loaded %zu samples of 1 distinct 0-bit-wide symbols\n", in.n);
		goto one_symbol;
	}
	rc = iid_data_init(&d, in.s, in.n, in.bits, &e);
	if (rc != 0) {
		nistread_free(&in);
		return ea_error(run, "%s: %s", path, e.msg);
	}
	nist_iid_print_loaded(stdout, &d, verbose);
	if (d.k <= 1) {
		iid_data_free(&d);
one_symbol:
		printf("Symbol alphabet consists of 1 symbol. No entropy awarded...\n");
		ea_fail_json(run, 1, "", path, in.sha256,
			     "Symbol alphabet consists of 1 symbol. No entropy awarded...");
		nistread_free(&in);
		fflush(stdout);
		return EA_EXIT_ERROR;
	}

	nbits = d.n * d.bits;
	if (!all_bits && nbits > EA_MIN_SIZE)
		nbits = EA_MIN_SIZE;
	if (nist_iid_print_pretests(&d, nbits, initial, verbose, &pre, &e) != 0)
		goto fail;

	/* 5.1: NIST's complete table, every statistic to its decision */
	nist_iid_print_perm_begin(stdout, verbose);
	fflush(stdout);
	if (!(perm = malloc(sizeof *perm))) {
		err_set(&e, ERR_NOMEM, "out of memory for the permutation tests");
		goto fail;
	}
	iid_perm_opts_init(&popts);
	popts.threads = ea_threads();
	popts.full = 1;
	if (iid_permutation_tests(&d, &popts, perm, &e) != 0)
		goto fail;
	nist_iid_print_perm_initial(stdout, perm, verbose);
	if (verbose == 2)
		nist_iid_print_progress(stdout, perm, popts.threads, isatty(STDOUT_FILENO));
	nist_iid_print_perm_table(stdout, perm, verbose);
	nist_iid_print_verdict(stdout, verbose, perm->passed, "IID permutation tests",
			       "IID permutation tests");
	fflush(stdout);
	if (run->json_path) {
		/* iid_main.cpp computes hAssessed only at -vv: otherwise its
		 * JSON carries the bits per symbol (rngaudit iid writes the
		 * assessed value always) */
		struct nist_iid_json_in jin = {
			.path = path, .sha256 = in.sha256, .mean = d.rawmean, .median = d.median,
			.binary = d.k == 2, .h_original = pre.h_original, .h_bitstring = pre.h_bitstring,
			.h_assessed = verbose > 2 ? pre.h_assessed : (double)d.bits,
			.chi_pass = pre.chi_pass, .lrs_pass = pre.lrs_pass, .perm = perm,
		};

		rc = ea_json_save(run, nist_iid_json(&jin));
	}
	free(perm);
	iid_data_free(&d);
	nistread_free(&in);
	return rc;
fail:
	free(perm);
	iid_data_free(&d);
	nistread_free(&in);
	return ea_error(run, "%s: %s", path, e.msg);
}

int ea_iid(int argc, char **argv)
{
	struct ea_run run;
	int rc;

	ea_run_init(&run, "ea_iid", argc, argv);
	rc = iid_main(&run, argc, argv);
	ea_run_free(&run);
	return rc;
}
