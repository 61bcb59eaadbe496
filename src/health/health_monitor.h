/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_monitor.h - the health tests as an engine sink.
 *
 * Ties the sample tests (health.h, 90B 4.4) and the native-word checks
 * (wordcheck.h) to the engine: each block's samples go to RCT and APT, its
 * raw bytes to the word checks when the source has 16/32/64-bit words.
 * Library code: failures are reported through the on_failure callback (the
 * command decides whether to print them), never printed here.
 *
 *   struct health_monitor *m;
 *   struct health_monitor_config c = { .bits = 8, .entropy = 8, .word_bits = 64 };
 *   health_monitor_new(&m, &c, &e);
 *   struct sink *sinks[] = { health_monitor_sink(m), ... };
 *   engine_run(src, &opts, sinks, n, &stats, &e);
 *   health_monitor_results(m, &r);            also fine while running
 *   health_monitor_free(m);
 */
#ifndef RNGAUDIT_HEALTH_MONITOR_H
#define RNGAUDIT_HEALTH_MONITOR_H

#include <stdint.h>

#include "engine/engine.h"
#include "err.h"
#include "health/budget.h"
#include "health/health.h"
#include "sources/source.h"
#include "health/wordcheck.h"

struct health_monitor_config {
	unsigned bits;           /* K, 1..8, the sample width the tests see */
	double entropy;          /* claimed H per sample; 0 = the default rule below */
	const char *entropy_why; /* where a given entropy came from ("--entropy"); may be NULL */
	double raw_claim;        /* raw/unknown sources' claim per bit; 0 = HEALTH_RAW_CLAIM_DEFAULT */
	double alpha;            /* 0 = HEALTH_ALPHA_DEFAULT (2^-20); its meaning: scope */
	enum health_scope scope; /* alpha over the run (default) or per window (90B) */
	uint64_t run_samples;    /* run scope: the run's length or --follow's horizon;
				    0 = not known: HEALTH_RUN_SAMPLES_UNKNOWN */
	unsigned word_bits;      /* the source's native word width; word checks run for 16, 32, 64 */
	enum source_kind kind;   /* decides the default entropy */
	int stop_on_failure;     /* the sink asks the engine to stop after the block with the first failure */
	/* NIST-format input: the engine runs with K = 8 (one sample per byte) and
	 * every byte must be < 2^bits; a larger one stops the run with ERR_DATA
	 * naming `what` (e.g. the file name) and the sample index. */
	int nist_format;
	const char *what;        /* the input's name for messages; may be NULL */
	health_event_fn on_failure;   /* called at each failure as it happens; may be NULL */
	void *cb_ctx;
};

struct health_monitor;

/* The run a caller that does not know its length is budgeted for: 10^9
 * samples, more than a bounded run reads in practice (a longer one is
 * flagged beyond_horizon). */
#define HEALTH_RUN_SAMPLES_UNKNOWN 1000000000ULL

/* The claim for raw or unknown sources when nothing else is said: the
 * policy's built-in `claim` (data/policy.default), half a bit per bit. */
#define HEALTH_RAW_CLAIM_DEFAULT 0.5

/* The one rule for the claimed entropy every command follows when none is
 * given: DRBG output, full (K; 90B treats it as full entropy for these
 * tests); conditioned entropy-source output (RDSEED), full, as Intel and AMD
 * specify it; raw or unknown, raw_claim per bit (the policy's claim; 0 =
 * HEALTH_RAW_CLAIM_DEFAULT).  *why says which, for the output. */
void health_monitor_default_entropy(enum source_kind kind, unsigned bits, double raw_claim,
				    double *entropy, const char **why);

/* Validates the config (H <= 0 or H > K, alpha outside (0, 1), K outside
 * 1..8: ERR_USAGE naming it), computes the cutoffs, allocates everything. */
int health_monitor_new(struct health_monitor **out, const struct health_monitor_config *c,
		       struct err *e);
void health_monitor_free(struct health_monitor *m);

/* The sink to hand to engine_run(); owned by the monitor. */
struct sink *health_monitor_sink(struct health_monitor *m);

struct health_monitor_results {
	unsigned bits;
	double entropy;
	const char *entropy_why;         /* the rule or option it came from */
	double alpha;
	uint64_t samples;                /* samples tested */
	struct health_budget budget;     /* the per-trial alphas behind the cutoffs */
	struct health_result rct, apt, prop;
	enum health_startup startup;
	int words_checked;               /* 1 if the word checks ran (word_bits 16/32/64) */
	struct wordcheck_results words;  /* valid when words_checked */
	uint64_t failures;               /* all failures: RCT + APT + proportion + word checks */
	uint64_t alarms;                 /* RCT + APT + proportion alarms */
	double expected_alarms;          /* the same from a source meeting the claim exactly */
	int beyond_horizon;              /* more samples tested than the budget was made for */
	uint64_t first_failure;          /* earliest RCT/APT failure (sample index) or HEALTH_NO_FAILURE */
};
/* A snapshot; may be called between blocks (e.g. for a --follow status line). */
void health_monitor_results(const struct health_monitor *m, struct health_monitor_results *r);

#endif
