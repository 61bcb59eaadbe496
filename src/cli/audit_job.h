/* audit_job.h - one source's audit, run by its own thread: collect with
 * the health tests streaming, assess, match quirks, judge (cmd_audit.c
 * starts one per source and writes the reports). */
#ifndef RNGAUDIT_CLI_AUDIT_JOB_H
#define RNGAUDIT_CLI_AUDIT_JOB_H

#include <pthread.h>
#include <stdint.h>

#include "cli/cli_util.h"
#include "audit/policy.h"
#include "audit/quirks.h"
#include "health/health_monitor.h"
#include "report/report.h"

/* A file of unknown size (a pipe) read whole: the health tests' alpha is
 * made to cover 10^9 samples, more than a pipe is read in an audit. */
#define AUDIT_FILE_SAMPLES_UNKNOWN HEALTH_RUN_SAMPLES_UNKNOWN

/* One source's work, filled by its thread. */
struct audit_job {
	char spec[256];
	uint64_t samples;             /* asked for */
	const char *samples_why;
	unsigned bits;
	const struct policy *policy;
	const struct quirk_table *quirks;
	const struct quirk_cpu *cpu;
	int probe_unavailable;        /* a real source found absent by source_probe */
	int named;                    /* named with --source: failing to open it is an error */
	int usage_error;              /* a named source could not be opened: exit 2 */
	char source_error[ERR_MSG_MAX];
	char est_skipped[160];
	char translation[256];        /* wide samples: what the 90B 6.4 reduction did */
	struct report_source *out;
	/* progress (under audit_progress.lock) */
	enum { AUDIT_QUEUED, AUDIT_WAITING, AUDIT_COLLECTING, AUDIT_ASSESSING, AUDIT_DONE } state;
	uint64_t done, bytes;
	double started;
	struct audit_progress *progress;
};

/* Progress on a terminal, at most four lines a second: which source is on
 * what (waiting for the shared CPU RNG, collecting at its rate, assessing).
 * The sources run in threads; the line is drawn under a lock by whichever
 * reports. */
struct audit_progress {
	pthread_mutex_t lock;
	struct cli_progress p;
	struct audit_job *jobs;
	size_t n;
};

/* 1 when the policy lets source name set the exit status. */
int audit_gates(const struct policy *p, const char *name);

/* The thread body: arg is a struct audit_job; fills job->out. */
void *audit_source_run(void *arg);

#endif
