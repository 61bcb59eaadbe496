/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_health.c - SP 800-90B 4.4 health tests: cutoffs against published
 * tables, the fast paths against a one-sample-at-a-time reference, start-up,
 * detection of the simulated faults, and the false-alarm rate on an ideal
 * source against its theoretical value. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "engine/engine.h"
#include "health/health.h"
#include "health/health_monitor.h"
#include "sources/source.h"
#include "monitor_run.h"
#include "tap.h"

/* ---- cutoffs ---- */

static void test_rct_cutoffs(void)
{
	/* CRIB 1 (C = 1 + ceil(20 / H)); 41 at H = 0.5 is also Go's crypto/internal/entropy */
	static const struct { double h, alpha; unsigned c; } t[] = {
		{ 0.2, 0x1p-20, 101 }, { 0.5, 0x1p-20, 41 }, { 1, 0x1p-20, 21 }, { 2, 0x1p-20, 11 },
		{ 4, 0x1p-20, 6 }, { 8, 0x1p-20, 4 }, { 1, 0x1p-30, 31 },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char name[96];
		snprintf(name, sizeof name, "rct_cutoff_h%g_alpha%g = %u (90B 4.4.1)", t[i].h,
			 log2(t[i].alpha), t[i].c);
		tap_eq_long(health_rct_cutoff(t[i].h, t[i].alpha), t[i].c, name);
	}
}

static void test_apt_cutoffs(void)
{
	/* CRIB 1 table; the W = 512 row matches RIOT's table and Nordic's 13 at H = 8 */
	static const struct { unsigned w; double alpha; unsigned c[5]; } t[] = {
		{ 512, 0x1p-20, { 410, 311, 177, 62, 13 } },
		{ 1024, 0x1p-20, { 793, 589, 325, 105, 18 } },
		{ 512, 0x1p-30, { 422, 325, 190, 71, 16 } },
		{ 1024, 0x1p-30, { 810, 609, 343, 116, 22 } },
		{ 512, 0x1p-40, { 432, 336, 201, 78, 19 } },
	};
	static const double hs[5] = { 0.5, 1, 2, 4, 8 };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		for (int j = 0; j < 5; j++) {
			char name[96];
			snprintf(name, sizeof name, "apt_cutoff_w%u_h%g_alpha%g = %u (90B 4.4.2)",
				 t[i].w, hs[j], log2(t[i].alpha), t[i].c[j]);
			tap_eq_long(health_apt_cutoff(t[i].w, hs[j], t[i].alpha), t[i].c[j], name);
		}
	/* the literal 90B form, not the W-1 variant (which gives 178 here) */
	tap_eq_long(health_apt_cutoff(512, 2, 0x1p-20), 177, "apt_cutoff_literal_form_not_w_minus_1");
	tap_eq_long(health_apt_window(1), 512, "apt_window_binary_512");
	tap_eq_long(health_apt_window(2), 1024, "apt_window_nonbinary_1024");
}

static void test_bad_params(void)
{
	struct health h;
	struct err e;
	struct { unsigned bits; double h, a; const char *name; } t[] = {
		{ 8, 0, 0x1p-20, "init_rejects_h_zero" },
		{ 8, -1, 0x1p-20, "init_rejects_h_negative" },
		{ 4, 4.5, 0x1p-20, "init_rejects_h_above_k" },
		{ 8, 8, 0, "init_rejects_alpha_zero" },
		{ 8, 8, 1, "init_rejects_alpha_one" },
		{ 8, 8, 1.5, "init_rejects_alpha_above_one" },
		{ 0, 1, 0x1p-20, "init_rejects_k_zero" },
		{ 9, 1, 0x1p-20, "init_rejects_k_nine" },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct health_params p = { .bits = t[i].bits, .entropy = t[i].h, .alpha = t[i].a };
		err_clear(&e);
		tap_ok(health_init(&h, &p, &e) == ERR_USAGE && e.msg[0] && !strchr(e.msg, '\n'),
		       "%s", t[i].name);
	}
}

/* ---- the fast paths against a literal reference ---- */

struct ref {                 /* 90B 4.4.1 / 4.4.2 one sample at a time, no tricks */
	unsigned rc, ac, w;
	unsigned rca, aca;       /* alarm cutoffs */
	uint64_t n, run, max_run, rf, rfirst;
	unsigned a, b, pos, max_b, wfailed, walarmed;
	uint64_t af, afirst, windows;
	uint64_t ralarms, aalarms, ralarm_first, aalarm_first;
	uint8_t last;
};

