/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_noniid.c - see nist_noniid.h.  Each print below names the line of
 * NIST's cpp/non_iid_main.cpp, shared/most_common.h, shared/lrs_test.h,
 * the non_iid/ headers or shared/utils.h (predictionEstimate) it reproduces.
 *
 * Formats: NIST prints most figures with %.17g and the t-Tuple p-hat_max
 * and p_u (and, at -vv, the LRS p-hat and p_u) with %.22Lg of a long
 * double.  rngaudit computes them in double, so those lines carry the same
 * 22-digit format but agree with NIST's only to about 16 significant
 * digits (documented in rngaudit-assess(1)). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/nist_noniid.h"
#include "report/termtext.h"

/* NIST's MIN_SIZE: fewer samples than this draws its warning (90B 3.1.1). */
#define NIST_MIN_SAMPLES 1000000u

static double dx(const struct est_result *r, const char *key)
{
	const struct est_detail *d = est_detail_find(r, key);

	return !d ? 0.0 : d->kind == EST_DETAIL_INT ? (double)d->i : d->x;
}

static long long di(const struct est_result *r, const char *key)
{
	const struct est_detail *d = est_detail_find(r, key);

	return !d ? 0 : d->kind == EST_DETAIL_INT ? d->i : (long long)d->x;
}

static int is_id(const struct est_result *r, const char *id)
{
	return r->id && strcmp(r->id, id) == 0;
}

/* The 22-digit figures (lrs_test.h: %.22Lg of a long double). */
static int long_figure(const struct est_result *r, const char *key)
{
	return (is_id(r, "tuple") && (strcmp(key, "p-hat_max") == 0 || strcmp(key, "p_u") == 0)) ||
	       (is_id(r, "lrs") && (strcmp(key, "p-hat") == 0 || strcmp(key, "p_u") == 0));
}

/* What NIST prints where its estimator declines to run, at any level but
 * where noted; NULL where it prints nothing. */
static const char *skip_line(const struct est_result *r, int verbose)
{
	static char line[128];
	const char *least = strstr(r->reason, "needs at least ");

	/* the predictors' minimum lengths (multi_mcw_test.h: the largest
	 * window + 1; lz78y_test.h: B + 2; multi_mmc_test.h: 3) */
	if (least && (is_id(r, "multimcw") || is_id(r, "lz78y") || is_id(r, "multimmc"))) {
		snprintf(line, sizeof line, "\t*** Warning: not enough samples to run %s test (need more "
			 "than %ld) ***", is_id(r, "multimcw") ? "multiMCW" : is_id(r, "lz78y") ?
			 "LZ78Y" : "multiMMC", is_id(r, "multimcw") ?
			 strtol(least + strlen("needs at least "), NULL, 10) : is_id(r, "lz78y") ? 18L : 3L);
		return line;
	}
	if (is_id(r, "compression") && strstr(r->reason, "blocks"))
		return "\t*** Warning: not enough samples to run compression test (need more than 1000) ***";
	if (is_id(r, "tuple") && strstr(r->reason, "35 times"))
		return verbose > NIST_NORMAL ?
		       "t-Tuple Estimate: No strings are repeated 35 times. t-Tuple estimate failed." : NULL;
	if (is_id(r, "lrs") && strstr(r->reason, "v < u"))
		return "LRS Estimate: v<u. Can't Run LRS Test.";
	return NULL;
}

/* ---- -vv: every intermediate on its own line ---------------------------- */

void nist_print_estimate_vv(FILE *fp, const char *label, const struct est_result *r)
{
	const char *name = r->name ? r->name : "?";

	if (!r->applicable) {
		const char *s = skip_line(r, NIST_EXTRA);

		if (s)
			fprintf(fp, "%s\n", s);
		else
			fprintf(fp, "%s %s Estimate: not applicable: %s\n", label, name, r->reason);
		return;
	}
	for (int i = 0; i < r->ndetails; i++) {
		const struct est_detail *d = &r->detail[i];

		if (d->kind == EST_DETAIL_INT)
			fprintf(fp, "%s %s Estimate: %s = %lld\n", label, name, d->key, d->i);
		else if (d->kind == EST_DETAIL_REAL && long_figure(r, d->key))
			fprintf(fp, "%s %s Estimate: %s = %.22Lg\n", label, name, d->key, (long double)d->x);
		else if (d->kind == EST_DETAIL_REAL)
			fprintf(fp, "%s %s Estimate: %s = %.17g\n", label, name, d->key, d->x);
		else
			fprintf(fp, "%s %s Estimate: %s\n", label, name, d->key);
	}
}

