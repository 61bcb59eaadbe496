/* SPDX-License-Identifier: GPL-3.0-or-later */
/* estimators.c - what every SP 800-90B 6.3 estimator shares: the result
 * record (with the intermediate values NIST's tool prints) and the 99% upper
 * confidence bound on a proportion. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/estimators.h"
#include "engine/samples.h"

void est_result_init(struct est_result *r, const char *id, const char *name)
{
	memset(r, 0, sizeof *r);
	r->id = id;
	r->name = name;
	r->applicable = 1;
	r->p = NAN;
	r->h = NAN;
}

static struct est_detail *detail_next(struct est_result *r, const char *key)
{
	struct est_detail *d;

	if (r->ndetails >= EST_DETAILS_MAX)
		return NULL;   /* the fixed table is sized for NIST's longest list (7) */
	d = &r->detail[r->ndetails++];
	memset(d, 0, sizeof *d);
	snprintf(d->key, sizeof d->key, "%s", key);
	return d;
}

void est_detail_int(struct est_result *r, const char *key, long long v)
{
	struct est_detail *d = detail_next(r, key);

	if (d) {
		d->kind = EST_DETAIL_INT;
		d->i = v;
		d->x = (double)v;
	}
}

const struct est_detail *est_detail_find(const struct est_result *r, const char *key)
{
	for (int i = 0; i < r->ndetails; i++)
		if (strcmp(r->detail[i].key, key) == 0)
			return &r->detail[i];
	return NULL;
}

void est_detail_real(struct est_result *r, const char *key, double v)
{
	struct est_detail *d = detail_next(r, key);

	if (d) {
		d->kind = EST_DETAIL_REAL;
		d->x = v;
	}
}

void est_detail_note(struct est_result *r, const char *text)
{
	struct est_detail *d = detail_next(r, text);

	if (d)
		d->kind = EST_DETAIL_NOTE;
}

void est_not_applicable(struct est_result *r, const char *fmt, ...)
{
	va_list ap;

	r->applicable = 0;
	r->p = NAN;
	r->h = NAN;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof r->reason, fmt, ap);
	va_end(ap);
}

/* 90B 6.3.1 step 2 (and 6.3.5, 6.3.6, 6.3.7-10): the upper bound of the 99%
 * confidence interval, min(1, p + z*sqrt(p(1-p)/(n-1))), with NIST's z. */
double est_upper_bound(double p, double n)
{
	double u = p + EST_ZALPHA * sqrt(p * (1.0 - p) / (n - 1.0));

	return u < 1.0 ? u : 1.0;
}

uint64_t *est_pack_bits(const uint8_t *s, size_t n)
{
	uint64_t *w = malloc(samples_packed_words(n) * sizeof *w);
	if (w)
		samples_to_packed(s, n, 1, n, w);
	return w;
}

int est_run_packed(est_bits_fn fn, const char *what, const uint8_t *s, size_t n,
		   struct est_result *r, struct err *e)
{
	uint64_t *w = est_pack_bits(s, n);
	int rc;

	if (!w)
		return err_set(e, ERR_NOMEM, "%s: out of memory", what);
	rc = fn(w, n, r, e);
	free(w);
	return rc;
}

int est_binary_only(est_bits_fn fn, const char *id, const char *name, const uint8_t *s, size_t n,
		    unsigned k, struct est_result *r, struct err *e)
{
	if (k == 2)
		return est_run_packed(fn, name, s, n, r, e);
	est_result_init(r, id, name);
	est_not_applicable(r, "binary input only, alphabet has %u symbols", k);
	return 0;
}
