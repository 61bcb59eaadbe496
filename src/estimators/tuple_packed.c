/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_packed.c - 90B 6.3.5/6.3.6 counts for long bitstrings: the
 * suffixes sorted by their first 64 bits.
 *
 * For the 8M-bit expansion of 1M bytes a full suffix array costs ~1 s and
 * 64 MB.  Two MSD radix levels on the packed bits (8-12 then 4-16 bits)
 * and a small sort of each final bucket give the same order as far as LCP
 * intervals can tell, for every depth.  The keys are read from the bits
 * in order, a group of top buckets per pass (gather_prefix).  Suffixes
 * that agree on 64 bits are ordered and measured word by word, or, when
 * long repeats make that costly, by the ranks of the byte suffixes behind
 * them (the deep ties of tuple_ties.c, over deeprank.c): a
 * block repeated 10 times or a counter costs ~1.5 times random data
 * instead of the suffix array's 3.  Zero padding past the end sorts a
 * short suffix before every longer suffix with the same bits, so its runs
 * stay contiguous.  Heavily skewed input, and bit patterns that repeat at
 * every offset within a byte, are handed back (return 0) to the suffix
 * array in tuple.c.  Where the CPU has AVX-512 the walk takes the depths
 * below 64 from lcpshallow.c and leaves only the deeper intervals to the
 * stack of lcpint.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "estimators/lcpint.h"
#include "estimators/lcpshallow.h"
#include "estimators/tuple.h"
#include "estimators/tuple_prefix.h"
#include "estimators/tuple_ties.h"

/* Two MSD radix levels on the window bits (8 to 12, then 4 to 16), then
 * an insertion pass over each top bucket (pscan_order).  The top level grows with
 * n so that a top bucket's keys (16 bytes each) stay about 512 KiB, within
 * L2, while the second level scatters them: with 8 bits the buckets of
 * 80M bits were 5 MB, and the scatter missed the cache on every key.
 * Counters stay within L1/L2. */
#define PACK_TOP_BITS 8
#define PACK_TOP_BITS_MAX 12
#define PACK_TOP_BUCKET 32768
#define PACK_SUB_BITS 4   /* at least */
#define PACK_SUB_BITS_MAX 16
/* The final buckets hold about this many suffixes: the second radix
 * level's width follows each top bucket's size (up to PACK_SUB_BITS_MAX; a
 * width from the largest bucket cost skewed input, a counter's bits, 65,536
 * counters for every small bucket) so that the insertion pass over a top
 * bucket (pscan_order) moves ~1 key a key.
 * With 8, the compares of the ~5 keys of each final bucket at 80M bits
 * mispredicted often enough to cost 26 cycles a key; with 1, 12. */
#define PACK_BUCKET_TARGET 1
/* Final buckets larger than this are sorted on their own first. */
#define PACK_SMALL 16
#define PACK_GROUP_CAP ((size_t)1 << 20)   /* keys gathered per pass (16 MB) */
/* At least n / PACK_GROUP_PASSES keys are gathered per pass (a fixed
 * PACK_GROUP_CAP made the passes, and the cost, grow as n^2): n / 2 bytes
 * of keys, and a pass costs about 5 word operations per 64 bits. */
#define PACK_GROUP_PASSES 32
/* Uniform bits put 1/256 of the suffixes in each top bucket; a bucket with
 * more than 1/8 marks data too skewed for the packed order to pay off. */
#define PACK_SKEW_LIMIT 8

/* Streams the sorted suffixes of one top-level bucket (positions p[0..m-1])
 * into the interval walk.  Returns 1, or 0 when the suffix array should
 * answer or memory ran out (dc.nomem). */
