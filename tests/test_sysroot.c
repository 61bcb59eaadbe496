/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sysroot.c - reading a bundle never opens anything but a regular
 * file inside it (src/audit/sysroot.c, issue 24 item 2).
 *
 * A FIFO and a character device (a private node made here: c 1 3, the
 * numbers of /dev/null) stand where files belong; inotify reports every
 * open of them (IN_OPEN), and an O_PATH look is not an open, so any
 * IN_OPEN event means the reader opened a node it must not.  The checks
 * run twice: with openat2(2), and with openat2 refused by a seccomp filter
 * (ENOSYS, as before Linux 5.6), where the reader resolves the names itself. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "audit/sysroot.h"
#include "tap.h"

static char dir[] = "/tmp/rngaudit-sysroot-XXXXXX";

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *fp;
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	fp = fopen(p, "w");
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* Events on the watched nodes so far (non-blocking). */
static int opens_seen(int in)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int opens = 0;
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			if (ev->mask & IN_OPEN)
				opens++;
			p += sizeof *ev + ev->len;
		}
	return opens;
}

/* From here on openat2 fails with ENOSYS in this process; 0 when done. */
static int block_openat2(void)
{
#ifdef SYS_openat2
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
		return -1;
	return 0;
#else
	return -1;
#endif
}

/* The reader's answers for the bundle, one run of checks. */
static void checks(const char *how, int in, int have_dev)
{
	struct sysroot sr;
	struct err e;
	char why[96], *buf;
	size_t len;

	tap_ok(sysroot_open(&sr, dir, &e) == 0, "%s: the bundle opens", how);
	tap_ok(sysroot_read(&sr, "/proc/version", 4096, &buf, &len, why, sizeof why) == 0 && buf &&
		       strcmp(buf, "Linux version 6.1.0 (test)\n") == 0,
	       "%s: a regular file is read whole (27 bytes)", how);
	free(buf);
	tap_ok(sysroot_read(&sr, "/inner-link", 4096, &buf, &len, why, sizeof why) == 0 && len == 27,
	       "%s: a symlink that stays inside is followed (27 bytes)", how);
	free(buf);
	tap_ok(sysroot_read(&sr, "/proc/up-and-back", 4096, &buf, &len, why, sizeof why) == 0 && len == 27,
	       "%s: a symlink with '..' that stays inside is followed", how);
	free(buf);
	tap_ok(sysroot_read(&sr, "/outside-link", 4096, &buf, &len, why, sizeof why) != 0 &&
		       strstr(why, "leaves the sysroot"),
	       "%s: an absolute symlink out of the bundle is refused, saying so", how);
	tap_ok(sysroot_read(&sr, "/dotdot-link", 4096, &buf, &len, why, sizeof why) != 0 &&
		       strstr(why, "leaves the sysroot"),
	       "%s: a '..' symlink out of the bundle to a missing file: refused the same way", how);
	tap_ok(sysroot_read(&sr, "/loop", 4096, &buf, &len, why, sizeof why) != 0 && strstr(why, "unreadable"),
	       "%s: a symlink loop is refused", how);
	tap_ok(sysroot_read(&sr, "/proc/cmdline", 4096, &buf, &len, why, sizeof why) != 0 &&
		       strcmp(why, "not a regular file") == 0,
	       "%s: a FIFO is refused: not a regular file (and the read does not block)", how);
	tap_ok(sysroot_exists(&sr, "/proc/cmdline"), "%s: sysroot_exists sees the FIFO without opening it", how);
	if (have_dev)
		tap_ok(sysroot_read(&sr, "/dev-node", 4096, &buf, &len, why, sizeof why) != 0 &&
			       strcmp(why, "not a regular file") == 0,
		       "%s: a character device is refused: not a regular file", how);
	else
		tap_skip("mknod needs root: no character device in the bundle");
	tap_eq_long(opens_seen(in), 0, "no FIFO or device node was opened (inotify IN_OPEN events: 0)");
	sysroot_close(&sr);
}

static void tree_remove(void)
{
	static const char *const names[] = { "proc/cmdline", "proc/version", "proc/up-and-back", "dev-node",
					     "outside-link", "inner-link", "dotdot-link", "loop", "proc", NULL };
	char p[256];
	for (size_t i = 0; names[i]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		if (unlink(p) != 0)
			rmdir(p);
	}
	rmdir(dir);
}

int main(void)
{
	char p[256];
	int in, have_dev;

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(p, sizeof p, "%s/proc", dir);
	mkdir(p, 0755);
	put("proc/version", "Linux version 6.1.0 (test)\n");
	snprintf(p, sizeof p, "%s/proc/cmdline", dir);
	tap_ok(mkfifo(p, 0600) == 0, "setup: a FIFO where proc/cmdline belongs");
	snprintf(p, sizeof p, "%s/dev-node", dir);
	have_dev = mknod(p, S_IFCHR | 0600, makedev(1, 3)) == 0;   /* root only */
	snprintf(p, sizeof p, "%s/outside-link", dir);
	tap_ok(symlink("/etc/hostname", p) == 0, "setup: an absolute symlink out of the bundle");
	snprintf(p, sizeof p, "%s/dotdot-link", dir);
	tap_ok(symlink("../no-such-file-outside", p) == 0, "setup: a '..' symlink out of the bundle");
	snprintf(p, sizeof p, "%s/inner-link", dir);
	tap_ok(symlink("proc/version", p) == 0, "setup: a symlink inside the bundle");
	snprintf(p, sizeof p, "%s/proc/up-and-back", dir);
	tap_ok(symlink("../proc/./version", p) == 0, "setup: a symlink with '..' inside the bundle");
	snprintf(p, sizeof p, "%s/loop", dir);
	tap_ok(symlink("loop", p) == 0, "setup: a symlink loop");

	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	snprintf(p, sizeof p, "%s/proc/cmdline", dir);
	inotify_add_watch(in, p, IN_OPEN);
	if (have_dev) {
		snprintf(p, sizeof p, "%s/dev-node", dir);
		inotify_add_watch(in, p, IN_OPEN);
	}
	checks("openat2", in, have_dev);
	if (block_openat2() == 0)
		checks("without openat2", in, have_dev);
	else
		for (int i = 0; i < 11; i++)
			tap_skip("no seccomp filter here: the fallback without openat2 is not checked");
	/* the check itself works: opening the FIFO non-blocking is an IN_OPEN */
	snprintf(p, sizeof p, "%s/proc/cmdline", dir);
	{
		int fd = open(p, O_RDONLY | O_NONBLOCK);
		if (fd >= 0)
			close(fd);
	}
	tap_ok(opens_seen(in) >= 1, "control: an open of the FIFO is seen by inotify");
	close(in);
	tree_remove();
	return tap_done();
}
