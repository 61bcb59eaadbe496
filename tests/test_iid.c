/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_iid.c - SP 800-90B chapter 5: data preparation, the 5.1 statistics,
 * shuffling, the permutation ranking, the 5.2 chi-square tests and the LRS
 * test.  Expected values: see tests/data/iid/README (an independent Python
 * rendering of NIST ea_iid v1.1.7's formulas, and NIST's tool itself). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>

#include "tap.h"
#include "iid/bzsize.h"
#include "iid/iid.h"
#include "iid/stats_int.h"

static uint8_t *load(const char *rel, size_t *n)
{
	FILE *f = fopen(tap_srcpath(rel), "rb");
	uint8_t *buf = malloc(1 << 20);
	*n = f ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

struct expect {
	const char *file;
	unsigned bits;
	double mean, median;
	unsigned k;
	int translated;
	double stat[IID_NSTATS];
	double ind_t; int ind_df; double ind_p;
	double gof_t; int gof_df; double gof_p;
	long lrs_w; double p_col, pr_ge1;
};

/* from the Python reference (tests/data/iid/README) */
static const struct expect cases[] = {
	{ "tests/data/iid/rand4_1000.bin", 4, 7.626, 8.0, 16, 0,
	  { 95.78600000000006, 660, 6, 528, 495, 9, 5.841176470588235, 12, 70, 51, 54, 54, 67,
	    58012, 57103, 57628, 56078, 56397, 612 },
	  75.44237671186578, 67, 0.22428508559175472, 115.09608871957217, 126, 0.7471147351484578,
	  4, 0.0635120000000001, 0.9996899821275965 },
	{ "tests/data/iid/rand1_1000.bin", 1, 0.48, 0.5, 2, 0,
	  { 10.319999999999993, 84, 4, 76, 555, 9, 17.428571428571427, 42, 33, 30, 23, 29, 21,
	    1825, 1816, 1704, 1588, 1310, 206 },
	  37.51542221570419, 30, 0.16259148575058607, 3.125, 9, 0.9591320570046266,
	  17, 0.5008000000000007, 0.97743879915347 },
	{ "tests/data/iid/sparse3_1003.bin", 3, 3.8753738783649054, 2, 4, 1,
	  { 40.74875373878376, 619, 7, 635, 483, 10, 3.267100977198697, 5, 255, 244, 246, 245,
	    218, 15122, 15042, 14888, 14652, 14417, 326 },
	  12.922803894196525, 12, 0.3746765357174662, 27.18643215824963, 27, 0.45377148068208706,
	  8, 0.250716444882698, 0.999563199593667 },
};

static void check_case(const struct expect *x)
{
	size_t n;
	uint8_t *s = load(x->file, &n);
	struct iid_data d;
	struct iid_scratch *w;
	struct err e;
	long double st[IID_NSTATS];
	struct iid_chisq c;
	struct iid_lrs l;
	char name[160];

	if (iid_data_init(&d, s, n, x->bits, &e) != 0) {
		tap_ok(0, "%s: loads (%s)", x->file, e.msg);
		free(s);
		return;
	}
	tap_near(d.rawmean, x->mean, 1e-12, "raw mean");
	tap_near(d.median, x->median, 0, "median (0.5 for binary)");
	tap_eq_long(d.k, x->k, "alphabet size");
	tap_eq_long(d.translated, x->translated, "symbols translated as NIST does");

	w = iid_scratch_new(n);
	tap_ok(iid_stats_compute(&d, d.sym, d.raw, NULL, st, w, &e) == 0, "statistics compute");
	for (int i = 0; i < IID_NSTATS; i++) {
		snprintf(name, sizeof name, "%s %s = %.17g", x->file + 15, iid_stat_name(i),
			 x->stat[i]);
		tap_near((double)st[i], x->stat[i], 1e-9, name);
	}

	iid_chisq_independence(d.sym, n, d.k, &c, &e);
	tap_near(c.score, x->ind_t, 1e-9, "chi-square independence score");
	tap_eq_long(c.df, x->ind_df, "chi-square independence degrees of freedom");
	tap_near(c.p, x->ind_p, 1e-9, "chi-square independence p-value");
	iid_chisq_goodness(d.sym, n, d.k, &c, &e);
	tap_near(c.score, x->gof_t, 1e-9, "chi-square goodness-of-fit score");
	tap_eq_long(c.df, x->gof_df, "chi-square goodness-of-fit degrees of freedom");
	tap_near(c.p, x->gof_p, 1e-9, "chi-square goodness-of-fit p-value");

	iid_lrs_test(d.sym, n, d.k, &l, &e);
	tap_eq_long(l.w, x->lrs_w, "longest repeated substring length W");
	tap_near((double)l.p_col, x->p_col, 1e-15, "LRS P_col");
	tap_near((double)l.pr_ge1, x->pr_ge1, 1e-9, "LRS Pr(X >= 1)");
	tap_ok(l.passed, "LRS test passes on random data");

	iid_scratch_free(w);
	iid_data_free(&d);
	free(s);
}

static void check_shuffle(void)
{
	uint8_t a[4096], b[4096], c[4096];
	size_t ca[256] = { 0 }, cb[256] = { 0 };
	struct iid_rng g;

	for (int i = 0; i < 4096; i++)
		a[i] = (uint8_t)(i * 7);
	memcpy(b, a, sizeof a);
	memcpy(c, a, sizeof a);
	iid_rng_seed(&g, 42, 7);
	iid_shuffle(b, sizeof b, &g);
	iid_rng_seed(&g, 42, 7);
	iid_shuffle(c, sizeof c, &g);
	tap_ok(memcmp(b, c, sizeof b) == 0, "same seed and stream: same permutation");
	iid_rng_seed(&g, 42, 8);
	iid_shuffle(c, sizeof c, &g);
	tap_ok(memcmp(b, c, sizeof b) != 0, "another stream: another permutation");
	tap_ok(memcmp(a, b, sizeof a) != 0, "the shuffle moves samples");
	for (int i = 0; i < 4096; i++) {
		ca[a[i]]++;
		cb[b[i]]++;
	}
	tap_ok(memcmp(ca, cb, sizeof ca) == 0, "the shuffle is a permutation (same multiset)");
}

static void check_permutation(void)
{
	size_t n;
	uint8_t *s = load("tests/data/iid/rand4_1000.bin", &n);
	struct iid_data d;
	struct iid_perm_result r1, r2;
	struct iid_perm_opts o;
	struct err e;
	uint8_t saw[2000];
	int same = 1;

	iid_data_init(&d, s, n, 4, &e);
	iid_perm_opts_init(&o);
	o.threads = 1;
	tap_ok(iid_permutation_tests(&d, &o, &r1, &e) == 0, "permutation tests run (1 thread)");
	o.threads = 2;
	iid_permutation_tests(&d, &o, &r2, &e);
	for (int i = 0; i < IID_NSTATS; i++)
		for (int j = 0; j < 3; j++)
			same &= r1.c[i][j] == r2.c[i][j];
	tap_ok(same && r1.perms == r2.perms, "counts do not depend on the number of threads");
	tap_ok(r1.passed, "random 4-bit data passes the permutation tests");
	tap_ok(r1.perms < IID_PERMS, "early stop: random data needs fewer than 10,000 shuffles");
	for (int i = 0; i < IID_NSTATS; i++)
		if (!(r1.c[i][0] + r1.c[i][1] > IID_RANK_MIN && r1.c[i][1] + r1.c[i][2] > IID_RANK_MIN))
			same = 0;
	tap_ok(same, "every statistic is decided (C0+C1 > 5 and C1+C2 > 5)");
	iid_data_free(&d);

	/* a slow ramp 0,0,...,1,1,... repeated: far from IID */
	for (int i = 0; i < 2000; i++)
		saw[i] = (uint8_t)((i / 8) % 16);
	iid_data_init(&d, saw, sizeof saw, 4, &e);
	iid_permutation_tests(&d, &o, &r1, &e);
	tap_ok(!r1.passed, "a ramp fails the permutation tests");
	tap_ok(!r1.stat_passed[5], "a ramp fails lenRunsMedian");
	tap_ok(r1.skipped[IID_STAT_COMPRESSION] && r1.c[IID_STAT_COMPRESSION][0] == 0 &&
	       r1.perms == IID_PERMS, "compression is not scored once a cheap statistic failed");
	tap_ok(r1.decider >= 0 && !r1.skipped[r1.decider] && !r1.stat_passed[r1.decider] &&
	       r1.c[r1.decider][0] + r1.c[r1.decider][1] + r1.c[r1.decider][2] == IID_PERMS,
	       "the deciding statistic ran all 10,000 shuffles and failed");
	o.full = 1;
	iid_permutation_tests(&d, &o, &r2, &e);
	same = !r2.skipped[IID_STAT_COMPRESSION] && r2.perms == IID_PERMS && r2.decider < 0;
	for (int i = 0; i < IID_NSTATS; i++) {
		same &= !r2.skipped[i];
		for (int j = 0; j < 3 && !r1.skipped[i]; j++)
			same &= r1.c[i][j] == r2.c[i][j];
		/* a stopped statistic's counts are a prefix of the full run's */
		for (int j = 0; j < 3 && r1.skipped[i]; j++)
			same &= r1.c[i][j] <= r2.c[i][j];
	}
	/* the ramp compresses far better than any shuffle of it */
	tap_ok(same && r2.c[IID_STAT_COMPRESSION][0] == IID_PERMS && !r2.stat_passed[IID_STAT_COMPRESSION],
	       "full: everything scored to its end; counts of rows run to the end unchanged");
	iid_data_free(&d);
	free(s);
}

/* NIST ea_iid -vv markov1_100k.bin (tests/data/nist-oracle/iid/): a 1-bit
 * Markov chain that keeps its bit with probability 0.8, clearly not IID.
 * The permutation tests are left to the CLI checks (rejected data runs all
 * 10,000 shuffles); everything deterministic is compared here. */
static void check_markov(void)
{
	static const double want[IID_NSTATS] = {
		277.0712000000003172318, 7775, 9, 7055, 20054, 41, 8.253632760898282683115, 27,
		1618, 1357, 1385, 1346, 1422, 210244, 198454, 198651, 197386, 199264, 12612,
	};
	size_t n;
	uint8_t *s = load("tests/data/nist-oracle/inputs/markov1_100k.bin", &n);
	struct iid_data d;
	struct iid_scratch *w;
	struct iid_chisq c;
	struct iid_lrs l;
	struct err e;
	long double st[IID_NSTATS];
	char name[128];

	if (n != 100000 || iid_data_init(&d, s, n, 0, &e) != 0) {
		tap_ok(0, "markov1_100k.bin loads");
		free(s);
		return;
	}
	tap_near(d.rawmean, 0.49859999999999999, 1e-15, "markov1: raw mean as NIST");
	w = iid_scratch_new(n);
	iid_stats_compute(&d, d.sym, d.raw, NULL, st, w, &e);
	for (int i = 0; i < IID_NSTATS; i++) {
		snprintf(name, sizeof name, "markov1: unpermuted %s as NIST (%.17g)", iid_stat_name(i),
			 want[i]);
		tap_near((double)st[i], want[i], 1e-9, name);
	}
	iid_chisq_independence(d.sym, n, d.k, &c, &e);
	tap_near(c.score, 149753.5032924728, 1e-7, "markov1: independence T as NIST");
	tap_eq_long(c.df, 1022, "markov1: independence df as NIST (1022)");
	tap_ok(c.p < IID_CHISQ_ALPHA, "markov1: independence rejects (NIST p = 0)");
	iid_chisq_goodness(d.sym, n, d.k, &c, &e);
	tap_near(c.score, 53.058815981117284, 1e-9, "markov1: goodness-of-fit T as NIST");
	tap_near(c.p, 2.8487971800661061e-08, 1e-15, "markov1: goodness-of-fit p as NIST");
	iid_lrs_test(d.sym, n, d.k, &l, &e);
	tap_eq_long(l.w, 52, "markov1: LRS W as NIST (52)");
	tap_near((double)l.p_col, 0.5000039200007107508244, 1e-15, "markov1: P_col as NIST");
	tap_near((double)l.pr_ge1, 1.109531413946598758791e-06, 1e-15, "markov1: Pr(X >= 1) as NIST");
	tap_ok(!l.passed, "markov1: the LRS test fails, as NIST");
	iid_scratch_free(w);
	iid_data_free(&d);
	free(s);
}

/* iid_bz2_size_decimal (the size from the samples, no text) must give
 * libbz2's size of their text.  text/dest: scratch of cap bytes. */
static void check_bzsize_decimal(struct iid_bzwork *w, struct iid_rng *g, char *text, char *dest,
				 size_t cap)
{
	static const char *const what[] = {
		"random bytes", "random bits", "4-bit", "95% zeros", "111, 22 and 5",
	};
	static const size_t sizes[] = { 300000, 150000, 200000, 200000, 160000, 1, 2, 3 };
	uint8_t *v = malloc(cap);

	for (int c = 0; c < 8; c++) {
		int mode = c < 5 ? c : c % 2;
		size_t n = sizes[c], len = 0;
		unsigned dl = (unsigned)(cap + 600);
		uint64_t size = 0, tl = 0;
		int r, rc;
		for (size_t i = 0; i < n; i++) {
			uint64_t x = iid_rng_next(g);
			static const uint8_t runs[3] = { 111, 22, 5 };
			v[i] = (uint8_t)(mode == 0 ? x & 255 : mode == 1 ? x & 1 : mode == 2 ? x & 15 :
					 mode == 3 ? (x % 100 < 95 ? 0 : x >> 8 & 255) : runs[x % 3]);
			len += (size_t)sprintf(text + len, "%u ", v[i]);
		}
		len--;
		rc = BZ2_bzBuffToBuffCompress(dest, &dl, text, (unsigned)len, 5, 0, 0);
		r = iid_bz2_size_decimal(v, n, 5, w, &size, &tl);
		/* (one sample has no space: declined, the caller writes it) */
		tap_ok(rc == BZ_OK && iid_decimal_text_len(v, n) == len &&
			       ((r == 0 && size == dl && tl == len) || (n < 2 && r != 0)),
		       "bzip2 size of %zu samples (%s) from the samples: %llu as libbz2 (%u)", n,
		       what[mode], (unsigned long long)size, dl);
	}
	/* the first block's cut (499,981 characters) at every offset of a
	 * token, inside runs of 1 to 3 equal digits; and texts that end on,
	 * just after or just before it */
	for (int c = 0; c < 8; c++) {
		size_t n = 0, len = 0, end = c < 4 ? 520000 : 499981 + (size_t)c - 5;
		unsigned dl = (unsigned)(cap + 600);
		uint64_t size = 0, tl = 0;
		int r, rc;
		for (int i = 0; c < 4 && i < c; i++)
			len += (size_t)sprintf(text + len, "%u ", v[n++] = 7);
		while (len + 8 < end) {
			static const uint8_t runs[3] = { 111, 22, 5 };
			uint8_t x = runs[iid_rng_next(g) % 3];
			v[n++] = x;
			len += (size_t)sprintf(text + len, "%u ", x);
		}
		/* to end + 1 with the space, the last sample a lone digit */
		if ((end + 1 - len) % 2)
			len += (size_t)sprintf(text + len, "%u ", v[n++] = 22);
		while (len < end + 1)
			len += (size_t)sprintf(text + len, "%u ", v[n++] = 5);
		len--;
		rc = BZ2_bzBuffToBuffCompress(dest, &dl, text, (unsigned)len, 5, 0, 0);
		r = iid_bz2_size_decimal(v, n, 5, w, &size, &tl);
		tap_ok(rc == BZ_OK && r == 0 && size == dl && tl == len,
		       "bzip2 size from the samples, %zu characters (case %d): %llu as libbz2 (%u)",
		       len, c, (unsigned long long)size, dl);
	}
	free(v);
}

/* bzsize.c (with and without tokbwt.c) must give libbz2's exact sizes */
static void check_bzsize(void)
{
	static const char *const what[] = {
		"random bits", "random bytes", "3% ones", "values 0 and 200, 30%/70%",
		"0..4 in runs of 7", "random bytes, no separators", "long tokens",
	};
	size_t nsamp = 300000, cap = 10 * nsamp + 64;
	char *text = malloc(cap), *dest = malloc(cap + 600);
	struct iid_bzwork *w = iid_bzwork_new(5, SIZE_MAX);
	struct iid_rng g;

	iid_rng_seed(&g, 5, 11);
	for (int mode = 0; mode < 7; mode++) {
		size_t len = 0;
		unsigned dl = (unsigned)(cap + 600);
		int rc;
		for (size_t i = 0; i < nsamp; i++) {
			uint64_t r = iid_rng_next(&g);
			unsigned v;
			switch (mode) {
			case 0: v = r & 1; break;
			case 1: v = r & 255; break;
			case 2: v = r % 100 < 3; break;
			case 3: v = r % 100 < 30 ? 200 : 0; break;
			case 4: v = (unsigned)(i / 7 % 5); break;
			case 5: text[len++] = (char)r; continue;
			default: v = (unsigned)(r % 100000000u); break;
			}
			len += (size_t)sprintf(text + len, "%u ", v);
		}
		len--;
		rc = BZ2_bzBuffToBuffCompress(dest, &dl, text, (unsigned)len, 5, 0, 0);
		/* token sort with the vector MTF and refinement passes, with
		 * the portable ones, and the suffix sort */
		for (int variant = 0; variant < 3; variant++) {
			static const char *how[3] = { "token sort", "token sort, portable MTF and passes",
						      "suffix sort" };
			uint64_t size = 0;
			int r;
			iid_bzwork_use_tokens(w, variant != 2);
			iid_bzwork_use_simd(w, variant != 1);
			r = iid_bz2_size((const uint8_t *)text, len, 5, w, &size);
			/* -1 (declined, the caller then runs libbz2) is allowed only
			 * for the periodic text */
			tap_ok(rc == BZ_OK && ((r == 0 && size == dl) || (r != 0 && mode == 4)),
			       "bzip2 size of %s (%s): %llu as libbz2 (%u)", what[mode], how[variant],
			       (unsigned long long)size, dl);
		}
		iid_bzwork_use_simd(w, 1);
	}
	/* Block boundaries (bzip2 level 5 closes a block at 499,981 bytes):
	 * text of runs of 1 to 3 equal digits, one of them over the boundary,
	 * cut at lengths that end the input before, inside and after it */
	{
		size_t len = 0, nblock_max = 499981;
		while (len < nblock_max + 16) {
			uint64_t r = iid_rng_next(&g);
			int k = 1 + (int)(r % 3);
			for (int q = 0; q < k; q++)
				text[len++] = (char)('0' + (r >> 8) % 3);
			text[len++] = ' ';
		}
		/* and a run over the boundary: " 222 " from nblock_max - 2 */
		memcpy(text + nblock_max - 2, " 222 ", 5);
		for (size_t cut = nblock_max - 1; cut <= nblock_max + 5; cut++) {
			unsigned dl = (unsigned)(cap + 600);
			uint64_t size = 0;
			int rc = BZ2_bzBuffToBuffCompress(dest, &dl, text, (unsigned)cut, 5, 0, 0);
			int r;
			iid_bzwork_use_tokens(w, 1);
			r = iid_bz2_size((const uint8_t *)text, cut, 5, w, &size);
			tap_ok(rc == BZ_OK && (r != 0 || size == dl),
			       "bzip2 size of %zu bytes of digit runs: %llu as libbz2 (%u)", cut,
			       (unsigned long long)size, dl);
		}
	}
	check_bzsize_decimal(w, &g, text, dest, cap);
	iid_bzwork_free(w);
	free(text);
	free(dest);
}

/* The arrangements must follow the law of a shuffle: every ordering of the
 * multiset equally likely.  Counted over 60,000 draws; the bound is the
 * 1e-6 upper quantile of chi-square (59 or 55 df): 123.4 / 117.1. */
static void check_arrange(void)
{
	static const uint8_t ms[6] = { 7, 7, 7, 9, 9, 200 };
	size_t count[256] = { 0 }, seen[729] = { 0 }, bseen[256] = { 0 };
	struct iid_arrange *r;
	struct iid_rng g;
	double chi = 0.0, bchi = 0.0;
	int distinct = 0, bdistinct = 0, bad = 0;

	for (int i = 0; i < 6; i++)
		count[ms[i]]++;
	r = iid_arrange_new(count, 6);
	for (int k = 0; k < 60000; k++) {
		uint8_t a[6];
		uint64_t x;
		unsigned code = 0;
		iid_rng_seed(&g, 99, (uint64_t)k);
		iid_arrange_bytes(r, a, &g);
		for (int i = 0; i < 6; i++)
			code = code * 3 + (a[i] == 7 ? 0 : a[i] == 9 ? 1 : a[i] == 200 ? 2 : 99);
		if (code >= 729) {
			bad++;
			continue;
		}
		seen[code]++;
		iid_arrange_bits(&x, 8, 3, &g);
		bseen[x & 255]++;
		if (x >> 8 || __builtin_popcountll(x) != 3)
			bad++;
	}
	for (int c = 0; c < 729; c++)
		if (seen[c]) {
			distinct++;
			chi += (seen[c] - 1000.0) * (seen[c] - 1000.0) / 1000.0;
		}
	for (int c = 0; c < 256; c++)
		if (bseen[c]) {
			double e = 60000.0 / 56;
			bdistinct++;
			bchi += (bseen[c] - e) * (bseen[c] - e) / e;
		}
	tap_ok(bad == 0, "arrangements keep the multiset");
	tap_ok(distinct == 60 && chi < 123.4, "byte arrangements uniform over the 60 orderings "
	       "(chi-square %.1f, 59 df)", chi);
	tap_ok(bdistinct == 56 && bchi < 117.1, "bit arrangements uniform over the 56 orderings "
	       "(chi-square %.1f, 55 df)", bchi);
	iid_arrange_free(r);
}

/* FNV-1a of arrangements 0..2 (seed 800090) of n samples of one of three
 * multisets: uniform bytes, uniform 4-bit values, skewed bytes */
static uint64_t arrangement_hash(int kind, size_t n)
{
	uint8_t *v = malloc(n), *a = malloc(n);
	size_t count[256] = { 0 };
	uint64_t h = 0xcbf29ce484222325ULL;
	struct iid_rng g;
	struct iid_arrange *r;
	for (size_t i = 0; i < n; i++) {
		v[i] = kind == 0 ? (uint8_t)(i * 7 % 256) : kind == 1 ? (uint8_t)(i * 5 % 16)
				 : (uint8_t)(i % 10 < 7 ? 0 : i % 10 < 9 ? 3 : 200);
		count[v[i]]++;
	}
	r = iid_arrange_new(count, n);
	for (uint64_t k = 0; r && k < 3; k++) {
		iid_rng_seed(&g, 800090, k);
		iid_arrange_bytes(r, a, &g);
		for (size_t i = 0; i < n; i++)
			h = (h ^ a[i]) * 0x100000001b3ULL;
	}
	iid_arrange_free(r);
	free(v);
	free(a);
	return h;
}

/* A seed printed by `rngaudit iid` must give the same shuffles in every
 * version: the arrangements are pinned (values from the first release's
 * code), for each way of drawing them (8 random bits a sample, 4, or the
 * proposal table) and for lengths that leave 5 and 3 samples past the last
 * 8, where the draws are split differently. */
static void check_arrange_pinned(void)
{
	static const uint64_t want[3][2] = {
		{ 0x8ccfdf783eb63537ULL, 0x9e2b7315c93b09faULL },
		{ 0xf54bc6141dd2a07bULL, 0xeeeb35a2053e2caeULL },
		{ 0xff95535f0af9656bULL, 0x1a341b58291a877fULL },
	};
	static const char *what[3] = { "uniform bytes", "uniform 4-bit values", "skewed bytes" };
	uint64_t bits[1563], h = 0xcbf29ce484222325ULL;
	struct iid_rng g;
	for (int kind = 0; kind < 3; kind++) {
		tap_ok(arrangement_hash(kind, 100005) == want[kind][0] &&
			       arrangement_hash(kind, 100003) == want[kind][1],
		       "arrangements of %s for seed 800090 as pinned", what[kind]);
	}
	/* uniform bytes from 2^18 samples on are counted by pairs of values
	 * (shuffle.c): the same arrangements (pinned from the code that
	 * counted a value at a time) */
	tap_ok(arrangement_hash(0, ((size_t)1 << 18) + 5) == 0xb29fa101d88740e5ULL &&
		       arrangement_hash(0, ((size_t)1 << 18) + 3) == 0xcea5b9d30d5d29f6ULL,
	       "arrangements of 2^18 + 5 and 2^18 + 3 uniform bytes for seed 800090 as pinned");
	/* and counted a value at a time, as when a pair's 8-bit counter wraps */
	iid_arrange_recount(1);
	tap_ok(arrangement_hash(0, ((size_t)1 << 18) + 5) == 0xb29fa101d88740e5ULL &&
		       arrangement_hash(0, ((size_t)1 << 18) + 3) == 0xcea5b9d30d5d29f6ULL,
	       "the same when the pair counts are discarded (a wrapped counter)");
	iid_arrange_recount(0);
	/* past 2^24 samples the pairs are counted in chunks (pinned from the
	 * code that counted them in one table of 32-bit counters) */
	for (int recount = 0; recount < 2; recount++) {
		iid_arrange_recount(recount);
		tap_ok(arrangement_hash(0, ((size_t)1 << 24) + ((size_t)1 << 20) + 5) ==
			       0xa2e644c263a2363fULL,
		       "arrangements of 2^24 + 2^20 + 5 uniform bytes as pinned (%s)",
		       recount ? "counted a value at a time" : "pairs in two chunks");
	}
	iid_arrange_recount(0);
	/* and of bits: 100,003 with 30,001 ones */
	for (uint64_t k = 0; k < 3; k++) {
		iid_rng_seed(&g, 800090, k);
		iid_arrange_bits(bits, 100003, 30001, &g);
		for (size_t i = 0; i < 1563; i++)
			h = (h ^ bits[i]) * 0x100000001b3ULL;
	}
	tap_ok(h == 0x64f767a32a7bb569ULL, "arrangements of bits for seed 800090 as pinned (%016llx)",
	       (unsigned long long)h);
}

/* 5.1.2-5.1.4 as NIST's loops compute them */
static void naive_directional(const uint8_t *x, size_t m, size_t *num, size_t *len, size_t *incdec)
{
	size_t runs = 0, longest = 0, run = 0, plus = 0;
	int prev = 0;
	for (size_t i = 0; i + 1 < m; i++) {
		int s = x[i] <= x[i + 1] ? 1 : -1;
		plus += s == 1;
		if (i > 0 && s == prev) {
			run++;
		} else {
			runs++;
			run = 1;
		}
		longest = run > longest ? run : longest;
		prev = s;
	}
	*num = runs;
	*len = longest;
	*incdec = m < 2 ? 0 : plus > m - 1 - plus ? plus : m - 1 - plus;
}

/* the word-at-a-time directional runs (SSE2 and iid_bitruns) against the
 * plain loops: lengths around 64, runs across words, longer than a word */
static void check_directional(void)
{
	static const size_t lens[] = { 0, 1, 2, 3, 63, 64, 65, 66, 127, 128, 129, 1000, 5003 };
	struct iid_rng g;
	uint8_t *x = malloc(5003);
	int bad = 0, ncase = 0;
	iid_rng_seed(&g, 9, 9);
	for (int kind = 0; kind < 6; kind++)
		for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
			size_t m = lens[li], a, b, c;
			long double num, len, incdec;
			for (size_t i = 0; i < m; i++) {
				uint64_t r = iid_rng_next(&g);
				switch (kind) {
				case 0: x[i] = (uint8_t)r; break;                      /* random */
				case 1: x[i] = (uint8_t)(r % 3); break;                /* many ties */
				case 2: x[i] = 7; break;                               /* constant */
				case 3: x[i] = (uint8_t)(i / 3); break;                /* rising */
				case 4: x[i] = (uint8_t)((i / 150) % 2 ? 255 - i % 150 : i % 150); break;
				default: x[i] = (uint8_t)(i % 200 < 130 ? 200 - i % 200 : r); break;
				}
			}
			naive_directional(x, m, &a, &b, &c);
			iid_stat_directional(x, m, &num, &len, &incdec);
			ncase++;
			if (num != a || len != b || incdec != c) {
				bad++;
				printf("# kind %d m %zu: %Lg %Lg %Lg, want %zu %zu %zu\n", kind, m, num, len,
				       incdec, a, b, c);
			}
		}
	tap_ok(bad == 0, "directional runs equal the plain loops (%d cases)", ncase);
	free(x);
}

