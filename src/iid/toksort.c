/* SPDX-License-Identifier: GPL-3.0-or-later */
/* toksort.c - steps 3 and 4 of tokbwt.c: the rotation order of a block's
 * tokens, from keys that pack the ranks of the next few tokens.
 *
 * 8-bit data: each rotation's key and the string before it go into a
 * 64-bit record, sorted by its top 24 bits: by the top byte into 256
 * buckets, then a byte at a time within each bucket (in cache).  The few
 * rotations that tie on those bits are settled by whole keys.  Skewed data
 * (one string an eighth of the tokens: binary data) ties often: its records
 * are sorted on 40 key bits; and when even those would leave runs of ties
 * past TOK_RUN_MAX, the rotations are suffix-sorted as the token ranks
 * written twice (libdivsufsort). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <divsufsort.h>

#include "iid/tokbwt_int.h"

int tok_cmp_kp(const void *a, const void *b)
{
	const struct tok_kp *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void tok_radix_kp(struct tok_kp *p, size_t n, struct tok_kp *tmp)
{
	uint64_t any = 0, all = ~0ULL, differ;
	struct tok_kp *src = p, *dst = tmp, *x;

	for (size_t i = 0; i < n; i++) {
		any |= p[i].key;
		all &= p[i].key;
	}
	differ = any ^ all;
	for (unsigned b = 0; b < 64; b += 8) {
		uint32_t c[256], sum = 0;
		if (((differ >> b) & 255) == 0)
			continue;   /* a byte every key shares orders nothing */
		memset(c, 0, sizeof c);
		for (size_t i = 0; i < n; i++)
			c[(src[i].key >> b) & 255]++;
		for (int v = 0; v < 256; v++) {
			uint32_t k = c[v];
			c[v] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].key >> b) & 255]++] = src[i];
		x = src;
		src = dst;
		dst = x;
	}
	if (src != p)
		memcpy(p, src, n * sizeof *p);
}

/* The key of the rotation at token j: the ranks rk[j..j+per_key-1] as the
 * digits of a base-`base` number, the first most significant */
static uint64_t keys_at(const uint16_t *rk, size_t j, unsigned per_key, uint64_t base)
{
	uint64_t k = 0;
	for (unsigned i = 0; i < per_key; i++)
		k = k * base + rk[j + i];
	return k;
}

static uint64_t key_of(const struct iid_tokbwt *t, size_t j)
{
	return t->have_keys ? t->key[j] : keys_at(t->rk, j, t->per_key, t->base);
}

/* key[j] = the key of the rotation at token j, for j < m: each from the one
 * before (a rolling number: drop the first digit, add the next), in four
 * quarters at once, since a step waits on the previous one's two multiplies
 * and the quarters do not.  top: the first digit's weight. */
static void roll_keys(const uint16_t *rk, size_t m, unsigned per_key, uint64_t base, uint64_t top,
		      uint64_t *key)
{
	size_t q = m / 4;
	uint64_t k0 = keys_at(rk, 0, per_key, base), k1 = keys_at(rk, q, per_key, base),
		 k2 = keys_at(rk, 2 * q, per_key, base), k3 = keys_at(rk, 3 * q, per_key, base);
#define TOK_ROLL(k, j) do { \
		key[j] = k; \
		k = (k - rk[j] * top) * base + rk[(j) + per_key]; \
	} while (0)
	for (size_t i = 0; i < q; i++) {
		TOK_ROLL(k0, i);
		TOK_ROLL(k1, q + i);
		TOK_ROLL(k2, 2 * q + i);
		TOK_ROLL(k3, 3 * q + i);
	}
	for (size_t j = 4 * q; j < m; j++)
		TOK_ROLL(k3, j);
#undef TOK_ROLL
}

/* a long run of records with equal top bits: order it by the whole first
 * key of their rotations */
static int sort_run(struct iid_tokbwt *t, uint64_t *run, size_t len)
{
	struct tok_kp *p = malloc(len * sizeof *p);
	uint64_t *was = malloc(len * sizeof *was);
	const uint64_t low = (1ULL << TOK_IDX_BITS) - 1;
	if (!p || !was) {
		free(p);
		free(was);
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		p[i].key = key_of(t, run[i] & low);
		p[i].idx = (uint32_t)i;
		was[i] = run[i];
	}
	qsort(p, len, sizeof *p, tok_cmp_kp);
	for (size_t i = 0; i < len; i++)
		run[i] = was[p[i].idx];
	free(p);
	free(was);
	return 0;
}

