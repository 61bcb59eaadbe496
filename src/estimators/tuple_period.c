/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuple_period.c - 90B 6.3.5/6.3.6 counts for a bitstring that repeats one
 * short period from its first bit to its last (a stuck source: 010 over
 * and over, a byte counter), without sorting or counting its positions.
 *
 * With period p, position i begins the same t-tuple as i mod p, so the
 * counts of every t-tuple follow from the p phases: phase f has
 * m_f(t) = floor((n - t - f) / p) + 1 positions with t bits, and a t-tuple
 * counts the m_f(t) of every phase that begins with it.  Sorting the
 * phases' 64-bit windows groups those of each t-tuple for t < 64: Q[t] and
 * S[t] from p windows, not n positions.  Where the phases differ on 64
 * bits each 64-bit window's copies are p apart, and tuple_dist.c gives S
 * and Q from 64 on from the one run of agreement at distance p.  010
 * repeated went to the 8-bit-window suffix array (the packed keys hand
 * such patterns on): assess of 10M bytes of it took 9.6 s CPU and 450 MB,
 * now 5.9 s and 111 MB, this road a pass over the words. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "estimators/lcpint.h"
#include "estimators/tuple.h"
#include "estimators/tuple_dist.h"

struct phase {
	uint64_t key;   /* its first 64 bits */
	size_t f;       /* the phase */
};

static int cmp_phase(const void *a, const void *b)
{
	const uint64_t x = ((const struct phase *)a)->key, y = ((const struct phase *)b)->key;

	return (x > y) - (x < y);
}

/* The smallest p <= TUPLE_PERIOD_MAX at which the first 64 bits recur, when
 * from there on the bits repeat those p before them to the end (one run of
 * agreement at distance p, into td); else 0.  -1 out of memory. */
static long find_period(const uint64_t *w, size_t n, struct tuple_dist *td)
{
	const uint64_t first = est_bits64(w, 0);
	size_t p = 1;

	while (p <= TUPLE_PERIOD_MAX && p + 128 <= n && est_bits64(w, p) != first)
		p++;
	if (p > TUPLE_PERIOD_MAX || p + 128 > n)
		return 0;
	if (tuple_dist_scan(td, w, n, p) != 0)
		return -1;
	if (td->nrun != 1 || td->at[0] != 0 || td->len[0] != n - p)
		return 0;
	return (long)p;
}

/* Q[t] and S[t] for t < 64 from the phases sorted by their 64 bits. */
static void phase_counts(const struct phase *ph, size_t p, size_t n, uint32_t *q, uint64_t *s)
{
	for (unsigned t = 1; t < 64; t++) {
		uint64_t c = 0, most = 0, sum = 0;

		for (size_t k = 0; k < p; k++) {
			if (k > 0 && (ph[k].key ^ ph[k - 1].key) >> (64 - t)) {
				sum += c * (c - 1) / 2;
				c = 0;
			}
			c += (n - t - ph[k].f) / p + 1;   /* m_f(t): f + t <= n */
			most = c > most ? c : most;
		}
		s[t] = sum + c * (c - 1) / 2;
		q[t] = (uint32_t)most;
	}
}

int tuple_period_words(const uint64_t *w, size_t n, struct lcpint *st, struct tuple_dist *td,
		       struct err *e)
{
	uint32_t q[64] = { 0 };
	uint64_t s[64] = { 0 };
	struct phase *ph = NULL;
	long p;
	int rc = 0;

	if (n < 256 || n > TUPLE_COUNT_MAX)
		return 0;
	p = find_period(w, n, td);
	if (p < 0)
		goto nomem;
	if (p == 0)
		goto done;
	/* every phase has 64 bits (p + 128 <= n) */
	ph = malloc((size_t)p * sizeof *ph);
	if (!ph)
		goto nomem;
	for (size_t f = 0; f < (size_t)p; f++) {
		ph[f].key = est_bits64(w, f);
		ph[f].f = f;
	}
	qsort(ph, (size_t)p, sizeof *ph, cmp_phase);
	for (size_t k = 1; k < (size_t)p; k++)
		if (ph[k].key == ph[k - 1].key)
			goto done;   /* two phases alike on 64 bits: copies not all p apart */
	phase_counts(ph, (size_t)p, n, q, s);
	if (!tuple_dist_periodic(td, (size_t)p) || tuple_dist_finish(td) != 0)
		goto nomem;   /* one run: no gap to cross; only memory can fail */
	/* S[64] both ways: the 64-bit windows are the phases' */
	{
		uint64_t s64 = 0;

		for (size_t f = 0; f < (size_t)p; f++) {
			const uint64_t m = (n - 64 - f) / (size_t)p + 1;

			s64 += m * (m - 1) / 2;
		}
		if (s64 != tuple_dist_s(td, 64))
			goto done;
	}
	if (tuple_counts_set(st, q, s, td) != 0)
		goto nomem;
	rc = 1;
done:
	free(ph);
	if (rc != 1)
		tuple_dist_free(td);
	return rc;
nomem:
	rc = tuple_nomem(e, n);
	goto done;
}
