/* SPDX-License-Identifier: GPL-3.0-or-later */
/* parse.h - exact parsing of the numbers users type: counts, sizes,
 * probabilities.  Every function takes the whole text (no trailing junk, no
 * leading blanks or signs where they make no sense) and returns 0 or
 * ERR_USAGE; callers name the option in their message.  Counts never go
 * through a double, so 18446744073709551616 is "too large", not 0. */
#ifndef RNGAUDIT_PARSE_H
#define RNGAUDIT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* An unsigned integer in [min, max]: decimal digits, optionally followed by
 * an exact power-of-ten exponent ("1e6", "25E3"), computed in integers.
 * No sign, no blanks, no hex, no fraction. */
int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* A finite decimal or scientific number (strtod syntax, no hex, no inf/nan). */
int parse_double(const char *text, double *out);

/* The smallest alpha taken, 2^-1000 (the policy's floor too): far below
 * any rate a test could observe, and a normal double whose shares over
 * the tests and windows of a run stay above zero (2^-1074, the smallest
 * double, was taken and split to "alpha 0"). */
#define PARSE_ALPHA_EXP_MIN (-1000)
#define PARSE_ALPHA_RANGE "[2^-1000, 1)"

/* alpha: "2^-30", "2^(-30)" or a decimal such as 1e-6; must be in
 * [2^PARSE_ALPHA_EXP_MIN, 1). */
int parse_alpha(const char *text, double *out);

/* v in the fewest significant digits (at least 6) that read back as v
 * exactly, into buf; returns buf. */
const char *parse_format_double(double v, char *buf, size_t len);

#endif
