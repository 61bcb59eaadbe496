/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sysroot.h - reading the kernel's files from the running system or from a
 * saved bundle (--sysroot DIR, RNGAUDIT_SYSROOT).
 *
 * A bundle is a directory laid out like / (proc/cmdline, sys/class/...,
 * plus dmesg.txt); symlinks inside it must resolve inside it, so a bundle
 * shipped from another host cannot make the auditor read its own files.
 */
#ifndef RNGAUDIT_SYSROOT_H
#define RNGAUDIT_SYSROOT_H

#include <stddef.h>

#include "err.h"

struct sysroot {
	int dirfd;                    /* -1: the running system */
	char path[1024];              /* "" when live */
};

/* dir NULL or "": the running system.  Otherwise ERR_USAGE naming dir when
 * it does not exist or is not a directory. */
int sysroot_open(struct sysroot *s, const char *dir, struct err *e);
void sysroot_close(struct sysroot *s);

/* Reads the file at PATH (absolute, as on the running system: "/proc/cmdline")
 * into a malloc'd, NUL-terminated buffer of at most max bytes.  Returns 0,
 * or -1 with why set to a short reason ("missing", "a symlink that leaves
 * the sysroot", "larger than 65536 bytes", "unreadable: Permission denied"). */
int sysroot_read(const struct sysroot *s, const char *path, size_t max, char **buf, size_t *len,
		 char *why, size_t whylen);

/* Whether PATH exists (inside the sysroot). */
int sysroot_exists(const struct sysroot *s, const char *path);

#endif
