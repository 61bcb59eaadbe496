/* kernel_dev.c - the kernel context's devices: whether this is a guest,
 * the hwrng and its credit, the CRNG's state (see kernel.h; the bundle that
 * carries them to another machine is written by bundle_save.c). */
#include "config.h"

#include "audit/kernel_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif
#if defined(HAVE_CPUID_H) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define KERNEL_HAVE_CPUID 1
#endif

#define KDEV_VALUE_MAX 4096u
/* The kernel's credit unit: bits of entropy per 1024 bits read (hwrng
 * `quality`, drivers/char/hw_random/core.c). */
#define KDEV_QUALITY_FULL 1024ul

static int kdev_word(const struct sysroot *sr, const char *path, char *out, size_t outlen, char *why,
		     size_t whylen)
{
	char *buf, w[96];
	size_t len;
	int rc;
	out[0] = '\0';
	if (sysroot_read(sr, path, KDEV_VALUE_MAX, &buf, &len, w, sizeof w) != 0) {
		snprintf(why, whylen, "%s: %s", path, w);
		return -1;
	}
	rc = kparse_word(buf, len, out, outlen, w, sizeof w);
	if (rc != 0)
		snprintf(why, whylen, "%s: %s", path, w);
	free(buf);
	return rc;
}

static int kdev_uint(const struct sysroot *sr, const char *path, unsigned long max, long *v, char *why,
		     size_t whylen)
{
	char *buf, w[96];
	size_t len;
	unsigned long x;
	int rc;
	if (sysroot_read(sr, path, KDEV_VALUE_MAX, &buf, &len, w, sizeof w) != 0) {
		snprintf(why, whylen, "%s: %s", path, w);
		return -1;
	}
	rc = kparse_uint(buf, len, max, &x, w, sizeof w);
	free(buf);
	if (rc != 0) {
		snprintf(why, whylen, "%s: %s", path, w);
		return -1;
	}
	*v = (long)x;
	return 0;
}

static void kdev_append(char *dst, size_t dlen, const char *s)
{
	size_t n = strlen(dst);
	snprintf(dst + n, dlen - n, "%s%s", n ? "; " : "", s);
}

/* DMI vendors and products that name a virtual machine (systemd-detect-virt's
 * list, shortened to the common clouds and hypervisors). */
static const char *const kdev_vm_dmi[] = {
	"QEMU", "KVM", "VMware", "VirtualBox", "innotek GmbH", "Xen", "Amazon EC2", "Google Compute Engine",
	"Virtual Machine", "Parallels", "Bochs", "OpenStack", "BHYVE", "Firecracker", NULL,
};

void kernel_virt(struct kernel_ctx *k, const struct sysroot *sr, const char *cpuinfo, size_t cilen)
{
	struct kparse_cpuflags cf = { 0 };
	char w[96], why[KERNEL_WHY_MAX], ev[KERNEL_WHY_MAX] = "";
	static const char *const dmi[] = { "/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name" };
	int yes = 0;

	if (cpuinfo)
		kparse_cpuinfo_flags(cpuinfo, cilen, &cf);
	if (cf.known && cf.hypervisor) {
		yes = 1;
		kdev_append(ev, sizeof ev, "/proc/cpuinfo hypervisor flag");
	}
	if (kdev_word(sr, "/sys/hypervisor/type", w, sizeof w, why, sizeof why) == 0) {
		char s[128];
		snprintf(s, sizeof s, "/sys/hypervisor/type %s", w);
		yes = 1;
		kdev_append(ev, sizeof ev, s);
	}
	for (size_t i = 0; i < 2; i++) {
		if (kdev_word(sr, dmi[i], w, sizeof w, why, sizeof why) != 0)
			continue;
		for (size_t j = 0; kdev_vm_dmi[j]; j++)
			if (strstr(w, kdev_vm_dmi[j])) {
				char s[160];
				snprintf(s, sizeof s, "DMI %s", w);
				yes = 1;
				kdev_append(ev, sizeof ev, s);
				break;
			}
	}
#ifdef KERNEL_HAVE_CPUID
	if (sr->dirfd < 0) {
		unsigned a, b, c, d;
		/* CPUID.1:ECX[31] is reserved for hypervisors to set; leaf
		 * 0x40000000 then names the hypervisor ("KVMKVMKVM", "Microsoft Hv"). */
		if (__get_cpuid(1, &a, &b, &c, &d) && (c >> 31)) {
			char v[13], s[64];
			__cpuid(0x40000000, a, b, c, d);
			memcpy(v, &b, 4);
			memcpy(v + 4, &c, 4);
			memcpy(v + 8, &d, 4);
			v[12] = '\0';
			for (size_t i = 12; i > 0 && (v[i - 1] == ' ' || v[i - 1] == '\0'); i--)
				v[i - 1] = '\0';
			for (size_t i = 0; i < 12; i++)
				if (v[i] && (v[i] < ' ' || v[i] > '~'))
					v[i] = '?';
			snprintf(s, sizeof s, "CPUID hypervisor %s", v[0] ? v : "(unnamed)");
			yes = 1;
			kdev_append(ev, sizeof ev, s);
		}
	}
#endif
	if (yes) {
		k->virtualized = KERNEL_ON;
		snprintf(k->virt_evidence, sizeof k->virt_evidence, "%s", ev);
	} else if (cf.known) {
		k->virtualized = KERNEL_OFF;
		snprintf(k->virt_evidence, sizeof k->virt_evidence,
			 "no hypervisor flag in /proc/cpuinfo, no hypervisor in /sys/hypervisor or DMI");
	} else {
		snprintf(k->virt_evidence, sizeof k->virt_evidence, "/proc/cpuinfo unreadable, no other evidence");
	}
}