/* 5.1.7-5.1.8 as NIST's loop finds the stretches */
static void naive_collisions(const uint8_t *x, size_t n, unsigned *sum, unsigned *count,
			     unsigned *mx)
{
	size_t i = 0;
	*sum = *count = *mx = 0;
	while (i < n) {
		size_t j = i + 1;
		int found = 0;
		for (; j < n && !found; j++)
			for (size_t k = i; k < j; k++)
				if (x[k] == x[j]) {
					found = 1;
					break;
				}
		if (!found)
			break;
		/* the stretch is x[i..j-1] */
		*sum += (unsigned)(j - i);
		(*count)++;
		*mx = (unsigned)(j - i) > *mx ? (unsigned)(j - i) : *mx;
		i = j;
	}
}

static void check_collisions(void)
{
	static const size_t lens[] = { 2, 3, 257, 258, 259, 300, 1000, 5003 };
	struct iid_rng g;
	uint8_t *x = malloc(5003);
	int bad = 0, ncase = 0;
	iid_rng_seed(&g, 8, 8);
	for (int kind = 0; kind < 5; kind++)
		for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
			size_t m = lens[li];
			unsigned sum, count, mx;
			long double avg, lmx;
			for (size_t i = 0; i < m; i++) {
				uint64_t r = iid_rng_next(&g);
				switch (kind) {
				case 0: x[i] = (uint8_t)r; break;
				case 1: x[i] = (uint8_t)(r % 3); break;
				case 2: x[i] = 5; break;
				case 3: x[i] = (uint8_t)i; break;                  /* stretches of 257 */
				default: x[i] = (uint8_t)(i % 300 < 250 ? i % 300 : r); break;
				}
			}
			naive_collisions(x, m, &sum, &count, &mx);
			iid_stat_collisions(x, m, &avg, &lmx);
			ncase++;
			if (lmx != mx || (count > 0 && avg != (long double)((double)sum / count)) ||
			    (count == 0 && avg == avg)) {
				bad++;
				printf("# kind %d m %zu: avg %Lg max %Lg, want %u/%u max %u\n", kind, m, avg,
				       lmx, sum, count, mx);
			}
		}
	tap_ok(bad == 0, "collision stretches equal a plain search (%d cases)", ncase);
	free(x);
}

