/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noniid.h - SP 800-90B section 6 non-IID track: the ten 6.3 estimators
 * combined into H_original, H_bitstring and the assessed min-entropy exactly
 * as NIST's ea_non_iid (SP800-90B_EntropyAssessment v1.1.7) combines them.
 *
 * Callers (assess, audit, restart) hand in NIST-format samples (one per byte,
 * value in the low `bits` bits) and get a report of every estimator run on
 * the literal samples and on their bitstring expansion.  Nothing here prints.
 */
#ifndef RNGAUDIT_NONIID_H
#define RNGAUDIT_NONIID_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "estimators/estimators.h"

/* Slots of the literal[] and bitstring[] arrays, in 90B 6.3 order. */
enum noniid_est {
	NONIID_MCV = 0,      /* 6.3.1 */
	NONIID_COLLISION,    /* 6.3.2 (binary only) */
	NONIID_MARKOV,       /* 6.3.3 (binary only) */
	NONIID_COMPRESSION,  /* 6.3.4 (binary only) */
	NONIID_TUPLE,        /* 6.3.5 */
	NONIID_LRS,          /* 6.3.6 */
	NONIID_MULTIMCW,     /* 6.3.7 */
	NONIID_LAG,          /* 6.3.8 */
	NONIID_MULTIMMC,     /* 6.3.9 */
	NONIID_LZ78Y,        /* 6.3.10 */
	NONIID_NEST
};

struct noniid_opts {
	int conditioned;     /* 0: initial entropy (-i, default); 1: conditioned (-c) */
	int truncate;        /* 0: all bits (-a, default); 1: bitstring cut to the first
				1,000,000 bits (-t) */
	unsigned bits;       /* bits per sample 1..8; 0 = infer from the data as NIST does */
	size_t sub_index;    /* -l INDEX,SAMPLES: assess samples [INDEX*SAMPLES, +SAMPLES) */
	size_t sub_count;    /* 0 = the whole input */
	int threads;         /* worker threads for independent estimators; <= 0 = 2 */
	double h_submitter;  /* H_submitter (90B 3.1.3), in bits per sample: H_I is capped by it;
				< 0 = none (H_I = min(H_original, bits * H_bitstring)) */
	/* Cancellation: once *stop is nonzero (a signal handler's flag), the
	 * estimators not yet started are skipped and noniid_assess() returns
	 * ERR_INTERRUPTED, so a stop waits for at most the running estimator
	 * (about 0.3 s per 10^6 samples for the slowest, 6.3.9 MultiMMC).
	 * NULL: run to the end. */
	const volatile sig_atomic_t *stop;
};

void noniid_opts_init(struct noniid_opts *o);   /* the defaults above, h_submitter -1 */

struct noniid_report {
	/* the input as NIST's tool describes it */
	size_t n;              /* samples assessed (after -l) */
	unsigned bits;         /* bits per sample (given or inferred) */
	unsigned alph_size;    /* distinct symbols seen */
	int translated;        /* 1: symbols were mapped to 0..alph_size-1 ("Symbols have
				  been translated.") */
	size_t nbits;          /* bitstring length used (after -t); 0 if no bitstring */

	/* literal[i] / bitstring[i] hold estimator i when literal_ran[i] /
	 * bitstring_ran[i] is set; a ran estimator may still be !applicable. */
	struct est_result literal[NONIID_NEST];
	struct est_result bitstring[NONIID_NEST];
	unsigned char literal_ran[NONIID_NEST];
	unsigned char bitstring_ran[NONIID_NEST];
	int has_bitstring;     /* bitstring estimators ran (bits > 1) */

	double h_original;     /* min over applicable literal estimates (bits/sample) */
	double h_bitstring;    /* min over applicable bitstring estimates (bits/bit) */
	double h_assessed;     /* the "Assessed min entropy" line */
	int h_original_by;     /* enum noniid_est that set h_original, -1 if none */
	int h_bitstring_by;    /* enum noniid_est that set h_bitstring, -1 if none */
	int assessed_by_bitstring;  /* 1: h_assessed = bits*h_bitstring, 0: h_original */
};

/* Runs the non-IID track on s[0..n-1].  Errors (ERR_DATA, ERR_USAGE,
 * ERR_NOMEM) name the problem in one line: empty input, bits out of 1..8, a
 * sample >= 2^bits, -l outside the data. */
int noniid_assess(const uint8_t *s, size_t n, const struct noniid_opts *o,
		  struct noniid_report *rep, struct err *e);

/* Releases what a report holds (nothing today; call it anyway). */
void noniid_report_free(struct noniid_report *rep);

/* The estimator's printed name for slot i ("Most Common Value", ...). */
const char *noniid_est_name(int i);

#endif
