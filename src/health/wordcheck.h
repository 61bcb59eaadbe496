/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wordcheck.h - checks on a source's native 16/32/64-bit words.
 *
 * Sample-level tests (health.h) can miss word-level faults: a 64-bit word of
 * all ones is 8 identical bytes, which an 8-bit RCT at H = 8 needs 4 of to
 * notice, and a word that repeats an earlier one is invisible to both RCT and
 * APT.  On the raw bytes of the source, in native words (little-endian, as
 * the x86 instructions store them), this runs:
 *   - an RCT on whole words (90B 4.4.1 with H_word = H * width / K);
 *   - counters of all-zero and all-ones words, tested against their expected
 *     rate 2^-width with a binomial upper tail (flagged when P <= alpha);
 *   - a detector of words repeated within the last W words (two small hash
 *     tables over a ring of the last W words), tested against the rate expected of
 *     full-entropy words, 1 - (1 - 2^-width)^W, the same way.
 * Memory is allocated once in wordcheck_init(); pushing never allocates.
 */
#ifndef RNGAUDIT_WORDCHECK_H
#define RNGAUDIT_WORDCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "health/health.h"

#define WORDCHECK_WINDOW_DEFAULT 1024u    /* repeated-word window, as the APT's W */
#define WORDCHECK_WINDOW_MAX 32768u       /* ring slots are 16-bit */

struct wordcheck_params {
	unsigned word_bits;      /* 16, 32 or 64 */
	double entropy;          /* claimed min-entropy per word, 0 < H <= word_bits */
	double alpha;            /* false-alarm probability per test, 0 < alpha < 1:
				    per word (RCT) and per count test when run_words is
				    0 (90B's per-window meaning), else over run_words */
	unsigned window;         /* repeated-word window in words; 0 = default */
	health_event_fn on_event;   /* called at each failure; may be NULL */
	void *event_ctx;
	uint64_t run_words;      /* the run's length (or horizon) in words; 0: see alpha */
};

/* A count tested against its expected rate per word. */
struct wordcheck_count {
	uint64_t count;
	double rate;             /* expected probability per word */
	int excessive;           /* the count became excessive at some point */
	uint64_t first_excessive;   /* word index, or HEALTH_NO_FAILURE */
	uint64_t first_seen;     /* word index of the first counted word, or HEALTH_NO_FAILURE */
};

struct wordcheck {
	struct wordcheck_params params;
	unsigned wbytes;
	uint64_t ones;           /* the all-ones word of this width */
	uint8_t pending[8];      /* bytes of a word split across pushes */
	unsigned npending;
	uint64_t words;          /* words checked so far */
	struct {
		unsigned cutoff;
		uint64_t last, run, max_run, failures, first_failure;
	} rct;
	double count_alpha[3];   /* per evaluation: zeros, ones, repeats (see wordcheck.c) */
	struct wordcheck_count zeros, ones_count, repeats;
	/* each count's excessive-count threshold at some earlier word count;
	 * recomputed only when the count reaches it (see wordcheck.c) */
	uint64_t limit_zeros, limit_ones, limit_repeats;
	/* repeated-word detector (see wordcheck.c) */
	unsigned window;
	uint64_t *ring;          /* the last `window` words */
	unsigned ring_pos;       /* where the next word goes */
	uint16_t *fp[2];         /* per table: fingerprints, 8 lanes a bucket (0 = empty) */
	uint16_t *slot[2];       /* per table: the ring slot of each entry */
	unsigned cur;            /* the table of the current trip round the ring */
	uint32_t bucket_mask;    /* buckets - 1 */
	unsigned bucket_shift;   /* 64 - log2(buckets) */
};

/* Checks the parameters, computes the cutoff and allocates the ring and the
 * hash set (ERR_NOMEM).  wordcheck_free() releases them. */
int wordcheck_init(struct wordcheck *w, const struct wordcheck_params *p, struct err *e);
void wordcheck_free(struct wordcheck *w);

/* Checks len raw bytes; a word split across calls is completed by the next
 * one.  Returns the number of new failures. */
uint64_t wordcheck_push(struct wordcheck *w, const uint8_t *raw, size_t len);

/* P(X >= count) for X ~ Binomial(words, rate): the p-value of a count. */
double wordcheck_pvalue(const struct wordcheck_count *c, uint64_t words);

struct wordcheck_results {
	unsigned word_bits;
	uint64_t words;
	double alpha;
	unsigned window;
	/* word RCT */
	unsigned rct_cutoff;
	uint64_t rct_failures, rct_first_failure, rct_max_run;
	/* counts: expected = rate * words; p = P(X >= count) at the end */
	struct wordcheck_count zeros, ones, repeats;
	double zeros_expected, ones_expected, repeats_expected;
	double zeros_p, ones_p, repeats_p;
	uint64_t failures;       /* rct_failures + each count that became excessive */
};
void wordcheck_results(const struct wordcheck *w, struct wordcheck_results *r);

#endif