/* 5.1.9 a vector at a time (32 or 16 bytes, counters emptied every 255
 * rounds) against NIST's loop #{i : x_i = x_{i+p}}, on lengths around the
 * vector widths and the 255-round chunks, for every lag */
static void check_periodicity(void)
{
	static const size_t lens[] = { 1, 31, 33, 64, 95, 8160, 8161, 8192, 8199, 16353, 100003 };
	struct iid_rng g;
	uint8_t *x = malloc(100003);
	int bad = 0, ncase = 0;
	iid_rng_seed(&g, 9, 9);
	for (int kind = 0; kind < 3; kind++)
		for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
			size_t m = lens[li];
			for (size_t i = 0; i < m; i++) {
				uint64_t r = iid_rng_next(&g);
				x[i] = kind == 0 ? (uint8_t)r : kind == 1 ? (uint8_t)(r % 3) : 7;
			}
			for (int l = 0; l < 5; l++) {
				unsigned p = iid_lags[l];
				unsigned long want = 0;
				for (size_t i = 0; i + p < m; i++)
					want += x[i] == x[i + p];
				ncase++;
				if (iid_stat_periodicity(x, m, p) != want) {
					bad++;
					printf("# kind %d m %zu lag %u: %lu, want %lu\n", kind, m, p,
					       iid_stat_periodicity(x, m, p), want);
				}
			}
		}
	tap_ok(bad == 0, "periodicity equals NIST's loop (%d cases)", ncase);
	free(x);
}

