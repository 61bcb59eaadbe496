/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kparse.h - pure parsers for what the kernel tells user space about its
 * random number generator: the command line, the build configuration, the
 * kernel log, /proc/cpuinfo flags and single-value sysfs files.
 *
 * Every function reads a buffer of a given length (no terminating NUL
 * needed, embedded NULs and binary junk allowed), writes only to its
 * outputs, and never allocates except kparse_gunzip() (kparse_gz.c, the
 * rest in kparse.c).  They are the
 * fuzz targets' entry points: nothing here touches the file system.
 */
#ifndef RNGAUDIT_KPARSE_H
#define RNGAUDIT_KPARSE_H

#include <stddef.h>

#include "err.h"

/* The kernel's kstrtobool() (lib/kstrtox.c) as its version reads it: only
 * the first character decides (the second for "on"/"off"): y/Y/1 true,
 * n/N/0 false and o followed by n/N or f/F in every version; t/T true and
 * f/F false since 0d6ea3ac94ca (5.19); e/E true and d/D false since
 * ae5b3500856f (6.16); neither was backported to stable.  So "yes_please"
 * reads true everywhere, "true" only from 5.19, "disabled" only from 6.16.
 * kv is KV(major, minor) of the kernel, 0 when unknown.  Returns 1 or 0,
 * -1 when that kernel does not accept the value (it then leaves the
 * parameter as it was: "Malformed early option"), -2 when whether it does
 * depends on a version that is unknown. */
int kparse_kstrtobool_v(const char *s, size_t len, unsigned kv);
/* The same for a kernel that accepts every form (the newest). */
int kparse_kstrtobool(const char *s, size_t len);

/* Calls fn for every NAME[=VALUE] on a kernel command line, in order, as
 * the kernel's parse_args() splits it: words separated by white space,
 * double quotes group, dashes and underscores in names equivalent
 * (parameq()).  has_value 0 for a bare NAME; after_dashes 1 for words after
 * "--", which parse_args() hands to init, not the kernel (fn is still
 * called, so that a parser that does not stop there can see them).  Stops
 * when fn returns nonzero. */
void kparse_cmdline_each(const char *buf, size_t len, const char *name,
			 int (*fn)(const char *val, size_t vlen, int has_value, int after_dashes, void *arg),
			 void *arg);

/* The value of the last NAME=VALUE on a kernel command line, as the
 * kernel's parse_args() splits it: words separated by white space, double
 * quotes group, and "--" ends the kernel's part (what follows goes to
 * init).  Dashes and underscores in names are equivalent (parameq()).
 * Returns 1 and the value in val (truncated to vlen-1, quotes removed),
 * 2 when NAME appears without '=', 0 when absent. */
int kparse_cmdline_param(const char *buf, size_t len, const char *name, char *val, size_t vlen);

/* A Kconfig option in a .config text: 'y', 'm', or a quoted or numeric
 * value copied to val; "# CONFIG_X is not set" gives "n".
 * Returns 1 when the option is mentioned, 0 when it is absent. */
int kparse_config_option(const char *buf, size_t len, const char *name, char *val, size_t vlen);

/* Decompresses a gzip stream (/proc/config.gz) into *out (NUL-terminated,
 * *outlen bytes before the NUL), refusing more than max bytes.  ERR_DATA
 * for a corrupt, truncated or oversized stream, naming what. */
int kparse_gunzip(const void *gz, size_t len, size_t max, char **out, size_t *outlen,
		  const char *what, struct err *e);

/* Kernel log lines about the CPU RNG: each either clears a feature bit (the
 * kernel then neither uses nor credits it) or only warns (it goes on using
 * and crediting it).  The table in kparse.c cites the commit of each. */
enum {
	KPARSE_LOG_RDRAND = 1u << 0,
	KPARSE_LOG_RDSEED = 1u << 1,
};
struct kparse_log {
	unsigned cleared;          /* KPARSE_LOG_* bits a line cleared */
	unsigned warned;           /* KPARSE_LOG_* bits a line warned about, not cleared */
	unsigned hidden;           /* of cleared: also hidden from user CPUID (an AMD
				      CPUID-override MSR; bare metal only) */
	char rdrand_line[160];     /* the first line that cleared each, trimmed */
	char rdseed_line[160];
	char rdrand_warn[160];     /* the first warning about each */
	char rdseed_warn[160];
	char rdrand_commit[48];    /* "c49a0a80137c (5.3)": where each cleared line comes from */
	char rdseed_commit[48];
	char rdrand_warn_commit[48];
	char rdseed_warn_commit[48];
};

/* Scans kernel log text: `dmesg` lines ("[    0.19] msg"), /dev/kmsg
 * records ("6,123,456,-;msg") or bare messages, one per line. */
void kparse_log_scan(const char *buf, size_t len, struct kparse_log *out);

/* Whether a kernel log line is one kparse_log_scan() looks for (what
 * --save-sysroot keeps in dmesg.txt). */
int kparse_log_relevant(const char *line, size_t len);

/* The "flags" line of the first processor in /proc/cpuinfo. */
struct kparse_cpuflags {
	int known;                 /* a flags line was found */
	int rdrand, rdseed, hypervisor;
};
void kparse_cpuinfo_flags(const char *buf, size_t len, struct kparse_cpuflags *out);

/* clearcpuid=LIST as the kernel of version kv (KV(), 0 unknown) reads it:
 * one X86_FEATURE_* bit number (the first word) before 5.10 (0a4bb5e5507a;
 * 5.4.73 in stable), a comma list of numbers from then on, stopping at the first
 * word that is not one, and flag names too since 1625c833db93 (5.19).
 * Returns the KPARSE_LOG_* bits the kernel clears; *uncertain gets the bits
 * that depend on a version that is unknown (or on the 5.4 sublevel: pass
 * sub54 = 1 when a 5.4 kernel is known to be 5.4.73 or later, 0 before, -1
 * unknown). */
unsigned kparse_clearcpuid_v(const char *val, size_t len, unsigned kv, int sub54, unsigned *uncertain);
/* The same on the newest kernels (names and numbers). */
unsigned kparse_clearcpuid(const char *val, size_t len);

/* A sysfs or procfs value that must be one unsigned decimal integer (an
 * optional trailing newline, nothing else) no larger than max.  Returns 0
 * and *v, or -1 with why set ("empty", "not a number: 'abc'", ...). */
int kparse_uint(const char *buf, size_t len, unsigned long max, unsigned long *v,
		char *why, size_t whylen);

/* A sysfs word (rng_current: "virtio_rng.0\n"): the text up to the
 * newline, printable ASCII only.  Returns 0, or -1 with why set. */
int kparse_word(const char *buf, size_t len, char *out, size_t outlen, char *why, size_t whylen);

#endif
