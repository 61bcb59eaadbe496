/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wordcheck.c - RCT, all-zero/all-ones counters and a repeated-word detector
 * on a source's native 16/32/64-bit words (see wordcheck.h for why). */
#include "config.h"

#include "health/wordcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* P(X >= k) for X ~ Binomial(n, p) = I_p(k, n - k + 1), the regularized
 * incomplete beta function (GSL's binomial CDFs take an unsigned int n, too
 * small for a machine watched for days). */
static double binom_tail_ge(uint64_t k, uint64_t n, double p)
{
	gsl_sf_result r;

	if (k == 0)
		return 1.0;
	if (k > n || p <= 0)
		return 0.0;
	/* far tails underflow (status GSL_EUNDRFLW, value 0): that is the answer */
	if (gsl_sf_beta_inc_e((double)k, (double)(n - k) + 1.0, p, &r) != GSL_SUCCESS)
		return r.val > 0 && r.val <= 1 ? r.val : 0.0;
	return r.val;
}

double wordcheck_pvalue(const struct wordcheck_count *c, uint64_t words)
{
	return binom_tail_ge(c->count, words, c->rate);
}

/* The smallest k with P(X >= k) <= alpha, X ~ Binomial(n, p): a count of k or
 * more in n words is excessive.  P(X >= k) falls with k, so bisect. */
static uint64_t excessive_from(uint64_t n, double p, double alpha)
{
	uint64_t lo = 1, hi = n + 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (binom_tail_ge(mid, n, p) <= alpha)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The per-evaluation alpha of a count test that may fail at most alpha over
 * n words.  The count is checked against k(i), the excessive threshold after
 * i words, each time it grows; k(i) never falls, and while it stays at one
 * value k the events {count >= k} only grow with i, so the union over all i
 * <= n is the union of at most k(n) events, one per value k takes: each held
 * to alpha / k(n), the run's false alarm is at most alpha.  k(n) itself
 * depends on that alpha, so start from k(n) at alpha and double the divisor
 * until it covers k(n) at the divided alpha. */
static double wc_sequential_alpha(uint64_t n, double rate, double alpha)
{
	double div = (double)excessive_from(n, rate, alpha);
	while ((double)excessive_from(n, rate, alpha / div) > div)
		div *= 2;
	return alpha / div;
}

static void wc_event(const struct wordcheck *w, const char *test, uint64_t index,
		     uint64_t value, unsigned cutoff, double expected)
{
	struct health_event ev;
	if (!w->params.on_event)
		return;
	ev.test = test;
	ev.index = index;
	ev.value = value;
	ev.cutoff = cutoff;
	ev.expected = expected;
	ev.count = 0;
	ev.alarm = 0;
	ev.startup = 0;
	w->params.on_event(w->params.event_ctx, &ev);
}

/* Counts one more word for c at word index idx; returns 1 if the count just
 * became excessive.  *limit is the excessive-count threshold at some earlier
 * number of words; the threshold only grows with the number of words, so a
 * count below it cannot be excessive now, and the exact threshold is
 * recomputed only when the count catches up with it (O(sqrt(count)) times,
 * not once per word).  Testing at every increment is a sequential test: the
 * overall false-alarm probability is a small multiple of alpha. */
static int wc_count(struct wordcheck *w, struct wordcheck_count *c, uint64_t *limit,
		    double alpha, const char *test, uint64_t idx)
{
	c->count++;
	if (c->first_seen == HEALTH_NO_FAILURE)
		c->first_seen = idx;
	if (c->excessive || c->count < *limit)
		return 0;
	*limit = excessive_from(idx + 1, c->rate, alpha);
	if (c->count < *limit)
		return 0;
	c->excessive = 1;
	c->first_excessive = idx;
	wc_event(w, test, idx, c->count, 0, c->rate * (double)(idx + 1));
	return 1;
}

/* ---- the repeated-word detector ----
 *
 * A word is a repeat when its latest earlier occurrence is one of the last W
 * words.  Two hash tables, one per trip round the ring of the last W words:
 * cur holds the words whose latest occurrence is in the current trip, the
 * other those of the previous trip, which are still in the window exactly
 * while their ring slot has not been overwritten (slot >= ring_pos).  So
 * nothing is ever deleted: at the end of a trip the older table is cleared
 * and becomes cur.  Each distinct word has one entry per table (a stuck
 * source costs one entry), a 16-bit fingerprint (0 = empty) and its ring
 * slot, in buckets of 8 compared at once; a full bucket continues into the
 * next.  At most W entries in 8 * buckets >= 4W lanes: the probe almost
 * always ends in the first bucket, with no data-dependent branch. */

#define WC_LANES 8

/* Bit 2k set when lane k of the bucket holds fingerprint want. */
static inline unsigned wc_lanes(const uint16_t *f, uint16_t want)
{
#if defined(__SSE2__)
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(v, _mm_set1_epi16((short)want))) & 0x5555u;
#else
	unsigned m = 0;
	for (unsigned k = 0; k < WC_LANES; k++)
		m |= (unsigned)(f[k] == want) << (2 * k);
	return m;
#endif
}