/* -1, 0, 1 as rotation a (of tokens) sorts before, with, after b; 2 when the
 * comparison went too deep */
static int rot_cmp(const struct iid_tokbwt *t, size_t m, size_t a, size_t b)
{
	size_t off = 0;
	unsigned per_key = t->per_key;
	for (int depth = 0; depth <= TOK_MAX_DEPTH; depth++) {
		uint64_t x = key_of(t, a), y = key_of(t, b);
		if (x != y)
			return x < y ? -1 : 1;
		off += per_key;
		if (off >= m)
			return 0;   /* equal rotations */
		a += per_key;
		b += per_key;
		a -= a >= m ? m : 0;   /* per_key <= off < m here */
		b -= b >= m ? m : 0;
	}
	return 2;
}

/* rot_cmp for two sort records whose bits from key_from up hold their
 * rotations' keys' top bits */
static int rec_cmp(const struct iid_tokbwt *t, size_t m, uint64_t ra, uint64_t rb, unsigned key_from)
{
	const uint64_t low = (1ULL << TOK_IDX_BITS) - 1;
	if (ra >> key_from != rb >> key_from)
		return ra >> key_from < rb >> key_from ? -1 : 1;
	return rot_cmp(t, m, ra & low, rb & low);
}

/* LSD radix sort of n records by their bits from..55, a byte at a time
 * (from = 40 or 24: a constant where it is inlined, so that the histogram
 * loop is straight code), in place (tmp: n records of scratch); equal ones
 * keep their order */
static inline __attribute__((always_inline)) void sort_bucket(uint64_t *rec, uint64_t *tmp, size_t n,
							      unsigned from)
{
	uint32_t c[4][256];
	const unsigned passes = (56 - from) / 8;
	uint64_t *src = rec, *dst = tmp;
	if (n < 2)
		return;
	memset(c, 0, sizeof c);
	for (size_t i = 0; i < n; i++) {
		uint64_t x = rec[i] >> from;
		c[0][x & 255]++;
		c[1][x >> 8 & 255]++;
		if (passes > 2) {
			c[2][x >> 16 & 255]++;
			c[3][x >> 24 & 255]++;
		}
	}
	for (unsigned p = 0; p < passes; p++) {
		uint32_t sum = 0;
		for (int b = 0; b < 256; b++) {
			uint32_t k = c[p][b];
			c[p][b] = sum;
			sum += k;
		}
	}
	for (unsigned p = 0; p < passes; p++) {
		uint64_t *x;
		for (size_t i = 0; i < n; i++)
			dst[c[p][(src[i] >> (from + 8 * p)) & 255]++] = src[i];
		x = src;
		src = dst;
		dst = x;
	}
	if (src != rec)
		memcpy(rec, src, n * sizeof *rec);
}

/* the r-th rotation in order, from its sort record: the string before it
 * (in the record unless it holds whole keys), which is all step 5 needs */
static inline void put_rotation(struct iid_tokbwt *t, size_t r, uint64_t rec)
{
	t->dprev[r] = t->have_keys ? t->before[rec & ((1ULL << TOK_IDX_BITS) - 1)]
				   : (uint16_t)(rec >> TOK_IDX_BITS & (TOK_MAX_DISTINCT - 1));
}

/* 4. order the token rotations: their records (made in step 3, in pb: the
 * key's top 30 bits, the string before the rotation, the rotation; by8: how
 * many have each top byte; NULL: no records, the data is skewed) by the
 * key's top 24 bits in radix passes, or for skewed data (the records then
 * made here) by its top 40, then settle the runs that tie on them.
 * Sets t->dprev.  -1 when the ties go too deep. */
