/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_trust.c - the kernel-trust recommendation (trust.c) for the CPU RNG
 * and the hwrng, on hand-made verdicts and kernel contexts. */
#include "config.h"

#include <string.h>

#include "audit/classify.h"
#include "audit/trust.h"
#include "tap.h"

static struct kernel_ctx kctx(unsigned maj, unsigned min, enum kernel_tri trust_cpu, long quality)
{
	struct kernel_ctx k;
	memset(&k, 0, sizeof k);
	k.release_known = 1;
	k.major = maj;
	k.minor = min;
	k.kv.known = 1;
	k.kv.major = maj;
	k.kv.minor = min;
	k.kv.sublevel = -1;
	k.trust_cpu.state = trust_cpu;
	snprintf(k.trust_cpu.reason, sizeof k.trust_cpu.reason, "test");
	k.hwrng_quality = quality;
	k.virtualized = KERNEL_OFF;
	return k;
}

/* What an ideal 8-bit source of 10^6 samples scores, as the table would
 * say (baseline.h): low 7.0 bits per sample, mean 7.2. */
static const struct baseline_cell ideal8 = { 8, 1000000, 100, 7.2, 0.06, 7.02, 7.0 };
static const struct baseline_cell *ideal;   /* what decide() passes; NULL: none */

static struct trust_decision decide(const char *name, enum verdict_status st, int credit, double h,
				    const struct kernel_ctx *k, int off_on_pass)
{
	struct source_info info;
	struct verdict v;
	struct policy pol;
	struct trust_input in = { 0 };
	struct trust_decision d;

	memset(&info, 0, sizeof info);
	memset(&v, 0, sizeof v);
	policy_defaults(&pol);
	pol.trust_cpu_on_pass_off = off_on_pass == 1;
	pol.drbg_hwrng_off = off_on_pass == 2;
	snprintf(info.name, sizeof info.name, "%s", name);
	snprintf(info.spec, sizeof info.spec, "%s", name);
	info.kind = strcmp(name, "hwrng") == 0 ? SOURCE_RAW : SOURCE_DRBG;
	if (strcmp(name, "hwrng") == 0) {
		char basis[CLASSIFY_BASIS_MAX];
		snprintf(info.device, sizeof info.device, "/dev/hwrng");
		classify_source(&info, k, basis, sizeof basis);   /* as the audit does */
	}
	v.status = st;
	v.entropy_credit = credit;
	in.info = &info;
	in.verdict = &v;
	in.h_per_bit = h;
	in.h_assessed = h < 0 ? -1 : 8 * h;
	in.ideal = ideal;
	in.kernel = k;
	in.policy = &pol;
	trust_decide(&in, &d);
	return d;
}

