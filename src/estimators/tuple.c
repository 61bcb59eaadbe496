/* tuple.c - 90B 6.3.5 t-tuple and 6.3.6 longest repeated substring (LRS)
 * estimates over one sorted-suffix structure.
 *
 * Both need, for every length t, counts of the t-tuples of the input:
 * Q[t], the count of the most common t-tuple (6.3.5), and
 * S[t] = sum over t-tuples of C(count, 2) (6.3.6 step 3).  In the sorted
 * order of the suffixes, the suffixes starting with one t-tuple form a run
 * whose adjacent longest common prefixes (LCP) are all >= t.  A bottom-up
 * walk of the LCP intervals (Abouelhoda, Kurtz, Ohlebusch 2004) visits each
 * maximal run once, as an interval with depth l, size c and parent depth
 * l_p: it is the run of every t in (l_p, l].  So Q[t] is the largest c with
 * l >= t, and S gains C(c, 2) on (l_p, l]: a difference array.  The whole
 * pass is O(N) after sorting, whatever the input repeats; NIST's Kaufer
 * loops (v1.1.7) are quadratic on long repeats.  The integer counts are
 * exact, and the floating-point steps below are NIST's, so the figures
 * match ea_non_iid to the last bit.
 *
 * Sorting: divsufsort's suffix array with a PLCP pass (Kärkkäinen, Manzini,
 * Puglisi 2009; 8N bytes) serves every input.  For long bitstrings (8M bits
 * from 1M bytes) a cheaper order does: the suffixes sorted by their first 64
 * bits (MSD radix on the first 20, then a sort) give the same LCP intervals for every
 * depth < 64, in a quarter of the memory.  If two suffixes share 64 bits, the
 * suffix array takes over. */
#include "config.h"

#include <divsufsort.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/tuple.h"

/* 90B 6.3.5 step 1 / 6.3.6 step 1: a tuple must occur at least 35 times. */
#define TUPLE_MIN_COUNT 35

/* ---- LCP interval walk ---------------------------------------------- */

struct lcpint {
	size_t *sh, *slb;     /* stack of (depth, left bound) */
	size_t top, cap;
	size_t idx;           /* index of the next item in sorted order */
	size_t *mx;           /* mx[l]: largest run with depth exactly l */
	uint64_t *sd;         /* difference array of S */
	size_t lmax;          /* arrays hold depths 0..lmax */
	size_t v;             /* largest depth seen: the LRS length */
	int nomem;
};

static int lcpint_init(struct lcpint *st, size_t lmax)
{
	memset(st, 0, sizeof *st);
	st->lmax = lmax;
	st->cap = 64;
	st->sh = malloc(st->cap * sizeof *st->sh);
	st->slb = malloc(st->cap * sizeof *st->slb);
	st->mx = calloc(lmax + 2, sizeof *st->mx);
	st->sd = calloc(lmax + 3, sizeof *st->sd);
	if (!st->sh || !st->slb || !st->mx || !st->sd)
		return -1;
	st->sh[0] = 0;
	st->slb[0] = 0;
	st->idx = 1;
	return 0;
}

static void lcpint_free(struct lcpint *st)
{
	free(st->sh);
	free(st->slb);
	free(st->mx);
	free(st->sd);
}

static void lcpint_report(struct lcpint *st, size_t depth, size_t size, size_t parent)
{
	uint64_t pairs = (uint64_t)size * (uint64_t)(size - 1) / 2;

	if (size > st->mx[depth])
		st->mx[depth] = size;
	st->sd[parent + 1] += pairs;
	st->sd[depth + 1] -= pairs;
	if (depth > st->v)
		st->v = depth;
}

/* Feeds the LCP of sorted items idx-1 and idx (0 once past the last item). */
static void lcpint_step(struct lcpint *st, size_t lcp)
{
	size_t i = st->idx++, lb = i - 1;

	while (lcp < st->sh[st->top]) {
		size_t depth = st->sh[st->top], left = st->slb[st->top], parent;

		st->top--;
		parent = st->sh[st->top] > lcp ? st->sh[st->top] : lcp;
		lcpint_report(st, depth, i - left, parent);
		lb = left;
	}
	if (lcp > st->sh[st->top]) {
		if (st->top + 1 >= st->cap) {
			size_t nc = st->cap * 2;
			size_t *a = realloc(st->sh, nc * sizeof *a), *b;

			if (!a) {
				st->nomem = 1;
				return;
			}
			st->sh = a;
			b = realloc(st->slb, nc * sizeof *b);
			if (!b) {
				st->nomem = 1;
				return;
			}
			st->slb = b;
			st->cap = nc;
		}
		st->top++;
		st->sh[st->top] = lcp;
		st->slb[st->top] = lb;
	}
}

