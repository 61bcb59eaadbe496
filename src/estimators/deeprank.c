/* SPDX-License-Identifier: GPL-3.0-or-later */
/* deeprank.c - byte suffix ranks for the deep ties of long bitstrings (see
 * deeprank.h).  Suffix array by divsufsort, the LCP array over it
 * (lcparray.c), range minima by a sparse table over blocks of the LCP
 * array. */
#include "config.h"

#include <divsufsort.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/deeprank.h"
#include "estimators/lcparray.h"

/* LCP entries per block of the sparse table: a query scans at most two
 * part blocks (ranks of repeated text are mostly next to each other). */
#define DEEPRANK_BLOCK 64

static inline unsigned byte_at(const uint64_t *w, size_t j)
{
	return (unsigned)(w[j >> 3] >> (56 - 8 * (j & 7))) & 0xffu;
}

static int build_sparse(struct deeprank *dr)
{
	size_t nl = dr->nb;   /* lcp[0..nb-1] */

	dr->nblk = (nl + DEEPRANK_BLOCK - 1) / DEEPRANK_BLOCK;
	dr->nlev = 1;
	while (((size_t)1 << dr->nlev) <= dr->nblk)
		dr->nlev++;
	dr->sparse = bigmem_calloc(dr->nlev * dr->nblk, sizeof *dr->sparse);
	if (!dr->sparse)
		return -1;
	for (size_t b = 0; b < dr->nblk; b++) {
		size_t lo = b * DEEPRANK_BLOCK, hi = lo + DEEPRANK_BLOCK < nl ? lo + DEEPRANK_BLOCK : nl;
		uint32_t m = UINT32_MAX;

		for (size_t i = lo; i < hi; i++)
			if (dr->lcp[i] < m)
				m = dr->lcp[i];
		dr->sparse[b] = m;
	}
	for (size_t l = 1; l < dr->nlev; l++) {
		const uint32_t *prev = dr->sparse + (l - 1) * dr->nblk;
		uint32_t *cur = dr->sparse + l * dr->nblk;
		size_t half = (size_t)1 << (l - 1);

		for (size_t b = 0; b + 2 * half <= dr->nblk; b++)
			cur[b] = prev[b] < prev[b + half] ? prev[b] : prev[b + half];
	}
	return 0;
}

int deeprank_init(struct deeprank *dr, const uint64_t *w, size_t n)
{
	uint8_t *bytes = NULL;
	saidx_t *sa = NULL;

	memset(dr, 0, sizeof *dr);
	dr->w = w;
	dr->n = n;
	dr->nb = (n + 7) / 8;
	if (dr->nb >= (size_t)INT32_MAX || dr->nb == 0)
		return -1;
	/* on huge pages (bigmem.c): rank and lcp are read at random, a TLB
	 * miss a read on small pages */
	bytes = bigmem_calloc(dr->nb, 1);
	sa = bigmem_calloc(dr->nb, sizeof *sa);
	dr->rank = bigmem_calloc(dr->nb, sizeof *dr->rank);
	if (!bytes || !sa || !dr->rank)
		goto fail;
	for (size_t j = 0; j < dr->nb; j++)
		bytes[j] = (uint8_t)byte_at(w, j);
	if (divsufsort(bytes, sa, (saidx_t)dr->nb) != 0)
		goto fail;
	for (size_t i = 0; i < dr->nb; i++)
		dr->rank[sa[i]] = (uint32_t)i;
	if (lcparray_over_sa(bytes, dr->nb, sa) == (size_t)-1)
		goto fail;
	dr->lcp = (uint32_t *)sa;   /* LCPs are >= 0: the same bits as uint32_t */
	sa = NULL;
	bigmem_free(bytes);
	bytes = NULL;
	if (build_sparse(dr) != 0)
		goto fail;
	return 0;
fail:
	bigmem_free(sa);
	bigmem_free(bytes);
	deeprank_free(dr);
	return -1;
}

void deeprank_free(struct deeprank *dr)
{
	bigmem_free(dr->rank);
	bigmem_free(dr->lcp);
	bigmem_free(dr->sparse);
	dr->rank = dr->lcp = dr->sparse = NULL;
}

static uint32_t scan_min(const uint32_t *a, size_t lo, size_t hi, uint32_t m)
{
	for (size_t i = lo; i < hi; i++)
		if (a[i] < m)
			m = a[i];
	return m;
}

/* min lcp[lo..hi], lo <= hi */
static uint32_t range_min(const struct deeprank *dr, size_t lo, size_t hi)
{
	size_t bl = lo / DEEPRANK_BLOCK + 1, bh = hi / DEEPRANK_BLOCK;   /* whole blocks [bl, bh) */
	uint32_t m;
	size_t l = 0;

	if (bl >= bh)
		return scan_min(dr->lcp, lo, hi + 1, UINT32_MAX);
	m = scan_min(dr->lcp, lo, bl * DEEPRANK_BLOCK, UINT32_MAX);
	m = scan_min(dr->lcp, bh * DEEPRANK_BLOCK, hi + 1, m);
	while (((size_t)2 << l) <= bh - bl)
		l++;
	{
		const uint32_t *t = dr->sparse + l * dr->nblk;
		uint32_t x = t[bl] < t[bh - ((size_t)1 << l)] ? t[bl] : t[bh - ((size_t)1 << l)];

		return x < m ? x : m;
	}
}

size_t deeprank_lcp(const struct deeprank *dr, size_t a, size_t b, uint32_t ka, uint32_t kb)
{
	size_t common, ja, jb, bits, cap = dr->n - (a > b ? a : b);

	if (ka == kb)
		return cap;   /* the same byte suffix: a == b */
	common = range_min(dr, (ka < kb ? ka : kb) + 1, ka < kb ? kb : ka);
	ja = (a >> 3) + 1 + common;
	jb = (b >> 3) + 1 + common;
	bits = 8 - (a & 7) + 8 * common;
	if (ja < dr->nb && jb < dr->nb) {
		unsigned x = byte_at(dr->w, ja) ^ byte_at(dr->w, jb);

		bits += x ? (unsigned)__builtin_clz(x) - 24 : 8;
	}
	return bits < cap ? bits : cap;
}
