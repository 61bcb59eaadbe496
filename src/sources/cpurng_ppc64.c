/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_ppc64.c - POWER `darn` (ISA 3.0, POWER9 and later) for cpurng.c;
 * compiled on powerpc64 only.
 *
 * Detection: AT_HWCAP2's PPC_FEATURE2_DARN, then one `darn` with the
 * chosen L under a SIGILL guard, which decides (a POWER8 raises SIGILL; L=2,
 * raw, is not offered by every implementation: a probe whose every try
 * returns the error value says so).  Linux seeds from darn L=1 on powernv
 * (arch/powerpc/platforms/powernv/rng.c, powernv_get_random_darn()).
 */
#include "config.h"

#include "sources/cpurng.h"

#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#ifndef PPC_FEATURE2_DARN
#define PPC_FEATURE2_DARN 0x00200000   /* arch/powerpc/include/uapi/asm/cputable.h */
#endif

/* `.machine power9` lets binutils assemble darn whatever -mcpu is. */
#define PPC_DARN(L, out) \
	__asm__ volatile(".machine push\n\t.machine power9\n\tdarn %0," #L "\n\t.machine pop" : "=r"(out))

static int ppc_darn0(void *ctx, uint64_t *v)
{
	uint64_t raw;
	(void)ctx;
	PPC_DARN(0, raw);
	return cpurng_decode_darn(0, raw, v);
}

static int ppc_darn1(void *ctx, uint64_t *v)
{
	uint64_t raw;
	(void)ctx;
	PPC_DARN(1, raw);
	return cpurng_decode_darn(1, raw, v);
}

static int ppc_darn2(void *ctx, uint64_t *v)
{
	uint64_t raw;
	(void)ctx;
	PPC_DARN(2, raw);
	return cpurng_decode_darn(2, raw, v);
}

static int (*const ppc_steps[3])(void *, uint64_t *) = { ppc_darn0, ppc_darn1, ppc_darn2 };

/* Linux's initialise_darn() tries 10 times before it gives up on darn. */
#define PPC_PROBE_TRIES 10

struct ppc_try {
	int (*step)(void *, uint64_t *);
	int ok;
};

static void ppc_try(void *arg)
{
	struct ppc_try *t = arg;
	uint64_t v;
	for (int i = 0; i < PPC_PROBE_TRIES && !t->ok; i++)
		t->ok = t->step(NULL, &v) == CPURNG_OK;
}

void cpurng_hw_probe(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_hw *hw)
{
	struct ppc_try t = { 0 };
	unsigned l = o ? o->mode : 1;
	int hwcap, sigill;

	if (id != CPURNG_DARN || l > 2) {
		cpurng_hw_foreign(id, hw);
		return;
	}
	memset(hw, 0, sizeof hw[0]);
	hwcap = (getauxval(AT_HWCAP2) & PPC_FEATURE2_DARN) != 0;
	t.step = ppc_steps[l];
	sigill = cpurng_guarded(ppc_try, &t);
	snprintf(hw->detail, sizeof hw->detail, "AT_HWCAP2 %s darn; darn L=%u %s", hwcap ? "has" : "lacks", l,
		 sigill ? "raises SIGILL" : t.ok ? "executes" : "returns only the error value");
	hw->available = !sigill && t.ok;
	if (sigill)
		snprintf(hw->why, sizeof hw->why, hwcap ? "darn raises SIGILL although AT_HWCAP2 has darn"
						     : "CPU lacks darn (ISA 3.0, POWER9: no darn in AT_HWCAP2; it raises SIGILL)");
	else if (!t.ok)
		snprintf(hw->why, sizeof hw->why, "darn L=%u returned the error value (all ones) on %d tries%s", l,
			 PPC_PROBE_TRIES, l == 2 ? ": this CPU does not offer raw output" : "");
}

int cpurng_hw_insn(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_insn *insn)
{
	unsigned l = o ? o->mode : 1;
	(void)id;
	memset(insn, 0, sizeof *insn);
	snprintf(insn->what, sizeof insn->what, "darn L=%u", l);
	insn->word_bits = l == 0 ? 32 : 64;
	insn->fail_what = "all-ones error value";
	insn->step = ppc_steps[l > 2 ? 1 : l];
	return 0;
}
