/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * The token rotation order (steps 3 and 4) is toksort.c's.  When the keys
 * tie too deeply (long runs of one token: skewed binary data) the token
 * rotations are suffix-sorted instead, as the suffixes of the token ranks
 * written twice (libdivsufsort; two rotations that differ do so within m
 * tokens, and equal ones may come in any order).
 *
 * Declines (returns -1) when the block has no space, a token is longer than
 * 8 bytes, there are too many distinct tokens, or deep ties meet more than
 * 256 distinct tokens; the caller then sorts the characters. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "iid/tokbwt_int.h"

struct iid_tokbwt *iid_tokbwt_new(size_t block_cap)
{
	struct iid_tokbwt *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->cap = block_cap / 2 + 2;
	/* what every block fills, prefaulted (bigmem.h); key, twice and sa
	 * only for skewed data */
	t->tr = bigmem_calloc(t->cap, sizeof *t->tr);
	t->before = bigmem_calloc(t->cap + 1, sizeof *t->before);
	t->rk = bigmem_calloc(t->cap + 64, sizeof *t->rk);
	t->dprev = bigmem_calloc(t->cap, sizeof *t->dprev);
	t->key = malloc(t->cap * sizeof *t->key);
	/* the sort records, and before them step 2's radix sort of up to
	 * TOK_MAX_DISTINCT * TOK_MAX_LEN tails and as many spare (two words
	 * each) */
	t->pair = bigmem_calloc(2 * t->cap > 4 * TOK_MAX_DISTINCT * TOK_MAX_LEN
					? 2 * t->cap : 4 * TOK_MAX_DISTINCT * TOK_MAX_LEN,
				sizeof *t->pair);
	t->twice = malloc(2 * t->cap);
	t->sa = malloc(2 * t->cap * sizeof *t->sa);
	if (!t->tr || !t->before || !t->rk || !t->dprev || !t->key || !t->pair || !t->twice ||
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
	bigmem_free(t->tr);
	bigmem_free(t->before);
	bigmem_free(t->rk);
	bigmem_free(t->dprev);
	free(t->key);
	bigmem_free(t->pair);
	free(t->twice);
	free(t->sa);
	free(t);
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

/* A block's tokens, in the order they are read (from the one after the
 * block's last space, cyclically): their number m, and their distinct
 * strings (t->tr holds each token's number among them) */
struct tok_block {
	size_t m;
	int ndistinct;
	uint64_t distinct[TOK_MAX_DISTINCT];   /* packed big-endian */
	uint8_t tlen[TOK_MAX_DISTINCT];
	int counted;                           /* dcount is filled in */
	uint32_t dcount[TOK_MAX_DISTINCT];     /* tokens of each string */
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
	tb.counted = 0;

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
	/* the tokens of each string counted as they are read: a pass over
	 * them less in tokbwt_order */
	tb.counted = 1;
	tb.dcount[first] = 1;
	for (size_t k = i0 + 1; k < i1; k++, m++) {
		int id = id_of[v[k]];
		if (__builtin_expect(id < 0, 0)) {
			unsigned lk;
			id = id_of[v[k]] = (int16_t)tb.ndistinct;
			tb.distinct[id] = decimal_code(v[k], &lk);
			tb.dcount[id] = 0;
			tb.tlen[tb.ndistinct++] = (uint8_t)lk;
		}
		tb.dcount[id]++;
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
	uint16_t rank_of[TOK_MAX_DISTINCT], trank[TOK_MAX_DISTINCT][TOK_MAX_LEN];
	uint32_t bylen[TOK_MAX_LEN + 1];   /* tokens by length */
	uint32_t tcount[TOK_MAX_DISTINCT * TOK_MAX_LEN + 1];   /* + a spare (step 5) */
	uint32_t own[TOK_MAX_DISTINCT];
	const uint32_t *dcount = tb->counted ? tb->dcount : own;   /* tokens of each string */
	const uint64_t *distinct = tb->distinct;
	const uint8_t *tlen = tb->tlen;
	int ndistinct = tb->ndistinct, ntails = 0;
	size_t m = tb->m;

	t->before[0] = t->tr[m - 1];
	/* the block's characters are those of its distinct tokens */
	if (in_use) {
		memset(in_use, 0, 256);
		for (int d = 0; d < ndistinct; d++)
			for (unsigned o = 0; o < tlen[d]; o++)
				in_use[(uint8_t)(distinct[d] >> (56 - 8 * o))] = 1;
	}

	if (!tb->counted) {
		memset(own, 0, (size_t)ndistinct * sizeof *own);
		for (size_t j = 0; j < m; j++)
			own[t->tr[j]]++;
	}

	/* 2. ranks of the token strings, and of all their tails (equal tails
	 * of different tokens share one), sorted with their owners; the
	 * radix passes use the sort records' space (step 4's, not yet
	 * needed) */
	{
		struct tok_kp *kp = (struct tok_kp *)t->pair, *tmp = kp + TOK_MAX_DISTINCT * TOK_MAX_LEN;
		size_t nk = 0;
		for (int d = 0; d < ndistinct; d++) {
			kp[d].key = distinct[d];
			kp[d].idx = (uint32_t)d;
		}
		tok_radix_kp(kp, (size_t)ndistinct, tmp);
		for (int r = 0; r < ndistinct; r++)
			rank_of[kp[r].idx] = (uint16_t)r;
		for (int d = 0; d < ndistinct; d++)
			for (unsigned o = 0; o < tlen[d]; o++) {
				kp[nk].key = distinct[d] << (8 * o);
				kp[nk++].idx = (uint32_t)d * TOK_MAX_LEN + o;
			}
		tok_radix_kp(kp, nk, tmp);
		for (size_t i = 0; i < nk; i++) {
			if (i > 0 && kp[i].key != kp[i - 1].key)
				ntails++;
			trank[kp[i].idx / TOK_MAX_LEN][kp[i].idx % TOK_MAX_LEN] = (uint16_t)ntails;
		}
		ntails += nk > 0;
	}

	/* 3, 4. the rotation order of the tokens (toksort.c) */
	if (tok_sort_rotations(t, m, rank_of, ndistinct, dcount) != 0)
		return -1;

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
