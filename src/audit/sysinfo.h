/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sysinfo.h - the machine context a trust decision needs: CPU identity,
 * microcode, kernel, host.  Read from CPUID, /proc/cpuinfo and uname(2). */
#ifndef RNGAUDIT_SYSINFO_H
#define RNGAUDIT_SYSINFO_H

#include "err.h"

struct sysinfo {
	char cpu_vendor[16];      /* "GenuineIntel", "AuthenticAMD", ... ("" if unknown) */
	char cpu_model_name[64];  /* brand string */
	unsigned cpu_family;      /* display family (base + extended) */
	unsigned cpu_model;       /* display model (with extended model) */
	unsigned cpu_stepping;
	unsigned long microcode;  /* /proc/cpuinfo "microcode"; 0 if unknown */
	int microcode_known;
	int has_rdrand, has_rdseed;
	char kernel[128];         /* uname -r */
	char hostname[256];
	char arch[32];            /* uname -m */
};

/* Fills si; never fails hard (unknown fields stay empty / zero). */
int sysinfo_read(struct sysinfo *si, struct err *e);

/* The same from a saved sysroot (sysroot.h): the CPU from its
 * /proc/cpuinfo, the kernel from /proc/sys/kernel/osrelease, the host from
 * /proc/sys/kernel/hostname; no live CPUID.  ERR_USAGE for an unusable
 * sysroot only. */
int sysinfo_read_sysroot(struct sysinfo *si, const char *sysroot, struct err *e);

/* The first processor's identity in /proc/cpuinfo text (x86 field names:
 * vendor_id, cpu family, model, stepping, microcode, model name). */
void sysinfo_parse_cpuinfo(struct sysinfo *si, const char *buf, size_t len);

#endif