/* ---- suffix array + PLCP --------------------------------------------- */

static int scan_suffix_array(const uint8_t *s, size_t n, struct lcpint *st, struct err *e)
{
	saidx_t *sa, *plcp;
	size_t h = 0, v = 0;

	if (n >= (size_t)INT32_MAX)
		return err_set(e, ERR_DATA, "t-tuple/LRS: %zu samples is more than the suffix array handles", n);
	sa = malloc(n * sizeof *sa);
	plcp = malloc(n * sizeof *plcp);
	if (!sa || !plcp) {
		free(sa);
		free(plcp);
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu suffixes", n);
	}
	if (divsufsort(s, sa, (saidx_t)n) != 0) {
		free(sa);
		free(plcp);
		return err_set(e, ERR_INTERNAL, "t-tuple/LRS: divsufsort failed");
	}
	/* Phi[SA[i]] = SA[i-1]; then PLCP in text order, in place. */
	plcp[sa[0]] = -1;
	for (size_t i = 1; i < n; i++)
		plcp[sa[i]] = sa[i - 1];
	for (size_t i = 0; i < n; i++) {
		saidx_t j = plcp[i];

		if (j < 0) {
			plcp[i] = 0;
			h = 0;
			continue;
		}
		while (i + h < n && (size_t)j + h < n && s[i + h] == s[(size_t)j + h])
			h++;
		plcp[i] = (saidx_t)h;
		if (h > v)
			v = h;
		if (h > 0)
			h--;
	}
	if (lcpint_init(st, v) != 0) {
		free(sa);
		free(plcp);
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	}
	for (size_t i = 1; i < n; i++)
		lcpint_step(st, (size_t)plcp[sa[i]]);
	lcpint_step(st, 0);
	free(sa);
	free(plcp);
	if (st->nomem)
		return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory");
	return 0;
}

/* ---- bitstrings: suffixes sorted by their first 64 bits -------------- */

/* Two MSD radix levels on the window bits (8 then 12), then a comparison
 * sort of the small final buckets.  Counters stay within L1/L2. */
#define PACK_TOP_BITS 8
#define PACK_SUB_BITS 12
#define PACK_GROUP_CAP ((size_t)1 << 22)   /* positions gathered per pass (16 MB) */

struct pkey {
	uint64_t key;     /* the 64 bits from the position on, zero-padded */
	uint32_t avail;   /* bits left from the position, capped at 64 */
};

static inline uint64_t pack_window(const uint64_t *w, size_t pos)
{
	size_t q = pos >> 6;
	unsigned r = (unsigned)(pos & 63);

	return r ? (w[q] << r) | (w[q + 1] >> (64 - r)) : w[q];
}

static inline int pkey_less(const struct pkey *a, const struct pkey *b)
{
	return a->key < b->key || (a->key == b->key && a->avail < b->avail);
}

