/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_est_tuple.c - 90B 6.3.5 t-tuple and 6.3.6 LRS.
 *
 * The suffix-structure code is checked against a brute-force count of
 * every t-tuple (quadratic, fine for a few hundred samples) that applies
 * the 90B definitions directly: Q[t] = count of the most common t-tuple,
 * u = the first t with Q[t] < 35, v = the longest repeated substring,
 * P_t = (Q[t]/(N-t+1))^(1/t), P_W = (sum C(c,2) / C(N-W+1,2))^(1/W).
 * Both sorting methods (suffix array, packed 64-bit keys) must agree with
 * it on random and repetitive input, and with each other on long inputs.
 * The degenerate cases were worked by hand (comments). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/deeprank.h"
#include "estimators/lcpint.h"
#include "estimators/lcpshallow.h"
#include "estimators/tuple.h"
#include "estimators/tuple_dist.h"
#include "estimators/tuple_prefix.h"
#include "tap.h"

struct brute {
	size_t v, u;
	int tuple_ok, lrs_ok;
	double tuple_p, lrs_p;
};

static int cmp_mem_len;
static const uint8_t *cmp_base;

static int cmp_pos(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return memcmp(cmp_base + x, cmp_base + y, (size_t)cmp_mem_len);
}

static void brute_force(const uint8_t *s, size_t n, struct brute *b)
{
	size_t *pos = malloc(n * sizeof *pos);
	size_t *q = calloc(n + 1, sizeof *q);
	double *sw = calloc(n + 1, sizeof *sw);
	double pmax;

	b->v = 0;
	for (size_t t = 1; t < n; t++) {
		size_t m = n - t + 1, run = 1, best = 1;
		double pairs = 0;

		for (size_t i = 0; i < m; i++)
			pos[i] = i;
		cmp_base = s;
		cmp_mem_len = (int)t;
		qsort(pos, m, sizeof *pos, cmp_pos);
		for (size_t i = 1; i <= m; i++) {
			if (i < m && memcmp(s + pos[i], s + pos[i - 1], t) == 0) {
				run++;
			} else {
				pairs += (double)run * (double)(run - 1) / 2;
				if (run > best)
					best = run;
				run = 1;
			}
		}
		q[t] = best;
		sw[t] = pairs;
		if (best >= 2)
			b->v = t;
		else
			break;
	}
	for (b->u = 1; b->u <= b->v && q[b->u] >= 35; b->u++)
		;
	pmax = -1;
	for (size_t i = 1; i < b->u; i++) {
		double p = pow((double)q[i] / (double)(n - i + 1), 1.0 / (double)i);
		if (p > pmax)
			pmax = p;
	}
	b->tuple_ok = pmax > 0;
	b->tuple_p = pmax;
	b->lrs_ok = b->v >= b->u && b->v > 0;
	pmax = 0;
	for (size_t w = b->u; b->lrs_ok && w <= b->v; w++) {
		double p = pow(sw[w] / ((double)(n - w) * (double)(n - w + 1) / 2), 1.0 / (double)w);
		if (p > pmax)
			pmax = p;
	}
	b->lrs_p = pmax;
	free(pos);
	free(q);
	free(sw);
}

static double dx(const struct est_result *r, const char *key)
{
	for (int i = 0; i < r->ndetails; i++)
		if (strcmp(r->detail[i].key, key) == 0)
			return r->detail[i].x;
	return NAN;
}

static void against_brute(const char *what, const uint8_t *s, size_t n, unsigned k,
			  enum tuple_method m)
{
	struct brute b;
	struct est_result t, l;
	struct err e;
	int ok;

	brute_force(s, n, &b);
	if (tuple_lrs_run(s, n, k, m, &t, &l, &e) != 0) {
		tap_ok(0, "%s: runs (%s)", what, e.msg);
		return;
	}
	ok = t.applicable == b.tuple_ok && l.applicable == b.lrs_ok;
	if (ok && b.tuple_ok)
		ok = (size_t)dx(&t, "t") == b.u - 1 && fabs(dx(&t, "p-hat_max") - b.tuple_p) <= 1e-12;
	if (ok && b.lrs_ok)
		ok = (size_t)dx(&l, "u") == b.u && (size_t)dx(&l, "v") == b.v &&
		     fabs(dx(&l, "p-hat") - b.lrs_p) <= 1e-12;
	if (!tap_ok(ok, "%s: t, u, v and both p-hats equal the brute-force count", what))
		printf("# brute u=%zu v=%zu tuple %d %.17g lrs %d %.17g; got tuple %d t=%g %.17g lrs %d u=%g v=%g %.17g\n",
		       b.u, b.v, b.tuple_ok, b.tuple_p, b.lrs_ok, b.lrs_p, t.applicable, dx(&t, "t"),
		       dx(&t, "p-hat_max"), l.applicable, dx(&l, "u"), dx(&l, "v"), dx(&l, "p-hat"));
}

static uint64_t rng = 88172645463325252ULL;
static unsigned rnd(unsigned k)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % k);
}

static void test_brute(void)
{
	uint8_t s[600];
	const char *mname[] = { "", "suffix array", "packed", "packed, ranks", "runs",
				"packed, stack", "packed, shallow", "count" };

	for (int m = TUPLE_SUFFIX_ARRAY; m <= TUPLE_COUNT; m++) {
		char what[128];

		for (int rep = 0; rep < 3; rep++) {
			for (size_t i = 0; i < sizeof s; i++)
				s[i] = (uint8_t)rnd(2);
			snprintf(what, sizeof what, "%s, 600 random bits #%d", mname[m], rep);
			against_brute(what, s, sizeof s, 2, (enum tuple_method)m);
		}
		/* biased bits: long runs of zeros, repeats longer than 64 bits */
		for (size_t i = 0; i < sizeof s; i++)
			s[i] = rnd(10) == 0;
		snprintf(what, sizeof what, "%s, 600 bits with P(1) = 0.1", mname[m]);
		against_brute(what, s, sizeof s, 2, (enum tuple_method)m);
		/* a 100-bit block repeated: v = 500 */
		for (size_t i = 0; i < 100; i++)
			s[i] = (uint8_t)rnd(2);
		for (size_t i = 100; i < sizeof s; i++)
			s[i] = s[i - 100];
		snprintf(what, sizeof what, "%s, a 100-bit block repeated 6 times", mname[m]);
		against_brute(what, s, sizeof s, 2, (enum tuple_method)m);
	}
	for (size_t i = 0; i < 400; i++)
		s[i] = (uint8_t)rnd(4);
	against_brute("suffix array, 400 random 2-bit symbols", s, 400, 4, TUPLE_SUFFIX_ARRAY);
	for (size_t i = 0; i < 300; i++)
		s[i] = (uint8_t)rnd(3) ? 0 : (uint8_t)rnd(256);
	against_brute("suffix array, 300 bytes, mostly zero", s, 300, 256, TUPLE_SUFFIX_ARRAY);
}

static const uint8_t *sfx_base;
static size_t sfx_n;

static int cmp_suffix(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t lx = sfx_n - x, ly = sfx_n - y;
	int c = memcmp(sfx_base + x, sfx_base + y, lx < ly ? lx : ly);

	return c ? c : lx < ly ? -1 : 1;
}

/* 90B 6.3.5 and 6.3.6 for inputs too long for brute_force, two other ways:
 * Q[t] from a plainly sorted suffix list (the longest run of adjacent
 * LCPs >= t, plus one), and S[W] by diagonals: the pairs (i, i + d) whose
 * suffixes share l symbols, from the matches along each diagonal d
 * (O(n^2)), give S[W] = the pairs with l >= W.  Returns the LRS p-hat;
 * *tuple_p gets the t-tuple's (-1 when no t). */
static double long_reference(const uint8_t *s, size_t n, size_t *u_out, size_t *v_out,
			     double *tuple_p)
{
	uint64_t *atleast = calloc(n + 2, sizeof *atleast);
	size_t *sa = malloc(n * sizeof *sa), *lcp = calloc(n, sizeof *lcp);
	size_t v = 0, u;
	double pmax = 0;

	for (size_t d = 1; d < n; d++) {
		size_t run = 0;

		for (size_t i = n - d; i-- > 0;) {
			run = s[i] == s[i + d] ? run + 1 : 0;
			atleast[run]++;   /* the pair (i, i + d) shares run symbols */
			if (run > v)
				v = run;
		}
	}
	for (size_t l = n; l-- > 0;)   /* pairs with l or more */
		atleast[l] += atleast[l + 1];
	for (size_t i = 0; i < n; i++)
		sa[i] = i;
	sfx_base = s;
	sfx_n = n;
	qsort(sa, n, sizeof *sa, cmp_suffix);
	for (size_t i = 1; i < n; i++)
		while (sa[i] + lcp[i] < n && sa[i - 1] + lcp[i] < n &&
		       s[sa[i] + lcp[i]] == s[sa[i - 1] + lcp[i]])
			lcp[i]++;
	*tuple_p = -1;
	for (u = 1; u <= v; u++) {
		size_t run = 1, best = 1;
		double p;

		for (size_t i = 1; i < n; i++) {
			run = lcp[i] >= u ? run + 1 : 1;
			if (run > best)
				best = run;
		}
		if (best < 35)
			break;
		p = pow((double)best / (double)(n - u + 1), 1.0 / (double)u);
		if (p > *tuple_p)
			*tuple_p = p;
	}
	for (size_t w = u; w <= v; w++) {
		double p = pow((double)atleast[w] / ((double)(n - w) * (double)(n - w + 1) / 2),
			       1.0 / (double)w);
		if (p > pmax)
			pmax = p;
	}
	*u_out = u;
	*v_out = v;
	free(atleast);
	free(sa);
	free(lcp);
	return pmax;
}

