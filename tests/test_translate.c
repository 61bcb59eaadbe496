/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_translate.c - 90B 6.4 symbol-space reduction: parsing, each method's
 * map on inputs whose answer is known, and the assessed min-entropy of
 * synthetic wide sources of known min-entropy through every method.
 *
 * The sources (issue 19, item 5), each with its closed-form min-entropy:
 *  - a 12-bit discretised Gaussian, mean 2048, sigma 8: the mode 2048 has
 *    p = P(|sigma Z| < 1/2) = erf(1/(2 sigma sqrt 2)), H = -log2 p = 4.326;
 *  - a 64-bit counter (shifted up 8) plus a low byte 4u+1, u uniform on
 *    0..31: H = 5 (the counter is known; the byte has 32 equal values);
 *  - 32-bit samples whose top 26 bits are stuck: 6 uniform bits, H = 6.
 * The assessment of the reduced samples must not exceed the true figure by
 * more than the estimators' 99% bounds allow (it is a lower bound, 90B 6.4),
 * and must not be absurdly low where the method keeps the entropy (see
 * check_case for the floors and why).
 */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/translate.h"
#include "estimators/noniid.h"
#include "tap.h"

#define N_SAMPLES 100000      /* 0.1 s of estimators per method; enough for the 99% bounds */
#define GAUSS_SIGMA 8.0
#define GAUSS_MEAN 2048.0
#define GAUSS_MAX 4095.0      /* 12 bits */
#define COUNTER_VALUES 32     /* the counter's low byte: 4u+1, u uniform on 0..31 */
#define STUCK_HIGH 0xDEADBE80u /* top 26 bits of the stuck source (low 6 bits clear) */
#define STUCK_FREE_BITS 6

static double gauss_h(void)
{
	return -log2(erf(0.5 / (GAUSS_SIGMA * sqrt(2.0))));
}

static uint64_t *make_gauss(gsl_rng *r)
{
	uint64_t *x = malloc(N_SAMPLES * sizeof *x);
	for (size_t i = 0; i < N_SAMPLES; i++) {
		double v = nearbyint(GAUSS_MEAN + gsl_ran_gaussian(r, GAUSS_SIGMA));
		x[i] = (uint64_t)(v < 0 ? 0 : v > GAUSS_MAX ? GAUSS_MAX : v);
	}
	return x;
}

static uint64_t *make_counter(gsl_rng *r)
{
	uint64_t *x = malloc(N_SAMPLES * sizeof *x);
	for (size_t i = 0; i < N_SAMPLES; i++)
		x[i] = ((uint64_t)i << 8) | (4 * gsl_rng_uniform_int(r, COUNTER_VALUES) + 1);
	return x;
}

static uint64_t *make_stuck(gsl_rng *r)
{
	uint64_t *x = malloc(N_SAMPLES * sizeof *x);
	for (size_t i = 0; i < N_SAMPLES; i++)
		x[i] = STUCK_HIGH | gsl_rng_uniform_int(r, 1u << STUCK_FREE_BITS);
	return x;
}

/* ---- parsing ----------------------------------------------------------- */

static void test_parse(void)
{
	struct translate_method m;
	struct err e;
	static const char *const bad[] = {
		"low:0", "low:9", "low:", "low:8x", "low:-1", "low: 8", "select:0", "group:9",
		"mod:1", "mod:257", "mod:", "bits", "bits-in-use:3", "", "LOW:8", "low:+8",
	};

	tap_ok(translate_parse("low:8", &m, &e) == 0 && m.kind == TRANSLATE_LOW && m.k == 8,
	       "parse: low:8");
	tap_ok(translate_parse("bits-in-use", &m, &e) == 0 && m.kind == TRANSLATE_BITS_IN_USE,
	       "parse: bits-in-use");
	tap_ok(translate_parse("select:3", &m, &e) == 0 && m.kind == TRANSLATE_SELECT && m.k == 3,
	       "parse: select:3");
	tap_ok(translate_parse("group:8", &m, &e) == 0 && m.kind == TRANSLATE_GROUP && m.k == 8,
	       "parse: group:8");
	tap_ok(translate_parse("mod:256", &m, &e) == 0 && m.kind == TRANSLATE_MOD && m.m == 256,
	       "parse: mod:256");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = translate_parse(bad[i], &m, &e);
		tap_ok(rc == ERR_USAGE && !strchr(e.msg, '\n') && strstr(e.msg, "translation"),
		       "parse: '%s' is a one-line usage error", bad[i]);
	}
}

