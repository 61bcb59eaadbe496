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

/* without the libgcc call __builtin_popcount becomes when the flags do not
 * allow the popcnt instruction */
static inline unsigned popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned)((v * 0x0101010101010101ULL) >> 56);
}

/* the excursion's integer form needs 255 n^2 < 2^63 */
#define IID_EXACT_MAX_N 100000000

/* 90B 5.1.9 / 5.1.10 lags */
static const unsigned lags[5] = { 1, 2, 8, 16, 32 };

enum {
	ST_EXCURSION = 0, ST_NUMDIR, ST_LENDIR, ST_NUMINCDEC, ST_NUMMED, ST_LENMED,
	ST_AVGCOL, ST_MAXCOL, ST_PERIOD0, ST_COV0 = 13, ST_COMPRESSION = 18,
};

const char *iid_stat_name(int i)
{
	return i >= 0 && i < IID_NSTATS ? stat_names[i] : "?";
}

struct iid_bintab;

struct iid_scratch {
	size_t n;
	uint8_t *cs1, *cs2;      /* Conversion I and II, ceil(n/8) each */
	char *text;              /* decimal rendering for bzip2, <= 4n + 1 */
	char *dest;              /* bzip2 output */
	size_t dest_cap;
	struct iid_bzwork *bz;   /* exact bzip2 sizes without libbz2's sorter */
	int fast_bz;             /* use it (validated against libbz2 by the caller) */
	struct iid_bintab *bin;  /* tables for packed binary data ... */
	const struct iid_data *bin_for;   /* ... built for this data */
};

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
	w->dest_cap = (size_t)ceil(1.01 * (double)(4 * n)) + 600;
	w->dest = malloc(w->dest_cap);
	w->bz = iid_bzwork_new(IID_BZ_LEVEL);
	if (!w->cs1 || !w->cs2 || !w->text || !w->dest || !w->bz) {
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
static double excursion(const uint8_t *x, size_t n, double mean, uint64_t sum)
{
	int64_t D = 0, hi = 0, lo = 0, g, thr, nn = (int64_t)n, sm = (int64_t)sum;
	/* NIST's value is off |D_i| / n by at most 3 * 255 n 2^-53: keep every
	 * position within twice that (in units of 1/n) of the maximum */
	int64_t margin = (int64_t)ceil(6.0 * 256.0 * (double)n * (double)n / 9007199254740992.0) + 2;
	uint64_t S = 0;
	double max = 0.0;

	if (n > IID_EXACT_MAX_N) {
		/* |D_i| <= 255 n^2 would not fit: NIST's loop as it is */
		double run = 0.0;
		for (size_t i = 0; i < n; i++) {
			double d;
			run += x[i];
			d = fabs(run - (double)(i + 1) * mean);
			if (d > max)
				max = d;
		}
		return max;
	}
	for (size_t i = 0; i < n; i++) {
		D += nn * x[i] - sm;
		hi = D > hi ? D : hi;
		lo = D < lo ? D : lo;
	}
	g = hi > -lo ? hi : -lo;
	thr = g - margin;
	D = 0;
	for (size_t i = 0; i < n; i++) {
		S += x[i];
		D += nn * x[i] - sm;
		if (D >= thr || D <= -thr) {
			/* NIST's run: the same integer, accumulated exactly in double */
			double d, run = (double)S;
			d = fabs(run - (double)(i + 1) * mean);
			if (d > max)
				max = d;
		}
	}
	return max;
}

/* 5.1.2-5.1.4 over s'_i = -1 if x_i > x_{i+1} else +1 (i < m-1):
 * number of runs, longest run, max(#+1, #-1). */
static void directional(const uint8_t *x, size_t m, long double *num, long double *len,
			long double *incdec)
{
	size_t nalt = m > 0 ? m - 1 : 0, runs = 0, longest = 0, run = 0, pos = 0;
	unsigned prev;
	if (nalt > 0) {
		/* without branches on the (random) signs */
		prev = x[0] <= x[1];
		pos = prev;
		runs = run = longest = 1;
		for (size_t i = 1; i < nalt; i++) {
			unsigned s = x[i] <= x[i + 1];
			size_t same = s == prev;
			pos += s;
			runs += !same;
			run = same ? run + 1 : 1;
			longest = run > longest ? run : longest;
			prev = s;
		}
	}
	*num = runs;
	*len = longest;
	*incdec = pos > nalt - pos ? pos : nalt - pos;
}

/* 5.1.5-5.1.6 over s'_i = -1 if x_i < median else +1; x is integer so
 * x < median <=> x < ceil(median). */
static void median_runs(const uint8_t *x, size_t n, double median, long double *num,
			long double *len)
{
	int thr = (int)ceil(median);
	size_t runs = n > 0, longest = 0, run = 1;
	int prev = n > 0 ? (x[0] < thr) : 0;
	for (size_t i = 1; i < n; i++) {
		int s = x[i] < thr;
		if (s == prev) {
			run++;
		} else {
			runs++;
			if (run > longest)
				longest = run;
			run = 1;
		}
		prev = s;
	}
	if (run > longest)
		longest = run;
	*num = runs;
	*len = longest;
}

/* 5.1.7-5.1.8: split the data into consecutive stretches that each end at the
 * first repeated value; average and maximum stretch length. */
static void collisions(const uint8_t *x, size_t n, long double *avg, long double *max)
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

/* 5.1.9: #{i : x_i = x_{i+p}}; 5.1.10: sum x_i x_{i+p} (16 bytes at a time
 * where SSE2 is there: the compiler's default flags do not vectorise these) */
static unsigned long periodicity(const uint8_t *x, size_t m, unsigned p)
{
	unsigned long t = 0;
	size_t i = 0, len;
	if (m <= p)
		return 0;
	len = m - p;
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

static unsigned long covariance(const uint8_t *x, size_t m, unsigned p)
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
static const char *dec_str(unsigned v, unsigned *len)
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
static int compress_text(size_t len, struct iid_scratch *w, long double *out, struct err *e);

static int compression(const uint8_t *raw, size_t n, struct iid_scratch *w, long double *out,
		       struct err *e)
{
	char *p = w->text;

	for (size_t i = 0; i < n; i++) {
		unsigned l;
		const char *s = dec_str(raw[i], &l);
		memcpy(p, s, 4);   /* table rows are 5 bytes: copy 4, advance by l */
		p += l;
	}
	return compress_text((size_t)(p - w->text), w, out, e);
}

/* scores w->text[0..len-1] (the numbers, each followed by a space) */
static int compress_text(size_t len, struct iid_scratch *w, long double *out, struct err *e)
{
	unsigned int dest_len;
	int rc;

	if (len > 0)
		len--;      /* no space after the last number */
	/* NIST sizes the output buffer as ceil(1.01 len) + 600 and scores 0 if
	 * bzip2 needs more */
	dest_len = (unsigned int)ceil(1.01 * (double)len) + 600;
	if (dest_len > w->dest_cap)
		dest_len = (unsigned int)w->dest_cap;
	if (w->fast_bz) {
		uint64_t size;
		if (iid_bz2_size((const uint8_t *)w->text, len, IID_BZ_LEVEL, w->bz, &size) == 0) {
			*out = size <= dest_len ? (long double)size : 0.0L;
			return 0;
		}
		/* declined (periodic text): fall through to libbz2 */
	}
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

static int wanted(const unsigned char *want, int i)
{
	return !want || want[i];
}

static int any_wanted(const unsigned char *want, int from, int to)
{
	for (int i = from; i <= to; i++)
		if (wanted(want, i))
			return 1;
	return 0;
}

int iid_stats_compute(const struct iid_data *d, const uint8_t *sym, const uint8_t *raw,
		      const unsigned char *want, long double out[IID_NSTATS],
		      struct iid_scratch *w, struct err *e)
{
	size_t n = d->n, nb = n / 8 + (n % 8 != 0);
	int binary = d->k == 2;

	if (wanted(want, ST_EXCURSION))
		out[ST_EXCURSION] = excursion(raw, n, d->rawmean, d->rawsum);

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
					w->cs1[b] = (uint8_t)popcount64(v);
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
			directional(w->cs1, nb, &a, &b, &c);
		else
			directional(sym, n, &a, &b, &c);
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
			collisions(w->cs2, nb, &a, &b);
		else
			collisions(sym, n, &a, &b);
		if (wanted(want, ST_AVGCOL)) out[ST_AVGCOL] = a;
		if (wanted(want, ST_MAXCOL)) out[ST_MAXCOL] = b;
	}

	for (int l = 0; l < 5; l++) {
		if (wanted(want, ST_PERIOD0 + l))
			out[ST_PERIOD0 + l] = binary ? periodicity(w->cs1, nb, lags[l])
						     : periodicity(sym, n, lags[l]);
		/* NIST: covariance of raw values for non-binary data (the conversions
		 * only make sense for 0/1 symbols) */
		if (wanted(want, ST_COV0 + l))
			out[ST_COV0 + l] = binary ? covariance(w->cs1, nb, lags[l])
						  : covariance(raw, n, lags[l]);
	}

	if (wanted(want, ST_COMPRESSION))
		return compression(raw, n, w, &out[ST_COMPRESSION], e);
	return 0;
}

/* ---- binary data, packed ------------------------------------------------
 * For an alphabet of two the permutation tests draw packed arrangements
 * (iid_arrange_bits) and the statistics work on bytes of 8 samples: the
 * conversions are a popcount (I) and a bit reversal (II) of such a byte, and
 * runs, excursion and the compression text come from per-byte tables.  The
 * values are those iid_stats_compute gives on the same ordering unpacked
 * (tests/test_iid.c compares them). */

/* per byte value (sample 8b + j in bit j): excursion steps in units of 1/n */
struct iid_bintab {
	int64_t step[2];              /* n * value - sum for symbol 0, 1 */
	int64_t tot[256], mx[256], mn[256];
	uint8_t lead[256], trail[256], inmax[256], rev[256];
	char text[256][32];           /* the 8 numbers, each with its space */
	uint8_t tlen[256];
};

static const struct iid_bintab *bintab(const struct iid_data *d, struct iid_scratch *w)
{
	struct iid_bintab *t = w->bin;
	if (t && w->bin_for == d)
		return t;
	if (!t && !(t = w->bin = malloc(sizeof *t)))
		return NULL;
	w->bin_for = d;
	t->step[0] = (int64_t)d->n * d->binval[0] - (int64_t)d->rawsum;
	t->step[1] = (int64_t)d->n * d->binval[1] - (int64_t)d->rawsum;
	for (unsigned v = 0; v < 256; v++) {
		int64_t D = 0, mx = INT64_MIN, mn = INT64_MAX;
		unsigned run = 0, best = 0, len = 0;
		uint8_t r = 0;
		for (unsigned j = 0; j < 8; j++) {
			unsigned bit = v >> j & 1, l;
			const char *str = dec_str(d->binval[bit], &l);
			D += t->step[bit];
			mx = D > mx ? D : mx;
			mn = D < mn ? D : mn;
			run = j > 0 && bit == (v >> (j - 1) & 1) ? run + 1 : 1;
			best = run > best ? run : best;
			if (run == j + 1)
				t->lead[v] = (uint8_t)run;
			r = (uint8_t)(r | bit << (7 - j));
			memcpy(t->text[v] + len, str, l);
			len += l;
		}
		t->tot[v] = D;
		t->mx[v] = mx;
		t->mn[v] = mn;
		t->trail[v] = (uint8_t)run;
		t->inmax[v] = (uint8_t)best;
		t->rev[v] = r;
		t->tlen[v] = (uint8_t)len;
	}
	return t;
}

static inline unsigned byte_at(const uint64_t *x, size_t b)
{
	return (unsigned)(x[b / 8] >> (8 * (b % 8))) & 255;
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
	size_t n = d->n, nbytes = n / 8, ones = 0;
	int64_t D = 0, hi = 0, lo = 0, thr = 0;
	double nn = (double)n, res = 0.0, mean = d->rawmean, run;
	/* NIST's value is off |D_i| / n by at most 3 * 255 n 2^-53: keep every
	 * position within twice that (in units of 1/n) of the maximum */
	int64_t margin = (int64_t)ceil(6.0 * 256.0 * nn * nn / 9007199254740992.0) + 2;
	int all = n > IID_EXACT_MAX_N;   /* D could overflow: evaluate everywhere */

	if (!all) {
		for (size_t b = 0; b < nbytes; b++) {
			unsigned v = byte_at(x, b);
			int64_t h = D + t->mx[v], l = D + t->mn[v];
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
		unsigned v = byte_at(x, b);
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
		ones += popcount64(v);
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
static void bit_runs(const uint64_t *x, size_t nbits, const struct iid_bintab *t,
		     int want_len, size_t *runs, size_t *longest)
{
	size_t nw = nbits / 64, tr = 0, nbytes = nbits / 8;
	uint64_t prev = 0;
	for (size_t k = 0; k < nw; k++) {
		uint64_t v = x[k], c = v ^ (v << 1 | prev);
		if (k == 0)
			c &= ~1ULL;   /* sample 0 has no predecessor */
		tr += popcount64(c);
		prev = v >> 63;
	}
	if (nbits % 64) {
		uint64_t v = x[nw], c = v ^ (v << 1 | prev);
		if (nw == 0)
			c &= ~1ULL;
		c &= (1ULL << (nbits % 64)) - 1;
		tr += popcount64(c);
	}
	*runs = nbits > 0 ? tr + 1 : 0;
	if (!want_len)
		return;
	{
		size_t cl = 0, best = 0;
		unsigned cv = 2;
		for (size_t b = 0; b < nbytes; b++) {
			unsigned v = byte_at(x, b);
			size_t run = t->lead[v] + ((v & 1) == cv ? cl : 0);
			best = run > best ? run : best;
			best = t->inmax[v] > best ? t->inmax[v] : best;
			cl = t->lead[v] == 8 ? run : t->trail[v];
			cv = v >> 7;
		}
		for (size_t i = 8 * nbytes; i < nbits; i++) {
			unsigned v = bit_at(x, i);
			cl = v == cv ? cl + 1 : 1;
			cv = v;
			best = cl > best ? cl : best;
		}
		*longest = best;
	}
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
	 * byte, first sample most significant); the last block is partial */
	if (need1 || need2) {
		for (size_t b = 0; b < nb; b++) {
			unsigned v = byte_at(x, b);
			if (b == full)
				v &= (1u << (n % 8)) - 1;
			w->cs1[b] = (uint8_t)popcount64(v);
			w->cs2[b] = t->rev[v];
		}
	}
	if (any_wanted(want, ST_NUMDIR, ST_NUMINCDEC)) {
		long double a, b, c;
		directional(w->cs1, nb, &a, &b, &c);
		if (wanted(want, ST_NUMDIR)) out[ST_NUMDIR] = a;
		if (wanted(want, ST_LENDIR)) out[ST_LENDIR] = b;
		if (wanted(want, ST_NUMINCDEC)) out[ST_NUMINCDEC] = c;
	}
	if (any_wanted(want, ST_NUMMED, ST_LENMED)) {
		/* 5.1.5-5.1.6 with median 0.5: runs of equal bits */
		size_t runs, longest = 0;
		bit_runs(x, n, t, wanted(want, ST_LENMED), &runs, &longest);
		if (wanted(want, ST_NUMMED)) out[ST_NUMMED] = runs;
		if (wanted(want, ST_LENMED)) out[ST_LENMED] = longest;
	}
	if (any_wanted(want, ST_AVGCOL, ST_MAXCOL)) {
		long double a, b;
		collisions(w->cs2, nb, &a, &b);
		if (wanted(want, ST_AVGCOL)) out[ST_AVGCOL] = a;
		if (wanted(want, ST_MAXCOL)) out[ST_MAXCOL] = b;
	}
	for (int l = 0; l < 5; l++) {
		if (wanted(want, ST_PERIOD0 + l))
			out[ST_PERIOD0 + l] = periodicity(w->cs1, nb, lags[l]);
		if (wanted(want, ST_COV0 + l))
			out[ST_COV0 + l] = covariance(w->cs1, nb, lags[l]);
	}
	if (wanted(want, ST_COMPRESSION)) {
		char *p = w->text;
		for (size_t b = 0; b < full; b++) {
			unsigned v = byte_at(x, b);
			memcpy(p, t->text[v], 32);
			p += t->tlen[v];
		}
		for (size_t i = 8 * full; i < n; i++) {
			unsigned l;
			const char *str = dec_str(d->binval[bit_at(x, i)], &l);
			memcpy(p, str, l);
			p += l;
		}
		return compress_text((size_t)(p - w->text), w, &out[ST_COMPRESSION], e);
	}
	return 0;
}
