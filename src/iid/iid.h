/* SPDX-License-Identifier: GPL-3.0-or-later */
/* iid.h - SP 800-90B chapter 5: testing the IID assumption.
 *
 * 5.1 permutation tests (the 11 test families = 19 statistics, 10,000
 * Fisher-Yates shuffles, NIST's C0/C1/C2 ranking with its early stop), 5.2
 * chi-square tests (independence and goodness-of-fit, binary and non-binary)
 * and the 5.2.5 longest-repeated-substring test, computed as NIST's ea_iid
 * (SP800-90B_EntropyAssessment v1.1.7) computes them.  Where NIST's tool and
 * the 90B text differ, the tool is followed and a comment says so.
 *
 * Unlike NIST's tool the shuffles are reproducible: permutation i is drawn
 * from a xoshiro256** stream seeded from (seed, i), so a run depends only on
 * the data and the seed, whatever the number of threads.
 */
#ifndef RNGAUDIT_IID_H
#define RNGAUDIT_IID_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define IID_NSTATS 19          /* 5.1.1-5.1.11 with 5 lags each for 5.1.9, 5.1.10 */
#define IID_PERMS 10000        /* 90B 5.1: 10,000 permutations */
#define IID_DEFAULT_SEED 800090ULL   /* the documented default seed (SP 800-90B) */
#define IID_RANK_MIN 5         /* 5.1: a statistic fails if C0+C1 <= 5 or C1+C2 <= 5 */

/* The input as NIST's tool sees it (utils.h read_file_subset, calc_stats). */
struct iid_data {
	uint8_t *raw;          /* the samples as read (low `bits` bits) */
	uint8_t *sym;          /* translated to 0..k-1 when fewer than maxsym+1 values occur */
	size_t n;
	unsigned bits;         /* given or inferred */
	unsigned k;            /* alphabet size: distinct values seen */
	unsigned maxsym;       /* largest raw value */
	int translated;        /* sym != raw ("Samples have been translated") */
	int narrower;          /* bits was given and the data uses fewer bits */
	double rawmean;        /* mean of the raw samples */
	double median;         /* of the translated samples; 0.5 for binary data (5.1.5) */
	uint8_t map[256];      /* raw value -> translated symbol */
	uint64_t rawsum;       /* sum of the raw samples */
	size_t ones;           /* binary data (k = 2): samples of symbol 1 */
	uint8_t binval[2];     /* binary data: the raw values of symbols 0 and 1 */
};

/* Copies s[0..n-1].  bits = 0 infers the width from the highest bit in use,
 * as NIST does.  ERR_DATA when a sample does not fit in `bits` or n < 2. */
int iid_data_init(struct iid_data *d, const uint8_t *s, size_t n, unsigned bits,
		  struct err *e);
void iid_data_free(struct iid_data *d);

/* 5.1: the statistics, in NIST's order and with NIST's names. */
const char *iid_stat_name(int i);

/* Work buffers for one thread computing the statistics. */
struct iid_scratch;
struct iid_scratch *iid_scratch_new(size_t n);
void iid_scratch_free(struct iid_scratch *w);
/* Score 5.1.11 with the exact bzip2 size computation of bzsize.c instead of
 * running libbz2 (same numbers, about twice as fast). */
void iid_scratch_fast_bz(struct iid_scratch *w, int on);

/* Computes the statistics i with want[i] != 0 (want = NULL: all) on one
 * ordering (sym, raw) of the data d; results in out[].  Returns 0 or
 * ERR_INTERNAL (bzip2 failure). */
int iid_stats_compute(const struct iid_data *d, const uint8_t *sym, const uint8_t *raw,
		      const unsigned char *want, long double out[IID_NSTATS],
		      struct iid_scratch *w, struct err *e);

/* The same for binary data (k = 2) in packed form: sample i is symbol
 * bit i % 64 of x[i / 64] (as iid_arrange_bits makes it). */
int iid_stats_compute_bits(const struct iid_data *d, const uint64_t *x,
			   const unsigned char *want, long double out[IID_NSTATS],
			   struct iid_scratch *w, struct err *e);

#define IID_STAT_COMPRESSION (IID_NSTATS - 1)   /* 5.1.11, the costly one */

struct iid_perm_result {
	uint64_t seed;
	long double t[IID_NSTATS];      /* the statistics on the original data */
	int c[IID_NSTATS][3];           /* C0 (permuted > original), C1 (=), C2 (<) */
	int perms;                      /* permutations counted before every statistic
					   was decided (at most IID_PERMS) */
	int stat_passed[IID_NSTATS];
	int skipped[IID_NSTATS];        /* not run to its decision: the verdict was
					   already known (see iid_perm_opts.full);
					   c[] holds the counts so far */
	int decider;                    /* the statistic whose failure decided, or -1 */
	int passed;                     /* every statistic passed */
};