/* ---- maps with known answers ------------------------------------------- */

static int plan(const char *method, const uint64_t *x, size_t n, unsigned width,
		struct translate_map *map)
{
	struct translate_method m;
	struct err e;
	if (translate_parse(method, &m, &e) != 0)
		return -1;
	return translate_plan(&m, x, n, width, map, &e);
}

static void test_known_maps(void)
{
	const uint64_t x[6] = { 0xAB00F1, 0xAB00F2, 0xAB00F5, 0xAB00F1, 0xAB01F0, 0xAB00F3 };
	struct translate_map map;
	uint8_t out[6];
	char line[256];

	tap_ok(plan("low:4", x, 6, 32, &map) == 0 && map.bits == 4, "low:4: 4-bit symbols");
	translate_apply(&map, x, 6, out);
	tap_ok(out[0] == 1 && out[1] == 2 && out[2] == 5 && out[4] == 0 && out[5] == 3,
	       "low:4: the low nibbles 1 2 5 1 0 3");

	/* bits 0, 1, 2 and 8 change: four bits, symbol = b0 b1 b2 b8 lowest first */
	tap_ok(plan("bits-in-use", x, 6, 32, &map) == 0 && map.bits == 4 && map.varying == 0x107,
	       "bits-in-use: bits 0,1,2,8 change (mask 0x107), 4-bit symbols");
	translate_apply(&map, x, 6, out);
	tap_ok(out[0] == 1 && out[2] == 5 && out[4] == 8 && out[5] == 3,
	       "bits-in-use: 0xAB01F0 -> 8 (bit 8 becomes symbol bit 3)");
	translate_describe(&map, line, sizeof line);
	tap_eq_str(line, "bits-in-use: 4 of 32 bits change (0,1,2,8); the symbol is those bits",
		   "bits-in-use: description");

	tap_ok(plan("mod:3", x, 6, 32, &map) == 0 && map.bits == 2, "mod:3: 2-bit symbols");
	translate_apply(&map, x, 6, out);
	tap_ok(out[0] == 0xAB00F1 % 3 && out[4] == 0xAB01F0 % 3, "mod:3: x mod 3");

	tap_ok(plan("low:9", x, 6, 8, &map) != 0, "low:K wider than the samples: error");
	tap_ok(plan("low:4", x, 0, 32, &map) == ERR_DATA, "no samples: a data error");
}

static void test_constant(void)
{
	const uint64_t x[4] = { 7, 7, 7, 7 };
	struct translate_map map;
	uint8_t out[4];
	char line[256];

	tap_ok(plan("bits-in-use", x, 4, 16, &map) == 0 && map.bits == 1, "constant: one 1-bit symbol");
	translate_apply(&map, x, 4, out);
	tap_ok(out[0] == 0 && out[3] == 0, "constant: every symbol 0");
	translate_describe(&map, line, sizeof line);
	tap_ok(strstr(line, "no bit") != NULL, "constant: the description says no bit changes");
	tap_ok(plan("group:4", x, 4, 16, &map) == 0 && map.nsym == 1, "constant: group makes one range");
}

/* select:K scores jointly: four copies of one sign bit and two independent
 * coin bits; select:2 must take the coin bits, not two sign-bit copies. */
