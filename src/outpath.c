/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outpath.c - outputs checked before a run, and opened without blocking
 * (see outpath.h). */
#include "config.h"

#include "outpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "parse.h"

int outpath_descriptor(const char *path)
{
	uint64_t n;
	if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	if (strncmp(path, "/dev/fd/", 8) == 0 && parse_u64(path + 8, 0, INT_MAX, &n) == 0)
		return (int)n;
	if (strncmp(path, "/proc/self/fd/", 14) == 0 && parse_u64(path + 14, 0, INT_MAX, &n) == 0)
		return (int)n;
	return -1;
}

int outpath_is_stdout(const char *path)
{
	struct stat out, st;
	if (!path)
		return 0;
	if (outpath_descriptor(path) == STDOUT_FILENO)
		return 1;
	/* the file the shell opened on stdout, by another name: only a
	 * regular file or a FIFO is "the same file" (a character device such
	 * as /dev/null is shared by everyone, not stdout's own) */
	if (fstat(STDOUT_FILENO, &out) != 0 || !(S_ISREG(out.st_mode) || S_ISFIFO(out.st_mode)))
		return 0;
	return stat(path, &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

const char *outpath_normal(const char *path)
{
	return path && outpath_is_stdout(path) ? "-" : path;
}

/* What identifies an output for the same-file check. */
struct outpath_id {
	int kind;                 /* 0 none (a device, shared), 1 stdout, 2 an inode, 3 a new name */
	dev_t dev;
	ino_t ino;
	char name[PATH_MAX];      /* a new name: its directory's real path and base name */
};

static int outpath_same(const struct outpath_id *a, const struct outpath_id *b)
{
	if (a->kind != b->kind || a->kind == 0)
		return 0;
	if (a->kind == 1)
		return 1;
	if (a->kind == 2)
		return a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->name, b->name) == 0;
}

/* The directory part of path ("." when none) into dir. */
static void outpath_dir(const char *path, char *dir, size_t len, const char **base)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		snprintf(dir, len, ".");
		*base = path;
	} else if (slash == path) {
		snprintf(dir, len, "/");
		*base = slash + 1;
	} else {
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
		*base = slash + 1;
	}
}

