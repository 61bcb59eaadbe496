/* bundle_save.c - `sources --save-sysroot DIR`: the running kernel's RNG
 * evidence written as a sysroot bundle (plain files laid out like /, and the
 * relevant kernel log lines in dmesg.txt) for an auditor on another host,
 * who reads it back with --sysroot (sysroot.c). */
#include "config.h"

#include "audit/kernel_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "audit/kparse.h"

#define KDEV_HWRNG "/sys/class/misc/hw_random/"
#define KDEV_RNGCORE "/sys/module/rng_core/parameters/"

/* The files a bundle carries (the kernel log separately, as dmesg.txt). */
static const char *const kdev_bundle[] = {
	"/proc/sys/kernel/osrelease", "/proc/sys/kernel/hostname", "/proc/cmdline", "/proc/config.gz", "/proc/cpuinfo",
	"/proc/sys/kernel/random/entropy_avail", "/proc/sys/kernel/random/poolsize",
	KDEV_HWRNG "rng_current", KDEV_HWRNG "rng_available", KDEV_HWRNG "rng_selected",
	KDEV_HWRNG "rng_quality", KDEV_RNGCORE "current_quality", KDEV_RNGCORE "default_quality",
	"/sys/hypervisor/type", "/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name", NULL,
};

/* mkdir -p of PATH's directory. */
static int kdev_mkdirs(char *path, struct err *e)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			int err = errno;
			*p = '/';
			return err_set_errno(e, ERR_IO, err, "--save-sysroot: %s", path);
		}
		*p = '/';
	}
	return 0;
}

static int kdev_write(const char *dir, const char *rel, const char *buf, size_t len, struct err *e)
{
	char path[2048];
	struct atomicfile af;
	int rc;
	if (snprintf(path, sizeof path, "%s/%s", dir, rel[0] == '/' ? rel + 1 : rel) >= (int)sizeof path)
		return err_set(e, ERR_USAGE, "--save-sysroot %s: path too long", dir);
	if ((rc = kdev_mkdirs(path, e)) != 0)
		return rc;
	if ((rc = atomicfile_open(&af, path, e)) != 0)
		return rc;
	if (len && fwrite(buf, 1, len, af.fp) != len) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "--save-sysroot: %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}

int kernel_save_sysroot(const char *dir, size_t *nfiles, struct err *e)
{
	struct sysroot live = { -1, "" };
	char *buf, why[KERNEL_WHY_MAX], rel[256], release[128] = "";
	size_t len;
	int rc = 0;
	struct stat st;

	*nfiles = 0;
	if (!dir || !*dir)
		return err_set(e, ERR_USAGE, "--save-sysroot: empty directory name");
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return err_set(e, ERR_USAGE, "--save-sysroot %s: not a directory", dir);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return err_set_errno(e, ERR_USAGE, errno, "--save-sysroot %s", dir);
	for (size_t i = 0; kdev_bundle[i] && rc == 0; i++) {
		if (sysroot_read(&live, kdev_bundle[i], 16u << 20, &buf, &len, why, sizeof why) != 0)
			continue;   /* absent here: absent there, "unknown" alike */
		rc = kdev_write(dir, kdev_bundle[i], buf, len, e);
		if (rc == 0)
			(*nfiles)++;
		if (i == 0)
			kparse_word(buf, len, release, sizeof release, why, sizeof why);
		free(buf);
	}
	if (rc == 0 && release[0] && !strchr(release, '/')) {
		snprintf(rel, sizeof rel, "/boot/config-%s", release);
		if (sysroot_read(&live, rel, 16u << 20, &buf, &len, why, sizeof why) == 0) {
			rc = kdev_write(dir, rel, buf, len, e);
			if (rc == 0)
				(*nfiles)++;
			free(buf);
		}
	}
	if (rc == 0 && kernel_log_read(&live, &buf, &len, why, sizeof why) == 0) {
		rc = kdev_write(dir, "dmesg.txt", buf, len, e);
		if (rc == 0)
			(*nfiles)++;
		free(buf);
	}
	return rc;
}
