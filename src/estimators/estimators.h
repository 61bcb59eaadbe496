/* SPDX-License-Identifier: GPL-3.0-or-later */
/* estimators.h - SP 800-90B section 6.3 min-entropy estimators.
 *
 * Every estimator takes an array of samples (one per byte, values 0..k-1 after
 * NIST's symbol translation, or 0/1 for a bitstring), fills a struct
 * est_result and returns 0, or a negative err code.  An estimator that cannot
 * run on its input (too short, wrong alphabet) returns 0 with
 * r->applicable = 0 and the reason in r->reason; the others still run.
 * Nothing here prints: the intermediate values NIST's tool prints with -vv
 * are recorded in r->detail[] in the order it prints them, so the command
 * layer can reproduce its output line for line.
 */
#ifndef RNGAUDIT_ESTIMATORS_H
#define RNGAUDIT_ESTIMATORS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "err.h"

enum est_detail_kind {
	EST_DETAIL_INT,    /* printed as an integer:   "<key> = <i>" */
	EST_DETAIL_REAL,   /* printed with %.17g:      "<key> = <x>" */
	EST_DETAIL_NOTE,   /* printed as text alone:   "<key>" (e.g. "Found p.") */
};

struct est_detail {
	char key[64];
	enum est_detail_kind kind;
	long long i;
	double x;
};

#define EST_DETAILS_MAX 12

struct est_result {
	const char *id;        /* stable short id (CSV column): mcv, collision, markov,
				  compression, tuple, lrs, multimcw, lag, multimmc, lz78y */
	const char *name;      /* NIST's printed name: "Most Common Value", "Collision",
				  "Markov", "Compression", "t-Tuple", "LRS",
				  "MultiMCW Prediction", "Lag Prediction",
				  "MultiMMC Prediction", "LZ78Y Prediction" */
	int applicable;        /* 0: not run; reason says why */
	char reason[128];
	double p;              /* the probability bound the estimate rests on */
	double h;              /* min-entropy, bits per sample of this input */
	int ndetails;
	struct est_detail detail[EST_DETAILS_MAX];
};

void est_result_init(struct est_result *r, const char *id, const char *name);
void est_detail_int(struct est_result *r, const char *key, long long v);
void est_detail_real(struct est_result *r, const char *key, double v);
void est_detail_note(struct est_result *r, const char *text);
/* The detail of r named key, or NULL. */
const struct est_detail *est_detail_find(const struct est_result *r, const char *key);
void est_not_applicable(struct est_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* z = Phi^-1(0.995), as NIST's tool hard-codes it (ZALPHA). */
#define EST_ZALPHA 2.5758293035489008

/* Upper 99% confidence bound on a proportion, as 6.3.1 and others use it:
 * min(1, p + z*sqrt(p(1-p)/(n-1))). */
double est_upper_bound(double p, double n);

/* Each takes samples s[0..n-1] with values in 0..k-1 (k = alphabet size, 2
 * for bitstrings).  6.3.2-6.3.4 apply to binary input only (k == 2). */
int est_mcv(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);          /* 6.3.1 */
int est_collision(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);    /* 6.3.2 */
int est_markov(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);       /* 6.3.3 */
int est_compression(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);  /* 6.3.4 */
/* 6.3.5 t-tuple and 6.3.6 LRS share one suffix array + LCP pass. */
int est_tuple_lrs(const uint8_t *s, size_t n, unsigned k, struct est_result *tuple,
		  struct est_result *lrs, struct err *e);
int est_multimcw(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);     /* 6.3.7 */
int est_lag(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);          /* 6.3.8 */
int est_multimmc(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);     /* 6.3.9 */
int est_lz78y(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e);        /* 6.3.10 */

/* The same estimators on a bitstring of n bits packed as samples_to_packed
 * packs it (engine/samples.h: first bit on top, a zero word after the last):
 * the form the non-IID track hands them, an eighth of the memory of one bit
 * a byte.  The byte forms above, given k == 2, pack their input and call
 * these, so each estimator has one binary path. */
int est_mcv_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_collision_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_markov_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_compression_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_tuple_lrs_bits(const uint64_t *w, size_t n, struct est_result *tuple,
		       struct est_result *lrs, struct err *e);
int est_multimcw_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_lag_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_multimmc_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
int est_lz78y_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e);

/* Bit i of a packed bitstring. */
static inline unsigned est_bit(const uint64_t *w, size_t i)
{
	return (unsigned)(w[i >> 6] >> (63u - (i & 63u))) & 1u;
}

/* The 64 bits from bit i on, bit i the most significant (i below the
 * bitstring's length: the zero word after it is read at most). */
static inline uint64_t est_bits64(const uint64_t *w, size_t i)
{
	unsigned o = (unsigned)(i & 63u);
	return o ? w[i >> 6] << o | w[(i >> 6) + 1] >> (64u - o) : w[i >> 6];
}

/* The bits equal to y (0 or 1) from bit i0 on, at most n - i0: a run's
 * length, 64 bits a step (the zero word after the bitstring is read at
 * most). */
static inline size_t est_run_length(const uint64_t *w, size_t n, size_t i0, unsigned y)
{
	const uint64_t flip = y ? ~(uint64_t)0 : 0;
	size_t i = i0;

	while (i < n) {
		const uint64_t x = est_bits64(w, i) ^ flip;

		if (x) {
			i += (size_t)__builtin_clzll(x);
			break;
		}
		i += 64;
	}
	return (i < n ? i : n) - i0;
}

/* The samples equal to y from s[i0] on, before s[n]: a run's length, 8
 * samples a step. */
static inline size_t est_byte_run(const uint8_t *s, size_t n, size_t i0, uint8_t y)
{
	const uint64_t yy = 0x0101010101010101u * y;
	size_t i = i0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, s + i, sizeof x);
		x ^= yy;
		if (x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			return i + (size_t)(__builtin_clzll(x) / 8) - i0;
#else
			return i + (size_t)(__builtin_ctzll(x) / 8) - i0;
#endif
		}
	}
	while (i < n && s[i] == y)
		i++;
	return i - i0;
}

/* Packs n 0/1 bytes into a new array (NULL: out of memory). */
uint64_t *est_pack_bits(const uint8_t *s, size_t n);

typedef int (*est_bits_fn)(const uint64_t *w, size_t n, struct est_result *r, struct err *e);
/* The byte forms' k == 2 path: packs s and runs fn on it (what names the
 * estimator in an out-of-memory error). */
int est_run_packed(est_bits_fn fn, const char *what, const uint8_t *s, size_t n,
		   struct est_result *r, struct err *e);
/* The byte form of an estimator defined for binary input only (6.3.2-6.3.4):
 * not applicable (id, name) unless k == 2, else est_run_packed. */
int est_binary_only(est_bits_fn fn, const char *id, const char *name, const uint8_t *s, size_t n,
		    unsigned k, struct est_result *r, struct err *e);

#endif
