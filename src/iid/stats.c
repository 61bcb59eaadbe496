/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats.c - the 19 test statistics of SP 800-90B 5.1.1-5.1.11 on one ordering
 * of the data, computed as NIST's ea_iid v1.1.7 computes them:
 *
 *  - binary data (alphabet of 2) uses 90B 5.1's Conversion I (ones per 8-bit
 *    block, last partial block included) for the directional runs,
 *    periodicity and covariance, and Conversion II (8 bits -> one byte) for
 *    the collision statistics; the median runs use 0.5;
 *  - the excursion, covariance (non-binary) and compression statistics use
 *    the raw sample values, everything else the translated symbols;
 *  - compression is the bzip2 (level 5) size of the samples written as
 *    decimal numbers separated by single spaces.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <bzlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "iid/bzsize.h"
#include "iid/iid.h"
#include "iid/stats_int.h"

/* NIST's BZ2_bzBuffToBuffCompress parameters: blockSize100k 5, verbosity 0,
 * workFactor 0 (the library default). */
#define IID_BZ_LEVEL 5

static const char *const stat_names[IID_NSTATS] = {
	"excursion", "numDirectionalRuns", "lenDirectionalRuns", "numIncreasesDecreases",
	"numRunsMedian", "lenRunsMedian", "avgCollision", "maxCollision",
	"periodicity(1)", "periodicity(2)", "periodicity(8)", "periodicity(16)",
	"periodicity(32)", "covariance(1)", "covariance(2)", "covariance(8)",
	"covariance(16)", "covariance(32)", "compression",
};

const char *iid_stat_name(int i)
{
	return i >= 0 && i < IID_NSTATS ? stat_names[i] : "?";
}

struct iid_scratch *iid_scratch_new(size_t n)
{
	struct iid_scratch *w = calloc(1, sizeof *w);
	size_t nb = n / 8 + 1;
	if (!w)
		return NULL;
	w->n = n;
	w->cs1 = malloc(nb);
	w->cs2 = malloc(nb);
	/* + 32: the packed path copies whole 32-byte table rows */
	w->text = malloc(4 * n + 1 + 32);
	w->vals = malloc(n + 8);
	w->dest_cap = (size_t)ceil(1.01 * (double)(4 * n)) + 600;
	w->dest = malloc(w->dest_cap);
	w->bz = iid_bzwork_new(IID_BZ_LEVEL, 4 * n);   /* the text: at most 4 bytes a sample */
	if (!w->cs1 || !w->cs2 || !w->text || !w->vals || !w->dest || !w->bz) {
		iid_scratch_free(w);
		return NULL;
	}
	return w;
}

void iid_scratch_free(struct iid_scratch *w)
{
	if (!w)
		return;
	free(w->cs1);
	free(w->cs2);
	free(w->text);
	free(w->vals);
	free(w->dest);
	free(w->bin);
	iid_bzwork_free(w->bz);
	free(w);
}

/* 5.1.1: max |running sum - i * mean|, in double as NIST accumulates it.
 * With S_i the running sum, D_i = n S_i - (i+1) sum is an exact integer and
 * NIST's value is |D_i| / n up to rounding far below 1/n: find max |D_i|
 * with integers (no floating-point dependency chain), then evaluate NIST's
 * expression at every position within a safe margin of it. */
/* sum of x[0..63] */
static inline uint64_t sum64(const uint8_t *x)
{
#ifdef __SSE2__
	__m128i z = _mm_setzero_si128(), acc = z;
	for (int k = 0; k < 4; k++)
		acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(x + 16 * k)), z));
	return (uint64_t)_mm_cvtsi128_si64(acc) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc));
#else
	uint64_t t = 0;
	for (int k = 0; k < 64; k++)
		t += x[k];
	return t;
#endif
}

/* sum of x[0..7] */
static inline uint64_t sum8(const uint8_t *x)
{
	uint64_t v;
	memcpy(&v, x, 8);
	v = (v & 0x00ff00ff00ff00ffULL) + (v >> 8 & 0x00ff00ff00ff00ffULL);
	return (v * 0x0001000100010001ULL) >> 48;
}

/* Moves *i past whole blocks of 64, then of 8, samples over which D (a step
 * of nn x - sm per sample; wup and wdn bound 64 steps' rise and fall) stays
 * below `up` and above `down`, adding their totals to *D and *S: the
 * extremes cannot lie inside them.  Stops where one might. */
