/* SPDX-License-Identifier: GPL-3.0-or-later */
/* restart.c - SP 800-90B 3.1.4 restart tests (sanity check and validation),
 * following NIST's ea_restart v1.1.7. */
#include "config.h"

#include "restart/restart.h"
#include "engine/samples.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- 3.1.4.3 X_cutoff -------------------------------------------------- */

/* Exponential generating functions held by their coefficients times j!
 * (a[j] for x^j / j!): the product's are the binomial convolution
 * sum_j C(i, j) a[j] b[i-j], up to degree deg.  Every such number here is
 * a probability, at most 1, and C(1000, 500) ~ 2.7e299 still fits a
 * double, so nothing overflows, whatever the width of long double. */
static void egf_mul(const double *a, const double *b, double *out, int deg)
{
	for (int i = 0; i <= deg; i++) {
		double s = 0.0, binom = 1.0;   /* C(i, j) */
		for (int j = 0; j <= i; j++) {
			s += binom * a[j] * b[i - j];
			binom = binom * (double)(i - j) / (double)(j + 1);
		}
		out[i] = s;
	}
}

/* P(largest count <= m) when N = RESTART_COLS samples fall into c cells of
 * probability p and (if q > 0) one cell of probability q: N! times the
 * coefficient of x^N in (sum_{j<=m} (px)^j/j!)^c (sum_{j<=m} (qx)^j/j!),
 * which is the N-th coefficient of that product in the form above. */
static double p_max_le(int m, int c, double p, double q)
{
	const int n = RESTART_COLS;
	double base[RESTART_COLS + 1], acc[RESTART_COLS + 1], tmp[RESTART_COLS + 1], t;
	int e = c, have = 0;

	t = 1.0;
	for (int j = 0; j <= n; j++) {
		base[j] = j <= m ? t : 0.0;
		t *= p;
	}
	/* acc = base^c by repeated squaring */
	while (e > 0) {
		if (e & 1) {
			if (!have) {
				memcpy(acc, base, sizeof acc);
				have = 1;
			} else {
				egf_mul(acc, base, tmp, n);
				memcpy(acc, tmp, sizeof acc);
			}
		}
		e >>= 1;
		if (e) {
			egf_mul(base, base, tmp, n);
			memcpy(base, tmp, sizeof base);
		}
	}
	if (q > 0.0) {
		double r[RESTART_COLS + 1];
		t = 1.0;
		for (int j = 0; j <= n; j++) {
			r[j] = j <= m ? t : 0.0;
			t *= q;
		}
		egf_mul(acc, r, tmp, n);
		memcpy(acc, tmp, sizeof acc);
	}
	return acc[n];
}

int restart_cutoff(double h_i, unsigned k, double alpha, int *x_cutoff, struct err *e)
{
	/* NIST: p = 2^-H_I; floor(1/p) symbols of probability p and, if 1/p is not
	 * an integer, one more holding the rest ("inverted near-uniform") */
	double p = pow(2.0, -h_i), q;
	int k_eff = (int)ceil(1.0 / p), c = (int)floor(1.0 / p), lo, hi;
	double target;

	if ((unsigned)k_eff > k)
		return err_set(e, ERR_USAGE,
			       "H_I = %g implies at least %d distinct symbols, the data has %u",
			       h_i, k_eff, k);
	q = k_eff > c ? 1.0 - (double)c * p : 0.0;
	/* the simulated quantile: the smallest count reached by
	 * floor((1 - alpha) R) of R = 5,000,000 simulated rows */
	target = floor((1.0 - alpha) * (double)RESTART_SIM_ROUNDS) / (double)RESTART_SIM_ROUNDS;
	lo = (RESTART_COLS + k_eff - 1) / k_eff;
	hi = RESTART_COLS;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (p_max_le(mid, c, p, q) >= target)
			hi = mid;
		else
			lo = mid + 1;
	}
	*x_cutoff = lo;
	return 0;
}

