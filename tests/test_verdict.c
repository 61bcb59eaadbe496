/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_verdict.c - verdict_decide() (src/verdict.c) on hand-made inputs: one
 * property per check, with the number that decides it. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tap.h"
#include "audit/verdict.h"

struct fixture {
	struct source_info info;
	struct source_counters cnt;
	struct health_monitor_results h;
	struct noniid_report est;
	struct policy pol;
	struct policy_source ps;
	struct verdict_input in;
	struct verdict v;
};

/* A healthy 8-bit raw source with 10^6 samples assessed at 7.3 bits. */
static void setup(struct fixture *f, const char *name, enum source_kind kind, unsigned word_bits)
{
	memset(f, 0, sizeof *f);
	snprintf(f->info.name, sizeof f->info.name, "%s", name);
	snprintf(f->info.spec, sizeof f->info.spec, "%s", name);
	f->info.kind = kind;
	f->info.word_bits = word_bits;
	f->cnt.calls = 1000;
	f->h.bits = 8;
	f->h.entropy = 8;
	f->h.alpha = 0x1p-30;
	f->h.samples = 1000000;
	f->h.startup = HEALTH_STARTUP_PASSED;
	f->h.rct.cutoff = 5;
	f->h.apt.cutoff = 22;
	f->h.apt.window = 1024;
	f->h.apt.windows = 976;
	f->h.words_checked = word_bits > 8;
	f->h.words.word_bits = word_bits;
	f->est.n = 1000000;
	f->est.bits = 8;
	f->est.h_original = 7.3;
	f->est.h_bitstring = 0.95;
	f->est.h_assessed = 7.3;
	policy_defaults(&f->pol);
	policy_for(&f->pol, name, &f->ps);
	f->in.info = &f->info;
	f->in.counters = &f->cnt;
	f->in.health = &f->h;
	f->in.est = &f->est;
	f->in.policy = &f->pol;
	f->in.pol = &f->ps;
	f->in.samples = 1000000;
	f->in.bits = 8;
}

static const struct verdict_reason *reason(const struct verdict *v, const char *code)
{
	for (size_t i = 0; i < v->nreasons; i++)
		if (strcmp(v->reasons[i].code, code) == 0)
			return &v->reasons[i];
	return NULL;
}

static void expect(struct fixture *f, enum verdict_status want, const char *code, const char *name)
{
	verdict_decide(&f->in, &f->v);
	int ok = f->v.status == want && (!code || reason(&f->v, code));
	if (!tap_ok(ok, "%s", name)) {
		char buf[512];
		printf("# status %s (want %s), codes %s\n", verdict_status_name(f->v.status),
		       verdict_status_name(want), verdict_codes(&f->v, buf, sizeof buf));
	}
}

