/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_arch.h - what the kernel seeds its CRNG from on each architecture
 * (issue 27 item 2): given the machine, /proc/cpuinfo, the hwrng list, the
 * kernel release and log, which source arch_get_random_seed_longs() and
 * arch_get_random_longs() read, whether random.trust_cpu governs the
 * boot-time credit of that output, and which rngaudit source (if any)
 * reads the same thing from user space.
 *
 * Kept apart from kernel.c (issue 23 rewrites it): a pure decision plus a
 * reader over sysroot.c, with the kernel commits each fact comes from in
 * cpurng_arch.c.
 */
#ifndef RNGAUDIT_CPURNG_ARCH_H
#define RNGAUDIT_CPURNG_ARCH_H

#include <stddef.h>

#include "err.h"

enum cpurng_arch_kind {
	CPURNG_ARCH_UNKNOWN, CPURNG_ARCH_X86, CPURNG_ARCH_ARM64, CPURNG_ARCH_PPC64,
	CPURNG_ARCH_S390X, CPURNG_ARCH_RISCV64, CPURNG_ARCH_OTHER,
};

/* What the decision reads; every text may be NULL (unknown). */
struct cpurng_arch_input {
	const char *machine;          /* uname -m or /proc/sys/kernel/arch; NULL: from cpuinfo's shape */
	const char *cpuinfo;
	size_t cpuinfo_len;
	const char *rng_available;    /* /sys/class/misc/hw_random/rng_available */
	const char *rng_current;
	const char *log;              /* kernel log text (dmesg.txt or /dev/kmsg's relevant lines) */
	size_t log_len;
	int release_known;
	unsigned major, minor;
};

#define CPURNG_ARCH_TEXT 480

struct cpurng_arch {
	enum cpurng_arch_kind arch;
	char machine[32];             /* "aarch64"; "" unknown */
	char machine_from[48];        /* "uname", "/proc/sys/kernel/arch", "/proc/cpuinfo fields" */
	char seed[160];               /* what arch_get_random_seed_longs() reads, with the evidence */
	char longs[96];               /* what arch_get_random_longs() reads */
	int has_cpu_rng;              /* 1 the kernel has a CPU/firmware RNG to credit, 0 none, -1 unknown */
	const char *audit_source;     /* the rngaudit source reading what the kernel seeds from; NULL none */
	int trust_cpu_governs;        /* random.trust_cpu decides its boot-time credit */
	char note[CPURNG_ARCH_TEXT];  /* sentences for people: what the kernel does, why, what to audit */
};

/* The decision: pure, no I/O. */
void cpurng_arch_decide(const struct cpurng_arch_input *in, struct cpurng_arch *out);

/* Reads the inputs (live, or under a sysroot bundle) and decides.  Fails
 * only for an unusable sysroot (ERR_USAGE); a missing file is "unknown". */
int cpurng_arch_read(struct cpurng_arch *out, const char *sysroot, struct err *e);

/* The kernel log lines cpurng_arch_decide() looks for (what --save-sysroot
 * should keep in dmesg.txt besides kparse's). */
int cpurng_arch_log_relevant(const char *line, size_t len);

/* For the trust decision: whether NAME (a source or a sim's as=) is a CPU
 * RNG of one of these architectures, and the instruction's name in
 * sentences ("RNDRRS", "darn"). NULL when it is none. */
const char *cpurng_arch_insn(const char *name);

/* One sentence on the kernel's CPU RNG trust on this architecture, for the
 * trust section ("" when the architecture is x86 or unknown). */
const char *cpurng_arch_trust_note(const struct cpurng_arch *a);

#endif
