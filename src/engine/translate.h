/* SPDX-License-Identifier: GPL-3.0-or-later */
/* translate.h - 90B 6.4 symbol-space reduction: wide raw samples (up to 64
 * bits) mapped down to the 1..8-bit symbols the estimators take.
 *
 * SP 800-90B 6.4: when the samples are too wide for the estimators, the
 * submitter may map them to a smaller alphabet; the min-entropy assessed on
 * the mapped symbols is then a lower bound for the raw samples (a function
 * of a sample cannot carry more entropy than the sample).  The methods are
 * those of KeyPair Consulting's Theseus tools (`selectbits`, `highbin`,
 * `bits-in-use`), rewritten here:
 *
 *   low:K        the K least significant bits (1 <= K <= 8)
 *   bits-in-use  drop the bits that never change; more than 8 left: select:8
 *   select:K     K bit positions chosen jointly and greedily by a min-entropy
 *                estimate of the selection (1 <= K <= 8)
 *   group:K      2^K contiguous value ranges of about equal population
 *   mod:M        the sample modulo M (2 <= M <= 256)
 *
 * Pure functions over arrays of samples: no I/O, no printing.
 */
#ifndef RNGAUDIT_TRANSLATE_H
#define RNGAUDIT_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* The method assess and the audit use when nothing else is asked for. */
#define TRANSLATE_DEFAULT "bits-in-use"

/* select:K scores at most this many samples (the first ones): the score is
 * a guide to which bits to keep, not the assessment, and 2^20 samples bound
 * each candidate's proportion to about +-0.0013 (z / (2 sqrt(n)), 90B 6.3.1's
 * bound at p = 1/2), far finer than the differences between bits it ranks. */
#define TRANSLATE_SELECT_WINDOW (1u << 20)

enum translate_kind {
	TRANSLATE_LOW,
	TRANSLATE_BITS_IN_USE,
	TRANSLATE_SELECT,
	TRANSLATE_GROUP,
	TRANSLATE_MOD,
};

struct translate_method {
	enum translate_kind kind;
	unsigned k;          /* low, select, group: K */
	unsigned m;          /* mod: M */
};

/* A method made concrete for one data set by translate_plan(). */
struct translate_map {
	struct translate_method method;
	unsigned width;      /* bits per raw sample (8, 16, 32 or 64) */
	unsigned bits;       /* bits per output symbol, 1..8 */
	/* low, bits-in-use, select: output bit i is raw bit pos[i] */
	unsigned npos;
	uint8_t pos[8];
	uint64_t varying;    /* bits-in-use, select: the raw bits that change */
	int selected;        /* bits-in-use: more than 8 changed, select:8 chose pos[] */
	double score;        /* select: the estimate of the chosen bits (bits/sample) */
	/* group: symbol s covers the raw values [lower[s], lower[s+1]) */
	unsigned nsym;
	uint64_t lower[256];
	uint64_t per_group;  /* group: the population each range aims at */
	uint64_t nsamples;   /* samples the plan was made from */
};

/* Parses "low:K", "bits-in-use", "select:K", "group:K" or "mod:M". */
int translate_parse(const char *text, struct translate_method *m, struct err *e);

/* Makes the map for x[0..n-1] of `width` bits each (bits above width must
 * be 0).  An empty input or K wider than the samples is an error. */
int translate_plan(const struct translate_method *m, const uint64_t *x, size_t n,
		   unsigned width, struct translate_map *map, struct err *e);

/* out[i] = the symbol of x[i], in the low map->bits bits (NIST's format). */
void translate_apply(const struct translate_map *map, const uint64_t *x, size_t n,
		     uint8_t *out);

/* One line (no newline) saying what the map does, e.g.
 * "bits-in-use: 5 of 16 bits change (0-4); the symbol is those bits". */
void translate_describe(const struct translate_map *map, char *buf, size_t len);

/* The score select:K maximises: a min-entropy estimate, in bits per symbol,
 * of K-bit symbols s[0..n-1]: the smaller of 90B 6.3.1's most-common-value
 * bound and the same bound on a predictor that guesses each symbol from the
 * one before it (so a bit that alternates, or copies another, scores 0). */
double translate_score(const uint8_t *s, size_t n, unsigned bits);

#endif
