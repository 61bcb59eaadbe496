/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_proportion.c - the proportion test's bit-plane path (AVX-512,
 * proportion_avx512.h) against its table path: the same alarms and
 * failures at the same sample indexes, the same counts and largest counts,
 * on random, constant and adversarial 8-bit samples pushed in whole blocks
 * and in pieces of random sizes; and the window kernel against a count of
 * every value for every threshold that matters. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "health/proportion.h"
#include "health/proportion_avx512.h"
#include "tap.h"

#define W PROPORTION_WINDOW
#define MAX_EVENTS 4096

struct events {
	size_t n;
	struct { uint64_t index, value, count; unsigned cutoff; int alarm; } ev[MAX_EVENTS];
};

static void on_event(void *ctx, const struct health_event *e)
{
	struct events *l = ctx;
	if (l->n < MAX_EVENTS) {
		l->ev[l->n].index = e->index;
		l->ev[l->n].value = e->value;
		l->ev[l->n].count = e->count;
		l->ev[l->n].cutoff = e->cutoff;
		l->ev[l->n].alarm = e->alarm;
	}
	l->n++;
}

static uint64_t rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* One run through a proportion test on path impl; pieces: 0 = blocks of
 * 2^20 samples as the engine pushes them, else sizes drawn from the seed
 * (some tiny, some over a window). */
static uint64_t run(enum proportion_impl impl, const uint8_t *s, size_t n, double alpha,
		    double alarm_alpha, uint64_t pieces, struct events *ev,
		    struct health_result *r)
{
	struct proportion p;
	struct err e;
	uint64_t fails = 0;
	size_t i = 0;

	memset(ev, 0, sizeof *ev);
	if (proportion_init(&p, 8, 8, alpha, alarm_alpha, on_event, ev, &e) != 0)
		return UINT64_MAX;
	p.impl = impl;
	while (i < n) {
		size_t m = 1u << 20;
		if (pieces) {
			uint64_t x = rng(&pieces);
			m = (x & 3) == 0 ? (x >> 8) % 7 : (x >> 8) % (3 * W);
		}
		if (m > n - i)
			m = n - i;
		fails += proportion_push(&p, s + i, m);
		i += m;
	}
	proportion_result(&p, r);
	return fails;
}

static int same(const struct events *a, const struct events *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n && i < MAX_EVENTS; i++)
		if (a->ev[i].index != b->ev[i].index || a->ev[i].value != b->ev[i].value ||
		    a->ev[i].count != b->ev[i].count || a->ev[i].cutoff != b->ev[i].cutoff ||
		    a->ev[i].alarm != b->ev[i].alarm)
			return 0;
	return 1;
}

static void compare(const char *what, const uint8_t *s, size_t n, double alpha, double alarm_alpha)
{
	static struct events e0, e1;
	struct health_result r0, r1;
	uint64_t f0, f1;
	int ok;

	for (uint64_t pieces = 0; pieces < 2; pieces++) {
		f0 = run(PROPORTION_IMPL_PORTABLE, s, n, alpha, alarm_alpha, pieces * 77, &e0, &r0);
		f1 = run(PROPORTION_IMPL_AVX512, s, n, alpha, alarm_alpha, pieces * 77, &e1, &r1);
		ok = f0 == f1 && same(&e0, &e1) && r0.failures == r1.failures &&
		     r0.first_failure == r1.first_failure && r0.alarms == r1.alarms &&
		     r0.first_alarm == r1.first_alarm && r0.max_seen == r1.max_seen &&
		     r0.windows == r1.windows && r0.cutoff == r1.cutoff &&
		     r0.alarm_cutoff == r1.alarm_cutoff;
		if (!tap_ok(ok, "%s, %s: bit planes = table (%zu events, %llu failures, %llu alarms, "
			    "largest count %llu)", what, pieces ? "random pieces" : "2^20 blocks", e0.n,
			    (unsigned long long)r0.failures, (unsigned long long)r0.alarms,
			    (unsigned long long)r0.max_seen))
			printf("# table: %llu/%llu failures, %llu alarms, max %llu, %zu events; planes: "
			       "%llu/%llu, %llu, max %llu, %zu events\n",
			       (unsigned long long)f0, (unsigned long long)r0.failures,
			       (unsigned long long)r0.alarms, (unsigned long long)r0.max_seen, e0.n,
			       (unsigned long long)f1, (unsigned long long)r1.failures,
			       (unsigned long long)r1.alarms, (unsigned long long)r1.max_seen, e1.n);
	}
}

