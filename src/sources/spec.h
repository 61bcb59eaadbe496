/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spec.h - parsing of source specs: NAME, NAME:key=value,..., file:PATH,
 * sim:MODEL,key=value,...  Pure string handling, no I/O. */
#ifndef RNGAUDIT_SPEC_H
#define RNGAUDIT_SPEC_H

#include "err.h"

#define SPEC_KEYS_MAX 8

struct spec {
	char name[32];                 /* rdrand, hwrng, file, sim, ... */
	char arg[256];                 /* file: the path; sim: the model; else "" */
	int nkeys;
	char key[SPEC_KEYS_MAX][32];
	char value[SPEC_KEYS_MAX][224];
	int used[SPEC_KEYS_MAX];       /* set by spec_get(); spec_check_unused() reports the rest */
	const char *text;              /* the spec as given, for messages */
};

int spec_parse(struct spec *sp, const char *text, struct err *e);

/* Returns the value of key, or NULL if absent (and marks it used). */
const char *spec_get(struct spec *sp, const char *key);

/* Typed getters: absent keys leave *out alone and return 0; malformed values
 * are errors naming the spec, the key and what is allowed. */
int spec_get_u64(struct spec *sp, const char *key, unsigned long long min,
		 unsigned long long max, unsigned long long *out, struct err *e);
int spec_get_prob(struct spec *sp, const char *key, double *out, struct err *e);

/* Error for the first key nobody asked for (a typo such as widht=32). */
int spec_check_unused(const struct spec *sp, struct err *e);

/* The longest spec a list may hold (struct source_info.spec's room). */
#define SPEC_TEXT_MAX 256

/* Splits a comma-separated list of specs (audit's --source LIST) into at
 * most max specs.  A piece like "p=0.5" (key=value with no ':' before its
 * '=') continues the previous spec, so "sim:biased,p=0.5,rdrand" is two
 * sources; empty pieces are skipped.  ERR_USAGE (naming the piece) for an
 * empty list, more than max specs, a spec of SPEC_TEXT_MAX bytes or more,
 * or a list that starts with a key=value.  The specs are not parsed. */
int spec_list_split(const char *list, char (*specs)[SPEC_TEXT_MAX], size_t max, size_t *n,
		    struct err *e);

#endif