static void excursion_skip(const uint8_t *x, size_t n, size_t *i, int64_t *D, uint64_t *S,
			   int64_t nn, int64_t sm, int64_t wup, int64_t wdn, int64_t up, int64_t down)
{
	while (*i + 64 <= n && *D + wup < up && *D + wdn > down) {
		uint64_t t = sum64(x + *i);
		*S += t;
		*D += nn * (int64_t)t - 64 * sm;
		*i += 64;
	}
	while (*i + 8 <= n && *D + wup / 8 < up && *D + wdn / 8 > down) {
		uint64_t t = sum8(x + *i);
		*S += t;
		*D += nn * (int64_t)t - 8 * sm;
		*i += 8;
	}
}

static double excursion(const uint8_t *x, size_t n, double mean, uint64_t sum, unsigned xmax)
{
	int64_t D = 0, hi = 0, lo = 0, g, thr, nn = (int64_t)n, sm = (int64_t)sum;
	/* NIST's value is off |D_i| / n by at most 3 * 255 n 2^-53: keep every
	 * position within twice that (in units of 1/n) of the maximum */
	int64_t margin = (int64_t)ceil(6.0 * 256.0 * (double)n * (double)n / 9007199254740992.0) + 2;
	/* how far 64 steps (n x_i - sum each) can move D up and down */
	int64_t wup = 64 * (nn * (int64_t)xmax - sm), wdn = -64 * sm;
	uint64_t S = 0;
	double max = 0.0;
	size_t i;

	if (n > IID_EXACT_MAX_N) {
		/* |D_i| <= 255 n^2 would not fit: NIST's loop as it is */
		double run = 0.0;
		for (i = 0; i < n; i++) {
			double d;
			run += x[i];
			d = fabs(run - (double)(i + 1) * mean);
			if (d > max)
				max = d;
		}
		return max;
	}
	if (wup < 0)
		wup = 0;
	/* max and min of D */
	for (i = 0; i < n;) {
		excursion_skip(x, n, &i, &D, &S, nn, sm, wup, wdn, hi + 1, lo - 1);
		for (size_t e = i + 8 < n ? i + 8 : n; i < e; i++) {
			D += nn * x[i] - sm;
			hi = D > hi ? D : hi;
			lo = D < lo ? D : lo;
		}
	}
	g = hi > -lo ? hi : -lo;
	thr = g - margin;
	/* NIST's expression wherever D comes within the margin of them */
	D = 0;
	S = 0;
	for (i = 0; i < n;) {
		excursion_skip(x, n, &i, &D, &S, nn, sm, wup, wdn, thr, -thr);
		for (size_t e = i + 8 < n ? i + 8 : n; i < e; i++) {
			S += x[i];
			D += nn * x[i] - sm;
			if (D >= thr || D <= -thr) {
				/* NIST's run: the same integer, accumulated exactly
				 * in double */
				double d, run = (double)S;
				d = fabs(run - (double)(i + 1) * mean);
				if (d > max)
					max = d;
			}
		}
	}
	return max;
}

/* Feeds r the bits (x_i <= y_i) for i < m, y_i = y[i] or, with y NULL, the
 * bound t; returns how many are set.  64 at a time as the bits of a word,
 * 16 bytes per SSE2 compare: a <= b (unsigned) <=> min(a, b) == a. */
static size_t runs_of_le(const uint8_t *x, const uint8_t *y, uint8_t t, size_t m,
			 struct iid_bitruns *r)
{
	size_t i = 0, ones = 0;
#ifdef __SSE2__
	const __m128i tv = _mm_set1_epi8((char)t);
	for (; i + 64 <= m; i += 64) {
		uint64_t s = 0;
		for (unsigned k = 0; k < 4; k++) {
			__m128i a = _mm_loadu_si128((const __m128i *)(x + i + 16 * k));
			__m128i b = y ? _mm_loadu_si128((const __m128i *)(y + i + 16 * k)) : tv;
			__m128i le = _mm_cmpeq_epi8(_mm_min_epu8(a, b), a);
			s |= (uint64_t)(uint16_t)_mm_movemask_epi8(le) << (16 * k);
		}
		ones += bitops_popcount64(s);
		iid_bitruns_feed(r, s, 64);
	}
#endif
	while (i < m) {
		unsigned nb = m - i < 64 ? (unsigned)(m - i) : 64;
		uint64_t s = 0;
		for (unsigned k = 0; k < nb; k++)
			s |= (uint64_t)(x[i + k] <= (y ? y[i + k] : t)) << k;
		ones += bitops_popcount64(s);
		iid_bitruns_feed(r, s, nb);
		i += nb;
	}
	return ones;
}

