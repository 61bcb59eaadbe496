/* SPDX-License-Identifier: GPL-3.0-or-later */
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
#include "audit/kfacts.h"

#include "audit/cpurng_arch.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The kernel's hwrng credit unit: quality is bits per 1024 bits. */
#define TRUST_QUALITY_FULL 1024

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

/* What else stops the kernel using a failing CPU RNG, on this version:
 * nordrand until 6.0 (it cleared RDRAND and RDSEED), clearcpuid= (names
 * since 5.19, numbers before); appended to the recommendation for RDRAND. */
static void trust_cpu_extra(const struct kernel_ctx *k, struct trust_decision *d, int rdrand)
{
	int selftest = kversion_has(&k->kv, &kfact_rdrand_selftest);

	if (selftest == 0) {
		if (rdrand)
			snprintf(d->recommendation, sizeof d->recommendation, "random.trust_cpu=off nordrand");
		trust_say(d, "On this kernel (before 6.0) nordrand also stops the kernel using %s at all (it clears "
			  "RDRAND and RDSEED for the kernel; user space keeps them), which a CPU RNG returning bad "
			  "values calls for.", rdrand ? "RDRAND" : "the CPU RNG");
	} else if (selftest == 1) {
		trust_say(d, "nordrand is gone since 6.0 (049f9ae93d03); clearcpuid=%s hides %s from the kernel "
			  "too, but taints it.", rdrand ? "rdrand" : "rdseed", rdrand ? "RDRAND" : "RDSEED");
	} else {
		trust_say(d, "This kernel's version is unknown: nordrand (before 6.0) or clearcpuid= (flag names "
			  "since 5.19, bit numbers before) would also stop the kernel using it.");
	}
}

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
	/* A flag the kernel cleared, or that /proc/cpuinfo lacks whatever the
	 * reason, is neither used nor credited; the decision for each flag
	 * stands on its own (a cleared RDSEED leaves RDRAND credited). */
	if ((k->cleared | k->hidden) & bit) {
		d->credited = KERNEL_OFF;
		trust_say(d, "The kernel %s %s (%s), so it neither uses nor credits it whatever random.trust_cpu "
			  "says: nothing to change in the kernel for %s.", (k->cleared & bit) ? "cleared" : "does not list",
			  name, k->flags_evidence, name);
		if (failed)
			trust_say(d, "%s failed its audit all the same: the hardware is faulty, which the exit status "
				  "says.", name);
		trust_guest(d, k, name);
		return;
	}
	d->credited = t;
	if (k->warned & bit)
		trust_say(d, "The kernel's log warned about %s, but a warning leaves it in use and credited.", name);
	if (failed) {
		d->credits_failed = t == KERNEL_ON;
		if (t == KERNEL_OFF) {
			trust_say(d, "%s failed the audit, and the kernel already does not credit the CPU RNG "
				  "(trust_cpu off: %s): nothing to change in the kernel; keep it so.", name,
				  k->trust_cpu.reason);
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
		if (v->status == VERDICT_FAIL && !insn)   /* x86's own switches */
			trust_cpu_extra(k, d, bit == KPARSE_LOG_RDRAND);
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

/* The setting for a quality Q on this kernel.  rng_quality (5.18) and
 * current_quality (before) are sysfs knobs, not boot parameters;
 * rng_core.default_quality= persists, but before 6.2 reaches only drivers
 * that set no quality of their own (virtio-rng 1000, ChaosKey 1024 did),
 * and from 6.2 (16bdbae39428) caps every driver. */
static void trust_quality_setting(const struct kernel_ctx *k, long q, char *buf, size_t len)
{
	int max = kversion_has(&k->kv, &kfact_default_quality_max);
	int rq = kversion_has(&k->kv, &kfact_rng_quality);

	if (max == 1)
		snprintf(buf, len, "rng_core.default_quality=%ld", q);
	else if (rq == 1 || strcmp(k->quality_from, "rng_quality") == 0)
		snprintf(buf, len, "rng_quality=%ld", q);
	else if (rq == 0 || strcmp(k->quality_from, "current_quality") == 0)
		snprintf(buf, len, "current_quality=%ld", q);
	else
		snprintf(buf, len, "rng_core.default_quality=%ld", q);
}

/* How to apply quality Q on this kernel, for people. */
static void trust_say_quality_how(struct trust_decision *d, const struct kernel_ctx *k, long q)
{
	int max = kversion_has(&k->kv, &kfact_default_quality_max);
	int rq = kversion_has(&k->kv, &kfact_rng_quality);

	if (max == 1) {
		trust_say(d, "rng_core.default_quality=%ld on the kernel command line (or 'options rng_core "
			  "default_quality=%ld' in /etc/modprobe.d/ when rng_core is a module) caps every hwrng "
			  "from the next boot (6.2 and later); at run time: echo %ld > "
			  "/sys/class/misc/hw_random/rng_quality.", q, q, q);
	} else if (rq == 1 || rq == 0) {
		trust_say(d, "%s is a sysfs knob, not a boot parameter: echo %ld > %s at run time, and to keep it a "
			  "tmpfiles.d line ('w %s - - - - %ld'); rng_core.default_quality= reaches only drivers that set "
			  "no quality of their own before 6.2 (virtio-rng and ChaosKey do).",
			  rq == 1 ? "rng_quality" : "current_quality", q,
			  rq == 1 ? "/sys/class/misc/hw_random/rng_quality" : "/sys/module/rng_core/parameters/current_quality",
			  rq == 1 ? "/sys/class/misc/hw_random/rng_quality" : "/sys/module/rng_core/parameters/current_quality",
			  q);
	} else {
		trust_say(d, "This kernel's version is unknown, and how to set the quality depends on it: "
			  "rng_core.default_quality=%ld caps every driver from 6.2 on; before, echo %ld into "
			  "/sys/class/misc/hw_random/rng_quality (5.18) or "
			  "/sys/module/rng_core/parameters/current_quality.", q, q);
	}
	if (k->hwrng_note[0])
		trust_say(d, "On this kernel %s.", k->hwrng_note);
}

/* What an ideal source scores beside this one's figure, for the reason. */
static void trust_say_ideal(struct trust_decision *d, const struct trust_input *in)
{
	const struct baseline_cell *c = in->ideal;
	trust_say(d, "An ideal %u-bit source of %llu samples scores at least %.3f bits per sample in these "
		  "estimators (their downward bias: mean %.3f over %u simulated runs, 0.1%% quantile; "
		  "src/audit/baseline.h); this one scored %.3f.", c->bits, (unsigned long long)c->n, c->low,
		  c->mean, c->runs, in->h_assessed);
}

static void trust_hwrng(const struct trust_input *in, struct trust_decision *d)
{
	const struct kernel_ctx *k = in->kernel;
	const struct verdict *v = in->verdict;
	long credit = k->hwrng_quality, q;
	char cq[24];
	int drbg = in->info && in->info->kind == SOURCE_DRBG;

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
		/* One statement, in every report (issue 23): the statistics of
		 * DRBG output say nothing about its entropy. */
		d->operator_choice = 1;
		trust_say(d, "%s is DRBG output: the statistics can neither support nor refute a credit for it, "
			  "so crediting it (now %s/1024) means trusting where it comes from.",
			  k->rng_current[0] ? k->rng_current : "The hwrng", cq);
		if (in->policy->drbg_hwrng_off && credit != 0) {
			trust_quality_setting(k, 0, d->recommendation, sizeof d->recommendation);
			d->change = 1;
			trust_say(d, "The policy distrusts DRBG hwrngs on principle (drbg_hwrng = recommend-off): "
				  "stop the credit with quality 0.");
			trust_say_quality_how(d, k, 0);
		} else {
			trust_say(d, "Keeping the credit or setting quality 0 is the operator's choice; rngaudit "
				  "recommends no change (policy drbg_hwrng = keep).");
		}
		trust_guest(d, k, "the hwrng");
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
	if (v->status != VERDICT_FAIL) {
		/* A cut needs evidence that the source is worse than ideal:
		 * the estimators read ideal samples low too (baseline.h). */
		if (!in->ideal) {
			trust_say(d, "The kernel credits %s/1024 and the assessed %.3f bits per bit would support "
				  "%ld/1024, but what an ideal source scores at this width and sample count is not "
				  "tabulated (fewer than 1000 samples), so the gap cannot be told from the estimators' "
				  "bias: nothing recommended.", cq, in->h_per_bit, q);
			trust_guest(d, k, "the hwrng");
			return;
		}
		if (in->h_assessed >= in->ideal->low) {
			trust_say(d, "The kernel credits %s/1024; the assessed min-entropy alone (%.3f bits per bit) "
				  "would support %ld/1024, but the source scores no worse than an ideal one does, so "
				  "the gap is the estimators' bias, not evidence: nothing to change.", cq,
				  in->h_per_bit, q);
			trust_say_ideal(d, in);
			trust_guest(d, k, "the hwrng");
			return;
		}
	}
	trust_quality_setting(k, q, d->recommendation, sizeof d->recommendation);
	d->change = 1;
	if (v->status == VERDICT_FAIL) {
		trust_say(d, "The hwrng failed the audit, and the kernel credits it %s/1024: set its quality to 0.",
			  cq);
	} else {
		trust_say(d, "The kernel credits %s/1024 but the assessed min-entropy (%.3f bits per bit) supports "
			  "at most %ld/1024, and the source scores below what an ideal one does.", cq,
			  in->h_per_bit, q);
		trust_say_ideal(d, in);
	}
	trust_say_quality_how(d, k, q);
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