/* Long repeats (u and v in the thousands): the maxima are found from Q
 * and S sampled every 64 lengths and one more walk over the blocks the
 * samples cannot settle; every method must give the reference's. */
static void test_long_repeats(void)
{
	const size_t n = 6000;
	uint8_t *s = malloc(n);
	const char *mname[] = { "", "suffix array", "packed", "packed, ranks", "runs",
				"packed, stack", "packed, shallow", "count" };
	/* block lengths: byte-aligned and not; up to 35 copies and more */
	const size_t blocks[] = { 800, 1000, 1237, 2000, 3001, 100, 152 };

	for (size_t bi = 0; bi < sizeof blocks / sizeof *blocks; bi++) {
		size_t u, v;
		double p, tp;

		for (size_t i = 0; i < n; i++)
			s[i] = i < blocks[bi] ? (uint8_t)rnd(2) : s[i - blocks[bi]];
		if (bi == 2 || bi == 6)   /* break one copy: two candidates */
			s[4000] ^= 1;
		p = long_reference(s, n, &u, &v, &tp);
		for (int m = TUPLE_SUFFIX_ARRAY; m <= TUPLE_COUNT; m++) {
			struct est_result t, l;
			struct err e;
			int ok;

			tuple_lrs_run(s, n, 2, (enum tuple_method)m, &t, &l, &e);
			ok = l.applicable && (size_t)dx(&l, "u") == u && (size_t)dx(&l, "v") == v &&
			     fabs(dx(&l, "p-hat") - p) <= 1e-12;
			ok = ok && (tp < 0 ? !t.applicable
					   : t.applicable && (size_t)dx(&t, "t") == u - 1 &&
						     fabs(dx(&t, "p-hat_max") - tp) <= 1e-12);
			if (!tap_ok(ok, "%s, a %zu-bit block repeated to 6000 bits: t = %zu, u = %zu, v = %zu "
				    "and both p-hats equal the reference", mname[m], blocks[bi], u - 1, u, v))
				printf("# got t=%g u=%g v=%g p-hats %.17g %.17g, want %.17g %.17g\n", dx(&t, "t"),
				       dx(&l, "u"), dx(&l, "v"), dx(&t, "p-hat_max"), dx(&l, "p-hat"), tp, p);
		}
	}
	free(s);
}

/* S[W] and Q[W] straight from a list of adjacent LCPs: every maximal run
 * of r LCPs >= W is a run of r + 1 items sharing W symbols, C(r + 1, 2)
 * pairs; Q is the longest such run (in items; 0 when there is none). */
static uint64_t s_from_lcps(const uint32_t *lcp, size_t m, size_t w, uint64_t *q)
{
	uint64_t sum = 0, run = 0;

	*q = 0;
	for (size_t i = 0; i <= m; i++) {
		if (i < m && lcp[i] >= w) {
			run++;
		} else {
			sum += run * (run + 1) / 2;
			if (run > 0 && run + 1 > *q)
				*q = run + 1;
			run = 0;
		}
	}
	return sum;
}

/* The largest size + depth of a run whose depth (its least LCP) is in
 * [lo, hi], from a list of adjacent LCPs: 0 when there is none. */
static uint64_t reach_from_lcps(const uint32_t *lcp, size_t m, size_t lo, size_t hi)
{
	uint64_t best = 0;

	for (size_t l = lo; l <= hi; l++) {
		uint64_t run = 0, least = UINT64_MAX;

		for (size_t i = 0; i <= m; i++) {
			if (i < m && lcp[i] >= l) {
				run++;
				least = lcp[i] < least ? lcp[i] : least;
			} else {
				if (run > 0 && least == l && run + 1 + l > best)
					best = run + 1 + l;
				run = 0;
				least = UINT64_MAX;
			}
		}
	}
	return best;
}

/* The interval walk's three views of Q and S (lcpint.c): exact below 64,
 * sampled at 64 j, and windows that clip deeper intervals, on LCP lists
 * that crowd every boundary (63, 64, 127, 128, ...). */
/* The LCP array from tuple_runs_next (lcp[0] = 0; the caller frees it),
 * taken chunk LCPs at a time (resuming anywhere in the order), twice
 * (tuple_runs_rewind must give the same again); v its largest entry.  0,
 * or -1 when tuple_runs_new declines or the two passes differ. */
static int runs_lcp_array(const uint8_t *s, const uint64_t *w, size_t n, size_t chunk, uint32_t **lcp_out,
			  size_t *v_out)
{
	struct tuple_runs *r;
	uint32_t *lcp, *again, *buf;
	size_t v = 0;
	int rc = 0;

	*lcp_out = NULL;
	if (tuple_runs_new(s, w, n, &r) != 0)
		return -1;
	lcp = calloc(n, sizeof *lcp);
	again = calloc(n, sizeof *again);
	buf = malloc(chunk * sizeof *buf);
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *to = pass ? again : lcp;
		size_t at = n, got;

		if (pass)
			tuple_runs_rewind(r);
		/* the order comes from the end: lcp[n - 1], ..., lcp[1] */
		while ((got = tuple_runs_next(r, buf, chunk)) > 0) {
			if (got > chunk || got > at - 1) {
				rc = 1;
				break;
			}
			for (size_t i = 0; i < got; i++)
				to[at - 1 - i] = buf[i];
			at -= got;
		}
		rc |= at != 1;
	}
	free(buf);
	rc |= memcmp(lcp, again, n * sizeof *lcp) != 0;
	for (size_t i = 1; i < n; i++)
		v = lcp[i] > v ? lcp[i] : v;
	tuple_runs_free(r);
	free(again);
	*lcp_out = lcp;
	*v_out = v;
	return rc ? -1 : 0;
}

/* tuple_runs.c's LCP array equals that of a plain suffix sort, of the
 * input itself when 1 is the rarer bit, else of its complement (whose order
 * the runs give: complementing keeps every interval, so Q and S) */
