/* test_atomicfile.c - reports are written whole or not at all; sysinfo. */
#include "config.h"

#include <dirent.h>
#include <sys/stat.h>
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
	test_sysinfo();
	return tap_done();
}
