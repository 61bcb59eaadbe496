/* SPDX-License-Identifier: GPL-3.0-or-later */
/* predictor.h - machinery shared by the four SP 800-90B prediction
 * estimators (6.3.7 MultiMCW, 6.3.8 Lag, 6.3.9 MultiMMC, 6.3.10 LZ78Y).
 *
 * Every predictor reduces its input to three numbers: C (correct
 * predictions), N (predictions made) and the longest run of correct
 * predictions.  pred_finish() turns them into P_global, P_global', P_local
 * and the min-entropy exactly as NIST's ea_non_iid v1.1.7 does
 * (predictionEstimate() in its shared/utils.h) and records the detail lines
 * in the order its -vv output prints them.
 *
 * The subpredictor "scoreboard" of 6.3.7-6.3.9 (the winner is the last
 * subpredictor, in index order, whose score reaches the winner's) is
 * struct pred_sched; the context dictionary of 6.3.9-6.3.10 is in
 * ctxdict.h.
 */
#ifndef RNGAUDIT_PREDICTOR_H
#define RNGAUDIT_PREDICTOR_H

#include <stdint.h>

#include "estimators/estimators.h"

/* log of the probability that N Bernoulli(p) trials contain no run of r
 * successes, as 90B 6.3.7 step 7 (NIST's prediction_estimate_function). */
double pred_log_norun(long double p, long r, long N);

/* P_local: the p in [ldomain, 1] with pred_log_norun(p, max_run+1, N) =
 * log(0.99), by NIST's bisection (calc_p_local), bit for bit. */
double pred_local(long max_run, long N, double ldomain);

/* Fills r from (C, N, max_run) for an alphabet of k symbols: P_global,
 * P_global', P_local (when it can change the result), r->p, r->h and the
 * detail lines C, r, N, P_global, P_global', P_local (or the note), min
 * entropy. */
void pred_finish(struct est_result *r, long long C, long long N, long long max_run,
		 unsigned k);

/* 0 when every s[i] < k, else ERR_DATA naming the estimator and the
 * first offending sample. */
int pred_check_input(const char *name, const uint8_t *s, size_t n, unsigned k, struct err *e);

/* Tests: 0 makes the bitstring MultiMCW take its portable loop, 1 AVX-512
 * (with VPOPCNTQ) where usable (the default).  Returns whether AVX-512 is
 * now in use. */
int mcw_simd(int enable);
/* The same for the bitstring Lag predictor's match words (AVX-512F). */
int lag_simd(int enable);
/* The same for the bitstring MultiMMC's depths 0-3 in registers (AVX-512F). */
int mmc_simd(int enable);
/* The same for the scoreboard's first test, eight subpredictors a register
 * (AVX-512 with VPOPCNTQ; pred_sched_block with 16 or more). */
int sched_simd(int enable);
/* Tests: 0 makes the literal MultiMMC's full depths take the general path
 * (no loop of their own for directly indexed contexts, no filter of the
 * hashed ones' contexts), 1 the fast ones (the default). */
int mmc_literal_fast(int enable);
/* Tests: 0 makes the literal MultiMMC and LZ78Y take each step of a run of
 * one value (mmc_literal_run, lz_literal_run), 1 a run's steps at once where
 * nothing but counts changes over it (the default).  Returns enable. */
int pred_literal_runs(int enable);
/* Whether they are taken at once (pred_literal_runs). */
int pred_literal_runs_on(void);

/* Bit j of the result is bit 63 - j of x: the predictors build their words
 * of correct bits newest first (acc = 2 acc + bit) and turn them here. */
static inline uint64_t pred_rev64(uint64_t x)
{
	x = __builtin_bswap64(x);
	x = (x & 0x0f0f0f0f0f0f0f0fu) << 4 | (x >> 4 & 0x0f0f0f0f0f0f0f0fu);
	x = (x & 0x3333333333333333u) << 2 | (x >> 2 & 0x3333333333333333u);
	return (x & 0x5555555555555555u) << 1 | (x >> 1 & 0x5555555555555555u);
}

/* The counters of C and of the runs of correct predictions. */
struct pred_tally {
	long long C;
	long long run;
	long long max_run;
};

static inline void pred_tally_add(struct pred_tally *t, int correct)
{
	long long c = correct != 0;
	t->C += c;
	t->run = (t->run + 1) * c;
	if (t->run > t->max_run)
		t->max_run = t->run;
}

/* k right predictions in a row: pred_tally_add(t, 1) k times. */
static inline void pred_tally_add_right(struct pred_tally *t, long long k)
{
	t->C += k;
	t->run += k;
	if (t->run > t->max_run)
		t->max_run = t->run;
}

/* The subpredictor scoreboard of 6.3.7 step 3, 6.3.8 step 3 and 6.3.9
 * step 4, taken 64 steps at a time, for up to 128 subpredictors (6.3.8 has
 * 128 lags).  At each step the winner's prediction is tallied (a winner
 * without a prediction leaves C and the run alone, as NIST's MultiMMC
 * does), then each subpredictor that was right, in increasing index, scores
 * a point and becomes the winner if its score is at least the winner's.
 * For a block of nsteps <= 64 steps,
 * bit j of correct[d] says subpredictor d predicted step j right and bit j
 * of predicted[d] (NULL: always) that it made a prediction.  Subpredictors
 * that cannot reach the winner's score within the block are only counted
 * (their scores grow by the popcount of their word); the others are stepped
 * one at a time as described.  This is exact: a pruned
 * subpredictor never reaches the running maximum, and when NIST's loop makes
 * one a transient winner in the middle of a step, the block's first winner
 * overrides it later in that step. */
#define PRED_SCHED_MAX 128
#define PRED_SCHED_BLOCK 64

struct pred_walk;

struct pred_sched {
	long long score[PRED_SCHED_MAX];
	unsigned winner;
	long long high;             /* the winner's score, the highest */
	struct pred_tally t;
	const struct pred_walk *walk;   /* byte table of the catch-up test (shared) */
};

/* 6.3.10 on a packed bitstring (estimators.h) of n >= 19 bits (lz78y.c) with a dictionary of at
 * most max_dict contexts (90B: 65,536); adds its predictions to t and, when
 * entries is not NULL, sets it to the number of contexts entered.  The
 * limit is a parameter so that tests can fill small dictionaries. */
int lz78y_binary_tally(const uint64_t *w, size_t n, long max_dict, struct pred_tally *t,
		       long *entries, struct err *e);

int pred_sched_init(struct pred_sched *b);   /* -1 when out of memory */
void pred_sched_free(struct pred_sched *b);
void pred_sched_block(struct pred_sched *b, unsigned nsub, const uint64_t *correct,
		      const uint64_t *predicted, unsigned nsteps);
/* nsteps steps in which every subpredictor predicts and is right: the same
 * as pred_sched_block on words of ones, 64 steps at a time, at the cost of
 * one block (after a step where all are right the winner stays). */
void pred_sched_right(struct pred_sched *b, unsigned nsub, size_t nsteps);

#endif
