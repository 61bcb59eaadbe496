/* SPDX-License-Identifier: GPL-3.0-or-later */
/* baseline.h - what an ideal source scores: the 90B 6.3 estimators read
 * even perfectly uniform samples below their width (about 7.0-7.4 bits for
 * 8-bit samples at 10^6), a downward bias that shrinks with the sample
 * count.  A credit cut is evidence only when a source scores below what an
 * ideal source of the same width and sample count scores, so the trust
 * decision (trust.c) compares with this table.
 *
 * The table (baseline_table.c) was made by simulation: for each width K
 * (1..8 bits) and sample count N of a grid, BASELINE_RUNS runs of sim:ideal
 * (seeds 1..BASELINE_RUNS) through the audit's own path (engine, K-bit
 * samples, noniid_assess -i -a), giving the mean and standard deviation of
 * the assessed min-entropy h_assessed; the baseline is the normal
 * approximation of its 0.1% quantile, mean - 3.090 sd (an honest source is
 * called worse than ideal in about 1 audit in 1000), never above the lowest
 * run seen.  scripts/ideal-baseline.sh regenerates the table;
 * tests/test_baseline recomputes its small cells and checks them bit for
 * bit.
 */
#ifndef RNGAUDIT_AUDIT_BASELINE_H
#define RNGAUDIT_AUDIT_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define BASELINE_RUNS 100
/* z for the lower 0.1% tail of a normal: Phi^-1(0.001) = -3.0902 */
#define BASELINE_Z 3.090232306167813

/* One cell: K-bit samples, n of them. */
struct baseline_cell {
	unsigned bits;
	uint64_t n;
	unsigned runs;
	double mean, sd, min;     /* h_assessed per sample over the runs */
	double low;               /* min(mean - BASELINE_Z sd, min): the baseline */
};

/* The tabulated cell for `bits` at the largest grid count <= n; between
 * two grid counts its `low` is the lower of the two cells' (the bias is not
 * monotone in n), past the grid the last cell's.  Returns 0, or -1 when n
 * is below the grid (fewer than 1000 samples) or bits is outside 1..8. */
int baseline_lookup(unsigned bits, uint64_t n, struct baseline_cell *out);

/* The table itself (sorted by bits, then n). */
extern const struct baseline_cell baseline_table[];
extern const size_t baseline_table_len;

/* Simulates one cell (what the table was made with): `runs` runs of
 * sim:ideal,seed=S for S = 1..runs, K = bits, n samples each, on
 * `threads` threads.  Fills out (bits, n, runs, mean, sd, min, low). */
int baseline_simulate(unsigned bits, uint64_t n, unsigned runs, int threads,
		      struct baseline_cell *out, struct err *e);

#endif
