/* lcpint.h - bottom-up walk of the LCP intervals of a sorted suffix list
 * (Abouelhoda, Kurtz, Ohlebusch 2004), the shared core of the 90B 6.3.5
 * t-tuple and 6.3.6 LRS counts (tuple.c, tuple_packed.c).
 *
 * Fed the LCP of each adjacent pair of sorted suffixes, it visits every
 * maximal run of suffixes sharing a prefix once, as an interval of depth l,
 * size c and parent depth p: the run of every tuple length t in (p, l].
 */
#ifndef RNGAUDIT_LCPINT_H
#define RNGAUDIT_LCPINT_H

#include <stddef.h>
#include <stdint.h>

/* What the walk accumulates, for depths up to v (the LRS length):
 * mx[min(l, qcap)] = the largest run with depth l (Q is its suffix maximum),
 * sd[W - soff]     = the differences of S over W in [soff, v+1].
 * The suffix-array scan knows u beforehand and keeps only Q below u and S
 * from u on (a few bytes per distinct depth); the packed scan keeps all. */
struct lcpint {
	uint32_t *sh, *slb;   /* stack of (depth, left bound) */
	size_t top, cap;
	size_t idx;           /* index of the next item in sorted order */
	uint32_t *mx;
	uint64_t *sd;
	uint32_t *sd32;       /* LCPINT_NARROW: sd in 32 bits instead */
	size_t qcap;          /* mx covers 0..qcap */
	size_t soff, send;    /* sd covers W in soff..send */
	int grows;            /* LCPINT_GROWS: arrays grow with the depth */
	int narrow;           /* LCPINT_NARROW */
	size_t v;             /* largest depth seen: the LRS length */
	int nomem;
};

/* mx covers depths 0..qcap, sd covers W in soff..send.  Flags:
 * LCPINT_GROWS lets both follow the deepest interval; LCPINT_NARROW keeps
 * the differences of S in 32 bits, modulo 2^32 (half the memory for the
 * long ranges of long repeats), for callers that know every S[W] in
 * soff..send is below 2^32.  Returns 0 or -1 (out of memory). */
#define LCPINT_GROWS 1
#define LCPINT_NARROW 2
int lcpint_init(struct lcpint *st, size_t qcap, size_t soff, size_t send, int flags);
/* S[W] (soff <= W <= send) once lcpint_sum_s() has turned the differences
 * into sums. */
void lcpint_sum_s(struct lcpint *st, size_t upto);
static inline uint64_t lcpint_s(const struct lcpint *st, size_t w)
{
	return st->narrow ? st->sd32[w - st->soff] : st->sd[w - st->soff];
}
void lcpint_free(struct lcpint *st);
/* Internals of lcpint_step(): an interval closes; the stack grows. */
void lcpint_report(struct lcpint *st, size_t depth, size_t size, size_t parent);
int lcpint_push_grow(struct lcpint *st);

/* Feeds the LCP of sorted items idx-1 and idx; feed 0 once past the last
 * item to close every interval.  Sets st->nomem on allocation failure.
 * Inline: the walks call it once per suffix. */
static inline void lcpint_step(struct lcpint *st, size_t lcp)
{
	size_t i = st->idx++, lb = i - 1;

	while (lcp < st->sh[st->top]) {
		size_t depth = st->sh[st->top], left = st->slb[st->top], parent;

		st->top--;
		parent = st->sh[st->top] > lcp ? st->sh[st->top] : lcp;
		lcpint_report(st, depth, i - left, parent);
		lb = left;
	}
	if (lcp > st->sh[st->top]) {
		if (st->top + 1 >= st->cap && lcpint_push_grow(st) != 0)
			return;
		st->top++;
		st->sh[st->top] = (uint32_t)lcp;
		st->slb[st->top] = (uint32_t)lb;
	}
}

#endif