/* 5.1.1 against NIST's double loop, on data whose running sum jumps: the
 * block skipping must not step over the extremes */
static void check_excursion(void)
{
	static const size_t lens[] = { 1000, 4097, 65536, 100003 };
	struct iid_rng g;
	int bad = 0, ncase = 0;
	iid_rng_seed(&g, 7, 7);
	for (int kind = 0; kind < 5; kind++)
		for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
			size_t n = lens[li];
			uint8_t *s = malloc(n);
			struct iid_data d;
			struct iid_scratch *w = iid_scratch_new(n);
			unsigned char want[IID_NSTATS] = { 0 };
			long double out[IID_NSTATS];
			struct err e;
			double run = 0.0, max = 0.0;
			for (size_t i = 0; i < n; i++) {
				uint64_t r = iid_rng_next(&g);
				switch (kind) {
				case 0: s[i] = (uint8_t)r; break;
				case 1: s[i] = (uint8_t)(r & 15); break;
				/* zeros with bursts of 255 (8 to 71 long) */
				case 2: s[i] = (i / 72) % 5 == 2 && i % 72 < 8 + (i / 360) % 64 ? 255 : 0;
					break;
				case 3: s[i] = (uint8_t)(i * 256 / n); break;       /* ramp */
				default: s[i] = r % 1000 == 0 ? 255 : (uint8_t)(r >> 20) % 3; break;
				}
			}
			s[0] = 1;   /* never constant */
			iid_data_init(&d, s, n, 8, &e);
			for (size_t i = 0; i < n; i++) {
				double dev;
				run += d.raw[i];
				dev = fabs(run - (double)(i + 1) * d.rawmean);
				if (dev > max)
					max = dev;
			}
			want[0] = want[4] = want[5] = 1;   /* excursion, median runs */
			iid_stats_compute(&d, d.sym, d.raw, want, out, w, &e);
			ncase++;
			if (out[0] != (long double)max) {
				bad++;
				printf("# kind %d n %zu: %.17Lg, NIST's loop %.17g\n", kind, n, out[0], max);
			}
			{
				/* 5.1.5-5.1.6: runs of (x < median) as NIST counts them */
				double med = d.k == 2 ? 0.5 : d.median;
				size_t runs = 1, cur = 1, longest = 1;
				for (size_t i = 1; i < n; i++) {
					int a = d.sym[i - 1] < med, b = d.sym[i] < med;
					cur = a == b ? cur + 1 : 1;
					runs += a != b;
					longest = cur > longest ? cur : longest;
				}
				if (out[4] != (long double)runs || out[5] != (long double)longest) {
					bad++;
					printf("# kind %d n %zu: median runs %Lg/%Lg, want %zu/%zu\n", kind, n,
					       out[4], out[5], runs, longest);
				}
			}
			iid_scratch_free(w);
			iid_data_free(&d);
			free(s);
		}
	tap_ok(bad == 0, "excursion and median runs equal NIST's loops on jumping data (%d cases)",
	       ncase);
}

