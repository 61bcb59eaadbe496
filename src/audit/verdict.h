/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verdict.h - per-source credibility: pass, warn, fail or unavailable.
 *
 * A pure function of what the audit measured (source counters, the 90B 4.4
 * health tests and native-word checks, the 90B 6.3 non-IID estimates), the
 * policy and the quirk-table matches.  Every reason carries a stable code
 * (for CSV readers and CI rules) and one sentence for people.  What the
 * verdict may claim depends on the source's kind: for DRBG output the
 * statistics catch gross defects only and its figure is never an entropy
 * credit (see verdict_kind_note()).
 */
#ifndef RNGAUDIT_VERDICT_H
#define RNGAUDIT_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "estimators/noniid.h"
#include "health/health_monitor.h"
#include "audit/policy.h"
#include "audit/quirks.h"
#include "sources/source.h"

enum verdict_status { VERDICT_PASS, VERDICT_WARN, VERDICT_FAIL, VERDICT_UNAVAILABLE };
enum verdict_level { VERDICT_INFO, VERDICT_LVL_WARN, VERDICT_LVL_FAIL };

#define VERDICT_REASONS_MAX 24
#define VERDICT_CODE_MAX 64
#define VERDICT_TEXT_MAX 480

struct verdict_reason {
	char code[VERDICT_CODE_MAX];   /* stable: HEALTH_RCT, WORD_ONES, QUIRK:amd-zen5-rdseed, ... */
	enum verdict_level level;
	char text[VERDICT_TEXT_MAX];   /* one sentence */
};

struct verdict {
	enum verdict_status status;
	double credibility;            /* 0..1, see verdict.c */
	int entropy_credit;            /* 1: h_assessed may be read as min-entropy (raw noise only) */
	size_t nreasons;
	struct verdict_reason reasons[VERDICT_REASONS_MAX];
};

struct verdict_input {
	const struct source_info *info;        /* may be NULL only when unavailable */
	const struct source_counters *counters;   /* NULL if the source never opened */
	const struct health_monitor_results *health;  /* NULL if the tests did not run */
	const struct noniid_report *est;       /* NULL if the estimators did not run */
	const char *est_skipped;               /* why not, when est is NULL ("" / NULL: not asked) */
	const struct policy *policy;
	const struct policy_source *pol;       /* the policy for this source */
	const struct quirk_match *quirks;
	size_t nquirks;
	uint64_t samples;                      /* samples collected */
	unsigned bits;                         /* K */
	int unavailable;                       /* the source could not be opened */
	const char *unavailable_why;
	const char *source_error;              /* the source failed mid-run (NULL if not) */
	int partial;                           /* stopped early by a signal */
};

/* Decides.  Never fails: missing inputs become reasons. */
void verdict_decide(const struct verdict_input *in, struct verdict *v);

const char *verdict_status_name(enum verdict_status s);   /* "pass", "warn", "fail", "unavailable" */
const char *verdict_level_name(enum verdict_level l);     /* "info", "warn", "fail" */

/* The sentence that says what statistics can and cannot tell for this kind
 * of output (DRBG: gross defects only, no keyed backdoor excluded). */
const char *verdict_kind_note(enum source_kind kind);

/* All reason codes joined with ';' into buf (for CSV and JUnit). */
const char *verdict_codes(const struct verdict *v, char *buf, size_t len);

#endif