static void test_runs_lcp(void)
{
	static uint8_t s[46000], x[46000];
	static size_t sa[46000];

	for (int c = 0; c < 16; c++) {
		size_t n = c < 2 ? 1 + (size_t)c * 299 : 2 + rnd(698), ones = 0, v = 0, want_v = 0;
		const char *kname[] = { "constant", "one 1", "skewed to 0", "skewed to 1", "random",
					"repeats", "300 run lengths, two-byte tokens",
					"a few ones, long runs (some equal)" };
		unsigned kind = c == 12 ? 6 : c > 12 ? 7 : (unsigned)c % 6;
		uint32_t *lcp = NULL;
		int ok = 1;

		for (size_t i = 0; i < n; i++) {
			switch (kind) {
			case 0: s[i] = 0; break;                                /* constant */
			case 1: s[i] = i == n / 3; break;                       /* one 1 */
			case 2: s[i] = rnd(10) == 0; break;                     /* skewed */
			case 3: s[i] = rnd(10) != 0; break;                     /* skewed to 1 */
			case 4: s[i] = (uint8_t)rnd(2); break;
			default: s[i] = i < 40 ? rnd(6) == 0 : s[i - 40]; break;   /* repeats */
			}
			ones += s[i];
		}
		if (c == 7)
			s[n - 1] = 1;   /* no trailing run */
		if (kind == 7) {
			/* runs far longer than a few per one, so the distinct
			 * lengths are sorted, not tabled: 5 ones after runs of
			 * 150, 150, 3, 150 and 40, then 60 more (or none) */
			static const unsigned len[5] = { 150, 150, 3, 150, 40 };
			n = 0;
			for (unsigned i = 0; i < 5; i++) {
				memset(s + n, 0, len[i]);
				n += len[i];
				s[n++] = 1;
			}
			if (c != 14) {
				memset(s + n, 0, 60);
				n += 60;
			}
			if (c == 15)   /* the rarer bit 0 */
				for (size_t i = 0; i < n; i++)
					s[i] = (uint8_t)!s[i];
		}
		if (c == 12) {
			/* runs of 300 lengths, each closed by a 1: two-byte tokens */
			unsigned len[300];
			for (unsigned i = 0; i < 300; i++)
				len[i] = i;
			for (unsigned i = 299; i > 0; i--) {
				unsigned j = rnd(i + 1), tmp = len[i];
				len[i] = len[j];
				len[j] = tmp;
			}
			n = 0;
			for (unsigned i = 0; i < 300; i++) {
				memset(s + n, 0, len[i]);
				n += len[i];
				s[n++] = 1;
			}
		}
		ones = 0;
		for (size_t i = 0; i < n; i++)
			ones += s[i];
		for (size_t i = 0; i < n; i++) {
			x[i] = ones <= n - ones ? s[i] : (uint8_t)!s[i];
			sa[i] = i;
		}
		sfx_base = x;
		sfx_n = n;
		qsort(sa, n, sizeof *sa, cmp_suffix);
		if (n < 2) {
			ok = runs_lcp_array(s, NULL, n, 4096, &lcp, &v) != 0 && lcp == NULL;
			tap_ok(ok, "runs LCP: %zu bits declined", n);
			continue;
		}
		/* chunks of every size: the order stops and resumes anywhere */
		ok = runs_lcp_array(s, NULL, n, 1 + (size_t)c * c * c % 4096, &lcp, &v) == 0 && lcp[0] == 0;
		/* the same from the packed bits, and so for each of the 64
		 * prefixes ending in the last word or two (every place the last
		 * word can end) */
		for (size_t cut = 0; cut < 64 && cut + 2 <= n; cut++) {
			const size_t m = n - cut;
			uint64_t *w = est_pack_bits(s, m);
			uint32_t *lb = NULL, *lw = NULL;
			size_t vb = 0, vw = 0;
			int rb = runs_lcp_array(s, NULL, m, 4096, &lb, &vb);
			int rw = w ? runs_lcp_array(NULL, w, m, 1 + cut, &lw, &vw) : -1;
			if (rb != rw || vb != vw || (rb == 0 && memcmp(lb, lw, m * sizeof *lb) != 0)) {
				printf("# %zu packed bits: another LCP array\n", m);
				ok = 0;
			}
			free(w);
			free(lb);
			free(lw);
		}
		for (size_t i = 1; ok && i < n; i++) {
			size_t a = sa[i - 1], b = sa[i], l = 0;
			while (a + l < n && b + l < n && x[a + l] == x[b + l])
				l++;
			if (l > want_v)
				want_v = l;
			if (lcp[i] != l) {
				printf("# lcp[%zu] = %u, want %zu\n", i, lcp[i], l);
				ok = 0;
			}
		}
		tap_ok(ok && v == want_v, "runs LCP: %zu bits, %zu ones (%s): every LCP and v = %zu",
		       n, ones, kname[kind], want_v);
		free(lcp);
	}
}

