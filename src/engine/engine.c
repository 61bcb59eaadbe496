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

int engine_run(struct source *src, const struct engine_opts *opts,
	       struct sink *const *sinks, size_t nsinks,
	       struct engine_stats *stats, struct err *e)
{
	const struct source_info *info = source_get_info(src);
	size_t block = opts->block_bytes ? opts->block_bytes
		       : info->block_hint ? info->block_hint : ENGINE_DEFAULT_BLOCK;
	struct symbolizer sy;
	uint8_t *raw = NULL, *samples = NULL;
	uint64_t total = 0, next_progress = opts->progress_every;
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
	raw = malloc(block);
	samples = malloc(block * 8 + 8);   /* K = 1 yields 8 samples per byte */
	if (!raw || !samples) {
		rc = err_set(e, ERR_NOMEM, "out of memory for a %zu-byte block", block);
		goto finish;
	}

	while (!opts->max_samples || total < opts->max_samples) {
		size_t want = block, n;
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
		b = (struct block){ raw, (size_t)got, info->word_bits, opts->bits == 8 ? raw : samples,
				    n, opts->bits, total };
		for (size_t i = 0; i < nsinks; i++) {
			int r = sinks[i]->push(sinks[i], &b, e);
			if (r < 0) {
				rc = r;
				goto counted;
			}
			if (r > 0)
				stats->stopped_by_sink = 1;
		}
counted:
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
	free(raw);
	free(samples);
	return rc;
}
