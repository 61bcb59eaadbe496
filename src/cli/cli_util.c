/* cli_util.c - error lines, number parsing, signals and progress for the commands. */
#include "config.h"

#include "cli/cli_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t cli_stop;

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "rngaudit %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
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

int cli_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	double d;

	if (!text || !*text || *text == '-' || *text == '+')
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno == 0 && end != text && *end == '\0') {
		if (v < min || v > max)
			return -1;
		*out = v;
		return 0;
	}
	/* Allow exact scientific forms such as 1e6 for convenience. */
	errno = 0;
	d = strtod(text, &end);
	if (errno || end == text || *end != '\0' || !(d >= (double)min) || d > (double)max ||
	    d != floor(d))
		return -1;
	*out = (uint64_t)d;
	return 0;
}

int cli_parse_double(const char *text, double *out)
{
	char *end;
	double d;
	if (!text || !*text)
		return -1;
	errno = 0;
	d = strtod(text, &end);
	if (errno || end == text || *end != '\0' || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

int cli_parse_alpha(const char *text, double *out)
{
	double v;
	if (!text)
		return -1;
	if (strncmp(text, "2^", 2) == 0) {
		char buf[64];
		const char *p = text + 2;
		size_t len = strlen(p);
		if (len >= sizeof buf)
			return -1;
		if (p[0] == '(' && len > 2 && p[len - 1] == ')') {
			memcpy(buf, p + 1, len - 2);
			buf[len - 2] = '\0';
		} else {
			memcpy(buf, p, len + 1);
		}
		if (cli_parse_double(buf, &v) != 0)
			return -1;
		v = exp2(v);
	} else if (cli_parse_double(text, &v) != 0) {
		return -1;
	}
	if (!(v > 0.0 && v < 1.0))
		return -1;
	*out = v;
	return 0;
}

static void on_stop_signal(int sig)
{
	if (cli_stop) {           /* second signal: give up gracefully-stopping */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	cli_stop = 1;
}

void cli_install_stop_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART: a blocking read returns EINTR so we can stop */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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
	p->start = p->last = cli_now();
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
	now = p->last;
	if (p->total)
		fprintf(stderr, "\r%s: %llu / %llu samples (%.0f%%), %.1f MB/s   ", p->what,
			(unsigned long long)done, (unsigned long long)p->total,
			100.0 * (double)done / (double)p->total,
			(double)bytes / 1e6 / (now - p->start + 1e-9));
	else
		fprintf(stderr, "\r%s: %llu samples, %.1f MB/s   ", p->what,
			(unsigned long long)done, (double)bytes / 1e6 / (now - p->start + 1e-9));
	fflush(stderr);
}

void cli_progress_done(struct cli_progress *p)
{
	if (p && p->enabled && p->last > p->start) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}
