/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng.c - the non-x86 CPU RNG sources (rndr, rndrrs, darn, trng, seed):
 * the pure decoders, the SIGILL guard, and one read loop that counts every
 * failed read the way x86rng.c counts RDRAND's CF=0 (see cpurng.h). */
#include "config.h"

#include "sources/backend.h"
#include "sources/cpurng.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* Retries per word.  RNDR: the Arm ARM leaves "a reasonable period" to the
 * implementation and suggests retrying a few times; 10, as Intel's guide
 * says for RDRAND.  RNDRRS reseeds on every read and fails more often under
 * load: 100.  darn: Linux tries 10 times before giving up on it
 * (arch/powerpc/platforms/powernv/rng.c, initialise_darn()).  seed: Linux
 * polls 100 times through WAIT and BIST (arch/riscv/include/asm/
 * archrandom.h, SEED_RETRY_LOOPS, added by 102434010592 "RISC-V:
 * Implement archrandom when Zkr is available").  PRNO-TRNG has no failure
 * indication: a partial completion is resumed by the instruction loop. */
#define CPURNG_RETRIES_RNDR 10u
#define CPURNG_RETRIES_RNDRRS 100u
#define CPURNG_RETRIES_DARN 10u
#define CPURNG_RETRIES_SEED 100u

static const struct cpurng_desc cpurng_descs[CPURNG_COUNT] = {
	[CPURNG_RNDR] = { "rndr", "aarch64", "FEAT_RNG",
			  "DRBG output (arm64 RNDR)" },
	[CPURNG_RNDRRS] = { "rndrrs", "aarch64", "FEAT_RNG",
			    "DRBG output reseeded from the entropy source on every read (arm64 RNDRRS)" },
	[CPURNG_DARN] = { "darn", "ppc64", "ISA 3.0 darn",
			  "conditioned entropy-source output (POWER darn L=1)" },
	[CPURNG_TRNG] = { "trng", "s390x", "MSA extension 7 PRNO-TRNG",
			  "conditioned entropy-source output (s390x PRNO-TRNG; trng:raw: its raw input)" },
	[CPURNG_SEED] = { "seed", "riscv64", "Zkr",
			  "entropy-source output, 16 bits a read, for software to condition (RISC-V seed CSR)" },
};

const struct cpurng_desc *cpurng_describe(enum cpurng_id id)
{
	return id < CPURNG_COUNT ? &cpurng_descs[id] : NULL;
}

int cpurng_lookup(const char *name)
{
	for (int i = 0; i < CPURNG_COUNT; i++)
		if (strcmp(cpurng_descs[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- decoders ---- */

/* Arm ARM: a read of RNDR/RNDRRS that cannot return a random number in a
 * reasonable time sets PSTATE.NZCV to 0b0100 and returns 0; on success
 * NZCV is 0b0000.  NZCV sits in bits 31:28 of what `mrs x, nzcv` reads. */
#define CPURNG_NZCV_Z (1ull << 30)

int cpurng_decode_nzcv(uint64_t value, uint64_t nzcv, uint64_t *out)
{
	if (nzcv & CPURNG_NZCV_Z)
		return CPURNG_FAIL;
	*out = value;
	return CPURNG_OK;
}

/* POWER ISA 3.0 darn: "if no random number is available, 0xFFFF_FFFF_FFFF_
 * FFFF is returned" for every L; L=0 returns a 32-bit number in the low
 * word (the high word zero), so 0x00000000FFFFFFFF is a valid sample. */
#define CPURNG_DARN_ERR UINT64_MAX

int cpurng_decode_darn(unsigned l, uint64_t raw, uint64_t *out)
{
	if (raw == CPURNG_DARN_ERR)
		return CPURNG_FAIL;
	*out = l == 0 ? raw & 0xFFFFFFFFull : raw;
	return CPURNG_OK;
}

/* RISC-V Zkr: OPST in bits 31:30; the bits above 31 are whatever sign
 * extension the implementation gives (qemu sign-extends), so only 31:30
 * and 15:0 are read. */
#define CPURNG_SEED_OPST_SHIFT 30
#define CPURNG_SEED_BIST 0u
#define CPURNG_SEED_WAIT 1u
#define CPURNG_SEED_ES16 2u
#define CPURNG_SEED_ENTROPY 0xFFFFull

int cpurng_decode_seed(uint64_t csr, uint64_t *out)
{
	unsigned opst = (unsigned)(csr >> CPURNG_SEED_OPST_SHIFT) & 3u;
	if (opst == CPURNG_SEED_ES16) {
		*out = csr & CPURNG_SEED_ENTROPY;
		return CPURNG_OK;
	}
	return opst == CPURNG_SEED_WAIT || opst == CPURNG_SEED_BIST ? CPURNG_FAIL : CPURNG_DEAD;
}

int cpurng_cpacf_offered(const uint8_t status[16], unsigned fc)
{
	return fc < 128 && (status[fc >> 3] & (0x80u >> (fc & 7))) != 0;
}

int cpurng_trng_check(const uint8_t status[16], char *why, size_t len)
{
	if (cpurng_cpacf_offered(status, CPURNG_PRNO_TRNG))
		return 1;
	snprintf(why, len, "CPU lacks the TRNG function (PRNO query: function %u, MSA extension 7, "
		 "not offered)", CPURNG_PRNO_TRNG);
	return 0;
}

/* ---- the SIGILL guard ---- */

static pthread_mutex_t cpurng_guard_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local sigjmp_buf cpurng_jmp;

static void cpurng_on_sigill(int sig)
{
	(void)sig;
	siglongjmp(cpurng_jmp, 1);
}

int cpurng_guarded(void (*fn)(void *), void *arg)
{
	struct sigaction sa, old;
	volatile int faulted = 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cpurng_on_sigill;
	sigemptyset(&sa.sa_mask);
	pthread_mutex_lock(&cpurng_guard_lock);
	sigaction(SIGILL, &sa, &old);
	if (sigsetjmp(cpurng_jmp, 1) == 0)
		fn(arg);
	else
		faulted = 1;
	sigaction(SIGILL, &old, NULL);
	pthread_mutex_unlock(&cpurng_guard_lock);
	return faulted;
}

static char cpurng_machine_name[65];
static pthread_once_t cpurng_machine_once = PTHREAD_ONCE_INIT;

static void cpurng_machine_init(void)
{
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(cpurng_machine_name, sizeof cpurng_machine_name, "%.64s", u.machine);
}

const char *cpurng_machine(void)
{
	pthread_once(&cpurng_machine_once, cpurng_machine_init);
	return cpurng_machine_name[0] ? cpurng_machine_name : "this architecture";
}

void cpurng_hw_foreign(enum cpurng_id id, struct cpurng_hw *hw)
{
	memset(hw, 0, sizeof *hw);
	snprintf(hw->why, sizeof hw->why, "not available on %s", cpurng_machine());
	snprintf(hw->detail, sizeof hw->detail, "an instruction of %s (%s)", cpurng_descs[id].arch,
		 cpurng_descs[id].feature);
}

/* ---- the read loop ---- */

struct cpurng_src {
	enum cpurng_id id;
	struct cpurng_insn insn;
	uint64_t all;            /* the all-ones word of this width */
	uint8_t pending[8];      /* bytes of a word not yet returned */
	unsigned npending, pending_off;
};

/* One word with the retry rule: every failed attempt is counted as an
 * underflow (RDRAND's CF=0 in x86rng.c), its value never emitted. */
static int cpurng_word(struct source *src, struct cpurng_src *c, uint64_t *v, struct err *e)
{
	struct source_counters *k = &src->counters;
	for (unsigned t = 0; t < c->insn.retries; t++) {
		int rc = c->insn.step(c->insn.ctx, v);
		k->calls++;
		if (rc == CPURNG_OK) {
			k->words++;
			k->zero_words += *v == 0;
			k->ones_words += *v == c->all;
			return 0;
		}
		k->underflows++;
		if (rc == CPURNG_DEAD) {
			k->exhausted++;
			return err_set(e, ERR_SOURCE, "%s: %s reports an unrecoverable failure",
				       src->info.spec, c->insn.what);
		}
		k->retries++;
	}
	k->exhausted++;
	return err_set(e, ERR_SOURCE, "%s: %u consecutive failed reads of %s (%s): the RNG is failing",
		       src->info.spec, c->insn.retries, c->insn.what, c->insn.fail_what);
}

/* Words go out little-endian whatever the CPU's byte order (s390x is big-
 * endian), so the word checks (health/wordcheck.c) see the value read. */
static void cpurng_put(uint8_t *p, uint64_t v, unsigned wbytes)
{
	for (unsigned b = 0; b < wbytes; b++)
		p[b] = (uint8_t)(v >> (8 * b));
}

static ssize_t cpurng_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct cpurng_src *c = src->priv;
	size_t wbytes = c->insn.word_bits / 8, done = 0;

	if (c->npending) {      /* leftover bytes of the last word first */
		size_t n = c->npending < len ? c->npending : len;
		memcpy(buf, c->pending + c->pending_off, n);
		c->npending -= (unsigned)n;
		c->pending_off += (unsigned)n;
		done = n;
	}
	while (done + wbytes <= len) {
		uint64_t v;
		int rc = cpurng_word(src, c, &v, e);
		if (rc) {
			src->counters.bytes += done;
			return done ? (ssize_t)done : rc;
		}
		cpurng_put(buf + done, v, (unsigned)wbytes);
		done += wbytes;
	}
	if (done < len) {       /* a partial word: keep the rest for the next read */
		uint64_t v;
		int rc = cpurng_word(src, c, &v, e);
		if (rc) {
			src->counters.bytes += done;
			return done ? (ssize_t)done : rc;
		}
		cpurng_put(c->pending, v, (unsigned)wbytes);
		memcpy(buf + done, c->pending, len - done);
		c->pending_off = (unsigned)(len - done);
		c->npending = (unsigned)(wbytes - (len - done));
		done = len;
	}
	src->counters.bytes += done;
	return (ssize_t)done;
}

static void cpurng_close(struct source *src)
{
	struct cpurng_src *c = src->priv;
	if (!c)
		return;
	if (c->insn.release)
		c->insn.release(c->insn.ctx);
	free(c);
	src->priv = NULL;
}

enum source_kind cpurng_kind(enum cpurng_id id, const struct cpurng_opts *o)
{
	switch (id) {
	case CPURNG_RNDR:
	case CPURNG_RNDRRS:
		return SOURCE_DRBG;
	case CPURNG_DARN:
		return o && o->mode == 2 ? SOURCE_RAW : SOURCE_CONDITIONED;
	case CPURNG_TRNG:
		return o && o->raw ? SOURCE_RAW : SOURCE_CONDITIONED;
	default:
		return SOURCE_RAW;
	}
}

unsigned cpurng_word_bits(enum cpurng_id id, const struct cpurng_opts *o)
{
	if (id == CPURNG_SEED)
		return 16;
	if (id == CPURNG_DARN && o && o->mode == 0)
		return 32;
	return 64;
}

static unsigned cpurng_retries(enum cpurng_id id)
{
	switch (id) {
	case CPURNG_RNDR: return CPURNG_RETRIES_RNDR;
	case CPURNG_RNDRRS: return CPURNG_RETRIES_RNDRRS;
	case CPURNG_DARN: return CPURNG_RETRIES_DARN;
	case CPURNG_SEED: return CPURNG_RETRIES_SEED;
	default: return 1;
	}
}

int cpurng_source_init(struct source *src, enum cpurng_id id, const struct cpurng_opts *o,
		       const struct cpurng_insn *insn, struct err *e)
{
	struct cpurng_src *c = calloc(1, sizeof *c);
	const char *name = cpurng_descs[id].name;

	if (!c) {
		if (insn->release)
			insn->release(insn->ctx);
		return err_set(e, ERR_NOMEM, "%s: out of memory", name);
	}
	c->id = id;
	c->insn = *insn;
	if (!c->insn.retries)
		c->insn.retries = cpurng_retries(id);
	c->all = c->insn.word_bits == 64 ? ~0ULL : (1ULL << c->insn.word_bits) - 1;
	src->priv = c;
	if (id == CPURNG_DARN)
		snprintf(src->info.spec, sizeof src->info.spec, "darn:mode=%u", o->mode);
	else if (id == CPURNG_TRNG && o->raw)
		snprintf(src->info.spec, sizeof src->info.spec, "trng:raw");
	else
		snprintf(src->info.spec, sizeof src->info.spec, "%s", name);
	snprintf(src->info.device, sizeof src->info.device, "cpu");
	src->info.word_bits = c->insn.word_bits;
	src->info.kind = cpurng_kind(id, o);
	/* a word per call: as RDSEED's 16 KiB, small enough that a slow or
	 * emulated instruction still shows progress */
	src->info.block_hint = 16384;
	return 0;
}

int cpurng_spec_opts(enum cpurng_id id, struct spec *sp, struct cpurng_opts *o, struct err *e)
{
	unsigned long long mode = 1;
	const char *part;

	memset(o, 0, sizeof *o);
	o->mode = 1;
	if (id == CPURNG_DARN) {
		int rc;
		if ((rc = spec_get_u64(sp, "mode", 0, 2, &mode, e)) != 0)
			return rc;
		o->mode = (unsigned)mode;
	}
	if (id == CPURNG_TRNG && (part = spec_get(sp, "part")) != NULL) {
		if (strcmp(part, "raw") == 0)
			o->raw = 1;
		else if (strcmp(part, "conditioned") != 0)
			return err_set(e, ERR_USAGE, "source '%s': part=%.40s: must be conditioned or raw",
				       sp->text, part);
	}
	return spec_check_unused(sp, e);
}

int cpurng_as_valid(const char *as)
{
	static const char *const x86[] = { "rdrand", "rdseed", "hwrng" };
	for (size_t i = 0; i < sizeof x86 / sizeof x86[0]; i++)
		if (strcmp(as, x86[i]) == 0)
			return 1;
	return cpurng_lookup(as) >= 0;
}

const char *cpurng_spec_alias(const char *text, char *buf, size_t len)
{
	static const char alias[] = "trng:raw";
	size_t n = sizeof alias - 1;
	if (!text || strncmp(text, alias, n) != 0 || (text[n] != '\0' && text[n] != ','))
		return text;
	if ((size_t)snprintf(buf, len, "trng:part=raw%s", text + n) >= len)
		return text;
	return buf;
}

/* ---- the five backends ---- */

static int cpurng_open(struct source *src, struct spec *sp, enum cpurng_id id, struct err *e)
{
	struct cpurng_opts o;
	struct cpurng_insn insn;
	struct cpurng_hw hw;
	int rc;

	if ((rc = cpurng_spec_opts(id, sp, &o, e)) != 0)
		return rc;
	cpurng_hw_probe(id, &o, &hw);
	if (!hw.available)
		return err_set(e, ERR_UNAVAILABLE, "%s: %s", cpurng_descs[id].name, hw.why);
	memset(&insn, 0, sizeof insn);
	if ((rc = cpurng_hw_insn(id, &o, &insn)) != 0)
		return err_set(e, rc, "%s: out of memory", cpurng_descs[id].name);
	rc = cpurng_source_init(src, id, &o, &insn, e);
	if (rc == 0)
		snprintf(src->info.detail, sizeof src->info.detail, "%s", hw.detail);
	return rc;
}

static int cpurng_probe(struct source_probe *p, enum cpurng_id id)
{
	struct cpurng_opts o = { 1, 0 };
	struct cpurng_hw hw;

	p->word_bits = cpurng_word_bits(id, &o);
	p->kind = cpurng_kind(id, &o);
	/* "ppc64" covers ppc64le too */
	p->other_arch = strncmp(cpurng_machine(), cpurng_descs[id].arch, strlen(cpurng_descs[id].arch)) != 0;
	snprintf(p->device, sizeof p->device, "cpu");
	snprintf(p->what, sizeof p->what, "%s", cpurng_descs[id].what);
	cpurng_hw_probe(id, &o, &hw);
	p->available = hw.available;
	if (!hw.available)
		snprintf(p->why, sizeof p->why, "%s", hw.why);
	snprintf(p->detail, sizeof p->detail, "%s", hw.detail);
	return 0;
}

#define CPURNG_BACKEND(ID, NAME)                                                         \
	static int NAME##_open(struct source *src, struct spec *sp, struct err *e)        \
	{                                                                                 \
		return cpurng_open(src, sp, ID, e);                                      \
	}                                                                                 \
	static int NAME##_probe(struct source_probe *p)                                   \
	{                                                                                 \
		return cpurng_probe(p, ID);                                               \
	}                                                                                 \
	const struct source_backend source_##NAME = {                                     \
		#NAME, NAME##_open, cpurng_read, cpurng_close, NAME##_probe,              \
	};

CPURNG_BACKEND(CPURNG_RNDR, rndr)
CPURNG_BACKEND(CPURNG_RNDRRS, rndrrs)
CPURNG_BACKEND(CPURNG_DARN, darn)
CPURNG_BACKEND(CPURNG_TRNG, trng)
CPURNG_BACKEND(CPURNG_SEED, seed)

/* The sim stand-ins (cpurng_sim.c) read through the same loop: their open
 * switches the source to this backend once it succeeds. */
const struct source_backend source_cpurng_sim = {
	"sim", NULL, cpurng_read, cpurng_close, NULL,
};
