/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_outpath.c - outputs checked before a run (src/outpath.c, issue 24
 * item 5): stdout under all its names, two outputs that are one file, a
 * directory that is missing, the kinds of file an output may be, and a
 * FIFO opened without blocking. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outpath.h"
#include "tap.h"

static char dir[] = "/tmp/rngaudit-outpath-XXXXXX";

static const char *in(const char *name)
{
	static char buf[4][300];
	static int k;
	char *b = buf[k++ % 4];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

/* outpath_check of two outputs: its code, the message in *msg. */
static int check2(const char *a, const char *b, unsigned allowed, const char **msg)
{
	static struct err e;
	const struct outpath o[] = { { "--csv", a }, { "--junit", b } };
	e.msg[0] = '\0';
	*msg = e.msg;
	return outpath_check(o, 2, allowed, &e);
}

int main(void)
{
	const unsigned all = OUTPATH_DEVICES | OUTPATH_STDOUT;
	const char *msg;
	int saved, fd;

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	/* stdout redirected to a regular file, as `> r.csv` does */
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(in("r.csv"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	{
		int dash = outpath_is_stdout("-"), dev = outpath_is_stdout("/dev/stdout"),
		    fd1 = outpath_is_stdout("/dev/fd/1"), self = outpath_is_stdout("/proc/self/fd/1"),
		    file = outpath_is_stdout(in("r.csv")), dotted = outpath_is_stdout(in("./r.csv")),
		    other = outpath_is_stdout(in("s.csv")), fd2 = outpath_is_stdout("/dev/fd/2");
		const char *norm = outpath_normal(in("r.csv"));
		int dup_rc = check2(in("r.csv"), "-", all, &msg);
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
		close(saved);
		tap_ok(dash && dev && fd1 && self, "-, /dev/stdout, /dev/fd/1, /proc/self/fd/1 are stdout");
		tap_ok(file && dotted, "the file stdout was redirected to is stdout, however spelt");
		tap_ok(!other && !fd2, "another file, and /dev/fd/2, are not");
		tap_eq_str(norm, "-", "outpath_normal: the redirected file is written as -");
		tap_ok(dup_rc == ERR_USAGE && strstr(msg, "same output, stdout"),
		       "the redirected file and - are two outputs to stdout: refused");
	}
	tap_ok(check2(in("a.csv"), in("b.xml"), all, &msg) == 0, "two new names: fine");
	tap_ok(check2(in("a.csv"), in("./a.csv"), all, &msg) == ERR_USAGE && strstr(msg, "are the same file"),
	       "one new name spelt two ways: refused");
	fclose(fopen(in("old.csv"), "w"));
	symlink("old.csv", in("link.csv"));
	tap_ok(check2(in("old.csv"), in("link.csv"), all, &msg) == ERR_USAGE,
	       "a file and a symlink to it: refused");
	tap_ok(check2("-", "/dev/stdout", all, &msg) == ERR_USAGE && strstr(msg, "stdout"),
	       "- and /dev/stdout: both stdout, refused");
	tap_ok(check2("-", NULL, 0, &msg) == ERR_USAGE && strstr(msg, "stdout carries"),
	       "stdout where the command keeps it: refused");
	tap_ok(check2(in("nodir/x.csv"), NULL, all, &msg) == ERR_USAGE && strstr(msg, "nodir") &&
		       strstr(msg, "No such file"), "a missing directory: refused, named");
	mkdir(in("sub"), 0755);
	tap_ok(check2(in("sub"), NULL, all, &msg) == ERR_USAGE && strstr(msg, "is a directory"),
	       "a directory: refused");
	symlink("nowhere", in("dangling"));
	tap_ok(check2(in("dangling"), NULL, all, &msg) == ERR_USAGE && strstr(msg, "dangling"),
	       "a dangling symlink: refused");
	mkfifo(in("fifo"), 0600);
	tap_ok(check2(in("fifo"), NULL, all, &msg) == 0, "a FIFO where devices are allowed: fine");
	tap_ok(check2(in("fifo"), NULL, 0, &msg) == ERR_USAGE && strstr(msg, "must be a regular file"),
	       "a FIFO where only a file will do (a textfile): refused");
	tap_ok(check2(in("fifo"), in("fifo"), all, &msg) == ERR_USAGE, "one FIFO twice: refused");
	tap_ok(outpath_open_fifo(in("fifo"), 100, &fd) == ENXIO, "a FIFO with no reader: ENXIO after the wait");
	{
		int rd = open(in("fifo"), O_RDONLY | O_NONBLOCK), wfd = -1;
		tap_ok(rd >= 0 && outpath_open_fifo(in("fifo"), 100, &wfd) == 0 && wfd >= 0 &&
			       !(fcntl(wfd, F_GETFL) & O_NONBLOCK),
		       "a FIFO with a reader: opened, blocking writes from then on");
		if (wfd >= 0)
			close(wfd);
		if (rd >= 0)
			close(rd);
	}
	{
		struct err e;
		tap_ok(outpath_open_append(in("log"), 100, &fd, &e) == 0 && write(fd, "a\n", 2) == 2 &&
			       close(fd) == 0 && outpath_open_append(in("log"), 100, &fd, &e) == 0 &&
			       write(fd, "b\n", 2) == 2 && close(fd) == 0,
		       "a log opened twice appends");
		struct stat st;
		tap_ok(stat(in("log"), &st) == 0 && st.st_size == 4, "both lines kept (4 bytes)");
		tap_ok(outpath_open_append(in("fifo"), 100, &fd, &e) == ERR_IO && strstr(e.msg, "FIFO has no reader"),
		       "a log FIFO with no reader: one line, no hang");
	}
	{
		static const char *const names[] = { "r.csv", "old.csv", "link.csv", "sub", "dangling", "fifo", "log",
						     NULL };
		for (size_t i = 0; names[i]; i++)
			if (unlink(in(names[i])) != 0)
				rmdir(in(names[i]));
		rmdir(dir);
	}
	return tap_done();
}
