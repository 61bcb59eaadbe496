/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_sim.c - sim stand-ins for the CPU RNG instructions of cpurng.h:
 *
 *   sim:rndr,fail=P           RNDR: each read fails with probability P
 *   sim:rndrrs,fail=P         (NZCV=0100 and 0, as the Arm ARM says)
 *   sim:darn,mode=L,fail=P    darn L: the all-ones error value with
 *       [,ones=Q]             probability P; with L=0, ones=Q makes the
 *                             valid sample 0x00000000FFFFFFFF that often
 *   sim:trng[,part=raw]       PRNO-TRNG; query=missing: the PRNO query
 *       [,query=missing]      lacks function 114
 *   sim:seed,wait=P           seed CSR: OPST WAIT with probability P,
 *       [,dead=N]             DEAD from the N-th read on; ES16 reads come
 *                             sign-extended, as qemu returns them
 *
 * Each makes the raw register values the hardware would and hands them to
 * the same decoders and read loop (cpurng.c) as the real instruction: this
 * is the seam that tests the failure paths on any machine.  seed=S (default
 * 1) picks the stream; as=NAME stands in for a real source in the
 * kernel-trust decision, as with the other sim models.
 */
#include "config.h"

#include "sources/backend.h"
#include "sources/cpurng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cpurng_simctx {
	enum cpurng_id id;
	unsigned mode;
	int raw;
	uint64_t state;          /* splitmix64 */
	uint64_t fail, ones;     /* probabilities as 64-bit thresholds */
	int fail_always, ones_always;
	uint64_t dead_after;     /* seed: reads before DEAD; 0 never */
	uint64_t reads;
};

/* splitmix64 (Steele, Lea, Flood): a full-period 64-bit generator whose
 * output passes BigCrush, enough for data that must look ideal. */
