/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_iid.c - `rngaudit iid [-i|-c] [-a|-t] [-v] [-q] [-l I,N] [-o JSON]
 * [--seed S|random] [--threads N] [--full] FILE [BITS]`: the SP 800-90B
 * chapter 5 IID track, printed as NIST's ea_iid (commit 68ed165, version
 * 1.1.7) prints it at the same verbosity, then (after NIST's lines) the
 * seed of the permutations; -o writes NIST's JSON (report/nist_iid.c).  Exit 0 when the data passes every IID test
 * (5.1, 5.2), 1 when any rejects it, 2 on bad input.
 *
 * One difference by default: once the verdict is known (the cheapest
 * statistic still at an extreme after a probe of 100 shuffles has failed),
 * the other statistics stop and compression is not scored; their rows say
 * so.  --full runs everything to its end, giving NIST's complete table (see
 * iid_perm_opts in iid.h). */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif

#include "cli/cli_util.h"
#include "report/nist_iid.h"
#include "cli/nist_out.h"
#include "sha256.h"
#include "cli/cli_wide.h"
#include "parse.h"
#include "cli/commands.h"
#include "report/termtext.h"
#include "estimators/estimators.h"
#include "iid/iid.h"
#include "engine/samples.h"

#define CMD "iid"
/* NIST's MIN_SIZE: the recommended number of samples and the -t cut */
#define IID_MIN_SAMPLES 1000000
#define IID_USAGE "usage: rngaudit iid [-i|-c] [-a|-t] [-v|-vv|-q] [-l INDEX,SAMPLES] [-o JSON] " \
	"[--seed S|random] [--threads N] [--full] [--max-samples N] FILE [BITS]"

/* permutation-test progress on a terminal */
static void iid_progress_show(void *ctx, int phase, int done)
{
	struct cli_progress *p = ctx;
	if (!cli_progress_due(p))
		return;
	fprintf(stderr, "\riid: permutation tests: %s, shuffle %d of at most %d (%.0f s)   ",
		phase == 1 ? "18 statistics" : "compression", done, IID_PERMS, p->last - p->start);
	fflush(stderr);
}

static int parse_seed(const char *text, uint64_t *seed)
{
	if (strcmp(text, "random") == 0) {
#ifdef HAVE_GETRANDOM
		if (getrandom(seed, sizeof *seed, 0) != (ssize_t)sizeof *seed)
			return cli_error(CMD, "--seed random: getrandom failed");
		return 0;
#else
		return cli_error(CMD, "--seed random: getrandom(2) is not available here");
#endif
	}
	if (parse_u64(text, 0, UINT64_MAX, seed) != 0)
		return cli_error(CMD, "--seed: '%s' is not an integer or 'random'", text);
	return 0;
}