static void test_lcpint_views(void)
{
	enum { M = 3000 };
	static uint32_t lcp[M];
	int bad_fine = 0, bad_sample = 0, bad_window = 0, bad_deep = 0, bad_reach = 0, reached = 0;

	for (int rep = 0; rep < 20; rep++) {
		struct lcpint co, win;
		size_t wlo = 60 + rnd(80), whi = wlo + rnd(120), qlo = 60 + rnd(80), qhi = qlo + rnd(120);
		size_t deep = 0;
		uint64_t q, qs;

		for (size_t i = 0; i < M; i++) {
			unsigned base = 64 * rnd(4);
			lcp[i] = rnd(4) == 0 ? rnd(6) : base + rnd(5) - (base ? 2 : 0);
		}
		for (size_t i = 0; rep >= 10 && i < M;) {
			/* chains of ever deeper intervals opened at consecutive
			 * suffixes (runs on lcpint's stack), each cut back to a
			 * depth anywhere along it (a run closed in part) */
			unsigned d = (unsigned)rnd(40), step = 1 + (unsigned)rnd(5), len = 2 + (unsigned)rnd(150);

			for (unsigned k = 0; k < len && i < M; k++, i++)
				lcp[i] = d + k * step;
			if (i < M)
				lcp[i++] = (uint32_t)rnd(d + len * step + 1);
		}
		if (lcpint_init(&co, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0 ||
		    lcpint_init(&win, qlo, qhi, wlo, whi, rep % 2 ? LCPINT_NARROW : 0) != 0) {
			tap_ok(0, "lcpint_init");
			return;
		}
		co.qmin = 5;
		for (size_t i = 0; i < M; i++) {
			lcpint_step(&co, lcp[i]);
			lcpint_step(&win, lcp[i]);
		}
		lcpint_step(&co, 0);
		lcpint_step(&win, 0);
		lcpint_sum(&co, LCPINT_STRIDE - 1);
		lcpint_sum(&win, whi);
		for (size_t w = 1; w < LCPINT_STRIDE; w++) {
			bad_fine += lcpint_s(&co, w) != s_from_lcps(lcp, M, w, &q);
			bad_fine += lcpint_q(&co, w) != q;
			if (q >= 5)
				deep = w;
		}
		for (size_t j = 1; j * LCPINT_STRIDE <= co.v; j++) {
			const uint64_t me = reach_from_lcps(lcp, M, j * LCPINT_STRIDE, j * LCPINT_STRIDE + 63);

			bad_sample += lcpint_s_sample(&co, j) != s_from_lcps(lcp, M, j * LCPINT_STRIDE, &q);
			bad_sample += lcpint_q_sample(&co, j) != q;
			bad_reach += lcpint_reach_sample(&co, j) != me;
			reached += me > 0;
		}
		for (size_t w = wlo; w <= whi; w++)
			bad_window += lcpint_s(&win, w) != s_from_lcps(lcp, M, w, &q);
		for (size_t t = qlo; t <= qhi; t++) {
			s_from_lcps(lcp, M, t, &q);
			bad_window += lcpint_q(&win, t) != q;
		}
		for (size_t t = LCPINT_STRIDE; t <= co.v; t++) {
			s_from_lcps(lcp, M, t, &qs);
			if (qs >= 5)
				deep = t;
		}
		bad_deep += co.qdeep != deep;
		lcpint_free(&co);
		lcpint_free(&win);
	}
	tap_ok(bad_fine == 0, "lcpint: Q and S below 64 equal the counts from the LCP runs (%d wrong)",
	       bad_fine);
	tap_ok(bad_sample == 0, "lcpint: Q and S sampled at 64 j equal the counts from the LCP runs (%d wrong)",
	       bad_sample);
	tap_ok(bad_window == 0, "lcpint: Q and S in windows equal the counts from the LCP runs (%d wrong)",
	       bad_window);
	tap_ok(bad_deep == 0, "lcpint: the deepest run of 5 or more is the one the LCP runs give (%d wrong)",
	       bad_deep);
	tap_ok(bad_reach == 0 && reached > 20,
	       "lcpint: the largest size + depth per 64 depths is the LCP runs' (%d wrong, %d blocks with runs)",
	       bad_reach, reached);
}

/* lcpshallow.c with lcpint's stack floored at 63 must leave in lcpint all
 * that the stack alone leaves there: Q and S at every depth below 64, the
 * samples at 64 j, the deepest run of qmin, v; on LCP lists that crowd 63
 * and 64, fed in pieces of every size, flushing its 32-bit sums after 1 to
 * 64 suffixes, with the AVX-512 loop and the portable one. */
static void test_lcpshallow_views(void)
{
	enum { M = 3000 };
	static uint32_t lcp[M];
	static uint8_t l8[M];
	int bad[2] = { 0, 0 }, runs[2] = { 0, 0 };

	for (int simd = 0; simd < 2; simd++) {
		if (lcpshallow_simd(simd) != simd)
			continue;
		for (int rep = 0; rep < 20; rep++) {
			struct lcpint st, fl;
			struct lcpshallow sh;

			for (size_t i = 0; i < M; i++) {
				unsigned base = 64 * rnd(4);
				lcp[i] = rnd(4) == 0 ? rnd(6) : base + rnd(5) - (base ? 2 : 0);
				if (rep % 4 == 3)
					lcp[i] = 58 + rnd(9);   /* runs that span the floor */
				l8[i] = (uint8_t)(lcp[i] < 64 ? lcp[i] : 63);
			}
			if (lcpint_init(&st, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0 ||
			    lcpint_init(&fl, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0) {
				tap_ok(0, "lcpint_init");
				return;
			}
			st.qmin = fl.qmin = 5;
			lcpint_set_floor(&fl, LCPSHALLOW_DEPTHS - 1);
			lcpshallow_init(&sh, M + 1);
			if (rep % 3 == 0)
				sh.every = 1 + (unsigned)rep % 7;
			for (size_t i = 0; i < M; i++) {
				lcpint_step(&st, lcp[i]);
				lcpint_step(&fl, lcp[i] < 64 ? 63 : lcp[i]);
			}
			for (size_t i = 0; i < M;) {
				size_t k = rnd(2) ? rnd(4) : rnd(300);

				k = k < M - i ? k : M - i;
				lcpshallow_feed(&sh, l8 + i, k);
				i += k;
			}
			lcpint_step(&st, 0);
			lcpint_step(&fl, LCPSHALLOW_DEPTHS - 1);
			lcpshallow_finish(&sh, &fl);
			lcpint_sum(&st, LCPINT_STRIDE - 1);
			lcpint_sum(&fl, LCPINT_STRIDE - 1);
			for (size_t t = 1; t < LCPINT_STRIDE; t++)
				bad[simd] += lcpint_q(&st, t) != lcpint_q(&fl, t) ||
					     lcpint_s(&st, t) != lcpint_s(&fl, t);
			for (size_t j = 1; j * LCPINT_STRIDE <= st.v; j++)
				bad[simd] += lcpint_q_sample(&st, j) != lcpint_q_sample(&fl, j) ||
					     lcpint_s_sample(&st, j) != lcpint_s_sample(&fl, j);
			bad[simd] += st.v != fl.v || st.qdeep != fl.qdeep;
			runs[simd]++;
			lcpint_free(&st);
			lcpint_free(&fl);
		}
	}
	lcpshallow_simd(1);
	tap_ok(runs[0] == 20 && bad[0] == 0,
	       "lcpshallow, portable loop: what lcpint keeps equals the stack walk's (%d wrong)", bad[0]);
	if (runs[1] == 0)
		tap_skip("lcpshallow, AVX-512 loop: this CPU has no AVX-512F");
	else
		tap_ok(bad[1] == 0, "lcpshallow, AVX-512 loop: what lcpint keeps equals the stack walk's (%d wrong)",
		       bad[1]);
}

/* A digest of what the packed scan leaves for tuple_finish(): rc, v, the
 * deepest run of 35, Q and S below 64, the samples and the deep LCPs. */
static uint64_t packed_digest(const uint8_t *s, size_t n, int flags)
{
	struct lcpint st;
	struct tuple_deep deep = { NULL, 0, 0 };
	struct err e;
	int rc;

	memset(&st, 0, sizeof st);   /* a scan that hands back early leaves it as is */
	rc = tuple_scan_packed(s, n, &st, &deep, flags, &e);
	uint64_t h = (uint64_t)rc + 0x9e3779b97f4a7c15ULL;

#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3ULL)
	if (rc == 1) {
		lcpint_sum(&st, LCPINT_STRIDE - 1);
		MIX(st.v);
		MIX(st.qdeep);
		for (size_t t = 1; t < LCPINT_STRIDE; t++) {
			MIX(lcpint_q(&st, t));
			MIX(lcpint_s(&st, t));
		}
		for (size_t j = 1; j * LCPINT_STRIDE <= st.v; j++) {
			MIX(lcpint_q_sample(&st, j));
			MIX(lcpint_s_sample(&st, j));
		}
		/* the values in order, whatever runs hold them */
		for (size_t r = 0; r < deep.len; r++)
			for (uint32_t k = 0; k < deep.run[r].count; k++)
				MIX(tuple_deep_at(&deep.run[r], k));
	}
#undef MIX
	lcpint_free(&st);
	free(deep.run);
	return h;
}

/* The packed scan's two walks (the stack at every depth; lcpshallow below
 * 64, portable and AVX-512) leave the same on long inputs: random bits,
 * random bits with copies of 40 to 2000 bits (deep ties), one of them
 * ending at the last bit (the short suffixes), and a long block repeated
 * with a few flips, and the largest keys of some top buckets in deep ties
 * (a tie group that ends a bucket stays open into the next). */
static void test_packed_walks(void)
{
	const size_t n = 400000;
	uint8_t *s = malloc(n);

	for (int c = 0; c < 5; c++) {
		uint64_t stack, portable, simd;
		const char *what[] = { "random", "random with 60 copies", "a copy at the end",
				       "a 5000-bit block repeated, 1 bit in 997 flipped",
				       "random with 0^8 1^72 twice: deep ties that end top buckets" };

		for (size_t i = 0; i < n; i++)
			s[i] = c == 3 && i >= 5000 ? s[i - 5000] ^ (rnd(997) == 0) : (uint8_t)rnd(2);
		for (int k = 0; (c == 1 || c == 2) && k < 60; k++) {
			size_t len = 40 + rnd(1960), from = rnd((unsigned)(n - len)), to = rnd((unsigned)(n - len));

			memmove(s + to, s + from, len);
		}
		if (c == 2)
			memcpy(s + n - 1000, s + 5000, 1000);
		for (size_t i = 0; c == 4 && i < 80; i++)
			s[1000 + i] = s[200000 + i] = i >= 8;
		stack = packed_digest(s, n, TUPLE_SCAN_STACK);
		lcpshallow_simd(0);
		portable = packed_digest(s, n, TUPLE_SCAN_SHALLOW);
		lcpshallow_simd(1);
		simd = packed_digest(s, n, TUPLE_SCAN_SHALLOW);
		tap_ok(stack == portable && stack == simd,
		       "packed scan of %zu bits (%s): the stack walk and lcpshallow's (portable%s) leave the same",
		       n, what[c], lcpshallow_usable() ? ", AVX-512" : "");
	}
	free(s);
}

/* The packed scan's prefix test (tuple_packed.c), portable and AVX-512,
 * where the keys do not fit one pass: 2.2M bits (the last 64-bit word
 * partial, and a block of eight words past the last full one), random
 * with copies that make deep ties across the passes' prefixes.  Both give
 * what the suffix array gives: t, u, v and both p-hats. */
static void test_packed_prefix(void)
{
	const size_t n = 2200037;
	uint8_t *s = malloc(n);
	struct est_result t[3], l[3];
	const char *how[] = { "suffix array", "packed, portable prefix test", "packed, AVX-512 prefix test" };

	for (size_t i = 0; i < n; i++)
		s[i] = (uint8_t)rnd(2);
	for (int k = 0; k < 40; k++) {
		size_t len = 40 + rnd(3000), from = rnd((unsigned)(n - len)), to = rnd((unsigned)(n - len));

		memmove(s + to, s + from, len);
	}
	for (int c = 0; c < 3; c++) {
		struct err e;

		if (c)
			tuple_prefix_simd(c == 2);
		tuple_lrs_run(s, n, 2, c ? TUPLE_PACKED : TUPLE_SUFFIX_ARRAY, &t[c], &l[c], &e);
	}
	tuple_prefix_simd(1);
	for (int c = 1; c < 3; c++) {
		int ok = t[c].applicable == t[0].applicable && l[c].applicable && l[0].applicable;
		const char *keys[] = { "u", "v", "p-hat" };

		for (int k = 0; ok && k < 3; k++)
			ok = dx(&l[c], keys[k]) == dx(&l[0], keys[k]);
		ok = ok && (!t[0].applicable || (dx(&t[c], "t") == dx(&t[0], "t") &&
						dx(&t[c], "p-hat_max") == dx(&t[0], "p-hat_max")));
		if (c == 2 && !tuple_prefix_simd(1))
			tap_skip("packed, AVX-512 prefix test: this CPU has no AVX-512F");
		else if (!tap_ok(ok, "%s on %zu bits in several passes equals the %s: u = %g, v = %g", how[c], n,
				 how[0], dx(&l[0], "u"), dx(&l[0], "v")))
			printf("# got u=%g v=%g p-hat %.17g, want %.17g\n", dx(&l[c], "u"), dx(&l[c], "v"),
			       dx(&l[c], "p-hat"), dx(&l[0], "p-hat"));
	}
	free(s);
}

/* The t-tuple and LRS results of the suffix array (t[0], l[0]) and of the
 * counting road (t[1], l[1]) on the bits s[0..n): 1 when they agree,
 * applicability and every detail, to the last bit. */
static int count_equals_suffix_array(const uint8_t *s, size_t n, struct est_result t[2],
				     struct est_result l[2])
{
	struct err e;
	int ok;

	for (int m = 0; m < 2; m++)
		tuple_lrs_run(s, n, 2, m ? TUPLE_COUNT : TUPLE_SUFFIX_ARRAY, &t[m], &l[m], &e);
	ok = t[0].applicable == t[1].applicable && l[0].applicable == l[1].applicable &&
	     t[0].ndetails == t[1].ndetails && l[0].ndetails == l[1].ndetails;
	for (int k = 0; ok && k < t[0].ndetails; k++)
		ok = t[0].detail[k].x == t[1].detail[k].x;
	for (int k = 0; ok && k < l[0].ndetails; k++)
		ok = l[0].detail[k].x == l[1].detail[k].x;
	return ok;
}

/* tuple_count_words on the bits s[0..n) answers (1) or declines (0) as
 * `answers` says, and the counting road's results equal the suffix
 * array's, figure for figure. */
static void count_vs_suffix_array(const uint8_t *s, size_t n, int answers, const char *what)
{
	struct est_result t[2], l[2];
	struct lcpint st;
	struct tuple_dist dist = { .len = NULL };
	struct err e;
	uint64_t *w = est_pack_bits(s, n);
	int ok, rc;

	memset(&st, 0, sizeof st);
	rc = tuple_count_words(w, n, &st, &dist, &e);
	lcpint_free(&st);
	tuple_dist_free(&dist);
	free(w);
	ok = count_equals_suffix_array(s, n, t, l);
	if (!tap_ok(ok && rc == answers, "%s: %s, results equal the suffix array's (t = %g, v = %g)", what,
		    answers ? "answers" : "declines", dx(&t[0], "t"), dx(&l[0], "v")))
		printf("# rc %d; got t=%g v=%g p-hats %.17g %.17g, want %.17g %.17g\n", rc, dx(&t[1], "t"),
		       dx(&l[1], "v"), dx(&t[1], "p-hat_max"), dx(&l[1], "p-hat"), dx(&t[0], "p-hat_max"),
		       dx(&l[0], "p-hat"));
}

/* The counting road (tuple_count.c) against the suffix array, result for
 * result, where it answers itself (tuple_count_words returns 1) and where
 * it declines: random bits of lengths that end mid-word, biased bits (a
 * deeper t-tuple), repeats of 40 to 63 bits (long LCPs, below 64), one of
 * them ending at the last bit (the later suffix the shorter: the LCP capped
 * by what is left), and the declines: a repeat of 64 bits or more, a window
 * 35 times. */
static void test_count(void)
{
	static const struct {
		size_t n;
		unsigned ones;     /* P(1) in 1/1000 */
		size_t copy;       /* a copy of this many bits (0: none) */
		int at_end;        /* the copy's second place ends at the last bit */
		int answers;       /* tuple_count_words answers (1) or declines (0) */
	} cases[] = {
		{ 64, 500, 0, 0, 1 },
		{ 600, 500, 0, 0, 1 },
		{ 4097, 500, 0, 0, 1 },
		{ 65537, 500, 0, 0, 1 },
		{ 300001, 500, 0, 0, 1 },
		{ (size_t)1 << 20, 500, 0, 0, 1 },
		{ 200003, 400, 0, 0, 1 },
		{ 1000003, 350, 0, 0, 1 },   /* T-bit windows 35 times: Q past T from their entries */
		{ 200000, 500, 40, 0, 1 },
		{ 200000, 500, 63, 1, 1 },
		{ 200000, 500, 40, 1, 1 },
		{ 200000, 500, 63, 0, 1 },
		{ 200000, 500, 64, 0, 1 },   /* 64 and more: by distance */
		{ 200000, 500, 500, 1, 1 },
		{ 100000, 120, 0, 0, 0 },
		/* four groups of positions, one pass over the bits each */
		{ 4500001, 500, 0, 0, 1 },
		{ 4500001, 500, 50, 1, 1 },
		{ 4500001, 500, 70, 0, 1 },
		{ 4500001, 400, 0, 0, 0 },   /* a top bucket overflows: declines */
	};
	uint8_t *s = malloc(4500001);

	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		const size_t n = cases[c].n;
		char what[160];

		for (size_t i = 0; i < n; i++)
			s[i] = rnd(1000) < cases[c].ones;
		if (cases[c].copy) {
			size_t len = cases[c].copy, from = 1000;
			size_t to = cases[c].at_end ? n - len : n / 2;

			memcpy(s + to, s + from, len);
			/* the bits around the copies differ: the repeat is
			 * exactly len bits */
			s[to - 1] = (uint8_t)!s[from - 1];
			if (to + len < n)
				s[to + len] = (uint8_t)!s[from + len];
			/* at the end: zeros after the first place, as the
			 * padding after the last bit, so that only the length
			 * left stops the LCP at len */
			for (size_t i = len; cases[c].at_end && i <= 64; i++)
				s[from + i] = 0;
		}
		snprintf(what, sizeof what, "count road, %zu bits, P(1) = %.3f%s%s", n, cases[c].ones / 1000.0,
			 cases[c].copy ? ", a repeat" : "", cases[c].at_end ? " at the end" : "");
		count_vs_suffix_array(s, n, cases[c].answers, what);
	}
	free(s);
}

/* The counting road's repeats by distance (tuple_dist.c): blocks repeated
 * 2 to 3,000 times answer (one distance: its runs, or its multiples), with
 * Q past 64 where a window has 35 copies or more (6.3.5 goes on past 63);
 * so do a broken copy of a long block repeated fewer than 35 times (by the
 * multiples), two blocks at two distances, and 010 repeated.  Broken
 * copies of blocks repeated 35 times or more decline (chains pass between
 * the runs, or copies lie at several distances), as do copies at nine
 * distances (more than COUNT_DISTS) and copies whose gaps differ (a pair
 * 2 gaps apart is at no kept distance or multiple: the runs fall short of
 * the pairs the chains met). */
/* A block of bits repeated from the start to the end, and whether the
 * counting road answers it. */
struct repeat_case {
	size_t block;
	int answers;
	const char *what;
};

static void test_count_distances(void)
{
	const size_t n = 300001;
	uint8_t *s = malloc(n);
	static const struct repeat_case blocks[] = {
		{ 150001, 1, "a block repeated twice" },
		{ 30011, 1, "a 30,011-bit block repeated 10 times" },
		{ 8824, 1, "an 8,824-bit block repeated 34 times" },
		{ 8571, 1, "an 8,571-bit block repeated 35 times and more" },
		{ 4093, 1, "a 4,093-bit block repeated 73 times" },
		{ 100, 1, "a 100-bit block repeated 3,000 times" },
		{ 3, 1, "010 repeated" },
	};
	char what[160];

	for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++) {
		for (size_t i = 0; i < n; i++)
			s[i] = i < blocks[b].block ? (uint8_t)rnd(2) : s[i - blocks[b].block];
		snprintf(what, sizeof what, "count road, %zu bits, %s", n, blocks[b].what);
		count_vs_suffix_array(s, n, blocks[b].answers, what);
	}
	/* blocks with one bit flipped in a middle copy */
	static const struct repeat_case broken[] = {
		{ 20000, 1, "a 20,000-bit block repeated, one copy broken" },
		/* around the flip a window's copies are 100 or 150 bits apart */
		{ 50, 0, "a 50-bit block repeated, one copy broken" },
		{ 4093, 0, "a 4,093-bit block repeated 73 times, one copy broken" },
	};
	for (size_t b = 0; b < sizeof broken / sizeof *broken; b++) {
		for (size_t i = 0; i < n; i++)
			s[i] = i < broken[b].block ? (uint8_t)rnd(2) : s[i - broken[b].block];
		s[100003] ^= 1;
		snprintf(what, sizeof what, "count road, 300,001 bits, %s", broken[b].what);
		count_vs_suffix_array(s, n, broken[b].answers, what);
	}
	/* two halves, each a block repeated: two distances */
	for (size_t i = 0; i < n; i++)
		s[i] = i < 17000 || (i >= 150000 && i < 150000 + 23000) ? (uint8_t)rnd(2)
		       : i < 150000 ? s[i - 17000] : s[i - 23000];
	count_vs_suffix_array(s, n, 1, "count road, 300,001 bits, blocks repeated at two distances");
	/* nine 1,000-bit repeats, each at its own distance */
	for (size_t i = 0; i < n; i++)
		s[i] = (uint8_t)rnd(2);
	for (size_t r = 0; r < 9; r++)
		memcpy(s + 150000 + r * 15000, s + 1000 + r * 3000, 1000);
	count_vs_suffix_array(s, n, 0, "count road, 300,001 bits, repeats at nine distances");
	/* three copies of 2,000 bits with gaps 40,000 and 70,000 */
	for (size_t i = 0; i < n; i++)
		s[i] = (uint8_t)rnd(2);
	memcpy(s + 50000, s + 10000, 2000);
	memcpy(s + 120000, s + 10000, 2000);
	/* the bits around them: the first two copies agree before, the last
	 * two after, so no 64-bit window is shared by the first and the last
	 * alone (that would keep their distance, 110,000) */
	s[9999] = s[49999] = 0;
	s[119999] = 1;
	s[12000] = 0;
	s[52000] = s[122000] = 1;
	count_vs_suffix_array(s, n, 0, "count road, 300,001 bits, three copies at uneven gaps");
	free(s);
}

/* The periodic road (tuple_period.c) answers on bits that repeat one
 * period from the first bit to the last (010; a byte counter's 2,048 bits;
 * a 4,093-bit block, with an end mid-period), and declines where two
 * phases agree on 64 bits (a 300-bit period whose halves begin alike) or
 * the first 64 bits recur before the period (the counting road then
 * declines too: copies at two distances, 35 times and more); the results
 * equal the suffix array's either way. */
static void test_period_road(void)
{
	const size_t n = 200003;
	uint8_t *s = malloc(n);
	uint8_t blk[4093];
	static const struct {
		size_t period;
		int alike;   /* 1: the second half begins as the first; 2: the first 64 bits again at 100 */
		int answers;
		const char *what;
	} cases[] = {
		{ 3, 0, 1, "010 repeated" },
		{ 2048, 0, 1, "a byte counter's bits" },
		{ 4093, 0, 1, "a 4,093-bit block repeated" },
		{ 300, 1, 0, "a 300-bit period whose halves begin with the same 80 bits" },
		{ 300, 2, 0, "a 300-bit period whose first 64 bits recur at 100" },
	};

	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		const size_t per = cases[c].period;
		struct lcpint st;
		struct tuple_dist td = { .len = NULL };
		struct err e;
		uint64_t *w;
		char what[160];
		int rc;

		for (size_t i = 0; i < per; i++)
			blk[i] = per == 3 ? (uint8_t)(i == 1)
				 : per == 2048 ? (uint8_t)((i / 8) >> (7 - i % 8) & 1u) : (uint8_t)rnd(2);
		if (cases[c].alike == 1)
			memcpy(blk + 150, blk, 80);
		if (cases[c].alike == 2)
			memcpy(blk + 100, blk, 64);
		for (size_t i = 0; i < n; i++)
			s[i] = blk[i % per];
		w = est_pack_bits(s, n);
		memset(&st, 0, sizeof st);
		rc = tuple_period_words(w, n, &st, &td, &e);
		lcpint_free(&st);
		tuple_dist_free(&td);
		free(w);
		tap_ok(rc == cases[c].answers, "periodic road, %zu bits, %s: %s", n, cases[c].what,
		       cases[c].answers ? "answers" : "declines");
		snprintf(what, sizeof what, "count road, %zu bits, %s", n, cases[c].what);
		count_vs_suffix_array(s, n, cases[c].answers, what);
	}
	free(s);
}