/* 5.1.2-5.1.4 over s'_i = -1 if x_i > x_{i+1} else +1 (i < m-1):
 * number of runs, longest run, max(#+1, #-1). */
void iid_stat_directional(const uint8_t *x, size_t m, long double *num, long double *len,
			  long double *incdec)
{
	size_t nalt = m > 0 ? m - 1 : 0, pos;
	struct iid_bitruns r;

	iid_bitruns_init(&r);
	pos = runs_of_le(x, x + 1, 0, nalt, &r);
	*num = nalt > 0 ? r.changes + 1 : 0;
	*len = iid_bitruns_longest(&r);
	*incdec = pos > nalt - pos ? pos : nalt - pos;
}

/* 5.1.5-5.1.6 over s'_i = -1 if x_i < median else +1; x is integer so
 * x < median <=> x <= ceil(median) - 1. */
static void median_runs(const uint8_t *x, size_t n, double median, long double *num,
			long double *len)
{
	double c = ceil(median);
	struct iid_bitruns r;

	iid_bitruns_init(&r);
	if (c >= 1.0) {
		/* c > 255: every sample is below */
		runs_of_le(x, NULL, c > 255.0 ? 255 : (uint8_t)(c - 1.0), n, &r);
	} else {
		/* no sample is below: one run */
		for (size_t i = 0; i < n; i += 64)
			iid_bitruns_feed(&r, 0, n - i < 64 ? (unsigned)(n - i) : 64);
	}
	*num = n > 0 ? r.changes + 1 : 0;
	*len = iid_bitruns_longest(&r);
}

/* 5.1.7-5.1.8: split the data into consecutive stretches that each end at the
 * first repeated value; average and maximum stretch length. */
void iid_stat_collisions(const uint8_t *x, size_t n, long double *avg, long double *max)
{
	uint32_t stamp[256] = { 0 };
	uint32_t gen = 1;
	unsigned sum = 0, count = 0, mx = 0;
	size_t start = 0, p = 0;

	while (p < n) {
		if (stamp[x[p]] == gen) {
			unsigned len = (unsigned)(p - start + 1);
			sum += len;
			count++;
			if (len > mx)
				mx = len;
			start = ++p;
			gen++;
		} else {
			stamp[x[p]] = gen;
			p++;
		}
	}
	(void)start;
	/* NIST: divide(sum, size) in double; 0/0 gives NaN like NIST's */
	*avg = (long double)((double)(int)sum / (double)(int)count);
	*max = mx;
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define IID_X86_AVX2 1
/* iid_stat_periodicity's count over i < *done (a multiple of 32 up to len),
 * 32 bytes at a time: the statistic that most often runs alone after the
 * probe (periodicity at a lag whose original value sits in a tail) is then
 * a single pass at twice SSE2's width. */
__attribute__((target("avx2"))) static unsigned long periodicity_avx2(const uint8_t *x, size_t len,
								    unsigned p, size_t *done)
{
	unsigned long t = 0;
	size_t i = 0;
	while (i + 32 <= len) {
		/* byte counters take at most 255 rounds */
		__m256i acc = _mm256_setzero_si256();
		size_t end = i + 32 * 255 < len ? i + 32 * 255 : len;
		uint64_t part[4];
		for (; i + 32 <= end; i += 32) {
			__m256i a = _mm256_loadu_si256((const __m256i *)(x + i));
			__m256i b = _mm256_loadu_si256((const __m256i *)(x + i + p));
			acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(a, b));
		}
		_mm256_storeu_si256((__m256i *)part, _mm256_sad_epu8(acc, _mm256_setzero_si256()));
		t += (unsigned long)(part[0] + part[1] + part[2] + part[3]);
	}
	*done = i;
	return t;
}
#endif

/* 5.1.9: #{i : x_i = x_{i+p}}; 5.1.10: sum x_i x_{i+p} (16 bytes at a time
 * where SSE2 is there, 32 for 5.1.9 where AVX2 is: the compiler's default
 * flags do not vectorise these) */
