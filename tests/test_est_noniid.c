/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_est_noniid.c - how noniid_assess() combines the estimators, checked
 * against the rules of NIST's ea_non_iid v1.1.7 (non_iid_main.cpp) and
 * 90B 3.1.3: which estimators run on which domain, symbol translation,
 * -c, -t, -l, H_original/H_bitstring/assessed, and the input errors. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimators/noniid.h"
#include "tap.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(unsigned k)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % k);
}

static void test_errors(void)
{
	uint8_t s[100];
	struct noniid_opts o;
	struct noniid_report rep;
	struct err e;

	memset(s, 1, sizeof s);
	s[3] = 2;
	noniid_opts_init(&o);
	tap_eq_long(noniid_assess(s, 0, &o, &rep, &e), ERR_DATA, "empty input is ERR_DATA");
	o.bits = 9;
	tap_eq_long(noniid_assess(s, sizeof s, &o, &rep, &e), ERR_USAGE, "bits = 9 is ERR_USAGE");
	o.bits = 1;
	tap_ok(noniid_assess(s, sizeof s, &o, &rep, &e) == ERR_DATA && strstr(e.msg, "sample 3"),
	       "a sample >= 2^bits is ERR_DATA naming it (%s)", e.msg);
	o.bits = 0;
	o.sub_index = 100;
	o.sub_count = 1;
	tap_eq_long(noniid_assess(s, sizeof s, &o, &rep, &e), ERR_USAGE,
		    "-l block past the end is ERR_USAGE");
}

static void test_single_symbol(void)
{
	uint8_t s[1000];
	struct noniid_report rep;
	struct err e;
	int ran = 0;

	memset(s, 7, sizeof s);
	tap_eq_long(noniid_assess(s, sizeof s, NULL, &rep, &e), 0, "one symbol: not an error");
	for (int i = 0; i < NONIID_NEST; i++)
		ran += rep.literal_ran[i] + rep.bitstring_ran[i];
	tap_ok(rep.alph_size == 1 && ran == 0 && rep.h_assessed == 0.0,
	       "one symbol: no estimator runs, assessed 0 (NIST: no entropy awarded)");
}

static void test_binary(void)
{
	enum { N = 20000 };
	uint8_t *s = malloc(N);
	struct noniid_report rep;
	struct err e;
	double hmin = 1.0;

	for (int i = 0; i < N; i++)
		s[i] = (uint8_t)(rnd(4) == 0);
	noniid_assess(s, N, NULL, &rep, &e);
	tap_ok(!rep.has_bitstring && rep.bits == 1 && rep.alph_size == 2,
	       "binary data, -i: no bitstring pass (NIST: alph_size == 2)");
	tap_ok(rep.literal_ran[NONIID_COLLISION] && rep.literal_ran[NONIID_MARKOV] &&
	       rep.literal_ran[NONIID_COMPRESSION],
	       "binary literal: 6.3.2-6.3.4 run on the samples");
	for (int i = 0; i < NONIID_NEST; i++)
		if (rep.literal_ran[i] && rep.literal[i].applicable && rep.literal[i].h < hmin)
			hmin = rep.literal[i].h;
	tap_near(rep.h_original, hmin, 0, "H_original = min of the applicable literal estimates");
	tap_near(rep.h_assessed, rep.h_original, 0, "binary: assessed = H_original");
	tap_ok(rep.h_original_by >= 0 && rep.literal[rep.h_original_by].h == rep.h_original,
	       "h_original_by names the estimator that set it (%s)", noniid_est_name(rep.h_original_by));
	free(s);
}

static void test_translation(void)
{
	enum { N = 30000 };
	static const uint8_t vals[3] = { 0, 5, 9 };
	uint8_t *s = malloc(N);
	struct noniid_report rep;
	struct err e;
	size_t count9 = 0, ones = 0;

	for (int i = 0; i < N; i++) {
		s[i] = vals[rnd(3)];
		count9 += s[i] == 9;
		ones += (size_t)__builtin_popcount(s[i]);
	}
	noniid_assess(s, N, NULL, &rep, &e);
	tap_ok(rep.bits == 4 && rep.alph_size == 3 && rep.translated,
	       "{0,5,9}: 4 bits inferred, 3 symbols, translated");
	tap_ok(!rep.literal_ran[NONIID_COLLISION] && rep.literal_ran[NONIID_MCV] &&
	       rep.bitstring_ran[NONIID_COLLISION],
	       "3 symbols: collision runs on the bitstring only");
	tap_eq_long((long long)rep.nbits, 4 * N, "bitstring has bits * N = 120000 bits");
	/* the bitstring comes from the untranslated values: its ones are the popcounts */
	tap_eq_long(rep.bitstring[NONIID_MCV].detail[0].i,
		    (long long)(ones > 4 * N - ones ? ones : 4 * N - ones),
		    "bitstring MCV counts the bits of the raw samples (90B 3.1.3 / NIST)");
	tap_near(rep.h_assessed, fmin(rep.h_original, 4 * rep.h_bitstring), 0,
		 "assessed = min(H_original, bits x H_bitstring)");
	(void)count9;
	free(s);
}

static void test_modes(void)
{
	enum { N = 130000 };
	uint8_t *s = malloc(N);
	struct noniid_opts o;
	struct noniid_report a, b;
	struct err e;
	int same = 1, lit = 0;

	for (int i = 0; i < N; i++)
		s[i] = (uint8_t)(rnd(256) & rnd(256));
	noniid_opts_init(&o);
	o.truncate = 1;
	noniid_assess(s, N, &o, &a, &e);
	tap_eq_long((long long)a.nbits, 1000000, "-t: bitstring cut to 1,000,000 bits");

	o.truncate = 0;
	o.conditioned = 1;
	noniid_assess(s, N, &o, &a, &e);
	for (int i = 0; i < NONIID_NEST; i++)
		lit += a.literal_ran[i];
	tap_ok(lit == 0 && a.has_bitstring && a.bitstring_ran[NONIID_MARKOV],
	       "-c: only the bitstring is assessed");
	tap_near(a.h_assessed, fmin(8.0, 8 * a.h_bitstring), 0, "-c: assessed = bits x H_bitstring");

	/* -l 2,20000 is samples 40000..59999, whatever the thread count */
	noniid_opts_init(&o);
	o.sub_index = 2;
	o.sub_count = 20000;
	o.threads = 1;
	noniid_assess(s, N, &o, &a, &e);
	noniid_opts_init(&o);
	o.threads = 2;
	noniid_assess(s + 40000, 20000, &o, &b, &e);
	for (int i = 0; i < NONIID_NEST; i++) {
		same &= a.literal_ran[i] == b.literal_ran[i] && a.bitstring_ran[i] == b.bitstring_ran[i];
		if (a.literal_ran[i])
			same &= a.literal[i].h == b.literal[i].h || (isnan(a.literal[i].h) && isnan(b.literal[i].h));
		if (a.bitstring_ran[i])
			same &= a.bitstring[i].h == b.bitstring[i].h ||
				(isnan(a.bitstring[i].h) && isnan(b.bitstring[i].h));
	}
	tap_ok(a.n == 20000 && same && a.h_assessed == b.h_assessed,
	       "-l 2,20000 equals assessing samples 40000..59999 (1 thread vs 2)");
	free(s);
}

int main(void)
{
	test_errors();
	test_single_symbol();
	test_binary();
	test_translation();
	test_modes();
	return tap_done();
}