/* The lane index of word's entry in table t (from bucket b), or -1.  Only
 * entries with slot >= min_slot count. */
static inline long wc_find(const struct wordcheck *w, unsigned t, uint32_t b, uint16_t fp,
			   uint64_t word, unsigned min_slot)
{
	for (;;) {
		const uint16_t *f = w->fp[t] + (size_t)b * WC_LANES;
		unsigned m = wc_lanes(f, fp);
		while (__builtin_expect(m != 0, 0)) {
			size_t k = (size_t)b * WC_LANES + (unsigned)__builtin_ctz(m) / 2;
			unsigned sl = w->slot[t][k];
			if (sl >= min_slot && w->ring[sl] == word)
				return (long)k;
			m &= m - 1;
		}
		if (__builtin_expect(wc_lanes(f, 0) != 0, 1))
			return -1;      /* a free lane: the word would have gone there */
		b = (b + 1) & w->bucket_mask;
	}
}

static inline void wc_insert(struct wordcheck *w, uint32_t b, uint16_t fp, unsigned sl)
{
	for (;;) {
		uint16_t *f = w->fp[w->cur] + (size_t)b * WC_LANES;
		unsigned m = wc_lanes(f, 0);
		if (__builtin_expect(m != 0, 1)) {
			size_t k = (size_t)b * WC_LANES + (unsigned)__builtin_ctz(m) / 2;
			w->fp[w->cur][k] = fp;
			w->slot[w->cur][k] = (uint16_t)sl;
			return;
		}
		b = (b + 1) & w->bucket_mask;
	}
}

/* Records word at the next ring slot; returns 1 if it repeats one of the
 * last W words. */
static inline int wc_repeat(struct wordcheck *w, uint64_t word)
{
	unsigned sl = w->ring_pos;
	uint64_t h = word * 0x9E3779B97F4A7C15ULL;     /* Fibonacci hashing */
	uint32_t b = (uint32_t)(h >> w->bucket_shift);
	uint16_t fp = (uint16_t)((h >> 16) | 1);
	long k = wc_find(w, w->cur, b, fp, word, 0);
	int seen;

	if (k >= 0) {
		seen = 1;
		w->slot[w->cur][k] = (uint16_t)sl;
	} else {
		/* ring[sl] still holds the word W back, part of the window */
		seen = wc_find(w, w->cur ^ 1, b, fp, word, sl) >= 0;
		wc_insert(w, b, fp, sl);
	}
	w->ring[sl] = word;
	if (++w->ring_pos == w->window) {
		w->ring_pos = 0;
		w->cur ^= 1;
		memset(w->fp[w->cur], 0, (size_t)(w->bucket_mask + 1) * WC_LANES * sizeof *w->fp[0]);
	}
	return seen;
}

