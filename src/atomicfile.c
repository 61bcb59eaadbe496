/* SPDX-License-Identifier: GPL-3.0-or-later */
/* atomicfile.c - temp file + rename for regular files, in place for
 * stdout, devices and FIFOs, so that reports are written whole or not at
 * all and no device node is ever renamed over. */
#include "config.h"

#include "atomicfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outpath.h"

#define TEMP_TAG ".rngaudit-tmp."
#define TEMP_RANDOM "XXXXXX"

/* Temporaries open in this process, for atomicfile_remove_temps() from a
 * signal handler: plain pointers set and cleared outside handlers. */
#define LIVE_MAX 16
static char *volatile live_temps[LIVE_MAX];

static void live_add(char *tmp)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (!live_temps[i]) {
			live_temps[i] = tmp;
			return;
		}
}

static void live_remove(const char *tmp)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live_temps[i] == tmp)
			live_temps[i] = NULL;
}

void atomicfile_remove_temps(void)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		char *t = live_temps[i];
		if (t)
			unlink(t);   /* async-signal-safe */
	}
}

static void atomicfile_reset(struct atomicfile *af)
{
	if (af->tmp)
		live_remove(af->tmp);
	if (af->lockfd >= 0)
		close(af->lockfd);   /* drops the temporary's lock: after its rename or unlink */
	free(af->path);
	free(af->target);
	free(af->tmp);
	memset(af, 0, sizeof *af);
	af->lockfd = -1;
}

static int open_failed(struct atomicfile *af, struct err *e, int errnum, const char *why)
{
	int code = err_code_from_errno(errnum);
	if (code == ERR_UNAVAILABLE)   /* ENOENT of the directory: an I/O problem here */
		code = ERR_IO;
	err_set_errno(e, code, errnum, "%s: %s", af->path, why);
	atomicfile_reset(af);
	return code;
}

/* Writes in place through fd, which af then owns (closed on commit or abort). */
static int attach_in_place(struct atomicfile *af, int fd, struct err *e)
{
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		int saved = errno;
		close(fd);
		return open_failed(af, e, saved, "cannot write");
	}
	af->in_place = 1;
	af->owns_fp = 1;
	return 0;
}

static int open_descriptor(struct atomicfile *af, int fd, struct err *e)
{
	int dupfd;
	af->in_place = 1;
	if (fd == STDOUT_FILENO) {   /* shares stdout's buffer with the rest of the output */
		af->fp = stdout;
		return 0;
	}
	dupfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dupfd < 0)
		return open_failed(af, e, errno, "not an open file descriptor");
	return attach_in_place(af, dupfd, e);
}

static int open_in_place(struct atomicfile *af, const struct stat *st, struct err *e)
{
	int fd = -1, rc;
	if (S_ISFIFO(st->st_mode)) {
		rc = outpath_open_fifo(af->target, ATOMICFILE_FIFO_WAIT_MS, &fd);
		if (rc == ENXIO) {
			err_set(e, ERR_IO, "%s: FIFO has no reader (waited %d s)", af->path,
				ATOMICFILE_FIFO_WAIT_MS / 1000);
			atomicfile_reset(af);
			return ERR_IO;
		}
		if (rc)
			return open_failed(af, e, rc, "cannot write");
	} else {
		fd = open(af->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return open_failed(af, e, errno, "cannot write");
	}
	return attach_in_place(af, fd, e);
}

/* 1 if name is one of our temporaries: ".NAME.rngaudit-tmp.XXXXXX". */
static int is_our_temp(const char *name)
{
	size_t len = strlen(name), tail = strlen(TEMP_TAG) + strlen(TEMP_RANDOM);
	return name[0] == '.' && len > tail + 1 &&
	       strncmp(name + len - tail, TEMP_TAG, strlen(TEMP_TAG)) == 0;
}

/* Removes name (one of our temporaries in dir) if its writer is gone:
 * its flock can be taken.  The name is checked to still be the file
 * locked before it goes. */
static void remove_if_orphan(int dfd, const char *name, const struct stat *st)
{
	struct stat now;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == st->st_dev &&
	    now.st_ino == st->st_ino)
		(void)unlinkat(dfd, name, 0);
	close(fd);
}

/* Removes our temporaries left in dir by a killed run: ours by name and
 * owner, regular files, past the grace period, and unlocked (no writer
 * holds them: atomicfile.h).  Best effort, errors ignored. */
static void remove_stale_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	time_t grace = time(NULL) - ATOMICFILE_GRACE_SECONDS;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		if (!is_our_temp(de->d_name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_mtime < grace)
			remove_if_orphan(dirfd(d), de->d_name, &st);
	}
	closedir(d);
}