/* ---- 3.1.4.2 validation ------------------------------------------------ */

struct dataset_job {
	const uint8_t *s;
	size_t n;
	unsigned k;
	int iid;
	struct est_result *res;     /* NONIID_NEST slots */
	unsigned char *ran;
	struct iid_chisq *ind, *gof;
	struct iid_lrs *lrs;
	int rc;
	struct err e;
};

typedef int (*est_fn)(const uint8_t *, size_t, unsigned, struct est_result *, struct err *);

static void *dataset_main(void *arg)
{
	struct dataset_job *j = arg;
	static const struct { int slot; est_fn fn; int binary_only; } ests[] = {
		{ NONIID_COLLISION, est_collision, 1 },
		{ NONIID_MARKOV, est_markov, 1 },
		{ NONIID_COMPRESSION, est_compression, 1 },
		{ NONIID_MULTIMCW, est_multimcw, 0 },
		{ NONIID_LAG, est_lag, 0 },
		{ NONIID_MULTIMMC, est_multimmc, 0 },
		{ NONIID_LZ78Y, est_lz78y, 0 },
	};

	j->rc = est_mcv(j->s, j->n, j->k, &j->res[NONIID_MCV], &j->e);
	if (j->rc)
		return NULL;
	j->ran[NONIID_MCV] = 1;
	if (j->iid) {
		/* NIST's restart -i also runs 5.2 on each dataset and reports it */
		j->rc = iid_chisq_independence(j->s, j->n, j->k, j->ind, &j->e);
		if (!j->rc)
			j->rc = iid_chisq_goodness(j->s, j->n, j->k, j->gof, &j->e);
		if (!j->rc)
			j->rc = iid_lrs_test(j->s, j->n, j->k, j->lrs, &j->e);
		return NULL;
	}
	for (size_t i = 0; i < 3; i++) {
		if (j->k != 2)
			break;
		j->rc = ests[i].fn(j->s, j->n, j->k, &j->res[ests[i].slot], &j->e);
		if (j->rc)
			return NULL;
		j->ran[ests[i].slot] = 1;
	}
	j->rc = est_tuple_lrs(j->s, j->n, j->k, &j->res[NONIID_TUPLE], &j->res[NONIID_LRS], &j->e);
	if (j->rc)
		return NULL;
	j->ran[NONIID_TUPLE] = j->ran[NONIID_LRS] = 1;
	for (size_t i = 3; i < sizeof ests / sizeof ests[0]; i++) {
		j->rc = ests[i].fn(j->s, j->n, j->k, &j->res[ests[i].slot], &j->e);
		if (j->rc)
			return NULL;
		j->ran[ests[i].slot] = 1;
	}
	return NULL;
}

static double min_over(const struct est_result *res, const unsigned char *ran, double start)
{
	double h = start;
	for (int i = 0; i < NONIID_NEST; i++)
		if (ran[i] && res[i].applicable && res[i].h < h)
			h = res[i].h;
	return h;
}

int restart_run(const uint8_t *s, size_t n, unsigned bits, double h_i, int iid, int threads,
		struct restart_result *r, struct err *e)
{
	uint8_t map[256], *rows = NULL, *cols = NULL;
	unsigned char seen[256] = { 0 }, ran_c[NONIID_NEST] = { 0 };
	unsigned maxsym = 0;
	struct dataset_job job[2];
	pthread_t tid;
	int rc = 0, started = 0;

	memset(r, 0, sizeof *r);
	r->iid = iid;
	r->bits = bits;
	r->h_i = h_i;
	if (n != RESTART_SAMPLES)
		return err_set(e, ERR_DATA, "a restart matrix has %d x %d = %d samples, got %zu",
			       RESTART_ROWS, RESTART_COLS, RESTART_SAMPLES, n);
	if (bits < 1 || bits > 8)
		return err_set(e, ERR_USAGE, "bits per sample must be 1..8, got %u", bits);
	if (!(h_i >= 0.0) || h_i > (double)bits)
		return err_set(e, ERR_USAGE, "H_I (%g) must be in [0, %u] (bits per sample)", h_i, bits);
	if (samples_check_range(s, n, bits, "restart data", e) != 0)
		return e ? e->code : ERR_DATA;