/* The counting road against the suffix array on 400 bitstrings of up to
 * 6,000 bits built to hit its roads: a block of 1 to 5,000 bits repeated,
 * a few bits flipped, a random patch, one more copy somewhere; every
 * figure equal (by one distance, by the multiples, the periodic road, or
 * declined). */
static void test_count_stress(void)
{
	uint8_t *s = malloc(6100);
	int bad = 0;

	for (int c = 0; c < 400; c++) {
		const size_t n = 64 + rnd(6000);
		const size_t per = 1 + rnd(c % 3 == 0 ? 40 : c % 3 == 1 ? 700 : 5000);
		const unsigned flips = rnd(4);
		struct est_result t[2], l[2];
		int ok;

		for (size_t i = 0; i < n; i++)
			s[i] = i < per ? (uint8_t)rnd(2) : s[i - per];
		for (unsigned f = 0; f < flips; f++)
			s[rnd((unsigned)n)] ^= 1;
		if (rnd(4) == 0) {
			const size_t a = rnd((unsigned)n), len = rnd(300);

			for (size_t i = 0; a + len < n && i < len; i++)
				s[a + i] = (uint8_t)rnd(2);
		}
		if (rnd(5) == 0) {
			const size_t from = rnd((unsigned)n), to = rnd((unsigned)n), len = 64 + rnd(500);

			if (from + len < n && to + len < n)
				memmove(s + to, s + from, len);
		}
		ok = count_equals_suffix_array(s, n, t, l);
		if (!ok) {
			printf("# case %d: %zu bits, period %zu, %u flips: t %g / %g, v %g / %g\n", c, n, per, flips,
			       dx(&t[0], "t"), dx(&t[1], "t"), dx(&l[0], "v"), dx(&l[1], "v"));
			bad++;
		}
	}
	tap_ok(bad == 0, "count road: 400 repeated, broken and patched bitstrings, results equal the suffix array's");
	free(s);
}

