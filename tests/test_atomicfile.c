/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_atomicfile.c - reports are written whole or not at all; sysinfo. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "audit/sysinfo.h"
#include "tap.h"

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_commit_and_abort(void)
{
	char dir[] = "/tmp/rngaudit-af-XXXXXX", path[300];
	struct atomicfile af;
	struct err e;
	struct stat st;
	FILE *fp;
	char buf[32] = { 0 };

	tap_ok(mkdtemp(dir) != NULL, "temp dir");
	snprintf(path, sizeof path, "%s/report.csv", dir);
	tap_ok(atomicfile_open(&af, path, &e) == 0, "open");
	fputs("a,b\n", af.fp);
	tap_ok(stat(path, &st) != 0, "nothing at the final name before commit");
	tap_ok(count_entries(dir) == 1, "one temporary in the directory");
	tap_ok(atomicfile_commit(&af, &e) == 0, "commit");
	fp = fopen(path, "r");
	tap_ok(fp && fgets(buf, sizeof buf, fp) && strcmp(buf, "a,b\n") == 0, "committed content");
	if (fp)
		fclose(fp);
	tap_ok(stat(path, &st) == 0 && (st.st_mode & 0444) == 0444, "readable mode");
	tap_ok(count_entries(dir) == 1, "no temporary left after commit");

	tap_ok(atomicfile_open(&af, path, &e) == 0, "reopen over an existing file");
	fputs("half a rep", af.fp);
	atomicfile_abort(&af);
	fp = fopen(path, "r");
	tap_ok(fp && fgets(buf, sizeof buf, fp) && strcmp(buf, "a,b\n") == 0, "abort leaves the old file untouched");
	if (fp)
		fclose(fp);
	tap_ok(count_entries(dir) == 1, "no temporary left after abort");
	unlink(path);
	rmdir(dir);
}

static void test_errors(void)
{
	struct atomicfile af;
	struct err e;
	tap_ok(atomicfile_open(&af, "/nonexistent/dir/r.csv", &e) != 0 &&
	       strstr(e.msg, "/nonexistent/dir/r.csv"), "unwritable directory: error names the file: %s", e.msg);
	tap_ok(atomicfile_open(&af, "", &e) == ERR_USAGE, "empty name refused");
	tap_ok(atomicfile_open(&af, "-", &e) == 0 && af.fp == stdout, "- is stdout");
	tap_ok(atomicfile_commit(&af, &e) == 0, "commit stdout");
}


/* Writes "x\n" to path and commits; 0 on success. */
static int write_and_commit(const char *path, struct err *e)
{
	struct atomicfile af;
	if (atomicfile_open(&af, path, e) != 0)
		return -1;
	fputs("x\n", af.fp);
	return atomicfile_commit(&af, e);
}

