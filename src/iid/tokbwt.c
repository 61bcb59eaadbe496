/* tokbwt.c - the Burrows-Wheeler transform of a block of 90B 5.1.11's
 * compression text ("v v v ...": decimal numbers separated by spaces) without
 * sorting its characters.
 *
 * Cut the cyclic block after every space into tokens ("digits space").  No
 * token is a proper prefix of another, so two rotations that start at token
 * boundaries compare as their token sequences do, token against token in
 * string order; a rotation starting inside a token compares first by the rest
 * of that token (its "tail", also prefix-free) and then by the rotation
 * starting at the next token.  So the rotation order of the characters is a
 * bucket sort by tail of the rotation order of the tokens, and that is a sort
 * of about n/3.6 (8-bit data) or n/2 (1-bit data) items by 64-bit keys packing
 * the ranks of the next few tokens, with the rare equal keys settled by the
 * tokens after them.  Equal rotations (periodic blocks) may come out in any
 * order: their preceding characters are equal, so the transform is the same.
 *
 * The character before a rotation starting at token offset o is the token's
 * character o-1, or the previous token's closing space when o = 0.
 *
 * The tokens come from the block's text (iid_tokbwt) or straight from the
 * samples (iid_tokbwt_decimal: a sample's token is its decimal and a space,
 * so only the one token that wraps around the block is built by hand).
 *
 * When the keys tie too deeply (long runs of one token: skewed binary data)
 * the token rotations are suffix-sorted instead, as the suffixes of the
 * token ranks written twice (libdivsufsort; two rotations that differ do so
 * within m tokens, and equal ones may come in any order).
 *
 * Declines (returns -1) when the block has no space, a token is longer than
 * 8 bytes, there are too many distinct tokens, or deep ties meet more than
 * 256 distinct tokens; the caller then sorts the characters. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <divsufsort.h>

#include "iid/bzsize.h"

#define TOK_MAX_LEN 8           /* a token is packed big-endian into a uint64_t */
#define TOK_MAX_DISTINCT 1024   /* 256 sample values and the odd tokens at the wrap */
#define TOK_HASH 4096           /* open addressing, > 2 * TOK_MAX_DISTINCT */
#define TOK_MAX_DEPTH 64        /* keys compared past the first before declining */
#define TOK_RUN_SORT 32         /* longer runs of equal top key bits are sorted by key */
#define TOK_MAX_SHIFT 64        /* insertion sort moves allowed per item */
#define TOK_IDX_BITS 24         /* rotation number in a radix record */
#define TOK_IDX_MAX ((1u << TOK_IDX_BITS) - 1)
#define TOK_KEY_MASK (~0ULL << 34)   /* bits 34..63 of a record: a key's top 30;
					below them the string before (10 bits) */
#define TOK_RUN_MAX 4096        /* a longer run of equal top key bits: suffix-sort */

struct iid_tokbwt {
	size_t cap;                 /* most tokens */
	uint16_t *tr;               /* token j's string (its distinct number) */
	uint16_t *before;           /* the string of token j - 1 (cyclically) */
	uint16_t *rk;               /* rank of token j's string, + 64 from the start */
	uint16_t *dprev;            /* the string before each rotation, in order */
	unsigned per_key;           /* tokens in a key (step 3) */
	uint64_t base, top;         /* its base (the distinct ones), the first's weight */
	unsigned shift;             /* a key shifted left this much fills 64 bits */
	uint64_t *key;              /* the keys, when ties are common (skewed data) */
	int have_keys;
	uint32_t *idx;              /* token rotation order */
	uint64_t *pair;             /* radix sort records */
	uint8_t *twice;             /* deep ties: the token ranks, twice */
	saidx_t *sa;                /* and their suffix array */
};

