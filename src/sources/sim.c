/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sim.c - deterministic simulated sources for tests and demonstrations.
 *
 *   sim:ideal                      uniform symbols
 *   sim:biased,p=P[,value=V]       symbol V (default 0) with probability P,
 *                                  otherwise uniform over the other symbols
 *   sim:stuck,after=N[,value=V]    uniform for N symbols, then V forever
 *   sim:markov,p=P                 next = previous + 1 (mod 2^K) with
 *                                  probability P, otherwise uniform
 *   sim:amd-rdrand-ffffffff        64-bit words all ones (AMD family 15h/16h
 *                                  RDRAND after suspend/resume)
 *   sim:rdseed-zero,p=P            32-bit words, a fraction P zero "with CF=1"
 *                                  (AMD Zen 5 RDSEED)
 *   sim:repeat-words,p=P           64-bit words, each repeating the previous
 *                                  one with probability P (a Ryzen BIOS bug)
 *   sim:rndr, sim:rndrrs, sim:darn, the CPU RNG instructions of arm64, POWER,
 *   sim:trng, sim:seed             s390x and RISC-V with their failure
 *                                  modes (cpurng_sim.c)
 *
 * Every model takes seed=S (default 1).  Symbol models take bits=K (1..8,
 * default 8): they emit K-bit symbols packed most-significant bit first, so
 * `collect --bits K` gets exactly the modelled symbols back.
 */
#include "config.h"

#include "sources/backend.h"
#include "sources/cpurng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum sim_model {
	SIM_IDEAL, SIM_BIASED, SIM_STUCK, SIM_MARKOV,
	SIM_AMD_RDRAND_FFFFFFFF, SIM_RDSEED_ZERO, SIM_REPEAT_WORDS,
};

static const struct {
	const char *name;
	enum sim_model model;
	unsigned word_bits;       /* 0: a symbol model */
	enum source_kind kind;
} sim_models[] = {
	{ "ideal", SIM_IDEAL, 0, SOURCE_RAW },
	{ "biased", SIM_BIASED, 0, SOURCE_RAW },
	{ "stuck", SIM_STUCK, 0, SOURCE_RAW },
	{ "markov", SIM_MARKOV, 0, SOURCE_RAW },
	{ "amd-rdrand-ffffffff", SIM_AMD_RDRAND_FFFFFFFF, 64, SOURCE_DRBG },
	{ "rdseed-zero", SIM_RDSEED_ZERO, 32, SOURCE_CONDITIONED },
	{ "repeat-words", SIM_REPEAT_WORDS, 64, SOURCE_DRBG },
};

struct sim {
	enum sim_model model;
	uint64_t s[4];            /* xoshiro256** state */
	unsigned bits;            /* symbol width */
	uint64_t threshold;       /* P as a 64-bit threshold: event iff next() < threshold */
	int always;               /* P == 1 */
	uint64_t after;           /* stuck: symbols before sticking */
	unsigned value;           /* biased/stuck: the symbol */
	uint64_t produced;        /* symbols produced */
	unsigned prev;            /* markov: previous symbol */
	uint64_t prev_word;       /* repeat-words */
	int have_prev_word;
	uint32_t acc;             /* packing: pending bits */
	unsigned nacc;
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman & Vigna): fast, and well enough distributed that
 * the ideal model passes the estimators. */
static uint64_t sim_next(struct sim *m)
{
	uint64_t *s = m->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static int sim_event(struct sim *m)
{
	return m->always || sim_next(m) < m->threshold;
}

/* Uniform integer in [0, n), n <= 256: the top bits times n (bias < 2^-56). */
static unsigned sim_uniform(struct sim *m, unsigned n)
{
	return (unsigned)(((sim_next(m) >> 32) * (uint64_t)n) >> 32);
}

static unsigned sim_symbol(struct sim *m)
{
	unsigned k = 1u << m->bits, v;
	switch (m->model) {
	case SIM_BIASED:
		if (sim_event(m))
			return m->value;
		v = sim_uniform(m, k - 1);
		return v >= m->value ? v + 1 : v;
	case SIM_STUCK:
		if (m->produced >= m->after)
			return m->value;
		return sim_uniform(m, k);
	case SIM_MARKOV:
		v = sim_event(m) ? (m->prev + 1) & (k - 1) : sim_uniform(m, k);
		m->prev = v;
		return v;
	default:
		return sim_uniform(m, k);
	}
}

static ssize_t sim_read_words(struct source *src, struct sim *m, uint8_t *buf, size_t len)
{
	unsigned wbytes = src->info.word_bits / 8;
	size_t n = len / wbytes * wbytes;
	uint64_t all = src->info.word_bits == 64 ? ~0ULL : (1ULL << src->info.word_bits) - 1;
	struct source_counters *c = &src->counters;

	for (size_t i = 0; i < n; i += wbytes) {
		uint64_t w;
		switch (m->model) {
		case SIM_AMD_RDRAND_FFFFFFFF:
			w = all;
			break;
		case SIM_RDSEED_ZERO:
			w = sim_event(m) ? 0 : sim_next(m) & all;
			break;
		default:   /* SIM_REPEAT_WORDS */
			w = m->have_prev_word && sim_event(m) ? m->prev_word : sim_next(m);
			m->prev_word = w;
			m->have_prev_word = 1;
			break;
		}
		memcpy(buf + i, &w, wbytes);
		c->calls++;
		c->words++;
		c->zero_words += w == 0;
		c->ones_words += w == all;
	}
	c->bytes += n;
	return (ssize_t)n;
}

static ssize_t sim_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct sim *m = src->priv;
	size_t o = 0;

	(void)e;
	if (src->info.word_bits > 8) {
		if (len < src->info.word_bits / 8)
			return err_set(e, ERR_USAGE, "sim: read of %zu bytes is shorter than a word", len);
		return sim_read_words(src, m, buf, len);
	}
	if (m->model == SIM_IDEAL && m->bits == 8) {
		for (; o + 8 <= len; o += 8) {
			uint64_t w = sim_next(m);
			memcpy(buf + o, &w, 8);
		}
		for (; o < len; o++)
			buf[o] = (uint8_t)sim_uniform(m, 256);
		m->produced += len;
	} else {
		while (o < len) {
			m->acc = (m->acc << m->bits) | sim_symbol(m);
			m->nacc += m->bits;
			m->produced++;
			while (m->nacc >= 8 && o < len) {
				m->nacc -= 8;
				buf[o++] = (uint8_t)(m->acc >> m->nacc);
			}
			m->acc &= (1u << m->nacc) - 1;
		}
	}
	src->counters.calls++;
	src->counters.bytes += len;
	src->counters.words += len;
	return (ssize_t)len;
}