int main(void)
{
	struct fixture f;
	char buf[512];
	const struct verdict_reason *r;

	setup(&f, "hwrng", SOURCE_RAW, 8);
	expect(&f, VERDICT_PASS, NULL, "healthy raw source, 10^6 samples at 7.3 bits: pass");
	tap_near(f.v.credibility, 1.0, 1e-12, "pass on 10^6 samples: credibility 1");
	tap_ok(f.v.entropy_credit, "raw source that passed: its estimate is an entropy credit");

	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.samples = 20000;
	expect(&f, VERDICT_PASS, "SAMPLES_BELOW_90B", "20000 samples: pass with an info note (90B 3.1.1)");
	tap_near(f.v.credibility, log10(20000.0) / 6.0, 1e-12, "credibility log10(20000)/6 = 0.7168");
	r = reason(&f.v, "SAMPLES_BELOW_90B");
	tap_ok(r && r->level == VERDICT_INFO, "SAMPLES_BELOW_90B is info only");

	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.samples = 5000;
	expect(&f, VERDICT_WARN, "SAMPLES_FEW", "5000 samples < min_samples 10000: warn");
	tap_near(f.v.credibility, 0.5 * log10(5000.0) / 6.0, 1e-12, "warn halves the credibility");

	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.h.rct.failures = 1;
	f.h.rct.first_failure = 4242;
	expect(&f, VERDICT_FAIL, "HEALTH_RCT", "one RCT failure: fail");
	tap_near(f.v.credibility, 0, 0, "fail: credibility 0");
	tap_ok(!f.v.entropy_credit, "a failed source gets no entropy credit");
	r = reason(&f.v, "HEALTH_RCT");
	tap_ok(r && strstr(r->text, "4242") && strstr(r->text, "2^-30"),
	       "RCT reason names the first failing sample and alpha");

	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.h.apt.failures = 3;
	expect(&f, VERDICT_FAIL, "HEALTH_APT", "APT failures: fail");

	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.h.startup = HEALTH_STARTUP_FAILED;
	expect(&f, VERDICT_FAIL, "HEALTH_STARTUP", "start-up test failed: fail");

	/* Floors for raw sources: fail under 0.25, warn under 0.5 bits per bit. */
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.est.h_assessed = 1.9;   /* 0.2375 per bit */
	expect(&f, VERDICT_FAIL, "ENTROPY_LOW", "1.9 bits per 8-bit sample (0.2375/bit < 0.25): fail");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.est.h_assessed = 2.1;   /* 0.2625 per bit */
	expect(&f, VERDICT_WARN, "ENTROPY_MARGINAL", "2.1 bits (0.2625/bit, under 0.5): warn");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.est.h_assessed = 4.0;   /* exactly 0.5 per bit: not under the floor */
	expect(&f, VERDICT_PASS, NULL, "4.0 bits (0.5/bit, at the warn floor): pass");

	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.est = NULL;
	f.in.est_skipped = "interrupted before the estimators ran";
	expect(&f, VERDICT_WARN, "ESTIMATORS_SKIPPED", "estimators skipped: warn");
	tap_ok(!f.v.entropy_credit, "no estimate, no entropy credit");

	/* CF=0 rates: rdrand warns above 1e-6, fails above 1e-3 per call. */
	setup(&f, "rdrand", SOURCE_DRBG, 64);
	f.cnt.calls = 1000000;
	f.cnt.underflows = 2;
	expect(&f, VERDICT_WARN, "UNDERFLOW_RATE", "rdrand 2 CF=0 in 10^6 calls (2e-6 > 1e-6): warn");
	f.cnt.underflows = 2000;
	expect(&f, VERDICT_FAIL, "UNDERFLOW_RATE", "rdrand 2000 CF=0 in 10^6 calls (2e-3 > 1e-3): fail");
	setup(&f, "rdseed", SOURCE_CONDITIONED, 64);
	f.cnt.calls = 1000000;
	f.cnt.underflows = 750000;
	expect(&f, VERDICT_PASS, NULL, "rdseed 75% CF=0 (normal under load, < 0.9): pass");
	f.cnt.exhausted = 3;
	expect(&f, VERDICT_WARN, "RETRIES_EXHAUSTED", "rdseed exhausted retries: warn (exhausted_fails 0)");
	setup(&f, "rdrand", SOURCE_DRBG, 64);
	f.cnt.exhausted = 1;
	expect(&f, VERDICT_FAIL, "RETRIES_EXHAUSTED", "rdrand exhausted retries: fail (Intel: DRNG broken)");

	/* Native words: the health monitor's binomial tests decide. */
	setup(&f, "rdrand", SOURCE_DRBG, 64);
	f.h.words.ones.count = 5000;
	f.h.words.ones.excessive = 1;
	expect(&f, VERDICT_FAIL, "WORD_ONES", "excess all-ones words (AMD 15h/16h after resume): fail");
	setup(&f, "rdseed", SOURCE_CONDITIONED, 32);
	f.h.words.zeros.excessive = 1;
	expect(&f, VERDICT_FAIL, "WORD_ZEROS", "excess zero words (Zen 5 RDSEED): fail");
	setup(&f, "rdrand", SOURCE_DRBG, 64);
	f.h.words.repeats.excessive = 1;
	expect(&f, VERDICT_FAIL, "WORD_REPEATS", "repeated native words: fail");
	setup(&f, "rdrand", SOURCE_DRBG, 64);
	f.h.words.rct_failures = 1;
	expect(&f, VERDICT_FAIL, "WORD_RCT", "word RCT failure: fail");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.h.words_checked = 0;
	f.h.words.zeros.excessive = 1;   /* ignored: the word checks did not run */
	expect(&f, VERDICT_PASS, NULL, "word results ignored when the word checks did not run");

	/* DRBG output: said in words, never an entropy credit. */
	setup(&f, "getrandom", SOURCE_DRBG, 8);
	expect(&f, VERDICT_PASS, "DRBG_OUTPUT", "healthy getrandom: pass with the DRBG note");
	r = reason(&f.v, "DRBG_OUTPUT");
	tap_ok(r && r->level == VERDICT_INFO && strstr(r->text, "AES(K, counter++)") &&
	       strstr(r->text, "not an entropy credit"), "DRBG note names the keyed backdoor and denies a credit");
	tap_ok(!f.v.entropy_credit, "DRBG output that passed: no entropy credit");
	setup(&f, "rdseed", SOURCE_CONDITIONED, 64);
	expect(&f, VERDICT_PASS, "CONDITIONED_OUTPUT", "rdseed: pass with the conditioned-output note");
	tap_ok(!f.v.entropy_credit, "conditioned output: no entropy credit");

	/* Quirks. */
	{
		struct quirk q = { 0 };
		struct quirk_match m = { &q, 0 };
		snprintf(q.id, sizeof q.id, "amd-zen5-rdseed");
		snprintf(q.advisory, sizeof q.advisory, "AMD-SB-7055 test advisory");
		q.severity = QUIRK_FAIL;
		setup(&f, "rdseed", SOURCE_CONDITIONED, 32);
		f.in.quirks = &m;
		f.in.nquirks = 1;
		expect(&f, VERDICT_FAIL, "QUIRK:amd-zen5-rdseed", "quirk of severity fail: fail");
		r = reason(&f.v, "QUIRK:amd-zen5-rdseed");
		tap_ok(r && strstr(r->text, "AMD-SB-7055"), "quirk reason carries the advisory");
		m.microcode_unknown = 1;
		expect(&f, VERDICT_WARN, "QUIRK:amd-zen5-rdseed", "same quirk with unreadable microcode: warn");
		q.severity = QUIRK_INFO;
		m.microcode_unknown = 0;
		expect(&f, VERDICT_PASS, "QUIRK:amd-zen5-rdseed", "info quirk: pass, reason listed");
	}

	/* Availability, errors, interrupts. */
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.unavailable = 1;
	f.in.unavailable_why = "no /dev/hwrng";
	expect(&f, VERDICT_UNAVAILABLE, "UNAVAILABLE", "unopenable source: unavailable");
	tap_near(f.v.credibility, 0, 0, "unavailable: credibility 0");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.samples = 0;
	expect(&f, VERDICT_UNAVAILABLE, "NO_SAMPLES", "no samples: unavailable");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.source_error = "hwrng: device unplugged (ENODEV)";
	expect(&f, VERDICT_FAIL, "SOURCE_ERROR", "source failed mid-run: fail");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.partial = 1;
	expect(&f, VERDICT_WARN, "PARTIAL", "interrupted: warn");
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.in.health = NULL;
	expect(&f, VERDICT_WARN, "HEALTH_NOT_RUN", "health tests missing: warn");

	/* The code list a CSV reader sees. */
	setup(&f, "hwrng", SOURCE_RAW, 8);
	f.h.rct.failures = 1;
	f.in.samples = 20000;
	verdict_decide(&f.in, &f.v);
	tap_eq_str(verdict_codes(&f.v, buf, sizeof buf), "HEALTH_CLAIM;HEALTH_RCT;SAMPLES_BELOW_90B",
		   "reason codes joined with ';' in a stable order");
	tap_eq_str(verdict_status_name(VERDICT_UNAVAILABLE), "unavailable", "status names");
	return tap_done();
}