struct iid_tokbwt *iid_tokbwt_new(size_t block_cap)
{
	struct iid_tokbwt *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->cap = block_cap / 2 + 2;
	t->tr = malloc(t->cap * sizeof *t->tr);
	t->before = malloc((t->cap + 1) * sizeof *t->before);
	t->rk = malloc((t->cap + 64) * sizeof *t->rk);
	t->dprev = malloc(t->cap * sizeof *t->dprev);
	t->key = malloc(t->cap * sizeof *t->key);
	t->idx = malloc(t->cap * sizeof *t->idx);
	t->pair = malloc(2 * t->cap * sizeof *t->pair);
	t->twice = malloc(2 * t->cap);
	t->sa = malloc(2 * t->cap * sizeof *t->sa);
	if (!t->tr || !t->before || !t->rk || !t->dprev || !t->key || !t->idx || !t->pair || !t->twice ||
	    !t->sa) {
		iid_tokbwt_free(t);
		return NULL;
	}
	return t;
}

void iid_tokbwt_free(struct iid_tokbwt *t)
{
	if (!t)
		return;
	free(t->tr);
	free(t->before);
	free(t->rk);
	free(t->dprev);
	free(t->key);
	free(t->idx);
	free(t->pair);
	free(t->twice);
	free(t->sa);
	free(t);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The token at s (which has TOK_MAX_LEN readable bytes): its bytes up to
 * and including the first space, packed big-endian into *code, and their
 * number.  -1 when there is no space among them.  One 8-byte load, not a
 * loop whose exit mispredicts on tokens of 2 to 4 bytes. */
static int token_at(const uint8_t *s, uint64_t *code, unsigned *len)
{
	uint64_t x, z, hit;
	memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);   /* the first byte least significant */
#endif
	/* bytes of x that are spaces: the lowest flag is exact (a borrow
	 * only flags bytes above a true zero) */
	z = x ^ 0x2020202020202020ULL;
	hit = (z - 0x0101010101010101ULL) & ~z & 0x8080808080808080ULL;
	if (hit == 0)
		return -1;
	*len = (unsigned)__builtin_ctzll(hit) / 8 + 1;
	*code = __builtin_bswap64(x) & (~0ULL << (64 - 8 * *len));
	return 0;
}

/* The character before the rotation that starts at offset o of a token
 * (code packed big-endian): its character o - 1, or for o = 0 the space
 * that closed the token before it */
static inline uint8_t tail_char(uint64_t code, unsigned o)
{
	return o == 0 ? ' ' : (uint8_t)(code >> (56 - 8 * (o - 1)));
}

/* index of code in the hash table (inserting it); -1 when full */
static inline int hash_slot(uint64_t *hkey, int16_t *hval, uint64_t code, int *ndistinct,
		     uint64_t *distinct)
{
	uint32_t h = (uint32_t)((code * 0x9e3779b97f4a7c15ULL) >> 52) & (TOK_HASH - 1);
	for (;;) {
		if (hval[h] < 0) {
			if (*ndistinct >= TOK_MAX_DISTINCT)
				return -1;
			hkey[h] = code;
			hval[h] = (int16_t)*ndistinct;
			distinct[(*ndistinct)++] = code;
			return (int)h;
		}
		if (hkey[h] == code)
			return (int)h;
		h = (h + 1) & (TOK_HASH - 1);
	}
}

struct kp { uint64_t key; uint32_t idx; };

