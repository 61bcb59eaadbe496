/* SPDX-License-Identifier: GPL-3.0-or-later */
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
		/* rows then columns: chi-square, then the LRS test */
		for (int d = 0; d < 2; d++) {
			nist_iid_print_chisq(fp, "independence", &r->chi_ind[d], verbose);
			nist_iid_print_chisq(fp, "goodness of fit", &r->chi_gof[d], verbose);
		}
		nist_iid_print_verdict(fp, verbose, nist_restart_chi_passed(r), "chi square tests",
				       "Chi square tests");
		for (int d = 0; d < 2; d++)
			nist_iid_print_lrs(fp, &r->lrs[d], verbose);
		nist_iid_print_verdict(fp, verbose, nist_restart_lrs_passed(r),
				       "length of longest repeated substring test",
				       "Length of longest repeated substring test");
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

int nist_restart_chi_passed(const struct restart_result *r)
{
	int pass = 1;

	for (int d = 0; d < 2; d++)
		pass &= !(r->chi_ind[d].p < IID_CHISQ_ALPHA) && !(r->chi_gof[d].p < IID_CHISQ_ALPHA);
	return pass;
}

int nist_restart_lrs_passed(const struct restart_result *r)
{
	return r->lrs[0].passed && r->lrs[1].passed;
}

int nist_restart_perm_passed(const struct restart_result *r)
{
	int pass = r->perm_runs > 0;

	for (int k = 0; k < r->perm_runs; k++)
		pass &= r->perm[k].passed;
	return pass;
}

void nist_restart_print_perm(FILE *fp, const struct restart_result *r, int k, int verbose,
			     int progress_threads, int tty)
{
	nist_iid_print_perm_begin(fp, verbose);
	nist_iid_print_perm_initial(fp, &r->perm[k], verbose);
	if (verbose == 2 && progress_threads > 0)
		nist_iid_print_progress(fp, &r->perm[k], progress_threads, tty);
	nist_iid_print_perm_table(fp, &r->perm[k], verbose);
}

void nist_restart_print_perm_verdict(FILE *fp, const struct restart_result *r, int verbose)
{
	nist_iid_print_verdict(fp, verbose, nist_restart_perm_passed(r), "IID permutation tests",
			       "IID permutation tests");
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

/* The IID track's one "Overall" case (iid/iid_test_case.h for
 * restart_main.cpp's tcOverallIid): H_r, H_c, H_I, the three verdicts and
 * the counters of each permutation run, three iterations a run; its mean
 * and median are never set there, so they are written as 0. */
static int json_iid_overall(struct json *cases, const struct restart_result *r)
{
	struct json *tc, *results = NULL;
	int rc;

	if ((rc = json_append_new(cases, JSON_OBJECT, &tc)) != 0)
		return rc;
	rc = json_set_string(tc, "testCaseDesc", "Overall");
	rc |= json_set_real(tc, "h_r", r->h_r);
	rc |= json_set_real(tc, "h_c", r->h_c);
	rc |= json_set_real(tc, "h_i", r->h_i);
	rc |= json_set_real(tc, "mean", 0.0);
	rc |= json_set_real(tc, "median", 0.0);
	rc |= json_set_bool(tc, "passedChiSquareTests", nist_restart_chi_passed(r));
	rc |= json_set_bool(tc, "passedLongestRepeatedSubstringTest", nist_restart_lrs_passed(r));
	rc |= json_set_bool(tc, "passedIidPermutationTests", nist_restart_perm_passed(r));
	if (r->perm_runs == 0)
		return rc ? ERR_NOMEM : json_set_null(tc, "permutationTestResults");
	rc |= json_set_new(tc, "permutationTestResults", JSON_ARRAY, &results);
	for (int k = 0; results && k < r->perm_runs; k++)
		rc |= nist_iid_json_counters(results, &r->perm[k]);
	return rc || !results ? ERR_NOMEM : 0;
}

/* NIST's ea_restart -o document, type "Restart".  Passed: per estimator
 * h_r, h_c and the width, then "Overall" with H_r, H_c, H_I (non-IID
 * track), or the one IID "Overall" case.  Failed: errorLevel -1 and
 * NIST's message; the non-IID track keeps the estimators' cases of a
 * failed validation, as restart_main.cpp does (it pushes them as it goes),
 * and nothing else has any (testCases null). */
struct json *nist_restart_json(const char *path, const char *sha256, const struct restart_result *r)
{
	struct json *cases, *tc;
	struct json *doc = nist_json_doc(r->iid, "Restart", path, sha256, &cases);
	const char *fail = !r->sanity_passed ? "Restart Sanity Check Failed." :
			   !r->validation_passed ? "min(H_r, H_c) < H_I/2, Validation Testing Failed." :
			   NULL;
	int rc = 0;

	if (!doc)
		return NULL;
	if (fail) {
		rc |= json_set_int(doc, "errorLevel", -1);
		rc |= json_set_string(doc, "errorMessage", fail);
	}
	if (!r->sanity_passed || (r->iid && fail)) {
		rc |= json_set_null(doc, "testCases");
	} else if (r->iid) {
		rc |= json_iid_overall(cases, r);
	} else {
		for (int i = 0; i < NONIID_NEST; i++) {
			if (!r->ran[i] || json_append_new(cases, JSON_OBJECT, &tc) != 0)
				continue;
			rc |= json_set_string(tc, "testCaseDesc", nist_case_desc[i]);
			rc |= json_set_real(tc, "dataWordSize", r->bits);
			if (r->row[i].applicable)
				rc |= json_set_real(tc, "h_r", r->row[i].h);
			if (r->col[i].applicable)
				rc |= json_set_real(tc, "h_c", r->col[i].h);
		}
		if (!fail && json_append_new(cases, JSON_OBJECT, &tc) == 0) {
			rc |= json_set_string(tc, "testCaseDesc", "Overall");
			rc |= json_set_real(tc, "h_r", r->h_r);
			rc |= json_set_real(tc, "h_c", r->h_c);
			rc |= json_set_real(tc, "h_i", r->h_i);
		} else if (!fail) {
			rc = ERR_NOMEM;
		}
	}
	if (rc != 0) {
		json_free(doc);
		return NULL;
	}
	return doc;
}
