/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sysroot.c - confined reading of a saved kernel bundle (see sysroot.h).
 *
 * openat2(2) with RESOLVE_BENEATH (Linux 5.6) refuses, with EXDEV, any path
 * whose resolution (".." or a symlink, relative or absolute) leaves the
 * directory; where openat2 is missing the same rule is applied a component
 * at a time (sysroot_open_beneath).
 *
 * A bundle comes from elsewhere and may hold device nodes and FIFOs where
 * files belong (proc/cmdline -> a tape drive rewinds on open, a FIFO
 * blocks), so a name is first opened with O_PATH, which opens nothing, and
 * only a regular file is then opened for reading, through its O_PATH
 * descriptor (/proc/self/fd/N names exactly the file checked).
 */
#include "config.h"

#include "audit/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

int sysroot_open(struct sysroot *s, const char *dir, struct err *e)
{
	struct stat st;

	s->dirfd = -1;
	s->path[0] = '\0';
	if (!dir || !*dir)
		return 0;
	if (strlen(dir) >= sizeof s->path)
		return err_set(e, ERR_USAGE, "sysroot %.60s...: path too long", dir);
	if (stat(dir, &st) != 0)
		return err_set_errno(e, ERR_USAGE, errno, "sysroot %s", dir);
	if (!S_ISDIR(st.st_mode))
		return err_set(e, ERR_USAGE, "sysroot %s: not a directory", dir);
	s->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dirfd < 0)
		return err_set_errno(e, ERR_USAGE, errno, "sysroot %s", dir);
	snprintf(s->path, sizeof s->path, "%s", dir);
	return 0;
}

void sysroot_close(struct sysroot *s)
{
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
}

/* As the kernel's MAXSYMLINKS: more symlinks on one name is a loop. */
#define SYSROOT_LINKS_MAX 40

/* openat2's RESOLVE_BENEATH done by hand, where the kernel lacks it
 * (before 5.6) or a sandbox refuses it (seccomp; valgrind does not know
 * it): rel is resolved a component at a time beneath the bundle, a
 * symlink's target spliced in for it.  As openat2 says, an absolute symlink
 * or a ".." above the bundle is EXDEV, whatever lies outside (it is never
 * looked at, so the answer does not depend on it), more than 40 symlinks
 * ELOOP.  Returns an O_PATH descriptor, or -1 with errno. */
static int sysroot_open_beneath(const struct sysroot *s, const char *rel)
{
	char todo[2 * PATH_MAX], done[PATH_MAX], link[PATH_MAX], cand[PATH_MAX];
	size_t at = 0, dlen = 0;
	int links = 0;

	if (strlen(rel) >= sizeof todo) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(todo, sizeof todo, "%s", rel);
	done[0] = '\0';
	for (;;) {
		struct stat st;
		size_t clen;
		ssize_t n;
		while (todo[at] == '/')
			at++;
		if (!todo[at])
			break;
		clen = strcspn(todo + at, "/");
		if (clen == 1 && todo[at] == '.') {
			at += clen;
			continue;
		}
		if (clen == 2 && todo[at] == '.' && todo[at + 1] == '.') {
			char *slash;
			if (dlen == 0) {          /* above the bundle */
				errno = EXDEV;
				return -1;
			}
			slash = strrchr(done, '/');
			dlen = slash ? (size_t)(slash - done) : 0;
			done[dlen] = '\0';
			at += clen;
			continue;
		}
		if ((size_t)snprintf(cand, sizeof cand, "%s%s%.*s", done, dlen ? "/" : "", (int)clen,
				     todo + at) >= sizeof cand) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (fstatat(s->dirfd, cand, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return -1;
		if (S_ISLNK(st.st_mode)) {
			if (++links > SYSROOT_LINKS_MAX) {
				errno = ELOOP;
				return -1;
			}
			n = readlinkat(s->dirfd, cand, link, sizeof link - 1);
			if (n <= 0) {
				errno = n == 0 ? ENOENT : errno;
				return -1;
			}
			link[n] = '\0';
			if (link[0] == '/') {    /* absolute: never beneath */
				errno = EXDEV;
				return -1;
			}
			/* the target, then what followed the symlink */
			if ((size_t)snprintf(cand, sizeof cand, "%s%s", link, todo + at + clen) >= sizeof cand ||
			    strlen(cand) >= sizeof todo) {
				errno = ENAMETOOLONG;
				return -1;
			}
			snprintf(todo, sizeof todo, "%s", cand);
			at = 0;
			continue;
		}
		at += clen;
		while (todo[at] == '/')
			at++;
		if (todo[at] && !S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
		memcpy(done, cand, strlen(cand) + 1);
		dlen = strlen(done);
	}
	return openat(s->dirfd, dlen ? done : ".", O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

/* An O_PATH descriptor of PATH (inside the sysroot): nothing is opened
 * for reading, so a device node or FIFO is only looked at. */
static int sysroot_openpath(const struct sysroot *s, const char *path)
{
	const char *rel = path;
	if (s->dirfd < 0)
		return open(path, O_PATH | O_CLOEXEC);
	while (*rel == '/')
		rel++;
#if defined(HAVE_LINUX_OPENAT2_H) && defined(SYS_openat2)
	{
		struct open_how how;
		long fd;
		memset(&how, 0, sizeof how);
		how.flags = O_PATH | O_CLOEXEC;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		fd = syscall(SYS_openat2, s->dirfd, rel, &how, sizeof how);
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return (int)fd;
		/* ENOSYS: a kernel before 5.6; EPERM: a seccomp filter */
	}
#endif
	return sysroot_open_beneath(s, rel);
}

/* PATH opened for reading if it is a regular file, else -1 with errno
 * (EINVAL: not a regular file). */
static int sysroot_openfile(const struct sysroot *s, const char *path)
{
	struct stat st;
	char self[64];
	int pfd = sysroot_openpath(s, path), fd, saved;

	if (pfd < 0)
		return -1;
	if (fstat(pfd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(pfd);
		errno = EINVAL;
		return -1;
	}
	snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	saved = errno;
	close(pfd);
	errno = saved;
	return fd;
}

static void sysroot_why_errno(int err, char *why, size_t whylen)
{
	if (err == ENOENT || err == ENOTDIR)
		snprintf(why, whylen, "missing");
	else if (err == EXDEV)
		snprintf(why, whylen, "a symlink or '..' that leaves the sysroot");
	else if (err == EINVAL)
		snprintf(why, whylen, "not a regular file");
	else
		snprintf(why, whylen, "unreadable: %s", strerror(err));
}

int sysroot_read(const struct sysroot *s, const char *path, size_t max, char **buf, size_t *len,
		 char *why, size_t whylen)
{
	size_t cap = 4096, n = 0;
	char *b;
	int fd = sysroot_openfile(s, path);

	*buf = NULL;
	*len = 0;
	if (fd < 0) {
		sysroot_why_errno(errno, why, whylen);
		return -1;
	}
	b = malloc(cap + 1);
	if (!b) {
		close(fd);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (;;) {
		ssize_t r;
		if (n == cap) {
			char *nb;
			if (cap > max)
				break;
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				close(fd);
				snprintf(why, whylen, "out of memory");
				return -1;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sysroot_why_errno(errno, why, whylen);
			free(b);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > max) {
		free(b);
		snprintf(why, whylen, "larger than %zu bytes", max);
		return -1;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int sysroot_exists(const struct sysroot *s, const char *path)
{
	int fd = sysroot_openpath(s, path);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}
