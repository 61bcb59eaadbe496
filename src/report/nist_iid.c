/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_iid.c - see nist_iid.h.  The text follows iid_main.cpp,
 * shared/most_common.h, iid/chi_square_tests.h, shared/lrs_test.h and
 * iid/permutation_tests.h; the JSON, field by field, iid/iid_test_case.h,
 * iid/permutation_test_result.h and iid/iid_test_run.h, with one
 * deliberate difference: NIST's ea_iid writes "hAssessed" as the bits per
 * symbol unless run with -vv (iid_main.cpp computes it only there); this
 * writes the assessed value always (rngaudit-iid(1)). */
#include "config.h"

#include <string.h>

#include "report/nist_iid.h"
#include "report/termtext.h"
#include "report/nist_json.h"
#include "err.h"

/* NIST's MIN_SIZE: fewer samples than this draws its warning (90B 3.1.1). */
#define NIST_IID_MIN_SAMPLES 1000000u

void nist_iid_print_opening(FILE *fp, const char *path, const char *sha256, size_t sub_index,
			    size_t sub_count, int verbose)
{
	if (verbose <= 1)
		return;
	fprintf(fp, "Opening file: '%s' (SHA-256 hash %s)", termtext(path), sha256);
	if (sub_count != 0)
		fprintf(fp, ", reading block %zu of size %zu", sub_index, sub_count);
	fprintf(fp, "\n");
}

void nist_iid_print_loaded(FILE *fp, const struct iid_data *d, int verbose)
{
	if (d->narrower)
		fprintf(fp, "Warning: Symbols appear to be narrower than described.\n");
	if (verbose > 1)
		fprintf(fp, "Loaded %zu samples of %u distinct %u-bit-wide symbols\n", d->n, d->k, d->bits);
}

void nist_iid_print_baseline(FILE *fp, const struct iid_data *d, size_t nbits, int initial,
			     int verbose)
{
	if ((verbose > 1) && (d->k > 2 || !initial))
		fprintf(fp, "Number of Binary samples: %zu\n", nbits);
	if (d->n < NIST_IID_MIN_SAMPLES)
		fprintf(fp, "\n*** Warning: data contains less than %u samples ***\n\n",
			NIST_IID_MIN_SAMPLES);
	if (verbose > 1 && d->k < (1u << d->bits))
		fprintf(fp, "\nSamples have been translated\n");

	if (verbose == 1 || verbose == 2)
		fprintf(fp, "Calculating baseline statistics...\n");
	if (verbose == 2) {
		fprintf(fp, "\tRaw Mean: %f\n", d->rawmean);
		fprintf(fp, "\tMedian: %f\n", d->median);
		fprintf(fp, "\tBinary: %s\n\n", d->k == 2 ? "true" : "false");
	} else if (verbose > 2) {
		fprintf(fp, "Raw Mean = %.17g\n", d->rawmean);
		fprintf(fp, "Median = %.17g\n", d->median);
		fprintf(fp, "Binary = %s\n", d->k == 2 ? "true" : "false");
	}
}

void nist_iid_print_mcv(FILE *fp, const char *label, const struct est_result *r, int verbose)
{
	const struct est_detail *mode = est_detail_find(r, "Mode count"),
				*phat = est_detail_find(r, "p-hat");

	if (verbose < 2 || !mode || !phat)
		return;
	if (verbose == 2) {
		fprintf(fp, "%s MCV Estimate: mode = %lld, p-hat = %.17g, p_u = %.17g\n", label,
			mode->i, phat->x, r->p);
	} else if (verbose == 3) {
		fprintf(fp, "%s Most Common Value Estimate: Mode count = %lld\n", label, mode->i);
		fprintf(fp, "%s Most Common Value Estimate: p-hat = %.17g\n", label, phat->x);
		fprintf(fp, "%s Most Common Value Estimate: p_u = %.17g\n", label, r->p);
		fprintf(fp, "%s Most Common Value Estimate: min entropy = %.17g\n", label, r->h);
	}
}