/* iid_bitruns against a bit-by-bit count: streams of random words with
 * planted runs of ones or zeros (any length and place, across words too) */
static void check_bitruns(void)
{
	struct iid_rng g;
	uint64_t w[40];
	int bad = 0;
	iid_rng_seed(&g, 5, 6);
	for (int t = 0; t < 3000; t++) {
		size_t nw = 1 + iid_rng_next(&g) % 40, nbits, changes = 0, longest = 0, run = 0;
		unsigned tail = (unsigned)(iid_rng_next(&g) % 64);
		struct iid_bitruns r;
		for (size_t k = 0; k < nw; k++)
			w[k] = iid_rng_next(&g) & iid_rng_next(&g) >> (t % 3);   /* some bias */
		for (int p = 0; p < 1 + t % 4; p++) {
			size_t at = iid_rng_next(&g) % (64 * nw), len = 1 + iid_rng_next(&g) % 70;
			int one = (int)(iid_rng_next(&g) & 1);
			for (size_t i = at; i < at + len && i < 64 * nw; i++)
				w[i / 64] = one ? w[i / 64] | 1ULL << (i % 64) : w[i / 64] & ~(1ULL << (i % 64));
		}
		nbits = 64 * (nw - 1) + (tail ? tail : 64);
		for (size_t i = 0; i < nbits; i++) {
			unsigned b = w[i / 64] >> (i % 64) & 1;
			if (i > 0 && b == (w[(i - 1) / 64] >> ((i - 1) % 64) & 1)) {
				run++;
			} else {
				changes += i > 0;
				run = 1;
			}
			longest = run > longest ? run : longest;
		}
		iid_bitruns_init(&r);
		for (size_t k = 0; k + 1 < nw; k++)
			iid_bitruns_feed(&r, w[k], 64);
		iid_bitruns_feed(&r, w[nw - 1], tail ? tail : 64);
		if (r.changes != changes || iid_bitruns_longest(&r) != longest) {
			if (bad++ < 5)
				printf("# stream %d (%zu bits): changes %zu longest %zu, want %zu %zu\n", t,
				       nbits, r.changes, iid_bitruns_longest(&r), changes, longest);
		}
	}
	tap_ok(bad == 0, "runs of bits counted a word at a time equal a bitwise count (3000 streams)");
}