static int open_temp(struct atomicfile *af, const struct stat *existing, struct err *e)
{
	const char *slash = strrchr(af->target, '/');
	size_t dirlen = slash ? (size_t)(slash - af->target) + 1 : 0;
	size_t len = strlen(af->target) + strlen(TEMP_TAG) + strlen(TEMP_RANDOM) + 2;
	char dir[PATH_MAX];
	mode_t mode, mask;
	int fd;

	if (dirlen >= sizeof dir)
		return open_failed(af, e, ENAMETOOLONG, "cannot write");
	snprintf(dir, sizeof dir, "%.*s", (int)dirlen, dirlen ? af->target : ".");
	remove_stale_temps(dir);
	af->tmp = malloc(len);
	if (!af->tmp)
		return open_failed(af, e, ENOMEM, "cannot write");
	/* A dot-file in the same directory: same file system, so rename() is
	 * atomic, and globs like *.csv or *.prom skip it. */
	snprintf(af->tmp, len, "%.*s.%s" TEMP_TAG TEMP_RANDOM, (int)dirlen, af->target,
		 af->target + dirlen);
	fd = mkostemp(af->tmp, O_CLOEXEC);
	if (fd < 0) {
		free(af->tmp);
		af->tmp = NULL;
		return open_failed(af, e, errno, "cannot write");
	}
	live_add(af->tmp);
	/* The lock that tells other runs this temporary has a writer; on its
	 * own descriptor, so that it outlives fclose() until the rename. */
	af->lockfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (af->lockfd >= 0 && flock(af->lockfd, LOCK_EX | LOCK_NB) != 0) {
		close(af->lockfd);   /* no flock here (ENOLCK): nobody can take it either */
		af->lockfd = -1;
	}
	/* mkstemp creates 0600: keep a replaced file's mode, else 0666 less umask. */
	mask = umask(0);
	umask(mask);
	mode = existing ? existing->st_mode & 07777 : 0666 & ~mask;
	(void)fchmod(fd, mode);
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		int saved = errno;
		close(fd);
		unlink(af->tmp);
		return open_failed(af, e, saved, "cannot write");
	}
	return 0;
}

int atomicfile_open(struct atomicfile *af, const char *path, struct err *e)
{
	struct stat st;
	int fd;

	memset(af, 0, sizeof *af);
	af->lockfd = -1;
	if (!path || !*path)
		return err_set(e, ERR_USAGE, "empty output file name");
	af->path = strdup(path);
	if (!af->path)
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	if ((fd = outpath_descriptor(path)) >= 0)
		return open_descriptor(af, fd, e);

	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return open_failed(af, e, errno, "cannot write");
		af->target = strdup(path);
		return af->target ? open_temp(af, NULL, e) : open_failed(af, e, ENOMEM, "cannot write");
	}
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st) != 0)
			return open_failed(af, e, errno, errno == ENOENT ? "dangling symlink, refusing to "
					   "create its target" : "cannot write");
		af->target = realpath(path, NULL);
	} else {
		af->target = strdup(path);
	}
	if (!af->target)
		return open_failed(af, e, errno ? errno : ENOMEM, "cannot write");
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return open_in_place(af, &st, e);
	if (S_ISREG(st.st_mode))
		return open_temp(af, &st, e);
	if (S_ISDIR(st.st_mode))
		return open_failed(af, e, EISDIR, "cannot write");
	err_set(e, ERR_USAGE, "%s: is a %s: refusing to write to it", path,
		S_ISBLK(st.st_mode) ? "block device" : S_ISSOCK(st.st_mode) ? "socket" : "special file");
	atomicfile_reset(af);
	return ERR_USAGE;
}

static int commit_failed(struct atomicfile *af, struct err *e, int errnum)
{
	const char *name = af->fp == stdout || strcmp(af->path, "-") == 0 ? "stdout" : af->path;
	if (af->tmp)
		unlink(af->tmp);
	err_set_errno(e, ERR_IO, errnum, "%s: write failed", name);
	atomicfile_reset(af);
	return ERR_IO;
}

int atomicfile_commit(struct atomicfile *af, struct err *e)
{
	int saved = 0;

	if (!af->fp)
		return err_set(e, ERR_INTERNAL, "atomicfile committed twice");
	if (af->in_place) {
		if (fflush(af->fp) != 0 || ferror(af->fp))
			saved = errno ? errno : EIO;
		if (af->owns_fp && fclose(af->fp) != 0 && !saved)
			saved = errno;
		af->fp = NULL;
		if (saved)
			return commit_failed(af, e, saved);
		atomicfile_reset(af);
		return 0;
	}
	errno = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0)
		saved = errno ? errno : EIO;
	if (fclose(af->fp) != 0 && !saved)
		saved = errno;
	af->fp = NULL;
	if (!saved && rename(af->tmp, af->target) != 0)
		saved = errno;
	if (saved)
		return commit_failed(af, e, saved);
	atomicfile_reset(af);
	return 0;
}

void atomicfile_abort(struct atomicfile *af)
{
	if (af->fp && af->tmp) {
		fclose(af->fp);
		unlink(af->tmp);
	} else if (af->fp && af->owns_fp) {
		fclose(af->fp);
	}
	atomicfile_reset(af);
}
