/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bundle_save.c - `sources --save-sysroot DIR`: the running kernel's RNG
 * evidence written as a sysroot bundle (plain files laid out like /, and the
 * relevant kernel log lines in dmesg.txt) for an auditor on another host,
 * who reads it back with --sysroot (sysroot.c).
 *
 * The tool runs as root here, and DIR may be a directory someone else
 * prepared, so the bundle is written only inside itself:
 * - into a fresh directory made beside DIR (mkdtemp, mode 0700 until done),
 *   renamed onto DIR at the end: a bundle never mixes in files of another
 *   host or an earlier run (a stale sys/hypervisor/type made one claim Xen),
 *   and a reader never sees half a bundle;
 * - DIR itself must be missing or an empty directory (rename(2) replaces
 *   only an empty one), and not a symlink;
 * - every directory component is made and opened beneath the bundle with no
 *   symlink followed: openat2(2) RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS
 *   (Linux 5.6), else one component at a time with O_NOFOLLOW|O_DIRECTORY;
 *   each file is created O_CREAT|O_EXCL|O_NOFOLLOW, so nothing that was
 *   there is followed or overwritten.
 */
#include "config.h"

#include "audit/kernel_int.h"

#include <dirent.h>
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

#include "audit/kparse.h"

#define KDEV_HWRNG "/sys/class/misc/hw_random/"
#define KDEV_RNGCORE "/sys/module/rng_core/parameters/"
/* The largest file a bundle takes (a config.gz is ~40 KB, cpuinfo of a
 * 512-thread machine ~1 MB). */
#define BUNDLE_FILE_MAX (16u << 20)
/* Directory levels under the bundle ("sys/module/rng_core/parameters"). */
#define BUNDLE_DEPTH_MAX 8

/* The files a bundle carries (the kernel log separately, as dmesg.txt).
 * /proc/version names the compiler and build of the running kernel, and
 * Ubuntu's /proc/version_signature its package version (absent elsewhere):
 * the trust decisions (issue 23) tell distribution kernels apart by them. */
static const char *const kdev_bundle[] = {
	"/proc/sys/kernel/osrelease", "/proc/sys/kernel/hostname", "/proc/sys/kernel/arch", "/proc/cmdline",
	"/proc/config.gz", "/proc/cpuinfo",
	"/proc/version", "/proc/version_signature",
	"/proc/sys/kernel/random/entropy_avail", "/proc/sys/kernel/random/poolsize",
	KDEV_HWRNG "rng_current", KDEV_HWRNG "rng_available", KDEV_HWRNG "rng_selected",
	KDEV_HWRNG "rng_quality", KDEV_RNGCORE "current_quality", KDEV_RNGCORE "default_quality",
	"/sys/hypervisor/type", "/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name", NULL,
};

/* One component of a bundle path: no "", ".", ".." or slash. */
static int bundle_component_ok(const char *c, size_t len)
{
	return len > 0 && len < NAME_MAX && !(len == 1 && c[0] == '.') &&
	       !(len == 2 && c[0] == '.' && c[1] == '.') && !memchr(c, '/', len);
}

/* The directory reldir ("proc/sys/kernel") under root, made where missing:
 * one mkdirat and one O_NOFOLLOW|O_DIRECTORY open per component, so a
 * symlink anywhere on the way is refused (ELOOP or ENOTDIR), never followed. */
