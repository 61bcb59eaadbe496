/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tap.h - a minimal Test Anything Protocol producer for the unit tests.
 *
 * Each check prints one "ok N - name" or "not ok N - name" line; automake's
 * tap-driver.sh counts each line as one test.  tap_done() prints the plan
 * and returns 0 (a TAP program should exit 0: failures are in the lines).
 */
#ifndef RNGAUDIT_TAP_H
#define RNGAUDIT_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline __attribute__((format(printf, 2, 3)))
int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

/* Passes when |got - want| <= tol; prints both on failure. */
static inline int tap_near(double got, double want, double tol, const char *name)
{
	int ok = fabs(got - want) <= tol || (isnan(got) && isnan(want)) ||
		 (isinf(got) && isinf(want) && (got > 0) == (want > 0));
	if (!tap_ok(ok, "%s", name))
		printf("# got %.17g, want %.17g (tol %g)\n", got, want, tol);
	return ok;
}

static inline int tap_eq_long(long long got, long long want, const char *name)
{
	int ok = got == want;
	if (!tap_ok(ok, "%s", name))
		printf("# got %lld, want %lld\n", got, want);
	return ok;
}

static inline int tap_eq_str(const char *got, const char *want, const char *name)
{
	int ok = got && want && strcmp(got, want) == 0;
	if (!tap_ok(ok, "%s", name))
		printf("# got \"%s\", want \"%s\"\n", got ? got : "(null)", want ? want : "(null)");
	return ok;
}

static inline void tap_skip(const char *why)
{
	tap_count++;
	printf("ok %d # SKIP %s\n", tap_count, why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return 0;
}

/* Path of a test data file: $top_srcdir/REL (or ./REL). Static buffer. */
static inline const char *tap_srcpath(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("top_srcdir");
	snprintf(buf, sizeof buf, "%s/%s", top && *top ? top : ".", rel);
	return buf;
}

#endif
