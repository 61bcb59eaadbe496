/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_bundle.c - libFuzzer target: a whole sysroot bundle as the readers
 * of --sysroot see it (kernel_read(), sysinfo_read_sysroot()), issue 24.
 *
 * The input describes a bundle, one entry after another:
 *     @@ f proc/cmdline        a regular file; its content follows, up to the
 *     random.trust_cpu=off     next "\n@@ " or the end of the input
 *     @@ l proc/version        a symlink; the target is the rest of the line
 *     ../../outside/secret     ("@OUT@" stands for the directory outside)
 *     @@ p sys/hypervisor/type a FIFO
 *     @@ c dmesg.txt           a character device (1:3, null; root only)
 *     @@ d sys/class           a directory
 * Parent directories are made as needed; ".." and empty components are
 * dropped from names (the bundle's own layout must stay inside it; what a
 * symlink's target says is the point).
 *
 * Unlike the other targets this one must write files: a bundle is a
 * directory.  It writes only into a private directory made once per process
 * (under /dev/shm when it can, else $TMPDIR or /tmp), empties it after
 * each input, and removes it at exit.
 *
 * Properties: reading never fails for a usable directory and never blocks
 * on a FIFO or device (libFuzzer's -timeout would catch it); every string
 * read stays within its buffer; and nothing outside the bundle is read: the
 * results are the same whether a decoy tree beside the bundle (what
 * "@OUT@" and "../outside" point at, laid out like a bundle) exists or not.
 */
#include "config.h"

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "audit/kernel.h"
#include "audit/sysinfo.h"

#define BUNDLE_ENTRIES_MAX 64
#define BUNDLE_DEPTH_MAX 8

static char top[PATH_MAX];      /* private directory */
static char root[PATH_MAX];     /* top/bundle: the bundle read */
static char out[PATH_MAX];      /* top/outside: the decoy */
static char off[PATH_MAX];      /* top/outside.off: the decoy put away */

static void tree_remove(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		bundle_remove_tree(fd);
	rmdir(path);
}

static void cleanup(void)
{
	if (top[0])
		tree_remove(top);
}

/* mkdir -p of rel's directories under base; returns 0 or -1. */
static int make_parents(const char *base, const char *rel)
{
	char p[PATH_MAX];
	int n = snprintf(p, sizeof p, "%s/%s", base, rel);
	if (n < 0 || (size_t)n >= sizeof p)
		return -1;
	for (char *s = p + strlen(base) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return 0;
}

static void put_file(const char *base, const char *rel, const char *data, size_t len)
{
	char p[PATH_MAX];
	FILE *fp;
	if (make_parents(base, rel) != 0 || snprintf(p, sizeof p, "%s/%s", base, rel) >= (int)sizeof p)
		return;
	fp = fopen(p, "wbx");
	if (fp) {
		fwrite(data, 1, len, fp);
		fclose(fp);
	}
}

/* The decoy beside the bundle: what a symlink out of it would find. */
static void make_decoy(void)
{
	static const char *const files[] = { "proc/cmdline", "proc/sys/kernel/osrelease",
					     "proc/sys/kernel/hostname", "proc/cpuinfo", "dmesg.txt",
					     "sys/hypervisor/type", "sys/class/misc/hw_random/rng_quality",
					     "sys/class/misc/hw_random/rng_current", "secret", NULL };
	static const char text[] = "vendor_id\t: DecoyDecoy\nmodel name\t: decoy\nmicrocode\t: 0x77\n"
				   "random.trust_cpu=off nordrand 6.6.6 512\n";
	mkdir(out, 0755);
	for (size_t i = 0; files[i]; i++)
		put_file(out, files[i], text, sizeof text - 1);
}

static int setup(void)
{
	const char *bases[] = { "/dev/shm", getenv("TMPDIR"), "/tmp" };
	for (size_t i = 0; i < sizeof bases / sizeof bases[0] && !top[0]; i++) {
		if (!bases[i] || !*bases[i])
			continue;
		snprintf(top, sizeof top, "%s/rngaudit-fuzz-bundle-XXXXXX", bases[i]);
		if (!mkdtemp(top))
			top[0] = '\0';
	}
	if (!top[0])
		return -1;
	snprintf(root, sizeof root, "%s/bundle", top);
	snprintf(out, sizeof out, "%s/outside", top);
	snprintf(off, sizeof off, "%s/outside.off", top);
	make_decoy();
	atexit(cleanup);
	return 0;
}

/* name made safe as a path inside the bundle: no "", ".", ".." components,
 * at most BUNDLE_DEPTH_MAX of them. */
static int clean_name(const char *in, size_t len, char *rel, size_t rlen)
{
	size_t o = 0, depth = 0, i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && in[j] != '/')
			j++;
		if (j > i && !(j - i == 1 && in[i] == '.') && !(j - i == 2 && in[i] == '.' && in[i + 1] == '.') &&
		    j - i < NAME_MAX) {
			if (++depth > BUNDLE_DEPTH_MAX || o + (j - i) + 2 > rlen)
				return -1;
			if (o)
				rel[o++] = '/';
			memcpy(rel + o, in + i, j - i);
			o += j - i;
		}
		i = j + 1;
	}
	rel[o] = '\0';
	return o ? 0 : -1;
}

/* Builds the bundle the input describes under root. */
static void build(const char *s, size_t n)
{
	size_t at = 0, entries = 0;
	mkdir(root, 0755);
	while (at + 4 < n && entries < BUNDLE_ENTRIES_MAX) {
		const char *head, *eol, *body, *next;
		char kind, rel[512], p[PATH_MAX];
		size_t blen;
		if (memcmp(s + at, "@@ ", 3) != 0) {
			const char *m = memmem(s + at, n - at, "\n@@ ", 4);
			if (!m)
				break;
			at = (size_t)(m - s) + 1;
			continue;
		}
		head = s + at + 3;
		eol = memchr(head, '\n', n - (size_t)(head - s));
		if (!eol)
			eol = s + n;
		body = eol < s + n ? eol + 1 : eol;
		next = memmem(body, n - (size_t)(body - s), "\n@@ ", 4);
		blen = next ? (size_t)(next - body) : n - (size_t)(body - s);
		at = next ? (size_t)(next - s) + 1 : n;
		entries++;
		if (eol - head < 3 || head[1] != ' ')
			continue;
		kind = head[0];
		if (clean_name(head + 2, (size_t)(eol - head - 2), rel, sizeof rel) != 0 ||
		    make_parents(root, rel) != 0 || snprintf(p, sizeof p, "%s/%s", root, rel) >= (int)sizeof p)
			continue;
		switch (kind) {
		case 'f':
			put_file(root, rel, body, blen);
			break;
		case 'd':
			mkdir(p, 0755);
			break;
		case 'p':
			mkfifo(p, 0600);
			break;
		case 'c':
			mknod(p, S_IFCHR | 0600, makedev(1, 3));
			break;
		case 'l': {
			char target[PATH_MAX];
			const char *le = memchr(body, '\n', blen);
			size_t tl = le ? (size_t)(le - body) : blen, o = 0;
			for (size_t i = 0; i < tl && o + strlen(out) + 1 < sizeof target;) {
				if (tl - i >= 5 && memcmp(body + i, "@OUT@", 5) == 0) {
					o += (size_t)snprintf(target + o, sizeof target - o, "%s", out);
					i += 5;
				} else if (body[i] == '\0') {
					break;
				} else {
					target[o++] = body[i++];
				}
			}
			target[o] = '\0';
			if (o)
				symlink(target, p);
			break;
		}
		default:
			break;
		}
	}
}

/* 1 when buf[0..len-1] holds a NUL (a string that ends inside its buffer). */
static int ends(const char *buf, size_t len)
{
	return memchr(buf, '\0', len) != NULL;
}

static void read_bundle(struct kernel_ctx *k, struct sysinfo *si)
{
	struct kernel_read_opts ko = { 0 };
	struct err e;
	memset(k, 0, sizeof *k);
	memset(si, 0, sizeof *si);
	ko.sysroot = root;
	FUZZ_ASSERT(kernel_read(k, &ko, &e) == 0);
	FUZZ_ASSERT(sysinfo_read_sysroot(si, root, &e) == 0);
	FUZZ_ASSERT(ends(si->cpu_vendor, sizeof si->cpu_vendor) && ends(si->cpu_model_name, sizeof si->cpu_model_name) &&
		    ends(si->kernel, sizeof si->kernel) && ends(si->hostname, sizeof si->hostname));
	FUZZ_ASSERT(ends(k->release, sizeof k->release) && ends(k->trust_cpu.reason, sizeof k->trust_cpu.reason) &&
		    ends(k->rng_current, sizeof k->rng_current) && ends(k->flags_evidence, sizeof k->flags_evidence) &&
		    ends(k->virt_evidence, sizeof k->virt_evidence) && ends(k->cleared_names, sizeof k->cleared_names));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kernel_ctx k1, k2;
	static struct sysinfo s1, s2;
	int fd;

	if (!top[0] && setup() != 0)
		return 0;
	build((const char *)data, size);
	read_bundle(&k1, &s1);
	/* the decoy put away: the same reading, or something outside was read */
	if (rename(out, off) == 0) {
		read_bundle(&k2, &s2);
		rename(off, out);
		FUZZ_ASSERT(memcmp(&s1, &s2, sizeof s1) == 0);
		FUZZ_ASSERT(memcmp(&k1, &k2, sizeof k1) == 0);
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		bundle_remove_tree(fd);
	return 0;
}
