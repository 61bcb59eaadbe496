/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_dist.h - the 90B 6.3.6 pair counts S[W] from W = 64 on for a
 * bitstring whose long repeats lie at a few known distances (tuple_dist.c;
 * the counting road of tuple_count.c finds the distances). */
#ifndef RNGAUDIT_TUPLE_DIST_H
#define RNGAUDIT_TUPLE_DIST_H

#include <stddef.h>
#include <stdint.h>

/* The maximal runs of agreement of 64 bits or more between the bits and
 * themselves shifted by each distance d: a run of L bits from position a
 * (bit a + j equals bit a + d + j for j < L, and bit a + L differs from
 * bit a + d + L, or a + d + L is the end) gives the pairs (i, i + d),
 * a <= i < a + L, the LCPs L, L - 1, .., 1. */
struct tuple_dist {
	uint32_t *len;     /* the runs' lengths (>= 64), ascending once finished */
	uint32_t *at;      /* where each began, in scan order (until finished) */
	uint64_t *above;   /* above[r] = len[r] + .. + len[nrun - 1] */
	size_t nrun, cap;
	uint64_t pairs;    /* pairs with an LCP of 64 or more: the sum of len - 63 */
	size_t v;          /* the longest run: the deepest LCP */
	size_t period;     /* 0, or (tuple_dist_periodic) the one distance scanned */
};

/* Adds the runs of distance d (0 < d < n) of the bitstring w[0..n) (packed
 * as samples_to_packed packs it, one zero word after the last bit).
 * Returns 0, or -1 out of memory. */
int tuple_dist_scan(struct tuple_dist *td, const uint64_t *w, size_t n, size_t d);
/* Distances between consecutive copies that tuple_dist_account takes */
#define TUPLE_DIST_MAX 8

/* The runs (into td, empty) that give the LCPs of the `deep` pairs of
 * positions of w[0..n) that agree on 64 bits, the consecutive copies of
 * each 64-bit window lying ndist distances apart (dist[]) and the most
 * copies of one window being `most`: with one distance, its runs alone
 * where no chain passes between them (tuple_dist_periodic); else, with at
 * most 34 copies a window, every distance and its multiples up to 34 (so
 * consecutive copies at most 33 gaps apart).  0 when the runs hold
 * exactly the deep pairs (td finished), 1 when not (the caller's suffix
 * order must answer), -1 out of memory. */
int tuple_dist_account(struct tuple_dist *td, const uint64_t *w, size_t n, const size_t *dist, size_t ndist,
		       uint64_t most, uint64_t deep);
/* Sorts the runs and sums them for tuple_dist_s: 0, or -1 out of memory. */
int tuple_dist_finish(struct tuple_dist *td);
/* After one tuple_dist_scan at distance p, before tuple_dist_finish: 1 when
 * no chain of positions p apart, each agreeing with the next on 64 bits or
 * more, passes from one run into another (the gaps between runs are
 * p - 63 bits or more), then td->period = p; else 0.  (See tuple_dist.c:
 * where every 64-bit window's copies are p apart, the t-tuples from 64 on
 * are such chains, and S and Q follow from the runs.) */
int tuple_dist_periodic(struct tuple_dist *td, size_t p);
/* S[W] from the runs alone for W >= 64: the pairs of the scanned distances
 * whose LCP is W or more, sum over runs of max(0, L - W + 1); with a
 * period, the pairs within the chains. */
uint64_t tuple_dist_s(const struct tuple_dist *td, size_t w);
/* With a period, Q[W] for W >= 64 (the longest chain of W-tuples), else 0
 * (also where it is below 2). */
uint64_t tuple_dist_q(const struct tuple_dist *td, size_t w);
/* The last W >= 64 where Q[W] reaches qmin (Q falls as W grows), given that
 * Q[64] does. */
size_t tuple_dist_qdeep(const struct tuple_dist *td, uint64_t qmin);
void tuple_dist_free(struct tuple_dist *td);

#endif
