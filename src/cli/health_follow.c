/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_follow.c - `health --follow` for months (see health_follow.h). */
#include "config.h"

#include "cli/health_follow.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cli/cli_util.h"
#include "cli/health_print.h"
#include "health/health_prom.h"
#include "outpath.h"

#define FOLLOW_EVENTS_PER_INTERVAL 20   /* event lines per interval, then only counted */

/* sd-daemon(3) priorities for stderr/stdout lines read by journald's
 * SyslogLevelPrefix= (default on): <3> err, <5> notice, <6> info. */
#define PRIO_ERR 3
#define PRIO_NOTICE 5
#define PRIO_INFO 6

static volatile sig_atomic_t follow_reopen;

static void on_hup(int sig)
{
	(void)sig;
	follow_reopen = 1;
}

int health_follow_is_journal(int fd)
{
	return cli_is_journal(fd);
}

/* Opens the log for appending, never blocking: a FIFO is waited for a
 * reader at most ATOMICFILE_FIFO_WAIT_MS (fopen() waited forever). */
static int follow_open_log(struct health_follow *f, struct err *e)
{
	struct err oe;
	FILE *fp;
	int fd;
	if (!f->o.log) {
		f->out = stdout;
		return 0;
	}
	if (outpath_open_append(f->o.log, ATOMICFILE_FIFO_WAIT_MS, &fd, &oe) != 0)
		return err_set(e, ERR_IO, "--log %s", oe.msg);
	fp = fdopen(fd, "a");
	if (!fp) {
		close(fd);
		return err_set_errno(e, ERR_IO, errno, "--log %s", f->o.log);
	}
	/* flushed after every line by health_follow_check(), whose errno then
	 * says why a write failed (line buffering lost it in fprintf) */
	setvbuf(fp, NULL, _IOFBF, 0);
	f->out = fp;
	return 0;
}

/* Marks the run failed (the first reason is kept). */
static void follow_fail(struct health_follow *f, const char *what, int errnum)
{
	if (f->failed)
		return;
	f->failed = 1;
	snprintf(f->why, sizeof f->why, "%.400s: %s", what, errnum == EPIPE ? "closed by its reader" : strerror(errnum));
}

int health_follow_check(struct health_follow *f)
{
	errno = 0;
	if (!f->failed && f->out && (fflush(f->out) != 0 || ferror(f->out))) {
		char what[ERR_MSG_MAX];
		snprintf(what, sizeof what, "%s%.400s write failed", f->o.log ? "--log " : "stdout",
			 f->o.log ? f->o.log : "");
		follow_fail(f, what, errno ? errno : EIO);
	}
	return f->failed;
}

int health_follow_failed(const struct health_follow *f, const char **why)
{
	*why = f->why;
	return f->failed;
}

int health_follow_init(struct health_follow *f, const struct health_follow_opts *o,
		       struct err *e)
{
	int rc;

	memset(f, 0, sizeof *f);
	f->o = *o;
	f->start = f->last = cli_now();
	f->sink.name = "follow";
	f->sink.ctx = f;
	if (!o->on) {
		f->out = stdout;
		return 0;
	}
	if ((rc = follow_open_log(f, e)))
		return rc;
	f->journal = health_follow_is_journal(fileno(f->out));
	return 0;
}

void health_follow_catch_hup(const struct health_follow *f)
{
	struct sigaction sa;
	if (!f->o.on)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_hup;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;      /* a read in progress carries on */
	sigaction(SIGHUP, &sa, NULL);
}

void health_follow_attach(struct health_follow *f, struct health_monitor *mon)
{
	f->mon = mon;
}

FILE *health_follow_out(const struct health_follow *f)
{
	return f->out ? f->out : stdout;
}

const char *health_follow_prefix(const struct health_follow *f, int priority)
{
	static const char *p[] = { "<0>", "<1>", "<2>", "<3>", "<4>", "<5>", "<6>", "<7>" };
	return f->journal && priority >= 0 && priority < 8 ? p[priority] : "";
}

