/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jitter.c - CPU execution-time jitter as raw noise: jitter[:mem=BYTES,
 * loops=N,timer=auto|tsc|clock].
 *
 * Each sample is the time one fixed memory-access loop takes: `loops`
 * read-modify-writes of single bytes of a `mem`-byte block, each one cache
 * line on from the last.  The work never changes, so the variation of its
 * duration (cache and TLB state, interrupts, frequency steps, the other
 * hyperthread, the hypervisor) is the noise.  This follows the raw-noise
 * recording of Stephan Mueller's jitterentropy-library (the memory access
 * loop, jent_memaccess_deterministic in src/jitterentropy-noise.c, recorded
 * as 64-bit deltas by tests/raw-entropy/recording_userspace/
 * jitterentropy-hashtime.c with --memaccess), written here anew: no hash
 * loop, no health tests, no conditioning, only the deltas.
 *
 * The clock is RDTSC where the TSC is invariant (CPUID 0x80000007 EDX bit
 * 8: constant rate in every P-, C- and T-state), fenced so that the loop
 * cannot move across it; else clock_gettime(CLOCK_MONOTONIC_RAW) in ns.
 * Samples are 64-bit words (sample_bits 64): raw noise to be reduced by a
 * 90B 6.4 translation before the estimators (engine/widein.h).
 */
#include "config.h"

#include "sources/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(HAVE_CPUID_H) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#include <x86intrin.h>
#define JITTER_HAVE_TSC 1
#else
#define JITTER_HAVE_TSC 0
#endif

/* The memory loop: 128 accesses per sample as jitterentropy's default
 * (JENT_MEMORY_ACCESSLOOPS), each a step of one 64-byte cache line less one
 * byte on (JENT_MEMORY_BLOCKSIZE - 1), so that successive accesses land in
 * new lines and the walk, wrapping, reaches every byte.  The block is 32 MiB,
 * past the L2 and a core's share of L3, so lines and TLB entries come from
 * further out now and then: on this project's VM (Zen 5) a 64 KiB block
 * gave 0.4 bits per sample by the select:8 estimate, 8 MiB 1.0, 32 MiB 1.9,
 * 64 MiB 3.3 (scripts/bench-jitter.sh measures the rate and the figure). */
#define JITTER_LOOPS_DEFAULT 128u
#define JITTER_MEM_DEFAULT (32u << 20)
#define JITTER_MEM_MIN 64u
#define JITTER_MEM_MAX (1u << 30)
#define JITTER_LOOPS_MAX (1u << 24)
#define JITTER_STEP 63u
#define JITTER_WORD 8                 /* bytes per sample in the stream */
#define JITTER_CHUNK 4096            /* samples per read */
#define JITTER_BLOCK (JITTER_CHUNK * JITTER_WORD)

#define JITTER_CPUID_POWER 0x80000007u  /* advanced power management leaf */
#define JITTER_INVARIANT_TSC (1u << 8)  /* its EDX bit 8 */

enum jitter_timer { JITTER_TIMER_TSC, JITTER_TIMER_CLOCK };

struct jitter {
	volatile uint8_t *mem;
	size_t size, at;
	unsigned loops;
	enum jitter_timer timer;
};

static int jitter_tsc_invariant(void)
{
#if JITTER_HAVE_TSC
	unsigned a, b, c, d;

	if (__get_cpuid_max(0x80000000u, NULL) < JITTER_CPUID_POWER)
		return 0;
	__cpuid(JITTER_CPUID_POWER, a, b, c, d);
	(void)a; (void)b; (void)c;
	return (d & JITTER_INVARIANT_TSC) != 0;
#else
	return 0;
#endif
}

static const char *jitter_timer_name(enum jitter_timer t)
{
	return t == JITTER_TIMER_TSC ? "RDTSC (invariant TSC)" : "CLOCK_MONOTONIC_RAW (ns)";
}