static int order_by_keys(struct iid_tokbwt *t, size_t m, uint32_t *by8)
{
	uint32_t by8_own[257];
	uint64_t *pa = t->pair, *pb = t->pair + t->cap, *rec = pa;   /* rec: sorted */
	uint32_t maxb = 0;
	unsigned tie_shift;   /* the records are in order of their bits above */
	unsigned key_from;    /* and hold key bits from this one up */
	const uint64_t low = (1ULL << TOK_IDX_BITS) - 1;

	t->have_keys = 0;
	for (int b = 0; by8 && b < 256; b++)
		maxb = by8[b] > maxb ? by8[b] : maxb;
	if (by8 && maxb <= 4 * (m / 256) + 64) {
		/* the keys spread (8-bit data: the largest of these buckets
		 * holds about twice the mean, as 257 token ranks share 256
		 * of them; binary data fills a few): by the top 24 bits (three
		 * tokens).  The few rotations that tie on them (~m^2 / 2^25
		 * pairs) are settled below. */
		tie_shift = 40;
		key_from = (unsigned)__builtin_ctzll(TOK_KEY_MASK);
	} else {
		/* skewed (binary data): ties are many, so the whole keys,
		 * and records of their top 40 bits sorted by all of them */
		if (by8)   /* the keys went into the records: again, whole */
			roll_keys(t->rk, m, t->per_key, t->base, t->top, t->key);
		by8 = by8_own;
		memset(by8, 0, 257 * sizeof *by8);
		for (size_t j = 0; j < m; j++) {
			pb[j] = (t->key[j] << t->shift & ~low) | j;
			by8[pb[j] >> 56]++;
		}
		t->have_keys = 1;
		tie_shift = key_from = TOK_IDX_BITS;
	}
	/* one pass by the top 8 bits into 256 buckets, then each bucket (in
	 * L1 or L2) by the rest a byte at a time: every pass writes 256
	 * streams.  (A sort within buckets of 16 bits, two items on average
	 * for 8-bit data, costs more in mispredicted branches than a pass;
	 * passes of 16 bits write at random over the whole array.) */
	{
		uint32_t at[256], sum8 = 0;
		for (int b = 0; b < 256; b++) {
			uint32_t c = by8[b];
			by8[b] = at[b] = sum8;
			sum8 += c;
		}
		by8[256] = sum8;
		for (size_t j = 0; j < m; j++)
			pa[at[pb[j] >> 56]++] = pb[j];
		/* (constant bit ranges, so that each call is compiled for its
		 * own number of passes) */
		for (int b = 0; b < 256; b++)
			if (tie_shift == 40)
				sort_bucket(pa + by8[b], pb + by8[b], by8[b + 1] - by8[b], 40);
			else
				sort_bucket(pa + by8[b], pb + by8[b], by8[b + 1] - by8[b], 24);
	}
	/* the strings before the rotations: a loop for each kind of record
	 * (t->have_keys is read through t, which the stores may alias, so the
	 * compiler would test it for every record) */
	if (!t->have_keys)
		for (size_t j = 0; j < m; j++)
			t->dprev[j] = (uint16_t)(rec[j] >> TOK_IDX_BITS & (TOK_MAX_DISTINCT - 1));
	else
		for (size_t j = 0; j < m; j++)
			t->dprev[j] = t->before[rec[j] & low];
	for (size_t a = 0; a + 1 < m; a++) {
		size_t b = a + 2;
		if (__builtin_expect(((rec[a] ^ rec[a + 1]) >> tie_shift) != 0, 1))
			continue;   /* no tie: nearly always, on 8-bit data */
		while (b < m && ((rec[a] ^ rec[b]) >> tie_shift) == 0)
			b++;
		if (b - a > TOK_RUN_MAX)
			return -1;   /* deep ties ahead: suffix-sort instead */
		if (b - a > TOK_RUN_SORT && sort_run(t, rec + a, b - a) != 0)
			return -1;
		/* insertion sort of the records rec[a..b) by the whole
		 * rotation: first by the key bits they hold below tie_shift
		 * (8-bit data: 6 more, so that few ties need the keys read) */
		for (size_t i = a + 1; i < b; i++) {
			uint64_t x = rec[i];
			size_t j = i;
			while (j > a) {
				int c;
				if (i - j > TOK_MAX_SHIFT)
					return -1;   /* too many alike: let the caller sort */
				c = rec_cmp(t, m, rec[j - 1], x, key_from);
				if (c == 2)
					return -1;
				if (c <= 0)
					break;
				rec[j] = rec[j - 1];
				j--;
			}
			rec[j] = x;
		}
		for (size_t i = a; i < b; i++)
			put_rotation(t, i, rec[i]);
		a = b - 1;
	}
	return 0;
}

