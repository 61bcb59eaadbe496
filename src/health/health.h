/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health.h - SP 800-90B section 4.4 continuous health tests, streaming.
 *
 * 4.4.1 repetition count test (RCT) and 4.4.2 adaptive proportion test (APT)
 * on K-bit samples (one per byte), with cutoffs computed at start from the
 * claimed min-entropy H per sample and the false-alarm probability alpha.
 * 90B 4.3 (11): the start-up tests run the same tests over the first 1024
 * samples.  State is O(1) and fixed-size; pushing samples never allocates.
 *
 *   struct health h;
 *   health_init(&h, &(struct health_params){ .bits = 8, .entropy = 8,
 *               .alpha = HEALTH_ALPHA_DEFAULT }, &e);
 *   health_push(&h, samples, n);           any number of times
 *   health_rct_result(&h, &r); health_apt_result(&h, &r);
 */
#ifndef RNGAUDIT_HEALTH_H
#define RNGAUDIT_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define HEALTH_ALPHA_DEFAULT 0x1p-20          /* 90B 4.4: alpha = 2^-20 is recommended */
#define HEALTH_APT_WINDOW 1024u               /* 90B 4.4.2: W for non-binary samples */
#define HEALTH_APT_WINDOW_BINARY 512u         /* 90B 4.4.2: W for binary samples */
#define HEALTH_STARTUP_SAMPLES 1024u          /* 90B 4.3 (11): start-up over >= 1024 samples */
#define HEALTH_NO_FAILURE UINT64_MAX          /* first_failure when nothing failed */

/* 90B 4.4.1: C = 1 + ceil(-log2(alpha) / H).  H in (0, 64], alpha in (0, 1). */
unsigned health_rct_cutoff(double entropy, double alpha);

/* 90B 4.4.2 as the text states it: C = 1 + CRITBINOM(W, 2^-H, 1 - alpha),
 * capped at W.  (Some implementations use C = 2 + CRITBINOM(W-1, ...): see
 * health.c.) */
unsigned health_apt_cutoff(unsigned window, double entropy, double alpha);

/* The same bound on the real window statistic, B = 1 + Binomial(W-1, 2^-H)
 * (the reference sample is given, not a trial): the smallest C with
 * P(Binomial(W-1, 2^-H) >= C - 1) <= alpha, i.e. 2 + CRITBINOM(W-1, ...).
 * The run-scoped cutoffs (budget.h) use this form, so that their union
 * bound holds exactly. */
unsigned health_apt_cutoff_exact(unsigned window, double entropy, double alpha);

/* The APT window for K-bit samples: 512 for K = 1, else 1024. */
unsigned health_apt_window(unsigned bits);

/* One failure as it happens (for --follow and --stop-on-failure). */
struct health_event {
	const char *test;        /* "rct", "apt" (wordcheck.h adds "word-rct", ...) */
	uint64_t index;          /* sample (or word) index at which the test failed */
	uint64_t value;          /* run length or window count reached (>= cutoff) */
	unsigned cutoff;         /* RCT/APT cutoff; 0 for the word-count tests */
	double expected;         /* word-count tests: the count expected by now;
				    RCT/APT: the events of this level a source that
				    meets the claim exactly gives by now */
	uint64_t count;          /* RCT/APT: events of this level so far, this one included */
	int alarm;               /* 1: an intermittent alarm, not a failure (see budget.h) */
	int startup;             /* 1 if within the first HEALTH_STARTUP_SAMPLES */
};
typedef void (*health_event_fn)(void *ctx, const struct health_event *ev);

struct health_params {
	unsigned bits;           /* K, 1..8 */
	double entropy;          /* claimed min-entropy per sample, 0 < H <= K */
	double alpha;            /* false-failure probability per trial (RCT: per
				    sample, APT: per window), 0 < alpha < 1 */
	health_event_fn on_event;   /* called at each failure and alarm; may be NULL */
	void *event_ctx;
	/* Run scope (budget.h) gives each test and level its own per-trial
	 * alpha.  0 = the APT uses alpha; no alarm level (alarm cutoff = the
	 * failure cutoff, so every failure is also counted as an alarm). */
	double apt_alpha;
	double rct_alarm_alpha, apt_alarm_alpha;
	int apt_exact;           /* APT cutoffs by health_apt_cutoff_exact */
};

/* 90B 4.4.1 state.  A failure is counted once per run: when the run of
 * identical samples reaches the cutoff (B == C); the run may go on. */
