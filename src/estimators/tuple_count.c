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
 * Longer bitstrings go in groups of positions that share their first gb
 * bits, one pass over the bits each (tuple_prefix_block), their windows
 * read in that pass, in order (the 8M bits of 1M bytes: ~220 -> ~80 ms;
 * 80M bits: ~2.3 s -> ~1.1 s, in a third less memory).
 *
 * Positions that agree on all 64 bits share one entry on their window's
 * chain, with their number: a block repeated ten times walks one entry a
 * position, not nine.  Such pairs (LCP 64 or more) are counted, and the
 * distances between consecutive positions of an entry kept (a few); their
 * LCPs come from comparing the bits with themselves at those distances
 * (tuple_dist.c), which must account for every such pair: with one
 * distance, its runs alone (then Q past 64 too), else the distances and
 * their multiples up to 34.
 *
 * Where a T-bit window occurs 35 times or more, 6.3.5 goes on past T:
 * Q[t] up to 63 comes from the entries under it (heavy_q).
 *
 * The counts are the walk's, integer for integer, where it applies: the
 * entries met on the chains stay below TUPLE_COUNT_PAIRS a bit, the
 * copies of each 64-bit window lie at most COUNT_DISTS distances apart,
 * and the runs at those distances hold every pair of copies: one
 * distance whose runs no chain of copies crosses (tuple_dist_periodic),
 * or several with at most 34 copies of any window.  Otherwise it returns
 * 0 and the packed scan answers (a 100,000-byte block repeated to 1M
 * bytes: 0.45 s there, 0.12 s here).  Bits that repeat one short period
 * throughout go to tuple_period.c first. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/lcpint.h"
#include "estimators/tuple.h"
#include "estimators/tuple_dist.h"
#include "estimators/tuple_prefix.h"

/* entries met on the chains per bit, at most: random bits give 1/4 to 1/2 */
#define TUPLE_COUNT_PAIRS 2
/* Distances between consecutive copies of a 64-bit window, at most: a
 * block repeated gives one (tuple_dist_account). */
#define COUNT_DISTS TUPLE_DIST_MAX
/* the radix level: positions by 8 bits after their group's */
#define COUNT_TOP_BITS 8
/* Positions a group at most: one pass over the bits each, and 15 bytes a
 * position of room (12 used) for the largest group.  COUNT_GROUP_MIN, or
 * n / COUNT_GROUP_PASSES when that is more: 80M bits (assess of 10M
 * bytes) in 32 groups took 1.07 s, in 64 (2^21 each) 1.30 s, the prefix
 * test and the loop over the words once a pass costing more than the
 * smaller arrays saved; 8M bits take the same time in 2 or 4 groups, and
 * 4 hold 30 MB less. */
#define COUNT_GROUP_MIN ((size_t)1 << 21)
#define COUNT_GROUP_PASSES 32
#define COUNT_NTOP ((size_t)1 << COUNT_TOP_BITS)

/* A chain's entry, its fields together: the walk reads all three, and as
 * three arrays they cost the counting road on random bits ~12%. */
struct tentry {
	uint32_t next;   /* the entry before it with the same T-bit window */
	uint32_t cnt;    /* its positions */
	uint32_t last;   /* its latest position */
};

struct tcount {
	const uint64_t *w;
	size_t n;
	unsigned tb;            /* T */
	unsigned gb, pb;        /* group bits; group and top bucket bits */
	uint32_t q[64];         /* Q[t], t <= T */
	uint64_t s[65];         /* S[t]; s[64]: the pairs that agree on 64 bits */
	uint64_t h[64];         /* pairs by LCP (T..63) */
	uint64_t deep;          /* pairs that agree on 64 bits */
	uint32_t maxcnt;        /* the most copies of a 64-bit window */
	uint64_t visits;        /* entries met on the chains */
	size_t dist[COUNT_DISTS];   /* between consecutive copies of a 64-bit window */
	size_t ndist, dhit;
	uint32_t *sub;          /* a top bucket's T-bit window counts */
	/* A top bucket's entries, each named by the index of its first
	 * position: the positions with one 64-bit window (or one position with
	 * fewer than 64 bits left) */
	uint32_t *head;         /* the newest entry with each T-bit window */
	struct tentry *ent_of;  /* by the index of the entry's first position */
	size_t chain_cap;       /* room in ent_of */
	uint32_t *heavy;        /* a top bucket's T-bit windows of 35 positions */
	size_t nheavy, heavy_cap;
	uint64_t (*ent)[3];     /* heavy_q's entries: 64 bits, number, bits left */
	size_t ent_cap;
	uint32_t *gcount;       /* positions by their first pb bits, once counted */
};

