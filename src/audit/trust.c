/* trust.c - the kernel-trust recommendation per source (see trust.h).
 *
 * The CPU RNG: random.trust_cpu decides whether the kernel credits RDRAND/
 * RDSEED output when it first seeds its CRNG (drivers/char/random.c,
 * random_init()); off, the output is still mixed in, only not counted as
 * entropy.  The hwrng: the kernel credits `quality` bits per 1024 bits read
 * from the current device (drivers/char/hw_random/core.c); an assessed
 * min-entropy of h bits per bit supports at most floor(1024 h).
 */
#include "config.h"

#include "audit/trust.h"

#include "audit/cpurng_arch.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The kernel's hwrng credit unit: quality is bits per 1024 bits. */
#define TRUST_QUALITY_FULL 1024

#define KVER(k) ((k)->major * 1000u + (k)->minor)

static void trust_say(struct trust_decision *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void trust_say(struct trust_decision *d, const char *fmt, ...)
{
	size_t n = strlen(d->reason);
	va_list ap;
	if (n + 2 >= sizeof d->reason)
		return;
	if (n)
		d->reason[n++] = ' ', d->reason[n] = '\0';
	va_start(ap, fmt);
	vsnprintf(d->reason + n, sizeof d->reason - n, fmt, ap);
	va_end(ap);
}

static const char *trust_source(const struct source_info *info, const char *requested)
{
	static const char *const real[] = { "rdrand", "rdseed", "hwrng" };
	if (!info) {
		/* unavailable: the bare real name it was asked by */
		static const char *const arch[] = { "rndr", "rndrrs", "darn", "trng", "seed" };
		for (size_t i = 0; requested && i < sizeof real / sizeof real[0]; i++)
			if (strncmp(requested, real[i], strlen(real[i])) == 0 &&
			    (requested[strlen(real[i])] == '\0' || requested[strlen(real[i])] == ':'))
				return real[i];
		for (size_t i = 0; requested && i < sizeof arch / sizeof arch[0]; i++)
			if (strncmp(requested, arch[i], strlen(arch[i])) == 0 &&
			    (requested[strlen(arch[i])] == '\0' || requested[strlen(arch[i])] == ':'))
				return arch[i];
		return NULL;
	}
	if (info->simulated)
		return info->as[0] ? info->as : NULL;
	if (strcmp(info->name, "rdrand") == 0 || strcmp(info->name, "rdseed") == 0 ||
	    strcmp(info->name, "hwrng") == 0 || cpurng_arch_insn(info->name))
		return info->name;
	return NULL;
}

/* A fail-level advisory of the quirk table among the verdict's reasons. */
static int trust_fail_quirk(const struct verdict *v)
{
	for (size_t i = 0; i < v->nreasons; i++)
		if (strncmp(v->reasons[i].code, "QUIRK:", 6) == 0 && v->reasons[i].level == VERDICT_LVL_FAIL)
			return 1;
	return 0;
}

static void trust_guest(struct trust_decision *d, const struct kernel_ctx *k, const char *what)
{
	if (k->virtualized == KERNEL_ON)
		trust_say(d, "This is a guest: %s belongs to the host, so the party trusted here is the host (and the "
			  "hypervisor that reports the CPU model and microcode).", what);
}

static const char trust_where[] =
	"It takes a reboot: add it to GRUB_CMDLINE_LINUX in /etc/default/grub (then update-grub or "
	"grub2-mkconfig), or to /etc/kernel/cmdline where kernel-install or a unified kernel image builds "
	"the command line.";

static void trust_cpu(const struct trust_input *in, struct trust_decision *d)
{
	const struct kernel_ctx *k = in->kernel;
	const struct verdict *v = in->verdict;
	/* arm64, POWER, s390x, RISC-V (issue 27): no feature bits the kernel
	 * clears, the instruction's name, and cpurng_arch's note */
	const char *insn = cpurng_arch_insn(d->as);
	unsigned bit = insn ? 0 : strcmp(d->as, "rdrand") == 0 ? KPARSE_LOG_RDRAND : KPARSE_LOG_RDSEED;
	int failed = v->status == VERDICT_FAIL || trust_fail_quirk(v);
	enum kernel_tri t = k->trust_cpu.state;
	const char *name = insn ? insn : bit == KPARSE_LOG_RDRAND ? "RDRAND" : "RDSEED";

	if (insn && in->arch && cpurng_arch_trust_note(in->arch)[0])
		trust_say(d, "%s", cpurng_arch_trust_note(in->arch));

	snprintf(d->current, sizeof d->current, "random.trust_cpu=%s", kernel_tri_token(t));
	if (k->cleared & bit) {
		d->credited = KERNEL_OFF;
		trust_say(d, "The kernel cleared %s at boot, so it neither uses nor credits it whatever "
			  "random.trust_cpu says; nothing to change for %s.", name, name);
		trust_guest(d, k, name);
		return;
	}
	d->credited = t;
	if (failed) {
		d->credits_failed = t == KERNEL_ON;
		if (t == KERNEL_OFF) {
			trust_say(d, "%s failed the audit, and the kernel already does not credit the CPU RNG "
				  "(trust_cpu off: %s): keep it so.", name, k->trust_cpu.reason);
			trust_guest(d, k, name);
			return;
		}
		snprintf(d->recommendation, sizeof d->recommendation, "random.trust_cpu=off");
		d->change = 1;
		trust_say(d, "%s failed the audit and the kernel %s the CPU RNG when it seeds its CRNG (trust_cpu %s: "
			  "%s).", name, t == KERNEL_ON ? "credits" : "may credit", kernel_tri_token(t),
			  k->trust_cpu.reason);
		trust_say(d, "random.trust_cpu=off stops that credit at boot; the CPU's output is still mixed into the "
			  "pool, only not counted as entropy, so the kernel waits for other sources.");
		if (bit == KPARSE_LOG_RDRAND && v->status == VERDICT_FAIL) {
			if (k->release_known && KVER(k) < 6000u) {
				snprintf(d->recommendation, sizeof d->recommendation, "random.trust_cpu=off nordrand");
				trust_say(d, "On this kernel (before 6.0) nordrand also stops the kernel using RDRAND "
					  "at all, which a RDRAND returning bad values calls for.");
			} else {
				trust_say(d, "nordrand is gone since 6.0; clearcpuid=rdrand hides RDRAND from the kernel "
					  "too, but taints it.");
			}
		}
		trust_say(d, "%s", trust_where);
		trust_guest(d, k, name);
		return;
	}
	if (v->status != VERDICT_PASS && v->status != VERDICT_WARN) {
		trust_say(d, "%s was not audited: no evidence either way; the kernel's setting stays "
			  "(trust_cpu %s).", name, kernel_tri_token(t));
		return;
	}
	trust_say(d, "%s %s: the statistics are consistent with trusting it for seeding; they cannot show a "
		  "keyed backdoor (output predictable only to whoever holds a key looks random to every test).",
		  name, v->status == VERDICT_PASS ? "passed" : "passed with warnings");
	if (in->policy->trust_cpu_on_pass_off && t != KERNEL_OFF) {
		snprintf(d->recommendation, sizeof d->recommendation, "random.trust_cpu=off");
		d->change = 1;
		trust_say(d, "The policy distrusts the CPU RNG on principle (trust_cpu_on_pass = recommend-off): "
			  "random.trust_cpu=off stops the boot-time credit; the output is still mixed in. %s",
			  trust_where);
	} else {
		trust_say(d, "Nothing to change (trust_cpu %s: %s).", kernel_tri_token(t), k->trust_cpu.reason);
	}
	trust_guest(d, k, name);
}

/* The highest hwrng quality the assessment supports: floor(1024 h) for raw
 * noise whose figure is a min-entropy, 0 for a failed source. */
static long trust_supported_quality(const struct trust_input *in)
{
	double q;
	if (in->verdict->status == VERDICT_FAIL)
		return 0;
	if (!in->verdict->entropy_credit || !(in->h_per_bit >= 0))
		return -1;
	q = floor(TRUST_QUALITY_FULL * (in->h_per_bit > 1 ? 1 : in->h_per_bit));
	return (long)q;
}

/* The persistent setting for a quality Q on this kernel. */
static void trust_quality_setting(const struct kernel_ctx *k, long q, char *buf, size_t len)
{
	/* From 6.2 (16bdbae39428) default_quality caps every driver, so the
	 * boot parameter is the persistent form; before, it only reached
	 * drivers that set no quality, and rng_quality (5.18) is the setting. */
	if (k->release_known && KVER(k) < 6002u && KVER(k) >= 5018u)
		snprintf(buf, len, "rng_quality=%ld", q);
	else
		snprintf(buf, len, "rng_core.default_quality=%ld", q);
}

static void trust_hwrng(const struct trust_input *in, struct trust_decision *d)
{
	const struct kernel_ctx *k = in->kernel;
	const struct verdict *v = in->verdict;
	long credit = k->hwrng_quality, q;
	char cq[24];
	int drbg = (in->info && in->info->kind == SOURCE_DRBG) ||
		   strncmp(k->rng_current, "virtio_rng", 10) == 0;

	if (credit >= 0)
		snprintf(cq, sizeof cq, "%ld", credit);
	else
		snprintf(cq, sizeof cq, "an unknown");
	snprintf(d->current, sizeof d->current, "quality %s", credit >= 0 ? cq : "unknown");
	d->credited = credit > 0 ? KERNEL_ON : credit == 0 ? KERNEL_OFF : KERNEL_UNKNOWN;
	d->credits_failed = v->status == VERDICT_FAIL && credit != 0;
	if (strcmp(k->rng_current, "none") == 0) {
		/* rng_current "none": no device feeds the kernel, whatever its quality. */
		snprintf(d->current, sizeof d->current, "no hwrng selected");
		d->credited = KERNEL_OFF;
		d->credits_failed = 0;
		trust_say(d, "No hwrng is selected (rng_current is none): the kernel credits none; nothing to change.");
		return;
	}
	if (v->status == VERDICT_UNAVAILABLE) {
		trust_say(d, "The hwrng was not audited: no evidence either way.");
		return;
	}
	if (drbg && v->status != VERDICT_FAIL) {
		trust_say(d, "%s is DRBG output (virtio-rng passes on the host's RNG output): the estimators cannot "
			  "support any credit for it, so crediting it (now %s/1024) means trusting the host's RNG. "
			  "That is the operator's choice: keep it, or stop the credit with rng_quality=0 at run time "
			  "(rng_core.default_quality=0 to keep it so).", k->rng_current[0] ? k->rng_current : "The hwrng",
			  cq);
		trust_guest(d, k, "virtio-rng");
		return;
	}
	q = trust_supported_quality(in);
	if (q < 0) {
		trust_say(d, "The audit gives no min-entropy figure for this hwrng, so it supports no particular "
			  "credit; nothing recommended.");
		trust_guest(d, k, "the hwrng");
		return;
	}
	if (credit >= 0 && credit <= q) {
		trust_say(d, "The kernel credits %ld/1024, within the %ld/1024 the assessment supports: nothing to "
			  "change.", credit, q);
		trust_guest(d, k, "the hwrng");
		return;
	}
	trust_quality_setting(k, q, d->recommendation, sizeof d->recommendation);
	d->change = 1;
	if (v->status == VERDICT_FAIL)
		trust_say(d, "The hwrng failed the audit, and the kernel credits it %s/1024: set its quality to 0.",
			  cq);
	else
		trust_say(d, "The kernel credits %s/1024 but the assessed min-entropy (%.3f bits per bit) supports "
			  "at most %ld/1024.", cq, in->h_per_bit, q);
	trust_say(d, "At run time: echo %ld > /sys/class/misc/hw_random/rng_quality (5.18 and later); to keep it, "
		  "rng_core.default_quality=%ld on the kernel command line, or 'options rng_core "
		  "default_quality=%ld' in /etc/modprobe.d/ when rng_core is a module%s.", q, q, q,
		  k->release_known && KVER(k) < 6002u ? " (before 6.2 it reaches only drivers that set no quality "
		  "of their own)" : "");
	trust_guest(d, k, "the hwrng");
}

void trust_decide(const struct trust_input *in, struct trust_decision *d)
{
	memset(d, 0, sizeof *d);
	d->credited = KERNEL_UNKNOWN;
	d->as = trust_source(in->info, in->requested);
	d->simulated = in->info && in->info->simulated;
	if (!d->as) {
		d->role = TRUST_ROLE_NONE;
		return;
	}
	if (strcmp(d->as, "hwrng") == 0) {
		d->role = TRUST_ROLE_HWRNG;
		trust_hwrng(in, d);
	} else {
		d->role = TRUST_ROLE_CPU;
		trust_cpu(in, d);
	}
	if (d->simulated)
		trust_say(d, "(Simulated: %s stands in for %s.)", in->info->spec, d->as);
}

void trust_bootloader_note(const struct kernel_ctx *k, char *buf, size_t len)
{
	snprintf(buf, len, "bootloader seed: random.trust_bootloader %s (%s); rngaudit has no evidence about the "
		 "seed a bootloader passes, so it recommends nothing.", kernel_tri_token(k->trust_bootloader.state),
		 k->trust_bootloader.reason);
}