void nist_iid_print_entropy(FILE *fp, const struct iid_data *d, int initial, double h_original,
			    double h_bitstring, double h_assessed, int verbose)
{
	if (verbose == 1 || verbose == 2) {
		if (initial) {
			fprintf(fp, "H_original: %f\n", h_original);
			if (d->k > 2) {
				fprintf(fp, "H_bitstring: %f\n", h_bitstring);
				fprintf(fp, "min(H_original, %u X H_bitstring): %f\n", d->bits,
					h_original < d->bits * h_bitstring ? h_original
									   : d->bits * h_bitstring);
			}
		} else {
			fprintf(fp, "h': %f\n", h_bitstring);
		}
	} else if (verbose > 2) {
		if (d->k > 2 || !initial) {
			fprintf(fp, "H_bitstring = %.17g\n", h_bitstring);
			fprintf(fp, "H_bitstring Per Symbol = %.17g\n", h_bitstring * d->bits);
		}
		if (initial)
			fprintf(fp, "H_original = %.17g\n", h_original);
		fprintf(fp, "Assessed min entropy: %.17g\n", h_assessed);
	}
}

void nist_iid_print_chisq(FILE *fp, const char *what, const struct iid_chisq *c, int verbose)
{
	if (verbose == 2) {
		fprintf(fp, "Chi square %s\n", what);
		fprintf(fp, "\tscore = %f\n", c->score);
		fprintf(fp, "\tdegrees of freedom = %d\n", c->df);
		fprintf(fp, "\tp-value = %f\n\n", c->p);
	} else if (verbose >= 3) {
		fprintf(fp, "Chi square %s: T = %.17g\n", what, c->score);
		fprintf(fp, "Chi square %s: df = %d\n", what, c->df);
		fprintf(fp, "Chi square %s: P-value = %.17g\n", what, c->p);
	}
}

void nist_iid_print_verdict(FILE *fp, int verbose, int pass, const char *what, const char *what3)
{
	if (verbose == 1 || verbose == 2)
		fprintf(fp, "** %s %s\n\n", pass ? "Passed" : "Failed", what);
	else if (verbose > 2)
		fprintf(fp, "%s: %s\n", what3, pass ? "Passed" : "Failed");
}

void nist_iid_print_lrs(FILE *fp, const struct iid_lrs *lrs, int verbose)
{
	if (lrs->degenerate) {
		if (verbose == 2)
			fprintf(fp, "\tPr(X >= 1) = 1.0\n");
		else if (verbose > 2)
			fprintf(fp, "Literal Longest Repeated Substring: P_col = 1.0\n"
				"Literal Longest Repeated Substring: Pr(X >= 1) = 1.0\n");
	} else if (verbose > 2) {
		fprintf(fp, "Literal Longest Repeated Substring results: P_col = %.22Lg\n", lrs->p_col);
		fprintf(fp, "Literal Longest Repeated Substring results: W = %ld\n", lrs->w);
		fprintf(fp, "Literal Longest Repeated Substring results: Pr(X >= 1) = %.22Lg\n",
			lrs->pr_ge1);
	} else if (verbose == 2) {
		fprintf(fp, "Literal Longest Repeated Substring results\n");
		fprintf(fp, "\tP_col: %Lf\n", lrs->p_col);
		fprintf(fp, "\tLength of LRS: %ld\n", lrs->w);
		fprintf(fp, "\tPr(X >= 1): %Lf\n", lrs->pr_ge1);
	}
	if (lrs->underflow && verbose >= 1)
		fprintf(fp, "\tP_col^W is below the range of long double (W = %ld): Pr(X >= 1) = 0\n",
			lrs->w);
}

void nist_iid_print_perm_begin(FILE *fp, int verbose)
{
	if (verbose == 2)
		fprintf(fp, "Beginning initial tests...\n");
}

void nist_iid_print_perm_initial(FILE *fp, const struct iid_perm_result *p, int verbose)
{
	if (verbose == 2) {
		fprintf(fp, "\nInitial test results\n");
		for (int i = 0; i < IID_NSTATS; i++)
			fprintf(fp, "%23s: %Lg\n", iid_stat_name(i), p->t[i]);
		fprintf(fp, "\n");
		fprintf(fp, "Beginning permutation tests... these may take some time\n");
	} else if (verbose >= 3) {
		for (int i = 0; i < IID_NSTATS; i++)
			fprintf(fp, "Permutation testing: Unpermuted result %s = %.22Lg\n",
				iid_stat_name(i), p->t[i]);
	}
}

