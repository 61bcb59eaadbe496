/* SPDX-License-Identifier: GPL-3.0-or-later */
/* permutation.c - SP 800-90B 5.1 permutation testing: the statistics of the
 * original data are ranked against those of 10,000 shuffles.
 *
 * For each statistic NIST's tool counts C0 (shuffled > original), C1 (equal)
 * and C2 (less); the statistic fails when C0 + C1 <= 5 or C1 + C2 <= 5 (90B
 * 5.1 step 3 with its 0.0005 tails of 10,000).  Like NIST's tool (v1.1.7) we
 * stop computing a statistic as soon as both sums exceed 5, and stop
 * shuffling once every statistic is decided.  Shuffles run in batches on
 * `threads` workers; results are merged in permutation order, so the counts
 * do not depend on scheduling.
 *
 * Unlike NIST's tool, which scores every undecided statistic on each
 * shuffle, we run phases over the same shuffles (permutation i is the same
 * arrangement in every phase): the 18 cheap statistics, then compression.
 * A statistic's counts depend only on the shuffles before its decision, so
 * the split changes no count.  It lets us stop early once the verdict is
 * known: a failing statistic runs all 10,000 shuffles, and for data that is
 * not IID most do, so (unless iid_perm_opts.full) after a probe of 100
 * shuffles the cheapest statistic still at an extreme runs alone; if it
 * fails the tests have failed, the others stop (skipped) and compression,
 * a bzip2 run per shuffle, is not scored. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bigmem.h"
#include "iid/iid.h"
#include "iid/stats_int.h"

#define IID_MAX_THREADS 64
/* permutations per worker per batch: larger batches cost less
 * synchronisation but may compute a few shuffles past the early stop; a
 * statistic run alone after the probe (run_cheap) is likely to take all
 * 10,000, and its shuffles are ~1 ms: longer batches there */
#define IID_BATCH_PER_THREAD 4
#define IID_LONG_BATCH_PER_THREAD 32

struct worker {
	const struct iid_data *d;
	uint64_t seed;
	const unsigned char *want;   /* statistics still undecided */
	int first, count;
	atomic_int *next;            /* the batch's next slot to take */
	uint8_t *raw, *sym;          /* this worker's copy */
	uint64_t *bits;              /* packed binary data, when `packed` */
	struct iid_arrange *arr;     /* otherwise: arrangements of the raw samples */
	int packed;
	struct iid_scratch *w;
	long double (*tp)[IID_NSTATS];   /* results, indexed by batch slot */
	int rc;
	struct err e;
};

/* Permutation i: with the stream (seed, i), a uniformly random arrangement
 * of the samples (the law of a Fisher-Yates shuffle, drawn faster: see
 * shuffle.c), packed for binary data (iid_arrange_bits), else of the raw
 * values (iid_arrange_bytes), the symbols following through the
 * translation map. */
static int run_one(struct worker *wk, int i, long double out[IID_NSTATS])
{
	const struct iid_data *d = wk->d;
	struct iid_rng g;

	iid_rng_seed(&g, wk->seed, (uint64_t)i);
	if (wk->packed) {
		iid_arrange_bits(wk->bits, d->n, d->ones, &g);
		return iid_stats_compute_bits(d, wk->bits, wk->want, out, wk->w, &wk->e);
	}
	if (wk->arr) {
		iid_arrange_bytes(wk->arr, wk->raw, &g);
	} else {
		memcpy(wk->raw, d->raw, d->n);
		iid_shuffle(wk->raw, d->n, &g);
	}
	if (d->translated)
		for (size_t j = 0; j < d->n; j++)
			wk->sym[j] = d->map[wk->raw[j]];
	return iid_stats_compute(d, d->translated ? wk->sym : wk->raw, wk->raw, wk->want, out,
				 wk->w, &wk->e);
}

/* Takes the batch's slots one at a time, so that the workers finish it
 * together whatever each shuffle costs. */
