/* SPDX-License-Identifier: GPL-3.0-or-later */
/* source.c - the source interface: spec -> backend dispatch. */
#include "config.h"

#include "sources/backend.h"
#include "sources/cpurng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct source_backend *const backends[] = {
	&source_rdrand, &source_rdseed, &source_hwrng, &source_getrandom,
	&source_file, &source_sim, &source_jitter, &source_chaoskey,
	&source_rndr, &source_rndrrs, &source_darn, &source_trng, &source_seed,
};

const char *const source_real_names[] = { "rdrand", "rdseed", "hwrng", "getrandom", "jitter",
					   "chaoskey", "rndr", "rndrrs", "darn", "trng", "seed", NULL };
_Static_assert(sizeof source_real_names / sizeof source_real_names[0] <= SOURCE_REAL_MAX + 1,
	       "SOURCE_REAL_MAX holds every real source");

/* The CPU RNGs of the other architectures join the default audit only on
 * their own (issue 27): an x86 audit has no row for rndr. */
const char *const source_default_names[] = { "rdrand", "rdseed", "hwrng", "getrandom", "jitter",
					      "chaoskey",
#if defined(__aarch64__)
					      "rndr", "rndrrs",
#elif defined(__powerpc64__)
					      "darn",
#elif defined(__s390x__)
					      "trng",
#elif defined(__riscv) && __riscv_xlen == 64
					      "seed",
#endif
					      NULL };

static const struct source_backend *backend_find(const char *name)
{
	for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

int source_open(struct source **out, const char *spec, struct err *e)
{
	struct spec sp;
	struct source *src;
	const struct source_backend *be;
	char alias[SPEC_TEXT_MAX];
	int rc;

	*out = NULL;
	rc = spec_parse(&sp, cpurng_spec_alias(spec, alias, sizeof alias), e);
	if (rc)
		return rc;
	be = backend_find(sp.name);
	if (!be)
		return err_set(e, ERR_USAGE, "unknown source '%s' (rdrand, rdseed, hwrng, getrandom, "
			       "jitter, chaoskey, rndr, rndrrs, darn, trng, seed, file:PATH, sim:MODEL)", sp.name);
	if (be == &source_file && spec_get(&sp, "format"))
		be = &source_widefile;    /* file:PATH,format=F: wide samples */
	src = calloc(1, sizeof *src);
	if (!src)
		return err_set(e, ERR_NOMEM, "out of memory");
	src->backend = be;
	snprintf(src->info.name, sizeof src->info.name, "%s", be->name);
	rc = be->open(src, &sp, e);
	if (rc) {
		if (be->close && src->priv)
			be->close(src);
		free(src);
		return rc;
	}
	*out = src;
	return 0;
}

ssize_t source_read(struct source *src, void *buf, size_t len, struct err *e)
{
	return src->backend->read(src, buf, len, e);
}

const struct source_info *source_get_info(const struct source *src)
{
	return &src->info;
}

void source_get_counters(const struct source *src, struct source_counters *c)
{
	*c = src->counters;
}

void source_close(struct source *src)
{
	if (!src)
		return;
	if (src->backend->close)
		src->backend->close(src);
	free(src);
}

int source_probe(const char *name, struct source_probe *p)
{
	const struct source_backend *be = backend_find(name);
	memset(p, 0, sizeof *p);
	p->name = name;
	if (!be || !be->probe)
		return ERR_USAGE;
	return be->probe(p);
}

int source_describe(const char *spec, struct source_info *info)
{
	const struct source_backend *be;
	struct source_probe p;
	struct spec sp;
	struct err e;
	const char *dev;
	char alias[SPEC_TEXT_MAX];

	memset(info, 0, sizeof *info);
	memset(&p, 0, sizeof p);
	if (spec_parse(&sp, cpurng_spec_alias(spec, alias, sizeof alias), &e) != 0 ||
	    !(be = backend_find(sp.name)))
		return ERR_USAGE;
	snprintf(info->name, sizeof info->name, "%s", be->name);
	snprintf(info->spec, sizeof info->spec, "%s", spec);
	if (be == &source_file) {           /* a file is raw or unknown by definition */
		info->kind = SOURCE_RAW;
		info->word_bits = 8;
		snprintf(info->device, sizeof info->device, "%s", sp.arg);
		return 0;
	}
	if (!be->probe || be->probe(&p) != 0)
		return ERR_USAGE;
	info->kind = p.kind;
	info->word_bits = p.word_bits;
	dev = spec_get(&sp, "device");
	snprintf(info->device, sizeof info->device, "%s", dev ? dev : p.device);
	return 0;
}

const char *source_kind_describe(enum source_kind kind)
{
	switch (kind) {
	case SOURCE_DRBG: return "DRBG output";
	case SOURCE_CONDITIONED: return "conditioned entropy-source output";
	default: return "raw or unknown";
	}
}

const char *source_kind_token(enum source_kind kind)
{
	switch (kind) {
	case SOURCE_DRBG: return "drbg";
	case SOURCE_CONDITIONED: return "conditioned";
	default: return "raw";
	}
}

ssize_t source_wide_put(struct source *src, uint8_t *buf, const uint64_t *v, size_t n)
{
	const unsigned word = 8;

	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < word; b++)
			buf[i * word + b] = (uint8_t)(v[i] >> (8 * b));
	src->counters.words += n;
	src->counters.bytes += n * word;
	return (ssize_t)(n * word);
}
