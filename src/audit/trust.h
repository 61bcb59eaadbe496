/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trust.h - what the kernel should trust: per audited source, the verdict
 * set against what the kernel credits (kernel.h) and the policy's stance,
 * giving the setting to apply (or none) and why.
 *
 * A pure function: no I/O.  The recommendation is a bare setting as a
 * release engineer would type it ("random.trust_cpu=off",
 * "rng_core.default_quality=512"), empty when nothing should change.
 */
#ifndef RNGAUDIT_TRUST_H
#define RNGAUDIT_TRUST_H

#include "audit/baseline.h"
#include "audit/cpurng_arch.h"
#include "audit/kernel.h"
#include "audit/policy.h"
#include "audit/verdict.h"
#include "sources/source.h"

/* The part a source plays in the kernel's trust. */
enum trust_role {
	TRUST_ROLE_NONE,     /* file, getrandom (the kernel's own output), sim without as= */
	TRUST_ROLE_CPU,      /* RDRAND, RDSEED: random.trust_cpu */
	TRUST_ROLE_HWRNG,    /* /dev/hwrng: the hwrng quality */
};

#define TRUST_REC_MAX 96
#define TRUST_WHY_MAX 1200

struct trust_decision {
	enum trust_role role;
	const char *as;                   /* rdrand, rdseed, hwrng: the source the decision is about */
	int simulated;                    /* a sim source standing in (as=) */
	enum kernel_tri credited;         /* whether the kernel credits this source now */
	char current[64];                 /* the current setting: "random.trust_cpu=on", "quality 1024" */
	char recommendation[TRUST_REC_MAX];   /* the setting to apply; "" = nothing changes */
	int change;                       /* the recommendation differs from the current setting */
	int credits_failed;               /* the kernel credits a source that failed (JUnit fails) */
	int operator_choice;              /* DRBG hwrng: the statistics neither support nor refute
					     the credit; keeping it is the operator's call */
	char reason[TRUST_WHY_MAX];       /* sentences for people: why, what it does, where to set it */
};

struct trust_input {
	const struct source_info *info;   /* NULL when the source was unavailable */
	const char *requested;            /* the spec asked for (names an unavailable source) */
	const struct verdict *verdict;
	double h_per_bit;                 /* assessed min-entropy per bit; < 0 when not assessed */
	double h_assessed;                /* the same per sample */
	const struct baseline_cell *ideal;   /* what an ideal source of this width and sample count
					     scores (baseline.h); NULL when not tabulated */
	const struct kernel_ctx *kernel;
	const struct policy *policy;
	const struct cpurng_arch *arch;   /* what this architecture's kernel seeds from; may be NULL */
};

void trust_decide(const struct trust_input *in, struct trust_decision *d);

/* The bootloader seed: reported, never judged (rngaudit has no evidence). */
void trust_bootloader_note(const struct kernel_ctx *k, char *buf, size_t len);

#endif
