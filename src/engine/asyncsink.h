/* SPDX-License-Identifier: GPL-3.0-or-later */
/* asyncsink.h - run sinks on their own thread, so a fast source (RDRAND)
 * and costly sinks (the output's writes, health tests with word checks)
 * use both cores.
 * push() queues the block itself, not a copy, and returns: the sink holds
 * (struct sink.holds) the last ASYNCSINK_SLOTS blocks, and engine_run()
 * fills no buffer still held.  The worker thread feeds the inner sinks in
 * order, each block to each sink as the engine would.  A stop request or
 * error from an inner sink is returned by the next push() (or by finish()). */
#ifndef RNGAUDIT_ASYNCSINK_H
#define RNGAUDIT_ASYNCSINK_H

#include "engine/engine.h"

/* Blocks queued at most; 16 blocks of RDRAND's 64 KiB are 1 MiB. */
#define ASYNCSINK_SLOTS 16

struct asyncsink;

/* Wraps the n inner sinks (they must hold nothing themselves); the
 * returned sink (asyncsink_sink) is what the engine gets. */
int asyncsink_new(struct asyncsink **out, struct sink *const *inner, size_t n, struct err *e);
struct sink *asyncsink_sink(struct asyncsink *a);
void asyncsink_free(struct asyncsink *a);

#endif
