/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parse.c - exact number parsing for options, spec values and arguments. */
#include "config.h"

#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

/* Appends one decimal digit to *v; 0, or -1 when the result passes UINT64_MAX. */
static int u64_push_digit(uint64_t *v, unsigned d)
{
	if (*v > (UINT64_MAX - d) / 10)
		return -1;
	*v = *v * 10 + d;
	return 0;
}

int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0, exp = 0;
	const char *p = text;

	if (!p || *p < '0' || *p > '9')
		return ERR_USAGE;
	for (; *p >= '0' && *p <= '9'; p++)
		if (u64_push_digit(&v, (unsigned)(*p - '0')) != 0)
			return ERR_USAGE;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p < '0' || *p > '9')
			return ERR_USAGE;
		for (; *p >= '0' && *p <= '9'; p++)
			if (u64_push_digit(&exp, (unsigned)(*p - '0')) != 0)
				return ERR_USAGE;
		/* 0e99 is 0; otherwise every power of ten must fit (a nonzero value
		 * overflows within 20 steps, so a huge exponent costs nothing). */
		for (; v != 0 && exp > 0; exp--)
			if (u64_push_digit(&v, 0) != 0)
				return ERR_USAGE;
	}
	if (*p != '\0' || v < min || v > max)
		return ERR_USAGE;
	*out = v;
	return 0;
}

int parse_double(const char *text, double *out)
{
	char *end;
	double d;
	const char *p = text;

	if (!p || !*p)
		return ERR_USAGE;
	/* strtod also takes blanks, hex floats, "inf" and "nan": none is a
	 * number a user means here. */
	if (*p == '+' || *p == '-')
		p++;
	if (!((*p >= '0' && *p <= '9') || *p == '.') || strpbrk(p, "xX") != NULL)
		return ERR_USAGE;
	errno = 0;
	d = strtod(text, &end);
	if (errno || end == text || *end != '\0' || !isfinite(d))
		return ERR_USAGE;
	*out = d;
	return 0;
}

const char *parse_format_double(double v, char *buf, size_t len)
{
	/* the fewest significant digits, 6 at least (17 always suffice for a
	 * double), that read back as v: "%g" alone shows 8.0000001 as "8" */
	for (int digits = 6; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v + 0.0);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

int parse_alpha(const char *text, double *out)
{
	double v;
	if (!text)
		return ERR_USAGE;
	if (strncmp(text, "2^", 2) == 0) {
		char buf[64];
		const char *p = text + 2;
		size_t len = strlen(p);
		if (len >= sizeof buf)
			return ERR_USAGE;
		if (p[0] == '(' && len > 2 && p[len - 1] == ')') {
			memcpy(buf, p + 1, len - 2);
			buf[len - 2] = '\0';
		} else {
			memcpy(buf, p, len + 1);
		}
		if (parse_double(buf, &v) != 0)
			return ERR_USAGE;
		v = exp2(v);
	} else if (parse_double(text, &v) != 0) {
		return ERR_USAGE;
	}
	if (!(v >= ldexp(1.0, PARSE_ALPHA_EXP_MIN) && v < 1.0))
		return ERR_USAGE;
	*out = v;
	return 0;
}
