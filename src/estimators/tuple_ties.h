/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_ties.h - the keys of the packed suffix order of tuple_packed.c (a
 * suffix's first 64 bits), their sorts, and the deep ties: suffixes that
 * agree on all 64 bits, ordered and measured by tuple_ties.c.  Internal to
 * the t-tuple/LRS code. */
#ifndef RNGAUDIT_TUPLE_TIES_H
#define RNGAUDIT_TUPLE_TIES_H

#include <stddef.h>
#include <stdint.h>

#include "estimators/deeprank.h"

struct pkey {
	uint64_t key;     /* the 64 bits from the position on, zero-padded */
	uint32_t aux;     /* bits left from the position, capped at 64, in the
			     low 7 bits; above them its byte rank (deeprank_key)
			     once deep ties have made deeprank.c sort the bytes */
	uint32_t pos;
};
#define PKEY_AVAIL(k) ((k).aux & 127u)
#define PKEY_RANK_MAX ((size_t)1 << 25)

static inline uint64_t pack_window(const uint64_t *w, size_t pos)
{
	size_t q = pos >> 6;
	unsigned r = (unsigned)(pos & 63);

	return r ? (w[q] << r) | (w[q + 1] >> (64 - r)) : w[q];
}

static inline int pkey_less(const struct pkey *a, const struct pkey *b)
{
	/* equal keys: shorter first; among full-length ones, by byte rank when
	 * the keys carry it (right for ties at one offset, see deepctx_order) */
	return a->key < b->key || (a->key == b->key && a->aux < b->aux);
}

/* Insertion sort: O(n + inversions), so O(n) on keys that are in order
 * but for neighbours (pkey_sort's small parts; a top bucket's final
 * buckets in tuple_packed.c's pscan_order). */
void pkey_insertion(struct pkey *a, size_t n);
/* Quicksort by pkey_less. */
void pkey_sort(struct pkey *a, size_t n);
/* A final bucket in position order: reversed when it is one group of
 * copies longest first, else sorted. */
void pkey_sort_bucket(struct pkey *a, size_t m);

/* How deep ties are ordered and measured (tuple_ties.c). */
struct deepctx {
	const uint64_t *w;
	size_t n;
	size_t soft, hard;    /* word comparisons left, same and other offsets */
	int ranks_now;        /* tests: no word comparisons at the same offset */
	int ranked;           /* dr is built */
	struct deeprank dr;
	int over, nomem;
};

/* Sets dc up for the n bits in w (ranks_now: tests, the byte ranks from
 * the first deep tie at the same offset on). */
void deepctx_init(struct deepctx *dc, const uint64_t *w, size_t n, int ranks_now);
void deepctx_free(struct deepctx *dc);
/* Orders a deep tie group g[0..m-1] and sets gl[i] to the LCP of g[i - 1]
 * and g[i]; carried: the keys hold their byte ranks.  Returns 0, or -1
 * with dc->over (the suffix array should answer) or dc->nomem set. */
int deepctx_order(struct deepctx *dc, struct pkey *g, size_t m, uint32_t *gl, int carried);

#endif