/* The t-bit window at position i (i + t <= n) */
static inline size_t window(const uint64_t *w, size_t i, unsigned t)
{
	return (size_t)(est_bits64(w, i) >> (64 - t));
}

/* The 64-bit window of the k-th position p[k] of a top bucket: kept in
 * keys[k] as it was placed, or, keys NULL (one group: the bits fit in L2),
 * read again from the bits, which saves 8 bytes a position of memory to
 * fault in (NIST's 1M-bit files: 8 MB). */
static inline uint64_t key_of(const struct tcount *tc, const uint64_t *keys, const uint32_t *p, size_t k)
{
	return keys ? keys[k] : est_bits64(tc->w, p[k]);
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

/* Keeps d, the distance between two consecutive copies of a 64-bit
 * window: 0, or -1 when there are more than COUNT_DISTS. */
static int dist_add(struct tcount *tc, size_t d)
{
	if (tc->ndist && tc->dist[tc->dhit] == d)
		return 0;
	for (size_t i = 0; i < tc->ndist; i++) {
		if (tc->dist[i] == d) {
			tc->dhit = i;
			return 0;
		}
	}
	if (tc->ndist == COUNT_DISTS)
		return -1;
	tc->dhit = tc->ndist;
	tc->dist[tc->ndist++] = d;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const uint64_t x = ((const uint64_t *)a)[0], y = ((const uint64_t *)b)[0];

	return (x > y) - (x < y);
}

/* Lists the T-bit window x, now 35 positions strong, for heavy_q: 0, or
 * -1 out of memory. */
static int heavy_add(struct tcount *tc, size_t x)
{
	if (tc->nheavy == tc->heavy_cap) {
		size_t nc = tc->heavy_cap ? 2 * tc->heavy_cap : 64;
		uint32_t *a = realloc(tc->heavy, nc * sizeof *a);

		if (!a)
			return -1;
		tc->heavy = a;
		tc->heavy_cap = nc;
	}
	tc->heavy[tc->nheavy++] = (uint32_t)x;
	return 0;
}

/* Q[t] for T < t < 64 where it reaches 35: only under a T-bit window of 35
 * positions or more (those of this top bucket listed in tc->heavy), from
 * its entries (their 64 bits and numbers; one with fewer than t bits left
 * has no t-bit window).  6.3.5 reads Q only up to the last t where it
 * reaches 35, so the smaller windows may be left out.  Returns 0, or -1
 * out of memory. */
static int heavy_q(struct tcount *tc, const uint64_t *keys, const uint32_t *p)
{
	for (size_t h = 0; h < tc->nheavy; h++) {
		const size_t x = tc->heavy[h];
		uint32_t c = tc->sub[x];
		size_t ne = 0;

		if (c > tc->ent_cap) {
			uint64_t (*a)[3] = realloc(tc->ent, c * sizeof *a);

			if (!a)
				return -1;
			tc->ent = a;
			tc->ent_cap = c;
		}
		for (uint32_t j = tc->head[x]; c > 0; j = tc->ent_of[j].next) {
			tc->ent[ne][0] = key_of(tc, keys, p, j);
			tc->ent[ne][1] = tc->ent_of[j].cnt;
			tc->ent[ne][2] = tc->n - p[j];
			c -= tc->ent_of[j].cnt;
			ne++;
		}
		if (ne > 1)
			qsort(tc->ent, ne, sizeof *tc->ent, cmp_entry);
		for (unsigned t = tc->tb + 1; t < 64; t++) {
			uint32_t run = 0;

			for (size_t e = 0; e < ne; e++) {
				if (e > 0 && (tc->ent[e][0] ^ tc->ent[e - 1][0]) >> (64 - t))
					run = 0;
				run += tc->ent[e][2] >= t ? (uint32_t)tc->ent[e][1] : 0;
				tc->q[t] = run > tc->q[t] ? run : tc->q[t];
			}
		}
	}
	tc->nheavy = 0;
	return 0;
}

/* One top bucket, the positions p[0 .. m-1] (in increasing order) whose
 * first pb bits are `top`: the counts of its T-bit windows, the LCPs of
 * every pair of positions that share one (each position against the
 * entries of its window, found through a chain: no sort; the pairs that
 * agree on 64 bits counted in tc->deep), then the levels below T under its
 * prefix.  Returns its count at level pb (tails included), -1 to decline
 * (a 64-bit window 35 times: 6.3.5 goes on past 63; too many entries met;
 * too many distances between copies), or -2 out of memory. */
static long top_bucket(struct tcount *tc, size_t top, const uint64_t *keys, const uint32_t *p, size_t m)
{
	const unsigned tb = tc->tb, pb = tc->pb;
	const size_t nsub = (size_t)1 << (tb - pb), mask = nsub - 1;
	const uint64_t limit = (uint64_t)TUPLE_COUNT_PAIRS * tc->n;
	uint32_t most = 0;

	memset(tc->sub, 0, nsub * sizeof *tc->sub);
	for (size_t k = 0; k < m; k++) {
		const uint64_t key = key_of(tc, keys, p, k);
		const size_t x = (size_t)(key >> (64 - tb)) & mask, left = tc->n - p[k];
		uint32_t c = tc->sub[x]++, j = tc->head[x];
		int joined = 0;

		most = c + 1 > most ? c + 1 : most;
		tc->s[tb] += c;
		if (c + 1 == TUPLE_MIN_COUNT && heavy_add(tc, x) != 0)
			return -2;   /* a heavy window: for heavy_q */
		/* the c earlier positions of this window, entry by entry; p[k]
		 * is the later of each pair, its suffix the shorter (and once
		 * fewer than 64 bits are left, so are all later ones': no entry
		 * after that takes a second position) */
		while (c > 0) {
			const uint64_t d = key ^ key_of(tc, keys, p, j);
			struct tentry *en = &tc->ent_of[j];
			const uint32_t cj = en->cnt;

			tc->visits++;
			if (d == 0 && left >= 64) {
				tc->deep += cj;
				if (dist_add(tc, p[k] - en->last) != 0)
					return -1;
				tc->maxcnt = cj + 1 > tc->maxcnt ? cj + 1 : tc->maxcnt;
				en->cnt = cj + 1;
				en->last = p[k];
				joined = 1;
			} else {
				size_t l = d ? (size_t)__builtin_clzll(d) : 64;

				tc->h[l < left ? l : left] += cj;
			}
			c -= cj;
			j = en->next;
		}
		if (tc->visits > limit)
			return -1;
		if (!joined) {
			tc->ent_of[k] = (struct tentry){ tc->head[x], 1, p[k] };
			tc->head[x] = (uint32_t)k;
		}
	}
	tc->q[tb] = most > tc->q[tb] ? most : tc->q[tb];
	if (tc->nheavy > 0 && heavy_q(tc, keys, p) != 0)
		return -2;
	fold(tc, tc->sub, tb, pb + 1, pb, top);
	/* level pb, one count, is taken with the others' */
	return (long)(tc->sub[0] + tc->sub[1] + (window(tc->w, tc->n - pb, pb) == top));
}

/* Places the positions of group g (first gb bits g, with T bits or more)
 * in increasing order, each with its 64-bit window, into its top bucket
 * by its next COUNT_TOP_BITS bits, at fill[b]++ up to end[b].  The windows
 * are read here, in order: read later, bucket by bucket, they missed the
 * cache on every position once the bits outgrew L2 (80M bits: 43 ns a
 * position, against 12 at 8M).  Returns 0, or -1 when a bucket reaches
 * its end. */
static int group_pass(const struct tcount *tc, size_t g, uint64_t *restrict keys, uint32_t *restrict pos,
		      size_t *restrict fill, const size_t *restrict end)
{
	/* restrict and locals: the stores to keys and pos need not reload
	 * fill or tc's fields */
	const uint64_t *const w = tc->w;
	const unsigned pb = tc->pb, gb = tc->gb;
	const size_t full = tc->n - tc->tb + 1;   /* positions with T bits */
	uint64_t mk[TUPLE_PREFIX_WORDS];

	if (gb == 0) {
		/* one group: every position, no prefix test (NIST's 1M-bit
		 * files: the mask's bit by bit walk was a fifth of the road) */
		for (size_t i = 0; i < full; i++) {
			const uint64_t key = est_bits64(w, i);
			const size_t b = (size_t)(key >> (64 - pb)) & (COUNT_NTOP - 1);

			if (fill[b] == end[b])
				return -1;
			if (keys)
				keys[fill[b]] = key;
			pos[fill[b]++] = (uint32_t)i;
		}
		return 0;
	}
	for (size_t q0 = 0; q0 * 64 < full; q0 += TUPLE_PREFIX_WORDS) {
		tuple_prefix_block(w, full, q0, (uint32_t)g, gb, mk);
		for (size_t k = 0; k < TUPLE_PREFIX_WORDS; k++) {
			/* MSB first: in increasing order */
			for (uint64_t m = mk[k]; m; m &= ~(((uint64_t)1 << 63) >> __builtin_clzll(m))) {
				const size_t i = (q0 + k) * 64 + (size_t)__builtin_clzll(m);
				const uint64_t key = est_bits64(w, i);
				const size_t b = (size_t)(key >> (64 - pb)) & (COUNT_NTOP - 1);

				if (fill[b] == end[b])
					return -1;
				keys[fill[b]] = key;
				pos[fill[b]++] = (uint32_t)i;
			}
		}
	}
	return 0;
}

/* Places the positions of group g into the top buckets, start[b] .. fill[b]
 * (keys and pos hold COUNT_NTOP * cap): cap each, which no top bucket of
 * random bits comes near (one pass, no counting first); once one has
 * overflowed (skewed bits, or copies of a block, which multiply the
 * buckets' spread), every group's buckets are counted in one pass
 * (tc->gcount) and laid out as they come.  Returns the largest bucket's
 * size, -1 when the group outgrows the room, or -2 out of memory. */
static long group_place(struct tcount *tc, size_t g, uint64_t *keys, uint32_t *pos, size_t cap,
			size_t *start, size_t *fill)
{
	size_t end[COUNT_NTOP], at = 0, big = 0;

	for (size_t b = 0; b < COUNT_NTOP; b++) {
		start[b] = fill[b] = b * cap;
		end[b] = (b + 1) * cap;
	}
	if (!tc->gcount && group_pass(tc, g, keys, pos, fill, end) != 0) {
		tc->gcount = calloc((size_t)1 << tc->pb, sizeof *tc->gcount);
		if (!tc->gcount)
			return -2;
		for (size_t i = 0; i + tc->tb <= tc->n; i++)
			tc->gcount[window(tc->w, i, tc->pb)]++;
	}
	if (tc->gcount) {
		for (size_t b = 0; b < COUNT_NTOP; b++) {
			start[b] = fill[b] = at;
			at += tc->gcount[g << COUNT_TOP_BITS | b];
			end[b] = at;
		}
		if (at > COUNT_NTOP * cap)
			return -1;
		group_pass(tc, g, keys, pos, fill, end);
	}
	for (size_t b = 0; b < COUNT_NTOP; b++)
		big = fill[b] - start[b] > big ? fill[b] - start[b] : big;
	return (long)big;
}

/* The entries' arrays for top buckets of up to m positions: 0, or -1 out
 * of memory. */
static int chains_alloc(struct tcount *tc, size_t m)
{
	free(tc->ent_of);
	tc->ent_of = calloc(m, sizeof *tc->ent_of);
	tc->chain_cap = m;
	return tc->ent_of ? 0 : -1;
}

int tuple_counts_set(struct lcpint *st, const uint32_t *q, const uint64_t *s, const struct tuple_dist *td)
{
	size_t v = 0, qdeep = 0;

	for (unsigned t = 1; t < 64; t++) {
		if (s[t] > 0)
			v = t;
		if (q[t] >= TUPLE_MIN_COUNT)
			qdeep = t;
	}
	if (td) {
		v = td->v;   /* the longest run of agreement */
		if (tuple_dist_q(td, 64) >= TUPLE_MIN_COUNT)
			qdeep = tuple_dist_qdeep(td, TUPLE_MIN_COUNT);
	}
	if (lcpint_init(st, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0)
		return -1;
	lcpint_set_counts(st, q, s, 63);
	st->qmin = TUPLE_MIN_COUNT;
	st->qdeep = qdeep;
	st->v = v;
	return 0;
}

int tuple_count_words(const uint64_t *w, size_t n, struct lcpint *st, struct tuple_dist *td,
		      struct err *e)
{
	struct tcount tc;
	uint32_t *pos = NULL, *top = NULL;
	uint64_t *keys = NULL;
	size_t fill[COUNT_NTOP], cap, ngroups;
	int rc = 0;

	if (n < 64 || n > TUPLE_COUNT_MAX)
		return 0;
	rc = tuple_period_words(w, n, st, td, e);
	if (rc != 0)
		return rc;
	memset(&tc, 0, sizeof tc);
	tc.w = w;
	tc.n = n;
	/* groups of positions with their first gb bits in common, one pass
	 * over the bits each */
	while ((n >> tc.gb) > COUNT_GROUP_MIN && (n >> tc.gb) > n / COUNT_GROUP_PASSES)
		tc.gb++;
	tc.pb = tc.gb + COUNT_TOP_BITS;
	tc.tb = tc.pb + 1;
	while (((size_t)1 << tc.tb) < 2 * n)
		tc.tb++;
	ngroups = (size_t)1 << tc.gb;
	/* room for 1.25 times a uniform share in each top bucket (see
	 * group_place) */
	cap = (n >> tc.gb) / COUNT_NTOP + (n >> tc.gb) / (4 * COUNT_NTOP) + 64;
	pos = bigmem_calloc(COUNT_NTOP * cap, sizeof *pos);
	if (ngroups > 1)
		keys = bigmem_calloc(COUNT_NTOP * cap, sizeof *keys);   /* else key_of reads the bits */
	top = calloc(ngroups * COUNT_NTOP, sizeof *top);
	tc.sub = calloc((size_t)1 << (tc.tb - tc.pb), sizeof *tc.sub);
	tc.head = calloc((size_t)1 << (tc.tb - tc.pb), sizeof *tc.head);
	if (chains_alloc(&tc, cap > n ? n : cap) != 0 || !pos || (ngroups > 1 && !keys) || !top || !tc.sub || !tc.head)
		goto nomem;
	for (size_t g = 0; g < ngroups; g++) {
		size_t start[COUNT_NTOP];
		const long big = group_place(&tc, g, keys, pos, cap, start, fill);

		if (big == -2)
			goto nomem;
		if (big < 0)
			goto done;
		/* the chains' arrays grow to the largest top bucket */
		if ((size_t)big > tc.chain_cap && chains_alloc(&tc, (size_t)big) != 0)
			goto nomem;
		for (size_t b = 0; b < COUNT_NTOP; b++) {
			long c = top_bucket(&tc, g << COUNT_TOP_BITS | b, keys ? keys + start[b] : NULL, pos + start[b],
					    fill[b] - start[b]);

			if (c == -2)
				goto nomem;
			if (c < 0)
				goto done;
			top[g << COUNT_TOP_BITS | b] = (uint32_t)c;
		}
	}
	/* the first pb bits and fewer, over all positions */
	level_take(&tc, tc.pb, top, ngroups * COUNT_NTOP);
	fold(&tc, top, tc.pb, 1, 0, 0);
	/* the pairs that agree on 64 bits, by their LCPs */
	if (tc.deep > 0) {
		int r = tuple_dist_account(td, w, n, tc.dist, tc.ndist, tc.maxcnt, tc.deep);

		if (r < 0)
			goto nomem;
		if (r > 0)
			goto done;
	}
	/* S[t] past T: the pairs whose LCP reaches t */
	tc.s[64] = tc.deep;
	for (unsigned t = 63; t > tc.tb; t--)
		tc.s[t] = tc.s[t + 1] + tc.h[t];
	if (tuple_counts_set(st, tc.q, tc.s, tc.deep > 0 ? td : NULL) != 0)
		goto nomem;
	rc = 1;
done:
	bigmem_free(pos);
	bigmem_free(keys);
	free(top);
	free(tc.sub);
	free(tc.head);
	free(tc.ent_of);
	free(tc.heavy);
	free(tc.ent);
	free(tc.gcount);
	if (rc != 1)
		tuple_dist_free(td);
	return rc;
nomem:
	rc = tuple_nomem(e, n);
	goto done;
}
