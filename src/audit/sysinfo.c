/* sysinfo.c - CPU identity (CPUID), microcode (/proc/cpuinfo), kernel and host (uname). */
#include "config.h"

#include "audit/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

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

/* Microcode revision and brand string from the first processor block. */
static void sysinfo_cpuinfo(struct sysinfo *si)
{
	char line[512];
	FILE *fp = fopen("/proc/cpuinfo", "r");
	if (!fp)
		return;
	while (fgets(line, sizeof line, fp)) {
		char *colon = strchr(line, ':');
		if (line[0] == '\n')
			break;   /* end of the first processor */
		if (!colon)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "microcode", 9) == 0) {
			char *end;
			unsigned long v = strtoul(colon + 1, &end, 0);
			if (end != colon + 1) {
				si->microcode = v;
				si->microcode_known = 1;
			}
		} else if (strncmp(line, "model name", 10) == 0) {
			const char *v = colon + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(si->cpu_model_name, sizeof si->cpu_model_name, "%s", v);
		}
	}
	fclose(fp);
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