static uint64_t cs_next(struct cpurng_simctx *s)
{
	uint64_t z = (s->state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static int cs_event(struct cpurng_simctx *s, uint64_t threshold, int always)
{
	return always || (threshold && cs_next(s) < threshold);
}

/* qemu's seed CSR value: OPST in 31:30, sign-extended to 64 bits */
static uint64_t cs_seed_csr(unsigned opst, uint64_t entropy)
{
	uint32_t w = ((uint32_t)opst << 30) | (uint32_t)(entropy & 0xFFFF);
	return (uint64_t)(int64_t)(int32_t)w;
}

static int cs_step(void *ctx, uint64_t *v)
{
	struct cpurng_simctx *s = ctx;
	uint64_t x;

	s->reads++;
	switch (s->id) {
	case CPURNG_RNDR:
	case CPURNG_RNDRRS:
		/* a failed read: NZCV = 0b0100, the register 0 */
		if (cs_event(s, s->fail, s->fail_always))
			return cpurng_decode_nzcv(0, 1ull << 30, v);
		return cpurng_decode_nzcv(cs_next(s), 0, v);
	case CPURNG_DARN:
		if (cs_event(s, s->fail, s->fail_always))
			return cpurng_decode_darn(s->mode, UINT64_MAX, v);
		if (s->mode == 0 && cs_event(s, s->ones, s->ones_always))
			return cpurng_decode_darn(0, 0xFFFFFFFFull, v);
		x = cs_next(s);
		if (s->mode == 0)
			x &= 0xFFFFFFFFull;      /* L=0: the high word is zero */
		else if (x == UINT64_MAX)
			x--;                     /* the hardware never returns the error value as data */
		return cpurng_decode_darn(s->mode, x, v);
	case CPURNG_TRNG:
		*v = cs_next(s);
		return CPURNG_OK;
	default:   /* CPURNG_SEED */
		if (s->dead_after && s->reads > s->dead_after)
			return cpurng_decode_seed(cs_seed_csr(3, 0), v);
		if (cs_event(s, s->fail, s->fail_always))
			return cpurng_decode_seed(cs_seed_csr(1, 0), v);
		return cpurng_decode_seed(cs_seed_csr(2, cs_next(s)), v);
	}
}

static void cs_threshold(double p, uint64_t *t, int *always)
{
	*always = p >= 1.0;
	*t = p <= 0 ? 0 : *always ? UINT64_MAX : (uint64_t)ldexp(p, 64);
}

int cpurng_sim_open(struct source *src, struct spec *sp, int *rc, struct err *e)
{
	int id = cpurng_lookup(sp->arg);
	unsigned long long seed = 1, dead = 0;
	double fail = 0, ones = 0;
	struct cpurng_opts o = { 1, 0 };
	struct cpurng_insn insn;
	struct cpurng_simctx *s;
	const char *as;
	const char *failkey = id == CPURNG_SEED ? "wait" : "fail";

	if (id < 0)
		return 0;
	*rc = 0;
	if ((*rc = spec_get_u64(sp, "seed", 0, ~0ULL, &seed, e)) != 0)
		return 1;
	if (id != CPURNG_TRNG && (*rc = spec_get_prob(sp, failkey, &fail, e)) != 0)
		return 1;
	if (id == CPURNG_DARN) {
		unsigned long long mode = 1;
		if ((*rc = spec_get_u64(sp, "mode", 0, 2, &mode, e)) != 0)
			return 1;
		o.mode = (unsigned)mode;
		if ((*rc = spec_get_prob(sp, "ones", &ones, e)) != 0)
			return 1;
		if (ones > 0 && o.mode != 0) {
			*rc = err_set(e, ERR_USAGE, "source '%s': ones= needs mode=0 (for L=1 and L=2 all ones is "
				      "darn's error value, never a sample)", sp->text);
			return 1;
		}
	}
	if (id == CPURNG_SEED && (*rc = spec_get_u64(sp, "dead", 1, ~0ULL, &dead, e)) != 0)
		return 1;
	if (id == CPURNG_TRNG) {
		uint8_t status[16] = { 0 };
		char why[128];
		const char *query, *part;
		if ((part = spec_get(sp, "part")) != NULL) {
			if (strcmp(part, "raw") != 0 && strcmp(part, "conditioned") != 0) {
				*rc = err_set(e, ERR_USAGE, "source '%s': part=%.40s: must be conditioned or raw",
					      sp->text, part);
				return 1;
			}
			o.raw = strcmp(part, "raw") == 0;
		}
		query = spec_get(sp, "query");
		if (query && strcmp(query, "missing") != 0 && strcmp(query, "present") != 0) {
			*rc = err_set(e, ERR_USAGE, "source '%s': query=%.40s: must be present or missing",
				      sp->text, query);
			return 1;
		}
		/* the status block a z14 returns, or one without function 114 */
		status[0] = 0x80;            /* function 0, the query itself */
		if (!query || strcmp(query, "missing") != 0)
			status[CPURNG_PRNO_TRNG >> 3] |= (uint8_t)(0x80u >> (CPURNG_PRNO_TRNG & 7));
		if (!cpurng_trng_check(status, why, sizeof why)) {
			*rc = err_set(e, ERR_UNAVAILABLE, "%s: %s", sp->text, why);
			return 1;
		}
	}
	as = spec_get(sp, "as");
	if (as && !cpurng_as_valid(as)) {
		*rc = err_set(e, ERR_USAGE, "source '%s': as=%.40s is not " CPURNG_AS_NAMES, sp->text, as);
		return 1;
	}
	if ((*rc = spec_check_unused(sp, e)) != 0)
		return 1;

	if (!(s = calloc(1, sizeof *s))) {
		*rc = err_set(e, ERR_NOMEM, "sim: out of memory");
		return 1;
	}
	s->id = (enum cpurng_id)id;
	s->mode = o.mode;
	s->raw = o.raw;
	s->state = seed;
	s->dead_after = dead;
	cs_threshold(fail, &s->fail, &s->fail_always);
	cs_threshold(ones, &s->ones, &s->ones_always);
	memset(&insn, 0, sizeof insn);
	snprintf(insn.what, sizeof insn.what, "simulated %s", cpurng_describe(s->id)->name);
	insn.word_bits = cpurng_word_bits(s->id, &o);
	insn.fail_what = id == CPURNG_SEED ? "OPST WAIT or BIST" : id == CPURNG_DARN ? "all-ones error value"
			 : "NZCV=0100";
	insn.step = cs_step;
	insn.ctx = s;
	insn.release = free;
	if ((*rc = cpurng_source_init(src, s->id, &o, &insn, e)) != 0)
		return 1;
	src->backend = &source_cpurng_sim;
	snprintf(src->info.spec, sizeof src->info.spec, "%s", sp->text);
	snprintf(src->info.device, sizeof src->info.device, "sim:%.250s", sp->arg);
	snprintf(src->info.as, sizeof src->info.as, "%s", as ? as : "");
	src->info.simulated = 1;
	return 1;
}
