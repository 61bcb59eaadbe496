/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_util.c - error lines, number parsing, signals and progress for the commands. */
#include "config.h"

#include "cli/cli_util.h"
#include "atomicfile.h"
#include "engine/samples.h"
#include "parse.h"
#include "report/termtext.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t cli_stop;

/* Writes s to fp with control characters, C1 controls and bytes that are
 * not UTF-8 escaped (\n, \t, \x1b, \xc2\x9b...; termtext.h), so that a file
 * name, an argument or a CSV field echoed into a message can neither break
 * it over lines nor drive the terminal.  A backslash stays as it is: parts
 * from the input were escaped already (err_escape()). */
void cli_put_escaped(FILE *fp, const char *s)
{
	termtext_put_line(fp, s);
}

int cli_is_journal(int fd)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	if (!js || sscanf(js, "%llu:%llu", &dev, &ino) != 2 || fstat(fd, &st) != 0)
		return 0;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

/* prefix: "<3>" for an error line in the journal, else "" */
static void cli_vline(const char *prefix, const char *cmd, const char *fmt, va_list ap)
{
	char line[2 * ERR_MSG_MAX];
	vsnprintf(line, sizeof line, fmt, ap);
	fputs(prefix, stderr);
	fputs(cmd ? "rngaudit " : "rngaudit", stderr);
	if (cmd)
		fputs(cmd, stderr);
	fputs(": ", stderr);
	cli_put_escaped(stderr, line);
	fputc('\n', stderr);
}

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vline(cli_is_journal(STDERR_FILENO) ? "<3>" : "", cmd, fmt, ap);
	va_end(ap);
	return EXIT_ERROR;
}

void cli_note(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vline("", cmd, fmt, ap);
	va_end(ap);
}

void cli_check_prom_name(const char *cmd, const char *path)
{
	size_t n = path ? strlen(path) : 0;
	if (path && strcmp(path, "-") != 0 && (n < 5 || strcmp(path + n - 5, ".prom") != 0))
		cli_note(cmd, "warning: --prom %s: node_exporter's textfile collector reads only files "
			 "ending in .prom", path);
}

void cli_wait_notice(const char *msg)
{
	cli_note(NULL, "%s", msg);
}

int cli_error_err(const char *cmd, const struct err *e)
{
	return cli_error(cmd, "%s", e && e->msg[0] ? e->msg : "unknown error");
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

int cli_parse_samples(const char *cmd, const char *text, uint64_t *out)
{
	if (parse_u64(text, 1, CLI_MAX_SAMPLES, out) != 0)
		return cli_error(cmd, "-n %s: the number of samples must be an integer from 1 to "
				 CLI_MAX_SAMPLES_TEXT, text);
	return 0;
}

int cli_parse_duration(const char *text, double *seconds)
{
	static const struct { char unit; double s; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'y', 365.25 * 86400 },
	};
	char buf[64];
	size_t len = text ? strlen(text) : 0;
	double mult = 1, v;

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, text, len + 1);
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (buf[len - 1] == units[i].unit) {
			mult = units[i].s;
			buf[--len] = '\0';
			break;
		}
	if (parse_double(buf, &v) != 0 || !(v > 0))
		return -1;
	*seconds = v * mult;
	return 0;
}

/* A signal that ends the process: our temporaries go first, then the
 * default action (so the exit status still says which signal it was). */
static void on_fatal_signal(int sig)
{
	atomicfile_remove_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_wake_signal(int sig)
{
	(void)sig;
}

static void on_stop_signal(int sig)
{
	if (cli_stop) {           /* second signal: give up gracefully-stopping */
		on_fatal_signal(sig);
		return;
	}
	cli_stop = 1;
}

void cli_install_fatal_handlers(void)
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2 };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_fatal_signal;
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaction(fatal[i], &sa, NULL);
}

void cli_install_stop_handlers(void)
{
	struct sigaction sa;
	cli_install_fatal_handlers();
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART: a blocking read returns EINTR so we can stop */
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* DESIGN.md: SIGHUP ends a bounded run as SIGINT does, keeping what it
	 * has (--follow with --log turns it into "reopen the log" after this:
	 * health_follow_catch_hup) */
	sigaction(SIGHUP, &sa, NULL);
	/* SIGURG only wakes a worker thread out of a blocking read (EINTR);
	 * its default action is to be ignored, which would not. */
	sa.sa_handler = on_wake_signal;
	sigaction(CLI_WAKE_SIGNAL, &sa, NULL);
}

