/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea_conditioning.c - rngaudit run as ea_conditioning: NIST's
 * conditioning_main.cpp (commit 68ed165) step by step, its checks,
 * messages and exit codes, with rngaudit's 3.1.5 computation
 * (conditioning/) and NIST's text and JSON (report/nist_conditioning.c).
 * It accepts what NIST's tool accepts (n_out > n_in, any -c word other
 * than "iid" meaning non_iid, -i with -v), but widths past COND_MAX_WIDTH,
 * which rngaudit refuses in NIST's words for a value out of range. */
#include "config.h"

#include <errno.h>
#include <fenv.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ea.h"
#include "conditioning/conditioning.h"
#include "report/nist_conditioning.h"

/* inputUnsignedOption: strtoul in any base, the whole text, low..high;
 * else its message and the usage (returns -1). */
static int parse_unsigned(const char *text, unsigned long low, unsigned long high,
			  const char *label, unsigned *out)
{
	char *next;
	unsigned long v;

	v = strtoul(text, &next, 0);
	if (next == text || *next != '\0') {
		printf("Non-integer characters in %s: '%c'\n", label, *next);
		return -1;
	}
	if (v < low) {
		printf("%s must be greater than or equal to %lu.\n", label, low);
		return -1;
	}
	if (v > high) {
		printf("%s must be less than or equal to %lu.\n", label, high);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* inputLongDoubleOption: strtold (under FE_TOWARDZERO, as the whole tool
 * runs), the whole text, finite, low..high. */
static int parse_ld(const char *text, long double low, long double high, const char *label,
		    long double *out)
{
	char *next;
	long double v;

	errno = 0;
	v = strtold(text, &next);
	if (next == text || *next != '\0') {
		printf("Non-numeric characters in %s: '%c'\n", label, *next);
		return -1;
	}
	if (errno == ERANGE || !isfinite(v)) {
		printf("Provided value for %s is out of range of a long double or isn't a finite "
		       "value\n", label);
		return -1;
	}
	if (v < low) {
		printf("%s must be greater than or equal to %.22Lg.\n", label, low);
		return -1;
	}
	if (v > high) {
		printf("%s must be less than or equal to %.22Lg.\n", label, high);
		return -1;
	}
	*out = v;
	return 0;
}

/* computeEntropyOfConditionedData: the file read as NIST reads it (its
 * messages on a failure, then the one on stderr and exit 255). */
static int h_prime_of_file(const struct ea_run *run, const char *path, int iid, long double *h_p)
{
	struct nistread in;
	struct err e;
	int rc;

	err_clear(&e);
	if (nistread_file(path, 0, 0, 0, &in, &e) != 0) {
		ea_print_read_error(&in, path);
		fflush(stdout);
		fprintf(stderr, "Can't read and trandlate supplied data.\n");
		return EA_EXIT_ERROR;
	}
	/* NIST runs its estimators under FE_TOWARDZERO too; rngaudit's are
	 * written and tested for round-to-nearest (the last digits of h'
	 * differ from NIST's either way, by about 1e-14) */
	fesetround(FE_TONEAREST);
	rc = conditioning_h_prime(path, in.s, in.n, iid, h_p, &e);
	fesetround(FE_TOWARDZERO);
	nistread_free(&in);
	return rc != 0 ? ea_error(run, "%s", e.msg) : 0;
}

static int conditioning_main(struct ea_run *run, int argc, char **argv)
{
	int vetted = 1, quiet = 0, iid = 0, opt;
	const char *file = NULL;
	char sha[SHA256_HEX] = "";
	unsigned n_in, n_out, nw;
	long double h_in, h_p = -1.0L;
	struct cond_result r;
	struct err e;

	if (ea_wants_version(argc, argv))
		return ea_print_version("conditioning");
	optind = 1;
	opterr = 1;
	while ((opt = getopt(argc, argv, "vnqo:i:c:")) != -1) {
		switch (opt) {
		case 'v': vetted = 1; break;
		case 'n': vetted = 0; break;
		case 'q': quiet = 1; break;
		case 'o': run->json_path = optarg; break;
		case 'i': file = optarg; break;
		case 'c': iid = strcmp(optarg, "iid") == 0; break;
		default:
			return ea_usage(ea_usage_conditioning);
		}
	}
	argc -= optind;
	argv += optind;
	if (file) {
		/* NIST hashes the -i file first, whatever the mode */
		struct nistread in;

		ea_check_openable(file);
		err_clear(&e);
		nistread_file(file, 0, 0, 0, &in, &e);
		memcpy(sha, in.sha256, sizeof sha);
		nistread_free(&in);
	}
	if (vetted && argc != 4) {
		printf("Incorrect usage.\n");
		return ea_usage(ea_usage_conditioning);
	} else if (!vetted && argc != 4 && argc != 5) {
		printf("Incorrect usage.\n");
		printf("argc: %d\n", argc);
		return ea_usage(ea_usage_conditioning);
	}
	/* NIST sets FE_TOWARDZERO before anything, so that no input is read
	 * larger than written */
	fesetround(FE_TOWARDZERO);
	if (parse_unsigned(argv[0], 1, UINT_MAX, "n_in", &n_in) ||
	    parse_unsigned(argv[1], 1, UINT_MAX, "n_out", &n_out) ||
	    parse_unsigned(argv[2], 1, UINT_MAX, "nw", &nw) ||
	    parse_ld(argv[3], 0.0L, (long double)n_in, "h_in", &h_in))
		return ea_usage(ea_usage_conditioning);
	if (h_in <= 0.0L) {
		ea_fail_json(run, 0, "Conditioning", file, sha, "Error with input: generating h_in.");
		return ea_usage(ea_usage_conditioning);
	}
	/* rngaudit's cap (conditioning.h), said as NIST says a value out of range */
	if (n_in > COND_MAX_WIDTH || n_out > COND_MAX_WIDTH) {
		printf("%s must be less than or equal to %u.\n", n_in > COND_MAX_WIDTH ? "n_in" : "n_out",
		       COND_MAX_WIDTH);
		return ea_usage(ea_usage_conditioning);
	}
	if (!vetted) {
		if (argc == 4) {
			int rc = h_prime_of_file(run, file ? file : "", iid, &h_p);

			if (rc != 0)
				return rc;
		} else {
			if (parse_ld(argv[4], 0.0L, 1.0L, "h_p", &h_p))
				return ea_usage(ea_usage_conditioning);
			if (h_p <= 0) {
				ea_fail_json(run, 0, "Conditioning", file, sha,
					     "Error with input: generating h_p.");
				return ea_usage(ea_usage_conditioning);
			}
		}
	}
	err_clear(&e);
	if (conditioning_compute(n_in, n_out, nw, h_in, vetted, h_p, &r, &e) != 0)
		return ea_error(run, "%s", e.msg);
	nist_conditioning_print(stdout, &r, quiet);
	fflush(stdout);
	return ea_json_save(run, nist_conditioning_json(&r, file, file ? sha : NULL));
}

int ea_conditioning(int argc, char **argv)
{
	struct ea_run run;
	int rc;

	ea_run_init(&run, "ea_conditioning", argc, argv);
	rc = conditioning_main(&run, argc, argv);
	ea_run_free(&run);
	fesetround(FE_TONEAREST);
	return rc;
}