static void ref_push(struct ref *r, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++, r->n++) {
		uint8_t x = s[i];
		if (r->n > 0 && x == r->last) {
			r->run++;
		} else {
			r->run = 1;
			r->last = x;
		}
		if (r->run > r->max_run)
			r->max_run = r->run;
		if (r->run == r->rc && r->rf++ == 0)
			r->rfirst = r->n;
		if (r->run == r->rca && r->ralarms++ == 0)
			r->ralarm_first = r->n;
		if (r->pos == 0) {
			r->a = x;
			r->b = 1;
			r->wfailed = r->walarmed = 0;
		} else if (x == r->a) {
			r->b++;
		}
		r->pos++;
		if (r->b >= r->aca && !r->walarmed) {
			r->walarmed = 1;
			if (r->aalarms++ == 0)
				r->aalarm_first = r->n;
		}
		if (r->b >= r->ac && !r->wfailed) {
			r->wfailed = 1;
			if (r->af++ == 0)
				r->afirst = r->n;
		}
		if (r->b > r->max_b)
			r->max_b = r->b;
		if (r->pos == r->w) {
			r->pos = 0;
			r->windows++;
		}
	}
}

struct evlog {
	uint64_t n, sum;         /* count and a checksum of (test, index, value) */
};

static void evlog_add(void *ctx, const struct health_event *ev)
{
	struct evlog *l = ctx;
	l->n++;
	l->sum = l->sum * 1000003u + ev->index * 31u + ev->value + (ev->test[0] == 'a');
}

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Data with runs of every length: random symbols, each repeated a random
 * number of times (mostly 1, sometimes long), so runs cross every 64-sample
 * chunk and push boundary. */
static void make_runs(uint8_t *s, size_t n, unsigned bits, unsigned maxrun)
{
	size_t i = 0;
	while (i < n) {
		uint8_t v = (uint8_t)(xorshift() & ((1u << bits) - 1));
		uint64_t r = xorshift();
		size_t len = (r & 7) == 0 ? 1 + (size_t)((r >> 8) % maxrun) : 1;
		for (size_t k = 0; k < len && i < n; k++)
			s[i++] = v;
	}
}

