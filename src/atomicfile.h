/* atomicfile.h - write a file whole or not at all.
 *
 * Output goes to a temporary file in the target's directory (same file
 * system), which atomicfile_commit() flushes, syncs and renames over the
 * target.  atomicfile_abort() removes it: a reader never sees half a file.
 * The path "-" means stdout (no temporary, nothing to rename).
 */
#ifndef RNGAUDIT_ATOMICFILE_H
#define RNGAUDIT_ATOMICFILE_H

#include <stdio.h>

#include "err.h"

struct atomicfile {
	FILE *fp;          /* write here */
	char *path;        /* final name */
	char *tmp;         /* temporary name; NULL for stdout */
};

/* Creates the temporary file next to path.  An unwritable directory is an
 * error naming path.  Mode 0644 (less the umask). */
int atomicfile_open(struct atomicfile *af, const char *path, struct err *e);

/* Flushes, fsyncs, closes and renames into place.  On failure the temporary
 * is removed and e names path. */
int atomicfile_commit(struct atomicfile *af, struct err *e);

/* Closes and removes the temporary (no-op after commit). */
void atomicfile_abort(struct atomicfile *af);

#endif
