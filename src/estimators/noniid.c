/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noniid.c - SP 800-90B section 6 non-IID track: the 6.3 estimators run on
 * the literal samples and on their bitstring, combined as NIST's ea_non_iid
 * v1.1.7 combines them (its non_iid_main.cpp):
 *
 * - symbols are translated to 0..k-1 when fewer than max+1 values occur;
 *   the bitstring is built from the untranslated samples, MSB first;
 * - initial-entropy mode (-i): the literal estimates give H_original
 *   (6.3.2-6.3.4 only when the literal alphabet is binary); the bitstring
 *   estimates give H_bitstring when more than two symbols occur;
 * - conditioned mode (-c, 90B 3.1.5.2): only the bitstring is assessed;
 * - the assessed value is min(bits, bits * H_bitstring, H_original)
 *   (90B 3.1.3), -t cuts the bitstring to its first 1,000,000 bits.
 *
 * The estimators are independent, so they run on a small pool of threads,
 * heaviest first. */
#include "config.h"

#include "bigmem.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/noniid.h"
#include "engine/samples.h"

/* NIST's MIN_SIZE: the -t bitstring length and the 90B 3.1.3 data size. */
#define NONIID_TRUNCATE_BITS 1000000u

static const char *const est_names[NONIID_NEST] = {
	"Most Common Value", "Collision", "Markov", "Compression", "t-Tuple", "LRS",
	"MultiMCW Prediction", "Lag Prediction", "MultiMMC Prediction", "LZ78Y Prediction",
};

const char *noniid_est_name(int i)
{
	return i >= 0 && i < NONIID_NEST ? est_names[i] : "?";
}

void noniid_opts_init(struct noniid_opts *o)
{
	memset(o, 0, sizeof *o);
	o->threads = 2;
	o->h_submitter = -1.0;
}

typedef int (*est_fn)(const uint8_t *, size_t, unsigned, struct est_result *, struct err *);

struct job {
	const uint8_t *s;      /* the samples (k > 2) */
	const uint64_t *w;     /* or the bits, packed (k == 2) */
	size_t n;
	unsigned k;
	int slot;              /* enum noniid_est; NONIID_TUPLE runs LRS too */
	struct est_result *out;   /* the domain's array */
	struct err err;
	int rc;
};

struct pool {
	struct job *jobs;
	size_t njobs;
	atomic_size_t next;
	const volatile sig_atomic_t *stop;   /* noniid_opts.stop */
};

static const est_fn est_fns[NONIID_NEST] = {
	est_mcv, est_collision, est_markov, est_compression, NULL, NULL,
	est_multimcw, est_lag, est_multimmc, est_lz78y,
};

static const est_bits_fn est_bits_fns[NONIID_NEST] = {
	est_mcv_bits, est_collision_bits, est_markov_bits, est_compression_bits, NULL, NULL,
	est_multimcw_bits, est_lag_bits, est_multimmc_bits, est_lz78y_bits,
};

static void job_run(struct job *j)
{
	err_clear(&j->err);
	if (j->slot == NONIID_TUPLE)
		j->rc = j->w ? est_tuple_lrs_bits(j->w, j->n, &j->out[NONIID_TUPLE], &j->out[NONIID_LRS],
						  &j->err)
			     : est_tuple_lrs(j->s, j->n, j->k, &j->out[NONIID_TUPLE],
					     &j->out[NONIID_LRS], &j->err);
	else if (j->w)
		j->rc = est_bits_fns[j->slot](j->w, j->n, &j->out[j->slot], &j->err);
	else
		j->rc = est_fns[j->slot](j->s, j->n, j->k, &j->out[j->slot], &j->err);
}

static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->njobs) {
		struct job *j = &p->jobs[i];
		if (p->stop && *p->stop)
			j->rc = err_set(&j->err, ERR_INTERRUPTED, "interrupted during the estimators");
		else
			job_run(j);
	}
	return NULL;
}

/* Rough cost in ns per sample (measured on 1M random bytes and their 8M
 * bits, one core; the bitstring t-tuple, MultiMCW and Lag and the literal
 * MultiMCW again after the counting road, the popcount blocks and the
 * short rescan), so that the pool starts the slow jobs first (longest
 * processing time first keeps the two cores evenly loaded). */
