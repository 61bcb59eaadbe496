/* SPDX-License-Identifier: GPL-3.0-or-later */
/* engine.h - the pull loop: source -> symbolizer -> sinks.
 *
 * The engine reads blocks of bytes from a source, slices them into K-bit
 * samples and pushes each block, in order, to every sink.  It stops after N
 * samples, at the end of the input, on an error, or when *stop becomes
 * non-zero (a signal handler sets it).  Memory is one block (a few when a
 * sink holds blocks past push()): constant in N.
 * Data flows one way: sinks never call back into the engine or the source.
 */
#ifndef RNGAUDIT_ENGINE_H
#define RNGAUDIT_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "sources/source.h"

/* One block as the sinks see it. */
struct block {
	const uint8_t *raw;        /* the source bytes this block came from */
	size_t raw_len;
	unsigned word_bits;        /* the source's native word width */
	const uint8_t *samples;    /* K-bit samples, one per byte */
	size_t n;                  /* number of samples */
	unsigned bits;             /* K */
	uint64_t first_index;      /* index of samples[0] in the whole run */
};

struct sink {
	const char *name;
	/* Consumes one block; returns 0 to go on, a positive value to ask the
	 * engine to stop cleanly (e.g. --stop-on-failure), or a negative err code. */
	int (*push)(struct sink *sk, const struct block *b, struct err *e);
	/* Called once at the end (also after an interrupt); may be NULL. */
	int (*finish)(struct sink *sk, int interrupted, struct err *e);
	void *ctx;
	/* How many of the latest blocks this sink may still read after push()
	 * returned (an asyncsink's queue), 0 when it is done with a block by
	 * then.  engine_run() keeps that many more block buffers and fills none
	 * a sink still holds, so such a sink reads the blocks in place instead
	 * of copying them.  Only engine_run() honours it. */
	unsigned holds;
};

/* Pushes one block to each sink in order, as the engine does: a sink's
 * stop request (> 0) sets *stopped and the others still get the block; the
 * first error (< 0) ends the round and is returned.  Returns 0 or an error. */
int sinks_push(struct sink *const *sinks, size_t nsinks, const struct block *b,
	       int *stopped, struct err *e);

struct engine_opts {
	uint64_t max_samples;      /* stop after this many samples; 0 = no limit */
	unsigned bits;             /* K, 1..8 */
	size_t block_bytes;        /* read size; 0 = default (64 KiB, less for slow sources) */
	volatile sig_atomic_t *stop;   /* set non-zero to stop; may be NULL */
	/* Called about every progress_every samples (0: never); may be NULL. */
	void (*progress)(void *ctx, uint64_t samples, uint64_t bytes);
	void *progress_ctx;
	uint64_t progress_every;
};

struct engine_stats {
	uint64_t samples;          /* samples pushed to the sinks */
	uint64_t bytes;            /* bytes read from the source */
	double seconds;            /* wall time of the loop */
	int interrupted;           /* stopped by *stop */
	int stopped_by_sink;       /* a sink asked to stop */
	int eof;                   /* the source ended before max_samples */
};

/* Runs the loop.  Sinks' finish() are called even on error or interrupt.
 * Returns 0, or the first error (source, sink or allocation). */
int engine_run(struct source *src, const struct engine_opts *opts,
	       struct sink *const *sinks, size_t nsinks,
	       struct engine_stats *stats, struct err *e);

#endif
