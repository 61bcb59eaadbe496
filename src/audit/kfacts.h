/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kfacts.h - the kernel's history that the decisions rest on: each fact a
 * mainline release and the stable releases it was backported to, checked
 * in the kernel's own history (commit IDs in kfacts.c).  kversion_has()
 * says whether a fact holds for a kernel, or that it cannot be known. */
#ifndef RNGAUDIT_AUDIT_KFACTS_H
#define RNGAUDIT_AUDIT_KFACTS_H

#include "audit/kversion.h"

/* random.trust_cpu= is read (9b25436662d5, 4.19). */
extern const struct kfact kfact_trust_cpu_param;
/* random.trust_bootloader= is read (d97c68d178fb, 5.18 and the 2022 backport). */
extern const struct kfact kfact_trust_bootloader_param;
/* The 2022 random.c rework: entropy_avail fixed at 256 once the CRNG is
 * seeded, and entropy credited (hwrng included) only until then
 * (e85c0fc1d94c, 5.19 and the 2022 backport). */
extern const struct kfact kfact_credit_until_ready;
/* hwrng: rng_quality in sysfs, the quality per RNG (8208285632f9 and
 * f0fb6953b39e, 5.18). */
extern const struct kfact kfact_rng_quality;
/* hwrng: a quality-0 source is still read and mixed, not credited
 * (b006c439d58d, 6.1); before, quality 0 stopped the hwrng thread. */
extern const struct kfact kfact_quality0_mixed;
/* hwrng: default_quality is a maximum for every driver, default 1024, and
 * virtio-rng and ChaosKey lost their own qualities (16bdbae39428, 6.2). */
extern const struct kfact kfact_default_quality_max;
/* The boot self-test that clears RDRAND and RDSEED; nordrand gone
 * (049f9ae93d03, 6.0). */
extern const struct kfact kfact_rdrand_selftest;

#endif