struct pscan {
	const uint64_t *w;
	size_t n;
	struct pkey *tmp;     /* room for the largest top-level bucket */
	uint32_t *tlcp;       /* deep LCPs of the tie groups in tmp */
	unsigned topbits;     /* the first radix level's width */
	size_t cnt[(1u << PACK_TOP_BITS_MAX) + 1];    /* suffixes per top bucket */
	size_t start[(1u << PACK_TOP_BITS_MAX) + 1];  /* their offsets in a group */
	size_t fill[1u << PACK_TOP_BITS_MAX];
	uint32_t sub[(1u << PACK_SUB_BITS_MAX) + 1];
	struct pkey prev;
	int first;
	struct deepctx dc;
	struct tuple_deep *deep;
	int shallow;          /* depths below 64 in sh, not on st's stack */
	struct lcpshallow sh;
	uint8_t *l8;          /* a top bucket's LCPs up to 64 (a deep tie) */
};

/* Appends one LCP to the deep list: those of 64 and more, and one 63 for
 * each run of shorter ones.  Returns 0 or -1 (out of memory). */
static inline int deep_push(struct tuple_deep *d, size_t l)
{
	const struct tuple_deep_run *r = d->len ? &d->run[d->len - 1] : NULL;

	if (l < 64) {
		if (!r || tuple_deep_at(r, r->count - 1) == 63)
			return 0;
		l = 63;
	}
	return tuple_deep_extend(d, (uint32_t)l) ? 0 : tuple_deep_new_run(d, (uint32_t)l);
}

int tuple_deep_grow(struct tuple_deep *d)
{
	size_t nc = d->cap ? d->cap * 2 : 1024;
	struct tuple_deep_run *a = realloc(d->run, nc * sizeof *a);

	if (!a)
		return -1;
	/* the new half in one system call, not a fault a page (~10 us each
	 * in these VMs, bigmem.h): assess of a 100,000-byte block repeated
	 * to 1M bytes took 5,669 page faults, 4,650 of them here, now 1,017 */
	bigmem_prefault(a + d->cap, (nc - d->cap) * sizeof *a);
	d->run = a;
	d->cap = nc;
	return 0;
}

/* The LCP of two adjacent keys as far as their 64 bits tell (64: a deep
 * tie, measured by deepctx_order). */
static inline size_t pkey_lcp(const struct pkey *a, const struct pkey *b)
{
	uint64_t x = a->key ^ b->key;
	size_t l = x ? (size_t)__builtin_clzll(x) : 64;

	if (PKEY_AVAIL(*a) < l)
		l = PKEY_AVAIL(*a);
	if (PKEY_AVAIL(*b) < l)
		l = PKEY_AVAIL(*b);
	return l;
}

/* Sorts one top bucket, its keys p[0..m-1] in position order, into
 * ps->tmp: the second radix level, then the final buckets larger than
 * PACK_SMALL on their own, then one insertion pass over the whole bucket.
 * The pass only moves keys within their final bucket (keys of different
 * ones are in order already), so it costs O(1) a key where the buckets
 * hold about one, with no call or loop per final bucket.  Then the deep
 * ties (carried: ordered by the byte ranks in their keys already).
 * Returns 1, or 0 as pscan_bucket. */
static int pscan_order(struct pscan *ps, const struct pkey *p, size_t m, int carried)
{
	unsigned subbits = PACK_SUB_BITS;   /* the second level's width, for this bucket */

	while (subbits < PACK_SUB_BITS_MAX && m >> subbits > (size_t)PACK_BUCKET_TARGET)
		subbits++;
	const unsigned shift = 64 - ps->topbits - subbits;
	const size_t nsub = (size_t)1 << subbits, mask = nsub - 1;
	struct pkey *a = ps->tmp;

	memset(ps->sub, 0, (nsub + 1) * sizeof ps->sub[0]);
	for (size_t i = 0; i < m; i++)
		ps->sub[((p[i].key >> shift) & mask) + 1]++;
	for (size_t b = 0; b < nsub; b++)
		ps->sub[b + 1] += ps->sub[b];
	for (size_t i = 0; i < m; i++) {
		struct pkey *d = &a[ps->sub[(size_t)((p[i].key >> shift) & mask)]++];

		*d = p[i];
	}
	/* sub[b] now holds the end of final bucket b */
	for (size_t b = 0, lo = 0; b < nsub; b++) {
		if (ps->sub[b] - lo > PACK_SMALL)
			pkey_sort_bucket(a + lo, ps->sub[b] - lo);
		lo = ps->sub[b];
	}
	pkey_insertion(a, m);
	/* runs that agree on all 64 bits: order them by the bits after */
	for (size_t i = 0; i + 1 < m;) {
		size_t j = i + 1;

		while (j < m && a[j].key == a[i].key && PKEY_AVAIL(a[j]) == 64 &&
		       PKEY_AVAIL(a[i]) == 64)
			j++;
		if (j - i > 1 && deepctx_order(&ps->dc, a + i, j - i, ps->tlcp + i, carried) != 0)
			return 0;
		i = j;
	}
	return 1;
}

