/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_runs.c - the LCP array of a bitstring's sorted suffixes from its
 * runs, for skewed bitstrings (90B 6.3.5 t-tuple and 6.3.6 LRS; tuple.c).
 *
 * Skewed data (NIST's biased-random-bytes: 80% zero bytes) has zero runs of
 * 64 bits and more at every offset, which the packed order of
 * tuple_packed.c cannot settle cheaply; the 8N-bit suffix array costs about
 * twice the packed order.  But a bitstring is its sequence of runs: with c
 * the rarer bit and o_0 < ... < o_{K-1} its positions, every suffix is
 *   0^l c U_k   (l <= b_k, the run of the other bit before o_k), or
 *   0^l $       (within the trailing run, of T bits),
 * where U_k is the suffix after o_k and "0" stands for the other bit.  In bit
 * order a longer run of 0s comes first (0 < c), and 0^l $ comes before every
 * 0^l' c ... (it is a prefix, or has a 0 where the other has c; when c = 0
 * complementing every bit reverses the order but keeps every LCP, which is
 * all the walk uses).  So the suffix order is: the trailing run's suffixes,
 * shortest first; then for l from the longest run down to 0 the suffixes
 * 0^l c U_k with b_k >= l, in the order of their U_k.  The U_k are the
 * suffixes of the token sequence b_{k+1}, ..., b_{K-1}, END(T), compared
 * token by token with longer runs first and END (unique) least: a suffix
 * array of K tokens (divsufsort, one or two bytes a token) instead of N
 * bits.  LCPs follow the same way: Kasai's pass over the tokens gives the
 * bit LCP of neighbouring U's, a suffix in group l shares l + 1 bits plus
 * the least of those since the group's previous member, and neighbouring
 * groups share l bits.  O(N + K log K) time and O(K) memory: the LCPs
 * are generated in order, a buffer at a time, for each walk that needs
 * them (struct tuple_runs), and nothing is indexed by run length, so one
 * long run (a stuck source with a glitch, assessed at 8 bits: 80M bits,
 * two ones) costs no more than many short ones (that input went from
 * 1,013 to 649 MB and 5.5 to 2.5 s here with an LCP array of 4N bytes,
 * which it no longer needs). */
#include "config.h"

#include "bigmem.h"

#include <divsufsort.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/tuple.h"

/* The U's in order: suffix array of the token sequence A (tok[i] the
 * rank code of A[i], END = 0 and unique, w bytes each); into tsa[0..K). */