/* ---- -v: one line per estimator, then NIST's "\t... Estimate" line ------ */

void nist_print_estimate_v(FILE *fp, const char *label, const struct est_result *r)
{
	if (!r->applicable) {
		const char *s = skip_line(r, NIST_VERBOSE);

		if (s)
			fprintf(fp, "%s\n", s);
		return;
	}
	if (is_id(r, "mcv"))            /* most_common.h */
		fprintf(fp, "%s MCV Estimate: mode = %lld, p-hat = %.17g, p_u = %.17g\n", label,
			di(r, "Mode count"), dx(r, "p-hat"), dx(r, "p_u"));
	else if (is_id(r, "collision") || is_id(r, "compression"))
		fprintf(fp, "%s %s Estimate: X-bar = %.17g, sigma-hat = %.17g, p = %.17g\n", label,
			r->name, dx(r, "X-bar"), dx(r, "sigma-hat"), dx(r, "p"));
	else if (is_id(r, "markov"))
		fprintf(fp, "%s Markov Estimate: P_0 = %.17g, P_1 = %.17g, P_0,0 = %.17g, P_0,1 = %.17g, "
			"P_1,0 = %.17g, P_1,1 = %.17g, p_max = %.17g\n", label, dx(r, "P_0"), dx(r, "P_1"),
			dx(r, "P_{0,0}"), dx(r, "P_{0,1}"), dx(r, "P_{1,0}"), dx(r, "P_{1,1}"),
			dx(r, "p-hat_max"));
	else if (is_id(r, "tuple"))     /* lrs_test.h, SAalgs32 */
		fprintf(fp, "%s t-Tuple Estimate: t = %lld, p-hat_max = %.22Lg, p_u = %.22Lg\n", label,
			di(r, "t"), (long double)dx(r, "p-hat_max"), (long double)dx(r, "p_u"));
	else if (is_id(r, "lrs"))
		fprintf(fp, "%s LRS Estimate: u = %lld, v = %lld, p-hat = %.17Lg, p_u = %.17Lg\n", label,
			di(r, "u"), di(r, "v"), (long double)dx(r, "p-hat"), (long double)dx(r, "p_u"));
	else if (est_detail_find(r, "P_local"))  /* utils.h, predictionEstimate */
		fprintf(fp, "%s %s Estimate: N = %lld, Pglobal' = %.17g (C = %lld) Plocal = %.17g (r = %lld)\n",
			label, r->name, di(r, "N"), dx(r, "P_global'"), di(r, "C"), dx(r, "P_local"),
			di(r, "r"));
	else
		fprintf(fp, "%s %s Estimate: N = %lld, Pglobal' = %.17g (C = %lld) Plocal can't affect "
			"result (r = %lld)\n", label, r->name, di(r, "N"), dx(r, "P_global'"), di(r, "C"),
			di(r, "r"));
}

/* non_iid_main.cpp's summary line of each estimator at -v. */
static const char *const test_name[NONIID_NEST] = {
	"Most Common Value Estimate", "Collision Test Estimate", "Markov Test Estimate",
	"Compression Test Estimate", "T-Tuple Test Estimate", "LRS Test Estimate",
	"Multi Most Common in Window (MultiMCW) Prediction Test Estimate",
	"Lag Prediction Test Estimate",
	"Multi Markov Model with Counting (MultiMMC) Prediction Test Estimate",
	"LZ78Y Prediction Test Estimate",
};

static void print_test_line(FILE *fp, const struct noniid_report *rep, int bitstring, int i)
{
	const struct est_result *r = bitstring ? &rep->bitstring[i] : &rep->literal[i];
	const unsigned char *ran = bitstring ? rep->bitstring_ran : rep->literal_ran;

	if (!ran[i] || !r->applicable)
		return;
	if (bitstring)
		fprintf(fp, "\t%s (bit string) = %f / 1 bit(s)\n", test_name[i], r->h);
	else
		fprintf(fp, "\t%s = %f / %u bit(s)\n", test_name[i], r->h, rep->bits);
}

