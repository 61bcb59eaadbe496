/* SPDX-License-Identifier: GPL-3.0-or-later */
/* chisquare.c - SP 800-90B 5.2.1-5.2.4 chi-square tests of independence and
 * goodness-of-fit, for binary and non-binary data, as NIST's ea_iid v1.1.7
 * computes them (symbol proportions accumulated as NIST accumulates them, so
 * that ties between expected values sort, and therefore bin, identically). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#include "bigmem.h"
#include "iid/iid.h"

/* 5.2: bins are merged until each expects at least 5 observations */
#define CHISQ_MIN_EXPECTED 5.0
/* 5.2.1: binary independence uses m-bit tuples, m <= 11 */
#define CHISQ_BINARY_MAX_M 11
/* 5.2.2 / 5.2.4: ten subsets for goodness-of-fit */
#define CHISQ_GOF_SUBSETS 10

double iid_chisq_pvalue(double score, int df)
{
	gsl_sf_result res;
	/* NIST's cephes igamc(a <= 0, x) returns 1 */
	if (df <= 0)
		return 1.0;
	if (!(score > 0.0))
		return 1.0;
	gsl_set_error_handler_off();
	if (gsl_sf_gamma_inc_Q_e(df / 2.0, score / 2.0, &res) != GSL_SUCCESS)
		return score > df ? 0.0 : 1.0;   /* only under/overflow reaches here */
	return res.val;
}

/* NIST adds 1/n once per sample (calc_proportions); the same sums give the
 * same ties. */
static void proportions(const uint8_t *s, size_t n, unsigned k, double *p)
{
	size_t count[256] = { 0 };
	double step = 1.0 / (double)n;
	for (size_t i = 0; i < n; i++)
		count[s[i]]++;
	for (unsigned v = 0; v < k; v++) {
		double acc = 0.0;
		for (size_t c = 0; c < count[v]; c++)
			acc += step;
		p[v] = acc;
	}
}

struct cell {
	unsigned tuple;
	double expectation;
	int bin;
};

static uint64_t cell_key(const struct cell *x)
{
	uint64_t k;
	memcpy(&k, &x->expectation, sizeof k);
	return k;
}

/* The cells (given in tuple order) in increasing expectation, equal ones
 * in tuple order: NIST's sort, whose comparator breaks ties by tuple.  An
 * LSD radix sort on the expectation's bits (a double >= 0 orders as its bit
 * pattern) keeps the tuple order among equals; qsort of the 65,536 cells
 * of 8-bit data cost ~15 ms, a tenth of the IID track before its shuffles.
 * tmp: nc cells of scratch. */
static void sort_by_expectation(struct cell *c, size_t nc, struct cell *tmp)
{
	struct cell *src = c, *dst = tmp, *x;
	uint64_t any = 0, all = ~0ULL;

	for (size_t i = 0; i < nc; i++) {
		any |= cell_key(&c[i]);
		all &= cell_key(&c[i]);
	}
	for (unsigned b = 0; b < 64; b += 8) {
		size_t count[256] = { 0 }, sum = 0;
		if (((any ^ all) >> b & 255) == 0)
			continue;   /* a byte every key shares orders nothing */
		for (size_t i = 0; i < nc; i++)
			count[cell_key(&src[i]) >> b & 255]++;
		for (int v = 0; v < 256; v++) {
			size_t k = count[v];
			count[v] = sum;
			sum += k;
		}
		for (size_t i = 0; i < nc; i++)
			dst[count[cell_key(&src[i]) >> b & 255]++] = src[i];
		x = src;
		src = dst;
		dst = x;
	}
	if (src != c)
		memcpy(c, src, nc * sizeof *c);
}

/* Walks the cells in increasing expectation, closing a bin once it expects
 * >= 5; a short last bin is merged into the previous one.  Returns the number
 * of bins, their expectations in bin_exp[]. */
