/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng.h - the CPU RNG instructions of arm64, POWER, s390x and RISC-V
 * behind one read loop (private to src/sources/ and its tests).
 *
 *   rndr, rndrrs   arm64 FEAT_RNG: mrs of RNDR / RNDRRS; a failed read sets
 *                  NZCV to 0b0100 and returns 0 (Arm ARM, "RNDR, Random
 *                  Number"); 64-bit words.
 *   darn           POWER ISA 3.0 `darn RT,L`: L=1 64-bit conditioned (the
 *                  default, what Linux uses), L=0 32-bit conditioned, L=2
 *                  64-bit raw; the error value is all ones for every L, so
 *                  for L=0 0x00000000FFFFFFFF is a valid sample.
 *   trng           s390x CPACF PRNO function 114 (MSA extension 7): one call
 *                  fills a conditioned buffer and a raw one; trng reads the
 *                  first, trng:raw (trng:part=raw) the second.  PRNO query
 *                  (function 0) says whether 114 is offered.
 *   seed           RISC-V Zkr seed CSR (0x015), read with csrrw: bits 31:30
 *                  OPST (00 BIST, 01 WAIT, 10 ES16, 11 DEAD), bits 15:0
 *                  entropy when ES16; qemu returns it sign-extended.
 *
 * Each architecture's file (cpurng_arm64.c, cpurng_ppc64.c, cpurng_s390x.c,
 * cpurng_riscv64.c; cpurng_none.c elsewhere) supplies cpurng_hw_probe()
 * and cpurng_hw_insn(); the raw register results go through the pure
 * decoders below, which every build compiles and tests.  The sim stand-ins
 * (cpurng_sim.c) drive the same loop and decoders with simulated register
 * values: the failure paths are tested without the hardware.
 */
#ifndef RNGAUDIT_CPURNG_H
#define RNGAUDIT_CPURNG_H

#include <stddef.h>
#include <stdint.h>

#include "sources/source.h"
#include "sources/spec.h"

enum cpurng_id { CPURNG_RNDR, CPURNG_RNDRRS, CPURNG_DARN, CPURNG_TRNG, CPURNG_SEED, CPURNG_COUNT };

/* One attempt's outcome. */
enum cpurng_step { CPURNG_OK = 0, CPURNG_FAIL = 1, CPURNG_DEAD = 2 };

/* The instruction a source reads: its step, as hardware or a stand-in. */
struct cpurng_insn {
	char what[24];               /* "RNDR", "darn L=1", "PRNO-TRNG": for messages */
	unsigned word_bits;          /* 16, 32 or 64 */
	unsigned retries;            /* consecutive failures before the source is failing */
	const char *fail_what;       /* the failure in words: "NZCV=0100", "all-ones error value" */
	/* One attempt: CPURNG_OK with *v, CPURNG_FAIL (counted, retried) or
	 * CPURNG_DEAD (unrecoverable).  Never emits a failure's value. */
	int (*step)(void *ctx, uint64_t *v);
	void *ctx;
	void (*release)(void *ctx);  /* frees ctx; may be NULL */
};

/* What one instruction is, per source name. */
struct cpurng_desc {
	const char *name;            /* "rndr" */
	const char *arch;            /* uname -m of its architecture ("aarch64"), or its prefix ("ppc64") */
	const char *feature;         /* "FEAT_RNG", "ISA 3.0 darn", "MSA extension 7 TRNG", "Zkr" */
	const char *what;            /* `sources`' OUTPUT column */
};
const struct cpurng_desc *cpurng_describe(enum cpurng_id id);
/* -1 when name is none of them. */
int cpurng_lookup(const char *name);

/* Options from the spec (darn:mode=L, trng:part=raw). */
struct cpurng_opts {
	unsigned mode;               /* darn L: 0, 1, 2 */
	int raw;                     /* trng: the raw half */
};

/* ---- pure decoders of the raw register results ---- */
/* arm64: NZCV as `mrs x, nzcv` reads it; Z (bit 30) set means the read failed. */
int cpurng_decode_nzcv(uint64_t value, uint64_t nzcv, uint64_t *out);
/* POWER darn with L: all ones is the error for every L; L=0 keeps the low 32 bits. */
int cpurng_decode_darn(unsigned l, uint64_t raw, uint64_t *out);
/* RISC-V seed CSR (any sign extension): ES16 gives the 16 entropy bits,
 * WAIT and BIST fail (retry), DEAD is unrecoverable. */
int cpurng_decode_seed(uint64_t csr, uint64_t *out);
/* Bit fc of a 16-byte CPACF query status block, numbered from the most
 * significant bit of byte 0 (z/Architecture Principles of Operation). */
int cpurng_cpacf_offered(const uint8_t status[16], unsigned fc);
#define CPURNG_PRNO_TRNG 114u
/* 1 when a PRNO query status block offers the TRNG function; else 0 with
 * why set ("CPU lacks the TRNG function (...)"). */
int cpurng_trng_check(const uint8_t status[16], char *why, size_t len);

/* ---- per architecture (cpurng_<arch>.c or cpurng_none.c) ---- */
struct cpurng_hw {
	int available;
	char why[128];               /* when not: "not available on x86_64", "CPU lacks FEAT_RNG (...)" */
	char detail[128];            /* what the detection found: "AT_HWCAP2 rng; RNDR executes" */
};
/* Detects and probes under a SIGILL guard: never raises SIGILL. */
void cpurng_hw_probe(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_hw *hw);
/* The hardware step (after a successful probe).  0 or ERR_NOMEM. */
int cpurng_hw_insn(enum cpurng_id id, const struct cpurng_opts *o, struct cpurng_insn *insn);

/* Fills hw for an instruction of another architecture:
 * "not available on x86_64". */
void cpurng_hw_foreign(enum cpurng_id id, struct cpurng_hw *hw);

/* Runs fn(arg) with SIGILL caught: 0 when it ran, 1 when it raised SIGILL.
 * Serialised by a mutex (the handler is process-wide); the jump buffer is
 * per thread, since SIGILL goes to the thread that faulted. */
int cpurng_guarded(void (*fn)(void *), void *arg);

/* The machine name (uname -m) this binary runs on, for "not available on X". */
const char *cpurng_machine(void);

/* ---- the source layer ---- */
struct source;
/* Opens src (already named) for id with insn: the read loop takes
 * ownership of insn (its release runs at close, also on error). */
int cpurng_source_init(struct source *src, enum cpurng_id id, const struct cpurng_opts *o,
		       const struct cpurng_insn *insn, struct err *e);
/* The spec's options for id (mode=, part=), checked. */
int cpurng_spec_opts(enum cpurng_id id, struct spec *sp, struct cpurng_opts *o, struct err *e);
/* Whether a sim's as= names a real source it may stand in for: rdrand,
 * rdseed, hwrng or one of the five above. */
int cpurng_as_valid(const char *as);
#define CPURNG_AS_NAMES "rdrand, rdseed, hwrng, rndr, rndrrs, darn, trng or seed"
/* "trng:raw" is the short form of "trng:part=raw": rewrites text into buf
 * when it starts so; returns buf or text. */
const char *cpurng_spec_alias(const char *text, char *buf, size_t len);
/* The output kind and word width of id with o. */
enum source_kind cpurng_kind(enum cpurng_id id, const struct cpurng_opts *o);
unsigned cpurng_word_bits(enum cpurng_id id, const struct cpurng_opts *o);

#endif