static void *worker_main(void *arg)
{
	struct worker *wk = arg;

	for (;;) {
		int s = atomic_fetch_add(wk->next, 1);

		if (s >= wk->count)
			break;
		wk->rc = run_one(wk, wk->first + s, wk->tp[s]);
		if (wk->rc)
			break;
	}
	return NULL;
}

/* The check of the fast bzip2 sizing (bzsize.c) against libbz2 (90B
 * 5.1.11), on a helper thread while the shuffles run: both sizes of the
 * compression text of the original's first IID_BZCHECK_SAMPLES samples
 * (all of them when there are fewer), about 540,000 characters of 8-bit
 * data: two bzip2 blocks, so a block boundary within a sample's digits and
 * a short last block are checked as well as whole blocks.  libbz2 on all of
 * a 1,000,000-sample original cost a seventh of the IID track's CPU time;
 * the sizing is exact by construction and tests/test_iid checks it on
 * every kind of data, so this is a guard against a libbz2 that compresses
 * differently, not the proof.  Only if they disagree is libbz2's size of
 * the whole original computed, and the shuffles are then scored by libbz2. */
#define IID_BZCHECK_SAMPLES 150000
struct bzcheck {
	const struct iid_data *d;
	int agree;                  /* the two sizes of the prefix are equal */
	long double val;            /* !agree: libbz2's size of the whole original */
	int rc;
	struct err e;
};

static void *bzcheck_main(void *arg)
{
	struct bzcheck *c = arg;
	size_t m = c->d->n < IID_BZCHECK_SAMPLES ? c->d->n : IID_BZCHECK_SAMPLES;
	struct iid_scratch *w = iid_scratch_new(c->d->n);
	long double fast = 0, slow = 0, out[IID_NSTATS];
	unsigned char only[IID_NSTATS] = { 0 };

	if (!w) {
		c->rc = err_set(&c->e, ERR_NOMEM, "out of memory for the permutation tests");
		return NULL;
	}
	iid_scratch_fast_bz(w, 1);
	c->rc = iid_compress_values(c->d->raw, m, w, &fast, &c->e);
	iid_scratch_fast_bz(w, 0);
	if (c->rc == 0)
		c->rc = iid_compress_values(c->d->raw, m, w, &slow, &c->e);
	c->agree = c->rc == 0 && fast == slow;
	if (c->rc == 0 && !c->agree) {
		only[IID_STAT_COMPRESSION] = 1;
		c->rc = iid_stats_compute(c->d, c->d->sym, c->d->raw, only, out, w, &c->e);
		c->val = out[IID_STAT_COMPRESSION];
	}
	iid_scratch_free(w);
	return NULL;
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)(n > IID_MAX_THREADS ? IID_MAX_THREADS : n);
}

void iid_perm_opts_init(struct iid_perm_opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = IID_DEFAULT_SEED;
}

struct perm_run {
	const struct iid_perm_opts *o;
	struct worker wk[IID_MAX_THREADS];
	int threads, batch, long_batch;
	atomic_int next;
	long double (*tp)[IID_NSTATS];   /* long_batch slots */
};

/* Shuffles of all 18 cheap statistics before betting on one of them, and
 * their relative costs per shuffle (periodicity and covariance are a vector
 * pass; collisions a serial one) */
#define IID_PROBE_PERMS 100
static const unsigned char stat_cost[IID_NSTATS] = {
	4, 2, 2, 2, 3, 3, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9,
};

static int decided_pass(const int c[3])
{
	return c[0] + c[1] > IID_RANK_MIN && c[1] + c[2] > IID_RANK_MIN;
}

/* The batch for a statistic running alone: long while it is likely to
 * take many more shuffles (one that fails takes all 10,000), shorter as
 * its decision nears, since the shuffles of a batch past the decision are
 * computed for nothing (half a batch on average).  The expected number
 * still to come is that of the side short of IID_RANK_MIN + 1 counts at
 * the rate it has counted so far (one count more, so that a side with
 * none does not look infinitely far: 6/(1/p) from p shuffles). */