/* tuple_dist.c on its own: S[W] from the runs of a few distances equals a
 * plain count of the pairs (i, i + d) whose LCP is W or more, on bits with
 * long agreements that start and end mid-word and run to the end. */
static void test_dist_runs(void)
{
	enum { N = 5000 };
	static const size_t dists[] = { 64, 700, 1001, 2500 };
	uint8_t *bit = malloc(N);
	uint64_t *w = calloc(N / 64 + 2, sizeof *w);
	struct tuple_dist td = { .len = NULL };
	static uint64_t hist[N + 2];   /* pairs by LCP, then with LCP >= W */
	int bad = 0;

	for (size_t i = 0; i < N; i++)
		bit[i] = i < 700 ? (uint8_t)rnd(2) : bit[i - 700];
	for (int k = 0; k < 6; k++)
		bit[rnd(N)] ^= 1;
	for (size_t i = 0; i < N; i++)
		w[i / 64] |= (uint64_t)bit[i] << (63 - i % 64);
	for (size_t d = 0; d < sizeof dists / sizeof *dists; d++)
		bad |= tuple_dist_scan(&td, w, N, dists[d]) != 0;
	bad |= tuple_dist_finish(&td) != 0;
	/* LCP(i, i + d) backwards: one more than at i + 1 where the bits agree */
	for (size_t d = 0; d < sizeof dists / sizeof *dists; d++) {
		size_t l = 0;

		for (size_t i = N - dists[d]; i-- > 0;) {
			l = bit[i] == bit[i + dists[d]] ? l + 1 : 0;
			hist[l]++;
		}
	}
	for (size_t wl = N; wl-- > 64;)
		hist[wl] += hist[wl + 1];
	for (size_t wl = 64; !bad && wl <= N; wl++) {
		if (tuple_dist_s(&td, wl) != hist[wl]) {
			printf("# W = %zu: %llu, want %llu\n", wl, (unsigned long long)tuple_dist_s(&td, wl),
			       (unsigned long long)hist[wl]);
			bad = 1;
		}
	}
	bad |= td.pairs != hist[64];
	tap_ok(!bad && td.v > 64, "tuple_dist: S[W] from the runs of 4 distances equals the pairs counted bit by bit");
	tuple_dist_free(&td);
	free(bit);
	free(w);
}

/* deeprank.c on its own: for pairs of bit positions at the same offset
 * within a byte that agree on the rest of that byte, the byte-rank order
 * and LCP equal a plain bit-by-bit comparison (ends included). */
static void test_deeprank(void)
{
	enum { NB = 3000 };
	const size_t n = 8 * NB - 5;   /* a partial last byte */
	uint8_t *bit = malloc(n);
	uint64_t *w = calloc(n / 64 + 2, sizeof *w);
	struct deeprank dr;
	int bad_order = 0, bad_lcp = 0, pairs = 0;

	/* a 40-byte block repeated, with a few flips: long and broken repeats */
	for (size_t i = 0; i < n; i++)
		bit[i] = i < 320 ? (uint8_t)rnd(2) : bit[i - 320];
	for (int k = 0; k < 20; k++)
		bit[rnd((unsigned)n)] ^= 1;
	for (size_t i = 0; i < n; i++)
		w[i / 64] |= (uint64_t)bit[i] << (63 - i % 64);
	if (deeprank_init(&dr, w, n) != 0) {
		tap_ok(0, "deeprank_init");
		return;
	}
	for (int k = 0; k < 20000; k++) {
		size_t a = rnd((unsigned)(n - 16)), b = (a & ~(size_t)7) + 8 * rnd((unsigned)(NB - 2)) + (a & 7);
		size_t l = 0, r = 8 - (a & 7);

		if (b >= n - 8 || a == b)
			continue;
		while (a + l < n && b + l < n && bit[a + l] == bit[b + l])
			l++;
		if (l < r)
			continue;   /* they must agree on the rest of their first byte */
		pairs++;
		{
			uint32_t ka = deeprank_key(&dr, a), kb = deeprank_key(&dr, b);
			/* bit order: the first difference, or the shorter first */
			int want = a + l == n ? -1 : b + l == n ? 1 : bit[a + l] < bit[b + l] ? -1 : 1;

			bad_order += (ka < kb ? -1 : 1) != want;
			bad_lcp += deeprank_lcp(&dr, a, b, ka, kb) != l;
		}
	}
	deeprank_free(&dr);
	tap_ok(pairs > 1000 && bad_order == 0 && bad_lcp == 0,
	       "deeprank: order and LCP of %d same-offset pairs equal a bit-by-bit comparison "
	       "(%d, %d wrong)", pairs, bad_order, bad_lcp);
	free(bit);
	free(w);
}

/* Figures of NIST's ea_non_iid -a -vv for one domain. */
struct nist_fig {
	double t, p_tuple, u, v, p_lrs;
};