static void compare_impl(const char *what, unsigned bits, double h, double alpha,
			 const uint8_t *s, size_t n, enum health_impl impl, int levels)
{
	struct health hl;
	/* two levels: the alarm at alpha, the failure at alpha^2 (budget.h's
	 * square root); one level: 90B's per-window cutoffs */
	struct health_params p = { .bits = bits, .entropy = h, .alpha = levels ? alpha * alpha : alpha,
				   .rct_alarm_alpha = levels ? alpha : 0,
				   .apt_alarm_alpha = levels ? alpha : 0, .apt_exact = levels };
	struct ref r = { 0 };
	struct health_result rr, ar;
	struct evlog ev = { 0 };
	struct err e;
	size_t i = 0;
	uint64_t returned = 0;
	int ok;

	p.on_event = evlog_add;
	p.event_ctx = &ev;
	if (health_init(&hl, &p, &e) != 0) {
		tap_ok(0, "%s: init (%s)", what, e.msg);
		return;
	}
	if (impl == HEALTH_IMPL_AVX2 && hl.impl != HEALTH_IMPL_AVX2) {
		for (int k = 0; k < 4; k++)
			tap_skip("no AVX2 on this CPU");
		return;
	}
	hl.impl = impl;
	r.rc = hl.rct.cutoff;
	r.ac = hl.apt.cutoff;
	r.rca = hl.rct.alarm_cutoff;
	r.aca = hl.apt.alarm_cutoff;
	r.ralarm_first = r.aalarm_first = HEALTH_NO_FAILURE;
	r.w = hl.apt.window;
	r.rfirst = r.afirst = HEALTH_NO_FAILURE;
	ref_push(&r, s, n);
	/* push in pieces of random sizes, 0 to 5000 samples (some < 64) */
	while (i < n) {
		uint64_t x = xorshift();
		size_t m = (size_t)((x & 3) == 0 ? (x >> 8) % 130 : (x >> 8) % 5001);
		if (m > n - i)
			m = n - i;
		returned += health_push(&hl, s + i, m);
		i += m;
	}
	health_rct_result(&hl, &rr);
	health_apt_result(&hl, &ar);
	ok = rr.failures == r.rf && rr.first_failure == r.rfirst && rr.max_seen == r.max_run;
	if (!tap_ok(ok, "%s: RCT failures, first failure and longest run equal the reference", what))
		printf("# got %llu/%llu/%llu, want %llu/%llu/%llu\n",
		       (unsigned long long)rr.failures, (unsigned long long)rr.first_failure,
		       (unsigned long long)rr.max_seen, (unsigned long long)r.rf,
		       (unsigned long long)r.rfirst, (unsigned long long)r.max_run);
	ok = ar.failures == r.af && ar.first_failure == r.afirst && ar.max_seen == r.max_b &&
	     hl.apt.windows == r.windows;
	if (!tap_ok(ok, "%s: APT failures, first failure, largest count, windows equal the reference",
		    what))
		printf("# got %llu/%llu/%llu/%llu, want %llu/%llu/%u/%llu\n",
		       (unsigned long long)ar.failures, (unsigned long long)ar.first_failure,
		       (unsigned long long)ar.max_seen, (unsigned long long)hl.apt.windows,
		       (unsigned long long)r.af, (unsigned long long)r.afirst, r.max_b,
		       (unsigned long long)r.windows);
	ok = rr.alarms == r.ralarms && rr.first_alarm == r.ralarm_first &&
	     ar.alarms == r.aalarms && ar.first_alarm == r.aalarm_first && (r.rca < r.rc) == levels;
	if (!tap_ok(ok, "%s: RCT and APT alarms (cutoffs %u, %u) and first alarms equal the reference",
		    what, r.rca, r.aca))
		printf("# got %llu/%llu %llu/%llu, want %llu/%llu %llu/%llu\n",
		       (unsigned long long)rr.alarms, (unsigned long long)rr.first_alarm,
		       (unsigned long long)ar.alarms, (unsigned long long)ar.first_alarm,
		       (unsigned long long)r.ralarms, (unsigned long long)r.ralarm_first,
		       (unsigned long long)r.aalarms, (unsigned long long)r.aalarm_first);
	/* alarms below the failure cutoff are events too */
	tap_ok(ev.n == r.rf + r.af + (r.rca < r.rc ? r.ralarms : 0) + (r.aca < r.ac ? r.aalarms : 0) &&
	       returned == r.rf + r.af,
	       "%s: one callback per failure and alarm, and health_push returned the failures", what);
}

static void compare_with_ref(const char *what, unsigned bits, double h, double alpha,
			     const uint8_t *s, size_t n)
{
	char name[128];
	for (int levels = 0; levels < 2; levels++) {
		const char *l = levels ? ", alarm + failure levels" : "";
		snprintf(name, sizeof name, "%s%s [portable]", what, l);
		compare_impl(name, bits, h, alpha, s, n, HEALTH_IMPL_PORTABLE, levels);
		snprintf(name, sizeof name, "%s%s [avx2]", what, l);
		compare_impl(name, bits, h, alpha, s, n, HEALTH_IMPL_AVX2, levels);
	}
}

static void test_against_reference(void)
{
	size_t n = 300000;
	uint8_t *s = malloc(n);
	if (!s)
		return;
	make_runs(s, n, 8, 12);
	compare_with_ref("8-bit, runs up to 12, H=8", 8, 8, 0x1p-20, s, n);
	make_runs(s, n, 8, 200);
	compare_with_ref("8-bit, runs up to 200, H=2", 8, 2, 0x1p-20, s, n);
	make_runs(s, n, 1, 60);
	compare_with_ref("1-bit, runs up to 60, H=1", 1, 1, 0x1p-20, s, n);
	make_runs(s, n, 1, 3);
	compare_with_ref("1-bit, H=0.5, alpha=2^-8", 1, 0.5, 0x1p-8, s, n);
	make_runs(s, n, 4, 40);
	compare_with_ref("4-bit, H=3, alpha=2^-30", 4, 3, 0x1p-30, s, n);
	memset(s, 7, n);
	compare_with_ref("constant samples", 8, 8, 0x1p-20, s, n);
	free(s);
}

