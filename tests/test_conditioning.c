/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_conditioning.c - SP 800-90B 3.1.5 Output_Entropy and h_out.
 * Expected values: an independent 2000-bit mpmath evaluation of the 3.1.5.1.2
 * formulas (see tests/data/iid/README), and NIST ea_conditioning v1.1.7 output
 * where noted. */
#include "config.h"

#include <fenv.h>
#include <stdlib.h>

#include "tap.h"
#include "conditioning/conditioning.h"

static void near_case(unsigned n_in, unsigned n_out, unsigned nw, long double h_in, double want,
		      const char *name)
{
	struct cond_result r;
	struct err e;
	int rc = conditioning_compute(n_in, n_out, nw, h_in, 1, -1.0L, &r, &e);
	tap_ok(rc == 0, "%s: computes", name);
	tap_near((double)r.output_entropy, want, 1e-12 * want, name);
}

int main(void)
{
	struct cond_result r;
	struct err e;
	long double v;

	near_case(256, 256, 256, 128.0L, 128.0, "Output_Entropy(256,256,256,128) = 128 (mpmath)");
	near_case(512, 256, 256, 300.0L, 255.9999999999999179922815,
		  "Output_Entropy(512,256,256,300) (mpmath)");
	near_case(1024, 64, 512, 100.0L, 63.99999999997900602406475,
		  "Output_Entropy(1024,64,512,100) (mpmath)");
	near_case(64, 32, 32, 10.5L, 10.49999951389559082332571,
		  "Output_Entropy(64,32,32,10.5) (mpmath)");

	conditioning_compute(512, 256, 256, 400.0L, 1, -1.0L, &r, &e);
	tap_ok(r.output_entropy == 256.0L, "512/256/256/400 rounds to full entropy 256");
	tap_ok(r.near_full && r.ig_dk_full, "h_in >= n_out + 64: IG D.K resolution 19 note");
	tap_eq_long(r.nattempts, 1, "one precision attempt");
	tap_eq_long(r.prec[0], 1024, "first precision is 2 * max(53, n_in, n_out, nw) = 1024");

	conditioning_compute(512, 256, 1024, 300.0L, 1, -1.0L, &r, &e);
	tap_eq_long(r.nw, 512, "nw is capped at n_in (90B Appendix E)");

	conditioning_compute(512, 256, 256, 400.0L, 0, 0.5L, &r, &e);
	tap_ok(r.h_out == 0.5L * 256, "non-vetted: h_out = h' n_out when smallest");
	tap_ok(r.bound_90b < 255.744L + 1e-12L && r.bound_90b > 255.743L, "0.999 n_out");
	conditioning_compute(512, 256, 256, 400.0L, 0, 1.0L, &r, &e);
	tap_ok(r.h_out == r.bound_90b, "non-vetted: h_out = 0.999 n_out when smallest");

	/* n_out > n_in: NIST's ea_conditioning -v 64 256 64 64 prints
	 * Output_Entropy(*) = 60.61881629318113145002 at 512 bits
	 * (tests/data/nist-68ed165/conditioning.txt) */
	tap_eq_long(conditioning_compute(64, 256, 64, 64.0L, 1, -1.0L, &r, &e), 0,
		    "n_out > n_in is computed, as NIST's tool computes it");
	tap_eq_long(r.prec[0], 512, "n_out > n_in: first precision 2 * n_out = 512");
	tap_near((double)r.output_entropy, 60.61881629318113145002, 1e-12,
		 "n_out > n_in: Output_Entropy(64,256,64,64) = 60.6188162931811 (NIST)");
	tap_eq_long(conditioning_compute(64, COND_MAX_WIDTH + 1, 64, 64.0L, 1, -1.0L, &r, &e),
		    ERR_USAGE, "n_out past COND_MAX_WIDTH is rejected");
	tap_eq_long(conditioning_compute(100, 50, 100, 0.0L, 1, -1.0L, &r, &e), ERR_USAGE,
		    "h_in = 0 is rejected");
	tap_eq_long(conditioning_compute(100, 50, 100, 101.0L, 1, -1.0L, &r, &e), ERR_USAGE,
		    "h_in > n_in is rejected");
	tap_eq_long(conditioning_compute(100, 50, 100, 50.0L, 0, 1.5L, &r, &e), ERR_USAGE,
		    "h' > 1 is rejected");
	tap_eq_long(conditioning_parse_ld("12x", "h_in", &v, &e), ERR_USAGE,
		    "non-numeric h_in is rejected");
	{
		/* toward zero: never the upper neighbour of a decimal that is not a
		 * long double (round-to-nearest picks the upper one for some of these) */
		static const char *const dec[] = { "0.1", "0.2", "0.3", "0.6", "0.7", "0.9" };
		int below = 1, modes_work = 0, mode = fegetround();
		for (size_t i = 0; i < sizeof dec / sizeof dec[0]; i++) {
			long double up, down;
			conditioning_parse_ld(dec[i], "h'", &v, &e);
			fesetround(FE_UPWARD);
			up = strtold(dec[i], NULL);
			fesetround(FE_DOWNWARD);
			down = strtold(dec[i], NULL);
			fesetround(mode);
			below &= v < up;
			modes_work |= down != up;
		}
		if (!modes_work)   /* e.g. under valgrind, which ignores x87 rounding modes */
			tap_skip("this environment ignores floating-point rounding modes");
		else
			tap_ok(below, "numbers are parsed rounding toward zero, as NIST does");
	}
	return tap_done();
}
