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
 * groups share l bits.  O(N + K log K) time; 4N bytes for the LCP array
 * and O(K) beside it: nothing is indexed by run length, so one long run
 * (a stuck source with a glitch, assessed at 8 bits: 80M bits, two ones)
 * costs no more than many short ones (that input went from 1,013 to 649
 * MB and 5.5 to 2.5 s here; the 649 MB are this array and tuple.c's exact
 * Q window over its 80M lengths). */
#include "config.h"

#include "bigmem.h"

#include <divsufsort.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/tuple.h"

#define RUNS_INF UINT32_MAX

/* The group minima: the least U-LCP since each group l's last member, as
 * runs of groups with one value.  A group's minimum covers the U's since
 * its last member, and groups of larger l had theirs earlier, so the
 * minimum falls (or stays) as l grows; the stack holds runs from the
 * largest l (bottom) to l = 0 (top), each as its largest l and its value. */
struct gmin {
	uint32_t *hi, *val;
	size_t top;   /* entries in use */
};

/* every group's minimum lowered to at most x: the top runs at or above x
 * become one run of x */
static void gmin_lower(struct gmin *g, uint32_t x)
{
	uint32_t hi;

	if (g->val[g->top - 1] < x)
		return;
	hi = g->hi[g->top - 1];
	while (g->top > 0 && g->val[g->top - 1] >= x)
		hi = g->hi[--g->top];
	g->hi[g->top] = hi;
	g->val[g->top++] = x;
}

/* groups 0..b start over (their new member was just written) */
static void gmin_reset(struct gmin *g, uint32_t b)
{
	while (g->top > 0 && g->hi[g->top - 1] <= b)
		g->top--;
	g->hi[g->top] = b;
	g->val[g->top++] = RUNS_INF;
}

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

