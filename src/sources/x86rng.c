/* SPDX-License-Identifier: GPL-3.0-or-later */
/* x86rng.c - RDRAND and RDSEED: CPUID detection at run time, 16/32/64-bit
 * widths, Intel's retry rules, every CF=0 counted.
 *
 * The instructions are compiled with target attributes, so the binary runs
 * on CPUs without them and reports them unavailable (CPUID leaf 1 ECX bit 30
 * for RDRAND, leaf 7 subleaf 0 EBX bit 18 for RDSEED).
 */
#include "config.h"

#include "sources/backend.h"
#include "sources/x86rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define X86RNG_SUPPORTED 1
#else
#define X86RNG_SUPPORTED 0
#endif

/* Intel DRNG Software Implementation Guide: RDRAND may underflow
 * transiently; 10 consecutive failures mean the DRNG is broken. */
#define RDRAND_RETRIES 10
/* RDSEED has no guaranteed bound: it underflows under load (other cores or
 * guests draw from the same ENRNG).  Retry after PAUSE up to this many times
 * before calling the source exhausted. */
#define RDSEED_RETRIES 100000

struct x86rng {
	int seed;            /* 1: RDSEED, 0: RDRAND */
	unsigned width;      /* 16, 32, 64 */
	uint8_t pending[8];  /* bytes of a word not yet returned */
	unsigned npending, pending_off;
};

#if X86RNG_SUPPORTED
int x86rng_have_rdrand(void)
{
	unsigned a, b, c, d;
	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_RDRND);
}

int x86rng_have_rdseed(void)
{
	unsigned a, b, c, d;
	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return (b & bit_RDSEED) != 0;
}

/* One attempt each; return CF (1 = valid).  On CF=0 the value is zeroed. */
__attribute__((target("rdrnd"))) static inline int rdrand_step(unsigned width, uint64_t *v)
{
	int ok;
	if (width == 64) {
		unsigned long long x;
		ok = _rdrand64_step(&x);
		*v = x;
	} else if (width == 32) {
		unsigned x;
		ok = _rdrand32_step(&x);
		*v = x;
	} else {
		unsigned short x;
		ok = _rdrand16_step(&x);
		*v = x;
	}
	return ok;
}

__attribute__((target("rdseed"))) static inline int rdseed_step(unsigned width, uint64_t *v)
{
	int ok;
	if (width == 64) {
		unsigned long long x;
		ok = _rdseed64_step(&x);
		*v = x;
	} else if (width == 32) {
		unsigned x;
		ok = _rdseed32_step(&x);
		*v = x;
	} else {
		unsigned short x;
		ok = _rdseed16_step(&x);
		*v = x;
	}
	return ok;
}

/* The hot loop for RDRAND64: a plain loop, counters kept in registers. */
__attribute__((target("rdrnd")))
static size_t rdrand64_fill(struct source *src, uint8_t *buf, size_t nwords, struct err *e)
{
	struct source_counters *c = &src->counters;
	uint64_t zeros = 0, ones = 0, under = 0, calls = 0;
	size_t i;
	for (i = 0; i < nwords; i++) {
		unsigned long long x;
		int tries = 0;
		while (!_rdrand64_step(&x)) {
			under++;
			if (++tries == RDRAND_RETRIES)
				goto exhausted;
		}
		calls += (uint64_t)tries + 1;
		zeros += x == 0;
		ones += x == ~0ULL;
		memcpy(buf + 8 * i, &x, 8);
	}
	c->calls += calls;
	c->underflows += under;
	c->retries += under;
	c->zero_words += zeros;
	c->ones_words += ones;
	return i;
exhausted:
	c->calls += calls + RDRAND_RETRIES;
	c->underflows += under;
	c->retries += under;
	c->zero_words += zeros;
	c->ones_words += ones;
	c->exhausted++;
	err_set(e, ERR_SOURCE, "%s: %d consecutive RDRAND underflows (CF=0): the DRNG is failing",
		src->info.spec, RDRAND_RETRIES);
	return i;
}

/* One word with the retry rules; returns 0 or an error. */
static int x86rng_word(struct source *src, struct x86rng *x, uint64_t *v, struct err *e)
{
	struct source_counters *c = &src->counters;
	uint64_t all = x->width == 64 ? ~0ULL : (1ULL << x->width) - 1;
	unsigned limit = x->seed ? RDSEED_RETRIES : RDRAND_RETRIES;
	for (unsigned t = 0; t < limit; t++) {
		int ok = x->seed ? rdseed_step(x->width, v) : rdrand_step(x->width, v);
		c->calls++;
		if (ok) {
			c->words++;
			c->zero_words += *v == 0;
			c->ones_words += *v == all;
			return 0;
		}
		c->underflows++;
		c->retries++;
		if (x->seed)
			_mm_pause();
	}
	c->exhausted++;
	return err_set(e, ERR_SOURCE, "%s: %u consecutive underflows (CF=0): the %s is %s",
		       src->info.spec, limit, x->seed ? "entropy source" : "DRNG",
		       x->seed ? "starved" : "failing");
}

