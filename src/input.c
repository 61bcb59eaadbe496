/* SPDX-License-Identifier: GPL-3.0-or-later */
/* input.c - bounded waits when opening FIFOs and devices for reading. */
#include "config.h"

#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static input_wait_notice_fn wait_notice;

void input_set_wait_notice(input_wait_notice_fn fn)
{
	wait_notice = fn;
}

static int open_error(const char *path, int errnum, struct err *e)
{
	/* A missing file is bad input (ERR_IO), not an absent source. */
	return err_set_errno(e, err_code_from_errno(errnum) == ERR_PERM ? ERR_PERM : ERR_IO,
			     errnum, "%s: cannot open", path);
}

/* Waits until fd has data or its writer has gone (POLLIN or POLLHUP), at
 * most INPUT_WAIT_MS.  Returns 0, or ETIMEDOUT. */
static int wait_readable(int fd, const char *path, const char *what)
{
	/* A first short poll, so that the notice appears only when waiting is
	 * real: the usual FIFO's writer is already there. */
	const int first_ms = 200;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc = poll(&p, 1, first_ms);
	if (rc == 0) {
		if (wait_notice) {
			char msg[600];
			snprintf(msg, sizeof msg, "%.500s: waiting up to %d s for a %s to send data", path,
				 INPUT_WAIT_MS / 1000, what);
			wait_notice(msg);
		}
		/* EINTR (Ctrl-C while waiting) ends the wait: the caller stops. */
		rc = poll(&p, 1, INPUT_WAIT_MS - first_ms);
	}
	if (rc < 0)
		return errno;
	return rc == 0 ? ETIMEDOUT : 0;
}

int input_wait(int fd, const char *path, struct err *e)
{
	struct stat st;
	int rc;

	if (fstat(fd, &st) != 0)
		return open_error(path, errno, e);
	if (S_ISDIR(st.st_mode))
		return err_set(e, ERR_IO, "%s: is a directory", path);
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		rc = wait_readable(fd, path, S_ISFIFO(st.st_mode) ? "writer on the FIFO" : "the device");
		if (rc == ETIMEDOUT)
			return err_set(e, ERR_IO, "%s: no data within %d s (%s)", path, INPUT_WAIT_MS / 1000,
				       S_ISFIFO(st.st_mode) ? "a FIFO with no writer?" : "the device is silent");
		if (rc == EINTR)
			return err_set(e, ERR_INTERRUPTED, "%s: interrupted while waiting for data", path);
	}
	/* From here on reads block as usual (a slow device is read as it comes). */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
		return open_error(path, errno, e);
	return 0;
}

int input_open(const char *path, struct err *e)
{
	int fd, rc;

	if (strcmp(path, "-") == 0)
		return STDIN_FILENO;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return open_error(path, errno, e);
	if ((rc = input_wait(fd, path, e)) != 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int input_read_all(const char *path, const char *what, size_t max, char **text, size_t *len,
		   struct err *e)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int fd, rc = 0;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)   /* ENOENT stays ERR_UNAVAILABLE: callers may treat it as "none" */
		return err_set_errno(e, err_code_from_errno(errno), errno, "%s %s", what, path);
	if ((rc = input_wait(fd, path, e)) != 0) {
		close(fd);
		return rc;
	}
	for (;;) {
		ssize_t got;
		if (n == cap) {
			char *t;
			if (cap > max) {
				rc = err_set(e, ERR_DATA, "%s %s: larger than %zu bytes", what, path, max);
				break;
			}
			cap = cap ? 2 * cap : 4096;
			if (cap > max + 1)
				cap = max + 1;   /* one byte past max tells "too large" */
			t = realloc(buf, cap + 1);
			if (!t) {
				rc = err_set(e, ERR_NOMEM, "%s %s: out of memory", what, path);
				break;
			}
			buf = t;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = err_set_errno(e, ERR_IO, errno, "%s %s: read error", what, path);
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			rc = err_set(e, ERR_DATA, "%s %s: larger than %zu bytes", what, path, max);
			break;
		}
	}
	close(fd);
	if (rc != 0) {
		free(buf);
		return rc;
	}
	if (!buf && !(buf = malloc(1)))
		return err_set(e, ERR_NOMEM, "%s %s: out of memory", what, path);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}