static int bundle_walk(int root, const char *reldir)
{
	int fd = dup(root), depth = 0;
	const char *p = reldir;

	while (fd >= 0 && *p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		char comp[NAME_MAX + 1];
		int next;

		if (!bundle_component_ok(p, len) || ++depth > BUNDLE_DEPTH_MAX) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		if (mkdirat(fd, comp, 0755) != 0 && errno != EEXIST) {
			int saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
		p += len;
		while (*p == '/')
			p++;
	}
	return fd;
}

/* The directory reldir under root, made where missing, with no symlink
 * followed: openat2 when the kernel has it (the directories are then
 * opened in one call), else and to make what is missing, bundle_walk. */
static int bundle_dir(int root, const char *reldir)
{
	if (!*reldir)
		return dup(root);
#if defined(HAVE_LINUX_OPENAT2_H) && defined(SYS_openat2)
	{
		struct open_how how;
		long fd;
		memset(&how, 0, sizeof how);
		how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
		fd = syscall(SYS_openat2, root, reldir, &how, sizeof how);
		if (fd >= 0)
			return (int)fd;
		/* ENOENT: not made yet; ENOSYS: before 5.6; EPERM: seccomp */
		if (errno != ENOENT && errno != ENOSYS && errno != EPERM)
			return -1;
	}
#endif
	return bundle_walk(root, reldir);
}

/* Writes len bytes of buf as rel ("proc/cmdline") under root: a new file,
 * never one that was there.  Returns 0 or errno. */
static int bundle_put(int root, const char *rel, const char *buf, size_t len)
{
	char reldir[PATH_MAX];
	const char *slash = strrchr(rel, '/'), *base = slash ? slash + 1 : rel;
	size_t dlen = slash ? (size_t)(slash - rel) : 0;
	int dfd, fd, rc = 0;

	if (dlen >= sizeof reldir || !bundle_component_ok(base, strlen(base)))
		return EINVAL;
	memcpy(reldir, rel, dlen);
	reldir[dlen] = '\0';
	if ((dfd = bundle_dir(root, reldir)) < 0)
		return errno;
	fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0)
		rc = errno;
	for (size_t off = 0; !rc && off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			rc = errno;
		else
			off += (size_t)w;
	}
	if (fd >= 0 && !rc && fsync(fd) != 0)
		rc = errno;
	if (fd >= 0 && close(fd) != 0 && !rc)
		rc = errno;
	if (!rc && fsync(dfd) != 0)
		rc = errno;
	close(dfd);
	return rc;
}

/* Removes what bundle_put made under dirfd (which it closes), deepest
 * first, never following a symlink: a half-written bundle leaves nothing. */
void bundle_remove_tree(int dirfd)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *de;

	if (!d) {
		close(dirfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		int sub;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode) &&
		    (sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			bundle_remove_tree(sub);
			(void)unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
		} else {
			(void)unlinkat(dirfd, de->d_name, 0);
		}
	}
	closedir(d);
}

