/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_arm64.c - RNDR and RNDRRS (FEAT_RNG, Armv8.5) for cpurng.c;
 * compiled on aarch64 only.
 *
 * Detection: AT_HWCAP2's HWCAP2_RNG, which Linux sets from
 * ID_AA64ISAR0_EL1.RNDR since 1a50ec0b3b2e "arm64: Implement archrandom.h
 * for ARMv8.5-RNG" (5.6); qemu-user sets it from its CPU model.  The
 * instruction is then tried once under a SIGILL guard, which decides:
 * an `mrs` of RNDR on a CPU without FEAT_RNG is UNDEFINED (SIGILL), and a
 * hypervisor can hide the HWCAP while the register works, or the reverse.
 */
#include "config.h"

#include "sources/cpurng.h"

#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#ifndef HWCAP2_RNG
#define HWCAP2_RNG (1UL << 16)    /* arch/arm64/include/uapi/asm/hwcap.h */
#endif

/* RNDR is S3_3_C2_C4_0, RNDRRS S3_3_C2_C4_1 (Arm ARM); the generic
 * names assemble without -march=armv8.5-a+rng.  NZCV is read right after:
 * 0b0100 means the read failed (cpurng_decode_nzcv). */
static int arm64_rndr(void *ctx, uint64_t *v)
{
	uint64_t x, nzcv;
	(void)ctx;
	__asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tmrs %1, nzcv" : "=r"(x), "=r"(nzcv) : : "cc");
	return cpurng_decode_nzcv(x, nzcv, v);
}

static int arm64_rndrrs(void *ctx, uint64_t *v)
{
	uint64_t x, nzcv;
	(void)ctx;
	__asm__ volatile("mrs %0, s3_3_c2_c4_1\n\tmrs %1, nzcv" : "=r"(x), "=r"(nzcv) : : "cc");
	return cpurng_decode_nzcv(x, nzcv, v);
}

struct arm64_try {
	int (*step)(void *, uint64_t *);
	int rc;
};

static void arm64_try_once(void *arg)
{
	struct arm64_try *t = arg;
	uint64_t v;
	t->rc = t->step(NULL, &v);
}

void cpurng_hw_probe(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_hw *hw)
{
	struct arm64_try t;
	const char *reg = id == CPURNG_RNDR ? "RNDR" : "RNDRRS";
	int hwcap, sigill;

	(void)o;
	if (id != CPURNG_RNDR && id != CPURNG_RNDRRS) {
		cpurng_hw_foreign(id, hw);
		return;
	}
	memset(hw, 0, sizeof hw[0]);
	hwcap = (getauxval(AT_HWCAP2) & HWCAP2_RNG) != 0;
	t.step = id == CPURNG_RNDR ? arm64_rndr : arm64_rndrrs;
	t.rc = CPURNG_FAIL;
	sigill = cpurng_guarded(arm64_try_once, &t);
	snprintf(hw->detail, sizeof hw->detail, "AT_HWCAP2 %s rng; %s %s", hwcap ? "has" : "lacks", reg,
		 sigill ? "raises SIGILL" : t.rc == CPURNG_OK ? "executes" : "executes (first read failed, NZCV=0100)");
	hw->available = !sigill;
	if (sigill)
		snprintf(hw->why, sizeof hw->why, hwcap ? "%s raises SIGILL although AT_HWCAP2 has rng"
						     : "CPU lacks FEAT_RNG (no rng in AT_HWCAP2; %s raises SIGILL)", reg);
}

int cpurng_hw_insn(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_insn *insn)
{
	(void)o;
	memset(insn, 0, sizeof *insn);
	snprintf(insn->what, sizeof insn->what, "%s", id == CPURNG_RNDR ? "RNDR" : "RNDRRS");
	insn->word_bits = 64;
	insn->fail_what = "NZCV=0100";
	insn->step = id == CPURNG_RNDR ? arm64_rndr : arm64_rndrrs;
	return 0;
}
