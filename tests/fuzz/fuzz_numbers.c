/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_numbers.c - libFuzzer target: the numbers users type as option
 * values and arguments (src/parse.h: counts and sizes, reals, alpha).
 *
 * The first byte picks the parser and, for counts, one of the ranges the
 * commands use; the rest is the text.  Counts are checked against an exact
 * reference (128-bit arithmetic on the grammar DIGITS[eDIGITS]): whatever
 * parse_u64() accepts is that value, in range, and prints back (%llu) to
 * itself; whatever it refuses is malformed, out of range or past UINT64_MAX. */
#include "config.h"

#include "fuzz.h"

#include <errno.h>
#include <math.h>

#include "parse.h"

static const struct {
	uint64_t min, max;
} ranges[] = {
	{ 0, UINT64_MAX }, { 1, UINT64_MAX }, { 1, 1000000000000000ULL }, { 1, 8 }, { 16, 64 },
	{ 0, 0 }, { 12345, 12345 }, { 1, UINT32_MAX },
};
#define NRANGES (sizeof ranges / sizeof ranges[0])

/* Past this the reference stops counting (anything above UINT64_MAX). */
#define REF_SATURATED ((unsigned __int128)UINT64_MAX + 1)

/* The exact value of DIGITS[(e|E)DIGITS] (saturated), or -1 if text is not
 * of that form. */
static int reference_u64(const char *p, unsigned __int128 *out)
{
	unsigned __int128 v = 0;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (unsigned)(*p - '0')) > REF_SATURATED)
			v = REF_SATURATED;
	if (*p == 'e' || *p == 'E') {
		unsigned __int128 exp = 0;
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		/* An exponent past UINT64_MAX is refused even after 0 (parse_u64
		 * reads it as a count too); 10^20 > UINT64_MAX saturates any other
		 * nonzero value. */
		for (; *p >= '0' && *p <= '9'; p++)
			if ((exp = exp * 10 + (unsigned)(*p - '0')) > UINT64_MAX)
				return -1;
		for (; exp > 0 && v != 0 && v < REF_SATURATED; exp--)
			if ((v = v * 10) > REF_SATURATED)
				v = REF_SATURATED;
	}
	if (*p)
		return -1;
	*out = v;
	return 0;
}

static void check_u64(const char *text, uint64_t min, uint64_t max)
{
	uint64_t v = 0xfeedface;
	unsigned __int128 ref;
	int ok = parse_u64(text, min, max, &v) == 0;
	int want = reference_u64(text, &ref) == 0 && ref >= min && ref <= max;

	FUZZ_ASSERT(ok == want);
	if (ok) {
		char buf[32];
		uint64_t back = 0;
		FUZZ_ASSERT(v == (uint64_t)ref && v >= min && v <= max);
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
		FUZZ_ASSERT(parse_u64(buf, min, max, &back) == 0 && back == v);
	} else {
		FUZZ_ASSERT(v == 0xfeedface);
	}
}

static void check_double(const char *text)
{
	double v = -12.5;
	if (parse_double(text, &v) == 0) {
		char buf[40];
		double back = 0;
		FUZZ_ASSERT(isfinite(v) && v == strtod(text, NULL));
		snprintf(buf, sizeof buf, "%.17g", v);
		FUZZ_ASSERT(parse_double(buf, &back) == 0 && back == v);
	} else {
		FUZZ_ASSERT(v == -12.5);
	}
}

static void check_alpha(const char *text)
{
	double v = 7;
	if (parse_alpha(text, &v) == 0)
		FUZZ_ASSERT(v > 0 && v < 1);
	else
		FUZZ_ASSERT(v == 7);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	unsigned pick;

	if (size < 1)
		return 0;
	pick = data[0];
	if (!(text = fuzz_strdup(data + 1, size - 1)))
		return 0;
	if (pick % (NRANGES + 2) < NRANGES)
		check_u64(text, ranges[pick % (NRANGES + 2)].min, ranges[pick % (NRANGES + 2)].max);
	else if (pick % (NRANGES + 2) == NRANGES)
		check_double(text);
	else
		check_alpha(text);
	free(text);
	return 0;
}
