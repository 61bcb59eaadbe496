/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nist_conditioning.h - 90B 3.1.5 entropy after conditioning in the words
 * of NIST's ea_conditioning (SP800-90B_EntropyAssessment commit 68ed165,
 * version 1.1.7): its text (quiet: the precision lines only) on the stream
 * given, and its -o document (type "Conditioning", one "Overall" case). */
#ifndef RNGAUDIT_NIST_CONDITIONING_H
#define RNGAUDIT_NIST_CONDITIONING_H
#include <stdio.h>

#include "conditioning/conditioning.h"
#include "report/json.h"

void nist_conditioning_print(FILE *fp, const struct cond_result *r, int quiet);
/* path and sha256: the -i FILE whose h' was assessed, or NULL (no file
 * fields).  NULL when out of memory. */
struct json *nist_conditioning_json(const struct cond_result *r, const char *path,
				    const char *sha256);
#endif
