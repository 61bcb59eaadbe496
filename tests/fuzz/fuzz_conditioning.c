/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_conditioning.c - libFuzzer target: the arguments of `conditioning`
 * (n_in n_out nw h_in [h']), as whitespace-separated text.
 *
 * h_in and h' go through conditioning_parse_ld() as the command reads them;
 * the three widths are read here as plain decimals and kept to
 * FUZZ_COND_WIDTH_MAX so that one input costs milliseconds (the cost of
 * conditioning_compute() grows with the widths: 1,000,000-bit inputs take
 * seconds, which the command's own bounds are for).  Four arguments: vetted;
 * five: non-vetted.  An accepted result must not claim more entropy than
 * n_out, h_in (and 0.999 n_out and h' n_out when non-vetted). */
#include "config.h"

#include "fuzz.h"

#include <errno.h>
#include <math.h>

#include "conditioning/conditioning.h"

#define FUZZ_COND_WIDTH_MAX 4096u
#define FUZZ_COND_ARGS 5

static int parse_width(const char *text, unsigned *out)
{
	char *end;
	unsigned long v;
	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || *end || v > FUZZ_COND_WIDTH_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static void check_result(const struct cond_result *r, unsigned n_out, long double h_in, int vetted,
			 long double h_p)
{
	FUZZ_ASSERT(r->nattempts >= 1 && r->nattempts <= COND_MAX_ATTEMPTS);
	FUZZ_ASSERT(isfinite(r->h_out) && r->h_out >= 0);
	FUZZ_ASSERT(r->h_out <= (long double)n_out && r->h_out <= h_in);
	FUZZ_ASSERT(r->output_entropy <= (long double)n_out && r->output_entropy <= h_in);
	if (!vetted)
		FUZZ_ASSERT(r->h_out <= r->bound_90b && r->h_out <= h_p * (long double)n_out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size), *arg[FUZZ_COND_ARGS + 1], *save = NULL, *tok;
	unsigned n_in, n_out, nw;
	long double h_in, h_p = -1.0L;
	struct cond_result r;
	struct err e;
	int nargs = 0, vetted;

	if (!text)
		return 0;
	for (tok = strtok_r(text, " \t\n", &save); tok && nargs <= FUZZ_COND_ARGS;
	     tok = strtok_r(NULL, " \t\n", &save))
		arg[nargs++] = tok;
	vetted = nargs == 4;
	if ((nargs != 4 && nargs != 5) || parse_width(arg[0], &n_in) || parse_width(arg[1], &n_out) ||
	    parse_width(arg[2], &nw))
		goto out;
	if (conditioning_parse_ld(arg[3], "h_in", &h_in, &e) != 0 ||
	    (!vetted && conditioning_parse_ld(arg[4], "h'", &h_p, &e) != 0)) {
		FUZZ_ASSERT(e.code == ERR_USAGE && e.msg[0]);
		goto out;
	}
	FUZZ_ASSERT(isfinite(h_in) && (vetted || isfinite(h_p)));
	if (conditioning_compute(n_in, n_out, nw, h_in, vetted, h_p, &r, &e) == 0)
		check_result(&r, n_out, h_in, vetted, h_p);
	else
		FUZZ_ASSERT(e.msg[0]);
out:
	free(text);
	return 0;
}