static int allocate_bins(struct cell *c, size_t nc, double *bin_exp)
{
	int cur = 0, nbins = 0;
	double acc = 0.0;

	for (size_t i = 0; i < nc; i++) {
		if (acc >= CHISQ_MIN_EXPECTED) {
			bin_exp[nbins++] = acc;
			cur++;
			acc = 0.0;
		}
		c[i].bin = cur;
		acc += c[i].expectation;
	}
	if (cur != 0 && acc < CHISQ_MIN_EXPECTED) {
		for (size_t i = nc; i-- > 0 && c[i].bin == cur;)
			c[i].bin = cur - 1;
		bin_exp[cur - 1] += acc;
	} else {
		bin_exp[nbins++] = acc;
	}
	return nbins;
}

static double calc_t(const double *exp_, const long *obs, int nbins)
{
	double t = 0.0;
	for (int i = 0; i < nbins; i++)
		t += pow((double)obs[i] - exp_[i], 2) / exp_[i];
	return t;
}

/* 5.2.1 binary independence */
static void binary_independence(const uint8_t *s, size_t n, struct iid_chisq *r)
{
	double p0, p1 = 0.0, min_p, t = 0.0;
	int m = CHISQ_BINARY_MAX_M;
	size_t blocks;
	long *occ;

	for (size_t i = 0; i < n; i++)
		p1 += s[i];
	p1 /= (double)n;
	p0 = 1.0 - p1;
	min_p = p0 < p1 ? p0 : p1;
	/* largest m whose rarest tuple still expects 5 in n/m blocks (NIST:
	 * integer n/m) */
	while (m > 1) {
		if (pow(min_p, m) * (double)(long)(n / (size_t)m) >= CHISQ_MIN_EXPECTED)
			break;
		m--;
	}
	if (m < 2) {
		r->score = 0.0;
		r->df = 0;
		return;
	}
	occ = calloc((size_t)1 << m, sizeof *occ);
	if (!occ) {
		r->score = NAN;
		r->df = 0;
		return;
	}
	blocks = n / (size_t)m;
	for (size_t b = 0; b < blocks; b++) {
		unsigned sym = 0;
		for (int j = 0; j < m; j++)
			sym = (sym << 1) | s[b * (size_t)m + (size_t)j];
		occ[sym]++;
	}
	for (unsigned i = 0; i < (1u << m); i++) {
		int w = __builtin_popcount(i);
		double ex = pow(p1, w) * pow(p0, m - w) * (double)blocks;
		t += pow((double)occ[i] - ex, 2) / ex;
	}
	free(occ);
	r->score = t;
	r->df = (1 << m) - 2;
}

/* 5.2.3 non-binary independence: pairs (s_2j, s_2j+1) */
static int nonbinary_independence(const uint8_t *s, size_t n, unsigned k, struct iid_chisq *r,
				  struct err *e)
{
	double p[256], *bin_exp;
	size_t nc = (size_t)k * k;
	/* 65,536 cells for 8-bit data, all touched: prefaulted (bigmem.h) */
	struct cell *c = bigmem_calloc(2 * nc, sizeof *c);
	long *obs;
	int nbins, *bin_of;

	bin_exp = malloc(nc * sizeof *bin_exp);
	obs = bigmem_calloc(nc, sizeof *obs);
	bin_of = bigmem_calloc(nc, sizeof *bin_of);
	if (!c || !bin_exp || !obs || !bin_of) {
		bigmem_free(c); free(bin_exp); bigmem_free(obs); bigmem_free(bin_of);
		return err_set(e, ERR_NOMEM, "out of memory for the chi-square test");
	}
	proportions(s, n, k, p);
	for (unsigned i = 0; i < k; i++)
		for (unsigned j = 0; j < k; j++) {
			struct cell *x = &c[i * k + j];
			x->tuple = i * k + j;
			x->expectation = p[i] * p[j] * floor((double)n * 0.5);
			x->bin = -1;
		}
	sort_by_expectation(c, nc, c + nc);
	nbins = allocate_bins(c, nc, bin_exp);
	for (size_t i = 0; i < nc; i++)
		bin_of[c[i].tuple] = c[i].bin;
	for (size_t j = 0; j + 1 < n; j += 2)
		obs[bin_of[s[j] * k + s[j + 1]]]++;
	r->score = calc_t(bin_exp, obs, nbins);
	r->df = nbins - (int)k;
	bigmem_free(c); free(bin_exp); bigmem_free(obs); bigmem_free(bin_of);
	return 0;
}