static int cmp_kp(const void *a, const void *b)
{
	const struct kp *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
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

/* a long run of equal top bits: order it by the whole first key */
static int sort_run(struct iid_tokbwt *t, uint32_t *run, size_t len)
{
	struct kp *p = malloc(len * sizeof *p);
	if (!p)
		return -1;
	for (size_t i = 0; i < len; i++) {
		p[i].key = key_of(t, run[i]);
		p[i].idx = run[i];
	}
	qsort(p, len, sizeof *p, cmp_kp);
	for (size_t i = 0; i < len; i++)
		run[i] = p[i].idx;
	free(p);
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

/* LSD radix sort of n records by their bits from..55, a byte at a time
 * (from = 40 or 24), in place (tmp: n records of scratch); equal ones keep
 * their order */
static inline void sort_bucket(uint64_t *rec, uint64_t *tmp, size_t n, unsigned from)
{
	uint32_t c[4][256];
	unsigned passes = (56 - from) / 8;
	uint64_t *src = rec, *dst = tmp;
	if (n < 2)
		return;
	memset(c, 0, sizeof c);
	for (size_t i = 0; i < n; i++)
		for (unsigned p = 0; p < passes; p++)
			c[p][(rec[i] >> (from + 8 * p)) & 255]++;
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

/* 4. order the token rotations: their records (made in step 3, in pb: the
 * key's top 30 bits, the string before the rotation, the rotation; by8: how
 * many have each top byte; NULL: no records, the data is skewed) by the
 * key's top 24 bits in radix passes, or for skewed data (the records then
 * made here) by its top 40, then settle the runs that tie on them.
 * Sets t->idx and t->dprev.  -1 when the ties go too deep. */
static int order_by_keys(struct iid_tokbwt *t, size_t m, uint32_t *by8)
{
	uint32_t *src = t->idx, by8_own[257];
	uint64_t *pa = t->pair, *pb = t->pair + t->cap, *rec = pa;   /* rec: sorted */
	uint32_t maxb = 0;
	unsigned tie_shift;   /* the records are in order of their bits above */
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
		tie_shift = 24;
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
	for (size_t j = 0; j < m; j++) {
		src[j] = (uint32_t)(rec[j] & low);
		t->dprev[j] = t->have_keys ? t->before[src[j]]
					   : (uint16_t)(rec[j] >> TOK_IDX_BITS & (TOK_MAX_DISTINCT - 1));
	}
	for (size_t a = 0; a + 1 < m; a++) {
		size_t b = a + 2;
		uint64_t top = rec[a] >> tie_shift;
		if (__builtin_expect((rec[a + 1] >> tie_shift) != top, 1))
			continue;   /* no tie: nearly always, on 8-bit data */
		while (b < m && rec[b] >> tie_shift == top)
			b++;
		if (b - a > TOK_RUN_MAX)
			return -1;   /* deep ties ahead: suffix-sort instead */
		if (b - a > TOK_RUN_SORT && sort_run(t, src + a, b - a) != 0)
			return -1;
		/* insertion sort of src[a..b) by the whole rotation */
		for (size_t i = a + 1; i < b; i++) {
			uint32_t x = src[i];
			size_t j = i;
			while (j > a) {
				if (i - j > TOK_MAX_SHIFT)
					return -1;   /* too many alike: let the caller sort */
				int c = rot_cmp(t, m, src[j - 1], x);
				if (c == 2)
					return -1;
				if (c <= 0)
					break;
				src[j] = src[j - 1];
				j--;
			}
			src[j] = x;
		}
		for (size_t i = a; i < b; i++)
			t->dprev[i] = t->before[src[i]];
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
		if ((size_t)t->sa[i] < m) {
			t->dprev[k] = t->before[t->sa[i]];
			t->idx[k++] = (uint32_t)t->sa[i];
		}
	return 0;
}

/* A block's tokens, in the order they are read (from the one after the
 * block's last space, cyclically): their number m, and their distinct
 * strings (t->tr holds each token's number among them) */
struct tok_block {
	size_t m;
	int ndistinct;
	uint64_t distinct[TOK_MAX_DISTINCT];   /* packed big-endian */
	uint8_t tlen[TOK_MAX_DISTINCT];
};

static int tokbwt_order(struct iid_tokbwt *t, const struct tok_block *tb, size_t n, uint8_t *bwt,
			unsigned char *in_use);

int iid_tokbwt(const uint8_t *blk, size_t n, uint8_t *bwt, unsigned char *in_use,
	       struct iid_tokbwt *t)
{
	uint64_t hkey[TOK_HASH];
	int16_t hval[TOK_HASH];
	struct tok_block tb;
	size_t m = 0, last_space, pos;

	if (n < 2)
		return -1;
	/* the token that wraps around starts after the last space */
	last_space = n;
	for (size_t i = n; i-- > 0;)
		if (blk[i] == ' ') {
			last_space = i;
			break;
		}
	if (last_space == n)
		return -1;
	memset(hval, -1, sizeof hval);
	tb.ndistinct = 0;

	/* 1. tokens, their codes (distinct string id in tr[] for now) */
	pos = (last_space + 1) % n;
	do {
		uint64_t code;
		size_t p;
		unsigned len;
		int h;
		if (pos + TOK_MAX_LEN <= n) {
			if (token_at(blk + pos, &code, &len) != 0)
				return -1;
			p = pos + len == n ? 0 : pos + len;
		} else {
			/* near the end of the block: the token may wrap */
			code = 0;
			len = 0;
			p = pos;
			for (;;) {
				uint8_t c = blk[p];
				if (len == TOK_MAX_LEN)
					return -1;
				code |= (uint64_t)c << (56 - 8 * len);
				len++;
				p = p + 1 == n ? 0 : p + 1;
				if (c == ' ')
					break;
			}
		}
		if (m >= t->cap)
			return -1;
		h = hash_slot(hkey, hval, code, &tb.ndistinct, tb.distinct);
		if (h < 0)
			return -1;
		t->tr[m] = t->before[m + 1] = (uint16_t)hval[h];
		tb.tlen[hval[h]] = (uint8_t)len;
		m++;
		pos = p;
	} while (pos != (last_space + 1) % n);
	tb.m = m;
	return tokbwt_order(t, &tb, n, bwt, in_use);
}

/* The decimal code of v (followed by a space) packed big-endian, and its
 * length */
static uint64_t decimal_code(unsigned v, unsigned *len)
{
	uint64_t c = 0;
	unsigned k = 0;
	if (v >= 100)
		c |= (uint64_t)('0' + v / 100) << (56 - 8 * k++);
	if (v >= 10)
		c |= (uint64_t)('0' + v / 10 % 10) << (56 - 8 * k++);
	c |= (uint64_t)('0' + v % 10) << (56 - 8 * k++);
	c |= (uint64_t)' ' << (56 - 8 * k++);
	*len = k;
	return c;
}

int iid_tokbwt_decimal(const uint8_t *v, size_t i0, unsigned off0, size_t i1, unsigned off1,
		       size_t n, uint8_t *bwt, unsigned char *in_use, struct iid_tokbwt *t)
{
	struct tok_block tb;
	int16_t id_of[256];
	uint64_t code, c0, c1;
	unsigned len, l0, l1;
	int first = -1;
	size_t m = 1;

	if (i1 <= i0 || i1 - i0 > t->cap || n < 2)
		return -1;
	memset(id_of, -1, sizeof id_of);
	tb.ndistinct = 0;
	/* the first token read: the rest of sample i0's, after the prefix of
	 * sample i1's that ends the block (when it does not end on a space) */
	c0 = decimal_code(v[i0], &l0) << (8 * off0);
	l0 -= off0;
	c1 = off1 > 0 ? decimal_code(v[i1], &l1) & ~(~0ULL >> (8 * off1)) : 0;
	if (off1 + l0 > TOK_MAX_LEN)
		return -1;
	code = c1 | (off1 > 0 ? c0 >> (8 * off1) : c0);
	len = off1 + l0;
	/* the token is a sample's own when its digits are one's decimal */
	for (unsigned u = 0; u < 256 && first < 0; u++) {
		unsigned lu;
		if (decimal_code(u, &lu) == code) {
			first = id_of[u] = (int16_t)tb.ndistinct;
			tb.distinct[tb.ndistinct] = code;
			tb.tlen[tb.ndistinct++] = (uint8_t)lu;
		}
	}
	if (first < 0) {
		first = tb.ndistinct;
		tb.distinct[tb.ndistinct] = code;
		tb.tlen[tb.ndistinct++] = (uint8_t)len;
	}
	t->tr[0] = t->before[1] = (uint16_t)first;
	for (size_t k = i0 + 1; k < i1; k++, m++) {
		int id = id_of[v[k]];
		if (__builtin_expect(id < 0, 0)) {
			unsigned lk;
			id = id_of[v[k]] = (int16_t)tb.ndistinct;
			tb.distinct[id] = decimal_code(v[k], &lk);
			tb.tlen[tb.ndistinct++] = (uint8_t)lk;
		}
		t->tr[m] = t->before[m + 1] = (uint16_t)id;
	}
	tb.m = m;
	return tokbwt_order(t, &tb, n, bwt, in_use);
}

/* Steps 2-5 for the tokens of a block of n characters; also the block's
 * byte values into in_use when it is not NULL. */
static int tokbwt_order(struct iid_tokbwt *t, const struct tok_block *tb, size_t n, uint8_t *bwt,
			unsigned char *in_use)
{
	uint64_t tails[TOK_MAX_DISTINCT * TOK_MAX_LEN];
	uint16_t rank_of[TOK_MAX_DISTINCT], trank[TOK_MAX_DISTINCT][TOK_MAX_LEN];
	uint32_t bylen[TOK_MAX_LEN + 1];   /* tokens by length */
	uint32_t tcount[TOK_MAX_DISTINCT * TOK_MAX_LEN + 1];   /* + a spare (step 5) */
	struct kp sorted[TOK_MAX_DISTINCT];
	uint32_t by8[257];   /* step 3's records by their top byte */
	uint32_t dcount[TOK_MAX_DISTINCT], most = 0;   /* tokens of each string */
	int skewed, deep;
	const uint64_t *distinct = tb->distinct;
	const uint8_t *tlen = tb->tlen;
	int ndistinct = tb->ndistinct, ntails = 0;
	size_t m = tb->m;
	unsigned per_key;

	t->before[0] = t->tr[m - 1];
	/* the block's characters are those of its distinct tokens */
	if (in_use) {
		memset(in_use, 0, 256);
		for (int d = 0; d < ndistinct; d++)
			for (unsigned o = 0; o < tlen[d]; o++)
				in_use[(uint8_t)(distinct[d] >> (56 - 8 * o))] = 1;
	}

	memset(dcount, 0, (size_t)ndistinct * sizeof *dcount);
	for (size_t j = 0; j < m; j++)
		dcount[t->tr[j]]++;
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

	/* 2. ranks of the token strings, and of all their tails */
	for (int d = 0; d < ndistinct; d++) {
		sorted[d].key = distinct[d];
		sorted[d].idx = (uint32_t)d;
	}
	qsort(sorted, (size_t)ndistinct, sizeof *sorted, cmp_kp);
	for (int r = 0; r < ndistinct; r++)
		rank_of[sorted[r].idx] = (uint16_t)r;
	for (int d = 0; d < ndistinct; d++)
		for (unsigned o = 0; o < tlen[d]; o++)
			tails[ntails++] = distinct[d] << (8 * o);
	qsort(tails, (size_t)ntails, sizeof *tails, cmp_u64);
	{
		int u = 0;
		for (int i = 0; i < ntails; i++)
			if (u == 0 || tails[u - 1] != tails[i])
				tails[u++] = tails[i];
		ntails = u;
	}
	for (int d = 0; d < ndistinct; d++)
		for (unsigned o = 0; o < tlen[d]; o++) {
			uint64_t c = distinct[d] << (8 * o);
			int lo = 0, hi = ntails - 1;
			while (lo < hi) {
				int mid = (lo + hi) / 2;
				if (tails[mid] < c)
					lo = mid + 1;
				else
					hi = mid;
			}
			trank[d][o] = (uint16_t)lo;
		}

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

	/* 4. the token rotation order */
	if (deep || m > TOK_IDX_MAX || order_by_keys(t, m, skewed ? NULL : by8) != 0) {
		if (order_by_suffixes(t, m, rank_of, ndistinct) != 0)
			return -1;
	}

	/* 5. characters: bucket by tail, in the order of the rotation that
	 * starts at the next token.  Bucket sizes first. */
	memset(tcount, 0, (size_t)ntails * sizeof *tcount);
	memset(bylen, 0, sizeof bylen);
	{
		for (int d = 0; d < ndistinct; d++) {
			for (unsigned o = 0; o < tlen[d]; o++)
				tcount[trank[d][o]] += dcount[d];
			bylen[tlen[d]] += dcount[d];
		}
	}
	{
		uint32_t sum = 0;
		for (int i = 0; i < ntails; i++) {
			uint32_t c = tcount[i];
			tcount[i] = sum;
			sum += c;
		}
		if (sum != n)
			return -1;
	}
	/* Every token ends with the tail " ", whose bucket thus takes the
	 * rotations in order: its r-th character is written directly, which
	 * keeps that bucket's counter out of the loop's dependency chain. */
	{
		uint32_t space_base = tcount[trank[t->tr[0]][tlen[t->tr[0]] - 1]];
		uint32_t common = 0;   /* tokens of the commonest length */
		for (unsigned l = 1; l <= TOK_MAX_LEN; l++)
			common = bylen[l] > common ? bylen[l] : common;
		if (common < m / 10 * 9) {
			/* tokens whose length varies (samples of up to 8 bits: 1
			 * to 3 digits): each token's first three writes unrolled,
			 * those past its end sent to a spare counter at n that does
			 * not move, so that no branch depends on the length (when
			 * nearly all have one length, the loop below predicts it
			 * and does less).  A longer token (the one that wraps
			 * around, once a block) writes the rest in a branch. */
			struct { uint16_t b[3]; uint8_t c[3], inc[3], spc, more; } wr[TOK_MAX_DISTINCT];
			for (int d = 0; d < ndistinct; d++) {
				unsigned last = tlen[d] - 1u;
				for (unsigned o = 0; o < 3; o++) {
					wr[d].b[o] = (uint16_t)(o < last ? trank[d][o] : ntails);
					wr[d].c[o] = tail_char(distinct[d], o);
					wr[d].inc[o] = o < last;
				}
				wr[d].spc = tail_char(distinct[d], last);
				wr[d].more = last > 3;
			}
			tcount[ntails] = (uint32_t)n;
			for (size_t r = 0; r < m; r++) {
				unsigned d = t->dprev[r];   /* the token before rotation r */
#define TOK_PUT(o) do { \
		bwt[tcount[wr[d].b[o]]] = wr[d].c[o]; \
		tcount[wr[d].b[o]] += wr[d].inc[o]; \
	} while (0)
				TOK_PUT(0);
				TOK_PUT(1);
				TOK_PUT(2);
#undef TOK_PUT
				if (__builtin_expect(wr[d].more, 0))
					for (unsigned o = 3; o + 1 < tlen[d]; o++)
						bwt[tcount[trank[d][o]]++] = tail_char(distinct[d], o);
				bwt[space_base + r] = wr[d].spc;
			}
			return 0;
		}
		for (size_t r = 0; r < m; r++) {
			unsigned d = t->dprev[r], last = tlen[d] - 1u;
			for (unsigned o = 0; o < last; o++)
				bwt[tcount[trank[d][o]]++] = tail_char(distinct[d], o);
			bwt[space_base + r] = tail_char(distinct[d], last);
		}
	}
	return 0;
}
