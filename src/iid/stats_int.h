/* stats_int.h - what stats.c (the byte path) and stats_bits.c (packed
 * binary data) share: the work buffers, the statistic numbering and the
 * kernels both use.  Internal to src/iid/. */
#ifndef RNGAUDIT_IID_STATS_INT_H
#define RNGAUDIT_IID_STATS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "iid/iid.h"

enum {
	ST_EXCURSION = 0, ST_NUMDIR, ST_LENDIR, ST_NUMINCDEC, ST_NUMMED, ST_LENMED,
	ST_AVGCOL, ST_MAXCOL, ST_PERIOD0, ST_COV0 = 13, ST_COMPRESSION = 18,
};

/* 90B 5.1.9 / 5.1.10 lags */
static const unsigned iid_lags[5] = { 1, 2, 8, 16, 32 };

/* the excursion's integer form needs 255 n^2 < 2^63 */
#define IID_EXACT_MAX_N 100000000

/* without the libgcc call __builtin_popcount becomes when the flags do not
 * allow the popcnt instruction */
static inline unsigned popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned)((v * 0x0101010101010101ULL) >> 56);
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

static inline int wanted(const unsigned char *want, int i)
{
	return !want || want[i];
}

static inline int any_wanted(const unsigned char *want, int from, int to)
{
	for (int i = from; i <= to; i++)
		if (wanted(want, i))
			return 1;
	return 0;
}

/* 5.1.2-5.1.4 over x[0..m-1]: number of runs, longest run, max(#+1, #-1) */
void iid_stat_directional(const uint8_t *x, size_t m, long double *num, long double *len,
			  long double *incdec);
/* 5.1.7-5.1.8: average and maximum collision stretch */
void iid_stat_collisions(const uint8_t *x, size_t n, long double *avg, long double *max);
/* 5.1.9 and 5.1.10 at lag p */
unsigned long iid_stat_periodicity(const uint8_t *x, size_t m, unsigned p);
unsigned long iid_stat_covariance(const uint8_t *x, size_t m, unsigned p);
/* "v " for v in 0..255 (*len characters, rows padded to 5 bytes) */
const char *iid_dec_str(unsigned v, unsigned *len);
/* 5.1.11: scores w->text[0..len-1] (the numbers, each followed by a space) */
int iid_compress_text(size_t len, struct iid_scratch *w, long double *out, struct err *e);

#endif
