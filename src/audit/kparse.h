/* kparse.h - pure parsers for what the kernel tells user space about its
 * random number generator: the command line, the build configuration, the
 * kernel log, /proc/cpuinfo flags and single-value sysfs files.
 *
 * Every function reads a buffer of a given length (no terminating NUL
 * needed, embedded NULs and binary junk allowed), writes only to its
 * outputs, and never allocates except kparse_gunzip().  They are the
 * fuzz targets' entry points: nothing here touches the file system.
 */
#ifndef RNGAUDIT_KPARSE_H
#define RNGAUDIT_KPARSE_H

#include <stddef.h>

#include "err.h"

/* The kernel's kstrtobool() (lib/kstrtox.c): the first character decides:
 * y/Y/1 true, n/N/0 false, and "on"/"off" by their second character (o,
 * then n/N or f/F).  Returns 1 or 0, or -1 when the value is not a boolean
 * (the kernel then leaves the parameter's default in force). */
int kparse_kstrtobool(const char *s, size_t len);

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

/* Kernel log lines that say the kernel cleared a CPU RNG feature bit. */
enum {
	KPARSE_LOG_RDRAND = 1u << 0,
	KPARSE_LOG_RDSEED = 1u << 1,
};
struct kparse_log {
	unsigned cleared;          /* KPARSE_LOG_* bits */
	char rdrand_line[160];     /* the first line that cleared each, trimmed */
	char rdseed_line[160];
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

/* clearcpuid=LIST: names (rdrand, rdseed) or X86_FEATURE_* bit numbers,
 * comma-separated.  Returns KPARSE_LOG_* bits for the RNG features named. */
unsigned kparse_clearcpuid(const char *val, size_t len);

/* A sysfs or procfs value that must be one unsigned decimal integer (an
 * optional trailing newline, nothing else) no larger than max.  Returns 0
 * and *v, or -1 with why set ("empty", "not a number: 'abc'", ...). */
int kparse_uint(const char *buf, size_t len, unsigned long max, unsigned long *v,
		char *why, size_t whylen);

/* A sysfs word (rng_current: "virtio_rng.0\n"): the text up to the
 * newline, printable ASCII only.  Returns 0, or -1 with why set. */
int kparse_word(const char *buf, size_t len, char *out, size_t outlen, char *why, size_t whylen);

/* "6.18.44-fc-v1252" -> 6, 18.  Returns 0, or -1 when it does not start
 * with MAJOR.MINOR. */
int kparse_release(const char *buf, size_t len, unsigned *major, unsigned *minor);

#endif
