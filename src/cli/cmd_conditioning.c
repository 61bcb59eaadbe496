/* cmd_conditioning.c - `rngaudit conditioning [-v|-n] [-q] [-o JSON] n_in n_out nw h_in [h']`
 * (or `-n -i FILE [-c iid|non_iid] n_in n_out nw h_in`: h' assessed from a
 * file of conditioned output, 90B 3.1.5.2): SP 800-90B 3.1.5 entropy after
 * conditioning, printed line for line as NIST's ea_conditioning (v1.1.7)
 * prints it. */
#include "config.h"

#include <fenv.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/nist_out.h"
#include "parse.h"
#include "cli/commands.h"
#include "conditioning.h"
#include "estimators/estimators.h"
#include "estimators/noniid.h"
#include "engine/samples.h"

/* 90B 3.1.5.2: h' of a conditioned sequential dataset is the bitstring
 * assessment (all ten estimators, or the MCV only for IID data), as NIST's
 * computeEntropyOfConditionedData computes it. */
static int h_prime_of_samples(const char *path, uint8_t *s, size_t n, int iid, long double *h_p,
			      struct err *e)
{
	uint8_t *bits = NULL;
	int rc;
	if (iid) {
		unsigned k = samples_infer_bits(s, n);
		struct est_result r;
		bits = malloc(n * k);
		if (!bits)
			return err_set(e, ERR_NOMEM, "%s: out of memory", path);
		samples_to_bits(s, n, k, bits);
		rc = est_mcv(bits, n * k, 2, &r, e);
		if (rc == 0)
			*h_p = r.h < 1.0 ? r.h : 1.0;
	} else {
		struct noniid_opts o;
		struct noniid_report *rep = malloc(sizeof *rep);
		if (!rep)
			return err_set(e, ERR_NOMEM, "%s: out of memory", path);
		noniid_opts_init(&o);
		o.conditioned = 1;
		rc = noniid_assess(s, n, &o, rep, e);
		if (rc == 0)
			*h_p = rep->h_bitstring < 1.0 ? rep->h_bitstring : 1.0;
		noniid_report_free(rep);
		free(rep);
	}
	free(bits);
	return rc;
}

static int parse_width(const char *text, const char *what, unsigned *out)
{
	uint64_t v;
	if (parse_u64(text, 1, UINT_MAX, &v) != 0)
		return cli_error("conditioning", "%s: '%s' is not an integer in 1..%u", what, text,
				 UINT_MAX);
	*out = (unsigned)v;
	return 0;
}

/* NIST's ea_conditioning -o document (conditioning_main.cpp: one
 * "Overall" test case, type "Conditioning", no file); the long doubles
 * are written as doubles, as NIST's jsoncpp values are, converted under
 * its FE_TOWARDZERO like everything in that tool. */
static struct json *cond_json(const struct cond_result *r)
{
	struct json *tc;
	struct json *doc = nist_json_doc_case(0, "Conditioning", NULL, NULL, "Overall", &tc);
	int rc = 0;

	if (!doc)
		return NULL;
	fesetround(FE_TOWARDZERO);
	rc |= json_set_real(tc, "n_in", r->n_in);
	rc |= json_set_real(tc, "n_out", r->n_out);
	rc |= json_set_real(tc, "nw", r->nw);
	rc |= json_set_real(tc, "h_in", (double)r->h_in);
	rc |= json_set_real(tc, "h_out", (double)r->h_out);
	if (!r->vetted)
		rc |= json_set_real(tc, "h_p", (double)r->h_p);
	fesetround(FE_TONEAREST);
	if (rc != 0) {
		json_free(doc);
		return NULL;
	}
	return doc;
}

int cmd_conditioning(int argc, char **argv)
{
	int vetted = 1, quiet = 0, opt, i, iid_file = 0;
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
		rc = h_prime_of_samples(file, s, n, iid_file, &h_p, &e);
		free(s);
		if (rc != 0)
			return cli_error_err("conditioning", &e);
	}
	if (conditioning_compute(n_in, n_out, nw, h_in, vetted, h_p, &r, &e) != 0)
		return cli_error_err("conditioning", &e);
	if (json_path && nist_json_save("conditioning", json_path, cond_json(&r)) != 0)
		return EXIT_ERROR;
	if (quiet) {
		/* NIST's -q still prints the precision lines */
		for (i = 0; i < r.nattempts; i++)
			printf("Attempting to compute entropy with %ld bits of precision.\n", r.prec[i]);
		return cli_finish_stdout(EXIT_OK);
	}

	/* NIST's tool runs under FE_TOWARDZERO throughout, and glibc's printf
	 * honours the rounding mode: print the same digits. */
	fesetround(FE_TOWARDZERO);
	printf("n_in = %u\n", r.n_in);
	printf("n_out = %u\n", r.n_out);
	printf("nw = %u\n", r.nw);
	printf("h_in = %.22Lg\n", r.h_in);
	if (!vetted)
		printf("h' = %.22Lg\n", r.h_p);
	for (i = 0; i < r.nattempts; i++)
		printf("Attempting to compute entropy with %ld bits of precision.\n", r.prec[i]);
	printf("Output_Entropy(*) = %.22Lg", r.output_entropy);
	if (r.output_entropy == (long double)r.n_out)
		printf("; Close to n_out (epsilon = 2^(-%.22Lg))", r.nout_eps_exp);
	if (r.output_entropy == r.h_in)
		printf("; Close to h_in (epsilon = 2^(-%.22Lg))", r.hin_eps_exp);
	if (r.output_entropy == (long double)r.nw)
		printf("; Close to nw (epsilon = 2^(-%.22Lg))", r.nw_eps_exp);
	printf("\n");
	if (vetted) {
		printf("(Vetted) h_out = %.22Lg\n", r.h_out);
		if (r.near_full) {
			printf("epsilon = 2^(-%.22Lg)", r.nout_eps_exp);
			if (r.ig_dk_full)
				printf(": FIPS 140-3 IG D.K Resolution 19 Full Entropy if the "
				       "conditioning component security strength is >= %u", r.n_out);
			printf("\n");
		}
	} else {
		printf("0.999 * n_out = %.22Lg\n", r.bound_90b);
		printf("h' * n_out = %.22Lg\n", r.stat_bound);
		printf("(Non-vetted) h_out = %.22Lg\n", r.h_out);
	}
	fflush(stdout);
	fesetround(FE_TONEAREST);
	return EXIT_OK;
}
