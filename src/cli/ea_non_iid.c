/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea_non_iid.c - rngaudit run as ea_non_iid: NIST's non_iid_main.cpp
 * (commit 68ed165) step by step, its checks, messages and exit codes, with
 * rngaudit's estimators (estimators/noniid.c) and NIST's text and JSON
 * (report/nist_noniid.c). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ea.h"
#include "estimators/noniid.h"
#include "report/nist_noniid.h"

/* distinct values of s[0..n-1]: 1 means NIST awards no entropy */
static int one_symbol(const uint8_t *s, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (s[i] != s[0])
			return 0;
	return 1;
}

static int non_iid_main(struct ea_run *run, int argc, char **argv)
{
	struct noniid_opts o;
	struct nist_noniid_run nr;
	struct noniid_report rep;
	struct nistread in;
	struct err e;
	unsigned long block_index = ULONG_MAX, block_size = 0;
	unsigned bits = 0;
	int verbose = 1, quiet = 0, opt, rc;
	const char *path;

	if (ea_wants_version(argc, argv))
		return ea_print_version("noniid");
	noniid_opts_init(&o);
	optind = 1;
	opterr = 1;
	while ((opt = getopt(argc, argv, "icatvql:o:")) != -1) {
		switch (opt) {
		case 'i': o.conditioned = 0; break;
		case 'c': o.conditioned = 1; break;
		case 'a': o.truncate = 0; break;
		case 't': o.truncate = 1; break;
		case 'v': verbose++; break;
		case 'q': quiet = 1; break;
		case 'l':
			if (ea_parse_block(optarg, &block_index, &block_size) != 0) {
				ea_fail_json(run, 0, "", NULL, NULL, "Error on index/samples.");
				return ea_usage(ea_usage_non_iid);
			}
			break;
		case 'o': run->json_path = optarg; break;
		default:
			return ea_usage(ea_usage_non_iid);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 && argc != 2) {
		printf("Incorrect usage.\n");
		return ea_usage(ea_usage_non_iid);
	}
	if (quiet)
		verbose = 0;
	path = argv[0];
	ea_check_openable(path);
	err_clear(&e);
	memset(&in, 0, sizeof in);
	if (argc == 2) {
		long long b = atoi(argv[1]);

		if (b < 1 || b > 8) {
			printf("Invalid bits per symbol.\n");
			/* the file is hashed before this check */
			nistread_file(path, 0, 0, 0, &in, &e);
			ea_fail_json(run, 0, "", path, in.sha256, "Invalid bits per symbol.");
			nistread_free(&in);
			return ea_usage(ea_usage_non_iid);
		}
		bits = (unsigned)b;
	}
	rc = nistread_file(path, block_index, block_size, bits, &in, &e);
	if (verbose > 1) {
		printf("Opening file: '%s' (SHA-256 hash %s)", path, in.sha256);
		if (block_size != 0)
			printf(", reading block %ld of size %ld", (long)block_index, (long)block_size);
		printf("\n");
	}
	if (rc != 0) {
		char msg[ERR_MSG_MAX + 64];

		ea_print_read_error(&in, path);
		ea_fail_json(run, 0, "", path, in.sha256,
			     ea_read_error_message(&in, path, msg, sizeof msg));
		printf("Error reading file.\n");
		return ea_usage(ea_usage_non_iid);
	}
	if (in.narrower)
		printf("Warning: Symbols appear to be narrower than described.\n");
	if (one_symbol(in.s, in.n)) {
		if (verbose > 1)
			printf("Loaded %zu samples of 1 distinct %u-bit-wide symbols\n", in.n, in.bits);
		printf("Symbol alphabet consists of 1 symbol. No entropy awarded...\n");
		ea_fail_json(run, 0, "", path, in.sha256,
			     "Symbol alphabet consists of 1 symbol. No entropy awarded...");
		nistread_free(&in);
		fflush(stdout);
		return EA_EXIT_ERROR;
	}

	o.bits = in.bits;
	rc = noniid_assess(in.s, in.n, &o, &rep, &e);
	if (rc != 0) {
		nistread_free(&in);
		return ea_error(run, "%s: %s", path, e.msg);
	}
	memset(&nr, 0, sizeof nr);
	nr.path = path;
	memcpy(nr.sha256, in.sha256, sizeof nr.sha256);
	nr.conditioned = o.conditioned;
	nr.verbose = verbose;
	nr.opening_printed = 1;
	nistread_free(&in);
	nist_noniid_print(stdout, &nr, &rep);
	fflush(stdout);
	rc = ea_json_save(run, nist_noniid_json(&nr, &rep));
	noniid_report_free(&rep);
	return rc;
}

int ea_non_iid(int argc, char **argv)
{
	struct ea_run run;
	int rc;

	ea_run_init(&run, "ea_non_iid", argc, argv);
	rc = non_iid_main(&run, argc, argv);
	ea_run_free(&run);
	return rc;
}
