/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wordcheck.c - native-word checks: word RCT, all-zero/all-ones counts
 * against 2^-width, and the repeated-word detector against brute force. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "health/wordcheck.h"

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void put_word(uint8_t *p, uint64_t w, unsigned wbytes)
{
	for (unsigned k = 0; k < wbytes; k++)
		p[k] = (uint8_t)(w >> (8 * k));
}

static int wc_new(struct wordcheck *w, unsigned bits, double h, double alpha, unsigned window)
{
	struct wordcheck_params p = { bits, h, alpha, window, NULL, NULL, 0 };   /* 0: per-window alpha */
	struct err e;
	if (wordcheck_init(w, &p, &e) != 0) {
		printf("# %s\n", e.msg);
		return -1;
	}
	return 0;
}

/* Random words that are never all zeros or all ones, with word `zero_at`
 * (if < n) replaced by 0. */
static void push_random(struct wordcheck *w, unsigned bits, uint64_t n, uint64_t zero_at)
{
	uint8_t buf[8];
	uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v;
		do
			v = xorshift() & mask;
		while (v == 0 || v == mask);
		if (i == zero_at)
			v = 0;
		put_word(buf, v, bits / 8);
		wordcheck_push(w, buf, bits / 8);
	}
}

static void test_params(void)
{
	struct wordcheck w;
	struct wordcheck_params p = { 24, 24, 0x1p-20, 0, NULL, NULL, 0 };
	struct err e;
	tap_ok(wordcheck_init(&w, &p, &e) == ERR_USAGE, "init_rejects_24_bit_words");
	p.word_bits = 32;
	p.entropy = 33;
	tap_ok(wordcheck_init(&w, &p, &e) == ERR_USAGE, "init_rejects_entropy_above_width");
	p.entropy = 32;
	p.alpha = 1;
	tap_ok(wordcheck_init(&w, &p, &e) == ERR_USAGE, "init_rejects_alpha_one");
	p.alpha = 0x1p-20;
	if (wordcheck_init(&w, &p, &e) == 0) {
		/* 90B 4.4.1 on words: 1 + ceil(20 / 32) = 2; 16-bit: 1 + ceil(20 / 16) = 3 */
		tap_eq_long(w.rct.cutoff, 2, "word_rct_cutoff_32bit_full_entropy = 2");
		wordcheck_free(&w);
	}
	p.word_bits = 16;
	p.entropy = 16;
	if (wordcheck_init(&w, &p, &e) == 0) {
		tap_eq_long(w.rct.cutoff, 3, "word_rct_cutoff_16bit_full_entropy = 3");
		wordcheck_free(&w);
	}
}

/* One zero 32-bit word among n words: P(X >= 1) = 1 - (1 - 2^-32)^n is
 * <= 2^-20 for n <= 4096 (n = 4096 gives 2^-20 (1 - 2^-21) roughly), above
 * for n = 4097: a zero at index 4095 is excessive, at index 4096 it is not. */
static void test_zero_threshold(void)
{
	struct wordcheck w;
	struct wordcheck_results r;

	if (wc_new(&w, 32, 32, 0x1p-20, 0) == 0) {
		push_random(&w, 32, 5000, 4095);
		wordcheck_results(&w, &r);
		tap_ok(r.zeros.count == 1 && r.zeros.excessive && r.zeros.first_excessive == 4095,
		       "one zero 32-bit word at index 4095: excessive (P <= 2^-20)");
		tap_eq_long((long long)r.failures, 1, "zero at 4095: one failure");
		wordcheck_free(&w);
	}
	if (wc_new(&w, 32, 32, 0x1p-20, 0) == 0) {
		push_random(&w, 32, 5000, 4096);
		wordcheck_results(&w, &r);
		tap_ok(r.zeros.count == 1 && !r.zeros.excessive,
		       "one zero 32-bit word at index 4096: not excessive (P > 2^-20)");
		tap_near(r.zeros_p, -expm1(5000 * log1p(-0x1p-32)), 1e-12,
			 "zero count p-value = 1 - (1 - 2^-32)^5000");
		wordcheck_free(&w);
	}
	if (wc_new(&w, 64, 64, 0x1p-20, 0) == 0) {
		push_random(&w, 64, 100000, 99999);
		wordcheck_results(&w, &r);
		tap_ok(r.zeros.excessive, "one zero 64-bit word in 1e5: excessive");
		wordcheck_free(&w);
	}
}

