/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proportion.c - counts of every value over windows of W_p samples (see
 * proportion.h for why and for the cutoff; a developer-defined test in the
 * sense of 90B 4.5).  Whole windows of 8-bit samples go through the bit-plane
 * kernel where the CPU has it (proportion_avx512.h); a window in which a
 * level is reached is redone one sample at a time by the same code as the
 * table path, so both give the same events at the same indexes. */
#include "config.h"

#include "health/proportion.h"
#include "health/proportion_avx512.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

unsigned proportion_window(unsigned bits)
{
	(void)bits;
	return PROPORTION_WINDOW;
}

unsigned proportion_cutoff(unsigned window, double entropy, double alpha)
{
	double q = exp2(-entropy);
	unsigned lo = 1, hi = window + 1;
	/* P(X >= c) = Q(c - 1) falls with c: bisect */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (gsl_cdf_binomial_Q(mid - 1, q, window) <= alpha)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* P(some value reaches c in a window) for a source meeting the claim
 * exactly with 2^H values at 2^-H (the most the claim allows of them): at
 * most 2^H times one value's tail, and at most 1. */
static double window_rate(unsigned window, double entropy, unsigned c)
{
	double r = exp2(entropy) * gsl_cdf_binomial_Q(c - 1, exp2(-entropy), window);
	return r > 1 ? 1 : r;
}

int proportion_init(struct proportion *p, unsigned bits, double entropy, double alpha,
		    double alarm_alpha, health_event_fn on_event, void *ctx, struct err *e)
{
	memset(p, 0, sizeof *p);
	gsl_set_error_handler_off();
	if (bits < 1 || bits > 8)
		return err_set(e, ERR_USAGE, "bits per sample %u is outside 1..8", bits);
	if (!(entropy > 0) || entropy > bits)
		return err_set(e, ERR_USAGE, "claimed entropy %g is outside (0, %u]", entropy, bits);
	if (!(alpha > 0) || !(alpha < 1))
		return err_set(e, ERR_USAGE, "alpha %g is outside (0, 1)", alpha);
	p->bits = bits;
	p->entropy = entropy;
	p->window = proportion_window(bits);
	p->cutoff = proportion_cutoff(p->window, entropy, alpha);
	p->alarm_cutoff = alarm_alpha > 0 ? proportion_cutoff(p->window, entropy, alarm_alpha)
					  : p->cutoff;
	if (p->alarm_cutoff > p->cutoff)
		p->alarm_cutoff = p->cutoff;
	/* counts are 16-bit: a cutoff above the window can never be reached */
	if (p->cutoff > p->window)
		p->cutoff = p->window + 1;
	p->rate = window_rate(p->window, entropy, p->cutoff);
	p->alarm_rate = window_rate(p->window, entropy, p->alarm_cutoff);
	p->first_alarm = p->first_failure = HEALTH_NO_FAILURE;
	p->on_event = on_event;
	p->event_ctx = ctx;
	/* the bit-plane path is written for 8-bit samples and whole windows */
	p->impl = bits == 8 && p->window == PROPORTION_WINDOW && proportion_avx512_usable()
		? PROPORTION_IMPL_AVX512 : PROPORTION_IMPL_PORTABLE;
	return 0;
}

static void prop_event(const struct proportion *p, uint64_t index, unsigned count,
		       unsigned cutoff, int alarm)
{
	struct health_event ev;
	double windows = (double)(index / p->window + 1);
	if (!p->on_event)
		return;
	ev.test = "prop";
	ev.index = index;
	ev.value = count;
	ev.cutoff = cutoff;
	ev.alarm = alarm;
	ev.count = alarm ? p->alarms : p->failures;
	ev.expected = windows * (alarm ? p->alarm_rate : p->rate);
	ev.startup = index < HEALTH_STARTUP_SAMPLES;
	p->on_event(p->event_ctx, &ev);
}

/* A count reached the window's next level: alarm and/or failure. */
static uint64_t prop_reached(struct proportion *p, unsigned count, uint64_t index)
{
	if (!p->window_alarmed && count >= p->alarm_cutoff) {
		p->window_alarmed = 1;
		p->alarms++;
		if (p->first_alarm == HEALTH_NO_FAILURE)
			p->first_alarm = index;
		if (p->alarm_cutoff < p->cutoff)
			prop_event(p, index, count, p->alarm_cutoff, 1);
	}
	if (p->window_failed || count < p->cutoff)
		return 0;
	p->window_failed = 1;
	p->failures++;
	if (p->first_failure == HEALTH_NO_FAILURE)
		p->first_failure = index;
	prop_event(p, index, count, p->cutoff, 0);
	return 1;
}

/* A value's count in the window so far. */
static inline unsigned prop_total(const struct proportion *p, unsigned v)
{
	return (unsigned)p->count[0][v] + p->count[1][v] + p->count[2][v] + p->count[3][v];
}

static unsigned prop_max(const struct proportion *p)
{
	unsigned max = 0, v = 0, values = 1u << p->bits;
#ifdef __SSE2__
	/* eight values a step: counts are at most the window (4096), so the
	 * 16-bit sums and the signed maximum are exact */
	__m128i m = _mm_setzero_si128();
	for (; v + 8 <= values; v += 8) {
		__m128i t = _mm_add_epi16(
			_mm_add_epi16(_mm_loadu_si128((const __m128i *)&p->count[0][v]),
				      _mm_loadu_si128((const __m128i *)&p->count[1][v])),
			_mm_add_epi16(_mm_loadu_si128((const __m128i *)&p->count[2][v]),
				      _mm_loadu_si128((const __m128i *)&p->count[3][v])));
		m = _mm_max_epi16(m, t);
	}
	m = _mm_max_epi16(m, _mm_srli_si128(m, 8));
	m = _mm_max_epi16(m, _mm_srli_si128(m, 4));
	m = _mm_max_epi16(m, _mm_srli_si128(m, 2));
	max = (unsigned)_mm_cvtsi128_si32(m) & 0xffff;
#endif
	for (; v < values; v++) {
		unsigned c = prop_total(p, v);
		if (c > max)
			max = c;
	}
	return max;
}

static void prop_close_window(struct proportion *p)
{
	unsigned max = prop_max(p);
	if (max > p->max_count)
		p->max_count = max;
	memset(p->count, 0, sizeof p->count);
	p->pos = 0;
	p->window_alarmed = p->window_failed = 0;
	p->windows++;
}

/* The lowest level this window has not reached (above any count: none). */
static inline unsigned prop_next(const struct proportion *p)
{
	return !p->window_alarmed ? p->alarm_cutoff : !p->window_failed ? p->cutoff : UINT16_MAX + 1u;
}

/* Counts m samples into the four tables in turn: consecutive equal samples
 * go to different tables, so an increment rarely waits on the one before
 * (a stuck source would otherwise serialise on one counter). */
static void prop_count(struct proportion *p, const uint8_t *s, size_t m)
{
	size_t j = 0;
	/* eight samples a load: sample j still goes to table j % 4 */
	for (; j + 8 <= m; j += 8) {
		uint64_t x;
		memcpy(&x, s + j, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		x = __builtin_bswap64(x);
#endif
		p->count[0][x & 255]++;
		p->count[1][x >> 8 & 255]++;
		p->count[2][x >> 16 & 255]++;
		p->count[3][x >> 24 & 255]++;
		p->count[0][x >> 32 & 255]++;
		p->count[1][x >> 40 & 255]++;
		p->count[2][x >> 48 & 255]++;
		p->count[3][x >> 56]++;
	}
	for (; j + 4 <= m; j += 4) {
		p->count[0][s[j]]++;
		p->count[1][s[j + 1]]++;
		p->count[2][s[j + 2]]++;
		p->count[3][s[j + 3]]++;
	}
	for (; j < m; j++)
		p->count[0][s[j]]++;
}

/* m samples at global index base counted one at a time, each count checked
 * against the window's next level: where a level is reached (rare). */
static uint64_t prop_replay(struct proportion *p, const uint8_t *s, size_t m, uint64_t base)
{
	uint64_t fails = 0;
	unsigned next = prop_next(p);
	for (size_t j = 0; j < m; j++) {
		unsigned v = s[j], c;
		p->count[0][v]++;
		c = prop_total(p, v);
		if (c >= next) {
			fails += prop_reached(p, c, base + j);
			next = prop_next(p);
		}
	}
	return fails;
}

/* A whole window (pos == 0) of 8-bit samples by bit planes
 * (proportion_avx512.h): no count in it reaches the next level (the usual
 * case), and its largest count matters only above the largest so far, so
 * only counts at or above the lower of the two are found. */
static uint64_t prop_window_planes(struct proportion *p, const uint8_t *s, uint64_t base)
{
	unsigned next = prop_next(p), t = p->max_count + 1, max;
	if (next < t)
		t = next;
	max = proportion_avx512_window_max(s, t);
	if (__builtin_expect(max >= next, 0)) {
		/* the counts are all 0 at a window's start: the scalar way */
		uint64_t fails = prop_replay(p, s, p->window, base);
		p->pos = p->window;
		prop_close_window(p);
		return fails;
	}
	if (max > p->max_count)
		p->max_count = max;
	p->windows++;
	return 0;
}

uint64_t proportion_push(struct proportion *p, const uint8_t *s, size_t n)
{
	uint64_t fails = 0;
	size_t i = 0;

	while (i < n) {
		size_t m = p->window - p->pos;
		if (p->impl == PROPORTION_IMPL_AVX512 && p->pos == 0 && n - i >= p->window) {
			fails += prop_window_planes(p, s + i, p->samples + i);
			i += p->window;
			continue;
		}
		if (m > n - i)
			m = n - i;
		/* count the segment without a test per sample; only if some value
		 * reached a level (rare) undo it and redo it one sample at a time
		 * to find where */
		prop_count(p, s + i, m);
		if (__builtin_expect(prop_max(p) >= prop_next(p), 0)) {
			size_t whole = m - m % 4;     /* prop_count's tables: j % 4, then 0 */
			for (size_t j = 0; j < m; j++)
				p->count[j < whole ? j % 4 : 0][s[i + j]]--;
			fails += prop_replay(p, s + i, m, p->samples + i);
		}
		p->pos += (unsigned)m;
		i += m;
		if (p->pos == p->window)
			prop_close_window(p);
	}
	p->samples += n;
	return fails;
}

void proportion_result(const struct proportion *p, struct health_result *r)
{
	unsigned max = p->max_count, cur = prop_max(p);
	memset(r, 0, sizeof *r);
	if (cur > max)
		max = cur;
	r->test = "prop";
	r->cutoff = p->cutoff;
	r->window = p->window;
	r->failures = p->failures;
	r->first_failure = p->first_failure;
	r->max_seen = max;
	r->windows = p->windows + (p->pos > 0 && p->window_failed);
	r->fraction_failed = r->windows ? (double)p->failures / (double)r->windows : 0;
	r->expected_false_alarms = (double)p->windows * p->rate;
	r->alarm_cutoff = p->alarm_cutoff;
	r->alarms = p->alarms;
	r->first_alarm = p->first_alarm;
	r->expected_alarms = (double)p->windows * p->alarm_rate;
}