static void test_select_not_copies(gsl_rng *r)
{
	uint64_t *x = malloc(N_SAMPLES * sizeof *x);
	struct translate_map map;

	for (size_t i = 0; i < N_SAMPLES; i++) {
		uint64_t sign = gsl_rng_uniform_int(r, 2), coins = gsl_rng_uniform_int(r, 4);
		x[i] = (sign ? 0xF000 : 0) | coins << 4;
	}
	tap_ok(plan("select:2", x, N_SAMPLES, 16, &map) == 0 && map.npos == 2, "select:2: two bits");
	tap_ok((map.pos[0] >= 12) + (map.pos[1] >= 12) <= 1,
	       "select:2: at most one copy of the sign bit (chose %u,%u)", map.pos[0], map.pos[1]);
	tap_near(map.score, 2.0, 0.05, "select:2: the joint estimate of two independent bits is ~2");
	/* an alternating bit is predicted by the symbol before it: scored 0 */
	for (size_t i = 0; i < N_SAMPLES; i++)
		x[i] = (i & 1) | gsl_rng_uniform_int(r, 2) << 1;
	tap_ok(plan("select:1", x, N_SAMPLES, 8, &map) == 0 && map.pos[0] == 1,
	       "select:1: the coin bit, not the alternating one");
	free(x);
}

static void test_group_population(gsl_rng *r)
{
	uint64_t *x = malloc(N_SAMPLES * sizeof *x);
	struct translate_map map;
	uint8_t *out = malloc(N_SAMPLES);
	size_t count[16] = { 0 }, lo = SIZE_MAX, hi = 0;

	for (size_t i = 0; i < N_SAMPLES; i++)
		x[i] = gsl_rng_uniform_int(r, 1u << 20) * 4096;
	tap_ok(plan("group:4", x, N_SAMPLES, 32, &map) == 0 && map.nsym == 16 && map.bits == 4,
	       "group:4 of 2^20 values: 16 ranges");
	translate_apply(&map, x, N_SAMPLES, out);
	for (size_t i = 0; i < N_SAMPLES; i++)
		count[out[i]]++;
	for (int s = 0; s < 16; s++) {
		lo = count[s] < lo ? count[s] : lo;
		hi = count[s] > hi ? count[s] : hi;
	}
	/* values almost never repeat, so each range holds N/16 within a sample or two */
	tap_ok(lo + 2 >= N_SAMPLES / 16 && hi <= N_SAMPLES / 16 + 2,
	       "group:4: populations %zu..%zu, all about %d", lo, hi, N_SAMPLES / 16);
	tap_ok(map.lower[1] > map.lower[0] && map.lower[15] > map.lower[14],
	       "group:4: the ranges are contiguous and increasing");
	free(x);
	free(out);
}

/* ---- known-entropy sources through every method and the estimators ---- */

/* Runs the estimators on the reduced samples: the assessed figure, and
 * H_original (the literal estimators, which see each symbol whole). */
static double assessed(const uint64_t *x, const struct translate_map *map, double *h_original)
{
	uint8_t *s = malloc(N_SAMPLES);
	struct noniid_opts o;
	struct noniid_report rep;
	struct err e;
	double h = -1.0;

	translate_apply(map, x, N_SAMPLES, s);
	noniid_opts_init(&o);
	o.bits = map->bits;
	if (noniid_assess(s, N_SAMPLES, &o, &rep, &e) == 0) {
		h = rep.h_assessed;
		if (h_original)
			*h_original = rep.h_original;
		noniid_report_free(&rep);
	}
	free(s);
	return h;
}

struct known_case {
	const char *source;
	const char *method;
	double kept;       /* true min-entropy of the reduced samples (closed form) */
};

/* The estimators' 99% upper bounds on p make both figures lower bounds:
 * no slack above the truth is granted.  Below: H_original, the literal
 * estimators, must find at least 85% of what the method kept.  The assessed
 * figure is min(H_original, bits x H_bitstring) as NIST's tool combines them,
 * and the bitstring side costs much more where the symbol's bits carry
 * unequal shares (8-bit symbols of a 4.3-bit Gaussian: 2.2 from the
 * bitstring Collision estimate, as NIST's ea_non_iid gives too), so it is
 * held only to 35%. */
#define KEPT_LITERAL_FLOOR 0.85
#define KEPT_ASSESSED_FLOOR 0.35