static void pkey_sort(struct pkey *a, size_t n)
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
	for (size_t i = 1; i < n; i++) {
		struct pkey x = a[i];
		size_t j = i;

		while (j > 0 && pkey_less(&x, &a[j - 1])) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

/* Streams the sorted suffixes of one top-level bucket (positions p[0..m-1])
 * into the interval walk.  Returns 1, or 0 when a repeat reaches 64 bits. */
struct pscan {
	const uint64_t *w;
	size_t n;
	uint32_t *tmp;        /* room for the largest top-level bucket */
	uint32_t sub[(1u << PACK_SUB_BITS) + 1];
	struct pkey *keys;
	size_t kcap;
	struct pkey prev;
	int first;
	int nomem;
};

static int pscan_bucket(struct pscan *ps, struct lcpint *st, const uint32_t *p, size_t m)
{
	const unsigned shift = 64 - PACK_TOP_BITS - PACK_SUB_BITS;
	const size_t nsub = (size_t)1 << PACK_SUB_BITS, mask = nsub - 1;

	memset(ps->sub, 0, sizeof ps->sub);
	for (size_t i = 0; i < m; i++)
		ps->sub[((pack_window(ps->w, p[i]) >> shift) & mask) + 1]++;
	for (size_t b = 0; b < nsub; b++)
		ps->sub[b + 1] += ps->sub[b];
	for (size_t i = 0; i < m; i++) {
		size_t b = (size_t)((pack_window(ps->w, p[i]) >> shift) & mask);

		ps->tmp[ps->sub[b]++] = p[i];
	}
	/* sub[b] now holds the end of bucket b */
	for (size_t b = 0, lo = 0; b < nsub; b++) {
		size_t hi = ps->sub[b], k = hi - lo;

		if (k == 0)
			continue;
		if (k > ps->kcap) {
			struct pkey *nk = realloc(ps->keys, k * sizeof *nk);

			if (!nk) {
				ps->nomem = 1;
				return -1;
			}
			ps->keys = nk;
			ps->kcap = k;
		}
		for (size_t i = 0; i < k; i++) {
			size_t pos = ps->tmp[lo + i], left = ps->n - pos;

			ps->keys[i].key = pack_window(ps->w, pos);
			ps->keys[i].avail = (uint32_t)(left < 64 ? left : 64);
		}
		pkey_sort(ps->keys, k);
		for (size_t i = 0; i < k; i++) {
			if (!ps->first) {
				uint64_t x = ps->prev.key ^ ps->keys[i].key;
				size_t l = x ? (size_t)__builtin_clzll(x) : 64;

				if (ps->prev.avail < l)
					l = ps->prev.avail;
				if (ps->keys[i].avail < l)
					l = ps->keys[i].avail;
				if (l >= 64)
					return 0;   /* a repeat of >= 64 bits: needs the suffix array */
				lcpint_step(st, l);
			}
			ps->first = 0;
			ps->prev = ps->keys[i];
		}
		lo = hi;
	}
	return 1;
}

/* Returns 1 when done, 0 when a repeat of 64 bits or more needs the suffix
 * array, or a negative err code. */
static int scan_packed(const uint8_t *s, size_t n, struct lcpint *st, struct err *e)
{
	const size_t ntop = (size_t)1 << PACK_TOP_BITS;
	const unsigned tshift = 64 - PACK_TOP_BITS;
	size_t nw = n / 64 + 2, maxb = 0, cap;
	uint64_t *w = calloc(nw, sizeof *w);
	size_t cnt[(1u << PACK_TOP_BITS) + 1], start[(1u << PACK_TOP_BITS) + 1];
	uint32_t *pos = NULL;
	struct pscan *ps = calloc(1, sizeof *ps);
	int rc = 1;

	if (!w || !ps)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		if (s[i])
			w[i >> 6] |= (uint64_t)1 << (63 - (i & 63));
	memset(cnt, 0, sizeof cnt);
	for (size_t i = 0; i < n; i++)
		cnt[pack_window(w, i) >> tshift]++;
	for (size_t b = 0; b < ntop; b++)
		if (cnt[b] > maxb)
			maxb = cnt[b];
	cap = maxb > PACK_GROUP_CAP ? maxb : PACK_GROUP_CAP;
	if (cap > n)
		cap = n;
	pos = malloc(cap * sizeof *pos);
	ps->tmp = malloc(maxb * sizeof *ps->tmp);
	if (!pos || !ps->tmp || lcpint_init(st, 64) != 0)
		goto nomem;
	ps->w = w;
	ps->n = n;
	ps->first = 1;

	for (size_t b0 = 0; b0 < ntop && rc == 1; ) {
		size_t b1 = b0, tot = 0;

		/* a group of top-level buckets [b0, b1) whose positions fit in pos[] */
		while (b1 < ntop && tot + cnt[b1] <= cap)
			tot += cnt[b1++];
		start[b0] = 0;
		for (size_t b = b0; b < b1; b++)
			start[b + 1] = start[b] + cnt[b];
		if (tot > 0) {
			size_t fill[(1u << PACK_TOP_BITS)];

			memcpy(fill + b0, start + b0, (b1 - b0) * sizeof *fill);
			for (size_t i = 0; i < n; i++) {
				size_t b = (size_t)(pack_window(w, i) >> tshift);

				if (b >= b0 && b < b1)
					pos[fill[b]++] = (uint32_t)i;
			}
		}
		for (size_t b = b0; b < b1 && rc == 1; b++)
			if (cnt[b] > 0)
				rc = pscan_bucket(ps, st, pos + start[b], cnt[b]);
		b0 = b1;
	}
	if (rc < 0 || ps->nomem)
		goto nomem;
	if (rc == 1)
		lcpint_step(st, 0);
	if (st->nomem)
		goto nomem;
	free(w);
	free(pos);
	free(ps->tmp);
	free(ps->keys);
	free(ps);
	return rc;
nomem:
	free(w);
	free(pos);
	if (ps) {
		free(ps->tmp);
		free(ps->keys);
		free(ps);
	}
	return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu bits", n);
}

/* ---- the two estimates from Q and S ----------------------------------- */

static void tuple_finish(const struct lcpint *st, size_t n, struct est_result *tr,
			 struct est_result *lr)
{
	size_t v = st->v, u;
	size_t *q;
	uint64_t *sw;
	double pmax, pu;

	if (v == 0) {
		est_not_applicable(tr, "no symbol repeats: no t-tuple occurs %d times", TUPLE_MIN_COUNT);
		est_not_applicable(lr, "no symbol repeats: the longest repeated substring is empty");
		return;
	}
	q = calloc(v + 2, sizeof *q);
	sw = calloc(v + 2, sizeof *sw);
	if (!q || !sw) {
		free(q);
		free(sw);
		est_not_applicable(tr, "out of memory");
		est_not_applicable(lr, "out of memory");
		return;
	}
	/* Q[t] = largest run with depth >= t; S[t] = prefix sum of the differences */
	q[v + 1] = 0;
	for (size_t t = v; t >= 1; t--)
		q[t] = st->mx[t] > q[t + 1] ? st->mx[t] : q[t + 1];
	for (size_t t = 1, acc = 0; t <= v; t++) {
		acc += (size_t)st->sd[t];
		sw[t] = (uint64_t)acc;
	}

	/* 90B 6.3.5: u = the first t whose most common tuple occurs < 35 times */
	for (u = 1; u <= v && q[u] >= TUPLE_MIN_COUNT; u++)
		;
	pmax = -1.0;
	for (size_t i = 1; i < u; i++) {
		double pi = (double)q[i] / (double)(n - i + 1);
		double pm = pow(pi, 1.0 / (double)i);

		if (pm > pmax)
			pmax = pm;
	}
	if (pmax > 0.0) {
		pu = pmax + EST_ZALPHA * sqrt(pmax * (1.0 - pmax) / ((double)n - 1.0));
		if (pu > 1.0)
			pu = 1.0;
		est_detail_int(tr, "t", (long long)(u - 1));
		est_detail_real(tr, "p-hat_max", pmax);
		est_detail_real(tr, "p_u", pu);
		tr->p = pu;
		tr->h = -log2(pu);
		est_detail_real(tr, "min entropy", tr->h);
	} else {
		est_not_applicable(tr, "no tuple occurs %d times", TUPLE_MIN_COUNT);
	}

	/* 90B 6.3.6: lengths u..v, P_W = S[W] / C(N-W+1, 2) */
	if (v >= u) {
		pmax = 0.0;
		for (size_t i = u; i <= v; i++) {
			uint64_t pairs = ((uint64_t)(n - i) * (uint64_t)(n - i + 1)) >> 1;
			double pi = (double)sw[i] / (double)pairs;
			double pm = pow(pi, 1.0 / (double)i);

			if (pmax < pm)
				pmax = pm;
		}
		pu = pmax + EST_ZALPHA * sqrt(pmax * (1.0 - pmax) / ((double)n - 1.0));
		if (pu > 1.0)
			pu = 1.0;
		est_detail_int(lr, "u", (long long)u);
		est_detail_int(lr, "v", (long long)v);
		est_detail_real(lr, "p-hat", pmax);
		est_detail_real(lr, "p_u", pu);
		lr->p = pu;
		lr->h = -log2(pu);
		est_detail_real(lr, "min entropy", lr->h);
	} else {
		est_not_applicable(lr, "v < u (v = %zu, u = %zu): no substring to assess", v, u);
	}
	free(q);
	free(sw);
}

int tuple_lrs_run(const uint8_t *s, size_t n, unsigned k, enum tuple_method m,
		  struct est_result *tr, struct est_result *lr, struct err *e)
{
	struct lcpint st;
	int rc = 0;

	est_result_init(tr, "tuple", "t-Tuple");
	est_result_init(lr, "lrs", "LRS");
	if (n < 2) {
		est_not_applicable(tr, "needs at least 2 samples, got %zu", n);
		est_not_applicable(lr, "needs at least 2 samples, got %zu", n);
		return 0;
	}
	memset(&st, 0, sizeof st);
	if (m == TUPLE_AUTO)
		m = (k == 2 && n >= ((size_t)1 << 21) && n < UINT32_MAX) ? TUPLE_PACKED
									 : TUPLE_SUFFIX_ARRAY;
	if (m == TUPLE_PACKED && k == 2 && n < UINT32_MAX) {
		rc = scan_packed(s, n, &st, e);
		if (rc == 1) {
			tuple_finish(&st, n, tr, lr);
			lcpint_free(&st);
			return 0;
		}
		lcpint_free(&st);
		if (rc < 0)
			return rc;
		memset(&st, 0, sizeof st);
	}
	rc = scan_suffix_array(s, n, &st, e);
	if (rc == 0)
		tuple_finish(&st, n, tr, lr);
	lcpint_free(&st);
	return rc;
}

int est_tuple_lrs(const uint8_t *s, size_t n, unsigned k, struct est_result *tuple,
		  struct est_result *lrs, struct err *e)
{
	return tuple_lrs_run(s, n, k, TUPLE_AUTO, tuple, lrs, e);
}
