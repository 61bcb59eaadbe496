/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_dist.c - 90B 6.3.6 S[W] for W >= 64 from the bits compared with
 * themselves at a few distances (see tuple_dist.h).
 *
 * A bitstring that repeats a block (a stuck source replaying a buffer)
 * has an LCP of 64 or more at nearly every position, all of them between
 * positions a multiple of the block apart.  Sorting its suffixes and
 * measuring the ties word by word (tuple_packed.c) cost ~0.5 s for the 8M
 * bits of a 100,000-byte block repeated to 1M bytes, three times random
 * data's whole count.  Here each distance d is one pass over the words of
 * w XOR w shifted by d: the maximal runs of zeros of 64 bits or more are
 * the runs of agreement, and a run of L bits gives the pairs (i, i + d)
 * along it the LCPs L, L - 1, .., 1 (the first difference, or the end of
 * the later suffix, stops each).  So a pair's LCP is counted once, by its
 * own distance, and S[W] = sum over runs of max(0, L - W + 1): no order of
 * the suffixes is needed.  tuple_count.c checks that the runs hold every
 * pair it met with an LCP of 64 or more (their number, `pairs`), and
 * otherwise leaves the input to the packed scan. */
#include "config.h"

#include <stdlib.h>

#include "estimators/estimators.h"
#include "estimators/tuple_dist.h"

static int add_run(struct tuple_dist *td, size_t len)
{
	if (td->nrun == td->cap) {
		size_t nc = td->cap ? td->cap * 2 : 64;
		uint32_t *a = realloc(td->len, nc * sizeof *a);

		if (!a)
			return -1;
		td->len = a;
		td->cap = nc;
	}
	td->len[td->nrun++] = (uint32_t)len;
	td->pairs += len - 63;
	if (len > td->v)
		td->v = len;
	return 0;
}

int tuple_dist_scan(struct tuple_dist *td, const uint64_t *w, size_t n, size_t d)
{
	const size_t end = n - d;   /* positions with a partner d further on */
	size_t start = 0;           /* where the open run of agreement began */

	for (size_t q = 0; q * 64 < end; q++) {
		const size_t i = q * 64, m = end - i;
		uint64_t x = w[q] ^ est_bits64(w, i + d);

		if (m < 64)
			x |= ~(uint64_t)0 >> m;   /* no partner past the end: a difference */
		if (x == 0)
			continue;
		/* MSB first: the word's first difference ends the open run, and
		 * the one after its last difference opens the next (runs within
		 * a word are shorter than 64) */
		const size_t stop = i + (size_t)__builtin_clzll(x);

		if (stop - start >= 64 && add_run(td, stop - start) != 0)
			return -1;
		start = i + 64 - (size_t)__builtin_ctzll(x);
	}
	if (start < end && end - start >= 64 && add_run(td, end - start) != 0)
		return -1;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int tuple_dist_finish(struct tuple_dist *td)
{
	uint64_t sum = 0;

	free(td->above);
	td->above = malloc((td->nrun + 1) * sizeof *td->above);
	if (!td->above)
		return -1;
	if (td->nrun > 1)
		qsort(td->len, td->nrun, sizeof *td->len, cmp_u32);
	td->above[td->nrun] = 0;
	for (size_t r = td->nrun; r-- > 0;) {
		sum += td->len[r];
		td->above[r] = sum;
	}
	return 0;
}

uint64_t tuple_dist_s(const struct tuple_dist *td, size_t w)
{
	size_t lo = 0, hi = td->nrun;

	/* the first run of w bits or more */
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;

		if (td->len[mid] < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	return td->above[lo] - (uint64_t)(w - 1) * (td->nrun - lo);
}

void tuple_dist_free(struct tuple_dist *td)
{
	free(td->len);
	free(td->above);
	td->len = NULL;
	td->above = NULL;
	td->nrun = td->cap = 0;
	td->pairs = 0;
	td->v = 0;
}
