/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audit_job.h - one source's audit, the heart of the decision layer:
 * collect with the health tests streaming (90B 4.4), assess with the non-IID
 * estimators (90B 6.3), match the quirk table, judge with the policy.
 * Library code: it never prints; the command layer runs one job per thread
 * and draws progress through the hooks. */
#ifndef RNGAUDIT_AUDIT_AUDIT_JOB_H
#define RNGAUDIT_AUDIT_AUDIT_JOB_H

#include <signal.h>
#include <stdint.h>

#include "err.h"
#include "audit/cpurng_arch.h"
#include "audit/kernel.h"
#include "audit/policy.h"
#include "audit/quirks.h"
#include "health/health_monitor.h"
#include "report/report.h"

/* A file of unknown size (a pipe) read whole: the health tests' alpha is
 * made to cover 10^9 samples, more than a pipe is read in an audit. */
#define AUDIT_FILE_SAMPLES_UNKNOWN HEALTH_RUN_SAMPLES_UNKNOWN

enum audit_job_state { AUDIT_QUEUED, AUDIT_WAITING, AUDIT_COLLECTING, AUDIT_ASSESSING, AUDIT_DONE };

struct audit_job;

/* What the caller sees of a job while it runs (both may be NULL): state
 * changes, and the engine's count of samples and bytes collected.  Called
 * from the job's thread. */
struct audit_job_hooks {
	void (*state)(void *ctx, struct audit_job *j, enum audit_job_state s);
	void (*progress)(void *ctx, struct audit_job *j, uint64_t done, uint64_t bytes);
	void *ctx;
	uint64_t progress_every;      /* bytes between progress calls */
};

/* One source's work: the caller fills the inputs, the job fills `out` and
 * the result fields. */
struct audit_job {
	/* inputs */
	char spec[256];
	uint64_t samples;             /* asked for (0: a file read whole) */
	size_t keep_max;              /* the most samples kept for the estimators
					 (audit_job_keep_max; 0: no cap) */
	const char *samples_why;
	unsigned bits;
	const struct policy *policy;
	const struct quirk_table *quirks;
	const struct quirk_cpu *cpu;
	const struct kernel_ctx *kernel;   /* classifies /dev/hwrng by its driver (classify.h) */
	const struct cpurng_arch *arch;    /* what this architecture's kernel seeds from (trust.h) */
	int probe_unavailable;        /* a real source found absent by source_probe */
	int named;                    /* named with --source: failing to open it is an error */
	volatile sig_atomic_t *stop;   /* set by a signal: stop collecting / assessing */
	const struct audit_job_hooks *hooks;
	struct report_source *out;
	/* results */
	int usage_error;              /* a named source could not be opened, or gave
					 no samples: exit 2 (why in out->why) */
	char source_error[ERR_MSG_MAX];
	char est_skipped[160];
	char translation[256];        /* wide samples: what the 90B 6.4 reduction did */
};

/* The most samples one of nsources jobs run at once keeps for the
 * estimators: samples_default_max() (a quarter of physical memory at the
 * estimators' peak bytes per sample, as assess and iid read) shared among
 * them, never under NIST's 10^6.  An audit asking for more with -n is
 * refused up front; a file read whole is assessed on its first keep_max
 * samples (the health tests still see all of it), and says so. */
size_t audit_job_keep_max(size_t nsources);

/* 1 when the policy lets source name set the exit status (jitter is
 * measured for information unless the policy names it). */
int audit_gates(const struct policy *p, const char *name);

/* Runs job j to its verdict; fills j->out.  Safe to run in parallel with
 * other jobs (RDRAND and RDSEED take turns inside). */
void audit_job_run(struct audit_job *j);

/* The thread body: arg is a struct audit_job. */
void *audit_job_thread(void *arg);

#endif