struct health_rct {
	unsigned cutoff;
	unsigned alarm_cutoff;   /* <= cutoff; a run reaching it is an alarm */
	uint64_t alarms;         /* runs that reached the alarm cutoff */
	uint64_t first_alarm;
	uint8_t last;            /* previous sample */
	uint64_t run;            /* B: length of the current run */
	uint64_t max_run;        /* largest B seen */
	uint64_t failures;       /* runs that reached the cutoff */
	uint64_t first_failure;  /* sample index, or HEALTH_NO_FAILURE */
};

/* 90B 4.4.2 state: consecutive, non-overlapping windows of W samples; the
 * first sample of a window is the reference A, B counts samples equal to A
 * (A itself included).  A window fails once, when B reaches the cutoff. */
struct health_apt {
	unsigned cutoff;
	unsigned alarm_cutoff;   /* <= cutoff */
	uint64_t alarms;         /* windows whose B reached the alarm cutoff */
	uint64_t first_alarm;
	int window_alarmed;      /* the current window already alarmed */
	unsigned window;         /* W */
	uint8_t ref;             /* A */
	unsigned count;          /* B in the current window */
	unsigned pos;            /* samples of the current window seen so far (0 = none) */
	int window_failed;       /* the current window already failed */
	unsigned max_count;      /* largest B seen in any window */
	uint64_t windows;        /* completed windows */
	uint64_t failures;       /* windows that failed (completed or not) */
	uint64_t first_failure;  /* sample index, or HEALTH_NO_FAILURE */
};

enum health_impl {
	HEALTH_IMPL_PORTABLE,    /* SSE2 where available, else plain C */
	HEALTH_IMPL_AVX2,        /* both tests in one pass; chosen by health_init() if the CPU has it */
};

struct health {
	struct health_params params;
	enum health_impl impl;   /* the code path; the results do not depend on it */
	double rct_rate;         /* per-sample false-failure rate at the claimed H (see health_result) */
	double apt_rate;         /* per-window false-failure rate at the claimed H */
	double rct_alarm_rate, apt_alarm_rate;   /* the same at the alarm cutoffs */
	struct health_rct rct;
	struct health_apt apt;
	uint64_t samples;        /* samples pushed so far */
};

/* Checks the parameters (one-line error naming the bad one) and computes the
 * cutoffs.  Fails with ERR_USAGE for K outside 1..8, H <= 0 or H > K, alpha
 * outside (0, 1); ERR_INTERNAL if GSL cannot compute the APT cutoff. */
int health_init(struct health *h, const struct health_params *p, struct err *e);

/* Runs both tests over n samples (each < 2^K: not checked here).  Returns the
 * number of new failures (RCT + APT) in these samples; alarms are counted in
 * the state and reported through on_event. */
uint64_t health_push(struct health *h, const uint8_t *s, size_t n);

/* Per-test results. */
struct health_result {
	const char *test;        /* "rct" or "apt" */
	unsigned cutoff;
	unsigned window;         /* APT: W; RCT: 0 */
	uint64_t failures;
	uint64_t first_failure;  /* HEALTH_NO_FAILURE if none */
	uint64_t max_seen;       /* RCT: longest run; APT: largest window count */
	uint64_t windows;        /* APT: windows tested (completed, plus the current one if it failed) */
	double fraction_failed;  /* APT: failures / windows (0 if none); RCT: failures per sample */
	/* false alarms expected by now from an IID source that meets the claim
	 * exactly, every value it takes having probability p = 2^-H: RCT
	 * samples * p^(C-1) (1 - p), APT windows * P(1 + Bin(W-1, p) >= C).
	 * A perfect source fails now and then over a long run: compare with this. */
	double expected_false_alarms;
	/* the alarm level (equal to the above without one) */
	unsigned alarm_cutoff;
	uint64_t alarms;
	uint64_t first_alarm;
	double expected_alarms;
};
void health_rct_result(const struct health *h, struct health_result *r);
void health_apt_result(const struct health *h, struct health_result *r);

/* 90B 4.3 (11) start-up test status over the first HEALTH_STARTUP_SAMPLES. */
enum health_startup {
	HEALTH_STARTUP_PENDING,  /* fewer samples than that seen so far, none failed */
	HEALTH_STARTUP_PASSED,
	HEALTH_STARTUP_FAILED,   /* RCT or APT failed within the first 1024 samples */
};
enum health_startup health_startup_status(const struct health *h);
const char *health_startup_describe(enum health_startup s);   /* "pending", "passed", "failed" */

#endif
