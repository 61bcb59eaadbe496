/* cmd_restart.c - `rngaudit restart [-i|-n] [-v] [-q] [-o JSON] FILE [BITS] H_I`:
 * SP 800-90B 3.1.4 restart tests on a 1000 x 1000 restart matrix, printed as
 * NIST's ea_restart (commit 68ed165, version 1.1.7) prints them; -o writes
 * its JSON (non-IID track).  Exit 0 when the sanity check and
 * the validation pass, 1 when either fails, 2 on bad input. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/assess_nist.h"
#include "cli/cli_util.h"
#include "cli/nist_out.h"
#include "sha256.h"
#include "parse.h"
#include "cli/commands.h"
#include "report/termtext.h"
#include "restart.h"
#include "engine/samples.h"

#define CMD "restart"

/* NIST's wording of each estimator in the "(Rows)/(Cols)" lines */
static const char *const est_label[NONIID_NEST] = {
	"Most Common Value Estimate",
	"Collision Test Estimate",
	"Markov Test Estimate",
	"Compression Test Estimate",
	"T-Tuple Test Estimate",
	"LRS Test Estimate",
	"Multi Most Common in Window (MultiMCW) Prediction Test Estimate",
	"Lag Prediction Test Estimate",
	"Multi Markov Model with Counting (MultiMMC) Prediction Test Estimate",
	"LZ78Y Prediction Test Estimate",
};

/* -v, -vv: restart_main.cpp prints each estimator's own lines (as
 * ea_non_iid -v or -vv, label "Literal") before its "(Rows)" and "(Cols)"
 * lines; t-Tuple and LRS run in one pass, so their own lines come first. */
static void print_est(const struct restart_result *r, int i, int verbose)
{
	unsigned w = (i >= NONIID_COLLISION && i <= NONIID_COMPRESSION) ? 1 : r->bits;
	int pass = i == NONIID_TUPLE || i == NONIID_LRS;
	void (*own)(FILE *, const char *, const struct est_result *) =
		verbose == 2 ? nist_print_estimate_v : verbose == 3 ? nist_print_estimate_vv : NULL;

	if (verbose < 2 || !r->ran[i])
		return;
	if (own && i == NONIID_TUPLE)
		for (int d = 0; d < 2; d++) {
			own(stdout, "Literal", d ? &r->col[NONIID_TUPLE] : &r->row[NONIID_TUPLE]);
			if (r->ran[NONIID_LRS])
				own(stdout, "Literal", d ? &r->col[NONIID_LRS] : &r->row[NONIID_LRS]);
		}
	if (own && !pass)
		own(stdout, "Literal", &r->row[i]);
	if (r->row[i].applicable)
		printf("\t%s (Rows) = %f / %u bit(s)\n", est_label[i], r->row[i].h, w);
	if (own && !pass)
		own(stdout, "Literal", &r->col[i]);
	if (r->col[i].applicable)
		printf("\t%s (Cols) = %f / %u bit(s)\n", est_label[i], r->col[i].h, w);
}

/* testCaseDesc of restart_main.cpp's test cases, by estimator */
static const char *const case_desc[NONIID_NEST] = {
	"Most Common Value", "Collision Test (for bit strings only)",
	"Markov Test (for bit strings only)", "Compression Test (for bit strings only)",
	"T-Tuple Test", "LRS Test", "Multi Most Common in Window Test", "Lag Prediction Test",
	"Multi Markov Model with Counting Test (MultiMMC)", "LZ78Y Test",
};

/* NIST's ea_restart -o document: per estimator h_r, h_c and the width,
 * then "Overall" with H_r, H_c, H_I; type "Restart". */
static struct json *restart_json(const char *path, const char *sha, const struct restart_result *r)
{
	struct json *cases, *tc;
	struct json *doc = nist_json_doc(r->iid, "Restart", path, sha, &cases);
	int rc = 0;

	if (!doc)
		return NULL;
	for (int i = 0; cases && r->sanity_passed && i < NONIID_NEST; i++) {
		if (!r->ran[i] || json_append_new(cases, JSON_OBJECT, &tc) != 0)
			continue;
		rc |= json_set_string(tc, "testCaseDesc", case_desc[i]);
		rc |= json_set_real(tc, "dataWordSize", r->bits);
		if (r->row[i].applicable)
			rc |= json_set_real(tc, "h_r", r->row[i].h);
		if (r->col[i].applicable)
			rc |= json_set_real(tc, "h_c", r->col[i].h);
	}
	if (cases && r->sanity_passed && json_append_new(cases, JSON_OBJECT, &tc) == 0) {
		rc |= json_set_string(tc, "testCaseDesc", "Overall");
		rc |= json_set_real(tc, "h_r", r->h_r);
		rc |= json_set_real(tc, "h_c", r->h_c);
		rc |= json_set_real(tc, "h_i", r->h_i);
	}
	if (rc != 0 || !cases) {
		json_free(doc);
		return NULL;
	}
	return doc;
}

