/* tuple_packed.c - 90B 6.3.5/6.3.6 counts for long bitstrings: the
 * suffixes sorted by their first 64 bits.
 *
 * For the 8M-bit expansion of 1M bytes a full suffix array costs ~1 s and
 * 64 MB.  Two MSD radix passes on the packed bits (8 then 12 bits) and a
 * small sort of each final bucket give the same order as far as LCP
 * intervals can tell, for every depth; suffixes that agree on 64 bits are
 * ordered and measured word by word.  Zero padding past the end sorts a
 * short suffix before every longer suffix with the same bits, so its runs
 * stay contiguous.  Heavily skewed or repetitive input is handed back
 * (return 0) to the suffix array in tuple.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "estimators/lcpint.h"
#include "estimators/tuple.h"

/* Two MSD radix levels on the window bits (8 then 12), then a comparison
 * sort of the small final buckets.  Counters stay within L1/L2. */
#define PACK_TOP_BITS 8
#define PACK_SUB_BITS 12
#define PACK_GROUP_CAP ((size_t)1 << 22)   /* positions gathered per pass (16 MB) */
/* Uniform bits put 1/256 of the suffixes in each top bucket; a bucket with
 * more than 1/8 marks data too skewed for the packed order to pay off. */
#define PACK_SKEW_LIMIT 8

