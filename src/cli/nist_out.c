/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_out.c - see nist_out.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli_util.h"
#include "cli/nist_out.h"
#include "bigmem.h"
#include "engine/samples.h"

static char *noted;   /* the run's words, from nist_note_commandline() */

void nist_note_commandline(int argc, char **argv)
{
	free(noted);
	noted = nist_json_commandline("rngaudit", argc, argv);
}

int nist_json_save(const char *cmd, const char *path, struct json *doc)
{
	struct err e;
	int rc = 0;

	if (!doc || nist_json_stamp(doc, noted ? noted : "rngaudit", time(NULL)) != 0) {
		json_free(doc);
		return cli_error(cmd, "%s: out of memory building the JSON report", path);
	}
	err_clear(&e);
	if (nist_json_write_file(path, doc, &e) != 0)
		rc = cli_error_err(cmd, &e);
	json_free(doc);
	return rc;
}

int nist_print_version(const char *cmd, const char *nist_name)
{
	printf("rngaudit %s %s\n", cmd, PACKAGE_VERSION);
	printf("Its options and outputs follow NIST's %s %s (SP800-90B_EntropyAssessment "
	       "commit 68ed165); see rngaudit-%s(1) for the differences.\n",
	       nist_name, NIST_TOOL_VERSION, cmd);
	return cli_finish_stdout(EXIT_OK);
}

int nist_iid_print_pretests(const struct iid_data *d, size_t nbits, int initial, int verbose,
			    struct nist_iid_pretests *out, struct err *e)
{
	struct est_result mcv_lit, mcv_bit;
	struct iid_chisq ind, gof;
	struct iid_lrs lrs;
	uint64_t *packed;

	nist_iid_print_baseline(stdout, d, nbits, initial, verbose);

	/* 90B 5 / 6.3.1: the IID estimate is the MCV estimate */
	out->h_original = d->bits;
	out->h_bitstring = 1.0;
	if (initial) {
		if (est_mcv(d->sym, d->n, d->k, &mcv_lit, e) != 0)
			return -1;
		nist_iid_print_mcv(stdout, "Literal", &mcv_lit, verbose);
		out->h_original = mcv_lit.h;
	}
	if (d->k > 2 || !initial) {
		/* packed, 64 bits a word (an eighth of a byte a bit's memory),
		 * filled whole: prefaulted, as noniid.c's (bigmem.h) */
		if (!(packed = bigmem_calloc(samples_packed_words(nbits), sizeof *packed)))
			return err_set(e, ERR_NOMEM, "out of memory for the bitstring"), -1;
		samples_to_packed(d->raw, d->n, d->bits, nbits, packed);
		if (est_mcv_bits(packed, nbits, &mcv_bit, e) != 0) {
			bigmem_free(packed);
			return -1;
		}
		nist_iid_print_mcv(stdout, "Bitstring", &mcv_bit, verbose);
		out->h_bitstring = mcv_bit.h;
		bigmem_free(packed);
	}
	/* what NIST's -vv prints; its JSON has it only then (see report/nist_iid.c) */
	out->h_assessed = d->bits;
	if ((d->k > 2 || !initial) && out->h_bitstring * d->bits < out->h_assessed)
		out->h_assessed = out->h_bitstring * d->bits;
	if (initial && out->h_original < out->h_assessed)
		out->h_assessed = out->h_original;
	nist_iid_print_entropy(stdout, d, initial, out->h_original, out->h_bitstring, out->h_assessed,
			       verbose);

	/* 5.2 chi-square tests */
	if (iid_chisq_independence(d->sym, d->n, d->k, &ind, e) != 0)
		return -1;
	nist_iid_print_chisq(stdout, "independence", &ind, verbose);
	if (iid_chisq_goodness(d->sym, d->n, d->k, &gof, e) != 0)
		return -1;
	nist_iid_print_chisq(stdout, "goodness of fit", &gof, verbose);
	out->chi_pass = !(ind.p < IID_CHISQ_ALPHA) && !(gof.p < IID_CHISQ_ALPHA);
	nist_iid_print_verdict(stdout, verbose, out->chi_pass, "chi square tests", "Chi square tests");

	/* 5.2.5 LRS */
	if (iid_lrs_test(d->sym, d->n, d->k, &lrs, e) != 0)
		return -1;
	nist_iid_print_lrs(stdout, &lrs, verbose);
	out->lrs_pass = lrs.passed;
	nist_iid_print_verdict(stdout, verbose, out->lrs_pass, "length of longest repeated substring test",
			       "Length of longest repeated substring test");
	return 0;
}
