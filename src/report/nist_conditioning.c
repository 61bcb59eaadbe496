/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_conditioning.c - see nist_conditioning.h.  Line for line as
 * conditioning_main.cpp prints and writes them. */
#include "config.h"

#include <fenv.h>

#include "report/nist_conditioning.h"
#include "report/nist_json.h"

void nist_conditioning_print(FILE *fp, const struct cond_result *r, int quiet)
{
	int i, mode = fegetround();

	if (quiet) {
		/* NIST's -q still prints the precision lines */
		for (i = 0; i < r->nattempts; i++)
			fprintf(fp, "Attempting to compute entropy with %ld bits of precision.\n",
				r->prec[i]);
		return;
	}
	/* NIST's tool runs under FE_TOWARDZERO throughout, and glibc's printf
	 * honours the rounding mode: print the same digits. */
	fesetround(FE_TOWARDZERO);
	fprintf(fp, "n_in = %u\n", r->n_in);
	fprintf(fp, "n_out = %u\n", r->n_out);
	fprintf(fp, "nw = %u\n", r->nw);
	fprintf(fp, "h_in = %.22Lg\n", r->h_in);
	if (!r->vetted)
		fprintf(fp, "h' = %.22Lg\n", r->h_p);
	for (i = 0; i < r->nattempts; i++)
		fprintf(fp, "Attempting to compute entropy with %ld bits of precision.\n", r->prec[i]);
	fprintf(fp, "Output_Entropy(*) = %.22Lg", r->output_entropy);
	if (r->output_entropy == (long double)r->n_out)
		fprintf(fp, "; Close to n_out (epsilon = 2^(-%.22Lg))", r->nout_eps_exp);
	if (r->output_entropy == r->h_in)
		fprintf(fp, "; Close to h_in (epsilon = 2^(-%.22Lg))", r->hin_eps_exp);
	if (r->output_entropy == (long double)r->nw)
		fprintf(fp, "; Close to nw (epsilon = 2^(-%.22Lg))", r->nw_eps_exp);
	fprintf(fp, "\n");
	if (r->vetted) {
		fprintf(fp, "(Vetted) h_out = %.22Lg\n", r->h_out);
		if (r->near_full) {
			fprintf(fp, "epsilon = 2^(-%.22Lg)", r->nout_eps_exp);
			if (r->ig_dk_full)
				fprintf(fp, ": FIPS 140-3 IG D.K Resolution 19 Full Entropy if the "
					"conditioning component security strength is >= %u", r->n_out);
			fprintf(fp, "\n");
		}
	} else {
		fprintf(fp, "0.999 * n_out = %.22Lg\n", r->bound_90b);
		fprintf(fp, "h' * n_out = %.22Lg\n", r->stat_bound);
		fprintf(fp, "(Non-vetted) h_out = %.22Lg\n", r->h_out);
	}
	fesetround(mode);
}

/* conditioning_main.cpp: one "Overall" test case, type "Conditioning";
 * the long doubles are written as doubles, as NIST's jsoncpp values are,
 * converted under its FE_TOWARDZERO like everything in that tool. */
struct json *nist_conditioning_json(const struct cond_result *r, const char *path,
				    const char *sha256)
{
	struct json *tc;
	struct json *doc = nist_json_doc_case(0, "Conditioning", path, sha256, "Overall", &tc);
	int rc = 0, mode = fegetround();

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
	fesetround(mode);
	if (rc != 0) {
		json_free(doc);
		return NULL;
	}
	return doc;
}
