/* parse.h - exact parsing of the numbers users type: counts, sizes,
 * probabilities.  Every function takes the whole text (no trailing junk, no
 * leading blanks or signs where they make no sense) and returns 0 or
 * ERR_USAGE; callers name the option in their message.  Counts never go
 * through a double, so 18446744073709551616 is "too large", not 0. */
#ifndef RNGAUDIT_PARSE_H
#define RNGAUDIT_PARSE_H

#include <stdint.h>

#include "err.h"

/* An unsigned integer in [min, max]: decimal digits, optionally followed by
 * an exact power-of-ten exponent ("1e6", "25E3"), computed in integers.
 * No sign, no blanks, no hex, no fraction. */
int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* A finite decimal or scientific number (strtod syntax, no hex, no inf/nan). */
int parse_double(const char *text, double *out);

/* alpha: "2^-30", "2^(-30)" or a decimal such as 1e-6; must be in (0, 1). */
int parse_alpha(const char *text, double *out);

#endif
