/* SPDX-License-Identifier: GPL-3.0-or-later */
/* baseline.c - what an ideal source scores (see baseline.h). */
#include "config.h"

#include "audit/baseline.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/recorder.h"
#include "estimators/noniid.h"
#include "sources/source.h"

int baseline_lookup(unsigned bits, uint64_t n, struct baseline_cell *out)
{
	const struct baseline_cell *below = NULL, *above = NULL;

	for (size_t i = 0; i < baseline_table_len; i++) {
		const struct baseline_cell *c = &baseline_table[i];
		if (c->bits != bits)
			continue;
		if (c->n <= n && (!below || c->n > below->n))
			below = c;
		if (c->n > n && (!above || c->n < above->n))
			above = c;
	}
	if (!below)
		return -1;
	*out = *below;
	/* The estimators' bias is not monotone in n (their parameters change
	 * with it): between two grid counts, the lower of the two baselines. */
	if (below->n != n && above && above->low < out->low)
		out->low = above->low;
	return 0;
}

/* One simulated run: h_assessed of sim:ideal,seed=seed. */
static int baseline_run(unsigned bits, uint64_t n, unsigned seed, double *h, struct err *e)
{
	char spec[64];
	struct source *src;
	struct membuf buf;
	struct sink *sinks[1];
	struct engine_opts eo = { 0 };
	struct engine_stats st;
	struct noniid_opts no;
	struct noniid_report rep;
	int rc;

	snprintf(spec, sizeof spec, "sim:ideal,seed=%u", seed);
	if ((rc = source_open(&src, spec, e)) != 0)
		return rc;
	membuf_init(&buf, 0);
	sinks[0] = &buf.sink;
	eo.max_samples = n;
	eo.bits = bits;
	rc = engine_run(src, &eo, sinks, 1, &st, e);
	source_close(src);
	if (rc == 0 && buf.n != n)
		rc = err_set(e, ERR_DATA, "%s: %zu samples, not %llu", spec, buf.n, (unsigned long long)n);
	if (rc == 0) {
		noniid_opts_init(&no);
		no.bits = bits;
		no.threads = 1;
		memset(&rep, 0, sizeof rep);
		if ((rc = noniid_assess(buf.data, buf.n, &no, &rep, e)) == 0)
			*h = rep.h_assessed;
		noniid_report_free(&rep);
	}
	membuf_free(&buf);
	return rc;
}

struct baseline_work {
	pthread_mutex_t lock;
	unsigned bits, runs, next;
	uint64_t n;
	double *h;
	int rc;
	struct err e;
};

static void *baseline_worker(void *arg)
{
	struct baseline_work *w = arg;
	for (;;) {
		unsigned i;
		struct err e;
		double h = 0;
		int rc;

		pthread_mutex_lock(&w->lock);
		i = w->rc == 0 && w->next < w->runs ? w->next++ : w->runs;
		pthread_mutex_unlock(&w->lock);
		if (i == w->runs)
			return NULL;
		err_clear(&e);
		rc = baseline_run(w->bits, w->n, i + 1, &h, &e);
		pthread_mutex_lock(&w->lock);
		if (rc != 0 && w->rc == 0) {
			w->rc = rc;
			w->e = e;
		}
		w->h[i] = h;
		pthread_mutex_unlock(&w->lock);
	}
}

int baseline_simulate(unsigned bits, uint64_t n, unsigned runs, int threads,
		      struct baseline_cell *out, struct err *e)
{
	struct baseline_work w;
	pthread_t tid[16];
	int started = 0;
	double sum = 0, ss = 0, mn = INFINITY;

	if (bits < 1 || bits > 8 || runs < 2 || n == 0)
		return err_set(e, ERR_USAGE, "baseline: %u-bit samples, %u runs of %llu: out of range", bits,
			       runs, (unsigned long long)n);
	memset(&w, 0, sizeof w);
	pthread_mutex_init(&w.lock, NULL);
	w.bits = bits;
	w.runs = runs;
	w.n = n;
	if (!(w.h = calloc(runs, sizeof *w.h)))
		return err_set(e, ERR_NOMEM, "baseline: out of memory");
	if (threads < 1)
		threads = 1;
	if (threads > 16)
		threads = 16;
	for (int t = 0; t < threads; t++)
		if (pthread_create(&tid[started], NULL, baseline_worker, &w) == 0)
			started++;
	if (started == 0)
		baseline_worker(&w);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&w.lock);
	if (w.rc != 0) {
		free(w.h);
		*e = w.e;
		return w.rc;
	}
	/* in run order, so the figures do not depend on the threads */
	for (unsigned i = 0; i < runs; i++) {
		sum += w.h[i];
		if (w.h[i] < mn)
			mn = w.h[i];
	}
	out->mean = sum / runs;
	for (unsigned i = 0; i < runs; i++)
		ss += (w.h[i] - out->mean) * (w.h[i] - out->mean);
	out->sd = sqrt(ss / (runs - 1));
	out->min = mn;
	out->low = out->mean - BASELINE_Z * out->sd;
	if (out->low > mn)
		out->low = mn;
	out->bits = bits;
	out->n = n;
	out->runs = runs;
	free(w.h);
	return 0;
}
