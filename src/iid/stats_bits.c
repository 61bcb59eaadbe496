/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats_bits.c - the 5.1 statistics of binary data in packed form (90B 5.1,
 * computed as NIST's ea_iid v1.1.7 does on the unpacked samples).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "iid/iid.h"
#include "iid/stats_int.h"

/* For an alphabet of two the permutation tests draw packed arrangements
 * (iid_arrange_bits) and the statistics work on words of 64 samples: the
 * conversions are per-byte popcounts (I) and bit reversals (II), runs are
 * counted a word at a time (iid_bitruns), and the excursion and the
 * compression's samples come from per-byte tables.  The
 * values are those iid_stats_compute gives on the same ordering unpacked
 * (tests/test_iid.c compares them). */

/* per byte value (sample 8b + j in bit j): excursion steps in units of 1/n */
struct iid_bintab {
	size_t n;                     /* built for this data */
	uint64_t sum;
	uint8_t val[2];
	int64_t step[2];              /* n * value - sum for symbol 0, 1 */
	int64_t tot[256], mx[256], mn[256];
	uint8_t pop[256];
	uint8_t vals[256][8];         /* the 8 samples' values */
};

static const struct iid_bintab *bintab(const struct iid_data *d, struct iid_scratch *w)
{
	struct iid_bintab *t = w->bin;
	if (t && w->bin_for == d && t->n == d->n && t->sum == d->rawsum &&
	    t->val[0] == d->binval[0] && t->val[1] == d->binval[1])
		return t;
	if (!t && !(t = w->bin = malloc(sizeof *t)))
		return NULL;
	w->bin_for = d;
	t->n = d->n;
	t->sum = d->rawsum;
	t->val[0] = d->binval[0];
	t->val[1] = d->binval[1];
	t->step[0] = (int64_t)d->n * d->binval[0] - (int64_t)d->rawsum;
	t->step[1] = (int64_t)d->n * d->binval[1] - (int64_t)d->rawsum;
	for (unsigned v = 0; v < 256; v++) {
		int64_t D = 0, mx = INT64_MIN, mn = INT64_MAX;
		for (unsigned j = 0; j < 8; j++) {
			unsigned bit = v >> j & 1;
			D += t->step[bit];
			mx = D > mx ? D : mx;
			mn = D < mn ? D : mn;
			t->vals[v][j] = d->binval[bit];
		}
		t->tot[v] = D;
		t->mx[v] = mx;
		t->mn[v] = mn;
		t->pop[v] = (uint8_t)bitops_popcount64(v);
	}
	return t;
}

static inline unsigned byte_at(const uint64_t *x, size_t b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* byte b % 8 of word b / 8 is byte b of the array (char may alias) */
	return ((const unsigned char *)x)[b];
#else
	return (unsigned)(x[b / 8] >> (8 * (b % 8))) & 255;
#endif
}

static inline unsigned bit_at(const uint64_t *x, size_t i)
{
	return (unsigned)(x[i / 64] >> (i % 64)) & 1;
}

/* 5.1.1 on packed data.  With S_i the running sum and D_i = n S_i - (i+1) sum
 * (exact integers), NIST's |S_i - (i+1) mean| is |D_i| / n up to rounding
 * far below 1/n; we find max |D_i| by bytes, then evaluate NIST's double
 * expression at every position within a safe margin of it. */
static double excursion_bits(const struct iid_data *d, const struct iid_bintab *t,
			     const uint64_t *x)
{
	size_t n = d->n, nbytes = n / 8, nwords = nbytes / 8, ones = 0;
	int64_t D = 0, hi = 0, lo = 0, thr = 0;
	/* how far 64 steps can move D up (wup >= 0) and down (wdn <= 0) */
	int64_t s0 = t->step[0], s1 = t->step[1];
	int64_t wup = 64 * (s0 > s1 ? (s0 > 0 ? s0 : 0) : (s1 > 0 ? s1 : 0));
	int64_t wdn = 64 * (s0 < s1 ? (s0 < 0 ? s0 : 0) : (s1 < 0 ? s1 : 0));
	double nn = (double)n, res = 0.0, mean = d->rawmean, run;
	/* NIST's value is off |D_i| / n by at most 3 * 255 n 2^-53: keep every
	 * position within twice that (in units of 1/n) of the maximum */
	int64_t margin = (int64_t)ceil(6.0 * 256.0 * nn * nn / 9007199254740992.0) + 2;
	int all = n > IID_EXACT_MAX_N;   /* D could overflow: evaluate everywhere */

	if (!all) {
		/* max and min of D: a word whose 64 steps cannot pass the
		 * extremes so far moves D by its total; others go by bytes */
		for (size_t b = 0; b < nbytes; b++) {
			unsigned v;
			int64_t h, l;
			if (b % 8 == 0 && b / 8 < nwords && D + wup <= hi && D + wdn >= lo) {
				int64_t p = bitops_popcount64(x[b / 8]);
				D += p * s1 + (64 - p) * s0;
				b += 7;
				continue;
			}
			v = byte_at(x, b);
			h = D + t->mx[v];
			l = D + t->mn[v];
			hi = h > hi ? h : hi;
			lo = l < lo ? l : lo;
			D += t->tot[v];
		}
		for (size_t i = 8 * nbytes; i < n; i++) {
			D += t->step[bit_at(x, i)];
			hi = D > hi ? D : hi;
			lo = D < lo ? D : lo;
		}
		thr = (hi > -lo ? hi : -lo) - margin;
	}
	D = 0;
	for (size_t b = 0; b < nbytes; b++) {
		unsigned v;
		if (!all && b % 8 == 0 && b / 8 < nwords && D + wup < thr && D + wdn > -thr) {
			int64_t p = bitops_popcount64(x[b / 8]);
			D += p * s1 + (64 - p) * s0;
			ones += (size_t)p;
			b += 7;
			continue;
		}
		v = byte_at(x, b);
		if (all || D + t->mx[v] >= thr || D + t->mn[v] <= -thr) {
			size_t o = ones;
			for (unsigned j = 0; j < 8; j++) {
				size_t i = 8 * b + j;
				double dev;
				o += v >> j & 1;
				run = (double)d->binval[0] * (double)(i + 1 - o) +
				      (double)d->binval[1] * (double)o;
				dev = fabs(run - (double)(i + 1) * mean);
				if (dev > res)
					res = dev;
			}
		}
		ones += t->pop[v];
		if (!all)
			D += t->tot[v];
	}
	for (size_t i = 8 * nbytes; i < n; i++) {
		double dev;
		ones += bit_at(x, i);
		run = (double)d->binval[0] * (double)(i + 1 - ones) + (double)d->binval[1] * (double)ones;
		dev = fabs(run - (double)(i + 1) * mean);
		if (dev > res)
			res = dev;
	}
	return res;
}

/* number of runs and longest run of equal bits in bits 0..nbits-1 */
static void bit_runs(const uint64_t *x, size_t nbits, size_t *runs, size_t *longest)
{
	struct iid_bitruns r;
	size_t nw = nbits / 64;
	iid_bitruns_init(&r);
	for (size_t k = 0; k < nw; k++)
		iid_bitruns_feed(&r, x[k], 64);
	if (nbits % 64)
		iid_bitruns_feed(&r, x[nw], (unsigned)(nbits % 64));
	*runs = nbits > 0 ? r.changes + 1 : 0;
	*longest = iid_bitruns_longest(&r);
}

int iid_stats_compute_bits(const struct iid_data *d, const uint64_t *x,
			   const unsigned char *want, long double out[IID_NSTATS],
			   struct iid_scratch *w, struct err *e)
{
	size_t n = d->n, nb = n / 8 + (n % 8 != 0), full = n / 8;
	const struct iid_bintab *t = bintab(d, w);
	int need1 = any_wanted(want, ST_NUMDIR, ST_NUMINCDEC) ||
		    any_wanted(want, ST_PERIOD0, ST_COV0 + 4);
	int need2 = any_wanted(want, ST_AVGCOL, ST_MAXCOL);

	if (!t)
		return err_set(e, ERR_NOMEM, "out of memory for the permutation tests");
	if (wanted(want, ST_EXCURSION))
		out[ST_EXCURSION] = excursion_bits(d, t, x);

	/* 90B 5.1 Conversion I (ones per 8-bit block) and II (the block as a
	 * byte, first sample most significant), eight blocks per 64-bit word:
	 * byte j of x[k] is block 8k + j; the last block is partial */
	if (need1 || need2) {
		size_t nw = full / 8;
		for (size_t k = 0; k < nw; k++) {
			uint64_t c = bitops_popcount_bytes(x[k]), r = bitops_reverse_bytes(x[k]);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			memcpy(w->cs1 + 8 * k, &c, 8);
			memcpy(w->cs2 + 8 * k, &r, 8);
#else
			for (unsigned j = 0; j < 8; j++) {
				w->cs1[8 * k + j] = (uint8_t)(c >> (8 * j));
				w->cs2[8 * k + j] = (uint8_t)(r >> (8 * j));
			}
#endif
		}
		for (size_t b = 8 * nw; b < nb; b++) {
			unsigned v = byte_at(x, b);
			if (b == full)
				v &= (1u << (n % 8)) - 1;
			w->cs1[b] = t->pop[v];
			w->cs2[b] = (uint8_t)bitops_reverse_bytes(v);
		}
	}
	if (any_wanted(want, ST_NUMDIR, ST_NUMINCDEC)) {
		long double a, b, c;
		iid_stat_directional(w->cs1, nb, &a, &b, &c);
		if (wanted(want, ST_NUMDIR)) out[ST_NUMDIR] = a;
		if (wanted(want, ST_LENDIR)) out[ST_LENDIR] = b;
		if (wanted(want, ST_NUMINCDEC)) out[ST_NUMINCDEC] = c;
	}
	if (any_wanted(want, ST_NUMMED, ST_LENMED)) {
		/* 5.1.5-5.1.6 with median 0.5: runs of equal bits */
		size_t runs, longest = 0;
		bit_runs(x, n, &runs, &longest);
		if (wanted(want, ST_NUMMED)) out[ST_NUMMED] = runs;
		if (wanted(want, ST_LENMED)) out[ST_LENMED] = longest;
	}
	if (any_wanted(want, ST_AVGCOL, ST_MAXCOL)) {
		long double a, b;
		iid_stat_collisions(w->cs2, nb, &a, &b);
		if (wanted(want, ST_AVGCOL)) out[ST_AVGCOL] = a;
		if (wanted(want, ST_MAXCOL)) out[ST_MAXCOL] = b;
	}
	for (int l = 0; l < 5; l++) {
		if (wanted(want, ST_PERIOD0 + l))
			out[ST_PERIOD0 + l] = iid_stat_periodicity(w->cs1, nb, iid_lags[l]);
		if (wanted(want, ST_COV0 + l))
			out[ST_COV0 + l] = iid_stat_covariance(w->cs1, nb, iid_lags[l]);
	}
	if (wanted(want, ST_COMPRESSION)) {
		uint8_t *v = w->vals;
		for (size_t b = 0; b < full; b++)
			memcpy(v + 8 * b, t->vals[byte_at(x, b)], 8);
		for (size_t i = 8 * full; i < n; i++)
			v[i] = d->binval[bit_at(x, i)];
		return iid_compress_values(v, n, w, &out[ST_COMPRESSION], e);
	}
	return 0;
}
