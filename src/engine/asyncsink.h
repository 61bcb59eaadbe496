/* SPDX-License-Identifier: GPL-3.0-or-later */
/* asyncsink.h - run a sink on its own thread, so a fast source (RDRAND)
 * and a costly sink (health tests with word checks) use both cores.
 * push() copies the block into a small ring and returns; the worker thread
 * feeds the inner sink in order.  A stop request or error from the inner
 * sink is returned by the next push() (or by finish()). */
#ifndef RNGAUDIT_ASYNCSINK_H
#define RNGAUDIT_ASYNCSINK_H

#include "engine/engine.h"

struct asyncsink;

/* Wraps inner; the returned sink (asyncsink_sink) is what the engine gets. */
int asyncsink_new(struct asyncsink **out, struct sink *inner, struct err *e);
struct sink *asyncsink_sink(struct asyncsink *a);
void asyncsink_free(struct asyncsink *a);

#endif
