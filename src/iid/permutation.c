/* permutation.c - SP 800-90B 5.1 permutation testing: the statistics of the
 * original data are ranked against those of 10,000 shuffles.
 *
 * For each statistic NIST's tool counts C0 (shuffled > original), C1 (equal)
 * and C2 (less); the statistic fails when C0 + C1 <= 5 or C1 + C2 <= 5 (90B
 * 5.1 step 3 with its 0.0005 tails of 10,000).  Like NIST's tool (v1.1.7) we
 * stop computing a statistic as soon as both sums exceed 5, and stop
 * shuffling once every statistic is decided.  Shuffles run in batches on
 * `threads` workers; results are merged in permutation order, so the counts
 * do not depend on scheduling. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iid/iid.h"

#define IID_MAX_THREADS 64
/* permutations per worker per batch: larger batches cost less
 * synchronisation but may compute a few shuffles past the early stop */
#define IID_BATCH_PER_THREAD 4

struct worker {
	const struct iid_data *d;
	uint64_t seed;
	const unsigned char *want;   /* statistics still undecided */
	int first, count, stride, offset;
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

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	for (int s = wk->offset; s < wk->count; s += wk->stride) {
		wk->rc = run_one(wk, wk->first + s, wk->tp[s]);
		if (wk->rc)
			break;
	}
	return NULL;
}

/* libbz2's own size of the original's compression text (90B 5.1.11) */
struct bzcheck {
	const struct iid_data *d;
	long double val;
	int rc;
	struct err e;
};

static void *bzcheck_main(void *arg)
{
	struct bzcheck *c = arg;
	struct iid_scratch *w = iid_scratch_new(c->d->n);
	long double out[IID_NSTATS];
	unsigned char only[IID_NSTATS] = { 0 };

	if (!w) {
		c->rc = err_set(&c->e, ERR_NOMEM, "out of memory for the permutation tests");
		return NULL;
	}
	only[IID_NSTATS - 1] = 1;
	c->rc = iid_stats_compute(c->d, c->d->sym, c->d->raw, only, out, w, &c->e);
	c->val = out[IID_NSTATS - 1];
	iid_scratch_free(w);
	return NULL;
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (int)(n > IID_MAX_THREADS ? IID_MAX_THREADS : n);
}