static double job_cost(const struct job *j)
{
	static const double bin[NONIID_NEST] = { 1.4, 2.5, 2.5, 8, 10, 0, 2.5, 3.5, 35, 12 };
	static const double lit[NONIID_NEST] = { 1, 2, 1.6, 6.6, 95, 0, 24, 28, 300, 110 };

	return (j->k == 2 ? bin : lit)[j->slot] * (double)j->n;
}

static int job_cmp(const void *a, const void *b)
{
	double ca = job_cost(a), cb = job_cost(b);

	return ca < cb ? 1 : ca > cb ? -1 : 0;
}

/* A job on samples s (k > 2) or packed bits w (k == 2). */
static void add_job(struct job *jobs, size_t *nj, const uint8_t *s, const uint64_t *w, size_t n,
		    unsigned k, int slot, struct est_result *out, unsigned char *ran)
{
	struct job *j = &jobs[(*nj)++];

	memset(j, 0, sizeof *j);
	j->s = s;
	j->w = w;
	j->n = n;
	j->k = k;
	j->slot = slot;
	j->out = out;
	ran[slot] = 1;
	if (slot == NONIID_TUPLE)
		ran[NONIID_LRS] = 1;
}

static int run_jobs(struct job *jobs, size_t nj, int threads, const volatile sig_atomic_t *stop,
		    struct err *e)
{
	struct pool p = { jobs, nj, 0, stop };
	pthread_t tid[16];
	int nt = threads <= 0 ? 2 : threads, started = 0;

	if (nt > 16)
		nt = 16;
	if ((size_t)nt > nj)
		nt = (int)nj;
	qsort(jobs, nj, sizeof *jobs, job_cmp);
	atomic_init(&p.next, 0);
	for (int i = 1; i < nt; i++) {
		if (pthread_create(&tid[started], NULL, pool_worker, &p) != 0)
			break;   /* fewer helpers: the calling thread does the rest */
		started++;
	}
	pool_worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	for (size_t i = 0; i < nj; i++)
		if (jobs[i].rc < 0) {
			if (e)
				*e = jobs[i].err;
			return jobs[i].rc;
		}
	return 0;
}

/* Running minimum in NIST's order (6.3.1 .. 6.3.10); ties keep the first. */
static void take_min(const struct est_result *r, const unsigned char *ran, double *h, int *by)
{
	for (int i = 0; i < NONIID_NEST; i++)
		if (ran[i] && r[i].applicable && r[i].h < *h) {
			*h = r[i].h;
			*by = i;
		}
}

int noniid_assess(const uint8_t *s, size_t n, const struct noniid_opts *o,
		  struct noniid_report *rep, struct err *e)
{
	struct noniid_opts def;
	uint8_t *sym = NULL;
	uint64_t *bits = NULL, *litbits = NULL;
	uint8_t map[256];
	unsigned maxsym = 0, K;
	size_t start = 0, len = n;
	struct job jobs[2 * NONIID_NEST];
	size_t nj = 0;
	int rc, do_bits;

	if (!o) {
		noniid_opts_init(&def);
		o = &def;
	}
	memset(rep, 0, sizeof *rep);
	rep->h_original_by = rep->h_bitstring_by = -1;
	if (n == 0 || !s)
		return err_set(e, ERR_DATA, "no samples to assess");
	if (o->sub_count > 0) {
		/* -l INDEX,SAMPLES: block INDEX of SAMPLES samples; the last may be short */
		if (o->sub_index > (n - 1) / o->sub_count)
			return err_set(e, ERR_USAGE, "block %zu of %zu samples starts past the %zu samples",
				       o->sub_index, o->sub_count, n);
		start = o->sub_index * o->sub_count;
		len = n - start < o->sub_count ? n - start : o->sub_count;
	}
	s += start;
	if (o->bits == 0) {
		K = samples_infer_bits(s, len);
	} else {
		if (o->bits > SAMPLES_BITS_MAX)
			return err_set(e, ERR_USAGE, "bits per sample must be 1..%d, got %u",
				       SAMPLES_BITS_MAX, o->bits);
		K = o->bits;
		size_t i = samples_first_wide(s, len, K);
		if (i < len)
			return err_set(e, ERR_DATA, "sample %zu has value %u, which does not fit in %u bit%s",
				       start + i, s[i], K, K == 1 ? "" : "s");
	}
	rep->n = len;
	rep->bits = K;

