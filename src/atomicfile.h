/* SPDX-License-Identifier: GPL-3.0-or-later */
/* atomicfile.h - write a file whole or not at all, and never replace a
 * special file.
 *
 * What a path names decides how it is written:
 * - a regular file, or nothing yet: a temporary next to it (same file
 *   system), which atomicfile_commit() flushes, syncs and renames over it;
 *   atomicfile_abort() removes it, so a reader never sees half a file;
 * - stdout ("-", "/dev/stdout", "/dev/fd/N", "/proc/self/fd/N"), a
 *   character device or a FIFO: written in place, nothing renamed (renaming
 *   over /dev/null would replace the device node with a regular file);
 * - a symlink: followed to its target, which is then treated as above, so
 *   the link stays and the file it names is replaced; a dangling symlink,
 *   a block device, a socket or a directory is refused with one line.
 *
 * Temporaries are named ".NAME.rngaudit-tmp.XXXXXX".  They are removed on
 * every error path, by atomicfile_abort(), and from a signal handler by
 * atomicfile_remove_temps(); only SIGKILL (or a crash) can leave one.  The
 * next atomicfile_open() in that directory removes such a one, and only
 * such a one: its writer holds an exclusive flock(2) on it from creation to
 * rename, which the kernel drops when the writer dies, so a temporary whose
 * lock can be taken has no writer left.  A collect that runs for days keeps
 * its lock, however old its temporary's time stamps.  Age never decides:
 * it only spares a temporary younger than ATOMICFILE_GRACE_SECONDS, whose
 * writer may be between creating it and locking it.  On a file system
 * without flock the lock cannot be taken and nothing is removed.
 */
#ifndef RNGAUDIT_ATOMICFILE_H
#define RNGAUDIT_ATOMICFILE_H

#include <stdio.h>

#include "err.h"

/* A temporary younger than this is never removed by another run, locked
 * or not (its writer locks it microseconds after creating it). */
#define ATOMICFILE_GRACE_SECONDS 60
/* How long opening a FIFO for writing waits for a reader. */
#define ATOMICFILE_FIFO_WAIT_MS 10000

struct atomicfile {
	FILE *fp;          /* write here */
	char *path;        /* the name given (for messages) */
	char *target;      /* what is replaced: path, or a symlink's target */
	char *tmp;         /* temporary name; NULL when written in place */
	int in_place;      /* stdout, a device, a FIFO: no temporary, no rename */
	int owns_fp;       /* fp is ours to close (not the process's stdout) */
	int lockfd;        /* holds the temporary's flock until the rename; -1: none */
};

/* Opens path for writing as described above.  Errors name path: an
 * unwritable directory, a refused file type, a FIFO with no reader within
 * ATOMICFILE_FIFO_WAIT_MS. */
int atomicfile_open(struct atomicfile *af, const char *path, struct err *e);

/* Flushes, fsyncs, closes and renames into place (in place: flushes).  On
 * failure the temporary is removed and e names path. */
int atomicfile_commit(struct atomicfile *af, struct err *e);

/* Closes and removes the temporary (no-op after commit). */
void atomicfile_abort(struct atomicfile *af);

/* Removes every temporary still open in this process.  Async-signal-safe:
 * for a handler that is about to let a fatal signal end the process. */
void atomicfile_remove_temps(void);

#endif
