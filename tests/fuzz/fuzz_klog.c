/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_klog.c - libFuzzer target: kernel log text (dmesg.txt of a sysroot,
 * or /dev/kmsg records) and /proc/cpuinfo text, the whole input as both.
 *
 * The log scan may only report the RNG flags it knows, each with its line
 * kept as printable ASCII; the cpuinfo readers must give booleans and a
 * NUL-terminated vendor and brand. */
#include "config.h"

#include "fuzz.h"

#include "audit/kparse.h"
#include "audit/sysinfo.h"

static void check_printable(const char *s, size_t cap)
{
	const char *end = memchr(s, '\0', cap);
	FUZZ_ASSERT(end != NULL);
	for (; s < end; s++)
		FUZZ_ASSERT(*s >= ' ' && *s <= '~');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct kparse_log log;
	struct kparse_cpuflags cf;
	struct sysinfo si;

	kparse_log_scan(buf, size, &log);
	FUZZ_ASSERT((log.cleared & ~(unsigned)(KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED)) == 0);
	check_printable(log.rdrand_line, sizeof log.rdrand_line);
	check_printable(log.rdseed_line, sizeof log.rdseed_line);
	FUZZ_ASSERT(!(log.cleared & KPARSE_LOG_RDSEED) || kparse_log_relevant(buf, size));

	kparse_cpuinfo_flags(buf, size, &cf);
	FUZZ_ASSERT(cf.known == 0 || cf.known == 1);
	FUZZ_ASSERT((cf.rdrand | cf.rdseed | cf.hypervisor) <= 1);
	FUZZ_ASSERT(cf.known || !(cf.rdrand || cf.rdseed || cf.hypervisor));

	memset(&si, 0, sizeof si);
	sysinfo_parse_cpuinfo(&si, buf, size);
	FUZZ_ASSERT(memchr(si.cpu_vendor, '\0', sizeof si.cpu_vendor) != NULL);
	FUZZ_ASSERT(memchr(si.cpu_model_name, '\0', sizeof si.cpu_model_name) != NULL);
	FUZZ_ASSERT(si.microcode_known || si.microcode == 0);
	return 0;
}
