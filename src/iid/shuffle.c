/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shuffle.c - the random permutations of 90B 5.1.
 *
 * NIST's tool draws from xoshiro256** seeded from /dev/urandom and shuffles
 * with Fisher-Yates using Lemire's unbiased range reduction.  We keep the
 * generator and the shuffle but seed every permutation from (seed, index)
 * through splitmix64, so that results are reproducible and independent of how
 * permutations are spread over threads.  (xoshiro256** and splitmix64 are
 * Blackman and Vigna's public-domain generators.) */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "bitops.h"
#include "iid/iid.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void iid_rng_seed(struct iid_rng *g, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed;
	uint64_t y;
	/* mix the stream number in through a second splitmix64 step so that
	 * (seed, i) and (seed + 1, i - 1) do not share a state */
	y = splitmix64(&x) ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix64(&y);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t iid_rng_next(struct iid_rng *g)
{
	uint64_t *s = g->s;
	const uint64_t r = rotl(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* Uniform in [0, bound) for bound <= 2^32, from 32 random bits (Lemire 2018:
 * multiply-shift, rejecting the few low products that would bias it). */
static inline uint32_t below32(uint32_t x, uint32_t bound, struct iid_rng *g, uint64_t *pool,
			       int *npool)
{
	uint64_t m = (uint64_t)x * bound;
	uint32_t l = (uint32_t)m;
	if (l < bound) {
		uint32_t t = (uint32_t)(-bound) % bound;
		while (l < t) {
			if (*npool == 0) {
				*pool = iid_rng_next(g);
				*npool = 2;
			}
			x = (uint32_t)(*pool >> (32 * --*npool));
			m = (uint64_t)x * bound;
			l = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

void iid_shuffle(uint8_t *a, size_t n, struct iid_rng *g)
{
	uint64_t pool = 0;
	int npool = 0;
	size_t i = n;

	/* indices beyond 2^32 (never for 90B data sizes) use a 64-bit draw */
	for (; i > ((size_t)1 << 32); i--) {
		size_t j = (size_t)(((unsigned __int128)iid_rng_next(g) * i) >> 64);
		uint8_t t = a[i - 1]; a[i - 1] = a[j]; a[j] = t;
	}
	/* one 64-bit output gives two 32-bit draws */
	for (; i > 1; i--) {
		uint32_t x, j;
		uint8_t t;
		if (npool == 0) {
			pool = iid_rng_next(g);
			npool = 2;
		}
		x = (uint32_t)(pool >> (32 * --npool));
		j = below32(x, (uint32_t)i, g, &pool, &npool);
		t = a[i - 1]; a[i - 1] = a[j]; a[j] = t;
	}
}

/* Uniform in [0, bound), any bound >= 1 */
static inline size_t below(size_t bound, struct iid_rng *g, uint64_t *pool, int *npool)
{
	if (bound <= UINT32_MAX) {
		uint32_t x;
		if (*npool == 0) {
			*pool = iid_rng_next(g);
			*npool = 2;
		}
		x = (uint32_t)(*pool >> (32 * --*npool));
		return below32(x, (uint32_t)bound, g, pool, npool);
	}
	for (;;) {
		/* Lemire's method on 64 bits */
		unsigned __int128 m = (unsigned __int128)iid_rng_next(g) * bound;
		uint64_t l = (uint64_t)m;
		if (l >= bound || l >= (uint64_t)(-(uint64_t)bound) % bound)
			return (size_t)(m >> 64);
	}
}

/* A uniformly random arrangement of `ones` ones and n - ones zeros, packed:
 * sample i is bit i % 64 of w[i / 64] (the bits past n are zero).
 *
 * Fisher-Yates would spend one ranged draw and one random memory access per
 * sample.  Instead: (1) draw every bit independently with probability
 * p' = q / 2^m close to ones / n, 64 at a time, by combining m' <= m random
 * words with AND (next binary digit of p' 0) or OR (digit 1) from the last
 * digit up (x = 0; for each digit d from the least significant: x = d ? x | r
 * : x & r gives P(bit) = 0.d1 d2 ... dm); (2) while there are too many ones,
 * clear a uniformly random position if it holds a one (too few: set one
 * that holds a zero).  Step 1 is exchangeable, so given its count c the set
 * of ones is a uniform c-subset; step 2 keeps or removes uniformly chosen
 * members, so the final set is a uniform `ones`-subset: exactly the
 * distribution of a shuffle of the samples, for any p'.  p' only sets the
 * cost: each binary digit of p' costs one random word per 64 samples, and
 * each sample step 2 fixes costs about 1/h draws at random positions (h: the
 * share of positions holding the value it removes), so p' is the candidate
 * q / 2^m (m < 32, q rounded either way) of least expected cost.  For data
 * near 1/2 that is one random word per 64 samples and a few hundred or
 * thousand repairs. */
void iid_arrange_bits(uint64_t *w, size_t n, size_t ones, struct iid_rng *g)
{
	size_t nw = (n + 63) / 64, c = 0;
	double p = (double)ones / (double)n, best = HUGE_VAL;
	uint64_t q = 0, pool = 0;
	unsigned m = 0, tz;
	int npool = 0;

	for (unsigned mm = 0; mm < 32; mm++) {
		double scaled = ldexp(p, (int)mm);
		for (int up = 0; up < 2; up++) {
			uint64_t qq = (uint64_t)(up ? ceil(scaled) : floor(scaled));
			double pp = ldexp((double)qq, -(int)mm);
			/* expected repairs: the bias plus the spread of step 1 */
			double fix = fabs(pp * (double)n - (double)ones) +
				     sqrt((double)n * pp * (1.0 - pp));
			/* adding ones hits a zero with probability 1 - p,
			 * removing hits a one with probability p */
			double h = pp * (double)n < (double)ones ? 1.0 - p : p;
			unsigned digits = qq == 0 || qq >> mm ? 0 : mm - (unsigned)__builtin_ctzll(qq);
			double cost = (double)nw * digits + 3.0 * fix / (h > 1e-9 ? h : 1e-9);
			if (cost < best) {
				best = cost;
				q = qq;
				m = mm;
			}
		}
	}
	if (q == 0 || q >> m) {
		uint64_t fill = q == 0 ? 0 : ~0ULL;
		for (size_t i = 0; i < nw; i++)
			w[i] = fill;
	} else {
		tz = (unsigned)__builtin_ctzll(q);
		for (size_t i = 0; i < nw; i++) {
			uint64_t x = 0;
			for (unsigned j = tz; j < m; j++) {
				uint64_t r = iid_rng_next(g);
				x = (q >> j & 1) ? x | r : x & r;
			}
			w[i] = x;
		}
	}
	if (n % 64)
		w[nw - 1] &= (1ULL << (n % 64)) - 1;
	for (size_t i = 0; i < nw; i++)
		c += bitops_popcount64(w[i]);
	while (c > ones) {
		size_t u = below(n, g, &pool, &npool);
		uint64_t bit = 1ULL << (u % 64);
		if (w[u / 64] & bit) {
			w[u / 64] &= ~bit;
			c--;
		}
	}
	while (c < ones) {
		size_t u = below(n, g, &pool, &npool);
		uint64_t bit = 1ULL << (u % 64);
		if (!(w[u / 64] & bit)) {
			w[u / 64] |= bit;
			c++;
		}
	}
}

/* A uniformly random arrangement of the multiset with count[v] samples of
 * value v (n in all) into a[0..n-1], for iid_arrange_bytes.
 *
 * The same idea as iid_arrange_bits, for up to 256 values: (1) draw every
 * sample independently from a proposal q_v = t[v] / 2^16 close to count[v] /
 * n (2 bytes of randomness index a 65536-entry table holding t[v] copies of
 * v; uniform 8-bit data uses the random bytes themselves); (2) for every
 * value drawn c_v > count[v] times, pick c_v - count[v] of its positions
 * uniformly (random positions, kept when they hold a value still in
 * surplus and are not yet picked); (3) fill the picked positions with the
 * missing values in uniformly random order.  The law of steps 1-3 is
 * unchanged by any permutation of the positions, and a law on the
 * arrangements of one multiset with that symmetry is the uniform one: the
 * same law as a Fisher-Yates shuffle, for any proposal.  The proposal only
 * sets the cost, O(sqrt(n)) repairs when it is close. */
/* samples from which a uniform 8-bit proposal is counted by pairs */
#define ARR_PAIRS_MIN ((size_t)1 << 18)
/* and at most this many between folds of the pair table (8-bit counters) */
#define ARR_PAIRS_CHUNK ((size_t)1 << 24)

struct iid_arrange {
	size_t n;
	size_t count[256];
	int direct;                 /* b > 0: the proposal is uniform over 0 .. 2^b - 1 */
	uint8_t table[65536];
	uint8_t *pairs;             /* uniform 8-bit proposal, long data: counts of
				       the 65536 pairs of values, modulo 256 (zero
				       between uses) */
	uint64_t *picked;           /* bitmap of positions picked in step 2 */
	size_t *hole;               /* their positions */
	uint8_t *fill;              /* the missing values */
};

struct iid_arrange *iid_arrange_new(const size_t count[256], size_t n)
{
	struct iid_arrange *r = calloc(1, sizeof *r);
	size_t t[256], sum = 0;
	if (!r)
		return NULL;
	r->n = n;
	memcpy(r->count, count, sizeof r->count);
	r->picked = bigmem_calloc((n + 63) / 64, sizeof *r->picked);   /* (all touched) */
	r->hole = malloc(n * sizeof *r->hole);
	r->fill = malloc(n);
	if (!r->picked || !r->hole || !r->fill) {
		iid_arrange_free(r);
		return NULL;
	}
	/* t[v] = count[v] * 2^16 / n rounded, then fixed up to sum to 2^16.
	 * Values rarer than 1/4096 are never proposed (they are all filled in
	 * step 3): finding a surplus of a rare value by random positions would
	 * take about n / count[v] tries each. */
	for (int v = 0; v < 256; v++) {
		t[v] = count[v] < n / 4096 + 1 ? 0
					       : (size_t)floor((double)count[v] * 65536.0 / (double)n + 0.5);
		sum += t[v];
	}
	while (sum != 65536) {
		/* adjust the largest entry: its relative change is smallest */
		int big = 0;
		for (int v = 1; v < 256; v++)
			if (t[v] > t[big])
				big = v;
		if (sum > 65536) {
			t[big]--;
			sum--;
		} else {
			t[big]++;
			sum++;
		}
	}
	for (int v = 0, k = 0; v < 256; v++)
		for (size_t j = 0; j < t[v]; j++)
			r->table[k++] = (uint8_t)v;
	/* values 0 .. 2^b - 1 about equally often: propose them uniformly, b
	 * random bits a sample, when that costs at most a few times the repairs
	 * of the exact proposal (sum |count - n / 2^b| <= 32 sqrt(n), where a
	 * uniform sample has about 0.8 sqrt(n 2^b)) */
	{
		unsigned b = 0;
		double dev = 0.0;
		for (int v = 0; v < 256; v++)
			if (count[v])
				while (v >> b)
					b++;
		b = b ? b : 1;
		for (int v = 0; v < (1 << b); v++)
			dev += fabs((double)count[v] - ldexp((double)n, -(int)b));
		if (dev <= 32.0 * sqrt((double)n))
			r->direct = (int)b;
	}
	/* the pair table's clearing and folding cost about what counting
	 * ARR_PAIRS_MIN / 4 values a byte at a time does */
	if (r->direct == 8 && n >= ARR_PAIRS_MIN) {
		r->pairs = calloc(65536, 1);
		if (!r->pairs) {
			iid_arrange_free(r);
			return NULL;
		}
	}
	return r;
}

void iid_arrange_free(struct iid_arrange *r)
{
	if (!r)
		return;
	free(r->pairs);
	bigmem_free(r->picked);
	free(r->hole);
	free(r->fill);
	free(r);
}

/* set by tests: a long uniform proposal's pair counts are discarded, as
 * when a counter wraps (iid_arrange_bytes); only while no arrangement runs */
static int arrange_recount;

void iid_arrange_recount(int on)
{
	arrange_recount = on;
}

/* Step 2's try at position u: kept (picked, its value's need counted
 * down, recorded as the next hole) when a[u]'s value is still in surplus
 * and u is not yet picked.  Without a branch on whether it is kept: about
 * one try in seven is (8-bit data), unpredictably, and a mispredicted try
 * waited for its a[u] (a random read of the whole array), so the tries ran
 * one after another; with masks the reads of successive tries overlap.
 * Returns the number of holes. */
static inline size_t arrange_try(struct iid_arrange *r, const uint8_t *a, size_t need[256],
				 size_t u, size_t nholes)
{
	uint8_t v = a[u];
	uint64_t bit = 1ULL << (u % 64), word = r->picked[u / 64];
	size_t keep = (size_t)(need[v] != 0) & (size_t)((word & bit) == 0);
	r->picked[u / 64] = word | (bit & -(uint64_t)keep);
	need[v] -= keep;
	r->hole[nholes] = u;
	return nholes + keep;
}

void iid_arrange_bytes(struct iid_arrange *r, uint8_t *a, struct iid_rng *g)
{
	size_t n = r->n, c[256], need[256], nholes = 0, nfill = 0, i;
	uint32_t h[4][256];
	size_t surplus = 0;
	uint64_t pool = 0;
	int npool = 0;
	/* the generator's state in a local copy: stores to a[] could otherwise
	 * alias it, a load and a store of the state per draw */
	struct iid_rng s = *g;

	memset(h, 0, sizeof h);
	/* 1, counting the values as they are drawn (in four tables: fewer
	 * stalls on repeated values) */
	{
#define ARR_COUNT8(x) do { \
		h[0][(x) & 255]++; h[1][(x) >> 8 & 255]++; \
		h[2][(x) >> 16 & 255]++; h[3][(x) >> 24 & 255]++; \
		h[0][(x) >> 32 & 255]++; h[1][(x) >> 40 & 255]++; \
		h[2][(x) >> 48 & 255]++; h[3][(x) >> 56]++; \
	} while (0)
		if (r->direct == 8 && r->pairs) {
			/* long data: the values counted two at a time, as pairs
			 * of neighbours, then the pair table folded into the
			 * counts of each value (first or second of its pair) and
			 * cleared for the next arrangement.  The loop was bound
			 * by its instructions (the generator's and, per value, a
			 * shift, a mask and an increment); a pair takes one
			 * increment for two values: 587k -> 493k TSC cycles a
			 * shuffle of 10^6 samples.  Counters of a byte: the
			 * table (64 KB) stays in L2 beside the samples, where
			 * 32-bit ones (256 KB) pushed them out: a shuffle of
			 * 10^6 samples ~520 -> ~480 us.  A counter wraps at 256;
			 * a pair averages 7.6 counts in 10^6 samples, and
			 * ARR_PAIRS_CHUNK samples at most are counted between
			 * folds (128 on average), so a wrap is a freak; it shows
			 * as a chunk's counts short of its pairs by a multiple
			 * of 256, and that chunk's values are then counted one
			 * at a time.  The same counts either way, so the same
			 * arrangement (tests/test_iid pins one). */
			uint8_t *pairs = r->pairs;   /* (not reloaded through r) */
			i = 0;
			while (i + 8 <= n) {
				const size_t c0 = i;
				const size_t cend = n - i > ARR_PAIRS_CHUNK ? i + ARR_PAIRS_CHUNK : n;
				uint32_t lo[256], hi[256], total = 0;
				for (; i + 8 <= cend; i += 8) {
					uint64_t x = iid_rng_next(&s);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
					x = __builtin_bswap64(x);   /* (as below) */
#endif
					memcpy(a + i, &x, 8);
					pairs[x & 0xffff]++;
					pairs[x >> 16 & 0xffff]++;
					pairs[x >> 32 & 0xffff]++;
					pairs[x >> 48]++;
				}
				memset(lo, 0, sizeof lo);
				for (int b = 0; b < 256; b++) {
					uint8_t *row = pairs + 256 * b;
					uint32_t sum = 0;
					for (int v = 0; v < 256; v++) {
						lo[v] += row[v];
						sum += row[v];
					}
					hi[b] = sum;
					total += sum;
					memset(row, 0, 256);
				}
				if (__builtin_expect(total == (i - c0) / 2 && !arrange_recount, 1)) {
					for (int v = 0; v < 256; v++)
						h[0][v] += lo[v] + hi[v];
				} else {
					for (size_t j = c0; j < i; j++)
						h[j & 3][a[j]]++;
				}
			}
		} else if (r->direct == 8) {
			for (i = 0; i + 8 <= n; i += 8) {
				uint64_t x = iid_rng_next(&s);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
				/* the first value from the low bits on any machine,
				 * so that a seed gives the same arrangement */
				x = __builtin_bswap64(x);
#endif
				memcpy(a + i, &x, 8);
				ARR_COUNT8(x);
			}
		} else if (r->direct) {
			unsigned b = (unsigned)r->direct, per = 64 / b;
			uint64_t mask = (1ULL << b) - 1;
			for (i = 0; i + per <= n; i += per) {
				uint64_t x = iid_rng_next(&s);
				for (unsigned k = 0; k < per; k++) {
					uint8_t v = (uint8_t)(x >> (b * k) & mask);
					a[i + k] = v;
					h[k & 3][v]++;
				}
			}
			for (; i < n; i++) {
				a[i] = (uint8_t)(iid_rng_next(&s) & mask);
				h[0][a[i]]++;
			}
		} else {
			/* four values a draw, the first from its low bits */
			for (i = 0; i + 4 <= n; i += 4) {
				uint64_t x = iid_rng_next(&s);
				for (int k = 0; k < 4; k++) {
					uint8_t v = r->table[(x >> (16 * k)) & 0xffff];
					a[i + k] = v;
					h[k][v]++;
				}
			}
		}
#undef ARR_COUNT8
		for (; i < n; i++) {
			a[i] = r->table[iid_rng_next(&s) & 0xffff];
			h[0][a[i]]++;
		}
	}
	/* 2 */
	for (int v = 0; v < 256; v++) {
		c[v] = (size_t)h[0][v] + h[1][v] + h[2][v] + h[3][v];
		need[v] = c[v] > r->count[v] ? c[v] - r->count[v] : 0;
		surplus += need[v];
		for (size_t k = c[v]; k < r->count[v]; k++)
			r->fill[nfill++] = (uint8_t)v;
	}
	/* The tries: random positions, each kept when it holds a value still
	 * in surplus and is not yet picked (arrange_try).  Two tries a random
	 * word, its high half first, as below() draws them; a pair whose
	 * multiply-shift would be rejected (probability about 2n / 2^32), and
	 * a pool left half used, go through below() itself, so the draws, and
	 * with them the arrangement, are those of a try at a time. */
	if (n <= UINT32_MAX && nholes < surplus) {
		const uint64_t n32 = (uint32_t)n;
		/* below32's rejection threshold, 2^32 mod n */
		const uint32_t t = (uint32_t)(-(uint32_t)n) % (uint32_t)n;
		while (nholes < surplus) {
			if (npool == 0) {
				uint64_t x = iid_rng_next(&s);
				uint64_t hi = (x >> 32) * n32, lo = (x & 0xffffffffULL) * n32;
				if (__builtin_expect((uint32_t)hi >= t && (uint32_t)lo >= t, 1)) {
					nholes = arrange_try(r, a, need, (size_t)(hi >> 32), nholes);
					if (nholes == surplus) {
						pool = x;   /* the low half is left for step 3 */
						npool = 1;
						break;
					}
					nholes = arrange_try(r, a, need, (size_t)(lo >> 32), nholes);
					continue;
				}
				pool = x;   /* as below() would have drawn it */
				npool = 2;
			}
			nholes = arrange_try(r, a, need, below(n, &s, &pool, &npool), nholes);
		}
	}
	while (nholes < surplus)
		nholes = arrange_try(r, a, need, below(n, &s, &pool, &npool), nholes);
	/* 3: Fisher-Yates of the missing values, into the holes in pick order */
	for (size_t k = nfill; k > 1; k--) {
		size_t j = below(k, &s, &pool, &npool);
		uint8_t tmp = r->fill[k - 1];
		r->fill[k - 1] = r->fill[j];
		r->fill[j] = tmp;
	}
	for (size_t k = 0; k < nholes; k++) {
		a[r->hole[k]] = r->fill[k];
		r->picked[r->hole[k] / 64] = 0;
	}
	*g = s;
}