/* Feeds the LCPs of the sorted keys k[0..m-1] (the first against the last
 * key of the previous bucket) to the walk.  Returns 1, or 0 out of memory
 * (dc.nomem).  With ps->shallow the depths below 64 go to lcpshallow in one
 * pass, and lcpint's stack (floor 63) sees the keys again only in a bucket
 * that has a deep tie. */
static int pscan_walk(struct pscan *ps, struct lcpint *st, const struct pkey *k, size_t m)
{
	const uint32_t *gl = ps->tlcp;   /* a deep tie's LCP, at its second key */
	size_t i0 = ps->first ? 1 : 0, nl = m - i0;
	int deep = 0;

	if (m == 0)
		return 1;
	if (ps->shallow) {
		for (size_t i = i0; i < m; i++) {
			size_t l = pkey_lcp(i ? &k[i - 1] : &ps->prev, &k[i]);

			deep |= l >= 64;
			ps->l8[i - i0] = (uint8_t)l;   /* 64: a deep tie */
		}
		lcpshallow_feed(&ps->sh, ps->l8, nl);
		if (!deep && nl > 0) {
			/* no LCP above the floor: the first closes what the last
			 * bucket left open, the others only count; and the deep
			 * list marks the end of a deep run (deep_push) */
			lcpint_step(st, LCPSHALLOW_DEPTHS - 1);
			st->idx += nl - 1;
			if (deep_push(ps->deep, 0) != 0)
				goto nomem;
		}
		for (size_t i = i0; deep && i < m; i++) {
			size_t l = ps->l8[i - i0] < 64 ? LCPSHALLOW_DEPTHS - 1 : gl[i];

			lcpint_step(st, l);
			if (deep_push(ps->deep, l) != 0)
				goto nomem;
		}
	} else {
		for (size_t i = i0; i < m; i++) {
			size_t l = pkey_lcp(i ? &k[i - 1] : &ps->prev, &k[i]);

			if (l >= 64)
				l = gl[i];   /* i follows a member of its tie group */
			lcpint_step(st, l);
			if (deep_push(ps->deep, l) != 0)
				goto nomem;
		}
	}
	ps->first = 0;
	ps->prev = k[m - 1];
	return 1;
nomem:
	ps->dc.nomem = 1;
	return 0;
}

/* Sorts and walks one top bucket, its keys p[0..m-1] in position order
 * (carried: with their byte ranks, see gather_prefix). */
static int pscan_bucket(struct pscan *ps, struct lcpint *st, const struct pkey *p, size_t m,
			int carried)
{
	return pscan_order(ps, p, m, carried) && pscan_walk(ps, st, ps->tmp, m);
}

static void pscan_free(struct pscan *ps)
{
	if (!ps)
		return;
	bigmem_free(ps->tmp);
	bigmem_free(ps->tlcp);
	free(ps->l8);
	deepctx_free(&ps->dc);
	free(ps);
}

/* Returns 1 when done, 0 when the input should go to the suffix array, or
 * a negative err code (flags: tuple.h). */
int tuple_scan_packed(const uint8_t *s, size_t n, struct lcpint *st, struct tuple_deep *deep,
		      int flags, struct err *e)
{
	uint64_t *w = calloc(n / 64 + 2, sizeof *w);
	int rc;

	if (!w)
		return tuple_nomem(e, n);
	for (size_t q = 0; q * 64 < n; q++) {
		size_t end = n - q * 64 < 64 ? n - q * 64 : 64;
		uint64_t x = 0;

		for (size_t j = 0; j < end; j++)
			x = (x << 1) | (uint64_t)(s[q * 64 + j] & 1u);
		w[q] = x << ((64 - end) & 63u);   /* MSB first, zeros after the end (end is 1..64) */
	}
	rc = tuple_scan_words(w, n, st, deep, flags, e);
	free(w);
	return rc;
}