/* the packed statistics of binary data equal the byte ones */
static void check_packed(void)
{
	struct iid_rng g;
	iid_rng_seed(&g, 3, 4);
	/* lengths around word and byte edges, biases from 1% to 99%, and two
	 * drifting walks, whose excursion peaks mid-way */
	static const size_t len[] = { 1000, 4099, 20003, 777, 65536, 100001, 640, 1300, 5000,
				      50000, 12345, 200000 };
	static const unsigned pct[] = { 50, 50, 20, 50, 1, 95, 50, 50, 99, 30, 0, 0 };
	for (int t = 0; t < (int)(sizeof len / sizeof len[0]); t++) {
		size_t n = len[t];
		uint8_t *s = malloc(n), v0 = t == 1 ? 3 : t == 7 ? 9 : 0,
			v1 = t == 1 ? 250 : t == 3 ? 2 : t == 7 ? 7 : 1;
		uint64_t *x = calloc((n + 63) / 64, 8);
		struct iid_data d;
		struct iid_scratch *w = iid_scratch_new(n);
		long double a[IID_NSTATS], b[IID_NSTATS];
		struct err e;
		int same = 1;
		for (size_t i = 0; i < n; i++) {
			/* pct 0: 70% ones in the first half, 30% after */
			unsigned p = pct[t] ? pct[t] : i < n / 2 ? 70u : 30u;
			int one = (iid_rng_next(&g) % 100) < p;
			s[i] = one ? v1 : v0;
		}
		iid_data_init(&d, s, n, 8, &e);
		for (size_t i = 0; i < n; i++)
			x[i / 64] |= (uint64_t)d.sym[i] << (i % 64);
		iid_scratch_fast_bz(w, 1);
		iid_stats_compute(&d, d.sym, d.raw, NULL, a, w, &e);
		iid_stats_compute_bits(&d, x, NULL, b, w, &e);
		for (int i = 0; i < IID_NSTATS; i++)
			if (a[i] != b[i]) {
				same = 0;
				printf("# n %zu: %s %Lg (bytes) vs %Lg (packed)\n", n, iid_stat_name(i),
				       a[i], b[i]);
			}
		tap_ok(same, "packed binary statistics equal the byte ones (n = %zu, values %u/%u)", n,
		       v0, v1);
		iid_scratch_free(w);
		iid_data_free(&d);
		free(x);
		free(s);
	}
}