static int fig_equal(const struct est_result *t, const struct est_result *l, const struct nist_fig *f)
{
	return dx(t, "t") == f->t && fabs(dx(t, "p-hat_max") - f->p_tuple) <= 1e-15 &&
	       dx(l, "u") == f->u && dx(l, "v") == f->v && fabs(dx(l, "p-hat") - f->p_lrs) <= 1e-15;
}

/* n 8-bit samples: their bitstring by the packed order and by the suffix
 * array, and the samples themselves, against NIST's figures. */
static void against_nist(const char *what, const uint8_t *lit, size_t n, const struct nist_fig *bit,
			 const struct nist_fig *sym)
{
	static const enum tuple_method ms[] = { TUPLE_AUTO, TUPLE_SUFFIX_ARRAY, TUPLE_RUNS };
	static const char *mname[] = { "packed", "suffix array", "runs" };
	uint8_t *bits = malloc(8 * n);
	struct est_result t, l;
	struct err e;

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			bits[8 * i + (size_t)b] = (uint8_t)(lit[i] >> (7 - b) & 1);
	for (int i = 0; i < 3; i++) {
		tuple_lrs_run(bits, 8 * n, 2, ms[i], &t, &l, &e);
		if (!tap_ok(fig_equal(&t, &l, bit),
			    "%s, bitstring, %s: t = %.0f, u = %.0f, v = %.0f, both p-hats as NIST's", what,
			    mname[i], bit->t, bit->u, bit->v))
			printf("# got t=%g u=%g v=%g p-hats %.17g %.17g\n", dx(&t, "t"), dx(&l, "u"),
			       dx(&l, "v"), dx(&t, "p-hat_max"), dx(&l, "p-hat"));
	}
	tuple_lrs_run(lit, n, 256, TUPLE_AUTO, &t, &l, &e);
	tap_ok(fig_equal(&t, &l, sym), "%s, literal: t = %.0f, v = %.0f, both p-hats as NIST's", what,
	       sym->t, sym->v);
	free(bits);
}

/* 300,000 bytes counting 0..255 over and over: u and v run into the
 * millions for the 2.4M-bit bitstring (the packed order's byte ranks, the
 * sampled walk and its second pass all at full scale).  NIST's figures for
 * that file (bits inferred: 8). */
static void test_counter_vs_nist(void)
{
	static const struct nist_fig bit = { 2330368, 0.999996740586280058146, 2330369, 2397952,
					     0.9999967544608524974508 };
	static const struct nist_fig sym = { 291296, 0.9999810630679459947387, 291297, 299744,
					     0.9999810487824079501375 };
	const size_t n = 300000;
	uint8_t *lit = malloc(n);

	for (size_t i = 0; i < n; i++)
		lit[i] = (uint8_t)(i % 256);
	against_nist("counter", lit, n, &bit, &sym);
	free(lit);
}

/* A 30,000-byte block (xorshift64, seed 0x9E3779B97F4A7C15, top bytes)
 * repeated 10 times: u small, v = 2,160,000 bits, the LRS maximum among
 * millions of lengths.  NIST's figures for that file (bits inferred: 8),
 * which took it 18 minutes. */
static void test_blocks_vs_nist(void)
{
	static const struct nist_fig bit = { 23, 0.619804131087472345732, 24, 2160000,
					     0.9999935725686900304509 };
	static const struct nist_fig sym = { 2, 0.0141421591940159157689, 3, 270000,
					     0.9999565890732418130238 };
	const size_t blk = 30000, n = 10 * blk;
	uint8_t *lit = malloc(n);
	uint64_t x = 0x9E3779B97F4A7C15ULL;

	for (size_t i = 0; i < blk; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		lit[i] = (uint8_t)(x >> 56);
	}
	for (size_t i = blk; i < n; i++)
		lit[i] = lit[i - blk];
	against_nist("10 x 30,000 random bytes", lit, n, &bit, &sym);
	free(lit);
}

static void test_degenerate(void)
{
	uint8_t s[256];
	uint8_t *big;
	struct est_result t, l, t2, l2;
	struct err e;
	size_t n;

	/* 256 distinct symbols: nothing repeats (v = 0): both not applicable */
	for (int i = 0; i < 256; i++)
		s[i] = (uint8_t)i;
	tuple_lrs_run(s, 256, 256, TUPLE_AUTO, &t, &l, &e);
	tap_ok(!t.applicable && !l.applicable, "all-distinct symbols: t-tuple and LRS not applicable (%s)",
	       t.reason);

	/* 100 zeros: Q[t] = 101 - t >= 35 up to t = 66, so t = 66, u = 67,
	 * v = 99; every P is 1: p_u = 1, h = 0 for both */
	memset(s, 0, 100);
	tuple_lrs_run(s, 100, 2, TUPLE_SUFFIX_ARRAY, &t, &l, &e);
	tap_eq_long((long long)dx(&t, "t"), 66, "100 zeros: t = 66 (Q[66] = 35)");
	tap_eq_long((long long)dx(&l, "v"), 99, "100 zeros: v = 99");
	tap_near(t.h, 0, 0, "100 zeros: t-tuple h = 0");
	tap_near(l.h, 0, 0, "100 zeros: LRS h = 0");

	/* 40 samples, every symbol 4 times (0..9 repeated): Q[1] = 4 < 35, u = 1:
	 * t-tuple has no t; v = 30 >= u, LRS runs */
	for (int i = 0; i < 40; i++)
		s[i] = (uint8_t)(i % 10);
	tuple_lrs_run(s, 40, 10, TUPLE_AUTO, &t, &l, &e);
	tap_ok(!t.applicable, "no tuple occurs 35 times: t-tuple not applicable (%s)", t.reason);
	tap_eq_long((long long)dx(&l, "v"), 30, "0..9 four times: v = 30");

	tuple_lrs_run(s, 1, 10, TUPLE_AUTO, &t, &l, &e);
	tap_ok(!t.applicable && !l.applicable, "one sample: not applicable");

	/* 3,000,000 bits of period 2: the packed order gives up (every suffix
	 * repeats for ~N bits) and the suffix array answers: t = u-1 with u
	 * = N - 68, v = N - 2, h = 0 */
	n = 3000000;
	big = malloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = (uint8_t)(i & 1);
	tuple_lrs_run(big, n, 2, TUPLE_PACKED, &t, &l, &e);
	tap_eq_long((long long)dx(&l, "v"), (long long)n - 2, "period-2 bits: v = N - 2");
	tap_near(l.h, 0, 1e-12, "period-2 bits: LRS h = 0");
	/* long random bits with one 1600-bit stretch copied (the packed order
	 * compares those suffixes word by word): packed and suffix array agree
	 * exactly, and v is at least the copy's length */
	for (size_t i = 0; i < n; i++)
		big[i] = (uint8_t)rnd(2);
	memcpy(big + 2000000, big + 1000, 1600);
	tuple_lrs_run(big, n, 2, TUPLE_PACKED, &t, &l, &e);
	tuple_lrs_run(big, n, 2, TUPLE_SUFFIX_ARRAY, &t2, &l2, &e);
	tap_ok(dx(&t, "t") == dx(&t2, "t") && t.h == t2.h && dx(&l, "u") == dx(&l2, "u") &&
	       dx(&l, "v") == dx(&l2, "v") && l.h == l2.h && dx(&l, "v") >= 1600,
	       "3M random bits + a 1600-bit copy: packed and suffix array identical (t=%g, v=%g)",
	       dx(&t, "t"), dx(&l, "v"));
	free(big);
}

/* The deep list's runs (tuple.h) give back every value pushed, in order:
 * progressions up and down (the copies of a repeat), values and steps
 * that wrap past 2^32, 63 markers between them, lone values, a step of 0;
 * and periodic input takes at most two runs per progression. */
static void test_deep_runs(void)
{
	enum { N = 200000 };
	uint32_t *v = malloc(N * sizeof *v);
	uint64_t x = 0x2545f4914f6cdd1dULL;
	size_t n = 0, progs = 0, lone = 0, bad = 0, total = 0;
	struct tuple_deep d = { NULL, 0, 0 };

	while (n < N) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (x % 5) {
		case 0:   /* a lone value, or a marker */
			v[n++] = x & 64 ? 63u : (uint32_t)(x >> 20);
			lone++;
			break;
		default: {   /* a progression: a repeat's copies, or a run of equal LCPs */
			uint32_t first = (uint32_t)(x >> 32), step = x % 5 == 1 ? 0u : (uint32_t)(x >> 8);
			size_t len = 2 + (size_t)(x >> 40) % 3000;

			if (x % 5 == 2)
				first = UINT32_MAX - 5u;   /* wraps on its way */
			for (size_t k = 0; k < len && n < N; k++)
				v[n++] = first + (uint32_t)k * step;
			progs++;
			break;
		}
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!tuple_deep_extend(&d, v[i]) && tuple_deep_new_run(&d, v[i]) != 0)
			bad++;
	for (size_t r = 0, i = 0; r < d.len; r++)
		for (uint32_t k = 0; k < d.run[r].count; k++, i++) {
			bad += i >= n || tuple_deep_at(&d.run[r], k) != v[i];
			total++;
		}
	tap_ok(bad == 0 && total == n, "deep list: %zu values through %zu runs come back in order", n, d.len);
	tap_ok(d.len <= 2 * progs + lone, "deep list: %zu runs for %zu progressions and %zu lone values",
	       d.len, progs, lone);
	free(d.run);
	free(v);
}

