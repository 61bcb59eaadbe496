/* fuzz_kcmdline.c - libFuzzer target: a kernel command line (/proc/cmdline,
 * or a sysroot's), the whole input as its bytes (binary junk included).
 *
 * Each parameter the kernel context reads is looked up; every value found
 * must be a NUL-terminated string within its buffer, read as a boolean the
 * way the kernel does, and resolved into a trust setting for a few kernel
 * versions: the setting must be on, off or unknown, with a source and a
 * reason. */
#include "config.h"

#include "fuzz.h"

#include "audit/kernel.h"
#include "audit/kparse.h"

static void check_resolve(int param, const char *val)
{
	static const unsigned versions[][2] = { { 4, 14 }, { 4, 19 }, { 5, 10 }, { 5, 18 }, { 6, 1 }, { 6, 18 } };
	for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
		for (int kind = KERNEL_TRUST_CPU; kind <= KERNEL_TRUST_BOOTLOADER; kind++) {
			struct kernel_trust_input in = { 1, versions[v][0], versions[v][1], 1, param, val, 1, 1, "y" };
			struct kernel_trust t;
			kernel_trust_resolve((enum kernel_trust_kind)kind, &in, &t);
			FUZZ_ASSERT(t.state == KERNEL_ON || t.state == KERNEL_OFF || t.state == KERNEL_UNKNOWN);
			FUZZ_ASSERT(t.source[0] && t.reason[0]);
			FUZZ_ASSERT(memchr(t.reason, '\0', sizeof t.reason) != NULL);
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "random.trust_cpu", "random.trust_bootloader", "clearcpuid",
					     "nordrand" };
	const char *buf = (const char *)data;
	char val[64];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int r;
		memset(val, 'x', sizeof val);
		r = kparse_cmdline_param(buf, size, names[i], val, sizeof val);
		FUZZ_ASSERT(r >= 0 && r <= 2);
		FUZZ_ASSERT(memchr(val, '\0', sizeof val) != NULL);
		if (r == 1) {
			int b = kparse_kstrtobool(val, strlen(val));
			FUZZ_ASSERT(b >= -1 && b <= 1);
			FUZZ_ASSERT(kparse_clearcpuid(val, strlen(val)) <= (KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED));
		}
		if (i < 2)
			check_resolve(r, val);
	}
	/* A tiny value buffer truncates, never overruns. */
	memset(val, 'x', sizeof val);
	(void)kparse_cmdline_param(buf, size, "random.trust_cpu", val, 2);
	FUZZ_ASSERT(memchr(val, '\0', 2) != NULL && val[2] == 'x');
	return 0;
}
