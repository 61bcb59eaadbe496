/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lcpint.c - the LCP interval walk behind the 90B 6.3.5/6.3.6 counts
 * (see lcpint.h).  Q[t] is the largest run with depth >= t, and S gains
 * C(c, 2) on (p, l]: a difference array.  O(1) amortised per suffix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/lcpint.h"

int lcpint_init(struct lcpint *st, size_t qlo, size_t qhi, size_t soff, size_t send, int flags)
{
	size_t slen = soff <= send ? send - soff + 2 : 1;

	memset(st, 0, sizeof *st);
	st->qlo = qlo;
	st->qhi = qhi;
	st->soff = soff;
	st->send = send;
	st->narrow = (flags & LCPINT_NARROW) != 0;
	st->coarse = (flags & LCPINT_COARSE) != 0;
	st->cap = 64;
	st->run = malloc(st->cap * sizeof *st->run);
	st->mx = bigmem_calloc(qhi - qlo + 1, sizeof *st->mx);
	if (st->narrow)
		st->sd32 = bigmem_calloc(slen, sizeof *st->sd32);
	else
		st->sd = bigmem_calloc(slen, sizeof *st->sd);
	if (st->coarse) {
		st->ccap = 64;
		st->mc = bigmem_calloc(st->ccap + 1, sizeof *st->mc);
		st->cd = bigmem_calloc(st->ccap + 1, sizeof *st->cd);
		st->me = bigmem_calloc(st->ccap + 1, sizeof *st->me);
	}
	if (!st->run || !st->mx || (!st->sd && !st->sd32) ||
	    (st->coarse && (!st->mc || !st->cd || !st->me)))
		return -1;
	st->run[0] = (struct lcpint_run){ 0, 0, 1, 0 };
	st->idx = 1;
	return 0;
}

void lcpint_set_floor(struct lcpint *st, size_t floor)
{
	st->run[1] = (struct lcpint_run){ (uint32_t)floor, 0, 1, 0 };   /* cap >= 2 from init */
	st->top = 1;
	st->dtop = floor;
	st->ltop = 0;
}

void lcpint_set_counts(struct lcpint *st, const uint32_t *q, const uint64_t *s, size_t upto)
{
	/* Q as is (lcpint_sum's suffix maxima keep a falling Q), S as the
	 * differences lcpint_sum adds up */
	for (size_t t = st->qlo; t <= upto && t <= st->qhi; t++)
		st->mx[t - st->qlo] = q[t];
	for (size_t w = st->soff; w <= upto && w <= st->send; w++) {
		uint64_t d = s[w] - (w > st->soff ? s[w - 1] : 0);

		if (st->narrow)
			st->sd32[w - st->soff] = (uint32_t)d;
		else
			st->sd[w - st->soff] = d;
	}
}

void lcpint_free(struct lcpint *st)
{
	free(st->run);
	bigmem_free(st->mx);
	bigmem_free(st->sd);
	bigmem_free(st->sd32);
	bigmem_free(st->mc);
	bigmem_free(st->cd);
	bigmem_free(st->me);
}

void lcpint_sum(struct lcpint *st, size_t upto)
{
	uint64_t sum = 0;
	uint32_t sum32 = 0;

	/* Q: suffix maxima (mx[qhi] already holds every depth from qhi on) */
	for (size_t t = st->qhi; t-- > st->qlo;)
		if (st->mx[t + 1 - st->qlo] > st->mx[t - st->qlo])
			st->mx[t - st->qlo] = st->mx[t + 1 - st->qlo];
	for (size_t w = st->soff; w <= upto && w <= st->send; w++) {
		if (st->narrow) {
			sum32 += st->sd32[w - st->soff];   /* modulo 2^32: exact below it */
			st->sd32[w - st->soff] = sum32;
		} else {
			sum += st->sd[w - st->soff];
			st->sd[w - st->soff] = sum;
		}
	}
	if (!st->coarse)
		return;
	for (size_t j = st->ccap; j-- > 0;)
		if (st->mc[j + 1] > st->mc[j])
			st->mc[j] = st->mc[j + 1];
	sum = 0;
	for (size_t j = 0; j <= st->ccap; j++) {
		sum += st->cd[j];
		st->cd[j] = sum;
	}
}

/* LCPINT_COARSE: make room in mc, cd and me for j up to `j`: doubling, but
 * never past what the deepest interval can need (when it is known). */
static int lcpint_grow(struct lcpint *st, size_t j)
{
	size_t most = st->dmax / LCPINT_STRIDE + 1, nc = st->ccap * 2 > j ? st->ccap * 2 : j;
	uint32_t *mc, *me;
	uint64_t *cd;

	if (most >= j && nc > most)
		nc = most;
	mc = bigmem_realloc(st->mc, nc + 1, sizeof *mc);
	if (!mc)
		return -1;
	st->mc = mc;
	cd = bigmem_realloc(st->cd, nc + 1, sizeof *cd);
	if (!cd)
		return -1;
	st->cd = cd;
	me = bigmem_realloc(st->me, nc + 1, sizeof *me);
	if (!me)
		return -1;
	st->me = me;
	st->ccap = nc;
	return 0;
}

void lcpint_report(struct lcpint *st, size_t depth, size_t size, size_t parent)
{
	uint64_t pairs = (uint64_t)size * (uint64_t)(size - 1) / 2;
	size_t lo, hi;

	if (depth >= st->qlo) {
		size_t qi = (depth < st->qhi ? depth : st->qhi) - st->qlo;

		if (size > st->mx[qi])
			st->mx[qi] = (uint32_t)size;
	}
	if (size >= st->qmin && depth > st->qdeep)
		st->qdeep = depth;
	/* S gains C(size, 2) for every W in (parent, depth] within [soff, send] */
	lo = parent + 1 > st->soff ? parent + 1 : st->soff;
	hi = depth < st->send ? depth : st->send;
	if (lo <= hi) {
		if (st->narrow) {
			st->sd32[lo - st->soff] += (uint32_t)pairs;
			st->sd32[hi + 1 - st->soff] -= (uint32_t)pairs;
		} else {
			st->sd[lo - st->soff] += pairs;
			st->sd[hi + 1 - st->soff] -= pairs;
		}
	}
	if (st->coarse && depth >= LCPINT_STRIDE) {
		/* the samples: Q at 64 j <= depth, S at 64 j in (parent, depth] */
		size_t j1 = parent / LCPINT_STRIDE + 1, j2 = depth / LCPINT_STRIDE;

		if (j2 + 1 > st->ccap && lcpint_grow(st, j2 + 1) != 0) {
			st->nomem = 1;
			return;
		}
		if (size > st->mc[j2])
			st->mc[j2] = (uint32_t)size;
		if (size + depth > st->me[j2])
			st->me[j2] = (uint32_t)(size + depth);
		if (j1 <= j2) {
			st->cd[j1] += pairs;
			st->cd[j2 + 1] -= pairs;
		}
	}
	if (depth > st->v)
		st->v = depth;
}

int lcpint_push_grow(struct lcpint *st)
{
	size_t nc = st->cap * 2;
	struct lcpint_run *a = realloc(st->run, nc * sizeof *a);

	if (!a) {
		st->nomem = 1;
		return -1;
	}
	st->run = a;
	st->cap = nc;
	return 0;
}