static void test_startup(void)
{
	struct health h;
	struct health_params p = { .bits = 8, .entropy = 8, .alpha = 0x1p-20 };
	uint8_t s[2048];
	struct err e;

	for (size_t i = 0; i < sizeof s; i++)
		s[i] = (uint8_t)(i * 37 + 11);   /* no repeats, each value 8 times per 2048 */
	health_init(&h, &p, &e);
	health_push(&h, s, 1000);
	tap_ok(health_startup_status(&h) == HEALTH_STARTUP_PENDING, "startup_pending_before_1024");
	health_push(&h, s + 1000, 24);
	tap_ok(health_startup_status(&h) == HEALTH_STARTUP_PASSED, "startup_passed_at_1024");
	health_init(&h, &p, &e);
	memset(s + 500, 3, 4);                   /* a run of 4 = the RCT cutoff at H = 8 */
	health_push(&h, s, 600);
	tap_ok(health_startup_status(&h) == HEALTH_STARTUP_FAILED, "startup_failed_by_rct_run_at_500");
	tap_eq_long((long long)h.rct.first_failure, 503, "rct_first_failure_at_fourth_equal_sample");
}

/* ---- detection of the simulated faults, through the engine ---- */

static int run_sim(const char *spec, unsigned bits, double h, uint64_t n,
		   struct health_monitor_results *r)
{
	/* these pin 90B's per-window cutoffs */
	struct health_monitor_config c = { .bits = bits, .entropy = h, .scope = HEALTH_SCOPE_WINDOW };
	return monitor_run(spec, &c, n, 0, r, NULL);
}

static void test_detection(void)
{
	struct health_monitor_results r;
	const uint64_t after[] = { 0, 1, 5000, 123457 };

	for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) {
		char spec[64];
		snprintf(spec, sizeof spec, "sim:stuck,after=%llu,value=5", (unsigned long long)after[i]);
		if (run_sim(spec, 8, 8, after[i] + 10000, &r) == 0)
			tap_ok(r.rct.first_failure <= after[i] + r.rct.cutoff,
			       "stuck after %llu: first RCT failure %llu <= N + cutoff (%u)",
			       (unsigned long long)after[i], (unsigned long long)r.rct.first_failure,
			       r.rct.cutoff);
		else
			tap_ok(0, "stuck after %llu: run", (unsigned long long)after[i]);
	}
	if (run_sim("sim:stuck,after=3000,bits=1", 1, 1, 20000, &r) == 0)
		tap_ok(r.rct.first_failure <= 3000 + r.rct.cutoff && r.apt.failures > 0,
		       "stuck 1-bit after 3000: RCT by 3000 + %u (got %llu), APT fails", r.rct.cutoff,
		       (unsigned long long)r.rct.first_failure);
	else
		tap_ok(0, "stuck 1-bit run");

	if (run_sim("sim:amd-rdrand-ffffffff", 8, 8, 4096, &r) == 0) {
		tap_ok(r.first_failure < 4, "amd-rdrand-ffffffff: first failure within 4 samples (at %llu)",
		       (unsigned long long)r.first_failure);
		tap_ok(r.words_checked && r.words.ones.excessive && r.words.ones.first_excessive == 0,
		       "amd-rdrand-ffffffff: all-ones words excessive from word 0");
	} else {
		tap_ok(0, "amd-rdrand-ffffffff run");
		tap_ok(0, "amd-rdrand-ffffffff run");
	}

	if (run_sim("sim:rdseed-zero,p=0.1", 8, 8, 40000, &r) == 0) {
		tap_ok(r.words_checked && r.words.zeros.excessive && r.words.zeros.first_excessive < 10000,
		       "rdseed-zero,p=0.1: all-zero words excessive within 10,000 words (word %llu)",
		       (unsigned long long)r.words.zeros.first_excessive);
	} else {
		tap_ok(0, "rdseed-zero run");
	}
	/* a rate well above 2^-32 but far too low for the sample tests */
	if (run_sim("sim:rdseed-zero,p=0.001,seed=3", 8, 8, 400000, &r) == 0)
		tap_ok(r.words.zeros.excessive && r.words.zeros.first_excessive < 10000,
		       "rdseed-zero,p=0.001: all-zero words excessive within 10,000 words (word %llu)",
		       (unsigned long long)r.words.zeros.first_excessive);
	else
		tap_ok(0, "rdseed-zero p=0.001 run");

	if (run_sim("sim:repeat-words,p=0.01", 8, 8, 800000, &r) == 0)
		tap_ok(r.words_checked && r.words.repeats.excessive && r.words.rct_failures > 0,
		       "repeat-words,p=0.01: repeated words excessive, word RCT fails");
	else
		tap_ok(0, "repeat-words run");

	if (run_sim("sim:biased,p=0.1", 8, 8, 1000000, &r) == 0)
		tap_ok(r.apt.failures > 0, "biased,p=0.1 at claimed H=8: APT fails (%llu of %llu windows)",
		       (unsigned long long)r.apt.failures, (unsigned long long)r.apt.windows);
	else
		tap_ok(0, "biased run");
	/* the same source at an honest claim: -log2(0.1) = 3.32 bits; H = 3 passes */
	if (run_sim("sim:biased,p=0.1", 8, 3, 1000000, &r) == 0)
		tap_ok(r.failures == 0, "biased,p=0.1 at claimed H=3: no failure (%llu)",
		       (unsigned long long)r.failures);
	else
		tap_ok(0, "biased run H=3");

	if (run_sim("sim:ideal", 8, 8, 2000000, &r) == 0)
		tap_ok(r.failures == 0 && r.startup == HEALTH_STARTUP_PASSED,
		       "ideal at H=8, alpha=2^-20, 2e6 samples: no failure, start-up passed");
	else
		tap_ok(0, "ideal run");
}

