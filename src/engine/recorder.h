/* SPDX-License-Identifier: GPL-3.0-or-later */
/* recorder.h - sinks that keep the samples: a NIST-format file (one sample
 * per byte, written whole via atomicfile) or a memory buffer for the
 * estimators. */
#ifndef RNGAUDIT_RECORDER_H
#define RNGAUDIT_RECORDER_H

#include <stdint.h>

#include "atomicfile.h"
#include "engine/engine.h"

struct recorder {
	struct sink sink;
	struct atomicfile af;
	uint64_t written;      /* samples that reached the output, whole */
	int write_errno;       /* why the last write failed (EPIPE, ENOSPC), else 0 */
};

/* Opens path ("-" = stdout) for writing; nothing appears until commit. */
int recorder_open(struct recorder *r, const char *path, struct err *e);
/* Renames the complete file into place (also after an interrupt: the
 * samples written so far are whole samples). */
int recorder_commit(struct recorder *r, struct err *e);
/* Removes the temporary file. */
void recorder_abort(struct recorder *r);

struct membuf {
	struct sink sink;
	uint8_t *data;
	size_t n, cap;
	size_t limit;          /* keep at most this many samples (0 = no limit) */
};

void membuf_init(struct membuf *m, size_t limit);
void membuf_free(struct membuf *m);

#endif