	/* symbol translation, as NIST's read_file_subset */
	rep->alph_size = samples_alphabet(s, len, map, &maxsym);
	rep->translated = rep->alph_size < (1u << K);
	if (rep->alph_size <= 1)
		return 0;   /* NIST: "Symbol alphabet consists of 1 symbol. No entropy awarded" */

	do_bits = rep->alph_size > 2 || o->conditioned;
	if (!o->conditioned) {
		if (rep->alph_size < maxsym + 1) {
			sym = bigmem_calloc(len, 1);
			if (!sym)
				return err_set(e, ERR_NOMEM, "out of memory for %zu samples", len);
			for (size_t i = 0; i < len; i++)
				sym[i] = map[s[i]];
		}
	}
	if (do_bits) {
		rep->nbits = len * K;
		if (o->truncate && rep->nbits > NONIID_TRUNCATE_BITS)
			rep->nbits = NONIID_TRUNCATE_BITS;
		/* packed, a bit a bit (not a byte): 10 MB, not 80, for 10M bytes */
		bits = bigmem_calloc(samples_packed_words(rep->nbits), sizeof *bits);
		if (!bits) {
			bigmem_free(sym);
			return err_set(e, ERR_NOMEM, "out of memory for %zu bits", rep->nbits);
		}
		samples_to_packed(s, (rep->nbits + K - 1) / K, K, rep->nbits, bits);
		rep->has_bitstring = 1;
	}

	if (do_bits)
		for (int i = 0; i < NONIID_NEST; i++)
			if (i != NONIID_LRS)
				add_job(jobs, &nj, NULL, bits, rep->nbits, 2, i, rep->bitstring,
					rep->bitstring_ran);
	if (!o->conditioned) {
		const uint8_t *ls = sym ? sym : s;

		if (rep->alph_size == 2) {   /* binary samples: their symbols, packed */
			litbits = bigmem_calloc(samples_packed_words(len), sizeof *litbits);
			if (!litbits) {
				bigmem_free(sym);
				bigmem_free(bits);
				return err_set(e, ERR_NOMEM, "out of memory for %zu samples", len);
			}
			samples_to_packed(ls, len, 1, len, litbits);
		}
		for (int i = 0; i < NONIID_NEST; i++) {
			if (i == NONIID_LRS)
				continue;
			/* 6.3.2-6.3.4 are defined for binary samples only */
			if ((i == NONIID_COLLISION || i == NONIID_MARKOV || i == NONIID_COMPRESSION) &&
			    rep->alph_size != 2)
				continue;
			add_job(jobs, &nj, litbits ? NULL : ls, litbits, len, rep->alph_size, i, rep->literal,
				rep->literal_ran);
		}
	}
	rc = run_jobs(jobs, nj, o->threads, o->stop, e);
	bigmem_free(sym);
	bigmem_free(bits);
	bigmem_free(litbits);
	if (rc < 0)
		return rc;

	rep->h_original = K;
	rep->h_bitstring = 1.0;
	take_min(rep->bitstring, rep->bitstring_ran, &rep->h_bitstring, &rep->h_bitstring_by);
	take_min(rep->literal, rep->literal_ran, &rep->h_original, &rep->h_original_by);

	/* 90B 3.1.3: H_I = min(H_original, bits * H_bitstring) (and H_submitter) */
	rep->h_assessed = K;
	if (do_bits && rep->h_bitstring * K < rep->h_assessed) {
		rep->h_assessed = rep->h_bitstring * K;
		rep->assessed_by_bitstring = 1;
	}
	if (!o->conditioned && rep->h_original < rep->h_assessed) {
		rep->h_assessed = rep->h_original;
		rep->assessed_by_bitstring = 0;
	}
	if (o->h_submitter >= 0.0 && o->h_submitter < rep->h_assessed)
		rep->h_assessed = o->h_submitter;
	return 0;
}

void noniid_report_free(struct noniid_report *rep)
{
	(void)rep;
}