static void test_ones_and_rct(void)
{
	struct wordcheck w;
	struct wordcheck_results r;
	uint8_t buf[8 * 100];

	if (wc_new(&w, 64, 64, 0x1p-20, 0) == 0) {
		memset(buf, 0xff, sizeof buf);
		wordcheck_push(&w, buf, sizeof buf);
		wordcheck_results(&w, &r);
		tap_ok(r.ones.excessive && r.ones.first_excessive == 0 && r.ones.count == 100,
		       "all-ones 64-bit words: excessive from word 0");
		tap_ok(r.rct_failures == 1 && r.rct_first_failure == 1 && r.rct_max_run == 100,
		       "all-ones 64-bit words: word RCT fails once at word 1, run 100");
		wordcheck_free(&w);
	}
	/* a 16-bit word run of 3 = cutoff at H = 16; of 2 = none */
	if (wc_new(&w, 16, 16, 0x1p-20, 0) == 0) {
		push_random(&w, 16, 10, ~0ULL);
		put_word(buf, 0x1234, 2);
		put_word(buf + 2, 0x1234, 2);
		wordcheck_push(&w, buf, 4);
		push_random(&w, 16, 10, ~0ULL);
		wordcheck_results(&w, &r);
		tap_ok(r.rct_failures == 0 && r.rct_max_run >= 2, "16-bit run of 2: no word RCT failure");
		wordcheck_push(&w, buf, 4);
		put_word(buf + 4, 0x1234, 2);
		wordcheck_push(&w, buf + 4, 2);
		wordcheck_results(&w, &r);
		tap_ok(r.rct_failures == 1 && r.rct_first_failure == 24,
		       "16-bit run of 3: word RCT fails at word 24");
		wordcheck_free(&w);
	}
}

/* Repeats within the last W words, brute force. */
static uint64_t brute_repeats(const uint64_t *v, size_t n, unsigned window)
{
	uint64_t c = 0;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i > window ? i - window : 0; j < i; j++)
			if (v[j] == v[i]) {
				c++;
				break;
			}
	return c;
}

static void test_repeats(void)
{
	struct wordcheck w, w2;
	struct wordcheck_results r, r2;
	size_t n = 60000;
	uint64_t *v = malloc(n * sizeof *v);
	uint8_t *raw = malloc(n * 2);

	if (!v || !raw)
		return;
	/* 16-bit words: repeats within 1024 happen at about 1.55% per word */
	for (size_t i = 0; i < n; i++) {
		v[i] = xorshift() & 0xffff;
		put_word(raw + 2 * i, v[i], 2);
	}
	if (wc_new(&w, 16, 16, 0x1p-20, 1024) == 0 && wc_new(&w2, 16, 16, 0x1p-20, 1024) == 0) {
		size_t off = 0;
		uint64_t want = brute_repeats(v, n, 1024);
		wordcheck_push(&w, raw, n * 2);
		wordcheck_results(&w, &r);
		tap_eq_long((long long)r.repeats.count, (long long)want,
			    "16-bit random: repeats within 1024 equal brute force");
		tap_ok(!r.repeats.excessive && fabs((double)r.repeats.count - r.repeats_expected) <
			       5 * sqrt(r.repeats_expected),
		       "16-bit random: %llu repeats agree with the expected %.1f (1-(1-2^-16)^1024 per word)",
		       (unsigned long long)r.repeats.count, r.repeats_expected);
		/* the same bytes pushed in odd pieces: words split across pushes */
		while (off < n * 2) {
			size_t m = 1 + (size_t)(xorshift() % 7);
			if (m > n * 2 - off)
				m = n * 2 - off;
			wordcheck_push(&w2, raw + off, m);
			off += m;
		}
		wordcheck_results(&w2, &r2);
		tap_ok(r2.words == r.words && r2.repeats.count == r.repeats.count &&
			       r2.rct_max_run == r.rct_max_run && r2.zeros.count == r.zeros.count,
		       "words split across pushes give the same results");
		wordcheck_free(&w);
		wordcheck_free(&w2);
	}
	/* 64-bit words: one word repeated 500 words later is caught, 1500 later is not */
	if (wc_new(&w, 64, 64, 0x1p-20, 1024) == 0) {
		push_random(&w, 64, 3000, ~0ULL);
		put_word(raw, 0xdeadbeefcafef00dULL, 8);
		wordcheck_push(&w, raw, 8);
		push_random(&w, 64, 1500, ~0ULL);
		wordcheck_push(&w, raw, 8);
		wordcheck_results(&w, &r);
		tap_ok(r.repeats.count == 0, "64-bit word repeated 1501 words later: outside the window");
		push_random(&w, 64, 500, ~0ULL);
		wordcheck_push(&w, raw, 8);
		wordcheck_results(&w, &r);
		tap_ok(r.repeats.count == 1 && r.repeats.excessive && r.repeats.first_excessive == 5002,
		       "64-bit word repeated 501 words later: detected and excessive at word 5002");
		wordcheck_free(&w);
	}
	/* small windows and alphabets: many repeats, full buckets, every path */
	{
		static const struct { unsigned window, alphabet; } t[] = {
			{ 1, 4 }, { 7, 16 }, { 64, 700 }, { 64, 65536 }, { 1024, 3000 },
		};
		for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
			for (size_t i = 0; i < n; i++) {
				v[i] = xorshift() % t[k].alphabet;
				put_word(raw + 2 * i, v[i], 2);
			}
			if (wc_new(&w, 16, 16, 0x1p-20, t[k].window) == 0) {
				char name[96];
				wordcheck_push(&w, raw, n * 2);
				wordcheck_results(&w, &r);
				snprintf(name, sizeof name, "window %u, %u distinct values: repeats equal brute force",
					 t[k].window, t[k].alphabet);
				tap_eq_long((long long)r.repeats.count,
					    (long long)brute_repeats(v, n, t[k].window), name);
				wordcheck_free(&w);
			}
		}
	}
	free(v);
	free(raw);
}

int main(void)
{
	test_params();
	test_zero_threshold();
	test_ones_and_rct();
	test_repeats();
	return tap_done();
}