void nist_iid_print_progress(FILE *fp, const struct iid_perm_result *p, int threads, int tty)
{
	int decided_at[IID_NSTATS], last = 0;

	if (threads < 1)
		threads = 1;
	/* a statistic counts shuffles until it is decided: a passed one's
	 * counters add up to the shuffle that decided it; a failed one stays
	 * undecided through all IID_PERMS */
	for (int i = 0; i < IID_NSTATS; i++) {
		int sum = p->c[i][0] + p->c[i][1] + p->c[i][2];

		decided_at[i] = p->stat_passed[i] ? sum : IID_PERMS + 1;
		if (!p->stat_passed[i])
			last = IID_PERMS;
		else if (sum > last)
			last = sum;
	}
	for (int done = 1; done <= last && done <= IID_PERMS; done++) {
		int passed = 0;

		for (int i = 0; i < IID_NSTATS; i++)
			passed += decided_at[i] <= done;
		/* NIST's arithmetic: the counts as float, then double */
		fprintf(fp, "%s%6.02f%% of Permutation test rounds, %6.02f%% of Permutation tests",
			tty ? "\r" : "", 100.0 * (float)done / (float)IID_PERMS,
			100.0 * (float)passed / 19.0);
		if (!tty)
			fprintf(fp, " (Core %d/%d, passed_count %d)\n", (done - 1) % threads,
				threads - 1, passed);
	}
}

void nist_iid_print_perm_table(FILE *fp, const struct iid_perm_result *p, int verbose)
{
	if (verbose <= 1)
		return;
	fprintf(fp, "\n\n                statistic  C[i][0]  C[i][1]  C[i][2]\n");
	fprintf(fp, "----------------------------------------------------\n");
	for (int i = 0; i < IID_NSTATS; i++) {
		if (p->skipped[i] && p->c[i][0] + p->c[i][1] + p->c[i][2] == 0)
			fprintf(fp, "%25s  not scored (--full scores it)\n", iid_stat_name(i));
		else if (p->skipped[i])
			fprintf(fp, "%25s%8d%8d%8d  stopped (--full runs it)\n", iid_stat_name(i),
				p->c[i][0], p->c[i][1], p->c[i][2]);
		else if (!p->stat_passed[i])
			fprintf(fp, "%24s*%8d%8d%8d\n", iid_stat_name(i), p->c[i][0], p->c[i][1],
				p->c[i][2]);
		else
			fprintf(fp, "%25s%8d%8d%8d\n", iid_stat_name(i), p->c[i][0], p->c[i][1],
				p->c[i][2]);
	}
	fprintf(fp, "(* denotes failed test)\n\n");
}

/* permutation_test_result.h's member name: the statistic's printed name
 * without parentheses ("periodicity(8)" -> "periodicity8"). */
static void stat_key(int i, char *key, size_t size)
{
	const char *s = iid_stat_name(i);
	size_t k = 0;

	for (; *s && k + 1 < size; s++)
		if (*s != '(' && *s != ')')
			key[k++] = *s;
	key[k] = '\0';
}

int nist_iid_json_counters(struct json *results, const struct iid_perm_result *p)
{
	char key[32];
	int rc = 0;

	for (int it = 0; it < 3; it++) {
		struct json *r;

		if (json_append_new(results, JSON_OBJECT, &r) != 0)
			return ERR_NOMEM;
		rc |= json_set_int(r, "iteration", it);
		for (int i = 0; i < IID_NSTATS; i++) {
			stat_key(i, key, sizeof key);
			rc |= json_set_real(r, key, p->c[i][it]);
		}
	}
	return rc ? ERR_NOMEM : 0;
}

struct json *nist_iid_json(const struct nist_iid_json_in *in)
{
	struct json *tc, *results = NULL;
	struct json *doc = nist_json_doc_case(1, "", in->path, in->sha256, "", &tc);
	int rc = 0;

	if (!doc)
		return NULL;
	rc |= json_set_real(tc, "mean", in->mean);
	rc |= json_set_real(tc, "median", in->median);
	if (in->binary)
		rc |= json_set_bool(tc, "binary", 1);
	rc |= json_set_real(tc, "hOriginal", in->h_original);
	rc |= json_set_real(tc, "hBitstring", in->h_bitstring);
	rc |= json_set_real(tc, "hAssessed", in->h_assessed);
	rc |= json_set_bool(tc, "passedChiSquareTests", in->chi_pass);
	rc |= json_set_bool(tc, "passedLongestRepeatedSubstringTest", in->lrs_pass);
	rc |= json_set_bool(tc, "passedIidPermutationTests", in->perm->passed);
	rc |= json_set_new(tc, "permutationTestResults", JSON_ARRAY, &results);
	if (results)
		rc |= nist_iid_json_counters(results, in->perm);
	if (rc != 0 || !results) {
		json_free(doc);
		return NULL;
	}
	return doc;
}