struct pkey {
	uint64_t key;     /* the 64 bits from the position on, zero-padded */
	uint32_t avail;   /* bits left from the position, capped at 64 */
	uint32_t pos;
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

/* Suffixes that agree on their first 64 bits are ordered and measured by
 * comparing further words.  That is cheap for the odd long repeat of real
 * data; a budget of word comparisons (PACK_DEEP_BUDGET per bit of input),
 * or one repeat of PACK_DEEP_MAX bits, hands inputs made of long repeats to
 * the suffix array instead (before the interval walk has grown its arrays
 * to the repeat's length). */
#define PACK_DEEP_BUDGET 2
#define PACK_DEEP_MAX 4096

struct deepctx {
	const uint64_t *w;
	size_t n;
	size_t budget;
	int over;
};

/* Longest common prefix of the suffixes at a and b, known to be >= from;
 * *cmp gets their order (a shorter suffix that is a prefix comes first). */
static size_t deep_lcp(struct deepctx *dc, size_t a, size_t b, size_t from, int *cmp)
{
	size_t l = from;

	for (;;) {
		size_t la = dc->n - a - l, lb = dc->n - b - l, m, c;
		uint64_t x, y, d;

		if (la == 0 || lb == 0) {
			*cmp = la < lb ? -1 : la > lb ? 1 : 0;
			return l;
		}
		if (dc->budget == 0 || l >= PACK_DEEP_MAX) {
			dc->over = 1;
			*cmp = 0;
			return l;
		}
		dc->budget--;
		x = pack_window(dc->w, a + l);
		y = pack_window(dc->w, b + l);
		m = la < lb ? la : lb;
		if (m > 64)
			m = 64;
		d = x ^ y;
		c = d ? (size_t)__builtin_clzll(d) : 64;
		if (c < m) {
			*cmp = x < y ? -1 : 1;
			return l + c;
		}
		l += m;
	}
}

static int deep_cmp(const void *pa, const void *pb, void *arg)
{
	const struct pkey *a = pa, *b = pb;
	int c;

	deep_lcp(arg, a->pos, b->pos, 64, &c);
	return c;
}

/* Streams the sorted suffixes of one top-level bucket (positions p[0..m-1])
 * into the interval walk.  Returns 1, or 0 when a repeat reaches 64 bits. */
struct pscan {
	const uint64_t *w;
	size_t n;
	struct pkey *tmp;     /* room for the largest top-level bucket */
	uint32_t sub[(1u << PACK_SUB_BITS) + 1];
	struct pkey *keys;    /* the sub-bucket being streamed, within tmp */
	struct pkey prev;
	int first;
	int nomem;
	struct deepctx dc;
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
	/* scatter the keys themselves: w is read in position order here, the
	 * cache-friendly way, and once per position */
	for (size_t i = 0; i < m; i++) {
		uint64_t key = pack_window(ps->w, p[i]);
		size_t b = (size_t)((key >> shift) & mask), left = ps->n - p[i];
		struct pkey *d = &ps->tmp[ps->sub[b]++];

		d->key = key;
		d->avail = (uint32_t)(left < 64 ? left : 64);
		d->pos = p[i];
	}
	/* sub[b] now holds the end of bucket b */
	for (size_t b = 0, lo = 0; b < nsub; b++) {
		size_t hi = ps->sub[b], k = hi - lo;

		if (k == 0)
			continue;
		ps->keys = ps->tmp + lo;
		pkey_sort(ps->keys, k);
		/* runs that agree on all 64 bits: order them by the bits after */
		for (size_t i = 0; i + 1 < k; ) {
			size_t j = i + 1;

			while (j < k && ps->keys[j].key == ps->keys[i].key &&
			       ps->keys[j].avail == 64 && ps->keys[i].avail == 64)
				j++;
			if (j - i > 1) {
				qsort_r(ps->keys + i, j - i, sizeof *ps->keys, deep_cmp, &ps->dc);
				if (ps->dc.over)
					return 0;
			}
			i = j;
		}
		for (size_t i = 0; i < k; i++) {
			if (!ps->first) {
				uint64_t x = ps->prev.key ^ ps->keys[i].key;
				size_t l = x ? (size_t)__builtin_clzll(x) : 64;

				if (ps->prev.avail < l)
					l = ps->prev.avail;
				if (ps->keys[i].avail < l)
					l = ps->keys[i].avail;
				if (l >= 64) {
					int c;

					l = deep_lcp(&ps->dc, ps->prev.pos, ps->keys[i].pos, 64, &c);
					if (ps->dc.over)
						return 0;   /* too many long repeats: the suffix array */
				}
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
int tuple_scan_packed(const uint8_t *s, size_t n, struct lcpint *st, struct err *e)
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
	for (size_t q = 0; q * 64 < n; q++) {
		size_t end = n - q * 64 < 64 ? n - q * 64 : 64;
		uint64_t x = 0;

		for (size_t j = 0; j < end; j++)
			x = (x << 1) | (uint64_t)(s[q * 64 + j] & 1u);
		w[q] = x << ((64 - end) & 63u);   /* MSB first, zeros after the end (end is 1..64) */
	}
	memset(cnt, 0, sizeof cnt);
	for (size_t i = 0; i < n; i++)
		cnt[pack_window(w, i) >> tshift]++;
	for (size_t b = 0; b < ntop; b++)
		if (cnt[b] > maxb)
			maxb = cnt[b];
	if (maxb > n / PACK_SKEW_LIMIT) {
		/* one 8-bit prefix starts over 1/PACK_SKEW_LIMIT of the suffixes:
		 * heavily skewed data, where long repeats make the deep compares
		 * costly; the suffix array is the cheaper road */
		free(w);
		free(ps);
		return 0;
	}
	cap = maxb > PACK_GROUP_CAP ? maxb : PACK_GROUP_CAP;
	if (cap > n)
		cap = n;
	pos = malloc((cap + 1) * sizeof *pos);
	ps->tmp = malloc(maxb * sizeof *ps->tmp);
	if (!pos || !ps->tmp || lcpint_init(st, 64, 1, 64, LCPINT_GROWS) != 0)
		goto nomem;
	ps->w = w;
	ps->n = n;
	ps->first = 1;
	ps->dc.w = w;
	ps->dc.n = n;
	ps->dc.budget = PACK_DEEP_BUDGET * n;

	for (size_t b0 = 0; b0 < ntop && rc == 1; ) {
		size_t b1 = b0, tot = 0;

		/* a group of top-level buckets [b0, b1) whose positions fit in pos[] */
		while (b1 < ntop && tot + cnt[b1] <= cap)
			tot += cnt[b1++];
		start[b0] = 0;
		for (size_t b = b0; b < b1; b++)
			start[b + 1] = start[b] + cnt[b];
		if (tot > 0) {
			/* fill[ntop] is a scratch slot (pos[cap]) that takes the
			 * positions of other groups: no unpredictable branch */
			size_t fill[(1u << PACK_TOP_BITS) + 1];

			memcpy(fill + b0, start + b0, (b1 - b0) * sizeof *fill);
			fill[ntop] = cap;
			for (size_t i = 0; i < n; i++) {
				size_t b = (size_t)(pack_window(w, i) >> tshift);
				size_t in = (size_t)(b >= b0) & (size_t)(b < b1);
				size_t bb = in ? b : ntop;

				pos[fill[bb]] = (uint32_t)i;
				fill[bb] += in;
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
	free(ps);
	return rc;
nomem:
	free(w);
	free(pos);
	if (ps) {
		free(ps->tmp);
		free(ps);
	}
	return err_set(e, ERR_NOMEM, "t-tuple/LRS: out of memory for %zu bits", n);
}
