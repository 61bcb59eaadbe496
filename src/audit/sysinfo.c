/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sysinfo.c - CPU identity (CPUID), microcode (/proc/cpuinfo), kernel and host (uname). */
#include "config.h"

#include "audit/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "audit/kparse.h"
#include "audit/sysroot.h"
#include "sources/x86rng.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void sysinfo_cpuid(struct sysinfo *si)
{
	unsigned a, b, c, d, base_family, base_model;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(si->cpu_vendor, &b, 4);
	memcpy(si->cpu_vendor + 4, &d, 4);
	memcpy(si->cpu_vendor + 8, &c, 4);
	si->cpu_vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	/* Intel SDM / AMD APM: display family = base + extended when base is
	 * 0xF; display model adds the extended model for families 6 and 0xF+. */
	base_family = (a >> 8) & 0xF;
	base_model = (a >> 4) & 0xF;
	si->cpu_stepping = a & 0xF;
	si->cpu_family = base_family == 0xF ? base_family + ((a >> 20) & 0xFF) : base_family;
	si->cpu_model = (base_family == 0x6 || base_family == 0xF)
			? (((a >> 16) & 0xF) << 4) + base_model : base_model;
}
#else
static void sysinfo_cpuid(struct sysinfo *si)
{
	(void)si;
}
#endif

/* One "key<TAB>: value" line of the first processor block; ident: also
 * take the CPU identity (a sysroot has no live CPUID). */
static void sysinfo_cpuinfo_line(struct sysinfo *si, const char *line, int ident)
{
	const char *colon = strchr(line, ':'), *v;
	char *end;
	unsigned long x;
	size_t klen;

	if (!colon)
		return;
	for (klen = (size_t)(colon - line); klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'); klen--)
		;
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
#define KEY(s) (klen == sizeof(s) - 1 && strncmp(line, s, klen) == 0)
	if (KEY("microcode")) {
		x = strtoul(v, &end, 0);
		if (end != v) {
			si->microcode = x;
			si->microcode_known = 1;
		}
	} else if (KEY("model name")) {
		snprintf(si->cpu_model_name, sizeof si->cpu_model_name, "%s", v);
	} else if (ident && KEY("vendor_id")) {
		snprintf(si->cpu_vendor, sizeof si->cpu_vendor, "%.15s", v);
	} else if (ident && (KEY("cpu family") || KEY("model") || KEY("stepping"))) {
		x = strtoul(v, &end, 10);
		if (end != v && x <= 0xFFFF) {
			if (KEY("cpu family"))
				si->cpu_family = (unsigned)x;
			else if (KEY("model"))
				si->cpu_model = (unsigned)x;
			else
				si->cpu_stepping = (unsigned)x;
		}
	}
#undef KEY
}

static void sysinfo_cpuinfo_text(struct sysinfo *si, const char *buf, size_t len, int ident)
{
	char line[512];
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
		if (n == 0)
			break;   /* end of the first processor */
		if (n < sizeof line && !memchr(buf + i, '\0', n)) {
			memcpy(line, buf + i, n);
			line[n] = '\0';
			sysinfo_cpuinfo_line(si, line, ident);
		}
		i += n + 1;
	}
}

void sysinfo_parse_cpuinfo(struct sysinfo *si, const char *buf, size_t len)
{
	sysinfo_cpuinfo_text(si, buf, len, 1);
}

/* Microcode revision and brand string from the first processor block. */
static void sysinfo_cpuinfo(struct sysinfo *si)
{
	struct sysroot live = { -1, "" };
	char *buf, why[96];
	size_t len;
	if (sysroot_read(&live, "/proc/cpuinfo", 16u << 20, &buf, &len, why, sizeof why) != 0)
		return;
	sysinfo_cpuinfo_text(si, buf, len, 0);
	free(buf);
}

/* A one-word file of the sysroot into out ("" when unreadable). */
static void sysinfo_word(const struct sysroot *sr, const char *path, char *out, size_t outlen)
{
	char *buf, why[96];
	size_t len;
	out[0] = '\0';
	if (sysroot_read(sr, path, 4096, &buf, &len, why, sizeof why) != 0)
		return;
	if (kparse_word(buf, len, out, outlen, why, sizeof why) != 0)
		out[0] = '\0';
	free(buf);
}

int sysinfo_read_sysroot(struct sysinfo *si, const char *sysroot, struct err *e)
{
	struct sysroot sr;
	char *buf, why[96];
	size_t len;
	int rc;

	memset(si, 0, sizeof *si);
	if ((rc = sysroot_open(&sr, sysroot, e)) != 0)
		return rc;
	if (sysroot_read(&sr, "/proc/cpuinfo", 16u << 20, &buf, &len, why, sizeof why) == 0) {
		sysinfo_parse_cpuinfo(si, buf, len);
		free(buf);
	}
	sysinfo_word(&sr, "/proc/sys/kernel/osrelease", si->kernel, sizeof si->kernel);
	sysinfo_word(&sr, "/proc/sys/kernel/hostname", si->hostname, sizeof si->hostname);
	sysroot_close(&sr);
	return 0;
}

int sysinfo_read(struct sysinfo *si, struct err *e)
{
	struct utsname u;
	(void)e;
	memset(si, 0, sizeof *si);
	sysinfo_cpuid(si);
	sysinfo_cpuinfo(si);
	si->has_rdrand = x86rng_have_rdrand();
	si->has_rdseed = x86rng_have_rdseed();
	if (uname(&u) == 0) {
		snprintf(si->kernel, sizeof si->kernel, "%s", u.release);
		snprintf(si->arch, sizeof si->arch, "%.31s", u.machine);
	}
	if (gethostname(si->hostname, sizeof si->hostname) != 0)
		si->hostname[0] = '\0';
	si->hostname[sizeof si->hostname - 1] = '\0';
	return 0;
}
