/* SPDX-License-Identifier: GPL-3.0-or-later */
/* policy.h - the CI gating policy of `rngaudit audit`.
 *
 * A small key=value file (data/policy.default documents every key) says what
 * a source must show to pass: the health-test false-alarm rate, the entropy
 * claimed for the health tests, the min-entropy floors under which an
 * assessment warns or fails, the CF=0 (underflow) rates tolerated, how many
 * samples make an assessment meaningful, and which sources must be present.
 * Per-source keys are `KEY.SOURCE` (SOURCE = rdrand, rdseed, hwrng,
 * getrandom, file, sim); `KEY.default` or the plain `KEY` applies to every
 * source without its own line.  Parsing is strict: an unknown key, a bad
 * number or a repeated key is an error naming FILE:LINE.
 */
#ifndef RNGAUDIT_POLICY_H
#define RNGAUDIT_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define POLICY_SOURCES_MAX 24
#define POLICY_NAME_MAX 32
/* A policy file is a few hundred bytes; past 1 MiB it is not a policy. */
#define POLICY_MAX_BYTES (1u << 20)

/* What the policy asks of one source (all entropies are per bit of sample). */
struct policy_source {
	double claim;               /* claimed min-entropy per bit for the 90B 4.4 health tests */
	double fail_below;          /* h_assessed per bit under this: fail */
	double warn_below;          /* h_assessed per bit under this: warn */
	double warn_underflow_rate; /* CF=0 per call above this: warn */
	double fail_underflow_rate; /* CF=0 per call above this: fail */
	int exhausted_fails;        /* 1: an exhausted retry budget fails; 0: warns */
};

/* Which keys a source set explicitly (bit per field), for `audit --policy` echo. */
struct policy_entry {
	char name[POLICY_NAME_MAX];  /* source name or "default" */
	struct policy_source v;
	unsigned set;                /* POLICY_SET_* bits of the keys given */
	int builtin;                 /* 1: built-in defaults exist for this source */
};

enum {
	POLICY_SET_CLAIM = 1u << 0,
	POLICY_SET_FAIL_BELOW = 1u << 1,
	POLICY_SET_WARN_BELOW = 1u << 2,
	POLICY_SET_WARN_UNDERFLOW = 1u << 3,
	POLICY_SET_FAIL_UNDERFLOW = 1u << 4,
	POLICY_SET_EXHAUSTED = 1u << 5,
};

struct policy {
	char origin[256];            /* the file it came from, or "built-in defaults" */
	double alpha;                /* 90B 4.4 false-alarm probability of each test */
	uint64_t min_samples;        /* fewer samples: the assessment only warns */
	uint64_t nist_samples;       /* 90B 3.1.1 asks for this many (info below it) */
	size_t nrequired;
	char required[POLICY_SOURCES_MAX][POLICY_NAME_MAX];
	int trust_cpu_on_pass_off;   /* trust_cpu_on_pass = recommend-off (0: keep) */
	int drbg_hwrng_off;          /* drbg_hwrng = recommend-off (0: keep) */
	size_t nentries;             /* entries[0] is "default" */
	struct policy_entry entries[POLICY_SOURCES_MAX];
};

/* The built-in defaults: the values data/policy.default also spells out. */
void policy_defaults(struct policy *p);

/* Parses text (len bytes) as a policy on top of the defaults; `what` names
 * the input in errors ("FILE:LINE: problem").  ERR_DATA on a bad line. */
int policy_parse(struct policy *p, const char *text, size_t len, const char *what,
		 struct err *e);

/* Reads and parses a file (ERR_IO / ERR_UNAVAILABLE naming it if unreadable). */
int policy_load(struct policy *p, const char *path, struct err *e);

/* The effective values for a source name (falls back to "default"). */
void policy_for(const struct policy *p, const char *source, struct policy_source *out);

/* 1 if source is listed in `required`. */
int policy_is_required(const struct policy *p, const char *source);

struct health_monitor_config;
/* The health tests' claim for source's samples of `bits` bits: a claim the
 * policy file names for this source wins (unless c->entropy is already
 * set); c->raw_claim gets the policy's claim per bit either way. */
void policy_apply_claim(const struct policy *p, const char *source, unsigned bits,
			struct health_monitor_config *c);

/* Parses "2^-20", "2^(-20)" or a decimal in (0, 1). */
int policy_parse_alpha(const char *text, double *out);

/* "2^-30" when alpha is a power of two, else "%g"; returns buf. */
const char *policy_format_alpha(double alpha, char *buf, size_t len);

#endif
