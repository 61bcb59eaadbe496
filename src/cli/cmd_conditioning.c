/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_conditioning.c - `rngaudit conditioning [-v|-n] [-q] [-o JSON] n_in n_out nw h_in [h']`
 * (or `-n -i FILE [-c iid|non_iid] n_in n_out nw h_in`: h' assessed from a
 * file of conditioned output, 90B 3.1.5.2): SP 800-90B 3.1.5 entropy after
 * conditioning, printed line for line as NIST's ea_conditioning (v1.1.7)
 * prints it (report/nist_conditioning.c). */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/nist_out.h"
#include "report/nist_conditioning.h"
#include "parse.h"
#include "cli/commands.h"
#include "conditioning/conditioning.h"
#include "engine/samples.h"

static int parse_width(const char *text, const char *what, unsigned *out)
{
	uint64_t v;
	if (parse_u64(text, 1, UINT_MAX, &v) != 0)
		return cli_error("conditioning", "%s: '%s' is not an integer in 1..%u", what, text,
				 UINT_MAX);
	*out = (unsigned)v;
	return 0;
}

int cmd_conditioning(int argc, char **argv)
{
	int vetted = 1, quiet = 0, opt, iid_file = 0;
	const char *file = NULL, *json_path = NULL;
	char json_fd[32];
	unsigned n_in = 0, n_out = 0, nw = 0;
	long double h_in, h_p = -1.0L;
	struct cond_result r;
	struct err e;

	nist_note_commandline(argc, argv);
	optind = 1;
	opterr = 0;
	/* no '+': NIST's usage puts -o after the numbers, and its getopt
	 * permutes */
	while ((opt = getopt(argc, argv, "vnqi:c:o:")) != -1) {
		switch (opt) {
		case 'v': vetted = 1; break;
		case 'n': vetted = 0; break;
		case 'q': quiet = 1; break;
		case 'i': file = optarg; break;
		case 'o': json_path = optarg; break;
		case 'c':
			if (strcmp(optarg, "iid") != 0 && strcmp(optarg, "non_iid") != 0)
				return cli_error("conditioning", "-c: expected iid or non_iid, got '%s'",
						 optarg);
			iid_file = strcmp(optarg, "iid") == 0;
			break;
		default:
			return cli_error("conditioning", "unknown option '-%c' (usage: rngaudit "
					 "conditioning [-v|-n] [-q] [-o JSON] n_in n_out nw h_in [h'])", optopt);
		}
	}
	argc -= optind;
	argv += optind;
	if (file && vetted)
		return cli_error("conditioning", "-i FILE gives h' and needs -n (non-vetted)");
	if ((vetted && argc != 4) || (!vetted && argc != (file ? 4 : 5)))
		return cli_error("conditioning", "expected %s arguments (usage: rngaudit conditioning "
				 "[-v|-n] n_in n_out nw h_in [h'])", vetted ? "4 (n_in n_out nw h_in)" :
				 "5 (n_in n_out nw h_in h')");
	if (parse_width(argv[0], "n_in", &n_in) || parse_width(argv[1], "n_out", &n_out) ||
	    parse_width(argv[2], "nw", &nw))
		return EXIT_ERROR;
	err_clear(&e);
	if (conditioning_parse_ld(argv[3], "h_in", &h_in, &e) != 0 ||
	    (!vetted && !file && conditioning_parse_ld(argv[4], "h'", &h_p, &e) != 0))
		return cli_error_err("conditioning", &e);
	/* -o checked before the run; to stdout, it keeps stdout and the text
	 * goes to stderr (one format a stream) */
	if (json_path && cli_check_outputs("conditioning", &(struct outpath){ "-o", json_path }, 1,
					   OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	json_path = cli_json_stdout_split(json_path, json_fd, sizeof json_fd);
	if (file) {
		uint8_t *s;
		size_t n;
		int rc;
		if (cli_read_samples("conditioning", file, 0, &s, &n) != 0)
			return EXIT_ERROR;
		rc = conditioning_h_prime(file, s, n, iid_file, &h_p, &e);
		free(s);
		if (rc != 0)
			return cli_error_err("conditioning", &e);
	}
	/* NIST's tool accepts n_out > n_in (so does ea_conditioning); a
	 * function cannot put out more entropy than it takes in, and a width
	 * mixed up is the likelier cause, so rngaudit's own name refuses it */
	if (n_out > n_in)
		return cli_error("conditioning", "n_out (%u) must not exceed n_in (%u)", n_out, n_in);
	if (conditioning_compute(n_in, n_out, nw, h_in, vetted, h_p, &r, &e) != 0)
		return cli_error_err("conditioning", &e);
	if (json_path && nist_json_save("conditioning", json_path,
					nist_conditioning_json(&r, NULL, NULL)) != 0)
		return EXIT_ERROR;
	nist_conditioning_print(stdout, &r, quiet);
	if (quiet)
		return cli_finish_stdout(EXIT_OK);
	fflush(stdout);
	return EXIT_OK;
}
