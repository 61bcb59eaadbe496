/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_follow.h - `health --follow` as a long-running monitor: reading
 * held to a rate, a status line every interval, each failure and alarm on
 * one line (prefixed for journald when the output is the journal), a
 * node_exporter textfile rewritten each interval, and SIGHUP reopening the
 * log and rewriting the textfile.
 *
 * It is a service (DESIGN.md, "Signals and exit codes"): a log, stdout or
 * textfile that cannot be written (ENOSPC, EIO, a reader gone: EPIPE, a
 * dead FIFO) stops the run as an operational error, said once on stderr
 * (the journal's err priority when stderr is the journal), so the unit's
 * restart policy sees it; lines are never lost silently.  The log is
 * opened without blocking (a FIFO waits for a reader a bounded time). */
#ifndef RNGAUDIT_HEALTH_FOLLOW_H
#define RNGAUDIT_HEALTH_FOLLOW_H

#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "health/health.h"
#include "health/health_monitor.h"

struct health_follow_opts {
	int on;                  /* 0: the sink does nothing, events are not printed */
	double interval;         /* seconds between status lines */
	double rate;             /* bytes per second at most; 0 = flat out */
	const char *log;         /* append lines here instead of stdout; NULL = stdout */
	const char *prom;        /* node_exporter textfile; NULL = none */
	const char *source;      /* the source's name for the textfile's labels */
	const char *policy;      /* the policy's origin, for rngaudit_build_info */
};

struct health_follow {
	struct health_follow_opts o;
	double start, last;
	uint64_t bytes;          /* raw bytes seen, for the rate */
	unsigned events;         /* event lines printed in this interval */
	unsigned long long suppressed;
	int journal;             /* lines carry <N> syslog priority prefixes */
	FILE *out;               /* stdout or the log */
	int failed;              /* an output failed: the run stops (why says which) */
	char why[ERR_MSG_MAX];
	struct health_monitor *mon;
	struct sink sink;
};

/* Opens the log (ERR_IO naming it). */
int health_follow_init(struct health_follow *f, const struct health_follow_opts *o,
		       struct err *e);
/* With --follow, SIGHUP reopens the log instead of ending the run: call
 * after cli_install_stop_handlers(), which makes it fatal. */
void health_follow_catch_hup(const struct health_follow *f);
/* The monitor to report on; set before the engine runs. */
void health_follow_attach(struct health_follow *f, struct health_monitor *mon);
/* The monitor's on_failure callback (ctx = f).  A line that cannot be
 * written marks f failed; the sink then stops the run. */
void health_follow_event(void *ctx, const struct health_event *ev);
struct sink *health_follow_sink(struct health_follow *f);
/* Where the summary goes and the prefix its lines need ("<6>" for the journal). */
FILE *health_follow_out(const struct health_follow *f);
const char *health_follow_prefix(const struct health_follow *f, int priority);
/* The last status line and textfile. */
void health_follow_finish(struct health_follow *f);
/* After the run: 1 when an output failed, with *why saying which and how
 * (one line for stderr). */
int health_follow_failed(const struct health_follow *f, const char **why);
/* Flushes out (the log or stdout) and marks f failed if it cannot be
 * written; returns f->failed. */
int health_follow_check(struct health_follow *f);
/* Closes the log (after the summary went to health_follow_out). */
void health_follow_close(struct health_follow *f);

/* 1 if JOURNAL_STREAM ("dev:inode") names the file open on fd. */
int health_follow_is_journal(int fd);

#endif