int cmd_iid(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 'T' },
		{ "full", no_argument, NULL, 'F' },
		{ "max-samples", required_argument, NULL, 'M' },
		{ "version", no_argument, NULL, 'V' },
		{ "format", required_argument, NULL, 'f' },
		{ "method", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	enum widefmt wide_format = WIDEFMT_U8;
	struct translate_method method;
	struct translate_map map;
	int wide = 0, have_method = 0;
	int initial = 1, all_bits = 1, verbose = 1, quiet = 0, threads = 0, full = 0, opt, rc;
	uint64_t seed = IID_DEFAULT_SEED, u, max_samples = 0;
	size_t sub_index = 0, sub_count = 0, n, nbits;
	unsigned bits = 0;
	uint8_t *buf = NULL;
	const char *path, *json_path = NULL;
	char sha[SHA256_HEX], json_fd[32];
	struct iid_data d;
	struct nist_iid_pretests pre;
	struct iid_perm_result perm;
	struct iid_perm_opts popts;
	struct cli_progress prog;
	struct err e;

	err_clear(&e);
	nist_note_commandline(argc, argv);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+icatvqo:l:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': initial = 1; break;
		case 'c': initial = 0; break;
		case 'a': all_bits = 1; break;
		case 't': all_bits = 0; break;
		case 'v': verbose++; break;
		case 'q': quiet = 1; break;
		case 'o': json_path = optarg; break;
		case 'V': return nist_print_version(CMD, "iid");
		case 'l': {
			char *comma = strchr(optarg, ',');
			uint64_t a, b;
			if (!comma)
				return cli_error(CMD, "-l: expected INDEX,SAMPLES, got '%s'", optarg);
			*comma = '\0';
			if (parse_u64(optarg, 0, SIZE_MAX, &a) != 0 ||
			    parse_u64(comma + 1, 1, SIZE_MAX, &b) != 0)
				return cli_error(CMD, "-l: expected INDEX,SAMPLES (integers), got '%s,%s'",
						 optarg, comma + 1);
			sub_index = (size_t)a;
			sub_count = (size_t)b;
			break;
		}
		case 's':
			if (parse_seed(optarg, &seed))
				return EXIT_ERROR;
			break;
		case 'T':
			if (parse_u64(optarg, 1, 64, &u) != 0)
				return cli_error(CMD, "--threads: '%s' is not an integer in 1..64", optarg);
			threads = (int)u;
			break;
		case 'F':
			full = 1;
			break;
		case 'M':
			if (cli_parse_max_samples(CMD, optarg, &max_samples) != 0)
				return EXIT_ERROR;
			break;
		case 'f':   /* wide raw samples, reduced first (90B 6.4) */
			if (widefmt_parse(optarg, &wide_format, &e) != 0)
				return cli_error_err(CMD, &e);
			wide = 1;
			break;
		case 'm':
			if (translate_parse(optarg, &method, &e) != 0)
				return cli_error_err(CMD, &e);
			have_method = 1;
			break;
		default:
			return cli_error(CMD, "unknown option '%s' (" IID_USAGE ")", argv[optind - 1]);
		}
	}
	if (quiet)
		verbose = 0;
	argc -= optind;
	argv += optind;
	if (argc != 1 && argc != 2)
		return cli_error(CMD, "expected FILE [BITS] (" IID_USAGE ")");
	path = argv[0];
	if (argc == 2 && samples_parse_bits(argv[1], &bits, &e) != 0)
		return cli_error_err(CMD, &e);
	if (have_method && !wide)
		return cli_error(CMD, "--method needs --format with a wide sample format (%s)", WIDEFMT_NAMES);
	if (wide && argc == 2)
		return cli_error(CMD, "BITS cannot be given with --format %s: the translation decides "
				 "the symbol width", widefmt_name(wide_format));
	if (wide && !have_method && translate_parse(TRANSLATE_DEFAULT, &method, &e) != 0)
		return cli_error_err(CMD, &e);
	/* -o checked before the run; to stdout, it keeps stdout and the text
	 * goes to stderr (one format a stream) */
	if (json_path && cli_check_outputs(CMD, &(struct outpath){ "-o", json_path }, 1,
					   OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	json_path = cli_json_stdout_split(json_path, json_fd, sizeof json_fd);

	if (wide) {
		if (cli_read_wide(CMD, path, wide_format, &method, max_samples, &buf, &n, &map) != 0)
			return EXIT_ERROR;
		cli_print_translation(stdout, wide_format, &map);
		bits = map.bits;
	} else if (cli_read_samples(CMD, path, max_samples, &buf, &n) != 0) {
		return EXIT_ERROR;
	}
	sha256_hex(buf, n, sha);
	nist_iid_print_opening(stdout, path, sha, sub_index, sub_count, verbose);
	if (sub_count) {
		if (sub_index > n / sub_count || sub_index * sub_count >= n) {
			free(buf);
			return cli_error(CMD, "%s: -l %zu,%zu lies outside its %zu samples", path,
					 sub_index, sub_count, n);
		}
		memmove(buf, buf + sub_index * sub_count,
			n - sub_index * sub_count < sub_count ? n - sub_index * sub_count : sub_count);
		n = n - sub_index * sub_count < sub_count ? n - sub_index * sub_count : sub_count;
	}
	rc = iid_data_init(&d, buf, n, bits, &e);
	if (rc) {
		free(buf);
		return cli_error(CMD, "%s: %s", path, e.msg);
	}
	free(buf);
	nist_iid_print_loaded(stdout, &d, verbose);
	if (d.k <= 1) {
		printf("Symbol alphabet consists of 1 symbol. No entropy awarded...\n");
		iid_data_free(&d);
		return EXIT_FAILED;
	}

	/* the bitstring: every sample's `bits` bits, MSB first (-t: first 10^6) */
	nbits = d.n * d.bits;
	if (!all_bits && nbits > IID_MIN_SAMPLES)
		nbits = IID_MIN_SAMPLES;
	if (nist_iid_print_pretests(&d, nbits, initial, verbose, &pre, &e) != 0)
		goto fail;

	/* 5.1 permutation tests */
	nist_iid_print_perm_begin(stdout, verbose);
	cli_install_stop_handlers();
	iid_perm_opts_init(&popts);
	popts.seed = seed;
	popts.threads = threads;
	popts.full = full;
	popts.stop = (const volatile int *)&cli_stop;
	cli_progress_init(&prog, CMD, 0);
	popts.progress = iid_progress_show;
	popts.progress_ctx = &prog;
	rc = iid_permutation_tests(&d, &popts, &perm, &e);
	cli_progress_done(&prog);
	if (rc != 0)
		goto fail;
	nist_iid_print_perm_initial(stdout, &perm, verbose);
	nist_iid_print_perm_table(stdout, &perm, verbose);
	nist_iid_print_verdict(stdout, verbose, perm.passed, "IID permutation tests",
			       "IID permutation tests");
	/* rngaudit's own lines, after NIST's */
	if (verbose > 0)
		printf("Permutation seed: %" PRIu64 " (%d shuffles; rerun with --seed %" PRIu64 ")\n",
		       perm.seed, perm.perms, perm.seed);
	if (verbose > 0) {
		int nskip = 0;
		for (int i = 0; i < IID_NSTATS; i++)
			nskip += perm.skipped[i];
		if (nskip > 0) {
			const char *why = perm.decider >= 0 ? iid_stat_name(perm.decider) : NULL;
			if (!why) {
				/* the first failed statistic run to its end */
				for (int i = 0; i < IID_NSTATS && !why; i++)
					if (!perm.skipped[i] && !perm.stat_passed[i])
						why = iid_stat_name(i);
			}
			printf("%d statistic%s not run to the end: %s failed, so the permutation tests "
			       "failed whatever they give (--full runs them)\n",
			       nskip, nskip > 1 ? "s" : "", why ? why : "a statistic");
		}
	}
	if (json_path) {
		struct nist_iid_json_in jin = {
			.path = path, .sha256 = sha, .mean = d.rawmean, .median = d.median,
			.binary = d.k == 2, .h_original = pre.h_original, .h_bitstring = pre.h_bitstring,
			.h_assessed = pre.h_assessed, .chi_pass = pre.chi_pass, .lrs_pass = pre.lrs_pass,
			.perm = &perm,
		};

		if (nist_json_save(CMD, json_path, nist_iid_json(&jin)) != 0) {
			iid_data_free(&d);
			return EXIT_ERROR;
		}
	}

	iid_data_free(&d);
	fflush(stdout);
	return pre.chi_pass && pre.lrs_pass && perm.passed ? EXIT_OK : EXIT_FAILED;
fail:
	iid_data_free(&d);
	return cli_error(CMD, "%s: %s", path, e.msg);
}
