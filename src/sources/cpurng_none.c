/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_none.c - cpurng_hw_* on an architecture with none of the
 * instructions of cpurng.h (x86 and the rest): every one is "not available
 * on <machine>", and nothing is executed. */
#include "config.h"

#include "sources/cpurng.h"

#include <string.h>

void cpurng_hw_probe(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_hw *hw)
{
	(void)o;
	cpurng_hw_foreign(id, hw);
}

int cpurng_hw_insn(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_insn *insn)
{
	(void)id;
	(void)o;
	memset(insn, 0, sizeof *insn);
	return ERR_UNAVAILABLE;
}
