/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_parse.c - exact number parsing (src/parse.c): counts never pass
 * through a double, so huge values are refused rather than wrapped. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "parse.h"
#include "tap.h"

static void test_u64_accepts(void)
{
	uint64_t v = 0;
	tap_ok(parse_u64("1000000", 1, UINT64_MAX, &v) == 0 && v == 1000000, "plain decimal 1000000");
	tap_ok(parse_u64("1e6", 1, UINT64_MAX, &v) == 0 && v == 1000000, "1e6 is exactly 1000000");
	tap_ok(parse_u64("25E3", 1, UINT64_MAX, &v) == 0 && v == 25000, "25E3 is exactly 25000");
	tap_ok(parse_u64("0e99", 0, 10, &v) == 0 && v == 0, "0e99 is 0 (no overflow from zero)");
	tap_ok(parse_u64("18446744073709551615", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX,
	       "2^64-1 is the largest accepted value");
	tap_ok(parse_u64("1e19", 0, UINT64_MAX, &v) == 0 && v == 10000000000000000000ULL,
	       "1e19 fits in 64 bits");
	tap_ok(parse_u64("007", 0, 10, &v) == 0 && v == 7, "leading zeros are decimal, not octal");
}

static void test_u64_refuses(void)
{
	static const char *bad[] = {
		"18446744073709551616", /* 2^64: once parsed as 0, "no limit" */
		"99999999999999999999999", "1e20", "2e19", "1e65", "1e", "e6", "", "-1", "+1", " 1", "1 ",
		"0x10", "1.5", "1.0", "1e-3", "inf", "nan", "1k", "1,000",
	};
	uint64_t v = 42;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		tap_ok(parse_u64(bad[i], 0, UINT64_MAX, &v) == ERR_USAGE && v == 42,
		       "parse_u64 refuses '%s' and leaves the output alone", bad[i]);
	tap_ok(parse_u64(NULL, 0, 1, &v) == ERR_USAGE, "parse_u64 refuses NULL");
	tap_ok(parse_u64("0", 1, 10, &v) == ERR_USAGE, "below min is refused");
	tap_ok(parse_u64("11", 1, 10, &v) == ERR_USAGE, "above max is refused");
	tap_ok(parse_u64("1000000000000001", 1, 1000000000000000ULL, &v) == ERR_USAGE,
	       "10^15 + 1 is past the samples maximum");
}

static void test_double(void)
{
	double d = 0;
	tap_ok(parse_double("0.5", &d) == 0 && d == 0.5, "0.5");
	tap_ok(parse_double("-2.5e-3", &d) == 0 && d == -2.5e-3, "-2.5e-3");
	tap_ok(parse_double(".25", &d) == 0 && d == 0.25, ".25");
	static const char *bad[] = { "", "inf", "-inf", "nan", "0x1p3", " 1", "1 ", "1e999", "abc", "1.5x" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		tap_ok(parse_double(bad[i], &d) == ERR_USAGE, "parse_double refuses '%s'", bad[i]);
}

static void test_alpha(void)
{
	double a = 0;
	tap_ok(parse_alpha("2^-20", &a) == 0 && a == 0x1p-20, "2^-20");
	tap_ok(parse_alpha("2^(-30)", &a) == 0 && a == 0x1p-30, "2^(-30)");
	tap_ok(parse_alpha("1e-6", &a) == 0 && a == 1e-6, "1e-6");
	tap_ok(parse_alpha("2^-1000", &a) == 0 && a == 0x1p-1000, "2^-1000, the floor (issue 24 item 7)");
	static const char *bad[] = { "0", "1", "2^0", "2^1", "2^-2000", "-0.1", "2^", "2^()", "2^(-3", "1e-400",
				     "2^-1074", "2^-1001", "1e-305" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		tap_ok(parse_alpha(bad[i], &a) == ERR_USAGE, "parse_alpha refuses '%s'", bad[i]);
}

/* A figure printed is the figure used: "%g" showed 8.0000001 as "8". */
static void test_format_double(void)
{
	char buf[40];
	tap_eq_str(parse_format_double(8.0000001, buf, sizeof buf), "8.0000001", "8.0000001 reads back");
	tap_eq_str(parse_format_double(7.99999999999, buf, sizeof buf), "7.99999999999", "7.99999999999 reads back");
	tap_eq_str(parse_format_double(0.5, buf, sizeof buf), "0.5", "0.5 in its fewest digits");
	tap_eq_str(parse_format_double(-0.0, buf, sizeof buf), "0", "-0 is 0");
	tap_eq_str(parse_format_double(0.1, buf, sizeof buf), "0.1", "0.1, not 0.10000000000000001");
}

int main(void)
{
	test_u64_accepts();
	test_u64_refuses();
	test_double();
	test_alpha();
	test_format_double();
	return tap_done();
}
