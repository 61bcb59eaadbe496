/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend.h - what each source backend provides (private to src/sources/). */
#ifndef RNGAUDIT_BACKEND_H
#define RNGAUDIT_BACKEND_H

#include "sources/source.h"
#include "sources/spec.h"

struct source {
	const struct source_backend *backend;
	struct source_info info;
	struct source_counters counters;
	void *priv;
};

struct source_backend {
	const char *name;
	/* Parses the spec's options, opens the device, fills src->info. */
	int (*open)(struct source *src, struct spec *sp, struct err *e);
	ssize_t (*read)(struct source *src, uint8_t *buf, size_t len, struct err *e);
	void (*close)(struct source *src);
	/* Availability for `rngaudit sources`; NULL for file and sim. */
	int (*probe)(struct source_probe *p);
};

/* Wide sources (source_info.sample_bits): puts n samples into buf as the
 * stream's 64-bit little-endian words, counts them; returns the bytes. */
ssize_t source_wide_put(struct source *src, uint8_t *buf, const uint64_t *v, size_t n);

extern const struct source_backend source_rdrand, source_rdseed, source_hwrng,
	source_getrandom, source_file, source_sim, source_widefile,
	source_jitter, source_chaoskey,
	/* cpurng.c: arm64, POWER, s390x, RISC-V; the sim stand-ins' read loop */
	source_rndr, source_rndrrs, source_darn, source_trng, source_seed, source_cpurng_sim;

/* cpurng_sim.c: sim:rndr, sim:rndrrs, sim:darn, sim:trng, sim:seed (1 when
 * the model is one of them, with the source opened or *rc the error). */
int cpurng_sim_open(struct source *src, struct spec *sp, int *rc, struct err *e);

#endif