unsigned long iid_stat_periodicity(const uint8_t *x, size_t m, unsigned p)
{
	unsigned long t = 0;
	size_t i = 0, len;
	if (m <= p)
		return 0;
	len = m - p;
#ifdef IID_X86_AVX2
	if (__builtin_cpu_supports("avx2"))
		t = periodicity_avx2(x, len, p, &i);
#endif
#ifdef __SSE2__
	while (i + 16 <= len) {
		/* byte counters take at most 255 rounds */
		__m128i acc = _mm_setzero_si128();
		size_t end = i + 16 * 255 < len ? i + 16 * 255 : len;
		uint64_t part[2];
		for (; i + 16 <= end; i += 16) {
			__m128i a = _mm_loadu_si128((const __m128i *)(x + i));
			__m128i b = _mm_loadu_si128((const __m128i *)(x + i + p));
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(a, b));
		}
		_mm_storeu_si128((__m128i *)part, _mm_sad_epu8(acc, _mm_setzero_si128()));
		t += (unsigned long)(part[0] + part[1]);
	}
#endif
	for (; i < len; i++)
		t += x[i] == x[i + p];
	return t;
}

unsigned long iid_stat_covariance(const uint8_t *x, size_t m, unsigned p)
{
	unsigned long t = 0;
	size_t i = 0, len;
	if (m <= p)
		return 0;
	len = m - p;
#ifdef __SSE2__
	while (i + 16 <= len) {
		/* 32-bit lanes gain at most 4 * 255^2 per round: 4096 rounds fit */
		const __m128i z = _mm_setzero_si128();
		__m128i acc = z;
		size_t end = i + 16 * 4096 < len ? i + 16 * 4096 : len;
		uint32_t part[4];
		for (; i + 16 <= end; i += 16) {
			__m128i a = _mm_loadu_si128((const __m128i *)(x + i));
			__m128i b = _mm_loadu_si128((const __m128i *)(x + i + p));
			acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_unpacklo_epi8(a, z),
								 _mm_unpacklo_epi8(b, z)));
			acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_unpackhi_epi8(a, z),
								 _mm_unpackhi_epi8(b, z)));
		}
		_mm_storeu_si128((__m128i *)part, acc);
		t += (unsigned long)part[0] + part[1] + part[2] + part[3];
	}
#endif
	for (; i < len; i++)
		t += (unsigned)x[i] * x[i + p];
	return t;
}

/* decimal renderings "v " of 0..255 */
const char *iid_dec_str(unsigned v, unsigned *len)
{
	static char tab[256][5];
	static unsigned char tlen[256];
	static int ready;
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		for (unsigned i = 0; i < 256; i++) {
			char *s = tab[i];
			unsigned k = 0;
			if (i >= 100) s[k++] = (char)('0' + i / 100);
			if (i >= 10) s[k++] = (char)('0' + i / 10 % 10);
			s[k++] = (char)('0' + i % 10);
			s[k++] = ' ';
			tlen[i] = (unsigned char)k;
		}
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	*len = tlen[v];
	return tab[v];
}

/* 5.1.11 */

/* NIST sizes bzip2's output buffer as ceil(1.01 len) + 600 for a text of
 * len bytes and scores 0 if bzip2 needs more */
static unsigned int nist_dest_len(size_t len, const struct iid_scratch *w)
{
	unsigned int dest_len = (unsigned int)ceil(1.01 * (double)len) + 600;
	return dest_len > w->dest_cap ? (unsigned int)w->dest_cap : dest_len;
}

int iid_compress_values(const uint8_t *v, size_t n, struct iid_scratch *w, long double *out,
			struct err *e)
{
	char *p = w->text;
	size_t len;
	unsigned int dest_len;
	int rc;

	if (w->fast_bz) {
		/* the size without writing the text */
		uint64_t size, tlen;
		if (iid_bz2_size_decimal(v, n, IID_BZ_LEVEL, w->bz, &size, &tlen) == 0) {
			*out = size <= nist_dest_len(tlen, w) ? (long double)size : 0.0L;
			return 0;
		}
		/* declined (a periodic block, or a single sample): libbz2,
		 * whose own sorter handles it */
	}
	for (size_t i = 0; i < n; i++) {
		unsigned l;
		const char *s = iid_dec_str(v[i], &l);
		memcpy(p, s, 4);   /* table rows are 5 bytes: copy 4, advance by l */
		p += l;
	}
	len = (size_t)(p - w->text);
	if (len > 0)
		len--;      /* no space after the last number */
	dest_len = nist_dest_len(len, w);
	rc = BZ2_bzBuffToBuffCompress(w->dest, &dest_len, w->text, (unsigned int)len,
				      IID_BZ_LEVEL, 0, 0);
	if (rc == BZ_OK)
		*out = dest_len;
	else if (rc == BZ_OUTBUFF_FULL)
		*out = 0;
	else
		return err_set(e, ERR_INTERNAL, "bzip2 compression failed (code %d)", rc);
	return 0;
}