/* Checks one output and fills its identity. */
static int outpath_check_one(const struct outpath *o, unsigned allowed, struct outpath_id *id, struct err *e)
{
	struct stat st;
	char dir[PATH_MAX], real[PATH_MAX];
	const char *base;
	int fd;

	memset(id, 0, sizeof *id);
	if (!*o->path)
		return err_set(e, ERR_USAGE, "%s: empty file name", o->opt);
	if (outpath_is_stdout(o->path)) {
		if (!(allowed & OUTPATH_STDOUT))
			return err_set(e, ERR_USAGE, "%s %s: stdout carries this command's own output: name a file",
				       o->opt, o->path);
		id->kind = 1;
		return 0;
	}
	if ((fd = outpath_descriptor(o->path)) >= 0) {   /* /dev/stderr, /dev/fd/N */
		if (fcntl(fd, F_GETFD) < 0)
			return err_set(e, ERR_USAGE, "%s %s: not an open file descriptor", o->opt, o->path);
		if (!(allowed & OUTPATH_DEVICES))
			return err_set(e, ERR_USAGE, "%s %s: must be a file", o->opt, o->path);
		return 0;
	}
	if (lstat(o->path, &st) == 0 && S_ISLNK(st.st_mode) && stat(o->path, &st) != 0)
		return err_set(e, ERR_USAGE, "%s %s: dangling symlink, refusing to create its target", o->opt,
			       o->path);
	if (stat(o->path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return err_set(e, ERR_USAGE, "%s %s: is a directory", o->opt, o->path);
		if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
			if (!(allowed & OUTPATH_DEVICES))
				return err_set(e, ERR_USAGE, "%s %s: is a %s: this output must be a regular file",
					       o->opt, o->path, S_ISFIFO(st.st_mode) ? "FIFO" : "device");
			if (access(o->path, W_OK) != 0)
				return err_set_errno(e, ERR_USAGE, errno, "%s %s", o->opt, o->path);
			if (S_ISFIFO(st.st_mode)) {
				id->kind = 2;
				id->dev = st.st_dev;
				id->ino = st.st_ino;
			}
			return 0;
		}
		if (!S_ISREG(st.st_mode))
			return err_set(e, ERR_USAGE, "%s %s: is a %s: refusing to write to it", o->opt, o->path,
				       S_ISBLK(st.st_mode) ? "block device" : S_ISSOCK(st.st_mode) ? "socket"
				       : "special file");
		id->kind = 2;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	} else if (errno != ENOENT) {
		return err_set_errno(e, ERR_USAGE, errno, "%s %s", o->opt, o->path);
	}
	/* a regular file or a new name: written to a temporary beside it */
	outpath_dir(o->path, dir, sizeof dir, &base);
	if (!realpath(dir, real))
		return err_set_errno(e, ERR_USAGE, errno, "%s %s: directory %s", o->opt, o->path, dir);
	if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
		return err_set(e, ERR_USAGE, "%s %s: %s is not a directory", o->opt, o->path, dir);
	if (access(real, W_OK | X_OK) != 0)
		return err_set_errno(e, ERR_USAGE, errno, "%s %s: cannot write in %s", o->opt, o->path, dir);
	if (id->kind == 0) {
		if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
			return err_set(e, ERR_USAGE, "%s %s: is a directory", o->opt, o->path);
		id->kind = 3;
		if ((size_t)snprintf(id->name, sizeof id->name, "%.*s/%s", PATH_MAX / 2, real, base) >=
		    sizeof id->name)
			return err_set(e, ERR_USAGE, "%s %s: path too long", o->opt, o->path);
	}
	return 0;
}

int outpath_check(const struct outpath *o, size_t n, unsigned allowed, struct err *e)
{
	struct outpath_id *id = calloc(n ? n : 1, sizeof *id);
	int rc = 0;

	if (!id)
		return err_set(e, ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (!o[i].path)
			continue;
		if ((rc = outpath_check_one(&o[i], allowed, &id[i], e)) != 0)
			break;
		for (size_t j = 0; j < i; j++)
			if (o[j].path && outpath_same(&id[i], &id[j])) {
				rc = err_set(e, ERR_USAGE, "%s %s and %s %s are the same %s: one report would "
					     "replace the other", o[j].opt, o[j].path, o[i].opt, o[i].path,
					     id[i].kind == 1 ? "output, stdout" : "file");
				break;
			}
	}
	free(id);
	return rc;
}

int outpath_open_fifo(const char *path, int wait_ms, int *fdp)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	int waited_ms = 0, fd;
	/* A FIFO opened for writing blocks until a reader comes; O_NONBLOCK
	 * fails with ENXIO instead, so poll for the reader a bounded time. */
	for (;;) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0 || errno != ENXIO || waited_ms >= wait_ms)
			break;
		nanosleep(&nap, NULL);
		waited_ms += 50;
	}
	if (fd < 0)
		return errno;
	/* Writes block again from here on, as on any output. */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*fdp = fd;
	return 0;
}

int outpath_open_append(const char *path, int wait_ms, int *fdp, struct err *e)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		int rc = outpath_open_fifo(path, wait_ms, &fd);
		if (rc == ENXIO)
			return err_set(e, ERR_IO, "%s: FIFO has no reader (waited %d s)", path, wait_ms / 1000);
		if (rc)
			return err_set_errno(e, ERR_IO, rc, "%s", path);
	} else {
		/* O_NONBLOCK: a FIFO made since the stat must not hang the open */
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0666);
		if (fd < 0)
			return err_set_errno(e, ERR_IO, errno, "%s", path);
		if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
			close(fd);
			return err_set(e, ERR_USAGE, "%s: not a file, FIFO or character device", path);
		}
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	}
	*fdp = fd;
	return 0;
}
