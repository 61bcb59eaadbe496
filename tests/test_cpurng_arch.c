/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cpurng_arch.c - what the kernel seeds from on arm64, powerpc, s390x
 * and riscv64 (issue 27 item 2), from the sysroot fixtures under
 * tests/data/sysroot/ (cpuinfo, cmdline, kernel log, hwrng list of each)
 * and from inputs made here.  The expected sources are the kernel's own
 * (commits cited in src/audit/cpurng_arch.c). */
#include "config.h"

#include <stdlib.h>

#include "audit/cpurng_arch.h"
#include "tap.h"

static int fixture(const char *name, struct cpurng_arch *a)
{
	char dir[1024];
	struct err e = { 0 };
	snprintf(dir, sizeof dir, "%s/tests/data/sysroot/%s", getenv("top_srcdir") ? getenv("top_srcdir") : ".", name);
	return cpurng_arch_read(a, dir, &e);
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void expect(const char *name, const char *machine, const char *seed, const char *longs, const char *audit,
		   int has, const char *note)
{
	struct cpurng_arch a;
	int rc = fixture(name, &a);
	tap_ok(rc == 0 && strcmp(a.machine, machine) == 0, "%s: machine %s (from %s)", name, a.machine,
	       a.machine_from);
	tap_ok(rc == 0 && starts(a.seed, seed), "%s: seed from '%s' (want '%s...')", name, a.seed, seed);
	tap_ok(rc == 0 && starts(a.longs, longs), "%s: longs from '%s'", name, a.longs);
	tap_ok(rc == 0 && (audit ? a.audit_source && strcmp(a.audit_source, audit) == 0 : !a.audit_source),
	       "%s: audit with %s", name, a.audit_source ? a.audit_source : "nothing");
	tap_ok(rc == 0 && a.has_cpu_rng == has, "%s: the kernel has a CPU RNG to credit: %d", name, a.has_cpu_rng);
	tap_ok(rc == 0 && a.trust_cpu_governs, "%s: random.trust_cpu governs the boot credit", name);
	if (note)
		tap_ok(rc == 0 && strstr(a.note, note) != NULL, "%s: note says '%s'", name, note);
}

static void test_fixtures(void)
{
	/* arm64: RNDRRS for the seed, RNDR for longs (1a50ec0b3b2e) */
	expect("arm64-graviton3", "aarch64", "RNDRRS (/proc/cpuinfo Features lists rng)", "RNDR", "rndrrs", 1,
	       "random.trust_cpu decides");
	/* the SMCCC firmware TRNG comes first (38db987316a3); its hwrng is current */
	expect("arm64-smccc-trust-off", "aarch64",
	       "SMCCC TRNG firmware call (rng_available lists smccc_trng), then RNDRRS", "RNDR", "hwrng", 1,
	       "user space cannot make that call");
	/* no /proc/sys/kernel/arch: the machine from cpuinfo's fields; no FEAT_RNG */
	expect("arm64-cortex-a72", "aarch64", "none (no rng in /proc/cpuinfo Features", "none", NULL, 0, NULL);
	/* powernv on POWER9: darn L=1 (initialise_darn) */
	expect("ppc64le-powernv-p9", "ppc64le", "darn L=1 (powernv on POWER9", "none", "darn", 1, "darn L=1");
	/* a 5.15 whose darn failed at boot: the MMIO RNG, and the hook came after the seeding */
	expect("ppc64le-powernv-p9-k515-nodarn", "ppc64le", "the on-chip RNG over MMIO (darn failed", "none", "hwrng",
	       1, "Before 5.19");
	/* pseries: H_RANDOM, the hypervisor's (a489043f4626) */
	expect("ppc64le-pseries", "ppc64le", "the H_RANDOM hypercall (pseries guest; rng_available lists pseries-rng)",
	       "none", "hwrng", 1, "trusting the host");
	/* s390x: PRNO-TRNG on z14 and later (e4f74400308c) */
	expect("s390x-z15", "s390x", "PRNO-TRNG (CPACF function 114: machine type 8561)", "none", "trng", 1, NULL);
	expect("s390x-z13", "s390x", "none (machine type 2964 predates the TRNG", "none", NULL, 0, NULL);
	/* riscv64: the seed CSR (102434010592), out of user space's reach; DEAD logged */
	expect("riscv64-zkr", "riscv64", "the seed CSR (Zkr in /proc/cpuinfo isa)", "none", NULL, 1,
	       "Unrecoverable error");
}

static void test_decide(void)
{
	struct cpurng_arch_input in;
	struct cpurng_arch a;
	static const char arm[] = "processor\t: 0\nFeatures\t: fp asimd rng\nCPU implementer\t: 0x41\n";
	static const char rv[] = "processor\t: 0\nisa\t\t: rv64imafdc_zicsr_zkr\n";
	static const char rvno[] = "processor\t: 0\nisa\t\t: rv64imafdc_zicsr_zkrx\n";

	memset(&in, 0, sizeof in);
	in.machine = "aarch64";
	in.cpuinfo = arm;
	in.cpuinfo_len = sizeof arm - 1;
	in.release_known = 1;
	in.major = 5;
	in.minor = 4;
	cpurng_arch_decide(&in, &a);
	tap_ok(a.has_cpu_rng == 0 && starts(a.seed, "none (this kernel predates"),
	       "arm64 on 5.4: no arch RNG before 5.6 (1a50ec0b3b2e): %s", a.seed);
	in.minor = 6;
	cpurng_arch_decide(&in, &a);
	tap_ok(a.has_cpu_rng == 1 && starts(a.seed, "RNDRRS") && strstr(a.seed, "rng_available is unreadable"),
	       "arm64 on 5.6, hwrng list unknown: RNDRRS, and says an SMCCC TRNG would come first");
	in.machine = "riscv64";
	in.cpuinfo = rv;
	in.cpuinfo_len = sizeof rv - 1;
	in.major = 6;
	in.minor = 6;
	cpurng_arch_decide(&in, &a);
	tap_ok(a.has_cpu_rng == 0 && starts(a.seed, "none (Zkr, but this kernel predates"),
	       "riscv64 with Zkr on 6.6: the kernel does not use it");
	in.minor = 8;
	cpurng_arch_decide(&in, &a);
	tap_ok(a.has_cpu_rng == 1 && starts(a.seed, "the seed CSR"), "riscv64 with Zkr on 6.8: the seed CSR");
	in.cpuinfo = rvno;
	in.cpuinfo_len = sizeof rvno - 1;
	cpurng_arch_decide(&in, &a);
	tap_ok(a.has_cpu_rng == 0, "riscv64: 'zkrx' is not the zkr extension (whole tokens only)");
	memset(&in, 0, sizeof in);
	cpurng_arch_decide(&in, &a);
	tap_ok(a.arch == CPURNG_ARCH_UNKNOWN && starts(a.seed, "unknown") && !a.trust_cpu_governs,
	       "nothing known: unknown, nothing claimed");
	in.machine = "x86_64";
	cpurng_arch_decide(&in, &a);
	tap_ok(a.arch == CPURNG_ARCH_X86 && starts(a.seed, "RDSEED") && strcmp(cpurng_arch_trust_note(&a), "") == 0,
	       "x86_64: RDSEED, and no extra trust note (kernel.c covers x86)");

	tap_ok(cpurng_arch_log_relevant("[ 0.79] smccc_trng smccc_trng: ARM SMCCC TRNG firmware random number "
					"generator v1.0", 90), "the SMCCC TRNG driver's line is kept for dmesg.txt");
	tap_ok(cpurng_arch_log_relevant("archrandom: Unrecoverable error", 31), "riscv's DEAD line is kept");
	tap_ok(!cpurng_arch_log_relevant("random: crng init done", 22), "an unrelated line is not");
	tap_eq_str(cpurng_arch_insn("rndrrs"), "RNDRRS", "rndrrs is RNDRRS in sentences");
	tap_ok(cpurng_arch_insn("rdrand") == NULL, "rdrand is not one of them (trust.c names it)");
}

int main(void)
{
	test_fixtures();
	test_decide();
	return tap_done();
}