void iid_scratch_fast_bz(struct iid_scratch *w, int on)
{
	w->fast_bz = on;
}

int iid_stats_compute(const struct iid_data *d, const uint8_t *sym, const uint8_t *raw,
		      const unsigned char *want, long double out[IID_NSTATS],
		      struct iid_scratch *w, struct err *e)
{
	size_t n = d->n, nb = n / 8 + (n % 8 != 0);
	int binary = d->k == 2;

	if (wanted(want, ST_EXCURSION))
		out[ST_EXCURSION] = excursion(raw, n, d->rawmean, d->rawsum, d->maxsym);

	if (binary) {
		/* 90B 5.1 Conversion I (ones per 8-bit block) and II (the block as a
		 * byte, first bit most significant), each only when needed.  Eight
		 * 0/1 bytes at a time: Conversion I is their popcount; for II the
		 * multiplier moves byte j's bit to bit 63 - j without carries. */
		int need1 = any_wanted(want, ST_NUMDIR, ST_NUMINCDEC) ||
			    any_wanted(want, ST_PERIOD0, ST_COV0 + 4);
		int need2 = any_wanted(want, ST_AVGCOL, ST_MAXCOL);
		size_t full = n / 8;
		if (need1 || need2) {
			for (size_t b = 0; b < full; b++) {
				uint64_t v;
				memcpy(&v, sym + 8 * b, 8);
				if (need1)
					w->cs1[b] = (uint8_t)bitops_popcount64(v);
				if (need2) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
					w->cs2[b] = (uint8_t)((v * 0x8040201008040201ULL) >> 56);
#else
					uint8_t c = 0;
					for (int j = 0; j < 8; j++)
						c = (uint8_t)(c | (sym[8 * b + j] << (7 - j)));
					w->cs2[b] = c;
#endif
				}
			}
			if (full < nb) {
				w->cs1[full] = w->cs2[full] = 0;
				for (size_t i = 8 * full; i < n; i++) {
					w->cs1[full] = (uint8_t)(w->cs1[full] + sym[i]);
					w->cs2[full] = (uint8_t)(w->cs2[full] | (sym[i] << (7 - i % 8)));
				}
			}
		}
	}

	if (any_wanted(want, ST_NUMDIR, ST_NUMINCDEC)) {
		long double a, b, c;
		if (binary)
			iid_stat_directional(w->cs1, nb, &a, &b, &c);
		else
			iid_stat_directional(sym, n, &a, &b, &c);
		if (wanted(want, ST_NUMDIR)) out[ST_NUMDIR] = a;
		if (wanted(want, ST_LENDIR)) out[ST_LENDIR] = b;
		if (wanted(want, ST_NUMINCDEC)) out[ST_NUMINCDEC] = c;
	}

	if (any_wanted(want, ST_NUMMED, ST_LENMED)) {
		long double a, b;
		median_runs(sym, n, binary ? 0.5 : d->median, &a, &b);
		if (wanted(want, ST_NUMMED)) out[ST_NUMMED] = a;
		if (wanted(want, ST_LENMED)) out[ST_LENMED] = b;
	}

	if (any_wanted(want, ST_AVGCOL, ST_MAXCOL)) {
		long double a, b;
		if (binary)
			iid_stat_collisions(w->cs2, nb, &a, &b);
		else
			iid_stat_collisions(sym, n, &a, &b);
		if (wanted(want, ST_AVGCOL)) out[ST_AVGCOL] = a;
		if (wanted(want, ST_MAXCOL)) out[ST_MAXCOL] = b;
	}

	for (int l = 0; l < 5; l++) {
		if (wanted(want, ST_PERIOD0 + l))
			out[ST_PERIOD0 + l] = binary ? iid_stat_periodicity(w->cs1, nb, iid_lags[l])
						     : iid_stat_periodicity(sym, n, iid_lags[l]);
		/* NIST: covariance of raw values for non-binary data (the conversions
		 * only make sense for 0/1 symbols) */
		if (wanted(want, ST_COV0 + l))
			out[ST_COV0 + l] = binary ? iid_stat_covariance(w->cs1, nb, iid_lags[l])
						  : iid_stat_covariance(raw, n, iid_lags[l]);
	}

	if (wanted(want, ST_COMPRESSION))
		return iid_compress_values(raw, n, w, &out[ST_COMPRESSION], e);
	return 0;
}