#else
int x86rng_have_rdrand(void) { return 0; }
int x86rng_have_rdseed(void) { return 0; }
#endif

static ssize_t x86rng_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
#if X86RNG_SUPPORTED
	struct x86rng *x = src->priv;
	size_t wbytes = x->width / 8, done = 0;

	if (x->npending) {   /* leftover bytes of the last word first */
		size_t n = x->npending < len ? x->npending : len;
		memcpy(buf, x->pending + x->pending_off, n);
		x->npending -= (unsigned)n;
		x->pending_off += (unsigned)n;
		done = n;
	}
	if (!x->seed && x->width == 64 && len - done >= 8) {
		size_t nw = (len - done) / 8, got;
		e->code = 0;
		got = rdrand64_fill(src, buf + done, nw, e);
		src->counters.words += got;
		done += got * 8;
		if (got < nw)
			return done ? (ssize_t)done : e->code;
	}
	while (done + wbytes <= len) {
		uint64_t v;
		int rc = x86rng_word(src, x, &v, e);
		if (rc)
			return done ? (ssize_t)done : rc;
		memcpy(buf + done, &v, wbytes);   /* little-endian, as the CPU stores it */
		done += wbytes;
	}
	if (done < len) {    /* a partial word: keep the rest for the next read */
		uint64_t v;
		int rc = x86rng_word(src, x, &v, e);
		if (rc)
			return done ? (ssize_t)done : rc;
		memcpy(x->pending, &v, wbytes);
		x->pending_off = (unsigned)(len - done);
		x->npending = (unsigned)(wbytes - (len - done));
		memcpy(buf + done, x->pending, len - done);
		done = len;
	}
	src->counters.bytes += done;
	return (ssize_t)done;
#else
	(void)src; (void)buf; (void)len;
	return err_set(e, ERR_UNAVAILABLE, "RDRAND/RDSEED need an x86 CPU");
#endif
}

static int x86rng_open(struct source *src, struct spec *sp, int seed, struct err *e)
{
	unsigned long long width = 64;
	struct x86rng *x;
	int rc;

	rc = spec_get_u64(sp, "width", 16, 64, &width, e);
	if (rc)
		return rc;
	if (width != 16 && width != 32 && width != 64)
		return err_set(e, ERR_USAGE, "source '%s': width=%llu: must be 16, 32 or 64",
			       sp->text, width);
	rc = spec_check_unused(sp, e);
	if (rc)
		return rc;
#if X86RNG_SUPPORTED
	if (seed ? !x86rng_have_rdseed() : !x86rng_have_rdrand())
		return err_set(e, ERR_UNAVAILABLE, "%s: this CPU has no %s instruction (CPUID flag absent)",
			       sp->name, seed ? "RDSEED" : "RDRAND");
#else
	return err_set(e, ERR_UNAVAILABLE, "%s: not an x86 CPU", sp->name);
#endif
	x = calloc(1, sizeof *x);
	if (!x)
		return err_set(e, ERR_NOMEM, "%s: out of memory", sp->name);
	x->seed = seed;
	x->width = (unsigned)width;
	src->priv = x;
	snprintf(src->info.spec, sizeof src->info.spec, "%s:width=%u", sp->name, x->width);
	snprintf(src->info.device, sizeof src->info.device, "cpu");
	src->info.word_bits = x->width;
	src->info.kind = seed ? SOURCE_CONDITIONED : SOURCE_DRBG;
	src->info.block_hint = seed ? 16384 : 65536;
	return 0;
}

static int rdrand_open(struct source *src, struct spec *sp, struct err *e)
{
	return x86rng_open(src, sp, 0, e);
}

static int rdseed_open(struct source *src, struct spec *sp, struct err *e)
{
	return x86rng_open(src, sp, 1, e);
}

static void x86rng_close(struct source *src)
{
	free(src->priv);
}

static int x86rng_probe(struct source_probe *p, int seed)
{
	p->word_bits = 64;
	p->kind = seed ? SOURCE_CONDITIONED : SOURCE_DRBG;
	snprintf(p->device, sizeof p->device, "cpu");
#if X86RNG_SUPPORTED
	p->available = seed ? x86rng_have_rdseed() : x86rng_have_rdrand();
	if (!p->available)
		snprintf(p->why, sizeof p->why, "no CPU flag (CPUID reports no %s)",
			 seed ? "RDSEED" : "RDRAND");
#else
	p->available = 0;
	snprintf(p->why, sizeof p->why, "not an x86 CPU");
#endif
	return 0;
}

static int rdrand_probe(struct source_probe *p)
{
	return x86rng_probe(p, 0);
}

static int rdseed_probe(struct source_probe *p)
{
	return x86rng_probe(p, 1);
}

const struct source_backend source_rdrand = {
	"rdrand", rdrand_open, x86rng_read, x86rng_close, rdrand_probe,
};
const struct source_backend source_rdseed = {
	"rdseed", rdseed_open, x86rng_read, x86rng_close, rdseed_probe,
};