static int alone_batch(const struct perm_run *pr, const unsigned char *want,
		       const struct iid_perm_result *r, int perms)
{
	double ahead = 0.0;
	int b;

	for (int j = 0; j < IID_NSTATS; j++) {
		const int *c = r->c[j];
		int hi = c[0] + c[1], lo = c[1] + c[2];
		if (!want[j])
			continue;
		if (hi <= IID_RANK_MIN)
			ahead = fmax(ahead, (IID_RANK_MIN + 1 - hi) * (perms + 1.0) / (hi + 1.0));
		if (lo <= IID_RANK_MIN)
			ahead = fmax(ahead, (IID_RANK_MIN + 1 - lo) * (perms + 1.0) / (lo + 1.0));
	}
	/* an eighth of it: a batch's creation costs about what a shuffle
	 * does, so the overshoot and the batches cost alike */
	b = ahead / 8.0 > pr->long_batch ? pr->long_batch : (int)(ahead / 8.0);
	return b < pr->batch ? pr->batch : b;
}

/* One phase: shuffles *perms, *perms + 1, ... scoring the statistics with
 * want[j] set, counting them into r->c until each is decided or `limit`
 * shuffles have run; *perms is then the number of shuffles counted. */
static int run_phase(struct perm_run *pr, unsigned char *want, struct iid_perm_result *r,
		     int phase, int limit, int *perms, struct err *e)
{
	int undecided = 0, threads = pr->threads, i;
	/* while the (costly) compression statistic is undecided, one
	 * permutation per worker, so that at most threads - 1 compressions are
	 * computed past its decision; cheap statistics run in larger batches.
	 * Either way the counts are the same: merging is in permutation order. */
	int per_batch;

	for (i = 0; i < IID_NSTATS; i++)
		undecided += want[i] != 0;
	while (*perms < limit && undecided > 0) {
		int count;

		per_batch = want[IID_STAT_COMPRESSION] ? threads
			    : undecided == 1 ? alone_batch(pr, want, r, *perms) : pr->batch;
		count = limit - *perms < per_batch ? limit - *perms : per_batch;
		int started = 0;
		struct worker *wk = pr->wk;
		pthread_t tid[IID_MAX_THREADS];

		if (pr->o->stop && *pr->o->stop)
			return err_set(e, ERR_INTERRUPTED, "permutation tests interrupted after %d shuffles",
				       *perms);
		atomic_store(&pr->next, 0);
		for (i = 0; i < threads; i++) {
			wk[i].want = want;
			wk[i].first = *perms;
			wk[i].count = count;
			wk[i].next = &pr->next;
			wk[i].rc = 0;
		}
		/* worker 0 runs on this thread */
		for (i = 1; i < threads && i < count; i++) {
			if (pthread_create(&tid[i], NULL, worker_main, &wk[i]) != 0)
				break;
			started = i;
		}
		/* could not start every worker: run the rest here */
		for (int j = started + 1; j < threads && j < count; j++)
			worker_main(&wk[j]);
		worker_main(&wk[0]);
		for (i = 1; i <= started; i++)
			pthread_join(tid[i], NULL);
		for (i = 0; i < threads; i++)
			if (wk[i].rc) {
				*e = wk[i].e;
				return wk[i].rc;
			}

		/* merge in permutation order; a statistic decided by an earlier
		 * permutation ignores the later ones, as if they had not run */
		for (int s = 0; s < count && undecided > 0; s++) {
			for (int j = 0; j < IID_NSTATS; j++) {
				int *c = r->c[j];
				long double v = pr->tp[s][j];
				if (!want[j])
					continue;
				c[v > r->t[j] ? 0 : v == r->t[j] ? 1 : 2]++;
				if (decided_pass(c)) {
					want[j] = 0;
					undecided--;
				}
			}
			(*perms)++;
		}
		if (pr->o->progress)
			pr->o->progress(pr->o->progress_ctx, phase, *perms);
	}
	return 0;
}

/* Phase 1, the 18 cheap statistics: all to their end with o->full; else a
 * probe, then the cheapest statistic still at an extreme alone (if it fails
 * the verdict is known and the others stop: skipped), then the rest.
 * *perms: the most shuffles any of them counted. */