static void test_special_files(void)
{
	char dir[] = "/tmp/rngaudit-af-XXXXXX", node[300], fifo[300], link[300], target[300],
		dangling[300], sub[300];
	struct stat st;
	struct err e = { 0 };
	int pfd[2];
	char buf[8] = { 0 };

	tap_ok(mkdtemp(dir) != NULL, "temp dir for special files");
	snprintf(node, sizeof node, "%s/null", dir);
	/* A private copy of /dev/null (1,3): never the real one. */
	if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		tap_ok(write_and_commit(node, &e) == 0, "a character device is written: %s", e.msg);
		tap_ok(stat(node, &st) == 0 && S_ISCHR(st.st_mode), "the device node is still a device");
		tap_ok(count_entries(dir) == 1, "no temporary beside the device");
		unlink(node);
	} else {
		tap_skip("mknod not permitted (not root)");
		tap_skip("mknod not permitted (not root)");
		tap_skip("mknod not permitted (not root)");
	}

	/* A FIFO with a reader: written in place. */
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	tap_ok(mkfifo(fifo, 0600) == 0, "mkfifo");
	{
		int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
		tap_ok(write_and_commit(fifo, &e) == 0, "a FIFO with a reader is written: %s", e.msg);
		tap_ok(rfd >= 0 && read(rfd, buf, sizeof buf) == 2 && memcmp(buf, "x\n", 2) == 0,
		       "the reader gets the bytes");
		tap_ok(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO is still a FIFO");
		if (rfd >= 0)
			close(rfd);
	}
	unlink(fifo);

	/* A descriptor alias: /dev/fd/N writes to that descriptor. */
	tap_ok(pipe(pfd) == 0, "pipe");
	snprintf(node, sizeof node, "/dev/fd/%d", pfd[1]);
	tap_ok(write_and_commit(node, &e) == 0, "/dev/fd/N is written in place: %s", e.msg);
	memset(buf, 0, sizeof buf);
	tap_ok(read(pfd[0], buf, sizeof buf) == 2 && memcmp(buf, "x\n", 2) == 0, "the pipe gets the bytes");
	close(pfd[0]);
	close(pfd[1]);

	/* A symlink to a regular file: the target is replaced, the link kept. */
	snprintf(target, sizeof target, "%s/real.csv", dir);
	snprintf(link, sizeof link, "%s/link.csv", dir);
	tap_ok(write_and_commit(target, &e) == 0 && symlink("real.csv", link) == 0, "target and link");
	{
		struct atomicfile af;
		tap_ok(atomicfile_open(&af, link, &e) == 0, "open through a symlink");
		fputs("new\n", af.fp);
		tap_ok(atomicfile_commit(&af, &e) == 0, "commit through a symlink");
	}
	tap_ok(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the symlink is still a symlink");
	tap_ok(stat(target, &st) == 0 && st.st_size == 4, "its target holds the new content");
	unlink(link);
	unlink(target);

	snprintf(dangling, sizeof dangling, "%s/dangling", dir);
	tap_ok(symlink("nowhere/at/all", dangling) == 0, "dangling symlink");
	tap_ok(write_and_commit(dangling, &e) != 0 && strstr(e.msg, "dangling"),
	       "a dangling symlink is refused: %s", e.msg);
	unlink(dangling);

	snprintf(sub, sizeof sub, "%s/sub", dir);
	tap_ok(mkdir(sub, 0700) == 0, "subdirectory");
	tap_ok(write_and_commit(sub, &e) != 0 && strstr(e.msg, sub), "a directory is refused: %s", e.msg);
	rmdir(sub);
	tap_ok(count_entries(dir) == 0, "nothing left behind by special files");
	rmdir(dir);
}

static void test_temporaries(void)
{
	char dir[] = "/tmp/rngaudit-af-XXXXXX", path[300], path2[300], stale[300], fresh[300], other[300],
	     live[300];
	struct timeval old[2];
	struct atomicfile af, af2;
	struct err e;
	struct stat st;
	int lfd;

	tap_ok(mkdtemp(dir) != NULL, "temp dir for temporaries");
	snprintf(path, sizeof path, "%s/r.csv", dir);
	snprintf(path2, sizeof path2, "%s/s.csv", dir);
	snprintf(stale, sizeof stale, "%s/.r.csv.rngaudit-tmp.AAAAAA", dir);
	snprintf(fresh, sizeof fresh, "%s/.q.csv.rngaudit-tmp.BBBBBB", dir);
	snprintf(other, sizeof other, "%s/.r.csv.tmp.CCCCCC", dir);
	snprintf(live, sizeof live, "%s/.p.bin.rngaudit-tmp.DDDDDD", dir);
	fclose(fopen(stale, "w"));
	fclose(fopen(fresh, "w"));
	fclose(fopen(other, "w"));
	/* a writer that is alive: it holds the lock, its file is days old */
	lfd = open(live, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	tap_ok(lfd >= 0 && flock(lfd, LOCK_EX) == 0, "a live writer's temporary, locked");
	gettimeofday(&old[0], NULL);
	old[0].tv_sec -= 3 * 86400;
	old[1] = old[0];
	utimes(stale, old);
	utimes(other, old);
	utimes(live, old);

	tap_ok(atomicfile_open(&af, path, &e) == 0, "open beside old temporaries");
	tap_ok(stat(stale, &st) != 0, "an unlocked one past the grace period is removed (left by a SIGKILL)");
	tap_ok(stat(fresh, &st) == 0, "an unlocked one within the grace period (60 s) is kept: its writer may "
	       "not have locked it yet");
	tap_ok(stat(live, &st) == 0, "a locked one is kept however old (a collect running for days)");
	tap_ok(stat(other, &st) == 0, "a file of another pattern is kept");
	tap_ok(af.tmp && strstr(af.tmp, ".rngaudit-tmp."), "the temporary has the recognisable name: %s",
	       af.tmp ? af.tmp : "(none)");
	/* our own open temporary, made to look days old: another open in
	 * the same directory (this process or another run) leaves it */
	if (af.tmp)
		utimes(af.tmp, old);
	tap_ok(atomicfile_open(&af2, path2, &e) == 0, "a second file opened in the same directory");
	tap_ok(af.tmp && stat(af.tmp, &st) == 0, "the first writer's temporary survives it (locked)");
	atomicfile_abort(&af2);
	fprintf(af.fp, "x\n");
	tap_ok(atomicfile_commit(&af, &e) == 0 && stat(path, &st) == 0 && st.st_size == 2,
	       "and commits whole");
	close(lfd);   /* the live writer dies: its lock goes with it */
	tap_ok(atomicfile_open(&af, path, &e) == 0 && stat(live, &st) != 0,
	       "once its writer is gone, the next open removes the temporary");
	atomicfile_remove_temps();
	tap_ok(af.tmp && stat(af.tmp, &st) != 0, "atomicfile_remove_temps removes open temporaries");
	atomicfile_abort(&af);
	unlink(fresh);
	unlink(other);
	unlink(path);
	tap_ok(count_entries(dir) == 0, "nothing left");
	rmdir(dir);
}

static void test_sysinfo(void)
{
	struct sysinfo si;
	struct err e;
	tap_ok(sysinfo_read(&si, &e) == 0, "sysinfo_read");
	tap_ok(si.kernel[0] != '\0', "kernel release known: %s", si.kernel);
#if defined(__x86_64__) || defined(__i386__)
	tap_ok(strlen(si.cpu_vendor) == 12, "x86 vendor string: %s", si.cpu_vendor);
	tap_ok(si.cpu_family >= 5, "x86 family %u", si.cpu_family);
#else
	tap_skip("not x86");
	tap_skip("not x86");
#endif
}

int main(void)
{
	test_commit_and_abort();
	test_errors();
	test_special_files();
	test_temporaries();
	test_sysinfo();
	return tap_done();
}