int wordcheck_init(struct wordcheck *w, const struct wordcheck_params *p, struct err *e)
{
	unsigned window = p->window ? p->window : WORDCHECK_WINDOW_DEFAULT;
	uint32_t nb;
	int ok = 1;
	double width;

	memset(w, 0, sizeof *w);
	gsl_set_error_handler_off();    /* library code: GSL reports through status, never aborts */
	if (p->word_bits != 16 && p->word_bits != 32 && p->word_bits != 64)
		return err_set(e, ERR_USAGE, "word checks need 16, 32 or 64-bit words, not %u",
			       p->word_bits);
	width = p->word_bits;
	if (!(p->entropy > 0) || p->entropy > width)
		return err_set(e, ERR_USAGE, "claimed entropy %g is outside (0, %u] bits per word",
			       p->entropy, p->word_bits);
	if (!(p->alpha > 0) || !(p->alpha < 1))
		return err_set(e, ERR_USAGE, "alpha %g is outside (0, 1)", p->alpha);
	if (window > WORDCHECK_WINDOW_MAX)
		return err_set(e, ERR_USAGE, "repeated-word window %u is above %u words", window,
			       WORDCHECK_WINDOW_MAX);
	w->params = *p;
	w->wbytes = p->word_bits / 8;
	w->ones = p->word_bits == 64 ? ~0ULL : (1ULL << p->word_bits) - 1;
	w->window = window;
	/* 90B 4.4.1 on whole words; over a run, a run of C can start at each
	 * word: alpha / run_words per word (the union bound of budget.h) */
	w->rct.cutoff = health_rct_cutoff(p->entropy, p->run_words ? p->alpha / (double)p->run_words
								    : p->alpha);
	w->rct.first_failure = HEALTH_NO_FAILURE;
	/* a full-entropy word is all zeros (all ones) with probability 2^-width;
	 * it equals one given earlier word with probability 2^-width, so one of
	 * the last W words with probability 1 - (1 - 2^-width)^W */
	w->zeros.rate = exp2(-width);
	w->ones_count.rate = exp2(-width);
	w->repeats.rate = -expm1((double)window * log1p(-exp2(-width)));
	w->zeros.first_excessive = w->ones_count.first_excessive = HEALTH_NO_FAILURE;
	w->repeats.first_excessive = HEALTH_NO_FAILURE;
	w->zeros.first_seen = w->ones_count.first_seen = w->repeats.first_seen = HEALTH_NO_FAILURE;
	w->limit_zeros = w->limit_ones = w->limit_repeats = 1;
	w->count_alpha[0] = w->count_alpha[1] = w->count_alpha[2] = p->alpha;
	if (p->run_words) {
		w->count_alpha[0] = wc_sequential_alpha(p->run_words, w->zeros.rate, p->alpha);
		w->count_alpha[1] = w->count_alpha[0];
		w->count_alpha[2] = wc_sequential_alpha(p->run_words, w->repeats.rate, p->alpha);
	}
	/* buckets of 8 lanes, at least 4 lanes per word of the window */
	nb = 2;                         /* >= 2 buckets: a shift by 64 would be undefined */
	w->bucket_shift = 63;
	while (nb * WC_LANES < 4u * window) {
		nb <<= 1;
		w->bucket_shift--;
	}
	w->bucket_mask = nb - 1;
	w->ring = calloc(window, sizeof *w->ring);
	for (int t = 0; t < 2; t++) {
		w->fp[t] = calloc((size_t)nb * WC_LANES, sizeof *w->fp[t]);
		w->slot[t] = calloc((size_t)nb * WC_LANES, sizeof *w->slot[t]);
		if (!w->fp[t] || !w->slot[t])
			ok = 0;
	}
	if (!w->ring || !ok) {
		wordcheck_free(w);
		return err_set(e, ERR_NOMEM, "word checks: out of memory");
	}
	return 0;
}

void wordcheck_free(struct wordcheck *w)
{
	free(w->ring);
	w->ring = NULL;
	for (int t = 0; t < 2; t++) {
		free(w->fp[t]);
		free(w->slot[t]);
		w->fp[t] = NULL;
		w->slot[t] = NULL;
	}
}

