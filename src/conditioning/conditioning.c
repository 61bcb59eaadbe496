/* SPDX-License-Identifier: GPL-3.0-or-later */
/* conditioning.c - SP 800-90B 3.1.5.1.2 Output_Entropy and 3.1.5.2 h_out.
 *
 * Follows NIST's ea_conditioning v1.1.7 step by step (same roundings, same
 * precision policy) so that the printed figures agree with its output. */
#include "config.h"

#include "conditioning/conditioning.h"

#include <errno.h>
#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

/* NIST starts at twice the widest input, and never below 2*53 so that h_in
 * (a long double) is represented faithfully. */
#define COND_MIN_WIDTH 53

int conditioning_parse_ld(const char *text, const char *what, long double *out, struct err *e)
{
	char *end;
	long double v;
	int mode = fegetround();

	fesetround(FE_TOWARDZERO);
	errno = 0;
	v = strtold(text, &end);
	fesetround(mode);
	if (end == text || *end != '\0')
		return err_set(e, ERR_USAGE, "%s: '%s' is not a number", what, text);
	if (errno == ERANGE || !isfinite(v))
		return err_set(e, ERR_USAGE, "%s: '%s' is out of range or not finite", what, text);
	*out = v;
	return 0;
}

/* -log2(1 - value/max), rounded so that the exponent is as small as possible
 * (the epsilon as large as possible): NIST's calculateEpsilon. */
static long double eps_exp(mpfr_t value, mpfr_t max, mpfr_prec_t prec)
{
	mpfr_t ratio, out, ln2;
	long double v;

	mpfr_inits2(prec, ratio, out, ln2, (mpfr_ptr)0);
	mpfr_set_ui(ln2, 2U, MPFR_RNDZ);
	mpfr_log(ln2, ln2, MPFR_RNDU);
	mpfr_set(ratio, value, MPFR_RNDU);
	mpfr_neg(ratio, ratio, MPFR_RNDD);
	mpfr_div(ratio, ratio, max, MPFR_RNDZ);
	mpfr_log1p(out, ratio, MPFR_RNDZ);
	mpfr_div(out, out, ln2, MPFR_RNDZ);
	mpfr_neg(out, out, MPFR_RNDZ);
	v = mpfr_get_ld(out, MPFR_RNDZ);
	mpfr_clears(ratio, out, ln2, (mpfr_ptr)0);
	return v;
}

/* One attempt at precision prec.  Returns 1 on success, 0 when a check shows
 * the precision was too low (the caller doubles it). */
static int output_entropy_at(mpfr_prec_t prec, struct cond_result *r)
{
	mpfr_t h_in, ex, p_high, p_low, denom, space, diff, pw, psi, omega, hout, tmp;
	int ok = 0;

	mpfr_inits2(prec, h_in, ex, p_high, p_low, denom, space, diff, pw, psi, omega, hout,
		    tmp, (mpfr_ptr)0);

	if (mpfr_set_ld(h_in, r->h_in, MPFR_RNDZ) != 0)
		goto out;

	/* 3.1.5.1.2 step 1: P_high = 2^-h_in, P_low = (1 - P_high)/(2^n_in - 1),
	 * both rounded up (larger probabilities = less entropy claimed). */
	mpfr_neg(ex, h_in, MPFR_RNDZ);
	mpfr_ui_pow(p_high, 2UL, ex, MPFR_RNDU);
	if (mpfr_cmp_ui(p_high, 0UL) <= 0 || mpfr_cmp_ui(p_high, 1UL) >= 0)
		goto out;
	mpfr_ui_sub(p_low, 1UL, p_high, MPFR_RNDU);
	if (mpfr_ui_pow_ui(space, 2UL, r->n_in, MPFR_RNDZ) != 0)
		goto out;
	mpfr_sub_ui(denom, space, 1UL, MPFR_RNDZ);
	mpfr_sub(diff, space, denom, MPFR_RNDZ);
	if (mpfr_cmp_ui(diff, 1UL) != 0)
		goto out;
	mpfr_div(p_low, p_low, denom, MPFR_RNDU);
	if (mpfr_cmp_ui(p_low, 0UL) <= 0 || mpfr_cmp_ui(p_low, 1UL) >= 0)
		goto out;

	/* 2^(n_in - n), an exact integer */
	if (mpfr_ui_pow_ui(pw, 2UL, r->n_in - r->n, MPFR_RNDU) != 0)
		goto out;

	/* step 3: Psi = 2^(n_in-n) P_low + P_high */
	mpfr_mul(psi, pw, p_low, MPFR_RNDU);
	mpfr_add(psi, psi, p_high, MPFR_RNDU);
	if (mpfr_cmp(p_high, psi) >= 0 || mpfr_cmp_ui(psi, 0UL) <= 0)
		goto out;
	if (mpfr_cmp_ui(psi, 1UL) > 0)
		mpfr_set_ui(psi, 1UL, MPFR_RNDZ);

	/* steps 4-5: U = 2^(n_in-n) + sqrt(2 n 2^(n_in-n) ln 2); omega = U P_low */
	mpfr_set_ui(omega, 2U, MPFR_RNDZ);
	mpfr_log(omega, omega, MPFR_RNDU);
	mpfr_mul(omega, omega, pw, MPFR_RNDU);
	mpfr_mul_ui(omega, omega, 2UL * r->n, MPFR_RNDU);
	mpfr_sqrt(omega, omega, MPFR_RNDU);
	mpfr_add(omega, omega, pw, MPFR_RNDU);
	mpfr_mul(omega, omega, p_low, MPFR_RNDU);
	if (mpfr_cmp_ui(omega, 0UL) <= 0)
		goto out;
	if (mpfr_cmp_ui(omega, 1UL) > 0)
		mpfr_set_ui(omega, 1UL, MPFR_RNDZ);

	/* step 6: h_out = -log2(max(Psi, omega)), the log rounded toward zero */
	mpfr_log2(hout, mpfr_cmp(omega, psi) > 0 ? omega : psi, MPFR_RNDZ);
	mpfr_neg(hout, hout, MPFR_RNDZ);
	if (mpfr_cmp_ui(hout, r->n_out) >= 0 || mpfr_cmp(hout, h_in) >= 0)
		goto out;

	mpfr_set_ui(tmp, r->n_out, MPFR_RNDZ);
	r->nout_eps_exp = eps_exp(hout, tmp, prec);
	r->hin_eps_exp = eps_exp(hout, h_in, prec);
	mpfr_set_ui(tmp, r->nw, MPFR_RNDZ);
	r->nw_eps_exp = eps_exp(hout, tmp, prec);
	r->output_entropy = mpfr_get_ld(hout, MPFR_RNDN);
	ok = 1;
out:
	mpfr_clears(h_in, ex, p_high, p_low, denom, space, diff, pw, psi, omega, hout, tmp,
		    (mpfr_ptr)0);
	return ok;
}