/* The lines of estimator slot i (t-Tuple carries LRS along: one pass). */
static void print_slot(FILE *fp, const struct noniid_report *rep, int verbose, int i)
{
	static const char *const label[2] = { "Bitstring", "Literal" };

	for (int d = 0; d < 2; d++) {
		const struct est_result *r = d ? rep->literal : rep->bitstring;
		const unsigned char *ran = d ? rep->literal_ran : rep->bitstring_ran;
		int last = i == NONIID_TUPLE ? NONIID_LRS : i;

		for (int k = i; k <= last; k++) {
			if (!ran[k])
				continue;
			if (verbose == NIST_EXTRA)
				nist_print_estimate_vv(fp, label[d], &r[k]);
			else if (verbose == NIST_VERBOSE)
				nist_print_estimate_v(fp, label[d], &r[k]);
			else if (!r[k].applicable && skip_line(&r[k], verbose))
				fprintf(fp, "%s\n", skip_line(&r[k], verbose));
		}
		if (verbose == NIST_VERBOSE)
			print_test_line(fp, rep, !d, i);
	}
	if (verbose == NIST_VERBOSE && i == NONIID_TUPLE) {
		print_test_line(fp, rep, 1, NONIID_LRS);
		print_test_line(fp, rep, 0, NONIID_LRS);
	}
}

static void print_header(FILE *fp, const struct nist_noniid_run *run, int i)
{
	if (run->verbose != NIST_NORMAL && run->verbose != NIST_VERBOSE)
		return;
	if (i == NONIID_MCV)
		fprintf(fp, "\nRunning non-IID tests...\n\nRunning Most Common Value Estimate...\n");
	else if (i == NONIID_COLLISION)
		fprintf(fp, "\nRunning Entropic Statistic Estimates (bit strings only)...\n");
	else if (i == NONIID_TUPLE)
		fprintf(fp, "\nRunning Tuple Estimates...\n");
	else if (i == NONIID_MULTIMCW)
		fprintf(fp, "\nRunning Predictor Estimates...\n");
}

void nist_noniid_print(FILE *fp, const struct nist_noniid_run *run, const struct noniid_report *rep)
{
	int v = run->verbose;

	if (v > NIST_NORMAL) {
		if (!run->opening_printed) {
			fprintf(fp, "Opening file: '%s' (SHA-256 hash %s)", termtext(run->path), run->sha256);
			if (run->have_block)
				fprintf(fp, ", reading block %zu of size %zu", run->sub_index,
					run->sub_count);
			fprintf(fp, "\n");
		}
		fprintf(fp, "Loaded %zu samples of %u distinct %u-bit-wide symbols\n", rep->n,
			rep->alph_size, rep->bits);
	}
	if (rep->alph_size <= 1) {
		fprintf(fp, "Symbol alphabet consists of 1 symbol. No entropy awarded...\n");
		return;
	}
	if (v > NIST_NORMAL && rep->has_bitstring)
		fprintf(fp, "Number of Binary Symbols: %zu\n", rep->nbits);
	if (rep->n < NIST_MIN_SAMPLES)
		fprintf(fp, "\n*** Warning: data contains less than %u samples ***\n\n", NIST_MIN_SAMPLES);
	if (v > NIST_NORMAL && rep->translated)
		fprintf(fp, "\nSymbols have been translated.\n");
	for (int i = 0; i < NONIID_NEST; i++) {
		if (i == NONIID_LRS)
			continue;
		print_header(fp, run, i);
		print_slot(fp, rep, v, i);
	}
	if (v == NIST_NORMAL || v == NIST_VERBOSE) {
		if (run->conditioned) {
			fprintf(fp, "\nh': %f\n", rep->h_bitstring);
		} else {
			fprintf(fp, "\nH_original: %f\n", rep->h_original);
			if (rep->has_bitstring)
				fprintf(fp, "H_bitstring: %f\nmin(H_original, %u X H_bitstring): %f\n",
					rep->h_bitstring, rep->bits, rep->h_assessed);
		}
	} else if (v >= NIST_EXTRA) {
		if (rep->has_bitstring)
			fprintf(fp, "H_bitstring = %.17g\nH_bitstring Per Symbol = %.17g\n", rep->h_bitstring,
				rep->h_bitstring * rep->bits);
		if (!run->conditioned)
			fprintf(fp, "H_original = %.17g\n", rep->h_original);
		fprintf(fp, "Assessed min entropy: %.17g\n", rep->h_assessed);
	}
}

