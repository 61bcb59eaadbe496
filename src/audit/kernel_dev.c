/* SPDX-License-Identifier: GPL-3.0-or-later */
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

#include "audit/kfacts.h"

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

/* Drivers that set their own quality before 6.2: virtio-rng's 1000 and
 * ChaosKey's 1024, both deleted by 16bdbae39428 (6.2), after which they get
 * min(default_quality, 1024).  Other drivers: not known here. */
static long kdev_driver_quality(const char *rng_current)
{
	if (strncmp(rng_current, "virtio_rng", 10) == 0)
		return 1000;
	if (strncmp(rng_current, "chaoskey", 8) == 0)
		return 1024;
	return -1;
}

/* The credit when only default_quality could be read (an old bundle):
 * never presented as the credit of a driver that sets its own. */
static void kdev_quality_from_default(struct kernel_ctx *k)
{
	int max = kversion_has(&k->kv, &kfact_default_quality_max);
	long own = kdev_driver_quality(k->rng_current);
	char s[KERNEL_WHY_MAX];

	if (k->default_quality < 0)
		return;
	if (max == 1 && own >= 0) {
		/* 6.2+: these drivers set none: min(default_quality, 1024) */
		k->hwrng_quality = k->default_quality;
		snprintf(k->quality_from, sizeof k->quality_from, "default_quality");
	} else if (max == 0 && own >= 0) {
		k->hwrng_quality = own;
		snprintf(k->quality_from, sizeof k->quality_from, "the driver's own");
		snprintf(s, sizeof s, "%s sets its own quality %ld before 6.2, which default_quality does not "
			 "reach", k->rng_current, own);
		kdev_append(k->quality_why, sizeof k->quality_why, s);
	} else {
		snprintf(s, sizeof s, "only default_quality %ld was readable, and %s", k->default_quality,
			 max == 1 ? "it is only a maximum for a driver that may set its own (6.2 and later)"
			 : max == 0 ? "it reaches only drivers that set no quality of their own (before 6.2)"
			 : "its meaning depends on the kernel version, which is unknown");
		kdev_append(k->quality_why, sizeof k->quality_why, s);
	}
}

void kernel_hwrng(struct kernel_ctx *k, const struct sysroot *sr)
{
	/* rng_quality (5.18) is the current device's credit; current_quality,
	 * obsolete since 5.18 but never removed, is before it. */
	static const char *const qpath[] = { KDEV_HWRNG "rng_quality", KDEV_RNGCORE "current_quality" };
	static const char *const qname[] = { "rng_quality", "current_quality" };
	char why[KERNEL_WHY_MAX];
	long v;
	int max;

	if (kdev_word(sr, KDEV_HWRNG "rng_current", k->rng_current, sizeof k->rng_current, why, sizeof why) != 0)
		kdev_append(k->quality_why, sizeof k->quality_why, why);
	if (kdev_word(sr, KDEV_HWRNG "rng_available", k->rng_available, sizeof k->rng_available, why,
		      sizeof why) != 0)
		k->rng_available[0] = '\0';
	if (kdev_uint(sr, KDEV_HWRNG "rng_selected", 1, &v, why, sizeof why) == 0)
		k->rng_selected = (int)v;
	if (kdev_uint(sr, KDEV_RNGCORE "default_quality", KDEV_QUALITY_FULL, &v, why, sizeof why) == 0)
		k->default_quality = v;
	for (size_t i = 0; i < 2; i++) {
		if (kdev_uint(sr, qpath[i], KDEV_QUALITY_FULL, &v, why, sizeof why) == 0) {
			k->hwrng_quality = v;
			snprintf(k->quality_from, sizeof k->quality_from, "%s", qname[i]);
			break;
		}
		kdev_append(k->quality_why, sizeof k->quality_why, why);
	}
	if (k->hwrng_quality < 0)
		kdev_quality_from_default(k);
	max = kversion_has(&k->kv, &kfact_default_quality_max);
	if (max < 0)
		snprintf(k->default_quality_meaning, sizeof k->default_quality_meaning,
			 "unknown: its meaning changed in 6.2 (16bdbae39428) and the kernel release is unknown");
	else if (max)
		snprintf(k->default_quality_meaning, sizeof k->default_quality_meaning,
			 "a maximum for every driver's quality (6.2 and later, 16bdbae39428; default 1024)");
	else
		snprintf(k->default_quality_meaning, sizeof k->default_quality_meaning,
			 "the quality of drivers that set none (before 6.2; default 0 = not credited)");
}

/* What this kernel does with the hwrng's credit and with entropy_avail,
 * by version (kfacts.h), once the CRNG state is known. */
static void kdev_credit_meaning(struct kernel_ctx *k)
{
	int until = kversion_has(&k->kv, &kfact_credit_until_ready);
	int zero = kversion_has(&k->kv, &kfact_quality0_mixed);

	if (until == 1)
		snprintf(k->entropy_avail_meaning, sizeof k->entropy_avail_meaning,
			 "fixed at 256 once the CRNG is seeded (e85c0fc1d94c, 5.19 and the 2022 stable backport): "
			 "not a measure of entropy");
	else if (until == 0)
		snprintf(k->entropy_avail_meaning, sizeof k->entropy_avail_meaning,
			 "the input pool's entropy estimate (before e85c0fc1d94c, 5.19)");
	else
		snprintf(k->entropy_avail_meaning, sizeof k->entropy_avail_meaning,
			 "unknown: fixed at 256 once seeded since 5.19 and the 2022 stable backport, an estimate "
			 "before; this kernel's %s is unknown", k->kv.known ? "sublevel" : "version");
	k->hwrng_credit_counts = KERNEL_UNKNOWN;
	if (until == 1 && k->crng_ready == KERNEL_ON)
		k->hwrng_credit_counts = KERNEL_OFF;
	else if (until == 0 || (until == 1 && k->crng_ready == KERNEL_OFF))
		k->hwrng_credit_counts = KERNEL_ON;
	snprintf(k->hwrng_note, sizeof k->hwrng_note, "%s%s",
		 until == 1 ? "the hwrng's credit counts only until the CRNG is first seeded (e85c0fc1d94c): "
			      "after that its output is mixed in, not credited"
		 : until == 0 ? "the hwrng's credit counts for as long as it runs (before 5.19)"
		 : "whether the hwrng's credit counts after the CRNG is seeded depends on the version (not "
		   "since 5.19 and the 2022 backport), unknown here",
		 zero == 1 ? "; quality 0: read and mixed, never credited (b006c439d58d, 6.1)"
		 : zero == 0 ? "; quality 0 stops the hwrng thread: nothing read or mixed (before 6.1)" : "");
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
		/* Since e85c0fc1d94c entropy_avail reaches 256 exactly when the
		 * CRNG is seeded (POOL_READY_BITS) and stays there. */
		if (k->entropy_avail >= 256 && kversion_has(&k->kv, &kfact_credit_until_ready) == 1) {
			k->crng_ready = KERNEL_ON;
			snprintf(k->crng_why, sizeof k->crng_why, "entropy_avail 256 on a kernel that pins it there once "
				 "seeded (e85c0fc1d94c)");
		} else {
			snprintf(k->crng_why, sizeof k->crng_why, "live only: a sysroot cannot show it");
		}
		kdev_credit_meaning(k);
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
	kdev_credit_meaning(k);
}