static inline uint64_t wc_word(struct wordcheck *w, uint64_t word)
{
	uint64_t idx = w->words++, fails = 0;

	/* 90B 4.4.1 on words */
	if (idx > 0 && word == w->rct.last) {
		if (++w->rct.run > w->rct.max_run)
			w->rct.max_run = w->rct.run;
		if (w->rct.run == w->rct.cutoff) {
			w->rct.failures++;
			fails++;
			if (w->rct.first_failure == HEALTH_NO_FAILURE)
				w->rct.first_failure = idx;
			wc_event(w, "word-rct", idx, w->rct.run, w->rct.cutoff, 0);
		}
	} else {
		w->rct.last = word;
		w->rct.run = 1;
		if (w->rct.max_run == 0)
			w->rct.max_run = 1;
	}
	if (__builtin_expect(word == 0, 0))
		fails += (uint64_t)wc_count(w, &w->zeros, &w->limit_zeros, w->count_alpha[0],
					    "zero-words", idx);
	else if (__builtin_expect(word == w->ones, 0))
		fails += (uint64_t)wc_count(w, &w->ones_count, &w->limit_ones, w->count_alpha[1],
					    "ones-words", idx);

	/* repeated within the last W words */
	if (__builtin_expect(wc_repeat(w, word), 0))
		fails += (uint64_t)wc_count(w, &w->repeats, &w->limit_repeats, w->count_alpha[2],
					    "repeat-words", idx);
	return fails;
}

/* A word from its bytes, little-endian as RDRAND/RDSEED store their
 * destination register (every check here is about equality, so only the
 * consistency of the mapping matters). */
static inline uint64_t wc_load(const uint8_t *p, unsigned wbytes)
{
	uint64_t v = 0;
	for (unsigned k = 0; k < wbytes; k++)
		v |= (uint64_t)p[k] << (8 * k);
	return v;
}

uint64_t wordcheck_push(struct wordcheck *w, const uint8_t *raw, size_t len)
{
	uint64_t fails = 0;
	unsigned wb = w->wbytes;

	if (w->npending) {
		while (w->npending < wb && len) {
			w->pending[w->npending++] = *raw++;
			len--;
		}
		if (w->npending < wb)
			return 0;
		fails += wc_word(w, wc_load(w->pending, wb));
		w->npending = 0;
	}
	/* one loop per width, so the loads are single instructions */
	switch (wb) {
	case 2:
		for (; len >= 2; raw += 2, len -= 2)
			fails += wc_word(w, wc_load(raw, 2));
		break;
	case 4:
		for (; len >= 4; raw += 4, len -= 4)
			fails += wc_word(w, wc_load(raw, 4));
		break;
	default:
		for (; len >= 8; raw += 8, len -= 8)
			fails += wc_word(w, wc_load(raw, 8));
		break;
	}
	memcpy(w->pending, raw, len);
	w->npending = (unsigned)len;
	return fails;
}

static void wc_fill(const struct wordcheck *w, const struct wordcheck_count *c,
		    struct wordcheck_count *out, double *expected, double *p)
{
	*out = *c;
	*expected = c->rate * (double)w->words;
	*p = wordcheck_pvalue(c, w->words);
}

void wordcheck_results(const struct wordcheck *w, struct wordcheck_results *r)
{
	memset(r, 0, sizeof *r);
	r->word_bits = w->params.word_bits;
	r->words = w->words;
	r->alpha = w->params.alpha;
	r->window = w->window;
	r->rct_cutoff = w->rct.cutoff;
	r->rct_failures = w->rct.failures;
	r->rct_first_failure = w->rct.first_failure;
	r->rct_max_run = w->rct.max_run;
	wc_fill(w, &w->zeros, &r->zeros, &r->zeros_expected, &r->zeros_p);
	wc_fill(w, &w->ones_count, &r->ones, &r->ones_expected, &r->ones_p);
	wc_fill(w, &w->repeats, &r->repeats, &r->repeats_expected, &r->repeats_p);
	r->failures = r->rct_failures + (uint64_t)r->zeros.excessive + (uint64_t)r->ones.excessive +
		      (uint64_t)r->repeats.excessive;
}