/* ---- -o: NIST's JSON ---------------------------------------------------- */

/* testCaseDesc of each NonIidTestCase, in non_iid_main.cpp's order
 * (restart_main.cpp names its test cases the same) */
const char *const nist_case_desc[NONIID_NEST] = {
	"Most Common Value", "Collision Test (for bit strings only)",
	"Markov Test (for bit strings only)", "Compression Test (for bit strings only)",
	"T-Tuple Test", "LRS Test", "Multi Most Common in Window Test", "Lag Prediction Test",
	"Multi Markov Model with Counting Test (MultiMMC)", "LZ78Y Test",
};

static int json_case(struct json *cases, const struct noniid_report *rep, int i)
{
	const struct est_result *b = &rep->bitstring[i], *l = &rep->literal[i];
	const char *bkey = i == NONIID_TUPLE ? "binTTupleRes" : i == NONIID_LRS ? "binLrsRes" : "hBitstring";
	const char *lkey = i == NONIID_TUPLE ? "tTupleRes" : i == NONIID_LRS ? "lrsRes" : "hOriginal";
	struct json *c;
	int rc;

	if ((rc = json_append_new(cases, JSON_OBJECT, &c)) != 0)
		return rc;
	rc = json_set_string(c, "testCaseDesc", nist_case_desc[i]);
	if (rep->bitstring_ran[i] && b->applicable)
		rc |= json_set_real(c, bkey, b->h);
	if (rep->literal_ran[i] && l->applicable)
		rc |= json_set_real(c, lkey, l->h);
	if (i == NONIID_MCV) {
		/* most_common() stores its figures in the test case on every call:
		 * the last call (literal, unless -c) is what NIST writes */
		const struct est_result *m = rep->literal_ran[i] ? l : b;

		if (m->applicable) {
			rc |= json_set_real(c, "mcvEstimateMode", dx(m, "Mode count"));
			rc |= json_set_real(c, "mcvEstimatePHat", dx(m, "p-hat"));
			rc |= json_set_real(c, "mcvEstimatePU", dx(m, "p_u"));
		}
	}
	return rc ? ERR_NOMEM : 0;
}

struct json *nist_noniid_json(const struct nist_noniid_run *run, const struct noniid_report *rep)
{
	struct json *cases, *all = NULL;
	struct json *doc = nist_json_doc(0, "", run->path, run->sha256, &cases);
	int rc = 0;

	if (!doc)
		return NULL;
	if (rep->alph_size <= 1) {
		/* non_iid_main.cpp: errorLevel -1, the message, no test cases */
		rc |= json_set_int(doc, "errorLevel", -1);
		rc |= json_set_string(doc, "errorMessage",
				      "Symbol alphabet consists of 1 symbol. No entropy awarded...");
		rc |= json_set_null(doc, "testCases");
	} else {
		for (int i = 0; i < NONIID_NEST; i++)
			rc |= json_case(cases, rep, i);
		if (json_append_new(cases, JSON_OBJECT, &all) == 0) {
			rc |= json_set_string(all, "testCaseDesc", "Overall");
			rc |= json_set_real(all, "dataWordSize", rep->bits);
			rc |= json_set_real(all, "hAssessed", rep->h_assessed);
			if (rep->has_bitstring)
				rc |= json_set_real(all, "hBitstring", rep->h_bitstring);
			if (!run->conditioned)
				rc |= json_set_real(all, "hOriginal", rep->h_original);
		} else {
			rc = ERR_NOMEM;
		}
	}
	if (rc != 0) {
		json_free(doc);
		return NULL;
	}
	return doc;
}
