/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audit_progress.h - the audit's progress line on a terminal: which source
 * is on what (waiting for the shared CPU RNG, collecting at its rate,
 * assessing), drawn from the jobs' hooks (audit/audit_job.h). */
#ifndef RNGAUDIT_CLI_AUDIT_PROGRESS_H
#define RNGAUDIT_CLI_AUDIT_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "audit/audit_job.h"
#include "cli/cli_util.h"

/* One job as the line shows it. */
struct audit_progress_job {
	enum audit_job_state state;
	uint64_t done, bytes;
	double started;
};

/* At most four lines a second; the sources run in threads and the line is
 * drawn under a lock by whichever reports. */
struct audit_progress {
	pthread_mutex_t lock;
	struct cli_progress p;
	const struct audit_job *jobs;
	struct audit_progress_job *view;   /* one per job */
	size_t n;
	struct audit_job_hooks hooks;      /* what the jobs call */
};

/* Starts the line for n jobs (view: room for n); hooks NULL-free only on a
 * terminal: audit_progress_hooks() says what to give the jobs. */
void audit_progress_init(struct audit_progress *ap, const struct audit_job *jobs,
			 struct audit_progress_job *view, size_t n);
/* The hooks the jobs get: NULL when no line is drawn. */
const struct audit_job_hooks *audit_progress_hooks(const struct audit_progress *ap);
/* Clears the line. */
void audit_progress_end(struct audit_progress *ap);

#endif
