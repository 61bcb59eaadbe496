/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_restart.c - `rngaudit restart [-i|-n] [-v] [-q] [-o JSON] FILE [BITS] H_I`:
 * SP 800-90B 3.1.4 restart tests on a 1000 x 1000 restart matrix, printed as
 * NIST's ea_restart (commit 68ed165, version 1.1.7) prints them
 * (report/nist_restart.c); -o writes its JSON.  Exit 0 when the sanity
 * check and the validation pass, 1 when either fails, 2 on bad input. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/nist_iid.h"
#include "report/nist_restart.h"
#include "cli/cli_util.h"
#include "cli/nist_out.h"
#include "sha256.h"
#include "parse.h"
#include "cli/commands.h"
#include "restart/restart.h"
#include "engine/samples.h"

#define CMD "restart"

/* -o, whatever the outcome once the tests ran; then the exit status */
static int restart_finish(const char *json_path, const char *path, const char *sha,
			  const struct restart_result *r, int status)
{
	fflush(stdout);
	if (json_path && nist_json_save(CMD, json_path, nist_restart_json(path, sha, r)) != 0)
		return EXIT_ERROR;
	return status;
}

/* The IID track's 5.1 permutation tests, on the rows and on the columns
 * (NIST's ea_restart runs the rows twice; ea_restart.c does as it does).
 * As in `rngaudit iid`, the other statistics stop once one has failed
 * (restart data that is not IID would otherwise shuffle 10^6 samples
 * 10,000 times per failing statistic, twice: half an hour); --full runs
 * NIST's table.  Like the chi-square and LRS tests they are reported,
 * outside the verdict. */
static int restart_perm(const uint8_t *buf, size_t n, struct restart_result *r, int verbose,
			int full, struct err *e)
{
	struct iid_perm_opts popts;

	cli_install_stop_handlers();
	iid_perm_opts_init(&popts);
	popts.full = full;
	popts.stop = (const volatile int *)&cli_stop;
	for (int d = 0; d < 2; d++) {
		int rc = restart_permutation(buf, n, r->bits, d, &popts, &r->perm[d], e);

		if (rc != 0)
			return rc;
		r->perm_runs++;
		nist_restart_print_perm(stdout, r, d, verbose, 0, 0);
	}
	nist_restart_print_perm_verdict(stdout, r, verbose);
	return 0;
}

int cmd_restart(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "full", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	int iid = 0, verbose = 1, quiet = 0, full = 0, opt, rc;
	unsigned bits = 0;
	double h_i;
	uint8_t *buf;
	size_t n;
	const char *path, *json_path = NULL;
	char sha[SHA256_HEX], json_fd[32];
	struct restart_result r;
	struct err e;

	err_clear(&e);
	nist_note_commandline(argc, argv);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+invqo:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': iid = 1; break;
		case 'n': iid = 0; break;
		case 'v': verbose++; break;
		case 'q': quiet = 1; break;
		case 'o': json_path = optarg; break;
		case 'F': full = 1; break;
		default:
			return cli_error(CMD, "unknown option '%s' (usage: rngaudit restart [-i|-n] "
					 "[-v|-vv|-q] [-o JSON] [--full] FILE [BITS] H_I)", argv[optind - 1]);
		}
	}
	if (quiet)
		verbose = 0;
	argc -= optind;
	argv += optind;
	if (argc != 2 && argc != 3)
		return cli_error(CMD, "expected FILE [BITS] H_I (usage: rngaudit restart [-i|-n] [-v] "
				 "FILE [BITS] H_I)");
	path = argv[0];
	if (argc == 3 && samples_parse_bits(argv[1], &bits, &e) != 0)
		return cli_error_err(CMD, &e);
	if (parse_double(argv[argc - 1], &h_i) != 0)
		return cli_error(CMD, "H_I: '%s' is not a number", argv[argc - 1]);
	if (h_i < 0.0 || h_i > 8.0)
		return cli_error(CMD, "H_I (%g) must be in [0, bits per sample]", h_i);
	if (bits && h_i > bits)
		return cli_error(CMD, "H_I (%g) must be at most the %u bits per sample", h_i, bits);
	/* -o checked before the run; to stdout, it keeps stdout and the text
	 * goes to stderr (one format a stream) */
	if (json_path && cli_check_outputs(CMD, &(struct outpath){ "-o", json_path }, 1,
					   OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	json_path = cli_json_stdout_split(json_path, json_fd, sizeof json_fd);

	/* The matrix is exactly RESTART_SAMPLES: read one more to tell a
	 * longer file (or /dev/zero) apart, never the whole of it. */
	if (samples_read_file_max(path, RESTART_SAMPLES + 1, &buf, &n, NULL, &e) != 0)
		return cli_error_err(CMD, &e);
	if (n != RESTART_SAMPLES) {
		free(buf);
		return cli_error(CMD, "%s: %s%zu samples; a restart matrix has %d x %d = %d", path,
				 n > RESTART_SAMPLES ? "more than " : "", n > RESTART_SAMPLES ?
				 (size_t)RESTART_SAMPLES : n, RESTART_ROWS, RESTART_COLS, RESTART_SAMPLES);
	}
	if (bits == 0) {
		bits = samples_infer_bits(buf, n);
		if (h_i > bits) {
			free(buf);
			return cli_error(CMD, "H_I (%g) must be at most the %u bits per sample of %s",
					 h_i, bits, path);
		}
	}
	sha256_hex(buf, n, sha);
	nist_iid_print_opening(stdout, path, sha, 0, 0, verbose);
	rc = restart_run(buf, n, bits, h_i, iid, 0, &r, &e);
	if (rc) {
		free(buf);
		return cli_error(CMD, "%s: %s", path, e.msg);
	}

	nist_restart_print_sanity(stdout, &r, n, verbose);
	if (!r.sanity_passed) {
		free(buf);
		return restart_finish(json_path, path, sha, &r, EXIT_FAILED);
	}
	nist_restart_print_validation(stdout, &r, verbose);
	rc = iid ? restart_perm(buf, n, &r, verbose, full, &e) : 0;
	free(buf);
	if (rc)
		return cli_error(CMD, "%s: %s", path, e.msg);
	nist_restart_print_result(stdout, &r, verbose);
	return restart_finish(json_path, path, sha, &r, r.validation_passed ? EXIT_OK : EXIT_FAILED);
}
