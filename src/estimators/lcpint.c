/* lcpint.c - the LCP interval walk behind the 90B 6.3.5/6.3.6 counts
 * (see lcpint.h).  Q[t] is the largest run with depth >= t, and S gains
 * C(c, 2) on (p, l]: a difference array.  O(1) amortised per suffix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "estimators/lcpint.h"

int lcpint_init(struct lcpint *st, size_t qcap, size_t soff, size_t send, int flags)
{
	memset(st, 0, sizeof *st);
	st->qcap = qcap;
	st->soff = soff;
	st->send = send;
	st->grows = (flags & LCPINT_GROWS) != 0;
	st->narrow = (flags & LCPINT_NARROW) != 0 && !st->grows;
	st->cap = 64;
	st->sh = malloc(st->cap * sizeof *st->sh);
	st->slb = malloc(st->cap * sizeof *st->slb);
	st->mx = calloc(qcap + 1, sizeof *st->mx);
	if (st->narrow)
		st->sd32 = calloc(send - soff + 2, sizeof *st->sd32);
	else
		st->sd = calloc(send - soff + 2, sizeof *st->sd);
	if (!st->sh || !st->slb || !st->mx || (!st->sd && !st->sd32))
		return -1;
	st->sh[0] = 0;
	st->slb[0] = 0;
	st->idx = 1;
	return 0;
}

void lcpint_free(struct lcpint *st)
{
	free(st->sh);
	free(st->slb);
	free(st->mx);
	free(st->sd);
	free(st->sd32);
}

void lcpint_sum_s(struct lcpint *st, size_t upto)
{
	uint64_t sum = 0;
	uint32_t sum32 = 0;

	for (size_t w = st->soff; w <= upto && w <= st->send; w++) {
		if (st->narrow) {
			sum32 += st->sd32[w - st->soff];   /* modulo 2^32: exact below it */
			st->sd32[w - st->soff] = sum32;
		} else {
			sum += st->sd[w - st->soff];
			st->sd[w - st->soff] = sum;
		}
	}
}

/* Growable mode: make room for depths up to `depth`. */
static int lcpint_grow(struct lcpint *st, size_t depth)
{
	size_t nq = st->qcap * 2 > depth ? st->qcap * 2 : depth;
	uint32_t *mx = realloc(st->mx, (nq + 1) * sizeof *mx);
	uint64_t *sd;

	if (!mx)
		return -1;
	st->mx = mx;
	sd = realloc(st->sd, (nq - st->soff + 2) * sizeof *sd);
	if (!sd)
		return -1;
	st->sd = sd;
	memset(st->mx + st->qcap + 1, 0, (nq - st->qcap) * sizeof *mx);
	memset(st->sd + (st->send - st->soff + 2), 0, (nq - st->send) * sizeof *sd);
	st->qcap = nq;
	st->send = nq;
	return 0;
}

void lcpint_report(struct lcpint *st, size_t depth, size_t size, size_t parent)
{
	uint64_t pairs = (uint64_t)size * (uint64_t)(size - 1) / 2;
	size_t qi, lo;

	if (st->grows && depth > st->qcap && lcpint_grow(st, depth) != 0) {
		st->nomem = 1;
		return;
	}
	qi = depth < st->qcap ? depth : st->qcap;
	if (size > st->mx[qi])
		st->mx[qi] = (uint32_t)size;
	/* S gains C(size, 2) for every W in (parent, depth] within [soff, send] */
	lo = parent + 1 > st->soff ? parent + 1 : st->soff;
	if (lo <= depth && depth <= st->send) {
		if (st->narrow) {
			st->sd32[lo - st->soff] += (uint32_t)pairs;
			st->sd32[depth + 1 - st->soff] -= (uint32_t)pairs;
		} else {
			st->sd[lo - st->soff] += pairs;
			st->sd[depth + 1 - st->soff] -= pairs;
		}
	}
	if (depth > st->v)
		st->v = depth;
}

int lcpint_push_grow(struct lcpint *st)
{
	size_t nc = st->cap * 2;
	uint32_t *a = realloc(st->sh, nc * sizeof *a), *b;

	if (!a) {
		st->nomem = 1;
		return -1;
	}
	st->sh = a;
	b = realloc(st->slb, nc * sizeof *b);
	if (!b) {
		st->nomem = 1;
		return -1;
	}
	st->slb = b;
	st->cap = nc;
	return 0;
}