int conditioning_compute(unsigned n_in, unsigned n_out, unsigned nw, long double h_in,
			 int vetted, long double h_p, struct cond_result *r, struct err *e)
{
	unsigned maxval;
	mpfr_prec_t prec;
	int mode;

	memset(r, 0, sizeof *r);
	if (n_in < 1 || n_out < 1 || nw < 1)
		return err_set(e, ERR_USAGE, "n_in, n_out and nw must be at least 1");
	if (n_in > COND_MAX_WIDTH || n_out > COND_MAX_WIDTH)
		return err_set(e, ERR_USAGE, "%s (%u) is past the %u bits rngaudit conditions "
			       "(cost grows with the square of the width; NIST's tool has no cap)",
			       n_in > COND_MAX_WIDTH ? "n_in" : "n_out",
			       n_in > COND_MAX_WIDTH ? n_in : n_out, COND_MAX_WIDTH);
	if (!(h_in > 0.0L) || h_in > (long double)n_in)
		return err_set(e, ERR_USAGE, "h_in (%Lg) must be in (0, n_in = %u]", h_in, n_in);
	if (!vetted && (!(h_p > 0.0L) || h_p > 1.0L))
		return err_set(e, ERR_USAGE, "h' (%Lg) must be in (0, 1]", h_p);

	r->vetted = vetted;
	r->n_in = n_in;
	r->n_out = n_out;
	r->h_in = h_in;
	r->h_p = vetted ? -1.0L : h_p;
	/* 90B Appendix E: the narrowest width cannot exceed the input width. */
	r->nw = nw < n_in ? nw : n_in;
	r->n = n_out < r->nw ? n_out : r->nw;

	maxval = COND_MIN_WIDTH;
	if (n_in > maxval) maxval = n_in;
	if (n_out > maxval) maxval = n_out;
	if (r->nw > maxval) maxval = r->nw;
	prec = 2 * (mpfr_prec_t)maxval;
	if (mpfr_get_emax() <= (mpfr_exp_t)maxval || mpfr_get_emin() >= -(mpfr_exp_t)maxval)
		return err_set(e, ERR_INTERNAL, "MPFR exponent range too small for n_in = %u", n_in);

	for (;;) {
		if (r->nattempts == COND_MAX_ATTEMPTS || prec > MPFR_PREC_MAX / 2)
			return err_set(e, ERR_INTERNAL,
				       "Output_Entropy did not converge up to %ld bits of precision",
				       (long)prec);
		r->prec[r->nattempts++] = (long)prec;
		if (output_entropy_at(prec, r))
			break;
		prec *= 2;
	}

	/* NIST runs with FE_TOWARDZERO so that these products never round up. */
	mode = fegetround();
	fesetround(FE_TOWARDZERO);
	if (vetted) {
		r->h_out = r->output_entropy;
		if (r->output_entropy > 0.999L * (long double)n_out) {
			r->near_full = 1;
			r->ig_dk_full = h_in >= (long double)n_out + 64.0L;
		}
	} else {
		r->bound_90b = 0.999L * (long double)n_out;
		r->stat_bound = h_p * (long double)n_out;
		r->h_out = fminl(r->output_entropy, fminl(r->bound_90b, r->stat_bound));
	}
	fesetround(mode);
	return 0;
}
