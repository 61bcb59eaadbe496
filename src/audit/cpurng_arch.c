/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpurng_arch.c - the kernel's CPU RNG per architecture (see cpurng_arch.h).
 *
 * What every architecture shares (drivers/char/random.c): at boot,
 * random_init_early() fills its seed from arch_get_random_seed_longs(),
 * falling back to arch_get_random_longs(), mixes it in, and credits it only
 * `if (trust_cpu)`; off, the output is still mixed in, only not counted.
 * The loop over several longs is d349ab99eec7 "random: handle archrandom
 * with multiple longs"; the early step is f62384995e4c "random: split
 * initialization into early step and later step".  So random.trust_cpu
 * governs the boot credit of whatever the architecture returns, and the
 * recommendation is the rule trust.c applies to RDRAND and RDSEED.
 *
 * Per architecture (kernel source as it stands, and the commits named):
 *  - arm64 (arch/arm64/include/asm/archrandom.h): seed longs from the SMCCC
 *    TRNG firmware call when the firmware offers it (38db987316a3 "arm64:
 *    Add support for SMCCC TRNG entropy source"), else RNDRRS; longs from
 *    RNDR (1a50ec0b3b2e "arm64: Implement archrandom.h for ARMv8.5-RNG",
 *    5.6).  The firmware call is out of user space's reach; the smccc_trng
 *    hwrng driver reads it through /dev/hwrng when it is the current hwrng.
 *  - powerpc (arch/powerpc/include/asm/archrandom.h: seed longs from
 *    ppc_md.get_random_seed, no longs): powernv registers the on-chip RNG
 *    (MMIO, "ibm,power-rng") and on ISA 3.0 CPUs replaces it with darn L=1
 *    (arch/powerpc/platforms/powernv/rng.c, initialise_darn()); pseries
 *    uses the H_RANDOM hypercall when the "ibm,random" node exists
 *    (a489043f4626 "powerpc/pseries: Implement arch_get_random_long() based
 *    on H_RANDOM").  Both hooks were registered by initcalls, after the
 *    boot seeding, until f3eac426657d "powerpc/powernv: wire up rng during
 *    setup_arch" and e561e472a3d4 "powerpc/pseries: wire up rng during
 *    setup_arch()" (5.19, also in the 5.18.y stable series and older ones).
 *  - s390x (arch/s390/include/asm/archrandom.h): seed longs from CPACF
 *    PRNO-TRNG when the machine has it, no longs (e4f74400308c
 *    "s390/archrandom: simplify back to earlier design and initialize
 *    earlier", 5.19).  PRNO-TRNG is message-security-assist extension 7:
 *    z14 and later.
 *  - riscv (arch/riscv/include/asm/archrandom.h): seed longs from the Zkr
 *    seed CSR, no longs (102434010592 "RISC-V: Implement archrandom when Zkr
 *    is available", pushed to the riscv tree for the 6.8 merge window);
 *    the kernel does not let user space read the CSR.
 *
 * Quirks: no public errata are known for RNDR/RNDRRS, darn, PRNO-TRNG or
 * the seed CSR (searched: mailing-list archives, kernel history), so the
 * quirk table has no entries for them.
 */
#include "config.h"

#include "audit/cpurng_arch.h"
#include "audit/kversion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "audit/kernel_int.h"
#include "audit/kparse.h"
#include "audit/sysroot.h"


/* The value of the first "KEY : value" line of cpuinfo (the key trimmed of
 * tabs and spaces); 0 when absent. */
static int ca_field(const char *buf, size_t len, const char *key, char *out, size_t outlen)
{
	size_t i = 0, klen = strlen(key);
	while (buf && i < len) {
		const char *line = buf + i, *nl = memchr(line, '\n', len - i), *colon;
		size_t n = nl ? (size_t)(nl - line) : len - i, k;
		i += n + 1;
		colon = memchr(line, ':', n);
		if (!colon)
			continue;
		for (k = (size_t)(colon - line); k && (line[k - 1] == ' ' || line[k - 1] == '\t'); k--)
			;
		if (k != klen || strncmp(line, key, klen) != 0)
			continue;
		colon++;
		while (colon < line + n && (*colon == ' ' || *colon == '\t'))
			colon++;
		k = (size_t)(line + n - colon);
		if (k >= outlen)
			k = outlen - 1;
		memcpy(out, colon, k);
		out[k] = '\0';
		return 1;
	}
	return 0;
}

/* Whether word is one of the tokens of s separated by any of seps. */
static int ca_has_token(const char *s, const char *word, const char *seps)
{
	size_t wl = strlen(word);
	while (s && *s) {
		size_t n = strcspn(s, seps);
		if (n == wl && strncmp(s, word, wl) == 0)
			return 1;
		s += n;
		s += strspn(s, seps);
	}
	return 0;
}

static int ca_log_has(const struct cpurng_arch_input *in, const char *needle)
{
	size_t nl = strlen(needle);
	if (!in->log || nl == 0 || in->log_len < nl)
		return 0;
	for (size_t i = 0; i + nl <= in->log_len; i++)
		if (in->log[i] == needle[0] && memcmp(in->log + i, needle, nl) == 0)
			return 1;
	return 0;
}

/* Kernel log lines that tell which CPU or firmware RNG the kernel found. */
static const char *const ca_log_lines[] = {
	"ARM SMCCC TRNG firmware random number generator",   /* the smccc_trng hwrng driver's probe */
	"Registering arch random hook",                      /* powernv/pseries before 5.19 */
	"Unable to use DARN for get_random_seed",            /* powernv before 5.19 */
	"archrandom: Unrecoverable error",                   /* riscv: the seed CSR said DEAD */
	NULL,
};

int cpurng_arch_log_relevant(const char *line, size_t len)
{
	for (size_t k = 0; ca_log_lines[k]; k++) {
		size_t nl = strlen(ca_log_lines[k]);
		for (size_t i = 0; i + nl <= len; i++)
			if (memcmp(line + i, ca_log_lines[k], nl) == 0)
				return 1;
	}
	return 0;
}

static enum cpurng_arch_kind ca_kind(const char *m)
{
	if (!m || !*m)
		return CPURNG_ARCH_UNKNOWN;
	if (strcmp(m, "x86_64") == 0 || (m[0] == 'i' && strcmp(m + 2, "86") == 0))
		return CPURNG_ARCH_X86;
	if (strcmp(m, "aarch64") == 0 || strcmp(m, "arm64") == 0)
		return CPURNG_ARCH_ARM64;
	if (strncmp(m, "ppc64", 5) == 0)
		return CPURNG_ARCH_PPC64;
	if (strcmp(m, "s390x") == 0)
		return CPURNG_ARCH_S390X;
	if (strcmp(m, "riscv64") == 0)
		return CPURNG_ARCH_RISCV64;
	return CPURNG_ARCH_OTHER;
}

/* A sysroot saved without /proc/sys/kernel/arch: the machine from the
 * fields its /proc/cpuinfo has (each architecture prints its own). */
static const char *ca_machine_from_cpuinfo(const struct cpurng_arch_input *in)
{
	char v[128];
	if (ca_field(in->cpuinfo, in->cpuinfo_len, "vendor_id", v, sizeof v))
		return strncmp(v, "IBM/S390", 8) == 0 ? "s390x" : "x86_64";
	if (ca_field(in->cpuinfo, in->cpuinfo_len, "CPU implementer", v, sizeof v))
		return "aarch64";
	if (ca_field(in->cpuinfo, in->cpuinfo_len, "isa", v, sizeof v) && strncmp(v, "rv64", 4) == 0)
		return "riscv64";
	if (ca_field(in->cpuinfo, in->cpuinfo_len, "cpu", v, sizeof v) && strncmp(v, "POWER", 5) == 0)
		return "ppc64le";
	return NULL;
}

static void ca_say(struct cpurng_arch *a, const char *s)
{
	size_t n = strlen(a->note);
	snprintf(a->note + n, sizeof a->note - n, "%s%s", n ? " " : "", s);
}

static int ca_before(const struct cpurng_arch_input *in, unsigned maj, unsigned min)
{
	return in->release_known && KV(in->major, in->minor) < KV(maj, min);
}

static int ca_current_is(const struct cpurng_arch_input *in, const char *name)
{
	return in->rng_current && strncmp(in->rng_current, name, strlen(name)) == 0;
}

static void ca_arm64(const struct cpurng_arch_input *in, struct cpurng_arch *a)
{
	char v[1024];
	int feat = -1, smccc = -1;

	if (ca_field(in->cpuinfo, in->cpuinfo_len, "Features", v, sizeof v))
		feat = ca_has_token(v, "rng", " \t");
	if (ca_log_has(in, ca_log_lines[0]) || (in->rng_available && strstr(in->rng_available, "smccc_trng")))
		smccc = 1;
	else if (in->rng_available)
		smccc = 0;
	if (ca_before(in, 5, 6)) {
		snprintf(a->seed, sizeof a->seed, "none (this kernel predates arm64's arch RNG, 5.6)");
		snprintf(a->longs, sizeof a->longs, "none");
		a->has_cpu_rng = 0;
		ca_say(a, "Before 5.6 (1a50ec0b3b2e) the arm64 kernel reads no CPU RNG: random.trust_cpu has nothing "
			  "to credit.");
		return;
	}
	snprintf(a->longs, sizeof a->longs, "%s", feat == 1 ? "RNDR" : feat == 0 ? "none (no FEAT_RNG)" : "unknown");
	if (smccc == 1) {
		snprintf(a->seed, sizeof a->seed, "SMCCC TRNG firmware call (%s)%s",
			 in->rng_available && strstr(in->rng_available, "smccc_trng") ? "rng_available lists smccc_trng"
										   : "kernel log",
			 feat == 1 ? ", then RNDRRS" : "");
		a->has_cpu_rng = 1;
		a->audit_source = ca_current_is(in, "smccc_trng") ? "hwrng" : NULL;
		ca_say(a, "The kernel prefers the firmware's TRNG (SMCCC TRNG, 38db987316a3) to RNDRRS for its seed; "
			  "user space cannot make that call, so rngaudit audits it only through /dev/hwrng when "
			  "smccc_trng is the current hwrng.");
	} else if (feat == 1) {
		snprintf(a->seed, sizeof a->seed, "RNDRRS (/proc/cpuinfo Features lists rng)%s",
			 smccc < 0 ? "; an SMCCC TRNG would come first, and rng_available is unreadable" : "");
		a->has_cpu_rng = 1;
		a->audit_source = "rndrrs";
		ca_say(a, "The kernel seeds from RNDRRS (a DRBG reseeded from the entropy source on every read) and "
			  "falls back to RNDR: audit rndrrs and rndr.");
	} else if (feat == 0) {
		snprintf(a->seed, sizeof a->seed, "none (no rng in /proc/cpuinfo Features%s)",
			 smccc == 0 ? ", no smccc_trng" : "");
		a->has_cpu_rng = smccc == 0 ? 0 : -1;
	} else {
		snprintf(a->seed, sizeof a->seed, "unknown (/proc/cpuinfo has no Features line)");
		a->has_cpu_rng = -1;
	}
}

static void ca_ppc64(const struct cpurng_arch_input *in, struct cpurng_arch *a)
{
	char platform[64] = "", cpu[128] = "";
	int isa300;

	ca_field(in->cpuinfo, in->cpuinfo_len, "platform", platform, sizeof platform);
	ca_field(in->cpuinfo, in->cpuinfo_len, "cpu", cpu, sizeof cpu);
	/* ISA 3.0 and later: POWER9, POWER10, POWER11 (POWER8 is 2.07) */
	isa300 = strncmp(cpu, "POWER", 5) == 0 && atoi(cpu + 5) >= 9;
	snprintf(a->longs, sizeof a->longs, "none (powerpc has no arch_get_random_longs)");
	if (strcmp(platform, "PowerNV") == 0) {
		a->has_cpu_rng = 1;
		if (isa300 && ca_log_has(in, ca_log_lines[2])) {
			snprintf(a->seed, sizeof a->seed, "the on-chip RNG over MMIO (darn failed its 10 tries at boot)");
			a->audit_source = ca_current_is(in, "powernv-rng") ? "hwrng" : NULL;
			ca_say(a, "The kernel log says darn returned only its error value at boot (\"Unable to use DARN "
				  "for get_random_seed()\"), so the kernel kept the chip's MMIO RNG: audit darn to see it "
				  "fail.");
		} else if (isa300) {
			snprintf(a->seed, sizeof a->seed, "darn L=1 (powernv on %.20s: ISA 3.0)", cpu);
			a->audit_source = "darn";
			ca_say(a, "On powernv with an ISA 3.0 CPU the kernel seeds from darn L=1, the conditioned "
				  "output rngaudit's darn reads.");
		} else {
			snprintf(a->seed, sizeof a->seed, "the on-chip RNG over MMIO (powernv on %.20s; no darn)",
				 cpu[0] ? cpu : "an unknown CPU");
			a->audit_source = ca_current_is(in, "powernv-rng") ? "hwrng" : NULL;
			ca_say(a, "Without darn the kernel seeds from the chip's RNG over MMIO, which user space reads "
				  "only through /dev/hwrng (powernv-rng).");
		}
	} else if (strcmp(platform, "pSeries") == 0) {
		int listed = in->rng_available && strstr(in->rng_available, "pseries-rng");
		snprintf(a->seed, sizeof a->seed, "the H_RANDOM hypercall (pseries guest%s)",
			 listed ? "; rng_available lists pseries-rng" : ", when the hypervisor offers ibm,random");
		a->has_cpu_rng = listed ? 1 : -1;
		a->audit_source = ca_current_is(in, "pseries-rng") ? "hwrng" : NULL;
		ca_say(a, "A pseries guest seeds from the hypervisor's H_RANDOM, not from darn: trusting the CPU here "
			  "means trusting the host, and user space reads H_RANDOM only through /dev/hwrng (pseries-rng).");
	} else {
		snprintf(a->seed, sizeof a->seed, "unknown (/proc/cpuinfo names no PowerNV or pSeries platform)");
		a->has_cpu_rng = -1;
	}
	if (ca_before(in, 5, 19))
		ca_say(a, "Before 5.19 (f3eac426657d, e561e472a3d4; stable backports excepted) the hook was "
			  "registered after the boot seeding, so random.trust_cpu had nothing to credit at boot.");
}

/* z/Architecture machine types with message-security-assist extension 7
 * (PRNO-TRNG): z14 and later; z13 (2964, 2965) and older lack it. */
static int ca_s390_trng(unsigned type)
{
	static const unsigned with[] = { 3906, 3907, 8561, 8562, 3931, 3932, 9175, 9176 };
	static const unsigned without[] = { 2964, 2965, 2827, 2828, 2817, 2818, 2097, 2098 };
	for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
		if (type == with[i])
			return 1;
	for (size_t i = 0; i < sizeof without / sizeof without[0]; i++)
		if (type == without[i])
			return 0;
	return -1;
}

static void ca_s390x(const struct cpurng_arch_input *in, struct cpurng_arch *a)
{
	const char *m = in->cpuinfo ? strstr(in->cpuinfo, "machine = ") : NULL;
	unsigned type = m ? (unsigned)strtoul(m + 10, NULL, 10) : 0;
	int trng = type ? ca_s390_trng(type) : -1;

	snprintf(a->longs, sizeof a->longs, "none (s390 has no arch_get_random_longs)");
	if (trng < 0 && in->rng_available && strstr(in->rng_available, "trng"))
		trng = 1;
	if (trng == 1) {
		snprintf(a->seed, sizeof a->seed, "PRNO-TRNG (CPACF function 114%s%u)", type ? ": machine type " : "",
			 type);
		a->has_cpu_rng = 1;
		a->audit_source = "trng";
		ca_say(a, "The kernel seeds from the CPACF TRNG's conditioned output, what rngaudit's trng reads.");
	} else if (trng == 0) {
		snprintf(a->seed, sizeof a->seed, "none (machine type %u predates the TRNG, MSA extension 7)", type);
		a->has_cpu_rng = 0;
	} else {
		snprintf(a->seed, sizeof a->seed, "unknown (machine type %s)", type ? "not in the table" : "unreadable");
		a->has_cpu_rng = -1;
	}
}

static void ca_riscv64(const struct cpurng_arch_input *in, struct cpurng_arch *a)
{
	char isa[512];
	int zkr = -1;

	if (ca_field(in->cpuinfo, in->cpuinfo_len, "isa", isa, sizeof isa))
		zkr = ca_has_token(isa, "zkr", "_");
	snprintf(a->longs, sizeof a->longs, "none (riscv has no arch_get_random_longs)");
	if (zkr == 1 && ca_before(in, 6, 8)) {
		snprintf(a->seed, sizeof a->seed, "none (Zkr, but this kernel predates RISC-V's arch RNG)");
		a->has_cpu_rng = 0;
	} else if (zkr == 1) {
		snprintf(a->seed, sizeof a->seed, "the seed CSR (Zkr in /proc/cpuinfo isa)");
		a->has_cpu_rng = 1;
		ca_say(a, "The kernel seeds from the Zkr seed CSR but keeps it from user space, so rngaudit cannot "
			  "audit what the kernel credits here (its seed source works under qemu-user only).");
		if (ca_log_has(in, ca_log_lines[3]))
			ca_say(a, "The kernel log says the seed CSR reported DEAD (\"archrandom: Unrecoverable error\").");
	} else if (zkr == 0) {
		snprintf(a->seed, sizeof a->seed, "none (no zkr in /proc/cpuinfo isa)");
		a->has_cpu_rng = 0;
	} else {
		snprintf(a->seed, sizeof a->seed, "unknown (/proc/cpuinfo has no isa line)");
		a->has_cpu_rng = -1;
	}
}

void cpurng_arch_decide(const struct cpurng_arch_input *in, struct cpurng_arch *a)
{
	const char *m = in->machine;

	memset(a, 0, sizeof *a);
	a->has_cpu_rng = -1;
	if (!m || !*m) {
		m = ca_machine_from_cpuinfo(in);
		if (m)
			snprintf(a->machine_from, sizeof a->machine_from, "/proc/cpuinfo fields");
	}
	snprintf(a->machine, sizeof a->machine, "%s", m ? m : "");
	a->arch = ca_kind(m);
	/* random_init_early() credits the arch output `if (trust_cpu)` on
	 * every architecture (see the top of this file) */
	a->trust_cpu_governs = 1;
	switch (a->arch) {
	case CPURNG_ARCH_X86:
		/* what the kernel cleared is kernel.c's "cpu rng flags" */
		snprintf(a->seed, sizeof a->seed, "RDSEED (unless the kernel cleared it: see cpu rng flags)");
		snprintf(a->longs, sizeof a->longs, "RDRAND (unless cleared)");
		a->audit_source = "rdseed";
		break;
	case CPURNG_ARCH_ARM64: ca_arm64(in, a); break;
	case CPURNG_ARCH_PPC64: ca_ppc64(in, a); break;
	case CPURNG_ARCH_S390X: ca_s390x(in, a); break;
	case CPURNG_ARCH_RISCV64: ca_riscv64(in, a); break;
	default:
		snprintf(a->seed, sizeof a->seed, "unknown (%s)", a->machine[0] ? "an architecture rngaudit does not know"
										 : "the machine is unknown");
		snprintf(a->longs, sizeof a->longs, "unknown");
		a->trust_cpu_governs = a->arch == CPURNG_ARCH_OTHER;
		return;
	}
	if (a->arch != CPURNG_ARCH_X86 && a->has_cpu_rng != 0)
		ca_say(a, "random.trust_cpu decides whether that output is credited when the kernel first seeds its "
			  "CRNG, as on x86 (drivers/char/random.c, random_init_early()); off, it is still mixed in.");
}

const char *cpurng_arch_insn(const char *name)
{
	static const struct { const char *name, *insn; } t[] = {
		{ "rndr", "RNDR" }, { "rndrrs", "RNDRRS" }, { "darn", "darn" }, { "trng", "PRNO-TRNG" },
		{ "seed", "the seed CSR" },
	};
	for (size_t i = 0; name && i < sizeof t / sizeof t[0]; i++)
		if (strcmp(name, t[i].name) == 0)
			return t[i].insn;
	return NULL;
}

const char *cpurng_arch_trust_note(const struct cpurng_arch *a)
{
	return a && a->arch != CPURNG_ARCH_X86 ? a->note : "";
}

/* ---- reading ---- */

static char *ca_read(const struct sysroot *sr, const char *path, size_t max, size_t *len)
{
	char *buf, why[96];
	if (sysroot_read(sr, path, max, &buf, len, why, sizeof why) != 0)
		return NULL;
	return buf;
}

/* Size limits as kernel.c's: a cpuinfo of a big machine is well under 16 MiB. */
#define CA_CPUINFO_MAX (16u << 20)
#define CA_VALUE_MAX 4096u

int cpurng_arch_read(struct cpurng_arch *out, const char *sysroot, struct err *e)
{
	struct cpurng_arch_input in;
	struct sysroot sr;
	struct utsname u;
	char machine[65] = "", *arch = NULL, *rel = NULL, *avail = NULL, *cur = NULL, *cpuinfo = NULL;
	char *log = NULL, why[96], word[160];
	const char *from = NULL;
	size_t len = 0;
	int rc;

	memset(&in, 0, sizeof in);
	if ((rc = sysroot_open(&sr, sysroot, e)) != 0)
		return rc;
	/* the same file live and in a bundle (--save-sysroot keeps it), so a
	 * saved sysroot reads back as the machine did; uname when it is absent */
	if ((arch = ca_read(&sr, "/proc/sys/kernel/arch", CA_VALUE_MAX, &len)) != NULL &&
	    kparse_word(arch, len, word, sizeof word, why, sizeof why) == 0) {
		snprintf(machine, sizeof machine, "%.64s", word);
		from = "/proc/sys/kernel/arch";
	} else if (sr.dirfd < 0 && uname(&u) == 0) {
		snprintf(machine, sizeof machine, "%.64s", u.machine);
		from = "uname";
	}
	in.machine = machine[0] ? machine : NULL;
	cpuinfo = ca_read(&sr, "/proc/cpuinfo", CA_CPUINFO_MAX, &in.cpuinfo_len);
	in.cpuinfo = cpuinfo;
	if ((avail = ca_read(&sr, "/sys/class/misc/hw_random/rng_available", CA_VALUE_MAX, &len)) != NULL)
		in.rng_available = avail;
	if ((cur = ca_read(&sr, "/sys/class/misc/hw_random/rng_current", CA_VALUE_MAX, &len)) != NULL)
		in.rng_current = cur;
	if ((rel = ca_read(&sr, "/proc/sys/kernel/osrelease", CA_VALUE_MAX, &len)) != NULL) {
		struct kversion v;
		in.release_known = kversion_from_release(rel, len, &v) == 0;
		in.major = v.major;
		in.minor = v.minor;
	}
	if (kernel_log_read(&sr, &log, &in.log_len, why, sizeof why) == 0)
		in.log = log;
	cpurng_arch_decide(&in, out);
	if (from)
		snprintf(out->machine_from, sizeof out->machine_from, "%s", from);
	free(arch);
	free(rel);
	free(avail);
	free(cur);
	free(cpuinfo);
	free(log);
	sysroot_close(&sr);
	return 0;
}
