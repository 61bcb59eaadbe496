/* SPDX-License-Identifier: GPL-3.0-or-later */
/* widein.h - wide raw samples at the engine's input.
 *
 * A wide source (source_info.sample_bits != 0: file:PATH,format=F, jitter)
 * gives one 64-bit little-endian word per sample.  Its samples are read
 * whole into memory (O(N), unlike the byte engine's one block: the plan of a
 * 90B 6.4 translation depends on all of them), a translation is planned on
 * them (engine/translate.h), and the reduced 1..8-bit symbols are pushed to
 * the engine's sinks in blocks, as engine_run() would push sliced bytes.
 */
#ifndef RNGAUDIT_WIDEIN_H
#define RNGAUDIT_WIDEIN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/translate.h"
#include "err.h"
#include "sources/source.h"
#include "sources/widefmt.h"

/* The most samples widein_each passes at once. */
#define WIDEIN_BLOCK_SAMPLES 65536

/* Called with each block of samples read (at most WIDEIN_BLOCK_SAMPLES): 0 to go on, or
 * a negative ERR_* with e filled to stop. */
typedef int (*widein_block_fn)(void *ctx, const uint64_t *x, size_t n, struct err *e);

/* Streams up to max samples (0: to the end of the input) to fn a block at
 * a time, in memory of one block whatever max is (collect --format writes
 * them out as they come); *stop (may be NULL) ends the read early.  Fills
 * st's samples (those fn took), bytes, seconds, eof and interrupted.
 * Returns 0, the source's error or fn's. */
int widein_each(struct source *src, uint64_t max, volatile sig_atomic_t *stop, widein_block_fn fn,
		void *ctx, struct engine_stats *st, struct err *e);

/* Reads up to max samples (0: to the end of the input) into a malloc'd
 * array (widein_each into a growing array: O(max) memory, so callers cap
 * max); *stop (may be NULL) ends the read early, keeping what was read.
 * Fills st's samples, bytes, seconds, eof and interrupted. */
int widein_read(struct source *src, uint64_t max, volatile sig_atomic_t *stop,
		uint64_t **x, size_t *n, struct engine_stats *st, struct err *e);

/* Translates x[0..n-1] by map and pushes the symbols to the sinks in
 * blocks, then calls their finish(); the first error is returned. */
int widein_push(const struct translate_map *map, const uint64_t *x, size_t n,
		struct sink *const *sinks, size_t nsinks, int interrupted, struct err *e);

/* A file of wide samples in format f ("-" = stdin), at most max of them
 * (0: all; *more, which may be NULL, says whether there were more), reduced
 * by method: the symbols (NIST format) in a malloc'd array and the map
 * made for them.  Errors name path. */
int widein_translate_file(const char *path, enum widefmt f, size_t max, int *more,
			  const struct translate_method *m, uint8_t **sym, size_t *n,
			  struct translate_map *map, struct err *e);

#endif