/* 4, for deep ties: the rotation order of the token ranks, as the order of
 * the suffixes starting in the first copy of them written twice.  -1 when
 * the ranks do not fit a byte. */
static int order_by_suffixes(struct iid_tokbwt *t, size_t m, const uint16_t *rank_of,
			     int ndistinct)
{
	size_t k = 0;
	if (ndistinct > 256)
		return -1;
	for (size_t j = 0; j < m; j++)
		t->twice[j] = t->twice[m + j] = (uint8_t)rank_of[t->tr[j]];
	if (divsufsort(t->twice, t->sa, (saidx_t)(2 * m)) != 0)
		return -1;
	for (size_t i = 0; i < 2 * m; i++)
		if ((size_t)t->sa[i] < m)
			t->dprev[k++] = t->before[t->sa[i]];
	return 0;
}

/* 3 and 4: the rotation order of the m tokens t->tr (rank_of: the rank of
 * each distinct string, dcount: how many tokens have it), as the string
 * before each rotation in that order, into t->dprev.  -1 when it declines. */
int tok_sort_rotations(struct iid_tokbwt *t, size_t m, const uint16_t *rank_of, int ndistinct,
		       const uint32_t *dcount)
{
	uint32_t by8[257];   /* step 3's records by their top byte */
	uint32_t most = 0;
	int skewed, deep;
	unsigned per_key;

	for (int d = 0; d < ndistinct; d++)
		most = dcount[d] > most ? dcount[d] : most;
	/* one string an eighth of the tokens or more (binary data): the
	 * rotations tie often, and are sorted on whole keys (step 4) */
	skewed = most > m / 8;
	/* so skewed that the 40 key bits the sort records hold (40 / log2
	 * ndistinct tokens) would leave a run of ties longer than
	 * TOK_RUN_MAX: order_by_keys would decline after its passes, so go
	 * to the suffix sort at once (98% zero bits: ~0.98^25 m alike) */
	deep = skewed && ndistinct > 1 &&
	       (double)m * pow((double)most / (double)m, 40.0 / log2((double)ndistinct)) >
		       TOK_RUN_MAX;

	/* 3. keys: the ranks of the next per_key tokens as the digits of a
	 * base-ndistinct number, first token most significant (so numeric order
	 * is rotation order as far as the key reaches, and binary data, with
	 * its 2 common tokens and a rare third, gets 40 tokens per key) */
	{
		uint64_t base = ndistinct < 2 ? 2 : (uint64_t)ndistinct, top = 1;
		uint16_t *rk = t->rk;
		unsigned sh;
		per_key = 0;
		while (top <= UINT64_MAX / base) {
			top *= base;
			per_key++;
		}
		/* top = base^per_key; the leading digit's weight: */
		top /= base;
		sh = (unsigned)__builtin_clzll(top * base - 1);   /* spread over 64 bits */
		/* the ranks, and the first per_key again after them */
		for (size_t j = 0; j < m; j++)
			rk[j] = rank_of[t->tr[j]];
		for (size_t j = m; j < m + per_key; j++)
			rk[j] = rk[(j - m) % m];
		/* the keys, and for data that is not skewed the rotations'
		 * sort records: the key's top 30 bits, the string before the
		 * rotation (so that step 5 reads it in order), the rotation.
		 * (Skewed data: step 4 makes them.) */
		if (!skewed) {
			uint64_t *rec = t->pair + t->cap;
			roll_keys(rk, m, per_key, base, top, rec);
			memset(by8, 0, sizeof by8);
			for (size_t j = 0; j < m; j++) {
				rec[j] = (rec[j] << sh & TOK_KEY_MASK) |
					 (uint64_t)t->before[j] << TOK_IDX_BITS | j;
				by8[rec[j] >> 56]++;
			}
		} else if (!deep) {
			roll_keys(rk, m, per_key, base, top, t->key);
		}
		t->per_key = per_key;
		t->base = base;
		t->top = top;
		t->shift = sh;
	}

	/* 4. the order */
	if (deep || m > TOK_IDX_MAX || order_by_keys(t, m, skewed ? NULL : by8) != 0) {
		if (order_by_suffixes(t, m, rank_of, ndistinct) != 0)
			return -1;
	}
	return 0;
}