/* The keys of the suffixes whose first len bits are prefix, in position
 * order, each into its top bucket's next slot (fill[b]++).  The bits are
 * read here, in order, once per pass (tuple_prefix_block): gathering positions
 * and reading their windows later, bucket by bucket, missed the cache on
 * nearly every suffix.  A pass costs the prefix test plus one key per
 * member.  Once the bytes are ranked (rank), a full-length key
 * carries its byte rank above its length (PKEY_AVAIL): read here, in
 * position order, the ranks stream from memory; read in the sorted tie
 * groups, or even a top bucket's keys in position order (one in 4,096 of
 * the positions), they missed the cache on nearly every key, ~1 s of the
 * 80M bits of a repeated block. */
static void gather_prefix(const uint64_t *w, size_t n, uint32_t prefix, unsigned len,
			  unsigned tshift, size_t *fill, struct pkey *gk, const uint32_t *rank)
{
	const size_t nw = (n + 63) / 64;
	uint64_t mk[TUPLE_PREFIX_WORDS];

	for (size_t q0 = 0; q0 < nw; q0 += TUPLE_PREFIX_WORDS) {
		const size_t words = nw - q0 < TUPLE_PREFIX_WORDS ? nw - q0 : TUPLE_PREFIX_WORDS;

		tuple_prefix_block(w, n, q0, prefix, len, mk);
		for (size_t k = 0; k < words; k++) {
			const size_t q = q0 + k;
			uint64_t m = mk[k];

			while (m) {
				unsigned j = (unsigned)__builtin_clzll(m);
				size_t i = q * 64 + j, left = n - i;
				uint64_t key = pack_window(w, i);
				struct pkey *d = &gk[fill[key >> tshift]++];

				d->key = key;
				d->aux = (uint32_t)(left < 64 ? left : 64);
				if (rank && left >= 64)
					d->aux |= deeprank_key_at(rank, i) << 7;
				d->pos = (uint32_t)i;
				m ^= ((uint64_t)1 << 63) >> j;
			}
		}
	}
}

/* Gathers and scans the top buckets under prefix (len bits) in order: in
 * one pass when their keys fit in gk[] (cap), else each half on its own.
 * A top bucket alone always fits (cap >= the largest).  Returns as
 * pscan_bucket. */
static int scan_prefix(struct pscan *ps, struct lcpint *st, struct pkey *gk, size_t cap,
		       uint32_t prefix, unsigned len)
{
	const unsigned tb = ps->topbits, tshift = 64 - tb;
	const size_t b0 = (size_t)prefix << (tb - len), b1 = (size_t)(prefix + 1) << (tb - len);
	/* once the bytes are ranked, the keys carry their ranks (see
	 * gather_prefix) */
	const uint32_t *rank = ps->dc.ranked && ps->dc.dr.nb <= PKEY_RANK_MAX ? ps->dc.dr.rank : NULL;
	size_t tot = 0;
	int rc = 1;

	for (size_t b = b0; b < b1; b++)
		tot += ps->cnt[b];
	if (tot == 0)
		return 1;
	if (tot > cap) {
		rc = scan_prefix(ps, st, gk, cap, prefix << 1, len + 1);
		return rc == 1 ? scan_prefix(ps, st, gk, cap, prefix << 1 | 1u, len + 1) : rc;
	}
	ps->start[b0] = 0;
	for (size_t b = b0; b < b1; b++) {
		ps->start[b + 1] = ps->start[b] + ps->cnt[b];
		ps->fill[b] = ps->start[b];
	}
	gather_prefix(ps->w, ps->n, prefix, len, tshift, ps->fill, gk, rank);
	for (size_t b = b0; b < b1 && rc == 1; b++)
		if (ps->cnt[b] > 0)
			rc = pscan_bucket(ps, st, gk + ps->start[b], ps->cnt[b], rank != NULL);
	return rc;
}

