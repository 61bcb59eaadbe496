/* nist_restart.c - see nist_restart.h.  Each print follows a line of
 * NIST's restart_main.cpp; the estimators' own lines are ea_non_iid's
 * (report/nist_noniid.c) and the chi-square lines ea_iid's
 * (report/nist_iid.c). */
#include "config.h"

#include "report/nist_iid.h"
#include "report/nist_json.h"
#include "report/nist_noniid.h"
#include "report/nist_restart.h"

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
static void print_est(FILE *fp, const struct restart_result *r, int i, int verbose)
{
	unsigned w = (i >= NONIID_COLLISION && i <= NONIID_COMPRESSION) ? 1 : r->bits;
	int pass = i == NONIID_TUPLE || i == NONIID_LRS;
	void (*own)(FILE *, const char *, const struct est_result *) =
		verbose == 2 ? nist_print_estimate_v : verbose == 3 ? nist_print_estimate_vv : NULL;

	if (verbose < 2 || !r->ran[i])
		return;
	if (own && i == NONIID_TUPLE)
		for (int d = 0; d < 2; d++) {
			own(fp, "Literal", d ? &r->col[NONIID_TUPLE] : &r->row[NONIID_TUPLE]);
			if (r->ran[NONIID_LRS])
				own(fp, "Literal", d ? &r->col[NONIID_LRS] : &r->row[NONIID_LRS]);
		}
	if (own && !pass)
		own(fp, "Literal", &r->row[i]);
	if (r->row[i].applicable)
		fprintf(fp, "\t%s (Rows) = %f / %u bit(s)\n", est_label[i], r->row[i].h, w);
	if (own && !pass)
		own(fp, "Literal", &r->col[i]);
	if (r->col[i].applicable)
		fprintf(fp, "\t%s (Cols) = %f / %u bit(s)\n", est_label[i], r->col[i].h, w);
}

void nist_restart_print_sanity(FILE *fp, const struct restart_result *r, size_t n, int verbose)
{
	if (verbose > 1) {
		fprintf(fp, "Loaded %zu samples made up of %u distinct %u-bit-wide symbols.\n", n, r->k,
			r->bits);
		if (r->k < (1u << r->bits))
			fprintf(fp, "\nSymbols have been translated.\n\n");
	}
	fprintf(fp, "H_I: %f\n", r->h_i);
	if (verbose > 0) {
		fprintf(fp, "ALPHA: %.17g, X_cutoff: %d\n", r->alpha, r->x_cutoff);
		fprintf(fp, "X_max: %d\n", r->x_max);
	}
	if (!r->sanity_passed) {
		if (verbose > 0)
			fprintf(fp, "\n*** Restart Sanity Check Failed ***\n");
		return;
	}
	if (verbose > 1)
		fprintf(fp, "\nRestart Sanity Check Passed...\n");
}

void nist_restart_print_validation(FILE *fp, const struct restart_result *r, int verbose)
{
	if (verbose == 1 || verbose == 2)
		fprintf(fp, "Calculating baseline statistics...\n");
	if (verbose > 0) {
		fprintf(fp, "\nRunning %s tests...\n\n", r->iid ? "IID" : "non-IID");
		fprintf(fp, "Running Most Common Value Estimate...\n");
	}
	print_est(fp, r, NONIID_MCV, verbose);
	if (r->iid) {
		int chi = 1, lrs = 1;
		for (int d = 0; d < 2; d++) {
			nist_iid_print_chisq(fp, "independence", &r->chi_ind[d], verbose);
			nist_iid_print_chisq(fp, "goodness of fit", &r->chi_gof[d], verbose);
			chi &= !(r->chi_ind[d].p < IID_CHISQ_ALPHA) && !(r->chi_gof[d].p < IID_CHISQ_ALPHA);
			lrs &= r->lrs[d].passed;
		}
		if (verbose == 1 || verbose == 2) {
			fprintf(fp, "** %s chi square tests\n\n", chi ? "Passed" : "Failed");
			fprintf(fp, "** %s length of longest repeated substring test\n\n",
				lrs ? "Passed" : "Failed");
		} else if (verbose > 2) {
			fprintf(fp, "Chi square tests: %s\n", chi ? "Passed" : "Failed");
			fprintf(fp, "Length of longest repeated substring test: %s\n",
				lrs ? "Passed" : "Failed");
		}
		return;
	}
	if (r->k == 2) {
		if (verbose > 0)
			fprintf(fp, "\nRunning Entropic Statistic Estimates (bit strings only)...\n");
		for (int i = NONIID_COLLISION; i <= NONIID_COMPRESSION; i++)
			print_est(fp, r, i, verbose);
	}
	if (verbose > 0)
		fprintf(fp, "\nRunning Tuple Estimates...\n");
	print_est(fp, r, NONIID_TUPLE, verbose);
	print_est(fp, r, NONIID_LRS, verbose);
	if (verbose > 0)
		fprintf(fp, "\nRunning Predictor Estimates...\n");
	for (int i = NONIID_MULTIMCW; i <= NONIID_LZ78Y; i++)
		print_est(fp, r, i, verbose);
}

void nist_restart_print_result(FILE *fp, const struct restart_result *r, int verbose)
{
	if (verbose > 0) {
		fprintf(fp, "\n");
		fprintf(fp, "H_r: %f\n", r->h_r);
		fprintf(fp, "H_c: %f\n", r->h_c);
		fprintf(fp, "H_I: %f\n", r->h_i);
		fprintf(fp, "\n");
	}
	if (!r->validation_passed) {
		if (verbose > 0)
			fprintf(fp, "*** min(H_r, H_c) < H_I/2, Validation Testing Failed ***\n");
		return;
	}
	if (verbose > 0) {
		fprintf(fp, "Validation Test Passed...\n\n");
		fprintf(fp, "min(H_r, H_c, H_I): %f\n\n", r->h_min);
	}
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
struct json *nist_restart_json(const char *path, const char *sha256, const struct restart_result *r)
{
	struct json *cases, *tc;
	struct json *doc = nist_json_doc(r->iid, "Restart", path, sha256, &cases);
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
