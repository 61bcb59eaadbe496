/* SPDX-License-Identifier: GPL-3.0-or-later */
/* conditioning.h - SP 800-90B 3.1.5 entropy after a conditioning function.
 *
 * 3.1.5.1.2 Output_Entropy(n_in, n_out, nw, h_in) for vetted functions and
 * 3.1.5.2 h_out = min(Output_Entropy, 0.999 n_out, h' n_out) for non-vetted
 * ones, computed the way NIST's ea_conditioning (v1.1.7) computes them: MPFR
 * at 2*max(53, n_in, n_out, nw) bits, doubling the precision whenever a sanity
 * check shows it was not enough, every rounding chosen so that the result is
 * conservative, long double arithmetic rounded toward zero.
 */
#ifndef RNGAUDIT_CONDITIONING_H
#define RNGAUDIT_CONDITIONING_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define COND_MAX_ATTEMPTS 16
/* The widest n_in (and so n_out and nw, which never exceed it) accepted.
 * MPFR works at 2*max(n_in, n_out, nw) bits and its cost grows about as the
 * square of that: 2^18 bits (32 KiB, past any vetted function's block or any
 * practical hash input per output) takes about 1.5 s and 10 MB here, 10^6
 * bits took 8 s and 10^9 bits ran out of memory.  NIST's tool has no cap:
 * a documented difference (rngaudit-conditioning(1)). */
#define COND_MAX_WIDTH (1u << 18)

struct cond_result {
	int vetted;
	unsigned n_in, n_out;
	unsigned nw;               /* min(nw, n_in) (90B Appendix E), as NIST prints it */
	unsigned n;                /* min(n_out, nw) */
	long double h_in;
	long double h_p;           /* h' (non-vetted only; -1 otherwise) */
	int nattempts;             /* precisions tried, NIST prints one line for each */
	long prec[COND_MAX_ATTEMPTS];
	long double output_entropy;   /* Output_Entropy(*) */
	long double nout_eps_exp;  /* -log2(1 - h_out/n_out), rounded down */
	long double hin_eps_exp;   /* -log2(1 - h_out/h_in) */
	long double nw_eps_exp;    /* -log2(1 - h_out/nw) */
	long double bound_90b;     /* 0.999 * n_out (non-vetted) */
	long double stat_bound;    /* h' * n_out (non-vetted) */
	long double h_out;
	int near_full;             /* vetted and h_out > 0.999 n_out: NIST prints epsilon */
	int ig_dk_full;            /* ... and h_in >= n_out + 64 (FIPS 140-3 IG D.K Res. 19) */
};

/* Checks the inputs (n_in, n_out, nw >= 1; n_in, n_out <= COND_MAX_WIDTH;
 * 0 < h_in <= n_in; non-vetted: 0 < h' <= 1) and computes the result.
 * n_out > n_in is accepted, as NIST's tool accepts it (n = min(n_out, nw)
 * <= n_in keeps every step defined).  ERR_USAGE names the bad value in one
 * line. */
int conditioning_compute(unsigned n_in, unsigned n_out, unsigned nw, long double h_in,
			 int vetted, long double h_p, struct cond_result *r, struct err *e);

/* strtold under round-toward-zero, as NIST's tool parses h_in and h' (it sets
 * FE_TOWARDZERO first so that no input is overestimated).  The whole text must
 * be a finite number.  Returns 0 or ERR_USAGE naming `what`. */
int conditioning_parse_ld(const char *text, const char *what, long double *out, struct err *e);

/* 90B 3.1.5.2: h' from n output samples of the conditioning component
 * (read from path, which messages name): the bitstring assessment of all
 * their bits by the ten estimators, or by the MCV estimate alone (iid),
 * capped at 1, as NIST's computeEntropyOfConditionedData computes it. */
int conditioning_h_prime(const char *path, const uint8_t *s, size_t n, int iid,
			 long double *h_p, struct err *e);

#endif