	/* NIST's symbol translation (only if a value below the largest is unused) */
	for (size_t i = 0; i < n; i++)
		seen[s[i]] = 1;
	for (unsigned v = 0; v < 256; v++)
		if (seen[v]) {
			map[v] = (uint8_t)r->k++;
			maxsym = v;
		}
	if (r->k <= 1)
		return err_set(e, ERR_DATA, "the restart data holds a single symbol: no entropy");
	r->translated = r->k < maxsym + 1;

	r->alpha = 1.0 - exp(log(0.99) / (double)(RESTART_ROWS + RESTART_COLS));
	rc = restart_cutoff(h_i, r->k, r->alpha, &r->x_cutoff, e);
	if (rc)
		return rc;

	rows = malloc(n);
	cols = malloc(n);
	if (!rows || !cols) {
		rc = err_set(e, ERR_NOMEM, "out of memory for the restart matrix");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = r->translated ? map[s[i]] : s[i];

	/* 3.1.4.3: largest count of one symbol in any row / column */
	for (int i = 0; i < RESTART_ROWS; i++) {
		int cnt[256] = { 0 }, xi = 0;
		for (int j = 0; j < RESTART_COLS; j++) {
			uint8_t v = rows[(size_t)i * RESTART_COLS + j];
			cols[(size_t)j * RESTART_ROWS + i] = v;
			if (++cnt[v] > xi)
				xi = cnt[v];
		}
		if (xi > r->x_r)
			r->x_r = xi;
	}
	for (int j = 0; j < RESTART_COLS; j++) {
		int cnt[256] = { 0 }, xi = 0;
		for (int i = 0; i < RESTART_ROWS; i++)
			if (++cnt[cols[(size_t)j * RESTART_ROWS + i]] > xi)
				xi = cnt[cols[(size_t)j * RESTART_ROWS + i]];
		if (xi > r->x_c)
			r->x_c = xi;
	}
	r->x_max = r->x_r > r->x_c ? r->x_r : r->x_c;
	r->sanity_passed = r->x_max <= r->x_cutoff;
	if (!r->sanity_passed)
		goto out;

	/* 3.1.4.2: rows and columns are independent: one thread each */
	memset(job, 0, sizeof job);
	for (int d = 0; d < 2; d++) {
		job[d].s = d == 0 ? rows : cols;
		job[d].n = n;
		job[d].k = r->k;
		job[d].iid = iid;
		job[d].res = d == 0 ? r->row : r->col;
		job[d].ran = d == 0 ? r->ran : ran_c;
		job[d].ind = &r->chi_ind[d];
		job[d].gof = &r->chi_gof[d];
		job[d].lrs = &r->lrs[d];
	}
	if (threads != 1 && pthread_create(&tid, NULL, dataset_main, &job[1]) == 0)
		started = 1;
	dataset_main(&job[0]);
	if (started)
		pthread_join(tid, NULL);
	else
		dataset_main(&job[1]);
	for (int d = 0; d < 2; d++)
		if (job[d].rc) {
			*e = job[d].e;
			rc = job[d].rc;
			goto out;
		}

	/* H_r, H_c start at the bits per sample (the largest possible) */
	r->h_r = min_over(r->row, r->ran, bits);
	r->h_c = min_over(r->col, ran_c, bits);
	r->validation_passed = !((r->h_r < r->h_c ? r->h_r : r->h_c) < h_i / 2.0);
	r->h_min = r->h_r < r->h_c ? r->h_r : r->h_c;
	if (h_i < r->h_min)
		r->h_min = h_i;
out:
	free(rows);
	free(cols);
	return rc;
}