static int run_cheap(struct perm_run *pr, struct iid_perm_result *r, int *perms,
		     struct err *e)
{
	unsigned char want[IID_NSTATS], one[IID_NSTATS];
	int bet = -1, at, rc, i;

	for (i = 0; i < IID_NSTATS; i++)
		want[i] = i != IID_STAT_COMPRESSION;
	*perms = 0;
	rc = run_phase(pr, want, r, 1, pr->o->full ? IID_PERMS : IID_PROBE_PERMS, perms, e);
	if (rc || pr->o->full)
		return rc;
	for (i = 0; i < IID_NSTATS; i++)
		if (want[i] && (r->c[i][0] + r->c[i][1] == 0 || r->c[i][1] + r->c[i][2] == 0) &&
		    (bet < 0 || stat_cost[i] < stat_cost[bet]))
			bet = i;
	at = *perms;
	if (bet >= 0) {
		memset(one, 0, sizeof one);
		one[bet] = 1;
		rc = run_phase(pr, one, r, 1, IID_PERMS, &at, e);
		if (rc)
			return rc;
		want[bet] = 0;
		if (one[bet]) {
			/* undecided after every shuffle: it failed, so have the
			 * tests; the others stop where the probe left them */
			r->decider = bet;
			for (i = 0; i < IID_NSTATS; i++)
				if (want[i]) {
					r->skipped[i] = 1;
					want[i] = 0;
				}
		}
	}
	rc = run_phase(pr, want, r, 1, IID_PERMS, perms, e);
	if (at > *perms)
		*perms = at;
	return rc;
}

int iid_permutation_tests(const struct iid_data *d, const struct iid_perm_opts *o,
			  struct iid_perm_result *r, struct err *e)
{
	struct perm_run pr;
	struct worker *wk = pr.wk;
	unsigned char want[IID_NSTATS];
	struct iid_scratch *w0;
	int threads = o->threads, rc = 0, i, fast_bz = 0, packed = 0, chk_started = 0;
	int perms1 = 0, perms2 = 0, cheap_failed = 0;
	struct bzcheck chk;
	pthread_t chk_tid;
	size_t vcount[256] = { 0 };

	memset(r, 0, sizeof *r);
	memset(&pr, 0, sizeof pr);
	r->seed = o->seed;
	r->decider = -1;
	if (threads <= 0)
		threads = online_cpus();
	if (threads > IID_MAX_THREADS)
		threads = IID_MAX_THREADS;

	w0 = iid_scratch_new(d->n);
	if (!w0)
		return err_set(e, ERR_NOMEM, "out of memory for the permutation tests");
	/* the original's compression score with the fast bzip2 sizing; libbz2
	 * itself checks it on a helper thread while the shuffles run */
	iid_scratch_fast_bz(w0, 1);
	rc = iid_stats_compute(d, d->sym, d->raw, NULL, r->t, w0, e);
	if (rc == 0 && d->k == 2) {
		/* the packed path must reproduce every statistic of the original
		 * ordering; otherwise shuffle bytes */
		long double fast[IID_NSTATS];
		uint64_t *x = calloc((d->n + 63) / 64, sizeof *x);
		if (x) {
			for (size_t j = 0; j < d->n; j++)
				x[j / 64] |= (uint64_t)d->sym[j] << (j % 64);
			rc = iid_stats_compute_bits(d, x, NULL, fast, w0, e);
			packed = rc == 0;
			for (i = 0; rc == 0 && i < IID_NSTATS; i++)
				if (fast[i] != r->t[i])
					packed = 0;
			free(x);
		}
	}
	if (rc) {
		iid_scratch_free(w0);
		return rc;
	}
	fast_bz = 1;
	memset(&chk, 0, sizeof chk);
	chk.d = d;