static int sim_open(struct source *src, struct spec *sp, struct err *e)
{
	struct sim *m;
	unsigned long long seed = 1, bits = 8, after = 0, value = 0;
	uint64_t state;
	double p = -1;
	size_t i, nmodels = sizeof sim_models / sizeof sim_models[0];
	int rc;

	if (cpurng_sim_open(src, sp, &rc, e))
		return rc;
	for (i = 0; i < nmodels; i++)
		if (strcmp(sp->arg, sim_models[i].name) == 0)
			break;
	if (i == nmodels)
		return err_set(e, ERR_USAGE, "source '%s': unknown sim model '%s' (ideal, biased, stuck, "
			       "markov, amd-rdrand-ffffffff, rdseed-zero, repeat-words, rndr, rndrrs, darn, trng, seed)", sp->text, sp->arg);
	m = calloc(1, sizeof *m);
	if (!m)
		return err_set(e, ERR_NOMEM, "sim: out of memory");
	src->priv = m;
	m->model = sim_models[i].model;
	if ((rc = spec_get_u64(sp, "seed", 0, ~0ULL, &seed, e)))
		return rc;
	if (sim_models[i].word_bits == 0 &&
	    (rc = spec_get_u64(sp, "bits", 1, 8, &bits, e)))
		return rc;
	m->bits = (unsigned)bits;
	if (m->model == SIM_BIASED || m->model == SIM_MARKOV || m->model == SIM_RDSEED_ZERO ||
	    m->model == SIM_REPEAT_WORDS) {
		if ((rc = spec_get_prob(sp, "p", &p, e)))
			return rc;
		if (p < 0)
			return err_set(e, ERR_USAGE, "source '%s': sim:%s needs p=P", sp->text, sp->arg);
	}
	if (m->model == SIM_STUCK) {
		if (!spec_get(sp, "after"))
			return err_set(e, ERR_USAGE, "source '%s': sim:stuck needs after=N", sp->text);
		if ((rc = spec_get_u64(sp, "after", 0, ~0ULL, &after, e)))
			return rc;
	}
	if (m->model == SIM_BIASED || m->model == SIM_STUCK) {
		if ((rc = spec_get_u64(sp, "value", 0, (1ULL << bits) - 1, &value, e)))
			return rc;
	}
	/* as=: a sim source standing in for a real one in the kernel-trust
	 * decision (tests and demonstrations); still marked simulated. */
	{
		const char *as = spec_get(sp, "as");
		if (as && !cpurng_as_valid(as))
			return err_set(e, ERR_USAGE, "source '%s': as=%.40s is not " CPURNG_AS_NAMES, sp->text, as);
		snprintf(src->info.as, sizeof src->info.as, "%s", as ? as : "");
	}
	if ((rc = spec_check_unused(sp, e)))
		return rc;

	state = seed;
	for (int k = 0; k < 4; k++)
		m->s[k] = splitmix64(&state);
	m->always = p >= 1.0;
	m->threshold = p <= 0 ? 0 : m->always ? ~0ULL : (uint64_t)ldexp(p, 64);
	m->after = after;
	m->value = (unsigned)value;

	snprintf(src->info.spec, sizeof src->info.spec, "%s", sp->text);
	snprintf(src->info.device, sizeof src->info.device, "sim:%.250s", sp->arg);
	src->info.word_bits = sim_models[i].word_bits ? sim_models[i].word_bits : 8;
	src->info.kind = sim_models[i].kind;
	src->info.simulated = 1;
	src->info.block_hint = 65536;
	return 0;
}

static void sim_close(struct source *src)
{
	free(src->priv);
}

const struct source_backend source_sim = {
	"sim", sim_open, sim_read, sim_close, NULL,
};
