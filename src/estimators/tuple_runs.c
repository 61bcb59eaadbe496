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
 * groups share l bits.  O(N + K log K) time, about 4N + 16K bytes. */
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

int tuple_lcp_runs(const uint8_t *s, size_t n, uint32_t **lcp_out, size_t *v_out)
{
	size_t ones = 0, K, T, lmax = 0, v = 0;
	unsigned c, w;
	uint32_t *run = NULL, *tsa = NULL, *rank = NULL, *bl = NULL, *pre = NULL, *lcp = NULL;
	uint32_t *start = NULL, *off = NULL;
	uint16_t *code = NULL, *code_of = NULL;
	struct gmin g = { NULL, NULL, 0 };
	int rc = -1;

	*lcp_out = NULL;
	if (n < 2 || n >= UINT32_MAX)
		return -1;
	for (size_t i = 0; i < n; i++)
		ones += s[i] & 1u;
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
	{
		size_t k = 0, len = 0;
		for (size_t i = 0; i < n; i++) {
			if ((s[i] & 1u) == c) {
				run[k++] = (uint32_t)len;
				if (len > lmax)
					lmax = len;
				len = 0;
			} else {
				len++;
			}
		}
		T = len;
	}

	/* token codes: END(T) = 0, closed runs 1.. with the longest first */
	code_of = calloc(lmax + 1, sizeof *code_of);
	code = malloc(K * sizeof *code);
	if (!code_of || !code)
		goto out;
	for (size_t k = 1; k < K; k++)
		code_of[run[k]] = 1;
	{
		uint32_t d = 0;
		for (size_t l = lmax + 1; l-- > 0;)
			if (code_of[l])
				code_of[l] = (uint16_t)++d;
		if (d >= 65535)
			goto out;
		w = d < 256 ? 1 : 2;
	}
	if (K * w >= (size_t)INT32_MAX)
		goto out;
	/* A[i] = b_{i+1} for i < K - 1, A[K-1] = END: U_k = A[k..K) */
	for (size_t i = 0; i + 1 < K; i++)
		code[i] = code_of[run[i + 1]];
	code[K - 1] = 0;
	free(code_of);
	code_of = NULL;

	tsa = malloc(K * sizeof *tsa);
	if (!tsa || sort_tokens(code, K, w, tsa) != 0)
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
	/* then groups l = lmax .. 0; group l holds the k with run[k] >= l */
	start = calloc(lmax + 2, sizeof *start);
	off = malloc((lmax + 1) * sizeof *off);
	g.hi = malloc((lmax + 1) * sizeof *g.hi);
	g.val = malloc((lmax + 1) * sizeof *g.val);
	if (!start || !off || !g.hi || !g.val)
		goto out;
	for (size_t k = 0; k < K; k++)
		start[run[k]]++;
	{
		size_t pos = T, above = 0;   /* members of groups > l */
		for (size_t l = lmax + 1; l-- > 0;) {
			above += start[l];   /* now: the size of group l */
			start[l] = (uint32_t)pos;
			off[l] = (uint32_t)pos;
			pos += above;
		}
	}
	g.hi[0] = (uint32_t)lmax;
	g.val[0] = RUNS_INF;
	g.top = 1;
	for (size_t r = 0; r < K; r++) {
		uint32_t k = tsa[r], b = run[k], l = 0;
		size_t e;

		/* the runs are read in rank order: fetch ahead */
		if (r + 16 < K)
			__builtin_prefetch(&run[tsa[r + 16]]);
		if (r > 0)
			gmin_lower(&g, bl[r]);
		/* write one LCP into each group 0..b, walking the runs of
		 * minima from l = 0 up */
		for (e = g.top; e-- > 0 && l <= b;) {
			uint32_t hi = g.hi[e] < b ? g.hi[e] : b, m = g.val[e];
			for (; l <= hi; l++) {
				uint32_t x;
				if (off[l] != start[l])
					x = l + 1 + m;   /* after the group's previous member */
				else if (l < lmax)
					x = l;           /* after group l + 1's last */
				else
					x = (uint32_t)(T < lmax ? T : lmax);   /* after 0^T $ */
				lcp[off[l]++] = x;
				if (x > v)
					v = x;
			}
		}
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
	free(code_of);
	free(start);
	free(off);
	free(g.hi);
	free(g.val);
	bigmem_free(lcp);
	return rc;
}
