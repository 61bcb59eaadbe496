/* SPDX-License-Identifier: GPL-3.0-or-later */
/* translate.c - 90B 6.4 symbol-space reduction (see translate.h). */
#include "config.h"

#include "engine/translate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/estimators.h"

#define TRANSLATE_OUT_BITS 8     /* NIST's format: one symbol per byte */
#define TRANSLATE_MOD_MAX 256    /* mod:M's symbols must fit a byte */
/* Scores closer than this are ties (rounding of the logs): the lower bit,
 * met first, keeps its place. */
#define TRANSLATE_TIE 1e-12

/* ---- parsing ----------------------------------------------------------- */

/* An integer in [min, max] filling all of text (no sign, no junk). */
static int translate_parse_uint(const char *text, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int translate_parse(const char *text, struct translate_method *m, struct err *e)
{
	static const struct {
		const char *prefix;
		enum translate_kind kind;
		unsigned min, max;
	} withk[] = {
		{ "low:", TRANSLATE_LOW, 1, TRANSLATE_OUT_BITS },
		{ "select:", TRANSLATE_SELECT, 1, TRANSLATE_OUT_BITS },
		{ "group:", TRANSLATE_GROUP, 1, TRANSLATE_OUT_BITS },
		{ "mod:", TRANSLATE_MOD, 2, TRANSLATE_MOD_MAX },
	};

	memset(m, 0, sizeof *m);
	if (strcmp(text, "bits-in-use") == 0) {
		m->kind = TRANSLATE_BITS_IN_USE;
		return 0;
	}
	for (size_t i = 0; i < sizeof withk / sizeof withk[0]; i++) {
		size_t plen = strlen(withk[i].prefix);
		unsigned v;

		if (strncmp(text, withk[i].prefix, plen) != 0)
			continue;
		if (translate_parse_uint(text + plen, withk[i].min, withk[i].max, &v) != 0)
			return err_set(e, ERR_USAGE, "translation '%.64s': %.*s needs an integer from %u to %u",
				       text, (int)plen - 1, withk[i].prefix, withk[i].min, withk[i].max);
		m->kind = withk[i].kind;
		if (m->kind == TRANSLATE_MOD)
			m->m = v;
		else
			m->k = v;
		return 0;
	}
	return err_set(e, ERR_USAGE, "translation '%.64s': expected low:K, bits-in-use, select:K, "
		       "group:K or mod:M", text);
}

/* ---- the score select:K maximises -------------------------------------- */

/* 90B 6.3.1: the upper 99% bound of a proportion of c in n. */
static double translate_p_upper(double c, double n)
{
	double p = c / n, u;

	if (n < 2)
		return 1.0;
	u = p + EST_ZALPHA * sqrt(p * (1.0 - p) / (n - 1.0));
	return u > 1.0 ? 1.0 : u;
}

double translate_score(const uint8_t *s, size_t n, unsigned bits)
{
	size_t nsym = (size_t)1 << bits;
	uint32_t *pair, hist[256] = { 0 };
	uint64_t most = 0, right = 0;
	double pu_mcv, pu_pred;

	if (n < 2)
		return 0.0;
	pair = calloc(nsym * nsym, sizeof *pair);
	if (!pair)
		return 0.0;
	hist[s[0]]++;
	for (size_t i = 1; i < n; i++) {
		hist[s[i]]++;
		pair[(size_t)s[i - 1] * nsym + s[i]]++;
	}
	for (size_t v = 0; v < nsym; v++) {
		uint32_t best = 0;

		if (hist[v] > most)
			most = hist[v];
		for (size_t w = 0; w < nsym; w++)
			if (pair[v * nsym + w] > best)
				best = pair[v * nsym + w];
		right += best;   /* guessing, after v, the symbol that most often follows v */
	}
	free(pair);
	pu_mcv = translate_p_upper((double)most, (double)n);
	pu_pred = translate_p_upper((double)right, (double)(n - 1));
	return -log2(pu_mcv > pu_pred ? pu_mcv : pu_pred) + 0.0;
}

/* ---- planning ---------------------------------------------------------- */

static unsigned translate_popcount(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* The bits that differ from the first sample somewhere. */
static uint64_t translate_varying(const uint64_t *x, size_t n)
{
	uint64_t diff = 0;

	for (size_t i = 1; i < n; i++)
		diff |= x[i] ^ x[0];
	return diff;
}

static void translate_take_low(struct translate_map *map, uint64_t bits)
{
	map->npos = 0;
	for (unsigned b = 0; b < 64 && map->npos < TRANSLATE_OUT_BITS; b++)
		if (bits >> b & 1)
			map->pos[map->npos++] = (uint8_t)b;
	/* nothing changes: no position, one symbol, 0 */
	map->bits = map->npos ? map->npos : 1;
}

/* select:K over the candidate bits: at each step the bit whose addition
 * gives the selection the highest score (ties: the lowest bit, where raw
 * noise usually sits).  Scoring the selection jointly, not bit by bit, is
 * what keeps it from picking k copies of one sign bit (each alone scores 1). */
static int translate_select(struct translate_map *map, const uint64_t *x, size_t n,
			    uint64_t candidates, unsigned k, struct err *e)
{
	size_t w = n < TRANSLATE_SELECT_WINDOW ? n : TRANSLATE_SELECT_WINDOW;
	uint8_t *cur = calloc(w, 1), *trial = malloc(w);

	if (!cur || !trial) {
		free(cur);
		free(trial);
		return err_set(e, ERR_NOMEM, "out of memory selecting bits of %zu samples", n);
	}
	if (translate_popcount(candidates) <= k) {
		/* no choice to make: keep them all, and score them for the description */
		translate_take_low(map, candidates);
		for (size_t i = 0; i < w; i++) {
			unsigned v = 0;
			for (unsigned j = 0; j < map->npos; j++)
				v |= (unsigned)(x[i] >> map->pos[j] & 1) << j;
			cur[i] = (uint8_t)v;
		}
		map->score = translate_score(cur, w, map->bits);
	} else {
		for (unsigned t = 0; t < k; t++) {
			int best = -1;
			double best_h = -1.0;

			for (unsigned b = 0; b < 64; b++) {
				double h;

				if (!(candidates >> b & 1))
					continue;
				for (size_t i = 0; i < w; i++)
					trial[i] = (uint8_t)(cur[i] | ((x[i] >> b & 1) << t));
				h = translate_score(trial, w, t + 1);
				if (h > best_h + TRANSLATE_TIE) {
					best_h = h;
					best = (int)b;
				}
			}
			for (size_t i = 0; i < w; i++)
				cur[i] = (uint8_t)(cur[i] | ((x[i] >> best & 1) << t));
			candidates &= ~((uint64_t)1 << best);
			map->pos[map->npos++] = (uint8_t)best;
			map->score = best_h;
		}
		map->bits = map->npos;
	}
	free(cur);
	free(trial);
	return 0;
}

static int translate_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Samples from v[i] on that equal v[i] (v sorted). */
static size_t translate_run(const uint64_t *v, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && v[j] == v[i])
		j++;
	return j - i;
}

/* group:K: sort a copy, then walk the distinct values, closing a range at
 * the value boundary nearest to its share of the population (the s-th range
 * ends nearest to s N / 2^K samples).  A value is never split, so a heavy
 * value may fill a range alone and fewer than 2^K ranges result. */
static int translate_group(struct translate_map *map, const uint64_t *x, size_t n, unsigned k,
			   struct err *e)
{
	uint64_t *v = malloc(n * sizeof *v);
	unsigned want = 1u << k;
	uint64_t filled = 0;

	if (!v)
		return err_set(e, ERR_NOMEM, "out of memory grouping %zu samples", n);
	memcpy(v, x, n * sizeof *v);
	qsort(v, n, sizeof *v, translate_cmp_u64);
	map->per_group = ((uint64_t)n + want - 1) / want;
	map->nsym = 1;
	map->lower[0] = 0;            /* values below the smallest seen map to 0 too */
	for (size_t i = 0; i < n;) {
		size_t j = i + translate_run(v, n, i), next;
		double target, under, over;

		filled += j - i;          /* the value v[i] joins the open range */
		i = j;
		if (j == n || map->nsym == want)
			continue;
		next = translate_run(v, n, j);
		target = (double)map->nsym * (double)n / want;
		under = target - (double)filled;            /* short of the share if closed now */
		over = (double)(filled + next) - target;    /* past it if v[j] joins too */
		if (under <= over)
			map->lower[map->nsym++] = v[j];
	}
	free(v);
	map->bits = 1;
	while ((1u << map->bits) < map->nsym)
		map->bits++;
	return 0;
}

int translate_plan(const struct translate_method *m, const uint64_t *x, size_t n,
		   unsigned width, struct translate_map *map, struct err *e)
{
	uint64_t all = width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;

	memset(map, 0, sizeof *map);
	map->method = *m;
	map->width = width;
	map->nsamples = n;
	if (n == 0)
		return err_set(e, ERR_DATA, "no samples to translate");
	if (width < 1 || width > 64)
		return err_set(e, ERR_USAGE, "sample width %u: must be from 1 to 64 bits", width);
	switch (m->kind) {
	case TRANSLATE_LOW:
		if (m->k > width)
			return err_set(e, ERR_USAGE, "low:%u: the samples have only %u bits", m->k, width);
		translate_take_low(map, ((uint64_t)1 << m->k) - 1);
		return 0;
	case TRANSLATE_BITS_IN_USE:
		map->varying = translate_varying(x, n) & all;
		if (translate_popcount(map->varying) <= TRANSLATE_OUT_BITS) {
			translate_take_low(map, map->varying);
			return 0;
		}
		map->selected = 1;
		return translate_select(map, x, n, map->varying, TRANSLATE_OUT_BITS, e);
	case TRANSLATE_SELECT:
		if (m->k > width)
			return err_set(e, ERR_USAGE, "select:%u: the samples have only %u bits", m->k, width);
		map->varying = translate_varying(x, n) & all;
		return translate_select(map, x, n, map->varying, m->k, e);
	case TRANSLATE_GROUP:
		return translate_group(map, x, n, m->k, e);
	case TRANSLATE_MOD:
		map->bits = 1;
		while ((1u << map->bits) < m->m)
			map->bits++;
		return 0;
	}
	return err_set(e, ERR_INTERNAL, "unknown translation");
}

/* ---- applying ---------------------------------------------------------- */

static unsigned translate_group_of(const struct translate_map *map, uint64_t v)
{
	unsigned lo = 0, hi = map->nsym;   /* the last s with lower[s] <= v */

	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (map->lower[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int translate_contiguous(const struct translate_map *map)
{
	for (unsigned j = 1; j < map->npos; j++)
		if (map->pos[j] != map->pos[0] + j)
			return 0;
	return 1;
}

void translate_apply(const struct translate_map *map, const uint64_t *x, size_t n, uint8_t *out)
{
	switch (map->method.kind) {
	case TRANSLATE_GROUP:
		for (size_t i = 0; i < n; i++)
			out[i] = (uint8_t)translate_group_of(map, x[i]);
		return;
	case TRANSLATE_MOD:
		for (size_t i = 0; i < n; i++)
			out[i] = (uint8_t)(x[i] % map->method.m);
		return;
	default:
		break;
	}
	if (translate_contiguous(map)) {      /* one shift and mask */
		unsigned sh = map->pos[0];
		uint64_t mask = ((uint64_t)1 << map->npos) - 1;
		for (size_t i = 0; i < n; i++)
			out[i] = (uint8_t)(x[i] >> sh & mask);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned v = 0;
		for (unsigned j = 0; j < map->npos; j++)
			v |= (unsigned)(x[i] >> map->pos[j] & 1) << j;
		out[i] = (uint8_t)v;
	}
}

/* ---- describing -------------------------------------------------------- */

/* "0-4" for a run, "0,1,9" otherwise. */
static void translate_list_bits(const struct translate_map *map, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (translate_contiguous(map) && map->npos > 2) {
		snprintf(buf, len, "%u-%u", map->pos[0], map->pos[map->npos - 1]);
		return;
	}
	for (unsigned j = 0; j < map->npos && used < len; j++) {
		int w = snprintf(buf + used, len - used, "%s%u", j ? "," : "", map->pos[j]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

void translate_describe(const struct translate_map *map, char *buf, size_t len)
{
	const struct translate_method *m = &map->method;
	char bits[64];

	translate_list_bits(map, bits, sizeof bits);
	switch (m->kind) {
	case TRANSLATE_LOW:
		snprintf(buf, len, "low:%u: the %u least significant bits of each %u-bit sample",
			 m->k, m->k, map->width);
		return;
	case TRANSLATE_BITS_IN_USE:
		if (map->varying == 0)
			snprintf(buf, len, "bits-in-use: no bit of the %u-bit samples changes; every "
				 "symbol is 0", map->width);
		else if (!map->selected)
			snprintf(buf, len, "bits-in-use: %u of %u bits change (%s); the symbol is "
				 "those bits", translate_popcount(map->varying), map->width, bits);
		else
			snprintf(buf, len, "bits-in-use: %u of %u bits change, more than 8, so "
				 "continued with select:8: bits %s (estimate %.2f bits per symbol)",
				 translate_popcount(map->varying), map->width, bits, map->score);
		return;
	case TRANSLATE_SELECT:
		if (map->npos == 0) {
			snprintf(buf, len, "select:%u: no bit of the %u-bit samples changes; every "
				 "symbol is 0", m->k, map->width);
			return;
		}
		snprintf(buf, len, "select:%u: bits %s of each %u-bit sample, chosen jointly "
			 "(estimate %.2f bits per symbol)", m->k, bits, map->width, map->score);
		return;
	case TRANSLATE_GROUP:
		if (map->nsym == 1)
			snprintf(buf, len, "group:%u: one value range (every sample alike); every symbol "
				 "is 0", m->k);
		else
			snprintf(buf, len, "group:%u: %u contiguous value ranges of about %llu samples "
				 "each, split at %llu..%llu", m->k, map->nsym,
				 (unsigned long long)map->per_group, (unsigned long long)map->lower[1],
				 (unsigned long long)map->lower[map->nsym - 1]);
		return;
	case TRANSLATE_MOD:
		snprintf(buf, len, "mod:%u: each %u-bit sample modulo %u", m->m, map->width, m->m);
		return;
	}
	snprintf(buf, len, "unknown translation");
}
