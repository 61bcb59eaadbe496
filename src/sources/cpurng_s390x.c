/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_s390x.c - CPACF PRNO-TRNG (function 114, message-security-assist
 * extension 7, z14 and later) for cpurng.c; compiled on s390x only.
 *
 * Detection: the PRNO query (function 0) under a SIGILL guard: PRNO itself
 * raises an operation exception (SIGILL) without MSA extension 5, and the
 * query's status block says whether function 114 is there.  s390x has no
 * AT_HWCAP bit for it.  Linux seeds its CRNG from the same function
 * (arch/s390/include/asm/archrandom.h, cpacf_trng(); e4f74400308c
 * "s390/archrandom: simplify back to earlier design and initialize
 * earlier", 5.19).
 *
 * One PRNO-TRNG call fills two buffers: the first operand gets the raw
 * (unconditioned) entropy, the second the conditioned output; `trng` emits
 * the conditioned one, `trng:raw` the raw one, of the same calls.
 */
#include "config.h"

#include "sources/cpurng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S390_PRNO_QUERY 0u
/* bytes of each part per call: enough to amortise the call, small enough
 * that a word is never long in coming */
#define S390_TRNG_CHUNK 256u

/* PRNO is RRE 0xB93C; GR0 holds the function code, GR1 the parameter
 * block (query), R1/R1+1 and R2/R2+1 the two buffers and their lengths.
 * Condition code 3 is a partial completion: the loop resumes it. */
static void s390_prno_query(uint8_t status[16])
{
	register unsigned long r0 __asm__("0") = S390_PRNO_QUERY;
	register unsigned long r1 __asm__("1") = (unsigned long)status;
	__asm__ volatile("0: .insn rre,0xb93c0000,2,4\n\tbrc 1,0b"
			 : : "d"(r0), "a"(r1) : "cc", "memory");
}

static void s390_prno_trng(uint8_t *raw, unsigned long rawlen, uint8_t *cond, unsigned long condlen)
{
	register unsigned long r0 __asm__("0") = CPURNG_PRNO_TRNG;
	register unsigned long r2 __asm__("2") = (unsigned long)raw;
	register unsigned long r3 __asm__("3") = rawlen;
	register unsigned long r4 __asm__("4") = (unsigned long)cond;
	register unsigned long r5 __asm__("5") = condlen;
	__asm__ volatile("0: .insn rre,0xb93c0000,2,4\n\tbrc 1,0b"
			 : "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5) : "d"(r0) : "cc", "memory");
}

struct s390_trng {
	int raw;
	unsigned pos;
	uint8_t buf[2][S390_TRNG_CHUNK];   /* [0] raw, [1] conditioned */
};

static int s390_trng_step(void *ctx, uint64_t *v)
{
	struct s390_trng *t = ctx;
	const uint8_t *p;
	if (t->pos == S390_TRNG_CHUNK) {
		s390_prno_trng(t->buf[0], S390_TRNG_CHUNK, t->buf[1], S390_TRNG_CHUNK);
		t->pos = 0;
	}
	p = t->buf[t->raw ? 0 : 1] + t->pos;
	t->pos += 8;
	/* as the bytes came: cpurng.c writes words back little-endian */
	*v = 0;
	for (unsigned b = 0; b < 8; b++)
		*v |= (uint64_t)p[b] << (8 * b);
	return CPURNG_OK;
}

static void s390_query_guarded(void *arg)
{
	s390_prno_query(arg);
}

void cpurng_hw_probe(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_hw *hw)
{
	uint8_t status[16] = { 0 };

	(void)o;
	if (id != CPURNG_TRNG) {
		cpurng_hw_foreign(id, hw);
		return;
	}
	memset(hw, 0, sizeof hw[0]);
	if (cpurng_guarded(s390_query_guarded, status)) {
		snprintf(hw->detail, sizeof hw->detail, "PRNO raises an operation exception");
		snprintf(hw->why, sizeof hw->why, "CPU lacks PRNO (MSA extension 5: the query raises SIGILL)");
		return;
	}
	hw->available = cpurng_trng_check(status, hw->why, sizeof hw->why);
	snprintf(hw->detail, sizeof hw->detail, "PRNO query %s function %u", hw->available ? "offers" : "lacks",
		 CPURNG_PRNO_TRNG);
}

int cpurng_hw_insn(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_insn *insn)
{
	struct s390_trng *t = calloc(1, sizeof *t);
	(void)id;
	memset(insn, 0, sizeof *insn);
	if (!t)
		return ERR_NOMEM;
	t->raw = o && o->raw;
	t->pos = S390_TRNG_CHUNK;
	snprintf(insn->what, sizeof insn->what, "PRNO-TRNG%s", t->raw ? " (raw)" : "");
	insn->word_bits = 64;
	insn->fail_what = "no failure indication";
	insn->step = s390_trng_step;
	insn->ctx = t;
	insn->release = free;
	return 0;
}