int main(void)
{
	struct kernel_ctx k = kctx(6, 18, KERNEL_ON, 1024);
	struct trust_decision d;

	d = decide("rdrand", VERDICT_FAIL, 0, -1, &k, 0);
	tap_eq_str(d.recommendation, "random.trust_cpu=off", "cpu: a failing RDRAND on a trusting 6.18 kernel -> trust_cpu=off");
	tap_ok(d.change && d.credits_failed, "cpu: that is a change, and the kernel credits a failed source");
	tap_ok(strstr(d.reason, "nordrand is gone since 6.0") && strstr(d.reason, "taints"), "cpu: 6.x says nordrand is gone, clearcpuid taints");
	tap_ok(strstr(d.reason, "GRUB_CMDLINE_LINUX") && strstr(d.reason, "/etc/kernel/cmdline"), "cpu: says where to set it");
	tap_ok(strstr(d.reason, "still mixed") != NULL, "cpu: says what the change does not do");
	k = kctx(5, 10, KERNEL_ON, 1024);
	d = decide("rdrand", VERDICT_FAIL, 0, -1, &k, 0);
	tap_eq_str(d.recommendation, "random.trust_cpu=off nordrand", "cpu: before 6.0 a failing RDRAND also gets nordrand");
	k = kctx(6, 18, KERNEL_OFF, 1024);
	d = decide("rdrand", VERDICT_PASS, 0, -1, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && !d.change, "cpu: a pass on a distrusting kernel changes nothing");
	k = kctx(6, 18, KERNEL_ON, 1024);
	d = decide("rdrand", VERDICT_PASS, 0, -1, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && strstr(d.reason, "keyed backdoor"), "cpu: a pass keeps trust and names what statistics cannot show");
	d = decide("rdrand", VERDICT_PASS, 0, -1, &k, 1);
	tap_eq_str(d.recommendation, "random.trust_cpu=off", "cpu: policy recommend-off distrusts on a pass");
	k.cleared = KPARSE_LOG_RDSEED;
	d = decide("rdseed", VERDICT_FAIL, 0, -1, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && d.credited == KERNEL_OFF && !d.credits_failed,
	       "cpu: RDSEED the kernel cleared is neither used nor credited");
	k = kctx(6, 18, KERNEL_ON, 1024);
	ideal = &ideal8;
	d = decide("hwrng", VERDICT_PASS, 1, 0.5, &k, 0);
	tap_eq_str(d.recommendation, "rng_core.default_quality=512",
		   "hwrng: 1024 credited, 0.5 bit/bit (4 bits, under an ideal source's 7.0) -> 512");
	tap_ok(strstr(d.reason, "scores at least 7.000") && strstr(d.reason, "this one scored 4.000"),
	       "hwrng: the cut says what an ideal source scores beside this one");
	/* issue 23 item 3: sim:ideal,as=hwrng reads about 7.0-7.4 bits at 10^6:
	 * no cut from the estimators' bias */
	d = decide("hwrng", VERDICT_PASS, 1, 7.1 / 8, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && !d.change && strstr(d.reason, "bias") &&
	       strstr(d.reason, "scores at least 7.000"),
	       "hwrng: 7.1 bits at 10^6 (no worse than ideal's 7.0): nothing to change, the bias named");
	d = decide("hwrng", VERDICT_PASS, 1, 6.9 / 8, &k, 0);
	tap_eq_str(d.recommendation, "rng_core.default_quality=883",
		   "hwrng: 6.9 bits, under an ideal source's 7.0: floor(1024 * 6.9/8) = 883");
	ideal = NULL;
	d = decide("hwrng", VERDICT_PASS, 1, 0.5, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && strstr(d.reason, "not tabulated"),
	       "hwrng: no baseline (under 1000 samples): no cut from an untested gap");
	ideal = &ideal8;
	k.hwrng_quality = 400;
	d = decide("hwrng", VERDICT_PASS, 1, 0.5, &k, 0);
	tap_ok(d.recommendation[0] == '\0', "hwrng: a credit within the assessment changes nothing");
	k = kctx(5, 19, KERNEL_ON, 700);
	d = decide("hwrng", VERDICT_FAIL, 1, 0.5, &k, 0);
	tap_eq_str(d.recommendation, "rng_quality=0", "hwrng: a failed hwrng on 5.19 -> rng_quality=0");
	tap_ok(strstr(d.reason, "sysfs knob, not a boot parameter") != NULL,
	       "hwrng: 5.18-6.1: rng_quality is a sysfs knob, said so");
	tap_ok(d.credits_failed, "hwrng: the kernel credits a failed hwrng");
	k = kctx(6, 18, KERNEL_ON, 1024);
	snprintf(k.rng_current, sizeof k.rng_current, "virtio_rng.0");
	k.virtualized = KERNEL_ON;
	d = decide("hwrng", VERDICT_PASS, 0, 0.9, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && !d.change && d.operator_choice && strstr(d.reason, "operator's choice") &&
	       strstr(d.reason, "host") && strstr(d.reason, "neither support nor refute"),
	       "hwrng: virtio-rng is DRBG output: neither supported nor refuted, the operator's choice, the host named");
	d = decide("hwrng", VERDICT_PASS, 0, 0.9, &k, 2);
	tap_eq_str(d.recommendation, "rng_core.default_quality=0", "hwrng: policy drbg_hwrng = recommend-off: quality 0");
	tap_ok(d.change && d.operator_choice, "hwrng: that is a change the policy asked for");
	snprintf(k.rng_current, sizeof k.rng_current, "none");
	d = decide("hwrng", VERDICT_FAIL, 1, 0.1, &k, 0);
	tap_ok(d.recommendation[0] == '\0' && !d.credits_failed, "hwrng: rng_current none: nothing credited, nothing to change");
	d = decide("getrandom", VERDICT_PASS, 0, -1, &k, 0);
	tap_ok(d.role == TRUST_ROLE_NONE, "getrandom: no trust decision");
	return tap_done();
}