void health_follow_event(void *ctx, const struct health_event *ev)
{
	struct health_follow *f = ctx;
	if (!f->o.on)
		return;
	/* a stuck source fails every window: a limit per interval, then counted */
	if (f->failed)
		return;
	if (f->events < FOLLOW_EVENTS_PER_INTERVAL) {
		health_print_event(f->out, health_follow_prefix(f, ev->alarm ? PRIO_NOTICE : PRIO_ERR),
				   ev);
		health_follow_check(f);
		f->events++;
	} else {
		f->suppressed++;
	}
}

/* Holds the reading to the rate: sleeps until the bytes so far are due (a
 * signal cuts the sleep short; the engine then stops). */
static void follow_throttle(struct health_follow *f, size_t bytes)
{
	double due, now;
	f->bytes += bytes;
	if (!(f->o.rate > 0))
		return;
	due = f->start + (double)f->bytes / f->o.rate;
	now = cli_now();
	/* a minute at most per sleep, so the seconds always fit a time_t;
	 * a signal (stop, or SIGHUP's reopen) cuts it short */
	while (due > now && !cli_stop && !follow_reopen) {
		double d = due - now < 60 ? due - now : 60;
		struct timespec ts = { (time_t)d, (long)((d - floor(d)) * 1e9) };
		nanosleep(&ts, NULL);
		now = cli_now();
	}
}

/* The textfile: one that cannot be written stops the run (a monitor whose
 * metrics silently went stale is worse than one that restarts). */
static void follow_prom(struct health_follow *f, const struct health_monitor_results *r)
{
	struct err e;
	if (!f->o.prom || f->failed)
		return;
	if (health_prom_write(f->o.prom, f->o.source, f->o.policy, r, (double)time(NULL), &e) != 0) {
		f->failed = 1;
		snprintf(f->why, sizeof f->why, "--prom %.480s", e.msg);
	}
}

static void follow_status(struct health_follow *f, double now)
{
	struct health_monitor_results r;
	health_monitor_results(f->mon, &r);
	if (f->suppressed)
		fprintf(f->out, "%s%llu more failure or alarm lines not shown in the last interval\n",
			health_follow_prefix(f, PRIO_INFO), f->suppressed);
	health_print_status(f->out, health_follow_prefix(f, PRIO_INFO), &r, now - f->start);
	health_follow_check(f);
	follow_prom(f, &r);
	f->last = now;
	f->events = 0;
	f->suppressed = 0;
}

/* SIGHUP: reopen the log (after logrotate moved it), rewrite the textfile. */
static void follow_hup(struct health_follow *f, double now)
{
	struct err e;
	follow_reopen = 0;
	if (f->o.log) {
		health_follow_check(f);   /* what the old log still held */
		fclose(f->out);
		if (follow_open_log(f, &e) != 0) {
			/* the log cannot be reopened: an operational error (the
			 * summary goes to stderr, where it can be seen) */
			f->out = stderr;
			if (!f->failed) {
				f->failed = 1;
				snprintf(f->why, sizeof f->why, "%s", e.msg);
			}
			return;
		}
		f->journal = health_follow_is_journal(fileno(f->out));
	}
	follow_status(f, now);
}

static int follow_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct health_follow *f = sk->ctx;
	if (!f->failed) {
		double now;
		follow_throttle(f, b->raw_len);
		now = cli_now();
		if (follow_reopen)
			follow_hup(f, now);
		else if (now - f->last >= f->o.interval)
			follow_status(f, now);
	}
	/* an output that failed ends the run (the engine stops on an error) */
	return f->failed ? err_set(e, ERR_IO, "%s", f->why) : 0;
}

struct sink *health_follow_sink(struct health_follow *f)
{
	f->sink.push = follow_push;
	return &f->sink;
}

void health_follow_finish(struct health_follow *f)
{
	if (!f->o.on || f->failed)
		return;
	follow_status(f, cli_now());
}

void health_follow_close(struct health_follow *f)
{
	if (f->out && f->out != stdout && f->out != stderr)
		fclose(f->out);
	f->out = stdout;
}