int iid_chisq_independence(const uint8_t *sym, size_t n, unsigned k, struct iid_chisq *r,
			   struct err *e)
{
	int rc = 0;
	if (n < 2 || k < 2 || k > 256)
		return err_set(e, ERR_DATA, "chi-square test needs >= 2 samples of >= 2 symbols");
	if (k == 2)
		binary_independence(sym, n, r);
	else
		rc = nonbinary_independence(sym, n, k, r, e);
	if (rc == 0)
		r->p = iid_chisq_pvalue(r->score, r->df);
	return rc;
}

/* 5.2.2 binary goodness-of-fit over 10 subsets */
static void binary_goodness(const uint8_t *s, size_t n, struct iid_chisq *r)
{
	size_t sub = n / CHISQ_GOF_SUBSETS;
	long ones = 0;
	double p, e0, e1, t = 0.0;

	for (size_t i = 0; i < n; i++)
		ones += s[i];
	p = (double)(int)ones / (double)(int)n;
	e0 = (1.0 - p) * (double)sub;
	e1 = p * (double)sub;
	for (int i = 0; i < CHISQ_GOF_SUBSETS; i++) {
		long o1 = 0, o0;
		for (size_t j = 0; j < sub; j++)
			o1 += s[(size_t)i * sub + j];
		o0 = (long)sub - o1;
		t += pow((double)o0 - e0, 2) / e0 + pow((double)o1 - e1, 2) / e1;
	}
	r->score = t;
	r->df = CHISQ_GOF_SUBSETS - 1;
}

/* 5.2.4 non-binary goodness-of-fit */
static int nonbinary_goodness(const uint8_t *s, size_t n, unsigned k, struct iid_chisq *r,
			      struct err *e)
{
	double p[256], bin_exp[256], t = 0.0;
	struct cell c[256], tmp[256];
	long obs[256];
	size_t block = n / CHISQ_GOF_SUBSETS;
	int nbins, bin_of[256];

	(void)e;
	proportions(s, n, k, p);
	for (unsigned j = 0; j < k; j++) {
		c[j].tuple = j;
		c[j].expectation = p[j] * floor((double)n / 10.0);
		c[j].bin = -1;
	}
	sort_by_expectation(c, k, tmp);
	nbins = allocate_bins(c, k, bin_exp);
	for (unsigned j = 0; j < k; j++)
		bin_of[c[j].tuple] = c[j].bin;
	for (int b = 0; b < CHISQ_GOF_SUBSETS; b++) {
		memset(obs, 0, sizeof obs);
		for (size_t j = 0; j < block; j++)
			obs[bin_of[s[(size_t)b * block + j]]]++;
		t += calc_t(bin_exp, obs, nbins);
	}
	r->score = t;
	r->df = (CHISQ_GOF_SUBSETS - 1) * (nbins - 1);
	return 0;
}

int iid_chisq_goodness(const uint8_t *sym, size_t n, unsigned k, struct iid_chisq *r,
		       struct err *e)
{
	int rc = 0;
	if (n < CHISQ_GOF_SUBSETS || k < 2 || k > 256)
		return err_set(e, ERR_DATA, "goodness-of-fit test needs >= 10 samples of >= 2 symbols");
	if (k == 2)
		binary_goodness(sym, n, r);
	else
		rc = nonbinary_goodness(sym, n, k, r, e);
	if (rc == 0)
		r->p = iid_chisq_pvalue(r->score, r->df);
	return rc;
}