/* Progress of the permutation tests: `done` shuffles of the cheap statistics
 * (phase 1) or of the compression statistic (phase 2). */
typedef void (*iid_progress_fn)(void *ctx, int phase, int done);

struct iid_perm_opts {
	uint64_t seed;
	int threads;                    /* workers; <= 0: the number of online CPUs */
	/* A statistic that fails is scored on all 10,000 shuffles, and the
	 * cost is per statistic: compression is a bzip2 run per shuffle,
	 * collisions a serial pass.  Unless `full`, the 18 cheap statistics
	 * run a probe of 100 shuffles; the cheapest one still ranking at an
	 * extreme then runs alone, and when it fails (the tests have failed,
	 * whatever the rest give) the others stop where they are (skipped,
	 * counts so far) and compression is not scored.  Otherwise, and with
	 * `full`, everything runs to its decision as in NIST's tool.  Either
	 * way the verdict, and the counts of every statistic run to its
	 * decision, are the same. */
	int full;
	const volatile int *stop;       /* polled between batches: ERR_INTERRUPTED */
	iid_progress_fn progress;       /* may be NULL */
	void *progress_ctx;
};

/* Defaults: IID_DEFAULT_SEED, all CPUs, not full, no stop, no progress. */
void iid_perm_opts_init(struct iid_perm_opts *o);

/* 5.1: the permutation tests. */
int iid_permutation_tests(const struct iid_data *d, const struct iid_perm_opts *o,
			  struct iid_perm_result *r, struct err *e);

/* xoshiro256** with Lemire's unbiased ranges, seeded through splitmix64. */
struct iid_rng { uint64_t s[4]; };
void iid_rng_seed(struct iid_rng *g, uint64_t seed, uint64_t stream);
uint64_t iid_rng_next(struct iid_rng *g);
/* Fisher-Yates shuffle of a[0..n-1] */
void iid_shuffle(uint8_t *a, size_t n, struct iid_rng *g);
/* A uniformly random arrangement of `ones` ones among n bits, packed in
 * w[0..(n+63)/64-1], bit i % 64 of w[i / 64] (see shuffle.c). */
void iid_arrange_bits(uint64_t *w, size_t n, size_t ones, struct iid_rng *g);
/* A uniformly random arrangement of a multiset of bytes (count[v] copies of
 * v, n in all) into a[0..n-1] (see shuffle.c); the same law as shuffling. */
struct iid_arrange;
struct iid_arrange *iid_arrange_new(const size_t count[256], size_t n);
void iid_arrange_free(struct iid_arrange *r);
void iid_arrange_bytes(struct iid_arrange *r, uint8_t *a, struct iid_rng *g);
/* Tests: on, long uniform byte data is counted by the fallback for a
 * wrapped pair counter (shuffle.c); the arrangements are the same. */
void iid_arrange_recount(int on);

/* 5.2 chi-square results */
struct iid_chisq {
	double score;
	int df;
	double p;               /* upper tail of chi^2(df) at score; 1 when df = 0 */
};
/* 5.2.1 / 5.2.3 independence, 5.2.2 / 5.2.4 goodness-of-fit on symbols
 * 0..k-1 (k = 2: the binary versions). */
int iid_chisq_independence(const uint8_t *sym, size_t n, unsigned k, struct iid_chisq *r,
			   struct err *e);
int iid_chisq_goodness(const uint8_t *sym, size_t n, unsigned k, struct iid_chisq *r,
		       struct err *e);
/* p-value of a chi-square score (gsl_cdf_chisq_Q; 1 for df = 0 as NIST's
 * cephes igamc returns). */
double iid_chisq_pvalue(double score, int df);
#define IID_CHISQ_ALPHA 0.001   /* 5.2: reject when p < 0.001 */

/* 5.2.5 longest repeated substring test */
struct iid_lrs {
	long double p_col;      /* sum of squared symbol proportions */
	long w;                 /* length of the longest repeated substring */
	long n_pairs;           /* C(n - W + 1, 2) */
	long double pr_ge1;     /* Pr(X >= 1) = 1 - (1 - p_col^W)^N */
	int degenerate;         /* p_col == 1: one symbol, the test passes trivially */
	int underflow;          /* P_col^W below long double's range: Pr = 0, failed */
	int passed;             /* Pr(X >= 1) >= 1/1000 */
};
int iid_lrs_test(const uint8_t *sym, size_t n, unsigned k, struct iid_lrs *r, struct err *e);

#endif