static int sort_tokens(const uint16_t *code, size_t K, unsigned w, uint32_t *tsa)
{
	uint8_t *text = malloc(K * w);
	saidx_t *sa = malloc(K * w * sizeof *sa);
	int rc = -1;

	if (!text || !sa)
		goto out;
	for (size_t i = 0; i < K; i++) {
		if (w == 1) {
			text[i] = (uint8_t)code[i];
		} else {
			text[2 * i] = (uint8_t)(code[i] >> 8);
			text[2 * i + 1] = (uint8_t)code[i];
		}
	}
	if (divsufsort(text, sa, (saidx_t)(K * w)) != 0)
		goto out;
	/* with two bytes a token, the suffixes at token boundaries are the
	 * even ones, and compare as their token sequences do */
	for (size_t i = 0, j = 0; i < K * w; i++)
		if ((size_t)sa[i] % w == 0)
			tsa[j++] = (uint32_t)((size_t)sa[i] / w);
	rc = 0;
out:
	free(text);
	free(sa);
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct lengths among run[0..K), longest first, into len[0..*d)
 * (room for K), and each run's index among them into seg[].  By a table of
 * lmax + 1 entries when that is no more than a few per run, else by sorting
 * the runs: a bitstring of one long run (a stuck source with a glitch: 80M
 * bits of zeros and a few ones) would otherwise take 4 bytes a bit here.
 * Returns 0 or -1 (out of memory). */
static int runs_distinct(const uint32_t *run, size_t K, size_t lmax, uint32_t *len, size_t *d,
			 uint32_t *seg)
{
	size_t nd = 0;

	if (lmax < 4 * K + 64) {
		uint32_t *at = calloc(lmax + 1, sizeof *at);

		if (!at)
			return -1;
		for (size_t k = 0; k < K; k++)
			at[run[k]] = 1;
		for (size_t l = lmax + 1; l-- > 0;)
			if (at[l]) {
				len[nd] = (uint32_t)l;
				at[l] = (uint32_t)++nd;
			}
		for (size_t k = 0; k < K; k++)
			seg[k] = at[run[k]] - 1;
		free(at);
	} else {
		/* longest first, then by k */
		uint64_t *key = malloc(K * sizeof *key);

		if (!key)
			return -1;
		for (size_t k = 0; k < K; k++)
			key[k] = (uint64_t)(UINT32_MAX - run[k]) << 32 | (uint64_t)k;
		qsort(key, K, sizeof *key, cmp_u64);
		for (size_t j = 0; j < K; j++) {
			const uint32_t r = UINT32_MAX - (uint32_t)(key[j] >> 32);

			if (nd == 0 || len[nd - 1] != r)
				len[nd++] = r;
			seg[(uint32_t)key[j]] = (uint32_t)(nd - 1);
		}
		free(key);
	}
	*d = nd;
	return 0;
}

/* The ones of bits s (bit 0 of each byte) or, s NULL, packed w. */
static size_t runs_ones(const uint8_t *s, const uint64_t *w, size_t n)
{
	size_t ones = 0;

	if (s) {
		for (size_t i = 0; i < n; i++)
			ones += s[i] & 1u;
		return ones;
	}
	for (size_t q = 0; q < n / 64; q++)
		ones += (size_t)__builtin_popcountll(w[q]);
	if (n % 64)
		ones += (size_t)__builtin_popcountll(w[n / 64] >> (64 - n % 64));
	return ones;
}

/* run[k] = b_k, the run of the other bit before the k-th c, and the
 * largest in *lmax; returns T, the trailing run.  From packed words the
 * c positions come a word at a time (the other bit's runs, 80M bits of a
 * stuck source, are skipped whole; they cost a byte a bit unpacked). */
static size_t runs_read(const uint8_t *s, const uint64_t *w, size_t n, unsigned c, uint32_t *run,
			size_t *lmax)
{
	size_t k = 0, cur = 0, prev = 0;   /* prev: one past the last c */

	*lmax = 0;
	if (s) {
		for (size_t i = 0; i < n; i++) {
			if ((s[i] & 1u) == c) {
				run[k++] = (uint32_t)cur;
				if (cur > *lmax)
					*lmax = cur;
				cur = 0;
			} else {
				cur++;
			}
		}
		return cur;
	}
	for (size_t q = 0; q * 64 < n; q++) {
		uint64_t x = c ? w[q] : ~w[q];

		if (n - q * 64 < 64)
			x &= ~(uint64_t)0 << (64 - (n - q * 64));   /* bit i is bit 63 - i % 64 */
		while (x) {
			const unsigned lz = (unsigned)__builtin_clzll(x);
			const size_t p = q * 64 + lz;

			run[k++] = (uint32_t)(p - prev);
			if (p - prev > *lmax)
				*lmax = p - prev;
			prev = p + 1;
			x &= ~((uint64_t)1 << (63 - lz));
		}
	}
	return n - prev;
}

/* The generator's state (tuple.h): what the order above needs, O(K).
 * Segment i holds the groups l in (len[i + 1], len[i]] (down to 0 for the
 * last), whose members are the same: the ks with run[k] >= len[i], in
 * the order of their U's.  So are their LCPs but for l: the first member
 * of group l follows the last of group l + 1 (or 0^T $), sharing l bits
 * (lmax's group: T or lmax, the shorter); member j > 0 follows member j - 1
 * of its group, sharing l + 1 + (the least U-LCP between their ranks).
 * The LCPs come in reverse order (the walks' intervals, their depths and
 * sizes are the same both ways), segment D - 1 first, which has every
 * member, its least U-LCPs the bl[] of Kasai's pass; going up a segment
 * takes out the members whose run is len[i], each joining its least U-LCP
 * to the next member's: one pass over the members left, in order, so the
 * whole order costs O(n) sequential steps and 14 bytes a run, not 4 bytes
 * a bit (a stuck source's 80M-bit run: an LCP array of 320 MB). */
struct tuple_runs {
	size_t n, T, lmax, D, K;
	uint32_t *len;     /* D distinct run lengths, longest first */
	uint32_t *bl;      /* by rank r >= 1: the bit LCP of U's r - 1 and r */
	uint16_t *segr;    /* by rank: the segment of its run's length */
	uint32_t *least;   /* the members left, in rank order: their least U-LCP */
	uint16_t *seg;     /* ... and their run's segment */
	size_t ncur;       /* members left */
	/* where the order stands: segment i, group l, member j (counting
	 * down), then the trailing run t .. 1 */
	size_t i, l, j, t, left;
	int trail;
};

void tuple_runs_free(struct tuple_runs *r)
{
	if (!r)
		return;
	free(r->len);
	free(r->bl);
	free(r->segr);
	free(r->least);
	free(r->seg);
	free(r);
}

/* segment i's first group */
static void runs_enter(struct tuple_runs *r, size_t i)
{
	r->i = i;
	r->l = i + 1 < r->D ? (size_t)r->len[i + 1] + 1 : 0;
	r->j = r->ncur - 1;
}

/* going up from segment i: the members whose run is len[i] leave, each
 * joining its least U-LCP to the next member's */
static void runs_leave(struct tuple_runs *r, size_t i)
{
	uint32_t carry = UINT32_MAX;
	size_t w = 0;

	for (size_t q = 0; q < r->ncur; q++) {
		const uint32_t x = r->least[q] < carry ? r->least[q] : carry;

		if (r->seg[q] == i) {
			carry = x;
		} else {
			r->least[w] = x;
			r->seg[w++] = r->seg[q];
			carry = UINT32_MAX;
		}
	}
	r->ncur = w;
}

void tuple_runs_rewind(struct tuple_runs *r)
{
	if (r->K > 0) {
		memcpy(r->least, r->bl, r->K * sizeof *r->least);
		memcpy(r->seg, r->segr, r->K * sizeof *r->seg);
	}
	r->ncur = r->K;
	r->t = r->T > 0 ? r->T - 1 : 0;
	r->left = r->n - 1;   /* lcp[n - 1] .. lcp[1] */
	r->trail = r->D == 0;
	if (r->D > 0)
		runs_enter(r, r->D - 1);
}

size_t tuple_runs_next(struct tuple_runs *r, uint32_t *buf, size_t cap)
{
	size_t k = 0;

	if (cap > r->left)
		cap = r->left;
	while (k < cap && !r->trail) {
		const size_t top = r->len[r->i], x = r->l < r->lmax ? r->l : r->T < r->lmax ? r->T : r->lmax;

		/* the rest of group l: members j .. 1, then its first */
		while (k < cap && r->j > 0)
			buf[k++] = (uint32_t)(r->l + 1 + r->least[r->j--]);
		if (k == cap)
			break;
		buf[k++] = (uint32_t)x;
		if (r->l < top) {
			r->l++;
			r->j = r->ncur - 1;
			/* whole groups of one or two members at a time: a
			 * stuck source's run is 80M groups of that */
			if (r->ncur <= 2) {
				const uint32_t c1 = r->ncur == 2 ? r->least[1] : 0;
				size_t l = r->l;

				while (l < top && l + 1 < r->lmax && k + r->ncur <= cap) {
					if (r->ncur == 2)
						buf[k++] = (uint32_t)(l + 1 + c1);
					buf[k++] = (uint32_t)l;
					l++;
				}
				r->l = l;
			}
		} else if (r->i > 0) {
			runs_leave(r, r->i);
			runs_enter(r, r->i - 1);
		} else {
			r->trail = 1;
		}
	}
	while (k < cap && r->t > 0)
		buf[k++] = (uint32_t)r->t--;
	r->left -= k;
	return k;
}

int tuple_runs_new(const uint8_t *s, const uint64_t *w, size_t n, struct tuple_runs **out)
{
	size_t ones = 0, K, D = 0;
	unsigned c, tw;   /* the rarer bit; bytes a token */
	uint32_t *run = NULL, *tsa = NULL, *rank = NULL, *pre = NULL, *seg = NULL, *pcnt = NULL;
	uint16_t *code = NULL;
	struct tuple_runs *r;

	*out = NULL;
	if (n < 2 || n >= UINT32_MAX)
		return -1;
	r = calloc(1, sizeof *r);
	if (!r)
		return -1;
	r->n = n;
	ones = runs_ones(s, w, n);
	c = ones <= n - ones;   /* the rarer bit */
	K = c ? ones : n - ones;
	if (K == 0) {   /* one bit throughout: 0^1 $ < 0^2 $ < ... */
		r->T = n;
		tuple_runs_rewind(r);
		*out = r;
		return 0;
	}

	/* run[k] = b_k, the run before the k-th c; T the trailing run */
	run = malloc(K * sizeof *run);
	if (!run)
		goto fail;
	r->T = runs_read(s, w, n, c, run, &r->lmax);

	/* the distinct run lengths, longest first: the segments of groups,
	 * and the token codes: END(T) = 0, the closed runs' lengths 1, 2,
	 * ... longest first (pcnt: by segment, its code) */
	r->len = malloc(K * sizeof *r->len);
	seg = malloc(K * sizeof *seg);
	if (!r->len || !seg || runs_distinct(run, K, r->lmax, r->len, &D, seg) != 0)
		goto fail;
	r->D = D;
	pcnt = calloc(D, sizeof *pcnt);
	if (!pcnt)
		goto fail;
	for (size_t k = 1; k < K; k++)
		pcnt[seg[k]] = 1;
	{
		uint32_t d = 0;
		for (size_t i = 0; i < D; i++)
			if (pcnt[i])
				pcnt[i] = ++d;
		if (d >= 65535)
			goto fail;
		tw = d < 256 ? 1 : 2;
	}
	if (K * tw >= (size_t)INT32_MAX)
		goto fail;
	code = malloc(K * sizeof *code);
	if (!code)
		goto fail;
	/* A[i] = b_{i+1} for i < K - 1, A[K-1] = END: U_k = A[k..K) */
	for (size_t i = 0; i + 1 < K; i++)
		code[i] = (uint16_t)pcnt[seg[i + 1]];
	code[K - 1] = 0;

	tsa = malloc(K * sizeof *tsa);
	if (!tsa || sort_tokens(code, K, tw, tsa) != 0)
		goto fail;

	/* bl[r]: the bit LCP of the U's at ranks r - 1 and r (Kasai over the
	 * tokens; they agree on h whole tokens, then on the shorter of the two
	 * runs that differ, END's being T) */
	rank = malloc(K * sizeof *rank);
	pre = malloc(K * sizeof *pre);
	r->bl = malloc(K * sizeof *r->bl);
	if (!rank || !pre || !r->bl)
		goto fail;
	for (size_t q = 0; q < K; q++)
		rank[tsa[q]] = (uint32_t)q;
	pre[0] = 0;   /* bits of A[0..i) */
	for (size_t i = 1; i < K; i++)
		pre[i] = pre[i - 1] + run[i] + 1;
	r->bl[0] = 0;
	{
		size_t h = 0;
		for (size_t i = 0; i < K; i++) {
			size_t j, li, lj;
			if (rank[i] == 0) {
				h = 0;
				continue;
			}
			j = tsa[rank[i] - 1];
			/* END is unique, so a mismatch comes at the latest where
			 * either reaches it (the bound only says so) */
			while (i + h < K - 1 && j + h < K - 1 && code[i + h] == code[j + h])
				h++;
			li = i + h == K - 1 ? r->T : run[i + h + 1];
			lj = j + h == K - 1 ? r->T : run[j + h + 1];
			r->bl[rank[i]] = pre[i + h] - pre[i] + (uint32_t)(li < lj ? li : lj);
			h = h > 0 ? h - 1 : 0;
		}
	}
	free(rank);
	free(pre);
	free(code);
	rank = pre = NULL;
	code = NULL;

	/* each rank's segment (its run's length), for leaving the order */
	r->K = K;
	r->segr = malloc(K * sizeof *r->segr);
	r->least = malloc(K * sizeof *r->least);
	r->seg = malloc(K * sizeof *r->seg);
	if (!r->segr || !r->least || !r->seg)
		goto fail;
	for (size_t q = 0; q < K; q++)
		r->segr[q] = (uint16_t)seg[tsa[q]];   /* D <= 65,535 (above) */
	free(run);
	free(seg);
	free(tsa);
	free(pcnt);
	run = seg = tsa = pcnt = NULL;
	tuple_runs_rewind(r);
	*out = r;
	return 0;
fail:
	free(run);
	free(tsa);
	free(rank);
	free(pre);
	free(code);
	free(seg);
	free(pcnt);
	tuple_runs_free(r);
	return -1;
}