/* The kernel alone: for each window and every t up to past its largest
 * count, the largest count if it reaches t, else 0. */
static void kernel_windows(const char *what, const uint8_t *s, size_t windows)
{
	unsigned bad = 0, checked = 0;
	for (size_t w = 0; w < windows; w++) {
		unsigned count[256] = { 0 }, max = 0;
		for (unsigned i = 0; i < W; i++)
			if (++count[s[w * W + i]] > max)
				max = count[s[w * W + i]];
		for (unsigned t = 1; t <= W + 1; t = t < max + 3 ? t + 1 : t + 509) {
			unsigned want = max >= t ? max : 0;
			checked++;
			if (proportion_avx512_window_max(s + w * W, t) != want)
				bad++;
		}
	}
	tap_ok(bad == 0, "%s: window kernel = a count of every value (%u of %u thresholds wrong)",
	       what, bad, checked);
}

int main(void)
{
	const size_t n = 64 * W + 1000;     /* a partial window at the end */
	uint8_t *s = malloc(n);
	uint64_t x = 0x9E3779B97F4A7C15ULL;

	if (!s)
		return 1;
	if (!proportion_avx512_usable()) {
		tap_skip("the CPU has no AVX-512 (F, BW, VBMI, VPOPCNTDQ) or GFNI: the table path only");
		free(s);
		return tap_done();
	}

	/* random: counts near 16, alarms only at a low alpha */
	for (size_t i = 0; i < n; i++)
		s[i] = (uint8_t)(rng(&x) >> 24);
	kernel_windows("random", s, 16);
	compare("random, alpha 2^-40/2^-20", s, n, 0x1p-40, 0x1p-20);
	compare("random, alpha 2^-8/2^-4 (alarms most windows)", s, n, 0x1p-8, 0x1p-4);

	/* constant: every window fails at its 56th-odd sample */
	memset(s, 0xA5, n);
	kernel_windows("constant", s, 2);
	compare("constant", s, n, 0x1p-40, 0x1p-20);

	/* adversarial: one value (and its prefix partner v ^ 1, which shares the
	 * top seven bits) exactly at, just below and just above the levels, at
	 * the window's end, its start, and split across pushes */
	for (size_t w = 0; w * W < n; w++) {
		size_t base = w * W, len = n - base < W ? n - base : W;
		unsigned k = (unsigned)(w % 8), reps = 38 + (unsigned)(w % 24);
		for (size_t i = 0; i < len; i++) {
			/* random, but for the planted values: odd values only
			 * (a prefix's count is one value's) in every other window */
			s[base + i] = (uint8_t)(rng(&x) >> 24) | (w & 1);
			if ((s[base + i] | 1) == 0x41)
				s[base + i] = 0x43;
		}
		for (unsigned j = 0; j < reps && j < len; j++) {
			size_t at = k == 0 ? len - 1 - j : k == 1 ? j : k == 2 ? (len / 2 + 3 * j) % len
								    : (j * 97 + k) % len;
			s[base + at] = (uint8_t)(k & 1 ? 0x40 : 0x41);
			if (k >= 4 && j % 2)                 /* the partner value: the prefix doubles */
				s[base + (at + len / 3) % len] = 0x40;
		}
	}
	kernel_windows("adversarial", s, 64);
	compare("adversarial, alpha 2^-40/2^-20", s, n, 0x1p-40, 0x1p-20);
	compare("adversarial, alpha 2^-20 (one level)", s, n, 0x1p-20, 0);

	/* two values: every count 2048, far above every level */
	for (size_t i = 0; i < n; i++)
		s[i] = (rng(&x) >> 30) & 1 ? 0xFF : 0x00;
	kernel_windows("two values", s, 4);
	compare("two values", s, n, 0x1p-40, 0x1p-20);

	free(s);
	return tap_done();
}