int main(void)
{
	check_bzsize();
	check_arrange();
	check_arrange_pinned();
	check_packed();
	check_directional();
	check_bitruns();
	check_excursion();
	check_collisions();
	check_periodicity();
	check_markov();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(&cases[i]);
	check_shuffle();
	check_permutation();
	{
		/* a byte counter: the longest repeat is the whole file less one
		 * period, P_col^W is far below long double's range; NIST's tool
		 * aborts there, here the LRS test fails with Pr(X >= 1) = 0 */
		static uint8_t cnt[100000];
		struct iid_lrs l;
		struct err e;
		for (size_t i = 0; i < sizeof cnt; i++)
			cnt[i] = (uint8_t)i;
		tap_ok(iid_lrs_test(cnt, sizeof cnt, 256, &l, &e) == 0 && l.underflow && !l.passed &&
			       l.pr_ge1 == 0.0L && l.w == (long)sizeof cnt - 256,
		       "LRS on a counter: W = n - 256, P_col^W underflows, the test fails");
	}
	tap_near(iid_chisq_pvalue(3.841458820694124, 1), 0.05, 1e-12,
		 "chi-square p-value Q(3.841458820694124, 1) = 0.05");
	tap_near(iid_chisq_pvalue(0.0, 0), 1.0, 0, "df = 0 gives p = 1 (NIST's igamc)");
	return tap_done();
}