	for (size_t j = 0; j < d->n; j++)
		vcount[d->raw[j]]++;
	pr.o = o;
	pr.threads = threads;
	pr.batch = threads * IID_BATCH_PER_THREAD;
	pr.long_batch = threads * IID_LONG_BATCH_PER_THREAD;
	pr.tp = calloc((size_t)pr.long_batch, sizeof *pr.tp);
	for (i = 0; i < threads; i++) {
		wk[i].d = d;
		wk[i].seed = o->seed;
		wk[i].tp = pr.tp;
		wk[i].packed = packed;
		/* rewritten by every shuffle: prefaulted (bigmem.h) */
		if (packed) {
			wk[i].bits = bigmem_calloc((d->n + 63) / 64, sizeof *wk[i].bits);
		} else {
			wk[i].raw = bigmem_calloc(d->n, 1);
			wk[i].sym = bigmem_calloc(d->translated ? d->n : 1, 1);
			/* its counters are 32-bit: Fisher-Yates beyond 2^32 samples */
			if (d->n <= UINT32_MAX)
				wk[i].arr = iid_arrange_new(vcount, d->n);
		}
		/* worker 0 keeps the original's buffers: pages already
		 * touched, not faulted in again (a few megabytes of the
		 * compression's work arrays) */
		wk[i].w = i == 0 ? w0 : iid_scratch_new(d->n);
		if (!pr.tp || (packed ? !wk[i].bits : !wk[i].raw || !wk[i].sym ||
			       (d->n <= UINT32_MAX && !wk[i].arr)) || !wk[i].w) {
			rc = err_set(e, ERR_NOMEM, "out of memory for the permutation tests");
			threads = i + 1;
			goto out;
		}
		iid_scratch_fast_bz(wk[i].w, fast_bz);
	}

	/* phase 1: the cheap statistics */
	rc = run_cheap(&pr, r, &perms1, e);
	if (rc)
		goto out;
	for (i = 0; i < IID_NSTATS; i++)
		if (i != IID_STAT_COMPRESSION && !decided_pass(r->c[i]))
			cheap_failed = 1;

	/* phase 2: compression, unless the verdict is known and not asked for */
	if (cheap_failed && !o->full) {
		r->skipped[IID_STAT_COMPRESSION] = 1;
	} else {
		chk_started = pthread_create(&chk_tid, NULL, bzcheck_main, &chk) == 0;
		if (!chk_started)
			bzcheck_main(&chk);
again:
		memset(want, 0, sizeof want);
		want[IID_STAT_COMPRESSION] = 1;
		perms2 = 0;
		rc = run_phase(&pr, want, r, 2, IID_PERMS, &perms2, e);
		if (rc)
			goto out;
		if (chk_started) {
			pthread_join(chk_tid, NULL);
			chk_started = 0;
		}
		if (chk.rc) {
			*e = chk.e;
			rc = chk.rc;
			goto out;
		}
		if (fast_bz && !chk.agree && chk.val != r->t[IID_STAT_COMPRESSION]) {
			/* the fast sizing disagreed with libbz2 (on the
			 * original's prefix, and on the whole): redo the
			 * shuffles with libbz2 scores */
			r->t[IID_STAT_COMPRESSION] = chk.val;
			fast_bz = 0;
			for (i = 0; i < threads; i++)
				iid_scratch_fast_bz(wk[i].w, 0);
			memset(r->c[IID_STAT_COMPRESSION], 0, sizeof r->c[IID_STAT_COMPRESSION]);
			goto again;
		}
	}
	r->perms = perms1 > perms2 ? perms1 : perms2;

	r->passed = 1;
	for (i = 0; i < IID_NSTATS; i++) {
		r->stat_passed[i] = !r->skipped[i] && decided_pass(r->c[i]);
		if (!r->stat_passed[i])
			r->passed = 0;
	}
out:
	if (chk_started)
		pthread_join(chk_tid, NULL);
	for (i = 0; i < threads; i++) {
		bigmem_free(wk[i].raw);
		bigmem_free(wk[i].sym);
		bigmem_free(wk[i].bits);
		iid_arrange_free(wk[i].arr);
		iid_scratch_free(wk[i].w);
	}
	free(pr.tp);
	return rc;
}
