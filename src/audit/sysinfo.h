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

#endif
