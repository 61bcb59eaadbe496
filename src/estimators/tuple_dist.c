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
 * otherwise leaves the input to the packed scan.
 *
 * A block repeated 35 times or more makes that a pass per copy, and 6.3.5
 * then needs Q past 64 too.  But where every 64-bit window's consecutive
 * copies are the same p apart, so are the copies of every longer tuple,
 * with no gap: if x and x + k p begin the same W-tuple (W >= 64) and
 * x + j p does not, its first difference at some m >= 64 makes the 64-bit
 * window ending at x + m occur at x + m - 63 and k p further on but not
 * j p further on, copies not p apart.  So a W-tuple's places are a chain
 * y, y + p, .., each agreeing with the next on W bits or more, and one
 * distance says it all.  Within a run of L bits at distance p, the
 * positions that agree W bits on are the first L - W + 1, and those of
 * one residue modulo p form one chain (with the one p after its last);
 * where the runs lie far enough apart no chain passes from one into
 * another (tuple_dist_periodic), and S[W] and Q[W] are sums and maxima of
 * chain sizes over the runs. */
#include "config.h"

#include <stdlib.h>

#include "estimators/estimators.h"
#include "estimators/tuple.h"
#include "estimators/tuple_dist.h"

static int add_run(struct tuple_dist *td, size_t start, size_t len)
{
	if (td->nrun == td->cap) {
		size_t nc = td->cap ? td->cap * 2 : 64;
		uint32_t *a = realloc(td->len, nc * sizeof *a), *b;

		if (!a)
			return -1;
		td->len = a;
		b = realloc(td->at, nc * sizeof *b);
		if (!b)
			return -1;
		td->at = b;
		td->cap = nc;
	}
	td->at[td->nrun] = (uint32_t)start;
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

		if (stop - start >= 64 && add_run(td, start, stop - start) != 0)
			return -1;
		start = i + 64 - (size_t)__builtin_ctzll(x);
	}
	if (start < end && end - start >= 64 && add_run(td, start, end - start) != 0)
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

int tuple_dist_periodic(struct tuple_dist *td, size_t p)
{
	/* a chain passes from a run [a, b) into a later one beginning at a'
	 * only through a position y <= b - W with y + p >= a': a' - b <= p - W */
	for (size_t r = 1; r < td->nrun; r++)
		if ((size_t)td->at[r] - ((size_t)td->at[r - 1] + td->len[r - 1]) + 63 < p)
			return 0;
	td->period = p;
	return 1;
}

/* The first run of w bits or more (the runs ascending). */
static size_t first_reaching(const struct tuple_dist *td, size_t w)
{
	size_t lo = 0, hi = td->nrun;

	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;

		if (td->len[mid] < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline uint64_t pairs_of(uint64_t c)
{
	return c * (c - 1) / 2;
}

uint64_t tuple_dist_s(const struct tuple_dist *td, size_t w)
{
	const size_t lo = first_reaching(td, w);
	const uint64_t p = td->period;
	uint64_t s = 0;

	if (!p)
		return td->above[lo] - (uint64_t)(w - 1) * (td->nrun - lo);
	/* each run's first L - w + 1 positions, by residue: rem chains of
	 * q + 2 positions, p - rem of q + 1 */
	for (size_t r = lo; r < td->nrun; r++) {
		const uint64_t m = td->len[r] - w + 1, q = m / p, rem = m % p;

		s += rem * pairs_of(q + 2) + (p - rem) * pairs_of(q + 1);
	}
	return s;
}

uint64_t tuple_dist_q(const struct tuple_dist *td, size_t w)
{
	uint64_t m;

	if (!td->period || td->v < w)
		return 0;
	/* the longest run's chains are the longest */
	m = td->v - w + 1;
	return m / td->period + 1 + (m % td->period != 0);
}

int tuple_dist_account(struct tuple_dist *td, const uint64_t *w, size_t n, const size_t *dist, size_t ndist,
		       uint64_t most, uint64_t deep)
{
	size_t d[TUPLE_DIST_MAX * (TUPLE_MIN_COUNT - 1)], nd = 0, scanned = 0;

	if (ndist == 1) {
		scanned = dist[0];
		if (tuple_dist_scan(td, w, n, scanned) != 0)
			return -1;
		if (tuple_dist_periodic(td, scanned)) {
			if (tuple_dist_finish(td) != 0)
				return -1;
			return tuple_dist_s(td, 64) == deep ? 0 : 1;
		}
	}
	if (most >= TUPLE_MIN_COUNT || ndist > TUPLE_DIST_MAX)
		return 1;
	for (size_t i = 0; i < ndist; i++)
		for (size_t k = 1; k < TUPLE_MIN_COUNT && k * dist[i] < n; k++)
			d[nd++] = k * dist[i];
	/* each distance once: a pair is counted by its own */
	for (size_t i = 1; i < nd; i++)
		for (size_t j = i; j > 0 && d[j - 1] > d[j]; j--) {
			const size_t t = d[j];

			d[j] = d[j - 1];
			d[j - 1] = t;
		}
	for (size_t i = 0; i < nd && td->pairs < deep; i++) {
		/* every pair the runs hold agrees on 64 bits: once they hold
		 * as many as were met, the other distances hold none */
		if ((i > 0 && d[i] == d[i - 1]) || d[i] == scanned)
			continue;
		if (tuple_dist_scan(td, w, n, d[i]) != 0)
			return -1;
	}
	if (td->pairs != deep)
		return 1;
	return tuple_dist_finish(td) == 0 ? 0 : -1;
}

size_t tuple_dist_qdeep(const struct tuple_dist *td, uint64_t qmin)
{
	size_t lo = 64, hi = td->v;   /* Q[lo] >= qmin; Q past v is below 2 */

	while (lo < hi) {
		const size_t mid = lo + (hi - lo + 1) / 2;

		if (tuple_dist_q(td, mid) >= qmin)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

void tuple_dist_free(struct tuple_dist *td)
{
	free(td->len);
	free(td->at);
	free(td->above);
	td->len = td->at = NULL;
	td->above = NULL;
	td->nrun = td->cap = 0;
	td->pairs = 0;
	td->v = 0;
	td->period = 0;
}
