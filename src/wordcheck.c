/* wordcheck.c - RCT, all-zero/all-ones counters and a repeated-word detector
 * on a source's native 16/32/64-bit words (see wordcheck.h for why). */
#include "config.h"

#include "wordcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>

/* P(X >= k) for X ~ Binomial(n, p) = I_p(k, n - k + 1), the regularized
 * incomplete beta function (GSL's binomial CDFs take an unsigned int n, too
 * small for a machine watched for days). */
static double binom_tail_ge(uint64_t k, uint64_t n, double p)
{
	if (k == 0)
		return 1.0;
	if (k > n)
		return 0.0;
	gsl_sf_result r;
	if (p <= 0)
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
		    const char *test, uint64_t idx)
{
	c->count++;
	if (c->first_seen == HEALTH_NO_FAILURE)
		c->first_seen = idx;
	if (c->excessive || c->count < *limit)
		return 0;
	*limit = excessive_from(idx + 1, c->rate, w->params.alpha);
	if (c->count < *limit)
		return 0;
	c->excessive = 1;
	c->first_excessive = idx;
	wc_event(w, test, idx, c->count, 0, c->rate * (double)(idx + 1));
	return 1;
}

static uint32_t wc_hash(const struct wordcheck *w, uint64_t word)
{
	/* Fibonacci hashing: the top bits of word * 2^64/phi */
	return (uint32_t)((word * 0x9E3779B97F4A7C15ULL) >> 32) & w->table_mask;
}

/* Removes one occurrence of word from the hash set (it is there). */
static void wc_set_remove(struct wordcheck *w, uint64_t word)
{
	struct wordcheck_slot *t = w->table;
	uint32_t m = w->table_mask, i = wc_hash(w, word), j;

	while (t[i].word != word || t[i].count == 0)
		i = (i + 1) & m;
	if (--t[i].count)
		return;
	/* backward-shift deletion keeps linear probing correct without tombstones */
	j = i;
	for (;;) {
		uint32_t home;
		j = (j + 1) & m;
		if (t[j].count == 0)
			break;
		home = wc_hash(w, t[j].word);
		/* move t[j] into the hole at i unless its home lies cyclically in (i, j] */
		if (((j - home) & m) >= ((j - i) & m)) {
			t[i] = t[j];
			t[j].count = 0;
			i = j;
		}
	}
}

/* Adds word; returns 1 if it was already in the set (a repeat). */
static int wc_set_add(struct wordcheck *w, uint64_t word)
{
	struct wordcheck_slot *t = w->table;
	uint32_t m = w->table_mask, i = wc_hash(w, word);

	while (t[i].count) {
		if (t[i].word == word) {
			t[i].count++;
			return 1;
		}
		i = (i + 1) & m;
	}
	t[i].word = word;
	t[i].count = 1;
	return 0;
}

int wordcheck_init(struct wordcheck *w, const struct wordcheck_params *p, struct err *e)
{
	unsigned window = p->window ? p->window : WORDCHECK_WINDOW_DEFAULT;
	uint32_t size = 1;
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
	if (window > (1u << 20))
		return err_set(e, ERR_USAGE, "repeated-word window %u is above 2^20 words", window);
	w->params = *p;
	w->wbytes = p->word_bits / 8;
	w->ones = p->word_bits == 64 ? ~0ULL : (1ULL << p->word_bits) - 1;
	w->window = window;
	/* 90B 4.4.1 on whole words */
	w->rct.cutoff = health_rct_cutoff(p->entropy, p->alpha);
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
	/* a load factor of at most 1/4 keeps the probes short */
	while (size < 4u * window)
		size <<= 1;
	w->table_mask = size - 1;
	w->ring = malloc((size_t)window * sizeof *w->ring);
	w->table = calloc(size, sizeof *w->table);
	if (!w->ring || !w->table) {
		wordcheck_free(w);
		return err_set(e, ERR_NOMEM, "word checks: out of memory");
	}
	return 0;
}

void wordcheck_free(struct wordcheck *w)
{
	free(w->ring);
	free(w->table);
	w->ring = NULL;
	w->table = NULL;
}

static uint64_t wc_load(const uint8_t *p, unsigned wbytes)
{
	/* little-endian, as RDRAND/RDSEED store their destination register */
	uint64_t v = 0;
	for (unsigned k = 0; k < wbytes; k++)
		v |= (uint64_t)p[k] << (8 * k);
	return v;
}

static uint64_t wc_word(struct wordcheck *w, uint64_t word)
{
	uint64_t idx = w->words++, fails = 0;
	unsigned slot;

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
	if (word == 0)
		fails += (uint64_t)wc_count(w, &w->zeros, &w->limit_zeros, "zero-words", idx);
	else if (word == w->ones)
		fails += (uint64_t)wc_count(w, &w->ones_count, &w->limit_ones, "ones-words", idx);

	/* repeated within the last W words: drop the word leaving the window */
	slot = (unsigned)(idx % w->window);
	if (idx >= w->window)
		wc_set_remove(w, w->ring[slot]);
	w->ring[slot] = word;
	if (wc_set_add(w, word))
		fails += (uint64_t)wc_count(w, &w->repeats, &w->limit_repeats, "repeat-words", idx);
	return fails;
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
	for (; len >= wb; raw += wb, len -= wb)
		fails += wc_word(w, wc_load(raw, wb));
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