int iid_permutation_tests(const struct iid_data *d, uint64_t seed, int threads,
			  const volatile int *stop, struct iid_perm_result *r, struct err *e)
{
	struct worker wk[IID_MAX_THREADS];
	pthread_t tid[IID_MAX_THREADS];
	unsigned char want[IID_NSTATS];
	long double (*tp)[IID_NSTATS] = NULL;
	struct iid_scratch *w0;
	int batch, undecided = IID_NSTATS, rc = 0, i, fast_bz = 0, packed = 0, chk_started = 0;
	struct bzcheck chk;
	pthread_t chk_tid;
	size_t vcount[256] = { 0 };

	memset(r, 0, sizeof *r);
	r->seed = seed;
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
	iid_scratch_free(w0);
	if (rc)
		return rc;
	fast_bz = 1;
	memset(&chk, 0, sizeof chk);
	chk.d = d;
	chk_started = pthread_create(&chk_tid, NULL, bzcheck_main, &chk) == 0;
	if (!chk_started)
		bzcheck_main(&chk);

	for (size_t j = 0; j < d->n; j++)
		vcount[d->raw[j]]++;
	batch = threads * IID_BATCH_PER_THREAD;
	tp = calloc((size_t)batch, sizeof *tp);
	memset(wk, 0, sizeof wk);
	for (i = 0; i < threads; i++) {
		wk[i].d = d;
		wk[i].seed = seed;
		wk[i].want = want;
		wk[i].stride = threads;
		wk[i].offset = i;
		wk[i].tp = tp;
		wk[i].packed = packed;
		if (packed) {
			wk[i].bits = malloc((d->n + 63) / 64 * sizeof *wk[i].bits);
		} else {
			wk[i].raw = malloc(d->n);
			wk[i].sym = malloc(d->n);
			/* its counters are 32-bit: Fisher-Yates beyond 2^32 samples */
			if (d->n <= UINT32_MAX)
				wk[i].arr = iid_arrange_new(vcount, d->n);
		}
		wk[i].w = iid_scratch_new(d->n);
		if (!tp || (packed ? !wk[i].bits : !wk[i].raw || !wk[i].sym ||
			    (d->n <= UINT32_MAX && !wk[i].arr)) || !wk[i].w) {
			rc = err_set(e, ERR_NOMEM, "out of memory for the permutation tests");
			threads = i + 1;
			goto out;
		}
		iid_scratch_fast_bz(wk[i].w, fast_bz);
	}
again:
	for (i = 0; i < IID_NSTATS; i++)
		want[i] = 1;
	undecided = IID_NSTATS;

	while (r->perms < IID_PERMS && undecided > 0) {
		/* while the (costly) compression statistic is undecided, one
		 * permutation per worker, so that at most threads - 1 compressions
		 * are computed past its decision; cheap statistics run in larger
		 * batches.  Either way the counts are the same: merging is in
		 * permutation order. */
		int this_batch = want[IID_NSTATS - 1] ? threads : batch;
		int count = IID_PERMS - r->perms < this_batch ? IID_PERMS - r->perms : this_batch;
		int started = 0;

		if (stop && *stop) {
			rc = err_set(e, ERR_INTERRUPTED, "permutation tests interrupted after %d shuffles",
				     r->perms);
			goto out;
		}
		for (i = 0; i < threads; i++) {
			wk[i].first = r->perms;
			wk[i].count = count;
			wk[i].rc = 0;
		}
		/* worker 0 runs on this thread */
		for (i = 1; i < threads && i < count; i++) {
			if (pthread_create(&tid[i], NULL, worker_main, &wk[i]) != 0)
				break;
			started = i;
		}
		if (started + 1 < threads && started + 1 < count) {
			/* could not start every worker: run the rest here */
			for (int j = started + 1; j < threads && j < count; j++)
				worker_main(&wk[j]);
		}
		worker_main(&wk[0]);
		for (i = 1; i <= started; i++)
			pthread_join(tid[i], NULL);
		for (i = 0; i < threads; i++) {
			if (wk[i].rc) {
				*e = wk[i].e;
				rc = wk[i].rc;
				goto out;
			}
		}

		/* merge in permutation order; a statistic decided by an earlier
		 * permutation ignores the later ones, as if they had not run */
		for (int s = 0; s < count && undecided > 0; s++) {
			for (int j = 0; j < IID_NSTATS; j++) {
				int *c = r->c[j];
				if (!want[j])
					continue;
				if (tp[s][j] > r->t[j])
					c[0]++;
				else if (tp[s][j] == r->t[j])
					c[1]++;
				else
					c[2]++;
				if (c[0] + c[1] > IID_RANK_MIN && c[1] + c[2] > IID_RANK_MIN) {
					want[j] = 0;
					undecided--;
				}
			}
			r->perms++;
		}
	}

	if (chk_started) {
		pthread_join(chk_tid, NULL);
		chk_started = 0;
	}
	if (chk.rc) {
		*e = chk.e;
		rc = chk.rc;
		goto out;
	}
	if (fast_bz && chk.val != r->t[IID_NSTATS - 1]) {
		/* the fast sizing disagreed with libbz2 on the original: redo the
		 * shuffles with libbz2 scores */
		r->t[IID_NSTATS - 1] = chk.val;
		fast_bz = 0;
		for (i = 0; i < threads; i++)
			iid_scratch_fast_bz(wk[i].w, 0);
		memset(r->c, 0, sizeof r->c);
		r->perms = 0;
		goto again;
	}

	r->passed = 1;
	for (i = 0; i < IID_NSTATS; i++) {
		int *c = r->c[i];
		r->stat_passed[i] = c[0] + c[1] > IID_RANK_MIN && c[1] + c[2] > IID_RANK_MIN;
		if (!r->stat_passed[i])
			r->passed = 0;
	}
out:
	if (chk_started)
		pthread_join(chk_tid, NULL);
	for (i = 0; i < threads; i++) {
		free(wk[i].raw);
		free(wk[i].sym);
		free(wk[i].bits);
		iid_arrange_free(wk[i].arr);
		iid_scratch_free(wk[i].w);
	}
	free(tp);
	return rc;
}