static void check_case(const uint64_t *x, unsigned width, const struct known_case *c)
{
	struct translate_map map;
	double h, ho = -1.0;

	if (plan(c->method, x, N_SAMPLES, width, &map) != 0) {
		tap_ok(0, "%s via %s: plan", c->source, c->method);
		return;
	}
	h = assessed(x, &map, &ho);
	tap_ok(h >= 0 && h <= c->kept,
	       "%s via %s: assessed %.3f <= true %.3f (90B 6.4 lower bound)", c->source, c->method,
	       h, c->kept);
	tap_ok(ho <= c->kept && ho >= KEPT_LITERAL_FLOOR * c->kept,
	       "%s via %s: H_original %.3f within [%.2f, 1] of the true %.3f", c->source, c->method,
	       ho, KEPT_LITERAL_FLOOR, c->kept);
	tap_ok(h >= KEPT_ASSESSED_FLOOR * c->kept,
	       "%s via %s: assessed %.3f is not absurdly low (>= %.2f of %.3f)",
	       c->source, c->method, h, KEPT_ASSESSED_FLOOR, c->kept);
}

static void test_known_sources(gsl_rng *r)
{
	uint64_t *g = make_gauss(r), *cnt = make_counter(r), *st = make_stuck(r);
	const double hg = gauss_h();
	/* Each method's kept entropy: lossless on the Gaussian where the span
	 * (mean +- 6 sigma = 96 values) fits the symbols; select:8 and
	 * bits-in-use (12 bits change, so select:8) may lose some. */
	const struct known_case gauss[] = {
		{ "gauss12", "low:8", hg },       /* 96 consecutive values: distinct mod 256 */
		{ "gauss12", "mod:251", hg },
		{ "gauss12", "group:8", hg },     /* fewer than 256 values carry weight: one range each */
	};
	const struct known_case counter[] = {
		{ "counter+byte", "low:8", 5.0 },
		{ "counter+byte", "mod:256", 5.0 },
	};
	const struct known_case stuck[] = {
		{ "stuck-high", "bits-in-use", 6.0 },
		{ "stuck-high", "low:8", 6.0 },
		{ "stuck-high", "low:6", 6.0 },
		{ "stuck-high", "mod:64", 6.0 },
		{ "stuck-high", "select:6", 6.0 },
		{ "stuck-high", "select:4", 4.0 },
		{ "stuck-high", "group:6", 6.0 },
	};
	struct translate_map map;
	double h;

	tap_near(hg, 4.3263, 0.0005, "gauss12: closed-form H = -log2 erf(1/(2*8*sqrt 2)) = 4.326");
	for (size_t i = 0; i < sizeof gauss / sizeof gauss[0]; i++)
		check_case(g, 12, &gauss[i]);
	for (size_t i = 0; i < sizeof counter / sizeof counter[0]; i++)
		check_case(cnt, 64, &counter[i]);
	for (size_t i = 0; i < sizeof stuck / sizeof stuck[0]; i++)
		check_case(st, 32, &stuck[i]);

	/* Lossy methods: bounded above by the raw figure, below only loosely. */
	tap_ok(plan("bits-in-use", g, N_SAMPLES, 12, &map) == 0 && map.selected && map.bits == 8,
	       "gauss12 via bits-in-use: 12 bits change, continued with select:8");
	h = assessed(g, &map, NULL);
	tap_ok(h >= KEPT_ASSESSED_FLOOR * hg && h <= hg, "gauss12 via bits-in-use: %.3f in [0.35 H, H=%.3f]", h, hg);
	tap_ok(plan("bits-in-use", cnt, N_SAMPLES, 64, &map) == 0 && map.selected,
	       "counter+byte via bits-in-use: more than 8 bits change, select:8");
	h = assessed(cnt, &map, NULL);
	tap_ok(h >= KEPT_ASSESSED_FLOOR * 5.0 && h <= 5.0,
	       "counter+byte via bits-in-use: %.3f in [1.75, 5]: the counter bits add nothing", h);
	tap_ok(plan("group:8", cnt, N_SAMPLES, 64, &map) == 0, "counter+byte via group:8: plan");
	h = assessed(cnt, &map, NULL);
	tap_ok(h >= 0 && h < 0.5, "counter+byte via group:8: %.3f: ranges of a counter carry ~0", h);
	free(g);
	free(cnt);
	free(st);
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 19);
	test_parse();
	test_known_maps();
	test_constant();
	test_select_not_copies(r);
	test_group_population(r);
	test_known_sources(r);
	gsl_rng_free(r);
	return tap_done();
}
