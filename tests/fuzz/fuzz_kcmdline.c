/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "audit/kversion.h"

/* The whole input as the command line, resolved for kernels of several
 * eras (and an unknown one): always on, off or unknown, with a reason. */
static void check_resolve(const char *buf, size_t size)
{
	static const char *const releases[] = { "4.14.200", "4.19.0", "5.10.0-28-amd64", "5.10.209", "5.18.0",
						"6.1.0", "6.16.3", "6.18.2", "junk" };
	for (size_t v = 0; v < sizeof releases / sizeof releases[0]; v++)
		for (int kind = KERNEL_TRUST_CPU; kind <= KERNEL_TRUST_BOOTLOADER; kind++) {
			struct kernel_trust_input in = { 0 };
			struct kernel_trust t;
			kversion_from_release(releases[v], strlen(releases[v]), &in.v);
			in.cmdline = buf;
			in.cmdline_len = size;
			in.config_known = 1;
			in.option = 1;
			in.option_value = "y";
			kernel_trust_resolve((enum kernel_trust_kind)kind, &in, &t);
			FUZZ_ASSERT(t.state == KERNEL_ON || t.state == KERNEL_OFF || t.state == KERNEL_UNKNOWN);
			FUZZ_ASSERT(t.source[0] && t.reason[0]);
			FUZZ_ASSERT(memchr(t.reason, '\0', sizeof t.reason) != NULL);
			/* a known state always says where it came from */
			FUZZ_ASSERT(t.state == KERNEL_UNKNOWN || strcmp(t.source, "unknown") != 0);
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
			unsigned u, c;
			int b = kparse_kstrtobool(val, strlen(val));
			FUZZ_ASSERT(b >= -1 && b <= 1);
			FUZZ_ASSERT(kparse_clearcpuid(val, strlen(val)) <= (KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED));
			c = kparse_clearcpuid_v(val, strlen(val), 0, -1, &u);
			FUZZ_ASSERT((c & u) == 0 && (c | u) <= (KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED));
			b = kparse_kstrtobool_v(val, strlen(val), 0);
			FUZZ_ASSERT(b >= -2 && b <= 1);
		}
	}
	check_resolve(buf, size);
	/* A tiny value buffer truncates, never overruns. */
	memset(val, 'x', sizeof val);
	(void)kparse_cmdline_param(buf, size, "random.trust_cpu", val, 2);
	FUZZ_ASSERT(memchr(val, '\0', 2) != NULL && val[2] == 'x');
	return 0;
}
