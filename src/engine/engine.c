/* SPDX-License-Identifier: GPL-3.0-or-later */
/* engine.c - the pull loop: source -> symbolizer -> sinks, in blocks. */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <time.h>

#include "engine/samples.h"

#define ENGINE_DEFAULT_BLOCK 65536

static double engine_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Bytes still needed for `samples` more samples, given the pending bits. */
static size_t engine_bytes_needed(const struct symbolizer *sy, uint64_t samples)
{
	uint64_t bits = samples * sy->bits;
	bits = bits > sy->nacc ? bits - sy->nacc : 0;
	return (size_t)((bits + 7) / 8);
}

static int engine_stop_requested(const struct engine_opts *o)
{
	return o->stop && *o->stop;
}

int sinks_push(struct sink *const *sinks, size_t nsinks, const struct block *b,
	       int *stopped, struct err *e)
{
	for (size_t i = 0; i < nsinks; i++) {
		int r = sinks[i]->push(sinks[i], b, e);
		if (r < 0)
			return r;
		if (r > 0)
			*stopped = 1;
	}
	return 0;
}

/* The block buffers: one, or a ring of 1 + the most any sink holds, so the
 * buffer filled next is never one a sink may still read. */
struct engine_bufs {
	unsigned n;
	uint8_t **raw, **samples;   /* samples: NULL for K = 8 (the bytes are the samples) */
};

static void engine_bufs_free(struct engine_bufs *eb)
{
	for (unsigned i = 0; i < eb->n; i++) {
		free(eb->raw ? eb->raw[i] : NULL);
		free(eb->samples ? eb->samples[i] : NULL);
	}
	free(eb->raw);
	free(eb->samples);
}

static int engine_bufs_alloc(struct engine_bufs *eb, struct sink *const *sinks, size_t nsinks,
			     size_t block, unsigned bits)
{
	unsigned held = 0;
	for (size_t i = 0; i < nsinks; i++)
		if (sinks[i]->holds > held)
			held = sinks[i]->holds;
	eb->n = held + 1;
	eb->raw = calloc(eb->n, sizeof *eb->raw);
	eb->samples = bits == 8 ? NULL : calloc(eb->n, sizeof *eb->samples);
	if (!eb->raw || (bits != 8 && !eb->samples))
		return -1;
	for (unsigned i = 0; i < eb->n; i++) {
		eb->raw[i] = malloc(block);
		if (!eb->raw[i])
			return -1;
		if (bits != 8) {
			eb->samples[i] = malloc(block * 8 + 8);   /* K = 1 yields 8 samples per byte */
			if (!eb->samples[i])
				return -1;
		}
	}
	return 0;
}

int engine_run(struct source *src, const struct engine_opts *opts,
	       struct sink *const *sinks, size_t nsinks,
	       struct engine_stats *stats, struct err *e)
{
	const struct source_info *info = source_get_info(src);
	size_t block = opts->block_bytes ? opts->block_bytes
		       : info->block_hint ? info->block_hint : ENGINE_DEFAULT_BLOCK;
	struct symbolizer sy;
	struct engine_bufs eb = { 0 };
	uint64_t total = 0, next_progress = opts->progress_every, nblocks = 0;
	double t0 = engine_now();
	int rc = 0;

	*stats = (struct engine_stats){ 0 };
	/* Slicing a wide source's 64-bit words into K-bit pieces would mix the
	 * always-zero high bytes into the samples: they go through widein. */
	if (info->sample_bits)
		return err_set(e, ERR_USAGE, "%s gives raw %u-bit samples, not a byte stream: reduce "
			       "them first (collect --format, rngaudit translate, or audit)", info->spec,
			       info->sample_bits);
	if (opts->bits < 1 || opts->bits > SAMPLES_BITS_MAX)
		return err_set(e, ERR_USAGE, "bits per sample %u: must be from 1 to 8", opts->bits);
	samples_symbolizer_init(&sy, opts->bits);
	if (engine_bufs_alloc(&eb, sinks, nsinks, block, opts->bits) != 0) {
		rc = err_set(e, ERR_NOMEM, "out of memory for a %zu-byte block", block);
		goto finish;
	}

	while (!opts->max_samples || total < opts->max_samples) {
		size_t want = block, n;
		uint8_t *raw = eb.raw[nblocks % eb.n];
		uint8_t *samples = opts->bits == 8 ? raw : eb.samples[nblocks % eb.n];
		ssize_t got;
		struct block b;

		if (engine_stop_requested(opts)) {
			stats->interrupted = 1;
			break;
		}
		if (opts->max_samples) {
			size_t need = engine_bytes_needed(&sy, opts->max_samples - total);
			if (need < want)
				want = need ? need : 1;
			/* Whole native words: a word source cannot return half a word. */
			if (info->word_bits > 8) {
				size_t wb = info->word_bits / 8;
				want = (want + wb - 1) / wb * wb;
				if (want > block)
					want = block / wb * wb;
			}
		}
		got = source_read(src, raw, want, e);
		if (got == ERR_INTERRUPTED) {   /* EINTR: a signal, or a device timeout */
			if (engine_stop_requested(opts)) {
				stats->interrupted = 1;
				break;
			}
			continue;
		}
		if (got < 0) {
			rc = (int)got;
			break;
		}
		if (got == 0) {
			stats->eof = 1;
			break;
		}
		stats->bytes += (uint64_t)got;
		/* K = 8: the bytes are the samples; skip the copy. */
		n = opts->bits == 8 ? (size_t)got : samples_symbolize(&sy, raw, (size_t)got, samples);
		if (opts->max_samples && total + n > opts->max_samples)
			n = (size_t)(opts->max_samples - total);
		b = (struct block){ raw, (size_t)got, info->word_bits, samples, n, opts->bits, total };
		nblocks++;
		rc = sinks_push(sinks, nsinks, &b, &stats->stopped_by_sink, e);
		total += n;
		if (rc)
			break;
		if (opts->progress && opts->progress_every && total >= next_progress) {
			opts->progress(opts->progress_ctx, total, stats->bytes);
			next_progress = total + opts->progress_every;
		}
		if (stats->stopped_by_sink)
			break;
	}

finish:
	stats->samples = total;
	stats->seconds = engine_now() - t0;
	for (size_t i = 0; i < nsinks; i++) {
		if (sinks[i]->finish) {
			struct err fe;
			int r = sinks[i]->finish(sinks[i], stats->interrupted, &fe);
			if (r < 0 && !rc) {
				rc = r;
				if (e)
					*e = fe;
			}
		}
	}
	/* after finish(): a sink that held blocks has let them go */
	engine_bufs_free(&eb);
	return rc;
}
