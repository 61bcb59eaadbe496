/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_ties.c - the sorts of the packed suffix keys of tuple_packed.c
 * and the deep ties (see tuple_ties.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "estimators/tuple_ties.h"

void pkey_insertion(struct pkey *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (pkey_less(&a[i], &a[i - 1])) {
			struct pkey x = a[i];
			size_t j = i;

			do {
				a[j] = a[j - 1];
				j--;
			} while (j > 0 && pkey_less(&x, &a[j - 1]));
			a[j] = x;
		}
	}
}

void pkey_sort(struct pkey *a, size_t n)
{
	while (n > 16) {
		struct pkey piv, t;
		size_t i = 0, j = n - 1, m = n / 2;

		/* median of three as pivot */
		if (pkey_less(&a[m], &a[0])) { t = a[m]; a[m] = a[0]; a[0] = t; }
		if (pkey_less(&a[j], &a[0])) { t = a[j]; a[j] = a[0]; a[0] = t; }
		if (pkey_less(&a[j], &a[m])) { t = a[j]; a[j] = a[m]; a[m] = t; }
		piv = a[m];
		for (;;) {
			while (pkey_less(&a[i], &piv))
				i++;
			while (pkey_less(&piv, &a[j]))
				j--;
			if (i >= j)
				break;
			t = a[i]; a[i] = a[j]; a[j] = t;
			i++;
			j--;
		}
		/* recurse into the smaller part, loop on the larger */
		if (j + 1 < n - j - 1) {
			pkey_sort(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			pkey_sort(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	pkey_insertion(a, n);
}

/* A final bucket, its keys in position order.  The copies of a repeat
 * (equal keys, their byte ranks carried) come longest first, so by falling
 * rank: a bucket that is one group of copies (a counter's 39,000 copies of
 * each 64-bit window at 10M bytes, a block's 100) is reversed, in O(m),
 * rather than sorted (pkey_sort was 7% of assess on the counter). */
void pkey_sort_bucket(struct pkey *a, size_t m)
{
	size_t i = 1;

	while (i < m && pkey_less(&a[i], &a[i - 1]))
		i++;
	if (i < m) {
		pkey_sort(a, m);
		return;
	}
	for (size_t l = 0, r = m - 1; l < r; l++, r--) {
		struct pkey t = a[l];

		a[l] = a[r];
		a[r] = t;
	}
}

/* Suffixes that agree on their first 64 bits (deep ties) are ordered and
 * measured further.  Word by word is cheap for the odd repeat of real
 * data.  Past a budget of PACK_DEEP_SOFT word comparisons per bit of input,
 * or one repeat of PACK_DEEP_MAX bits, ties at the same offset within a
 * byte (all of them when the repeats are byte-aligned: repeated blocks,
 * counters) switch to the byte suffix ranks of deeprank.c, O(1) a pair
 * however long the repeat.  Ties at different offsets go on word by word
 * within PACK_DEEP_BUDGET comparisons per bit of input and PACK_DEEP_MAX
 * bits a pair; past that the input (bit patterns that repeat at every
 * offset) goes to the suffix array. */
#define PACK_DEEP_SOFT (1.0 / 16)
#define PACK_DEEP_BUDGET 2
#define PACK_DEEP_MAX 4096

void deepctx_init(struct deepctx *dc, const uint64_t *w, size_t n, int ranks_now)
{
	memset(dc, 0, sizeof *dc);
	dc->w = w;
	dc->n = n;
	dc->hard = PACK_DEEP_BUDGET * n;
	dc->soft = (size_t)(PACK_DEEP_SOFT * (double)n);
	dc->ranks_now = ranks_now;
}

void deepctx_free(struct deepctx *dc)
{
	if (dc->ranked)
		deeprank_free(&dc->dr);
	dc->ranked = 0;
}

/* Longest common prefix of the suffixes at a and b, known to agree on
 * their first 64 bits, word by word; *cmp gets their order (a shorter
 * suffix that is a prefix comes first).  Returns 0 when the budget or
 * PACK_DEEP_MAX runs out first. */
static int words_lcp(const struct deepctx *dc, size_t a, size_t b, size_t *budget, size_t *lcp,
		     int *cmp)
{
	size_t l = 64;

	for (;;) {
		size_t la = dc->n - a - l, lb = dc->n - b - l, m, c;
		uint64_t x, y, d;

		if (la == 0 || lb == 0) {
			*cmp = la < lb ? -1 : la > lb ? 1 : 0;
			*lcp = l;
			return 1;
		}
		if (*budget == 0 || l >= PACK_DEEP_MAX)
			return 0;
		--*budget;
		x = pack_window(dc->w, a + l);
		y = pack_window(dc->w, b + l);
		m = la < lb ? la : lb;
		if (m > 64)
			m = 64;
		d = x ^ y;
		c = d ? (size_t)__builtin_clzll(d) : 64;
		if (c < m) {
			*cmp = x < y ? -1 : 1;
			*lcp = l + c;
			return 1;
		}
		l += m;
	}
}

/* Order and LCP of the deep tie a, b (lcp NULL: the order only).  Returns
 * 0, or -1 with dc->over (the suffix array should answer) or dc->nomem set. */
static int deep_pair(struct deepctx *dc, size_t a, size_t b, size_t *lcp, int *cmp)
{
	uint32_t ka, kb;
	size_t l;

	if (!lcp)
		lcp = &l;   /* words_lcp finds it on the way anyway */
	if (((a ^ b) & 7) != 0) {
		if (words_lcp(dc, a, b, &dc->hard, lcp, cmp))
			return 0;
		dc->over = 1;
		return -1;
	}
	if (!dc->ranked) {
		if (!dc->ranks_now && words_lcp(dc, a, b, &dc->soft, lcp, cmp))
			return 0;
		if (deeprank_init(&dc->dr, dc->w, dc->n) != 0) {
			dc->nomem = 1;
			return -1;
		}
		dc->ranked = 1;
	}
	ka = deeprank_key(&dc->dr, a);
	kb = deeprank_key(&dc->dr, b);
	*cmp = ka < kb ? -1 : 1;
	if (lcp != &l)
		*lcp = deeprank_lcp(&dc->dr, a, b, ka, kb);
	return 0;
}

static int deep_cmp(const void *pa, const void *pb, void *arg)
{
	const struct pkey *a = pa, *b = pb;
	int c = 0;

	deep_pair(arg, a->pos, b->pos, NULL, &c);   /* a failure is read after the sort */
	return c;
}

/* Orders a deep tie group g[0..m-1] and sets gl[i] to the LCP of g[i - 1]
 * and g[i]; carried: the keys hold their byte ranks.  Returns 0 or -1 (see
 * deep_pair). */
int deepctx_order(struct deepctx *dc, struct pkey *g, size_t m, uint32_t *gl, int carried)
{
	int aligned = 1;

	for (size_t i = 1; i < m; i++)
		if (((g[i].pos ^ g[0].pos) & 7) != 0)
			aligned = 0;
	if (aligned && (carried || dc->ranked)) {
		uint64_t key = g[0].key;

		/* carried: pkey_sort has ordered them by their ranks already;
		 * else sort on the ranks in place of the (equal) keys */
		for (size_t i = 0; !carried && i < m; i++)
			g[i].key = deeprank_key(&dc->dr, g[i].pos);
		if (!carried)
			pkey_sort(g, m);
#define TIE_RANK(i) (carried ? g[i].aux >> 7 : (uint32_t)g[i].key)
		/* the LCPs of those ranks are read at random: ask for them all
		 * first */
		for (size_t i = 1; i < m; i++)
			__builtin_prefetch(&dc->dr.lcp[TIE_RANK(i)]);
		for (size_t i = 1; i < m; i++)
			gl[i] = (uint32_t)deeprank_lcp(&dc->dr, g[i - 1].pos, g[i].pos, TIE_RANK(i - 1),
						       TIE_RANK(i));
#undef TIE_RANK
		for (size_t i = 0; !carried && i < m; i++)
			g[i].key = key;
		return 0;
	}
	qsort_r(g, m, sizeof *g, deep_cmp, dc);
	if (dc->over || dc->nomem)
		return -1;
	for (size_t i = 1; i < m; i++) {
		size_t l;
		int c;

		if (deep_pair(dc, g[i - 1].pos, g[i].pos, &l, &c) != 0)
			return -1;
		gl[i] = (uint32_t)l;
	}
	return 0;
}