/* ---- the monitor as an engine sink ---- */

static void test_monitor(void)
{
	struct source *src;
	struct health_monitor *m;
	struct health_monitor_config c = { 0 };
	struct health_monitor_results r;
	struct engine_opts o = { 0 };
	struct engine_stats st;
	struct sink *sinks[1];
	struct evlog ev = { 0 };
	struct err e;
	double h = 0;
	const char *why = NULL;
	int rc;

	health_monitor_default_entropy(SOURCE_DRBG, 8, 0, &h, &why);
	tap_ok(h == 8 && strstr(why, "DRBG"), "default entropy for DRBG output is K");
	health_monitor_default_entropy(SOURCE_CONDITIONED, 8, 0, &h, &why);
	tap_ok(h == 8 && strstr(why, "conditioned"), "default entropy for conditioned output is K");
	health_monitor_default_entropy(SOURCE_RAW, 8, 0, &h, &why);
	tap_ok(h == 4 && strstr(why, "policy"),
	       "default entropy for raw sources is the policy's claim, 0.5 x K");
	health_monitor_default_entropy(SOURCE_RAW, 8, 0.25, &h, &why);
	tap_ok(h == 2, "a policy's raw claim of 0.25 per bit gives H = 2 at K = 8");

	/* --stop-on-failure: the engine stops after the block with the failure */
	if (source_open(&src, "sim:stuck,after=10000", &e) == 0) {
		c.bits = 8;
		c.entropy = 8;
		c.scope = HEALTH_SCOPE_WINDOW;
		c.kind = SOURCE_RAW;
		c.word_bits = 8;
		c.stop_on_failure = 1;
		c.on_failure = evlog_add;
		c.cb_ctx = &ev;
		if (health_monitor_new(&m, &c, &e) == 0) {
			sinks[0] = health_monitor_sink(m);
			o.bits = 8;
			o.max_samples = 100000000;
			o.block_bytes = 4096;
			rc = engine_run(src, &o, sinks, 1, &st, &e);
			health_monitor_results(m, &r);
			tap_ok(rc == 0 && st.stopped_by_sink && st.samples <= 10003 + 4096,
			       "stop_on_failure: stopped by the sink after %llu samples",
			       (unsigned long long)st.samples);
			tap_ok(ev.n == r.failures && r.first_failure == 10003,
			       "monitor: callback per failure, first at 10003");
			health_monitor_free(m);
		}
		source_close(src);
	}

	/* NIST format: bytes must be < 2^K */
	if (source_open(&src, "sim:ideal", &e) == 0) {
		memset(&c, 0, sizeof c);
		c.bits = 1;
		c.entropy = 1;
		c.scope = HEALTH_SCOPE_WINDOW;
		c.kind = SOURCE_RAW;
		c.nist_format = 1;
		c.what = "x.bin";
		if (health_monitor_new(&m, &c, &e) == 0) {
			sinks[0] = health_monitor_sink(m);
			memset(&o, 0, sizeof o);
			o.bits = 8;
			o.max_samples = 1000;
			err_clear(&e);
			rc = engine_run(src, &o, sinks, 1, &st, &e);
			tap_ok(rc == ERR_DATA && strstr(e.msg, "x.bin: sample ") &&
			       strstr(e.msg, "not below 2^1"),
			       "NIST format: a byte >= 2^K is ERR_DATA naming the input (%s)", e.msg);
			health_monitor_free(m);
		}
		source_close(src);
	}
	memset(&c, 0, sizeof c);
	c.bits = 8;
	c.entropy = 9;
	tap_ok(health_monitor_new(&m, &c, &e) == ERR_USAGE && !m, "monitor rejects H > K");
}

