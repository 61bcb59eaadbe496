/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel.h - what the running kernel (or a saved sysroot) trusts of each
 * random source: CPU trust and bootloader trust with why, CPU RNG feature
 * bits it cleared or that are hidden, whether this is a guest, the hwrng's
 * credit, and the CRNG's state.
 *
 * Every item carries where it came from, and "unknown" with the reason
 * when it could not be read: a file that is missing, unreadable or
 * malformed never makes the reading fail, and nothing is guessed.
 */
#ifndef RNGAUDIT_KERNEL_H
#define RNGAUDIT_KERNEL_H

#include <stddef.h>

#include "audit/kparse.h"
#include "audit/kversion.h"
#include "audit/quirks.h"
#include "audit/sysroot.h"
#include "err.h"

enum kernel_tri { KERNEL_UNKNOWN = -1, KERNEL_OFF = 0, KERNEL_ON = 1 };

#define KERNEL_WHY_MAX 200

/* One trust setting (random.trust_cpu, random.trust_bootloader). */
struct kernel_trust {
	enum kernel_tri state;
	char source[40];               /* "command line", "CONFIG default", "kernel default since 6.2",
					  "kernel default before 4.19", "unknown" */
	char reason[KERNEL_WHY_MAX];   /* the same with its detail, for people */
};

/* What the trust resolution needs; kernel_trust_resolve() is pure. */
enum kernel_trust_kind { KERNEL_TRUST_CPU, KERNEL_TRUST_BOOTLOADER };
struct kernel_trust_input {
	struct kversion v;            /* the kernel's version (kversion.h) */
	const char *cmdline;          /* the whole command line; NULL: unreadable */
	size_t cmdline_len;
	int config_known;             /* a kernel config was read */
	int option;                   /* kparse_config_option() of CONFIG_RANDOM_TRUST_* */
	const char *option_value;     /* "y", "n", ... */
};
void kernel_trust_resolve(enum kernel_trust_kind kind, const struct kernel_trust_input *in,
			  struct kernel_trust *out);

struct kernel_ctx {
	char sysroot[1024];           /* "" when live */

	char release[128];            /* /proc/sys/kernel/osrelease; "" unknown */
	char release_why[KERNEL_WHY_MAX];
	int release_known;
	unsigned major, minor;
	/* The sublevel (5.10.209): not in a distribution's release string
	 * ("5.10.0-28-amd64"), so read from /proc/version (Debian appends the
	 * package version, "Debian 5.10.209-2") or /proc/version_signature
	 * (Ubuntu); -1 when it cannot be known. */
	struct kversion kv;           /* major, minor and sublevel (-1 unknown) */
	char version[32];             /* "5.10.209", "5.10" (sublevel unknown), "" unknown */
	char version_from[KERNEL_WHY_MAX];   /* where the version came from */

	int cmdline_known;
	char cmdline_why[KERNEL_WHY_MAX];
	char config_from[208];        /* "/proc/config.gz", "/boot/config-R"; "" unknown */
	char config_why[KERNEL_WHY_MAX];

	struct kernel_trust trust_cpu, trust_bootloader;

	/* CPU RNG feature bits the kernel cleared (kernel log, clearcpuid=,
	 * quirk table) or that are hidden from /proc/cpuinfo. */
	unsigned cleared;             /* KPARSE_LOG_* bits */
	unsigned hidden;              /* absent from cpuinfo, no evidence why */
	char cleared_names[32];       /* "rdseed", "rdrand rdseed", "" */
	unsigned warned;              /* KPARSE_LOG_* bits the kernel warned about but still uses */
	char warned_names[32];
	char flags_evidence[400];     /* one phrase per flag, "; "-joined */
	int cpuinfo_known;
	int cpuinfo_rdrand, cpuinfo_rdseed;

	enum kernel_tri virtualized;
	char virt_evidence[KERNEL_WHY_MAX];

	char rng_current[64];         /* "" unknown / none */
	char rng_available[160];
	int rng_selected;             /* -1 unknown */
	long hwrng_quality;           /* credited bits per 1024; -1 unknown */
	char quality_from[64];        /* "rng_quality", "current_quality", "default_quality" */
	char quality_why[2 * KERNEL_WHY_MAX];
	long default_quality;         /* -1 unknown */
	char default_quality_meaning[KERNEL_WHY_MAX];

	enum kernel_tri crng_ready;
	char crng_why[KERNEL_WHY_MAX];
	long entropy_avail, poolsize; /* -1 unknown */
	char entropy_avail_meaning[KERNEL_WHY_MAX];   /* what entropy_avail means on this version */
	enum kernel_tri hwrng_credit_counts;   /* the hwrng's credit still counts now (off: the
					  CRNG is seeded on a kernel that then stops crediting) */
	char hwrng_note[2 * KERNEL_WHY_MAX];   /* what this version does with the hwrng's credit */
};

/* What the reading may use besides the files: the quirk table and the CPU
 * (for "cleared because of a known erratum"), NULL to skip. */
struct kernel_read_opts {
	const char *sysroot;          /* NULL or "": the running system */
	const struct quirk_table *quirks;
	const struct quirk_cpu *cpu;
};

/* Reads everything.  Fails only for an unusable sysroot (ERR_USAGE: does
 * not exist or is not a directory); every other problem is an "unknown". */
int kernel_read(struct kernel_ctx *k, const struct kernel_read_opts *o, struct err *e);

/* "on", "off", "unknown" (the CSV's bare tokens). */
const char *kernel_tri_token(enum kernel_tri t);

/* Writes the kernel's RNG evidence under dir as a sysroot bundle (plain
 * files, only the relevant kernel log lines in dmesg.txt).  *nfiles gets
 * how many files were written. */
int kernel_save_sysroot(const char *dir, size_t *nfiles, struct err *e);

/* Removes everything under the directory dirfd (and closes dirfd), deepest
 * first, never following a symlink.  Used to undo a half-written bundle. */
void bundle_remove_tree(int dirfd);

#endif