/* tuple_pow_near_one against pow() on the terms of long runs: p = count /
 * den as tuple.c forms it (den the t-tuples or their pairs of 10^4 to
 * 10^9 samples, count a little below it) and r = 1.0 / i for lengths up to
 * den.  Where it is sure, pow() must give hi exactly; where not, a
 * neighbour of hi at most.  Most terms must be sure (the point of it). */
static void test_pow_near_one(void)
{
	uint64_t x = 0x853c49e6748fea9bULL;
	long sure = 0, tried = 0, wrong = 0;

	for (int k = 0; k < 2000000; k++) {
		uint64_t den, count, i;
		double p, r, v, ref;
		int bad;
		x = x * 6364136223846793005u + 1442695040888963407u;
		den = 10000 + (x >> 20) % 1000000000;
		x = x * 6364136223846793005u + 1442695040888963407u;
		i = 1 + ((x >> 20) % den >> (x >> 4) % 32);   /* lengths spread over every scale */
		if (k % 5 == 0)
			den = den * (den + 1) / 2;   /* LRS: pairs */
		x = x * 6364136223846793005u + 1442695040888963407u;
		count = den - (x >> 8) % (k % 3 == 0 ? 4 : k % 3 == 1 ? 100 : den / 1048576 + 1);
		p = (double)count / (double)den;
		r = 1.0 / (double)i;
		if (!(p >= 1.0 - 0x1p-20 && p <= 1.0))
			continue;
		tried++;
		ref = pow(p, r);
		if (tuple_pow_near_one(p, r, &v)) {
			sure++;
			bad = ref != v;
		} else {
			bad = ref != v && ref != nextafter(v, 0.0) && ref != nextafter(v, 2.0);
		}
		if (bad && wrong++ < 3)
			printf("# p %a r %a: pow %a, hi %a\n", p, r, ref, v);
	}
	tap_ok(wrong == 0 && tried > 1000000 && sure > tried / 2,
	       "pow near 1: the series' double is pow()'s on %ld of %ld terms, a neighbour at most on the rest",
	       sure, tried);
}

/* tuple_block_below's promise, where it is tightest: a block it settles
 * holds no term above pmax.  Its hardest term is the bound's own, pow(p,
 * 1.0 / b1), so with pmax that double or one to two below it, settling
 * must mean the term is not above pmax; with pmax the term itself it
 * should settle nearly always (else the bound keeps what it need not:
 * the old slack of 16 ulps kept ~40% of a stuck source's blocks).  p near
 * 1 (the series) and below it (pow() with a slack), b1 at every scale. */
static void test_block_below(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	long wrong = 0, tried = 0, tight = 0;

	for (int k = 0; k < 400000; k++) {
		double p, v, pmax;
		size_t b1;

		x = x * 6364136223846793005u + 1442695040888963407u;
		b1 = 64 + ((x >> 16) % 100000000 >> (x >> 8) % 24);
		x = x * 6364136223846793005u + 1442695040888963407u;
		p = k % 4 == 0 ? 0.5 + (double)(x >> 11) * 0x1p-54
			       : 1.0 - (double)((x >> 11) % (k % 4 == 1 ? 64 : 1u << 20)) * 0x1p-40;
		v = pow(p, 1.0 / (double)b1);
		for (int d = 0; d < 4; d++) {
			pmax = d == 0 ? v : d == 1 ? nextafter(v, 0.0) : d == 2 ? nextafter(nextafter(v, 0.0), 0.0)
										   : nextafter(v, 2.0);
			if (tuple_block_below(p, b1, pmax) && v > pmax && wrong++ < 3)
				printf("# p %a b1 %zu: pow %a settled under %a\n", p, b1, v, pmax);
		}
		if (p >= TUPLE_NEAR_ONE) {
			tried++;
			tight += tuple_block_below(p, b1, v);
		}
	}
	tap_ok(wrong == 0 && tight > tried * 9 / 10,
	       "block bound: no settled block's term above pmax; near 1, %ld of %ld settled at their own term",
	       tight, tried);
}

/* The blocks the first walk's bounds settle (tuple_block_below) never
 * hold a term above the maximum: with every block walked instead, t, u, v
 * and both p-hats are the same doubles.  Stuck bits with a few flips put
 * every term within a few dozen ulps of 1, where the bounds are tightest
 * (exact powers from the series, and Q's bound from size + depth): at 10M
 * samples of 8 bits they settle every block but one.  Glitches at either
 * end, in the middle, several, and random bits before or after the run
 * move the maximum's length and where it falls between doubles. */
static void test_near_one_blocks(void)
{
	const size_t n = 3000000;
	uint8_t *s = malloc(n);
	const char *what[] = { "a flip at the end", "a flip at the start", "a flip in the middle",
			       "two flips", "16 flips", "random bits first", "random bits last",
			       "16 random bits at the end", "ones, a flip at a third",
			       "a 1000-bit block repeated", "a 4321-bit block repeated, one copy broken" };

	for (unsigned c = 0; c < sizeof what / sizeof *what; c++) {
		const uint8_t base = c == 8 ? 1 : 0;
		const size_t blk = c == 9 ? 1000 : 4321, len = c >= 9 ? 300000 : n;
		struct est_result t[2], l[2];
		struct err e;
		int ok = 1;

		memset(s, base, n);
		switch (c) {
		case 0: s[n - 1] ^= 1; break;
		case 1: s[0] ^= 1; break;
		case 2: s[n / 2] ^= 1; break;
		case 3: s[1000] ^= 1; s[n - 5000] ^= 1; break;
		case 4: for (int k = 0; k < 16; k++) s[rnd((unsigned)n)] ^= 1; break;
		case 5: for (size_t i = 0; i < 2000; i++) s[i] = (uint8_t)rnd(2); break;
		case 6: for (size_t i = n - 2000; i < n; i++) s[i] = (uint8_t)rnd(2); break;
		case 7: for (size_t i = n - 16; i < n; i++) s[i] = (uint8_t)rnd(2); s[n - 1] = 1; break;
		case 8: s[n / 3] ^= 1; break;
		default:
			/* plateaus of Q that end inside blocks of 64: the maxima
			 * lie between the samples */
			for (size_t i = 0; i < len; i++)
				s[i] = i < blk ? (uint8_t)rnd(2) : s[i - blk];
			if (c == 10)
				s[len / 2] ^= 1;
			break;
		}
		for (int all = 0; all < 2; all++) {
			tuple_settle_blocks(!all);
			ok = ok && tuple_lrs_run(s, len, 2, TUPLE_AUTO, &t[all], &l[all], &e) == 0;
		}
		tuple_settle_blocks(1);
		ok = ok && t[0].applicable && t[1].applicable && l[0].applicable == l[1].applicable &&
		     dx(&t[0], "t") == dx(&t[1], "t") && dx(&t[0], "p-hat_max") == dx(&t[1], "p-hat_max");
		if (ok && l[0].applicable)
			ok = dx(&l[0], "u") == dx(&l[1], "u") && dx(&l[0], "v") == dx(&l[1], "v") &&
			     dx(&l[0], "p-hat") == dx(&l[1], "p-hat");
		if (!tap_ok(ok, "%zu bits, %s: the settled blocks change no maximum (t = %g, p-hat %.17g)", len,
			    what[c], dx(&t[0], "t"), dx(&t[0], "p-hat_max")))
			printf("# every block: t = %g, p-hats %.17g %.17g; settled: %.17g\n", dx(&t[1], "t"),
			       dx(&t[1], "p-hat_max"), dx(&l[1], "p-hat"), dx(&l[0], "p-hat"));
	}
	free(s);
}

int main(void)
{
	test_deep_runs();
	test_lcpint_views();
	test_lcpshallow_views();
	test_packed_walks();
	test_packed_prefix();
	test_count();
	test_count_distances();
	test_period_road();
	test_count_stress();
	test_dist_runs();
	test_runs_lcp();
	test_brute();
	test_long_repeats();
	test_deeprank();
	test_counter_vs_nist();
	test_blocks_vs_nist();
	test_degenerate();
	test_pow_near_one();
	test_block_below();
	test_near_one_blocks();
	return tap_done();
}
