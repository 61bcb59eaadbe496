/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outpath.h - where a command's outputs go, checked before the run starts.
 *
 * DESIGN.md, "Signals and exit codes": output paths are checked before the
 * run (the directory exists and is writable, not the same file as another
 * output or as stdout unless "-"), so a run never learns after an hour of
 * collecting that it cannot write; and an output is never opened in a way
 * that blocks (a FIFO with no reader waits a bounded time).
 *
 * Stdout has many names: "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1, and
 * the name of the regular file or FIFO the shell opened on it (`> r.csv`).
 * An output that names stdout is written as "-" is (in place, the summary
 * elsewhere), so that `translate -o /dev/stdout` does not append its
 * summary to the symbols and `audit --csv r.csv > r.csv` does not rename a
 * file over the one the table goes to.
 */
#ifndef RNGAUDIT_OUTPATH_H
#define RNGAUDIT_OUTPATH_H

#include <stddef.h>

#include "err.h"

/* One output of a command: the option that names it (for messages) and the
 * path as given ("-" = stdout; NULL: not asked for, skipped). */
struct outpath {
	const char *opt;
	const char *path;
};

/* What an output may be, beyond a regular file or a new name. */
enum {
	OUTPATH_DEVICES = 1,     /* a FIFO or character device, written in place */
	OUTPATH_STDOUT = 2,      /* stdout, under any of its names */
};

/* The descriptor a name for an open descriptor means, or -1: "-" and
 * /dev/stdout are 1, /dev/stderr 2, /dev/fd/N and /proc/self/fd/N are N. */
int outpath_descriptor(const char *path);

/* 1 when path names the file open on stdout (see above). */
int outpath_is_stdout(const char *path);

/* "-" when path names stdout, else path: the name to write it by. */
const char *outpath_normal(const char *path);

/* Checks n outputs before a run: each one's directory exists and can be
 * written (a regular file is written to a temporary beside it), or it is a
 * FIFO or character device that can be opened for writing (allowed has
 * OUTPATH_DEVICES), or stdout (allowed has OUTPATH_STDOUT); never a
 * directory, socket, block device or dangling symlink; and no two outputs
 * are the same file, stdout under two names included.  ERR_USAGE with one
 * line naming the option, the path and the problem. */
int outpath_check(const struct outpath *o, size_t n, unsigned allowed, struct err *e);

/* Opens a FIFO for writing without blocking: waits for a reader at most
 * wait_ms (polling), then fails with ENXIO.  Returns 0 with *fd (blocking
 * again, close-on-exec), or an errno value. */
int outpath_open_fifo(const char *path, int wait_ms, int *fd);

/* Opens path for appending (a log): a regular file is created if missing
 * (mode 0666 less umask), a FIFO is waited for as outpath_open_fifo, a
 * character device is opened in place; nothing else.  Returns 0 with *fd,
 * or ERR_IO / ERR_USAGE with e naming path. */
int outpath_open_append(const char *path, int wait_ms, int *fd, struct err *e);

#endif