static void print_chisq(const char *what, const struct iid_chisq *c, int verbose)
{
	if (verbose == 2) {
		printf("Chi square %s\n\tscore = %f\n\tdegrees of freedom = %d\n\tp-value = %f\n\n",
		       what, c->score, c->df, c->p);
	} else if (verbose >= 3) {
		printf("Chi square %s: T = %.17g\n", what, c->score);
		printf("Chi square %s: df = %d\n", what, c->df);
		printf("Chi square %s: P-value = %.17g\n", what, c->p);
	}
}

/* -o, whatever the outcome once the tests ran; then the exit status */
static int restart_finish(const char *json_path, const char *path, const char *sha,
			  const struct restart_result *r, int status)
{
	fflush(stdout);
	if (json_path && nist_json_save(CMD, json_path, restart_json(path, sha, r)) != 0)
		return EXIT_ERROR;
	return status;
}

int cmd_restart(int argc, char **argv)
{
	int iid = 0, verbose = 1, quiet = 0, opt, rc;
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
	while ((opt = getopt(argc, argv, "+invqo:")) != -1) {
		switch (opt) {
		case 'i': iid = 1; break;
		case 'n': iid = 0; break;
		case 'v': verbose++; break;
		case 'q': quiet = 1; break;
		case 'o': json_path = optarg; break;
		default:
			return cli_error(CMD, "unknown option '-%c' (usage: rngaudit restart [-i|-n] "
					 "[-v|-vv|-q] [-o JSON] FILE [BITS] H_I)", optopt);
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
	if (verbose > 1)
		printf("Opening file: '%s' (SHA-256 hash %s)\n", termtext(path), sha);
	rc = restart_run(buf, n, bits, h_i, iid, 0, &r, &e);
	free(buf);
	if (rc)
		return cli_error(CMD, "%s: %s", path, e.msg);

	if (verbose > 1) {
		printf("Loaded %zu samples made up of %u distinct %u-bit-wide symbols.\n", n, r.k, bits);
		if (r.k < (1u << bits))
			printf("\nSymbols have been translated.\n\n");
	}
	printf("H_I: %f\n", h_i);
	if (verbose > 0) {
		printf("ALPHA: %.17g, X_cutoff: %d\n", r.alpha, r.x_cutoff);
		printf("X_max: %d\n", r.x_max);
	}
	if (!r.sanity_passed) {
		if (verbose > 0)
			printf("\n*** Restart Sanity Check Failed ***\n");
		return restart_finish(json_path, path, sha, &r, EXIT_FAILED);
	}
	if (verbose > 1)
		printf("\nRestart Sanity Check Passed...\n");
	if (verbose == 1 || verbose == 2)
		printf("Calculating baseline statistics...\n");
	if (verbose > 0) {
		printf("\nRunning %s tests...\n\n", iid ? "IID" : "non-IID");
		printf("Running Most Common Value Estimate...\n");
	}
	print_est(&r, NONIID_MCV, verbose);
	if (iid) {
		int chi = 1, lrs = 1;
		for (int d = 0; d < 2; d++) {
			print_chisq("independence", &r.chi_ind[d], verbose);
			print_chisq("goodness of fit", &r.chi_gof[d], verbose);
			chi &= !(r.chi_ind[d].p < IID_CHISQ_ALPHA) && !(r.chi_gof[d].p < IID_CHISQ_ALPHA);
			lrs &= r.lrs[d].passed;
		}
		if (verbose == 1 || verbose == 2) {
			printf("** %s chi square tests\n\n", chi ? "Passed" : "Failed");
			printf("** %s length of longest repeated substring test\n\n",
			       lrs ? "Passed" : "Failed");
		} else if (verbose > 2) {
			printf("Chi square tests: %s\n", chi ? "Passed" : "Failed");
			printf("Length of longest repeated substring test: %s\n",
			       lrs ? "Passed" : "Failed");
		}
	} else {
		if (r.k == 2) {
			if (verbose > 0)
				printf("\nRunning Entropic Statistic Estimates (bit strings only)...\n");
			for (int i = NONIID_COLLISION; i <= NONIID_COMPRESSION; i++)
				print_est(&r, i, verbose);
		}
		if (verbose > 0)
			printf("\nRunning Tuple Estimates...\n");
		print_est(&r, NONIID_TUPLE, verbose);
		print_est(&r, NONIID_LRS, verbose);
		if (verbose > 0)
			printf("\nRunning Predictor Estimates...\n");
		for (int i = NONIID_MULTIMCW; i <= NONIID_LZ78Y; i++)
			print_est(&r, i, verbose);
	}
	if (verbose > 0) {
		printf("\n");
		printf("H_r: %f\n", r.h_r);
		printf("H_c: %f\n", r.h_c);
		printf("H_I: %f\n", h_i);
		printf("\n");
	}
	if (!r.validation_passed) {
		if (verbose > 0)
			printf("*** min(H_r, H_c) < H_I/2, Validation Testing Failed ***\n");
		return restart_finish(json_path, path, sha, &r, EXIT_FAILED);
	}
	if (verbose > 0) {
		printf("Validation Test Passed...\n\n");
		printf("min(H_r, H_c, H_I): %f\n\n", r.h_min);
	}
	return restart_finish(json_path, path, sha, &r, EXIT_OK);
}
