/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hprime.c - h' of a conditioned sequential dataset (90B 3.1.5.2): the
 * entropy per bit of the conditioning component's output, from a file of
 * its output samples, as NIST's computeEntropyOfConditionedData
 * (conditioning_main.cpp) assesses it: the bitstring of all the bits, by
 * all ten estimators (or the MCV estimate alone for IID data), at most 1. */
#include "config.h"

#include <stdlib.h>

#include "conditioning/conditioning.h"
#include "engine/samples.h"
#include "estimators/estimators.h"
#include "estimators/noniid.h"

int conditioning_h_prime(const char *path, const uint8_t *s, size_t n, int iid,
			 long double *h_p, struct err *e)
{
	uint8_t *bits = NULL;
	int rc;

	if (iid) {
		unsigned k = samples_infer_bits(s, n);
		struct est_result r;

		bits = malloc(n * k);
		if (!bits)
			return err_set(e, ERR_NOMEM, "%s: out of memory", path);
		samples_to_bits(s, n, k, bits);
		rc = est_mcv(bits, n * k, 2, &r, e);
		if (rc == 0)
			*h_p = r.h < 1.0 ? r.h : 1.0;
	} else {
		struct noniid_opts o;
		struct noniid_report *rep = malloc(sizeof *rep);

		if (!rep)
			return err_set(e, ERR_NOMEM, "%s: out of memory", path);
		noniid_opts_init(&o);
		o.conditioned = 1;
		rc = noniid_assess(s, n, &o, rep, e);
		if (rc == 0)
			*h_p = rep->h_bitstring < 1.0 ? rep->h_bitstring : 1.0;
		noniid_report_free(rep);
		free(rep);
	}
	free(bits);
	return rc;
}
