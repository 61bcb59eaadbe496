/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lcparray.c - the LCP array over the suffix array (see lcparray.h). */
#include "config.h"

#include <string.h>

#include "bigmem.h"
#include "estimators/estimators.h"
#include "estimators/lcparray.h"

/* The text: bytes s, or (s NULL) the bits packed in w; n symbols */
struct lcptext {
	const uint8_t *s;
	const uint64_t *w;
	size_t n;
};

/* h extended while the suffixes at a and b agree (they do on h symbols) */
static size_t match_bytes(const uint8_t *s, size_t n, size_t a, size_t b, size_t h)
{
	size_t lim = n - (a > b ? a : b);

	while (h + 8 <= lim) {
		uint64_t x, y;

		memcpy(&x, s + a + h, 8);
		memcpy(&y, s + b + h, 8);
		if (x != y)
			break;
		h += 8;
	}
	while (h < lim && s[a + h] == s[b + h])
		h++;
	return h;
}

static size_t match_bits(const uint64_t *w, size_t n, size_t a, size_t b, size_t h)
{
	size_t lim = n - (a > b ? a : b);

	while (h < lim) {
		uint64_t d = est_bits64(w, a + h) ^ est_bits64(w, b + h);
		size_t l = d ? (size_t)__builtin_clzll(d) : 64;

		if (l > lim - h)
			l = lim - h;   /* the zeros past the end are no bits */
		h += l;
		if (l < 64)
			break;
	}
	return h;
}

/* always_inline: GCC 12 drops a prefetch whose address is chosen by a
 * condition in a helper it does not inline */
static inline __attribute__((always_inline)) size_t text_match(const struct lcptext *t, size_t a,
								size_t b, size_t h)
{
	return t->s ? match_bytes(t->s, t->n, a, b, h) : match_bits(t->w, t->n, a, b, h);
}

static inline __attribute__((always_inline)) void text_prefetch(const struct lcptext *t, size_t a)
{
	if (t->s)
		__builtin_prefetch(t->s + a);
	else
		__builtin_prefetch(t->w + (a >> 6));
}

/* The sparse Phi method (Kärkkäinen, Manzini, Puglisi 2009) with every
 * LCPARRAY_Q-th text position sampled: PLCP at the samples in text order
 * (PLCP[i + q] >= PLCP[i] - q), then each LCP from its sample's bound
 * (PLCP[i + d] >= PLCP[i] - d), O(q n) in all however long the repeats.
 * 4N/q bytes besides the suffix array instead of 4N: the 8M-bit expansion
 * of 1M skewed bytes stays well under 96 MB.  Kasai et al.'s pass (2001),
 * which deeprank.c ran before, needs the inverse suffix array and reads it,
 * the suffix array and the text at random for every suffix. */
#define LCPARRAY_Q 4
/* Steps ahead for the prefetches below (8: 0.79 s, 32: 0.71 s, as 16
 * within noise, the whole t-tuple/LRS of 10M random bytes).
 * __builtin_prefetch is a hint that changes the speed,
 * never the result ("Data prefetch instructions are generally treated as
 * hints", gcc.gnu.org/projects/prefetch.html), and every address asked
 * for here lies inside its array. */
#define LCPARRAY_AHEAD 16

static size_t lcparray_run(const struct lcptext *t, saidx_t *sa)
{
	const size_t n = t->n, q = LCPARRAY_Q, ns = (n + q - 1) / q;
	saidx_t *phi = bigmem_calloc(ns, sizeof *phi);
	size_t h = 0, v = 0;

	if (!phi)
		return (size_t)-1;
	/* Phi at the samples: the suffix before each in sorted order */
	for (size_t j = 0; j < n; j++) {
		if (j + LCPARRAY_AHEAD < n)
			__builtin_prefetch(&phi[(size_t)sa[j + LCPARRAY_AHEAD] / q], 1);
		if ((size_t)sa[j] % q == 0)
			phi[(size_t)sa[j] / q] = j > 0 ? sa[j - 1] : -1;
	}
	/* PLCP at the samples, in place */
	for (size_t k = 0; k < ns; k++) {
		if (k + LCPARRAY_AHEAD < ns && phi[k + LCPARRAY_AHEAD] >= 0)
			text_prefetch(t, (size_t)phi[k + LCPARRAY_AHEAD]);
		if (phi[k] < 0) {
			phi[k] = 0;
			h = 0;
			continue;
		}
		h = text_match(t, k * q, (size_t)phi[k], h);
		phi[k] = (saidx_t)h;
		h = h > q ? h - q : 0;
	}
	/* LCP[j] from the sample at or before SA[j]; downwards, so that SA[j - 1]
	 * is still there when LCP[j] replaces SA[j].  Each step reads the text
	 * at two random places and a random sample: they are asked for
	 * LCPARRAY_AHEAD steps ahead, as SA names them (so are the random
	 * reads and writes of the two loops above).  The whole t-tuple/LRS of
	 * 10M random bytes: 0.88 -> 0.73 s (median of 5). */
	for (size_t j = n; j-- > 1;) {
		size_t p = (size_t)sa[j], d = p % q, lb;

		if (j > LCPARRAY_AHEAD) {
			size_t pa = (size_t)sa[j - LCPARRAY_AHEAD];

			text_prefetch(t, pa);
			text_prefetch(t, (size_t)sa[j - LCPARRAY_AHEAD - 1]);
			__builtin_prefetch(&phi[pa / q]);
		}
		lb = (size_t)phi[p / q];

		h = text_match(t, p, (size_t)sa[j - 1], lb > d ? lb - d : 0);
		sa[j] = (saidx_t)h;
		if (h > v)
			v = h;
	}
	sa[0] = 0;
	bigmem_free(phi);
	return v;
}

size_t lcparray_over_sa(const uint8_t *s, size_t n, saidx_t *sa)
{
	const struct lcptext t = { s, NULL, n };

	return lcparray_run(&t, sa);
}

size_t lcparray_over_sa_bits(const uint64_t *w, size_t n, saidx_t *sa)
{
	const struct lcptext t = { NULL, w, n };

	return lcparray_run(&t, sa);
}
