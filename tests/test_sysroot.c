/* test_sysroot.c - reading a bundle never opens anything but a regular
 * file inside it (src/audit/sysroot.c, issue 24 item 2).
 *
 * A FIFO and a character device (a private node made here: c 1 3, the
 * numbers of /dev/null) stand where files belong; inotify reports every
 * open of them (IN_OPEN), and an O_PATH look is not an open, so any
 * IN_OPEN event means the reader opened a node it must not. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
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

static void tree_remove(void)
{
	static const char *const names[] = { "proc/cmdline", "proc/version", "dev-node", "outside-link",
					     "inner-link", "proc", NULL };
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
	struct sysroot sr;
	struct err e;
	char p[256], why[96], *buf;
	size_t len;
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
	tap_ok(symlink("/etc/hostname", p) == 0, "setup: a symlink out of the bundle");
	snprintf(p, sizeof p, "%s/inner-link", dir);
	tap_ok(symlink("proc/version", p) == 0, "setup: a symlink inside the bundle");

	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	snprintf(p, sizeof p, "%s/proc/cmdline", dir);
	inotify_add_watch(in, p, IN_OPEN);
	if (have_dev) {
		snprintf(p, sizeof p, "%s/dev-node", dir);
		inotify_add_watch(in, p, IN_OPEN);
	}

	tap_ok(sysroot_open(&sr, dir, &e) == 0, "the bundle opens");
	tap_ok(sysroot_read(&sr, "/proc/version", 4096, &buf, &len, why, sizeof why) == 0 && buf &&
		       strcmp(buf, "Linux version 6.1.0 (test)\n") == 0,
	       "a regular file is read whole (27 bytes)");
	free(buf);
	tap_ok(sysroot_read(&sr, "/inner-link", 4096, &buf, &len, why, sizeof why) == 0 && len == 27,
	       "a symlink that stays inside is followed (27 bytes)");
	free(buf);
	tap_ok(sysroot_read(&sr, "/outside-link", 4096, &buf, &len, why, sizeof why) != 0 &&
		       strstr(why, "leaves the sysroot"),
	       "a symlink out of the bundle is refused, saying so");
	tap_ok(sysroot_read(&sr, "/proc/cmdline", 4096, &buf, &len, why, sizeof why) != 0 &&
		       strcmp(why, "not a regular file") == 0,
	       "a FIFO is refused: not a regular file (and the read does not block)");
	tap_ok(sysroot_exists(&sr, "/proc/cmdline"), "sysroot_exists sees the FIFO without opening it");
	if (have_dev) {
		tap_ok(sysroot_read(&sr, "/dev-node", 4096, &buf, &len, why, sizeof why) != 0 &&
			       strcmp(why, "not a regular file") == 0,
		       "a character device is refused: not a regular file");
	} else {
		tap_skip("mknod needs root: no character device in the bundle");
	}
	tap_eq_long(opens_seen(in), 0, "no FIFO or device node was opened (inotify IN_OPEN events: 0)");
	/* the check itself works: opening the FIFO non-blocking is an IN_OPEN */
	snprintf(p, sizeof p, "%s/proc/cmdline", dir);
	{
		int fd = open(p, O_RDONLY | O_NONBLOCK);
		if (fd >= 0)
			close(fd);
	}
	tap_ok(opens_seen(in) >= 1, "control: an open of the FIFO is seen by inotify");
	close(in);
	sysroot_close(&sr);
	tree_remove();
	return tap_done();
}