int tuple_scan_words(const uint64_t *w, size_t n, struct lcpint *st, struct tuple_deep *deep,
		     int flags, struct err *e)
{
	size_t maxb = 0, max8 = 0, cap, ntop;
	struct pkey *gk = NULL;
	struct pscan *ps = calloc(1, sizeof *ps);
	unsigned tb = PACK_TOP_BITS;
	int rc = 1;

	if (!ps)
		goto nomem;
	while (tb < PACK_TOP_BITS_MAX && n >> tb > PACK_TOP_BUCKET)
		tb++;
	ntop = (size_t)1 << tb;
	for (size_t i = 0; i < n; i++)
		ps->cnt[pack_window(w, i) >> (64 - tb)]++;
	for (size_t b = 0; b < ntop; b++)
		if (ps->cnt[b] > maxb)
			maxb = ps->cnt[b];
	/* the skew test on 8-bit prefixes, whatever the top level's width */
	for (size_t b8 = 0; b8 < ((size_t)1 << PACK_TOP_BITS); b8++) {
		size_t c = 0;

		for (size_t b = b8 << (tb - PACK_TOP_BITS); b < (b8 + 1) << (tb - PACK_TOP_BITS); b++)
			c += ps->cnt[b];
		if (c > max8)
			max8 = c;
	}
	if (max8 > n / PACK_SKEW_LIMIT) {
		/* one 8-bit prefix starts over 1/PACK_SKEW_LIMIT of the suffixes:
		 * heavily skewed data, where long repeats make the deep compares
		 * costly; the suffix array is the cheaper road */
		pscan_free(ps);
		return 0;
	}
	cap = maxb > PACK_GROUP_CAP ? maxb : PACK_GROUP_CAP;
	if (cap < n / PACK_GROUP_PASSES + 1)
		cap = n / PACK_GROUP_PASSES + 1;
	if (cap > n)
		cap = n;
	gk = bigmem_calloc(cap, sizeof *gk);
	ps->tmp = bigmem_calloc(maxb, sizeof *ps->tmp);
	ps->tlcp = bigmem_calloc(maxb, sizeof *ps->tlcp);
	ps->l8 = malloc(maxb);
	if (!gk || !ps->tmp || !ps->tlcp || !ps->l8 ||
	    lcpint_init(st, 0, LCPINT_STRIDE - 1, 1, LCPINT_STRIDE - 1, LCPINT_COARSE) != 0)
		goto nomem;
	st->qmin = TUPLE_MIN_COUNT;
	st->dmax = n;
	ps->deep = deep;
	ps->w = w;
	ps->n = n;
	ps->first = 1;
	ps->topbits = tb;
	deepctx_init(&ps->dc, w, n, (flags & TUPLE_SCAN_RANKS_NOW) != 0);
	ps->shallow = !(flags & TUPLE_SCAN_STACK) &&
		      ((flags & TUPLE_SCAN_SHALLOW) || lcpshallow_usable());
	if (ps->shallow) {
		lcpint_set_floor(st, LCPSHALLOW_DEPTHS - 1);
		lcpshallow_init(&ps->sh, n);
	}

	/* the top buckets in order, in groups that share a prefix and whose
	 * keys fit in gk[]: on uniform bits, PACK_GROUP_PASSES groups */
	rc = scan_prefix(ps, st, gk, cap, 0, 0);
	if (rc == 1)
		lcpint_step(st, ps->shallow ? LCPSHALLOW_DEPTHS - 1 : 0);
	if (rc == 1 && ps->shallow)
		lcpshallow_finish(&ps->sh, st);
	if (ps->dc.nomem || st->nomem)
		goto nomem;
	rc = ps->dc.over ? 0 : rc;
	bigmem_free(gk);
	pscan_free(ps);
	return rc;
nomem:
	bigmem_free(gk);
	pscan_free(ps);
	return tuple_nomem(e, n);
}