/* DIR must be missing or an empty directory, not a symlink to one. */
static int bundle_check_target(const char *dir, struct err *e)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if (lstat(dir, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		return err_set_errno(e, ERR_USAGE, errno, "--save-sysroot %s", dir);
	}
	if (S_ISLNK(st.st_mode))
		return err_set(e, ERR_USAGE, "--save-sysroot %s: is a symlink: name a new or empty directory", dir);
	if (!S_ISDIR(st.st_mode))
		return err_set(e, ERR_USAGE, "--save-sysroot %s: not a directory", dir);
	if (!(d = opendir(dir)))
		return err_set_errno(e, ERR_USAGE, errno, "--save-sysroot %s", dir);
	while (empty && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	if (!empty)
		return err_set(e, ERR_USAGE, "--save-sysroot %s: exists and is not empty: a bundle goes into a new "
			       "or empty directory, never among another host's files", dir);
	return 0;
}

/* The bundle's temporary directory beside dir: "PARENT/.NAME.rngaudit-tmp.XXXXXX". */
static int bundle_temp_name(const char *dir, char *tmp, size_t len)
{
	const char *slash = strrchr(dir, '/'), *base = slash ? slash + 1 : dir;
	int w;

	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -1;
	w = snprintf(tmp, len, "%.*s.%s.rngaudit-tmp.XXXXXX", slash ? (int)(slash - dir + 1) : 0, dir, base);
	return w < 0 || (size_t)w >= len ? -1 : 0;
}

/* Reads path from the running system and adds it to the bundle; a file
 * absent here is absent there ("unknown" alike). */
static int bundle_add(int root, const char *rel, const char *buf, size_t len, const char *dir, size_t *nfiles,
		      struct err *e)
{
	int rc = bundle_put(root, rel[0] == '/' ? rel + 1 : rel, buf, len);
	if (rc)
		return err_set_errno(e, ERR_IO, rc, "--save-sysroot %s: %s", dir, rel[0] == '/' ? rel + 1 : rel);
	(*nfiles)++;
	return 0;
}

static int bundle_fill(int root, const char *dir, size_t *nfiles, struct err *e)
{
	struct sysroot live = { -1, "" };
	char *buf, why[KERNEL_WHY_MAX], rel[256], release[128] = "";
	size_t len;
	int rc = 0;

	for (size_t i = 0; kdev_bundle[i] && rc == 0; i++) {
		if (sysroot_read(&live, kdev_bundle[i], BUNDLE_FILE_MAX, &buf, &len, why, sizeof why) != 0)
			continue;   /* absent here: absent there, "unknown" alike */
		rc = bundle_add(root, kdev_bundle[i], buf, len, dir, nfiles, e);
		if (i == 0)
			kparse_word(buf, len, release, sizeof release, why, sizeof why);
		free(buf);
	}
	if (rc == 0 && release[0] && !strchr(release, '/')) {
		snprintf(rel, sizeof rel, "/boot/config-%s", release);
		if (sysroot_read(&live, rel, BUNDLE_FILE_MAX, &buf, &len, why, sizeof why) == 0) {
			rc = bundle_add(root, rel, buf, len, dir, nfiles, e);
			free(buf);
		}
	}
	if (rc == 0 && kernel_log_read(&live, &buf, &len, why, sizeof why) == 0) {
		rc = bundle_add(root, "dmesg.txt", buf, len, dir, nfiles, e);
		free(buf);
	}
	return rc;
}

int kernel_save_sysroot(const char *dirname, size_t *nfiles, struct err *e)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	size_t n;
	mode_t mask;
	int root, rc;

	*nfiles = 0;
	if (!dirname || !*dirname)
		return err_set(e, ERR_USAGE, "--save-sysroot: empty directory name");
	/* "b/" is b itself: a trailing slash would make lstat and rename
	 * follow a symlink named b */
	n = strlen(dirname);
	while (n > 1 && dirname[n - 1] == '/')
		n--;
	if (n >= sizeof dir)
		return err_set(e, ERR_USAGE, "--save-sysroot %.60s...: path too long", dirname);
	memcpy(dir, dirname, n);
	dir[n] = '\0';
	if ((rc = bundle_check_target(dir, e)) != 0)
		return rc;
	if (bundle_temp_name(dir, tmp, sizeof tmp) != 0)
		return err_set(e, ERR_USAGE, "--save-sysroot %s: not a usable directory name", dir);
	if (!mkdtemp(tmp))
		return err_set_errno(e, ERR_IO, errno, "--save-sysroot %s: cannot make a directory beside it", dir);
	root = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0) {
		rc = err_set_errno(e, ERR_IO, errno, "--save-sysroot %s", tmp);
		(void)rmdir(tmp);
		return rc;
	}
	rc = bundle_fill(root, dir, nfiles, e);
	/* mkdtemp made it 0700: the usual mode of a new directory now */
	mask = umask(0);
	umask(mask);
	if (rc == 0 && (fchmod(root, 0777 & ~mask) != 0 || fsync(root) != 0))
		rc = err_set_errno(e, ERR_IO, errno, "--save-sysroot %s", tmp);
	/* rename(2) replaces an empty directory and nothing else: a DIR that
	 * gained files since the check is left as it is. */
	if (rc == 0 && rename(tmp, dir) != 0) {
		int saved = errno;
		rc = saved == ENOTEMPTY || saved == EEXIST
			     ? err_set(e, ERR_USAGE, "--save-sysroot %s: is no longer empty: nothing written", dir)
			     : err_set_errno(e, ERR_IO, saved, "--save-sysroot %s", dir);
	}
	if (rc != 0) {
		bundle_remove_tree(root);
		(void)rmdir(tmp);
		*nfiles = 0;
		return rc;
	}
	close(root);
	return 0;
}
