/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kfacts.c - the kernel facts by version (see kfacts.h).  Releases come
 * from the merge window each commit went in with; stable releases from the
 * stable review and release mails (issue 23's review). */
#include "config.h"

#include "audit/kfacts.h"

/* 9b25436662d5 "random: make CPU trust a boot parameter" (4.19); in
 * 4.14.285 with the 2022 random.c backport. */
const struct kfact kfact_trust_cpu_param = { KV(4, 19), { { KV(4, 14), 285 } } };

/* The 2022 random.c backport reached 5.17.12, 5.15.44 and 5.10.119
 * (30 May 2022), 5.4.200 (22 Jun), 4.19.249 and 4.14.285 (25 Jun). */
#define KFACT_RANDOM_2022 \
	{ { KV(5, 17), 12 }, { KV(5, 15), 44 }, { KV(5, 10), 119 }, { KV(5, 4), 200 }, { KV(4, 19), 249 }, \
	  { KV(4, 14), 285 } }

/* d97c68d178fb "random: treat bootloader trust toggle the same way as cpu
 * trust toggle" (5.18-rc1). */
const struct kfact kfact_trust_bootloader_param = { KV(5, 18), KFACT_RANDOM_2022 };

/* e85c0fc1d94c "random: do not pretend to handle premature next security
 * model" (5.19-rc1): credit_init_bits() is a no-op once crng_ready(), so
 * entropy_avail stays at 256 and an hwrng's credit no longer counts. */
const struct kfact kfact_credit_until_ready = { KV(5, 19), KFACT_RANDOM_2022 };

/* 8208285632f9 "hwrng: core - introduce rng_quality sysfs attribute" and
 * f0fb6953b39e "hwrng: core - use per-rng quality value instead of global
 * setting" (5.18; current_quality stays, "obsolete"). */
const struct kfact kfact_rng_quality = { KV(5, 18), { { 0, 0 } } };

/* b006c439d58d "hwrng: core - start hwrng kthread also for untrusted
 * sources" (6.1). */
const struct kfact kfact_quality0_mixed = { KV(6, 1), { { 0, 0 } } };

/* 16bdbae39428 "hwrng: core - treat default_quality as a maximum and
 * default to 1024" (6.2). */
const struct kfact kfact_default_quality_max = { KV(6, 2), { { 0, 0 } } };

/* 049f9ae93d03 "x86/rdrand: Remove "nordrand" flag in favor of
 * "random.trust_cpu"" (6.0-rc1). */
const struct kfact kfact_rdrand_selftest = { KV(6, 0), { { 0, 0 } } };
