/* SPDX-License-Identifier: GPL-3.0-or-later */
/* widein.c - wide raw samples at the engine's input (see widein.h). */
#include "config.h"

#include "engine/widein.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIDEIN_WORD 8                 /* bytes per sample in a wide source's stream */
#define WIDEIN_BLOCK WIDEIN_BLOCK_SAMPLES   /* samples per read and per pushed block */

static double widein_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int widein_grow(uint64_t **x, size_t *cap, size_t need, struct err *e)
{
	size_t ncap = *cap ? *cap : WIDEIN_BLOCK;
	uint64_t *nx;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nx = realloc(*x, ncap * sizeof *nx);
	if (!nx)
		return err_set(e, ERR_NOMEM, "out of memory for %zu wide samples", ncap);
	*x = nx;
	*cap = ncap;
	return 0;
}

int widein_each(struct source *src, uint64_t max, volatile sig_atomic_t *stop, widein_block_fn fn,
		void *ctx, struct engine_stats *st, struct err *e)
{
	const struct source_info *info = source_get_info(src);
	uint8_t *raw = malloc(WIDEIN_BLOCK * WIDEIN_WORD);
	uint64_t *x = malloc((WIDEIN_BLOCK + 1) * sizeof *x);
	uint8_t part[WIDEIN_WORD];    /* a word split across two reads */
	size_t npart = 0;
	double t0 = widein_now();
	int rc = 0;

	*st = (struct engine_stats){ 0 };
	if (!info->sample_bits)
		rc = err_set(e, ERR_USAGE, "source '%s' gives a byte stream, not wide samples",
			     info->spec);
	else if (!raw || !x)
		rc = err_set(e, ERR_NOMEM, "out of memory for a block of wide samples");
	while (rc == 0 && (!max || st->samples < max)) {
		size_t want = WIDEIN_BLOCK * WIDEIN_WORD, i = 0, len, n = 0;
		ssize_t got;

		if (stop && *stop) {
			st->interrupted = 1;
			break;
		}
		if (max && (max - st->samples) * WIDEIN_WORD < want)
			want = (size_t)(max - st->samples) * WIDEIN_WORD - npart;
		got = source_read(src, raw, want, e);
		if (got == ERR_INTERRUPTED)
			continue;         /* the stop flag is looked at first */
		if (got < 0) {
			rc = (int)got;
			break;
		}
		if (got == 0) {
			st->eof = 1;
			break;
		}
		st->bytes += (uint64_t)got;
		len = (size_t)got;
		while (npart && i < len) {
			part[npart++] = raw[i++];
			if (npart == WIDEIN_WORD) {
				uint64_t v = 0;
				for (unsigned b = WIDEIN_WORD; b-- > 0;)
					v = v << 8 | part[b];
				x[n++] = v;
				npart = 0;
			}
		}
		for (; i + WIDEIN_WORD <= len; i += WIDEIN_WORD) {
			uint64_t v = 0;
			for (unsigned b = WIDEIN_WORD; b-- > 0;)
				v = v << 8 | raw[i + b];
			x[n++] = v;
		}
		while (i < len)
			part[npart++] = raw[i++];
		if (n && (rc = fn(ctx, x, n, e)) != 0)
			break;
		st->samples += n;
	}
	free(raw);
	free(x);
	st->seconds = widein_now() - t0;
	return rc;
}

/* widein_read's block callback: appends to the growing array. */
struct widein_array {
	uint64_t *x;
	size_t n, cap;
};

static int widein_append(void *ctx, const uint64_t *x, size_t n, struct err *e)
{
	struct widein_array *a = ctx;
	int rc = widein_grow(&a->x, &a->cap, a->n + n, e);
	if (rc == 0) {
		memcpy(a->x + a->n, x, n * sizeof *x);
		a->n += n;
	}
	return rc;
}

int widein_read(struct source *src, uint64_t max, volatile sig_atomic_t *stop,
		uint64_t **x, size_t *n, struct engine_stats *st, struct err *e)
{
	const struct source_info *info = source_get_info(src);
	struct widein_array a = { NULL, 0, 0 };
	int rc = widein_each(src, max, stop, widein_append, &a, st, e);

	*x = a.x;
	*n = a.n;
	if (rc == 0 && *n == 0 && !st->interrupted)
		rc = err_set(e, ERR_DATA, "%s: no samples", info->device[0] ? info->device : info->spec);
	if (rc) {
		free(*x);
		*x = NULL;
		*n = 0;
	}
	return rc;
}

int widein_push(const struct translate_map *map, const uint64_t *x, size_t n,
		struct sink *const *sinks, size_t nsinks, int interrupted, struct err *e)
{
	uint8_t *sym = malloc(WIDEIN_BLOCK);
	int rc = 0, stopped = 0;

	if (!sym)
		rc = err_set(e, ERR_NOMEM, "out of memory for a block of symbols");
	for (size_t at = 0; rc == 0 && !stopped && at < n; at += WIDEIN_BLOCK) {
		size_t len = n - at < WIDEIN_BLOCK ? n - at : WIDEIN_BLOCK;
		struct block b;

		translate_apply(map, x + at, len, sym);
		/* the symbols are the block's bytes: no word checks on them */
		b = (struct block){ sym, len, 8, sym, len, map->bits, at };
		for (size_t i = 0; i < nsinks; i++) {
			int r = sinks[i]->push(sinks[i], &b, e);
			if (r < 0) {
				rc = r;
				break;
			}
			if (r > 0)
				stopped = 1;
		}
	}
	for (size_t i = 0; i < nsinks; i++) {
		if (sinks[i]->finish) {
			struct err fe;
			int r = sinks[i]->finish(sinks[i], interrupted, &fe);
			if (r < 0 && !rc) {
				rc = r;
				if (e)
					*e = fe;
			}
		}
	}
	free(sym);
	return rc;
}

int widein_translate_file(const char *path, enum widefmt f, size_t max, int *more,
			  const struct translate_method *m, uint8_t **sym, size_t *n,
			  struct translate_map *map, struct err *e)
{
	uint64_t *x = NULL;
	int rc;

	*sym = NULL;
	*n = 0;
	if ((rc = widefmt_read_file(path, f, max, &x, n, more, e)) != 0)
		return rc;
	if ((rc = translate_plan(m, x, *n, widefmt_width(f), map, e)) != 0) {
		char msg[ERR_MSG_MAX];
		snprintf(msg, sizeof msg, "%s", e->msg);
		err_set(e, rc, "%s: %.400s", path, msg);
	} else if (!(*sym = malloc(*n))) {
		rc = err_set(e, ERR_NOMEM, "%s: out of memory for %zu symbols", path, *n);
	} else {
		translate_apply(map, x, *n, *sym);
	}
	free(x);
	if (rc)
		*n = 0;
	return rc;
}
