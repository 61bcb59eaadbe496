/* SPDX-License-Identifier: GPL-3.0-or-later */
/* source.h - the one interface every random source sits behind.
 *
 * A source is opened from a spec string: NAME or NAME:key=value,... (e.g.
 * "rdrand:width=32", "hwrng:device=/dev/chaoskey0", "getrandom:flags=insecure"),
 * or "file:PATH[,format=F]" and "sim:MODEL,key=value,...".  Reads return raw bytes of the
 * source's output stream; short reads are allowed.  Each backend keeps its
 * counters; none of them prints.
 */
#ifndef RNGAUDIT_SOURCE_H
#define RNGAUDIT_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "err.h"

/* What the output is, which decides what the statistics can mean. */
enum source_kind {
	SOURCE_DRBG,          /* DRBG output (RDRAND, getrandom): statistics catch gross faults only */
	SOURCE_CONDITIONED,   /* conditioned entropy-source output (RDSEED) */
	SOURCE_RAW,           /* raw noise or unknown (hwrng, file, sim) */
};

struct source_info {
	char name[32];        /* backend name: rdrand, rdseed, hwrng, getrandom, file, sim */
	char spec[256];       /* the spec as given, normalised (e.g. "rdrand:width=64") */
	char device[256];     /* device or path or model; "" if none */
	char detail[128];     /* e.g. hwrng's sysfs rng_current; "" if none */
	unsigned word_bits;   /* native word width in bits (8 for byte streams) */
	/* Wide raw samples: 0 for a byte stream sliced into K-bit samples; else
	 * each sample is one 64-bit little-endian word of the stream holding a
	 * value of this many bits (16 for a 16-bit ADC, 64 for time deltas),
	 * to be reduced by a 90B 6.4 translation (engine/widein.h). */
	unsigned sample_bits;
	enum source_kind kind;
	int simulated;        /* 1 for sim sources */
	char as[16];          /* sim as=rdrand|rdseed|hwrng: the real source it stands for; "" none */
	size_t block_hint;    /* a good read size in bytes (small for slow devices) */
};

struct source_counters {
	uint64_t calls;       /* instruction executions / syscalls */
	uint64_t words;       /* native words delivered */
	uint64_t bytes;       /* bytes delivered */
	uint64_t underflows;  /* RDRAND/RDSEED returned CF=0 */
	uint64_t retries;     /* retries after an underflow or EINTR */
	uint64_t exhausted;   /* retry budget exhausted (a read failure) */
	uint64_t zero_words;  /* words that were all zeros although CF=1 */
	uint64_t ones_words;  /* words that were all ones although CF=1 */
	uint64_t short_reads; /* reads that returned fewer bytes than asked */
};

struct source;

/* Opens the source named by spec.  Unknown names or keys, bad values, absent
 * instructions or devices are errors naming the spec and the problem. */
int source_open(struct source **out, const char *spec, struct err *e);

/* Reads up to len bytes: returns the count (> 0), 0 at end of input (files
 * and finite sims only), or a negative err code with e filled. */
ssize_t source_read(struct source *src, void *buf, size_t len, struct err *e);

const struct source_info *source_get_info(const struct source *src);
void source_get_counters(const struct source *src, struct source_counters *c);
void source_close(struct source *src);

/* One row of `rngaudit sources`: whether NAME (a real source) can be used here. */
struct source_probe {
	const char *name;     /* rdrand, rdseed, hwrng, getrandom */
	int available;
	char why[128];        /* when not available: no CPU flag, no device, no permission */
	char device[256];
	char detail[128];
	unsigned word_bits;
	enum source_kind kind;
	char what[128];       /* what the output is, when the kind says too little; "" if none */
	int other_arch;       /* a CPU RNG of another architecture (rndr on x86_64): listed by
				 `sources`, left out of the default audit */
};

/* The real sources, in a stable order; NULL-terminated. */
extern const char *const source_real_names[];
/* Room for every real source (source.c checks it). */
#define SOURCE_REAL_MAX 16
/* The ones the default audit runs here: the x86 ones, the devices, and
 * this architecture's CPU RNG (rndr and rndrrs on aarch64, darn on
 * ppc64le, trng on s390x, seed on riscv64). */
extern const char *const source_default_names[];

/* Probes one real source by name (no samples read beyond what is needed). */
int source_probe(const char *name, struct source_probe *p);

/* What SPEC names when it cannot be opened (a report's row for an
 * unavailable source): fills info's name, spec (as given), kind, word_bits
 * and device from the backend's probe (file: raw).  Returns 0 when the kind
 * is known, ERR_USAGE otherwise (unparsable spec, sim).  Reads no samples. */
int source_describe(const char *spec, struct source_info *info);

/* "DRBG output", "conditioned entropy-source output", "raw or unknown". */
const char *source_kind_describe(enum source_kind kind);
/* Short token for CSV: "drbg", "conditioned", "raw". */
const char *source_kind_token(enum source_kind kind);

#endif
