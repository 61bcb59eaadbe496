/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_count.c - 90B 6.3.5/6.3.6 counts for bitstrings of up to
 * TUPLE_COUNT_MAX bits by counting their windows: no suffix order.
 *
 * Q[t] (the count of the most common t-tuple) and S[t] (the sum over
 * t-tuples of C(count, 2)) need, for t up to T (2^T >= 2n), only the counts
 * of the t-bit windows, and past T, where those windows are mostly unique,
 * the pairs of positions that share one.  The positions are scattered by
 * their first 8 bits (4 bytes each, once); each top bucket's 2^(T-8)
 * counters stay in L1/L2 (one table of 2^T took ~28 ms for 1M bits, a
 * cache miss a count).  In a top bucket, each position meets the earlier
 * ones of its T-bit window through a chain (about n / 4 pairs in all on
 * random bits): the LCP l of their 64-bit windows counts the pair into
 * S[T + 1 .. l].  Then the counts are halved level by level (prefixes 2y
 * and 2y + 1 added: the (t-1)-bit windows' counts), 2^(T+1) additions in
 * all, Q and S taken on the way; the position n - t, which has only t bits
 * left, joins at level t.  So the whole is O(n): NIST's 1M-bit
 * truerand_1bit took ~17.5 ms through the packed suffix order
 * (tuple_packed.c, 1M keys radix-sorted and walked), ~9.5 ms here.
 *
 * The counts are the walk's, integer for integer, where it applies: the
 * most common T-bit window occurs fewer than 35 times (so 6.3.5 stops
 * below T and Q beyond T is not needed), the pairs within buckets (S[T])
 * stay below TUPLE_COUNT_PAIRS a bit (repeats make them quadratic), and
 * no two positions agree on 64 bits (the LRS length v stays below 64, so
 * tuple.c needs neither the samples every 64 lengths nor the deep LCPs).
 * Otherwise it returns 0 and the packed scan answers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/lcpint.h"
#include "estimators/tuple.h"

/* pairs within the T-bit buckets per bit, at most: random bits give 1/4 to
 * 1/2 */
#define TUPLE_COUNT_PAIRS 2
/* the first radix level: positions by their first 8 bits */
#define COUNT_TOP_BITS 8
#define COUNT_NTOP ((size_t)1 << COUNT_TOP_BITS)

struct tcount {
	const uint64_t *w;
	size_t n;
	unsigned tb;            /* T */
	uint32_t q[64];         /* Q[t], t <= T */
	uint64_t s[65];         /* S[t]; s[64] = 0 */
	uint64_t h[64];         /* pairs by LCP (T..63) */
	uint32_t *sub;          /* a top bucket's T-bit window counts */
	uint32_t *head;         /* the last of its positions (index) with each window */
	uint32_t *next;         /* the one before it with the same window */
	uint64_t *key;          /* their 64-bit windows */
};

/* The t-bit window at position i (i + t <= n) */
static inline size_t window(const uint64_t *w, size_t i, unsigned t)
{
	return (size_t)(est_bits64(w, i) >> (64 - t));
}

/* Takes the counts c[0 .. m-1] of one level t into Q[t] and S[t]. */
static void level_take(struct tcount *tc, unsigned t, const uint32_t *c, size_t m)
{
	uint32_t mx = tc->q[t];
	uint64_t sum = 0;

	for (size_t y = 0; y < m; y++) {
		mx = c[y] > mx ? c[y] : mx;
		sum += (uint64_t)c[y] * (c[y] - 1) / 2;   /* 0 for 0 */
	}
	tc->q[t] = mx;
	tc->s[t] += sum;
}

/* Levels `from` - 1 down to `to` (>= 1) of the counts c[] of level `from`,
 * the windows under one prefix `top` of `pb` bits (2^(t - pb) of them at
 * level t), halved in place: the counts of prefixes 2y and 2y + 1 added,
 * and the position n - t, which has exactly t bits, joining at level t
 * when it is under the prefix.  Q and S taken as they are formed, four
 * counts a step in separate accumulators: the add chains of one
 * accumulator held the loop to a count every ~2.5 cycles, a third of the
 * counting road's time. */
static void fold(struct tcount *tc, uint32_t *c, unsigned from, unsigned to, unsigned pb, size_t top)
{
	for (unsigned t = from - 1; t >= to; t--) {
		const size_t m = (size_t)1 << (t - pb), x = window(tc->w, tc->n - t, t);
		/* pairs: c (c - 1), twice C(c, 2); 0 for 0 */
		uint64_t p0 = 0, p1 = 0, p2 = 0, p3 = 0;
		uint32_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;
		size_t y = 0;

		if (x >> (t - pb) == top)
			c[2 * (x & (m - 1))]++;   /* into the pair it is folded from */
		for (; y + 4 <= m; y += 4) {
			const uint32_t v0 = c[2 * y] + c[2 * y + 1], v1 = c[2 * y + 2] + c[2 * y + 3];
			const uint32_t v2 = c[2 * y + 4] + c[2 * y + 5], v3 = c[2 * y + 6] + c[2 * y + 7];

			c[y] = v0;
			c[y + 1] = v1;
			c[y + 2] = v2;
			c[y + 3] = v3;
			m0 = v0 > m0 ? v0 : m0;
			m1 = v1 > m1 ? v1 : m1;
			m2 = v2 > m2 ? v2 : m2;
			m3 = v3 > m3 ? v3 : m3;
			p0 += (uint64_t)v0 * (v0 - 1);
			p1 += (uint64_t)v1 * (v1 - 1);
			p2 += (uint64_t)v2 * (v2 - 1);
			p3 += (uint64_t)v3 * (v3 - 1);
		}
		for (; y < m; y++) {
			const uint32_t v = c[2 * y] + c[2 * y + 1];

			c[y] = v;
			m0 = v > m0 ? v : m0;
			p0 += (uint64_t)v * (v - 1);
		}
		m0 = m1 > m0 ? m1 : m0;
		m2 = m3 > m2 ? m3 : m2;
		m0 = m2 > m0 ? m2 : m0;
		tc->q[t] = m0 > tc->q[t] ? m0 : tc->q[t];
		tc->s[t] += (p0 + p1 + p2 + p3) / 2;
	}
}

/* One top bucket, its positions p[0 .. m-1] in increasing order: the
 * counts of its T-bit windows, the LCPs of every pair of positions that
 * share one (each position against the earlier ones of its window, found
 * through a chain: no sort), then the levels below T under its prefix.
 * Returns its count at level COUNT_TOP_BITS (tails included), or -1 to
 * decline: a window 35 times (6.3.5 goes on past T), too many pairs
 * (repeats), or a pair that agrees on 64 bits. */
static long top_bucket(struct tcount *tc, size_t top, const uint32_t *p, size_t m)
{
	const unsigned tb = tc->tb;
	const size_t nsub = (size_t)1 << (tb - COUNT_TOP_BITS), mask = nsub - 1;
	const uint64_t limit = (uint64_t)TUPLE_COUNT_PAIRS * tc->n;
	uint32_t most = 0;

	memset(tc->sub, 0, nsub * sizeof *tc->sub);
	for (size_t k = 0; k < m; k++) {
		const uint64_t key = est_bits64(tc->w, p[k]);
		const size_t x = (size_t)(key >> (64 - tb)) & mask, left = tc->n - p[k];
		uint32_t c = tc->sub[x]++, j = tc->head[x];

		tc->key[k] = key;
		tc->next[k] = j;
		tc->head[x] = (uint32_t)k;
		most = c + 1 > most ? c + 1 : most;
		tc->s[tb] += c;
		if (c == 0)
			continue;
		if (c + 1 >= TUPLE_MIN_COUNT || tc->s[tb] > limit)
			return -1;
		/* the c earlier positions of this window; p[k] is the later
		 * of each pair, its suffix the shorter */
		for (;; j = tc->next[j]) {
			uint64_t d = key ^ tc->key[j];
			size_t l = d ? (size_t)__builtin_clzll(d) : 64;

			l = l < left ? l : left;
			if (l >= 64)
				return -1;
			tc->h[l]++;
			if (--c == 0)
				break;
		}
	}
	tc->q[tb] = most > tc->q[tb] ? most : tc->q[tb];
	fold(tc, tc->sub, tb, COUNT_TOP_BITS + 1, COUNT_TOP_BITS, top);
	/* level COUNT_TOP_BITS, one count, is taken with the others' */
	return (long)(tc->sub[0] + tc->sub[1] +
		      (window(tc->w, tc->n - COUNT_TOP_BITS, COUNT_TOP_BITS) == top));
}

int tuple_count_words(const uint64_t *w, size_t n, struct lcpint *st, struct err *e)
{
	struct tcount tc;
	uint32_t *pos = NULL, top[COUNT_NTOP];
	size_t start[COUNT_NTOP], fill[COUNT_NTOP], v = 0, qdeep = 0, big = 0, cap;
	int rc = 0, roomy = 1;

	if (n < 64 || n > TUPLE_COUNT_MAX)
		return 0;
	memset(&tc, 0, sizeof tc);
	tc.w = w;
	tc.n = n;
	tc.tb = COUNT_TOP_BITS + 1;
	while (((size_t)1 << tc.tb) < 2 * n)
		tc.tb++;
	/* the positions with T bits or more, by their first 8: in one pass
	 * into room for 1.25 times a uniform share each (no top bucket of
	 * random bits comes near it: a counting pass less, ~0.7 ms of 1M
	 * bits); when one overflows (skewed bits), counted first, then placed */
	cap = n / COUNT_NTOP + n / (4 * COUNT_NTOP) + 64;
	pos = bigmem_calloc(COUNT_NTOP * cap, sizeof *pos);
	if (!pos)
		goto nomem;
	for (size_t b = 0; b < COUNT_NTOP; b++)
		start[b] = fill[b] = b * cap;
	for (size_t i = 0; i + tc.tb <= n; i++) {
		size_t b = window(w, i, COUNT_TOP_BITS);

		if (fill[b] == start[b] + cap) {
			roomy = 0;
			break;
		}
		pos[fill[b]++] = (uint32_t)i;
	}
	if (!roomy) {
		memset(top, 0, sizeof top);
		for (size_t i = 0; i + tc.tb <= n; i++)
			top[window(w, i, COUNT_TOP_BITS)]++;
		for (size_t b = 0, at = 0; b < COUNT_NTOP; b++) {
			start[b] = fill[b] = at;
			at += top[b];
		}
		for (size_t i = 0; i + tc.tb <= n; i++)
			pos[fill[window(w, i, COUNT_TOP_BITS)]++] = (uint32_t)i;
	}
	for (size_t b = 0; b < COUNT_NTOP; b++)
		big = fill[b] - start[b] > big ? fill[b] - start[b] : big;
	tc.sub = calloc((size_t)1 << (tc.tb - COUNT_TOP_BITS), sizeof *tc.sub);
	tc.head = calloc((size_t)1 << (tc.tb - COUNT_TOP_BITS), sizeof *tc.head);
	tc.next = calloc(big + 1, sizeof *tc.next);
	tc.key = calloc(big + 1, sizeof *tc.key);
	if (!tc.sub || !tc.head || !tc.next || !tc.key)
		goto nomem;
	for (size_t b = 0; b < COUNT_NTOP; b++) {
		long c = top_bucket(&tc, b, pos + start[b], fill[b] - start[b]);

		if (c < 0)
			goto done;
		top[b] = (uint32_t)c;
	}
	/* the first 8 bits and fewer, over all positions */
	level_take(&tc, COUNT_TOP_BITS, top, COUNT_NTOP);
	fold(&tc, top, COUNT_TOP_BITS, 1, 0, 0);
	/* S[t] past T: the pairs whose LCP reaches t */
	for (unsigned t = 63; t > tc.tb; t--)
		tc.s[t] = tc.s[t + 1] + tc.h[t];
	for (unsigned t = 1; t < 64; t++) {
		if (tc.s[t] > 0)
			v = t;
		if (tc.q[t] >= TUPLE_MIN_COUNT)
			qdeep = t;
	}
	if (lcpint_init(st, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0)
		goto nomem;
	/* Q past T: at most Q[T] < 35, and 6.3.5 reads Q only below u */
	lcpint_set_counts(st, tc.q, tc.s, 63);
	st->qmin = TUPLE_MIN_COUNT;
	st->qdeep = qdeep;
	st->v = v;
	rc = 1;
done:
	bigmem_free(pos);
	free(tc.sub);
	free(tc.head);
	free(tc.next);
	free(tc.key);
	return rc;
nomem:
	rc = err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu bits", n);
	goto done;
}