/* ---- false alarms on an ideal source vs the theoretical rate ---- */

static void false_alarm_check(const char *spec, unsigned bits, double alpha, uint64_t n)
{
	struct source *src;
	struct health_monitor *m;
	struct health_monitor_config c = { 0 };
	struct engine_opts o = { 0 };
	struct engine_stats st;
	struct health_monitor_results r;
	struct sink *sinks[1];
	struct err e;
	double q = ldexp(1.0, -(int)bits), rct_rate, exp_rct, p_win, exp_apt;
	unsigned rc_, ac, w;

	if (source_open(&src, spec, &e) != 0) {
		tap_ok(0, "%s: %s", spec, e.msg);
		return;
	}
	c.bits = bits;
	c.entropy = bits;
	c.alpha = alpha;
	c.scope = HEALTH_SCOPE_WINDOW;
	c.word_bits = 8;
	c.kind = SOURCE_RAW;
	if (health_monitor_new(&m, &c, &e) != 0) {
		tap_ok(0, "%s: %s", spec, e.msg);
		source_close(src);
		return;
	}
	sinks[0] = health_monitor_sink(m);
	o.bits = bits;
	o.max_samples = n;
	engine_run(src, &o, sinks, 1, &st, &e);
	health_monitor_results(m, &r);
	health_monitor_free(m);
	source_close(src);

	/* RCT: a failure at sample i >= C: samples i-C+1..i equal, sample i-C
	 * different: q^(C-1) (1-q); at i = C-1: q^(C-1). */
	rc_ = r.rct.cutoff;
	rct_rate = pow(q, rc_ - 1);
	exp_rct = rct_rate + (double)(n - rc_) * rct_rate * (1 - q);
	/* APT: a window fails when B = 1 + Binomial(W-1, q) >= C */
	ac = r.apt.cutoff;
	w = r.apt.window;
	p_win = gsl_cdf_binomial_Q(ac - 2, q, w - 1);
	exp_apt = p_win * (double)(n / w);
	/* counts are (nearly) Poisson: 5 standard deviations, fixed seed */
	if (!tap_ok(fabs((double)r.rct.failures - exp_rct) <= 5 * sqrt(exp_rct) + 1,
		    "%s alpha=2^%g: RCT false alarms %llu agree with the expected %.1f", spec,
		    log2(alpha), (unsigned long long)r.rct.failures, exp_rct))
		printf("# cutoff %u\n", rc_);
	tap_ok(fabs(r.rct.expected_false_alarms / exp_rct - 1) < 1e-3 &&
	       fabs(r.apt.expected_false_alarms / exp_apt - 1) < 1e-9,
	       "%s: expected false alarms reported (%.1f, %.1f) = the theory above", spec,
	       r.rct.expected_false_alarms, r.apt.expected_false_alarms);
	tap_ok(exp_apt >= 20 && fabs((double)r.apt.failures - exp_apt) <= 5 * sqrt(exp_apt) + 1,
	       "%s alpha=2^%g: APT false alarms %llu agree with the expected %.1f (window rate %.3g)",
	       spec, log2(alpha), (unsigned long long)r.apt.failures, exp_apt, p_win);
	/* 90B's RCT rate is within alpha by construction; the literal APT cutoff
	 * bounds P(Binomial(W, 2^-H) >= C), not the real window rate above (the
	 * reference sample is not a trial), which is why some use the W-1 form */
	tap_ok(rct_rate <= alpha && gsl_cdf_binomial_Q(ac - 1, q, w) <= alpha,
	       "%s: RCT rate %.3g <= alpha; P(Bin(W, 2^-H) >= C) = %.3g <= alpha", spec, rct_rate,
	       gsl_cdf_binomial_Q(ac - 1, q, w));
}

static void test_false_alarms(void)
{
	false_alarm_check("sim:ideal,seed=7", 8, 0x1p-6, 4000000);
	false_alarm_check("sim:ideal,bits=1,seed=9", 1, 0x1p-6, 4000000);
}

int main(void)
{
	test_rct_cutoffs();
	test_apt_cutoffs();
	test_bad_params();
	test_against_reference();
	test_startup();
	test_detection();
	test_monitor();
	test_false_alarms();
	return tap_done();
}