#define KDEV_HWRNG "/sys/class/misc/hw_random/"
#define KDEV_RNGCORE "/sys/module/rng_core/parameters/"

void kernel_hwrng(struct kernel_ctx *k, const struct sysroot *sr)
{
	static const char *const qpath[] = { KDEV_HWRNG "rng_quality", KDEV_RNGCORE "current_quality",
					     KDEV_RNGCORE "default_quality" };
	static const char *const qname[] = { "rng_quality", "current_quality", "default_quality" };
	char why[KERNEL_WHY_MAX];
	long v;

	if (kdev_word(sr, KDEV_HWRNG "rng_current", k->rng_current, sizeof k->rng_current, why, sizeof why) != 0)
		kdev_append(k->quality_why, sizeof k->quality_why, why);
	if (kdev_word(sr, KDEV_HWRNG "rng_available", k->rng_available, sizeof k->rng_available, why,
		      sizeof why) != 0)
		k->rng_available[0] = '\0';
	if (kdev_uint(sr, KDEV_HWRNG "rng_selected", 1, &v, why, sizeof why) == 0)
		k->rng_selected = (int)v;
	if (kdev_uint(sr, KDEV_RNGCORE "default_quality", KDEV_QUALITY_FULL, &v, why, sizeof why) == 0)
		k->default_quality = v;
	/* rng_quality (since 5.18, 8208285632f9 "hwrng: core - introduce
	 * rng_quality sysfs attribute") is the current device's credit; before
	 * it, current_quality; default_quality is the fallback. */
	for (size_t i = 0; i < 3; i++) {
		if (kdev_uint(sr, qpath[i], KDEV_QUALITY_FULL, &v, why, sizeof why) == 0) {
			k->hwrng_quality = v;
			snprintf(k->quality_from, sizeof k->quality_from, "%s", qname[i]);
			break;
		}
		kdev_append(k->quality_why, sizeof k->quality_why, why);
	}
	/* 16bdbae39428 "hwrng: core - treat default_quality as a maximum and
	 * default to 1024" (6.2): before it default_quality (default 0) was
	 * the quality of drivers that set none, 0 meaning no credit at all;
	 * since, it caps every driver's quality and a driver that sets none
	 * gets 1024. */
	if (!k->release_known)
		snprintf(k->default_quality_meaning, sizeof k->default_quality_meaning,
			 "unknown: its meaning changed in 6.2 and the kernel release is unknown");
	else if (k->major * 1000u + k->minor >= 6002u)
		snprintf(k->default_quality_meaning, sizeof k->default_quality_meaning,
			 "a maximum for every driver's quality (6.2 and later; default 1024)");
	else
		snprintf(k->default_quality_meaning, sizeof k->default_quality_meaning,
			 "the quality of drivers that set none (before 6.2; default 0 = not credited)");
}

void kernel_crng(struct kernel_ctx *k, const struct sysroot *sr)
{
	char why[KERNEL_WHY_MAX];
	if (kdev_uint(sr, "/proc/sys/kernel/random/entropy_avail", 1ul << 20, &k->entropy_avail, why,
		      sizeof why) != 0)
		k->entropy_avail = -1;
	if (kdev_uint(sr, "/proc/sys/kernel/random/poolsize", 1ul << 20, &k->poolsize, why, sizeof why) != 0)
		k->poolsize = -1;
	if (sr->dirfd >= 0) {
		snprintf(k->crng_why, sizeof k->crng_why, "live only: a sysroot cannot show it");
		return;
	}
#if defined(HAVE_GETRANDOM) && defined(GRND_NONBLOCK)
	{
		/* getrandom(2) with GRND_NONBLOCK fails with EAGAIN exactly
		 * while the CRNG is not yet initialised. */
		unsigned char b[4];
		ssize_t r;
		do
			r = getrandom(b, sizeof b, GRND_NONBLOCK);
		while (r < 0 && errno == EINTR);
		if (r > 0) {
			k->crng_ready = KERNEL_ON;
			snprintf(k->crng_why, sizeof k->crng_why, "getrandom(GRND_NONBLOCK) probe");
		} else if (errno == EAGAIN) {
			k->crng_ready = KERNEL_OFF;
			snprintf(k->crng_why, sizeof k->crng_why, "getrandom(GRND_NONBLOCK) would block");
		} else {
			snprintf(k->crng_why, sizeof k->crng_why, "getrandom: %s", strerror(errno));
		}
	}
#else
	snprintf(k->crng_why, sizeof k->crng_why, "no getrandom(2) on this build");
#endif
}