static inline uint64_t jitter_now(enum jitter_timer t)
{
	struct timespec ts;

#if JITTER_HAVE_TSC
	if (t == JITTER_TIMER_TSC) {
		uint64_t v;
		_mm_lfence();             /* earlier loads are done before the read */
		v = __rdtsc();
		_mm_lfence();             /* and later ones do not start before it */
		return v;
	}
#endif
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One sample: the duration of the memory-access loop. */
static uint64_t jitter_sample(struct jitter *j)
{
	size_t at = j->at;
	uint64_t t0 = jitter_now(j->timer), t1;

	for (unsigned i = 0; i < j->loops; i++) {
		j->mem[at] = (uint8_t)(j->mem[at] + 1);
		at += JITTER_STEP;
		if (at >= j->size)
			at -= j->size;
	}
	t1 = jitter_now(j->timer);
	j->at = at;
	return t1 - t0;
}

static int jitter_open(struct source *src, struct spec *sp, struct err *e)
{
	unsigned long long mem = JITTER_MEM_DEFAULT, loops = JITTER_LOOPS_DEFAULT;
	const char *timer = spec_get(sp, "timer");
	struct jitter *j;
	int rc;

	if ((rc = spec_get_u64(sp, "mem", JITTER_MEM_MIN, JITTER_MEM_MAX, &mem, e)) != 0 ||
	    (rc = spec_get_u64(sp, "loops", 1, JITTER_LOOPS_MAX, &loops, e)) != 0)
		return rc;
	j = calloc(1, sizeof *j);
	if (!j)
		return err_set(e, ERR_NOMEM, "source '%s': out of memory", sp->text);
	src->priv = j;
	if (!timer || strcmp(timer, "auto") == 0)
		j->timer = jitter_tsc_invariant() ? JITTER_TIMER_TSC : JITTER_TIMER_CLOCK;
	else if (strcmp(timer, "clock") == 0)
		j->timer = JITTER_TIMER_CLOCK;
	else if (strcmp(timer, "tsc") == 0 && JITTER_HAVE_TSC)
		j->timer = JITTER_TIMER_TSC;
	else
		return err_set(e, ERR_USAGE, "source '%s': timer=%s: must be auto, tsc (x86) or clock",
			       sp->text, timer);
	if ((rc = spec_check_unused(sp, e)) != 0)
		return rc;
	j->size = (size_t)mem;
	j->loops = (unsigned)loops;
	j->mem = malloc(j->size);
	if (!j->mem)
		return err_set(e, ERR_NOMEM, "source '%s': out of memory for %zu bytes", sp->text, j->size);
	/* Touch every page now: else the first pass of the walk times page
	 * faults (deltas ten to a hundred times the rest), not the loop. */
	memset((void *)j->mem, 1, j->size);
	snprintf(src->info.spec, sizeof src->info.spec, "jitter:mem=%zu,loops=%u,timer=%s", j->size,
		 j->loops, j->timer == JITTER_TIMER_TSC ? "tsc" : "clock");
	snprintf(src->info.device, sizeof src->info.device, "cpu");
	snprintf(src->info.detail, sizeof src->info.detail, "%s", jitter_timer_name(j->timer));
	src->info.word_bits = JITTER_WORD * 8;
	src->info.sample_bits = JITTER_WORD * 8;
	src->info.kind = SOURCE_RAW;
	src->info.block_hint = JITTER_BLOCK;
	return 0;
}

static ssize_t jitter_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct jitter *j = src->priv;
	size_t n = len / JITTER_WORD;
	uint64_t d[JITTER_CHUNK];

	if (n == 0)
		return err_set(e, ERR_USAGE, "jitter: a read needs room for one 8-byte sample");
	if (n > JITTER_CHUNK)
		n = JITTER_CHUNK;
	for (size_t i = 0; i < n; i++)
		d[i] = jitter_sample(j);
	src->counters.calls += n;
	return source_wide_put(src, buf, d, n);
}

static void jitter_close(struct source *src)
{
	struct jitter *j = src->priv;

	if (j) {
		free((void *)j->mem);
		free(j);
	}
}

static int jitter_probe(struct source_probe *p)
{
	enum jitter_timer t = jitter_tsc_invariant() ? JITTER_TIMER_TSC : JITTER_TIMER_CLOCK;

	p->available = 1;
	snprintf(p->device, sizeof p->device, "cpu");
	snprintf(p->detail, sizeof p->detail, "%s", jitter_timer_name(t));
	snprintf(p->what, sizeof p->what, "raw noise: memory-loop execution-time deltas, timer %s",
		 jitter_timer_name(t));
	p->word_bits = JITTER_WORD * 8;
	p->kind = SOURCE_RAW;
	return 0;
}

const struct source_backend source_jitter = {
	"jitter", jitter_open, jitter_read, jitter_close, jitter_probe,
};