int tuple_lcp_runs(const uint8_t *s, const uint64_t *w, size_t n, uint32_t **lcp_out, size_t *v_out)
{
	size_t ones = 0, K, T, lmax = 0, v = 0, D = 0;
	unsigned c, tw;   /* the rarer bit; bytes a token */
	uint32_t *run = NULL, *tsa = NULL, *rank = NULL, *bl = NULL, *pre = NULL, *lcp = NULL;
	uint32_t *len = NULL, *seg = NULL, *msz = NULL, *base = NULL, *pcnt = NULL;
	uint16_t *code = NULL;
	struct gmin g = { NULL, NULL, 0 };
	int rc = -1;

	*lcp_out = NULL;
	if (n < 2 || n >= UINT32_MAX)
		return -1;
	ones = runs_ones(s, w, n);
	c = ones <= n - ones;   /* the rarer bit */
	K = c ? ones : n - ones;
	if (K == 0) {   /* one bit throughout: 0^1 $ < 0^2 $ < ... */
		lcp = bigmem_calloc(n, sizeof *lcp);
		if (!lcp)
			return -1;
		lcp[0] = 0;
		for (size_t i = 1; i < n; i++)
			lcp[i] = (uint32_t)i;
		*lcp_out = lcp;
		*v_out = n - 1;
		return 0;
	}

	/* run[k] = b_k, the run before the k-th c; T the trailing run */
	run = malloc(K * sizeof *run);
	if (!run)
		goto out;
	T = runs_read(s, w, n, c, run, &lmax);

	/* the distinct run lengths, longest first: the segments of groups
	 * below, and the token codes: END(T) = 0, the closed runs' lengths
	 * 1, 2, ... longest first (pcnt: by segment, its code) */
	len = malloc(K * sizeof *len);
	seg = malloc(K * sizeof *seg);
	if (!len || !seg || runs_distinct(run, K, lmax, len, &D, seg) != 0)
		goto out;
	pcnt = calloc(D, sizeof *pcnt);
	if (!pcnt)
		goto out;
	for (size_t k = 1; k < K; k++)
		pcnt[seg[k]] = 1;
	{
		uint32_t d = 0;
		for (size_t i = 0; i < D; i++)
			if (pcnt[i])
				pcnt[i] = ++d;
		if (d >= 65535)
			goto out;
		tw = d < 256 ? 1 : 2;
	}
	if (K * tw >= (size_t)INT32_MAX)
		goto out;
	code = malloc(K * sizeof *code);
	if (!code)
		goto out;
	/* A[i] = b_{i+1} for i < K - 1, A[K-1] = END: U_k = A[k..K) */
	for (size_t i = 0; i + 1 < K; i++)
		code[i] = (uint16_t)pcnt[seg[i + 1]];
	code[K - 1] = 0;

	tsa = malloc(K * sizeof *tsa);
	if (!tsa || sort_tokens(code, K, tw, tsa) != 0)
		goto out;

	/* bl[r]: the bit LCP of the U's at ranks r - 1 and r (Kasai over the
	 * tokens; they agree on h whole tokens, then on the shorter of the two
	 * runs that differ, END's being T) */
	rank = malloc(K * sizeof *rank);
	pre = malloc(K * sizeof *pre);
	bl = malloc(K * sizeof *bl);
	if (!rank || !pre || !bl)
		goto out;
	for (size_t r = 0; r < K; r++)
		rank[tsa[r]] = (uint32_t)r;
	pre[0] = 0;   /* bits of A[0..i) */
	for (size_t i = 1; i < K; i++)
		pre[i] = pre[i - 1] + run[i] + 1;
	bl[0] = 0;
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
			li = i + h == K - 1 ? T : run[i + h + 1];
			lj = j + h == K - 1 ? T : run[j + h + 1];
			bl[rank[i]] = pre[i + h] - pre[i] + (uint32_t)(li < lj ? li : lj);
			h = h > 0 ? h - 1 : 0;
		}
	}
	free(rank);
	free(pre);
	free(code);
	rank = pre = NULL;
	code = NULL;

	/* the LCP array only now, when the token arrays have gone */
	lcp = bigmem_calloc(n, sizeof *lcp);
	if (!lcp)
		goto out;
	/* the trailing run: 0^1 $, ..., 0^T $ */
	for (size_t i = 1; i < T; i++)
		lcp[i] = (uint32_t)i;
	v = T > 1 ? T - 1 : 0;
	/* Then groups l = lmax .. 0; group l holds the k with run[k] >= l, in
	 * the order of their U_k.  The groups come in segments: segment i
	 * holds l in (len[i + 1], len[i]] (down to 0 for the last), whose
	 * groups all have the same msz[i] members, so group l of segment i
	 * starts at base[i] + (len[i] - l) msz[i], and the members placed so
	 * far in each of its groups are those placed with a run of len[i] or
	 * more.  No array over l: one run of 80M bits took 1 GB of them. */
	msz = malloc(D * sizeof *msz);
	base = malloc(D * sizeof *base);
	memset(pcnt, 0, D * sizeof *pcnt);
	/* the stack holds at most one run per member placed, and the first */
	g.hi = malloc((K + 2) * sizeof *g.hi);
	g.val = malloc((K + 2) * sizeof *g.val);
	if (!msz || !base || !g.hi || !g.val)
		goto out;
	for (size_t k = 0; k < K; k++)
		pcnt[seg[k]]++;
	{
		size_t pos = T, m = 0;

		for (size_t i = 0; i < D; i++) {
			m += pcnt[i];
			msz[i] = (uint32_t)m;
			base[i] = (uint32_t)pos;
			pos += (len[i] - (i + 1 < D ? (size_t)len[i + 1] : (size_t)-1)) * m;
		}
	}
	memset(pcnt, 0, D * sizeof *pcnt);   /* now: the members placed, by segment */
	g.hi[0] = (uint32_t)lmax;
	g.val[0] = RUNS_INF;
	g.top = 1;
	for (size_t r = 0, placed = 0; r < K; r++, placed++) {
		const uint32_t k = tsa[r], b = run[k];
		size_t i = D - 1, e, l = 0, done = placed;

		/* the runs are read in rank order: fetch ahead */
		if (r + 16 < K)
			__builtin_prefetch(&run[tsa[r + 16]]);
		if (r > 0)
			gmin_lower(&g, bl[r]);
		e = g.top - 1;
		/* write one LCP into each group 0..b, from l = 0 up, through the
		 * segments (from the last) and the runs of minima (from the
		 * top; the bottom one reaches lmax) */
		while (l <= b) {
			size_t end = b, slot;

			while (l > len[i])
				done -= pcnt[i--];
			while (l > g.hi[e])
				e--;
			end = len[i] < end ? len[i] : end;
			end = g.hi[e] < end ? g.hi[e] : end;
			/* (a local step: the stores to lcp could alias msz) */
			const size_t step = msz[i];
			slot = base[i] + (len[i] - l) * step + done;
			if (done > 0) {
				/* after the group's previous member */
				const uint32_t m = g.val[e];

				for (; l <= end; l++, slot -= step)
					lcp[slot] = (uint32_t)l + 1 + m;
				v = end + 1 + m > v ? end + 1 + m : v;
			} else {
				for (; l <= end; l++, slot -= step) {
					/* after group l + 1's last, or after 0^T $ */
					const size_t x = l < lmax ? l : T < lmax ? T : lmax;

					lcp[slot] = (uint32_t)x;
					v = x > v ? x : v;
				}
			}
		}
		pcnt[seg[k]]++;
		gmin_reset(&g, b);
	}
	lcp[0] = 0;   /* the first suffix has no predecessor */
	*lcp_out = lcp;
	lcp = NULL;
	*v_out = v;
	rc = 0;
out:
	free(run);
	free(tsa);
	free(rank);
	free(pre);
	free(bl);
	free(code);
	free(len);
	free(seg);
	free(msz);
	free(base);
	free(pcnt);
	free(g.hi);
	free(g.val);
	bigmem_free(lcp);
	return rc;
}
