/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_riscv64.c - the RISC-V Zkr seed CSR for cpurng.c; compiled on
 * riscv64 only.
 *
 * Linux traps user-space access to seed (mseccfg.USEED stays clear), while
 * qemu-user (-cpu rv64,zkr=true) lets it through.  So the CSR is probed
 * under a SIGILL guard, never judged by the ISA string, and the probe says
 * what it found.  Linux's own use of seed for its CRNG:
 * arch/riscv/include/asm/archrandom.h (102434010592 "RISC-V: Implement
 * archrandom when Zkr is available").
 */
#include "config.h"

#include "sources/cpurng.h"

#include <stdio.h>
#include <string.h>

/* The seed CSR must be read with a read-write instruction (Zkr); the value
 * written is ignored. */
static uint64_t riscv_seed_raw(void)
{
	uint64_t v;
	__asm__ volatile("csrrw %0, 0x015, x0" : "=r"(v));
	return v;
}

static int riscv_seed(void *ctx, uint64_t *v)
{
	(void)ctx;
	return cpurng_decode_seed(riscv_seed_raw(), v);
}

struct riscv_try {
	uint64_t csr;
};

static void riscv_try(void *arg)
{
	((struct riscv_try *)arg)->csr = riscv_seed_raw();
}

void cpurng_hw_probe(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_hw *hw)
{
	static const char *const opst[4] = { "BIST", "WAIT", "ES16", "DEAD" };
	struct riscv_try t = { 0 };

	(void)o;
	if (id != CPURNG_SEED) {
		cpurng_hw_foreign(id, hw);
		return;
	}
	memset(hw, 0, sizeof hw[0]);
	if (cpurng_guarded(riscv_try, &t)) {
		snprintf(hw->detail, sizeof hw->detail, "csrrw of seed raises SIGILL");
		snprintf(hw->why, sizeof hw->why, "seed CSR not readable here (csrrw raises SIGILL: no Zkr, or the "
			 "kernel keeps it from user space, as Linux does)");
		return;
	}
	snprintf(hw->detail, sizeof hw->detail, "csrrw of seed executes; first read OPST %s",
		 opst[(t.csr >> 30) & 3u]);
	hw->available = ((t.csr >> 30) & 3u) != 3u;
	if (!hw->available)
		snprintf(hw->why, sizeof hw->why, "seed CSR reports DEAD (an unrecoverable entropy-source failure)");
}

int cpurng_hw_insn(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_insn *insn)
{
	(void)id;
	(void)o;
	memset(insn, 0, sizeof *insn);
	snprintf(insn->what, sizeof insn->what, "seed CSR");
	insn->word_bits = 16;
	insn->fail_what = "OPST WAIT or BIST";
	insn->step = riscv_seed;
	return 0;
}