int cli_parse_max_samples(const char *cmd, const char *text, uint64_t *out)
{
	if (parse_u64(text, 1, SIZE_MAX, out) != 0)
		return cli_error(cmd, "--max-samples %s: must be an integer from 1 to %zu", text,
				 (size_t)SIZE_MAX);
	return 0;
}

int cli_read_samples(const char *cmd, const char *path, uint64_t max, uint8_t **s, size_t *n)
{
	struct err e;
	int more = 0;
	size_t cap = max ? (size_t)max : samples_default_max();

	err_clear(&e);
	if (samples_read_file_max(path, cap, s, n, &more, &e) != 0)
		return cli_error_err(cmd, &e);
	if (more)
		cli_note(cmd, "%s: read the first %zu samples only (the cap%s; NIST's tool reads "
			 "whole files)", path, cap, max ? " set by --max-samples" :
			 ", from memory: --max-samples changes it");
	return 0;
}

int cli_check_outputs(const char *cmd, const struct outpath *o, size_t n, unsigned allowed)
{
	struct err e;
	if (outpath_check(o, n, allowed, &e) != 0)
		return cli_error_err(cmd, &e);
	return 0;
}

const char *cli_json_stdout_split(const char *json_path, char *buf, size_t len)
{
	int fd;
	if (!json_path || !outpath_is_stdout(json_path))
		return json_path;
	/* the JSON keeps stdout (a copy of its descriptor), the text moves to stderr */
	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return json_path;
	snprintf(buf, len, "/dev/fd/%d", fd);
	return buf;
}

int cli_finish_stdout(int rc)
{
	int failed = fflush(stdout) != 0 || ferror(stdout);
	if (!failed)
		return rc;
	/* EPIPE: the reader left; it knows, and the command said what it
	 * wrote.  Anything else (a full disk behind a redirection) is news. */
	if (errno != EPIPE)
		cli_error(NULL, "stdout: write failed: %s", strerror(errno));
	return EXIT_ERROR;
}

void cli_join_stoppable(pthread_t t)
{
	struct timespec until;
	for (;;) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (pthread_timedjoin_np(t, NULL, &until) == 0)
			return;
		/* The signal came to this thread; the worker may sit in read(). */
		if (cli_stop)
			pthread_kill(t, CLI_WAKE_SIGNAL);
	}
}

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total)
{
	memset(p, 0, sizeof *p);
	p->enabled = isatty(STDERR_FILENO) && !getenv("RNGAUDIT_NO_PROGRESS");
	p->total = total;
	p->start = cli_now();
	p->last = p->start - 1;       /* the first report shows at once, then four a second */
	p->what = what;
}

int cli_progress_due(struct cli_progress *p)
{
	double now;
	if (!p || !p->enabled)
		return 0;
	now = cli_now();
	if (now - p->last < 0.25)
		return 0;
	p->last = now;
	return 1;
}

void cli_progress_update(void *ctx, uint64_t done, uint64_t bytes)
{
	struct cli_progress *p = ctx;
	double now;
	if (!cli_progress_due(p))
		return;
	char rate[32];
	now = p->last;
	cli_format_rate((double)bytes / (now - p->start + 1e-9), rate, sizeof rate);
	if (p->total)
		fprintf(stderr, "\r%s: %llu / %llu samples (%.0f%%), %s   ", p->what,
			(unsigned long long)done, (unsigned long long)p->total,
			100.0 * (double)done / (double)p->total, rate);
	else
		fprintf(stderr, "\r%s: %llu samples, %s   ", p->what,
			(unsigned long long)done, rate);
	fflush(stderr);
}

const char *cli_format_rate(double bps, char *buf, size_t len)
{
	static const char *units[] = { "B/s", "KB/s", "MB/s", "GB/s" };
	unsigned u = 0;
	while (bps >= 1000 && u < 3) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, len, bps < 10 ? "%.1f %s" : "%.0f %s", bps, units[u]);
	return buf;
}

void cli_progress_done(struct cli_progress *p)
{
	if (p && p->enabled && p->last > p->start) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

const char *cli_sysroot_env(void)
{
	const char *s = getenv("RNGAUDIT_SYSROOT");
	return s && *s ? s : NULL;
}
