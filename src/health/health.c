/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health.c - SP 800-90B 4.4 continuous health tests (RCT, APT), streaming.
 *
 * Both tests are exact to 90B 4.4.1 / 4.4.2 sample by sample; for speed the
 * common case is handled 64 samples at a time (a mask of "sample equals its
 * predecessor" for the RCT, a count of "sample equals the window's
 * reference" for the APT), with SSE2 in two passes or, where the CPU has
 * AVX2 (checked at run time), in one pass; only a 64-sample chunk that may
 * hold a failure or a new longest run is redone one sample at a time.  tests/test_health.c checks every
 * path against a literal one-sample-at-a-time implementation.
 *
 * NIST's SP800-90B_EntropyAssessment tool (v1.1.7) has no health tests, so
 * there is no tool behaviour to match here: this follows the 90B text.
 */
#include "config.h"

#include "bitops.h"
#include "health/health.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* An AVX2 path, chosen at run time, where the compiler can build one. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HEALTH_HAVE_AVX2 1
#include <immintrin.h>
#else
#define HEALTH_HAVE_AVX2 0
#endif

/* 90B 4.4.1: the probability that a run of C identical samples occurs when
 * each has min-entropy H is at most 2^(-H(C-1)); the smallest C with
 * 2^(-H(C-1)) <= alpha is C = 1 + ceil(-log2(alpha) / H). */
unsigned health_rct_cutoff(double entropy, double alpha)
{
	double c = 1.0 + ceil(-log2(alpha) / entropy);
	return c > 4294967295.0 ? 4294967295u : (unsigned)c;
}

/* CRITBINOM(n, p, 1 - alpha): the smallest k with P(X <= k) >= 1 - alpha,
 * i.e. P(X > k) <= alpha.  Computed on the upper tail with
 * gsl_cdf_binomial_Q (GSL has no binomial quantile, and 1 - alpha rounds to
 * 1.0 for alpha below 2^-53); P(X > k) falls with k, so bisect. */
static unsigned health_critbinom(unsigned n, double p, double alpha)
{
	unsigned lo = 0, hi = n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (gsl_cdf_binomial_Q(mid, p, n) <= alpha)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* 90B 4.4.2 states C = 1 + CRITBINOM(W, 2^-H, 1 - alpha), and that is what
 * we use.  Since the first sample of a window is the reference A and is
 * counted in B without being a random trial, only W - 1 samples are
 * binomial, and some implementations (Linux jitterentropy, the UL-corrected
 * tables) use C = 2 + CRITBINOM(W - 1, 2^-H, 1 - alpha) instead; the two
 * differ by 0 or +1 (W = 512, alpha = 2^-20, H = 2: 177 here, 178 there).
 * The literal form is the stricter one: it bounds P(Binomial(W, p) >= C) by
 * alpha, so the real per-window false-alarm rate P(1 + Binomial(W-1, p) >= C)
 * can exceed alpha somewhat (tests/test_health.c measures both, e.g. 0.021
 * for alpha = 2^-6, H = 8).  Capped at W: B never exceeds W. */
unsigned health_apt_cutoff(unsigned window, double entropy, double alpha)
{
	unsigned c = 1 + health_critbinom(window, exp2(-entropy), alpha);
	return c > window ? window : c;
}

unsigned health_apt_cutoff_exact(unsigned window, double entropy, double alpha)
{
	unsigned c = 2 + health_critbinom(window - 1, exp2(-entropy), alpha);
	return c > window ? window : c;
}

/* 90B 4.4.2: W = 1024 for non-binary samples, 512 for binary ones. */
unsigned health_apt_window(unsigned bits)
{
	return bits == 1 ? HEALTH_APT_WINDOW_BINARY : HEALTH_APT_WINDOW;
}

/* With every value at probability q = 2^-H, a run of C starts at a given
 * sample (one differing from its predecessor) with probability
 * q^(C-1) (1 - q); each such run is one event. */
static double rct_rate(double entropy, unsigned cutoff)
{
	return exp2(-entropy * (double)(cutoff - 1)) * -expm1(-entropy * M_LN2);
}

/* The reference sample is given; B - 1 of the other W - 1 equal it. */
static double apt_rate(double entropy, unsigned window, unsigned cutoff)
{
	return cutoff < 2 ? 1.0 : gsl_cdf_binomial_Q(cutoff - 2, exp2(-entropy), window - 1);
}

int health_init(struct health *h, const struct health_params *p, struct err *e)
{
	unsigned (*apt_cut)(unsigned, double, double);
	double apt_alpha;

	memset(h, 0, sizeof *h);
	gsl_set_error_handler_off();    /* library code: GSL must not abort the process */
	if (p->bits < 1 || p->bits > 8)
		return err_set(e, ERR_USAGE, "bits per sample %u is outside 1..8", p->bits);
	if (!(p->entropy > 0) || p->entropy > (double)p->bits)
		return err_set(e, ERR_USAGE,
			       "claimed entropy %g is outside (0, %u] bits per %u-bit sample",
			       p->entropy, p->bits, p->bits);
	if (!(p->alpha > 0) || !(p->alpha < 1))
		return err_set(e, ERR_USAGE, "alpha %g is outside (0, 1)", p->alpha);
	h->params = *p;
	h->impl = HEALTH_IMPL_PORTABLE;
#if HEALTH_HAVE_AVX2
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
		h->impl = HEALTH_IMPL_AVX2;
#endif
	apt_cut = p->apt_exact ? health_apt_cutoff_exact : health_apt_cutoff;
	apt_alpha = p->apt_alpha > 0 ? p->apt_alpha : p->alpha;
	h->rct.cutoff = health_rct_cutoff(p->entropy, p->alpha);
	h->rct.alarm_cutoff = p->rct_alarm_alpha > 0 ? health_rct_cutoff(p->entropy, p->rct_alarm_alpha)
						     : h->rct.cutoff;
	h->rct.first_failure = h->rct.first_alarm = HEALTH_NO_FAILURE;
	h->apt.window = health_apt_window(p->bits);
	h->apt.cutoff = apt_cut(h->apt.window, p->entropy, apt_alpha);
	h->apt.alarm_cutoff = p->apt_alarm_alpha > 0
			    ? apt_cut(h->apt.window, p->entropy, p->apt_alarm_alpha) : h->apt.cutoff;
	h->apt.first_failure = h->apt.first_alarm = HEALTH_NO_FAILURE;
	if (h->rct.alarm_cutoff > h->rct.cutoff)
		h->rct.alarm_cutoff = h->rct.cutoff;
	if (h->apt.alarm_cutoff > h->apt.cutoff)
		h->apt.alarm_cutoff = h->apt.cutoff;
	h->rct_rate = rct_rate(p->entropy, h->rct.cutoff);
	h->rct_alarm_rate = rct_rate(p->entropy, h->rct.alarm_cutoff);
	h->apt_rate = apt_rate(p->entropy, h->apt.window, h->apt.cutoff);
	h->apt_alarm_rate = apt_rate(p->entropy, h->apt.window, h->apt.alarm_cutoff);
	if (h->rct.alarm_cutoff < 2 || h->apt.alarm_cutoff < 1)
		return err_set(e, ERR_INTERNAL, "health-test cutoffs out of range (RCT %u, APT %u)",
			       h->rct.alarm_cutoff, h->apt.alarm_cutoff);
	return 0;
}

static void health_event(const struct health *h, const char *test, uint64_t index,
			 uint64_t value, unsigned cutoff, int alarm, uint64_t count, double expected)
{
	struct health_event ev;
	if (!h->params.on_event)
		return;
	ev.test = test;
	ev.index = index;
	ev.value = value;
	ev.cutoff = cutoff;
	ev.expected = expected;
	ev.count = count;
	ev.alarm = alarm;
	ev.startup = index < HEALTH_STARTUP_SAMPLES;
	h->params.on_event(h->params.event_ctx, &ev);
}

/* ---- 90B 4.4.1 repetition count test ---- */

/* Runs that could have reached C by sample index: index - C + 2 starts. */
static double rct_expected(uint64_t index, unsigned cutoff, double rate)
{
	return index + 2 >= cutoff ? (double)(index + 2 - cutoff) * rate : 0;
}

static void rct_alarm(struct health *h, uint64_t index)
{
	struct health_rct *r = &h->rct;
	r->alarms++;
	if (r->first_alarm == HEALTH_NO_FAILURE)
		r->first_alarm = index;
	if (r->alarm_cutoff < r->cutoff)
		health_event(h, "rct", index, r->alarm_cutoff, r->alarm_cutoff, 1, r->alarms,
			     rct_expected(index, r->alarm_cutoff, h->rct_alarm_rate));
}

static void rct_fail(struct health *h, uint64_t index)
{
	struct health_rct *r = &h->rct;
	r->failures++;
	if (r->first_failure == HEALTH_NO_FAILURE)
		r->first_failure = index;
	health_event(h, "rct", index, r->cutoff, r->cutoff, 0, r->failures,
		     rct_expected(index, r->cutoff, h->rct_rate));
}

/* The run grew from `before` to `after` samples, its last at index g + after
 * - before - 1: an event for each level it reached on the way. */
static uint64_t rct_reached(struct health *h, uint64_t before, uint64_t after, uint64_t g)
{
	struct health_rct *r = &h->rct;
	uint64_t fails = 0;
	if (before < r->alarm_cutoff && after >= r->alarm_cutoff)
		rct_alarm(h, g + (r->alarm_cutoff - before - 1));
	if (before < r->cutoff && after >= r->cutoff) {
		rct_fail(h, g + (r->cutoff - before - 1));
		fails++;
	}
	return fails;
}

/* One sample at a time, exactly as 90B words it: if the sample equals the
 * previous one B = B + 1, and B reaching C is a failure; else B = 1. */
static uint64_t rct_scalar(struct health *h, const uint8_t *s, size_t n, uint64_t base)
{
	struct health_rct *r = &h->rct;
	uint64_t before = r->failures;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == r->last) {
			r->run++;
			if (r->run > r->max_run)
				r->max_run = r->run;
			if (r->run == r->alarm_cutoff)
				rct_alarm(h, base + i);
			if (r->run == r->cutoff)
				rct_fail(h, base + i);
		} else {
			r->run = 1;
			r->last = s[i];
		}
	}
	return r->failures - before;
}

/* Bit j set when p[j] == p[j - 1], j = 0..63 (p[-1] must be readable). */
static inline uint64_t rct_eqmask(const uint8_t *p)
{
#if defined(__SSE2__)
	uint64_t m = 0;
	for (unsigned k = 0; k < 4; k++) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k - 1));
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) << (16 * k);
	}
	return m;
#else
	uint64_t m = 0;
	for (unsigned j = 0; j < 64; j++)
		m |= (uint64_t)(p[j] == p[(ptrdiff_t)j - 1]) << j;
	return m;
#endif
}

/* One chunk of 64 samples p[0..63] (global index g), p[-1] being the
 * previous sample; e has bit j set when p[j] == p[j-1], so a run of b set
 * bits is a run of b+1 identical samples.  The runs inside the chunk matter
 * only if one is longer than the longest so far or reaches the cutoff; then
 * (rarely) the chunk is redone one sample at a time. */
static inline __attribute__((always_inline))
uint64_t rct_chunk(struct health *h, uint64_t e, const uint8_t *p, uint64_t g)
{
	struct health_rct *r = &h->rct;
	uint64_t run = r->run, fails = 0;
	/* the alarm cutoff is the lower level: reaching it takes the slow path */
	uint64_t t_limit = r->max_run < r->alarm_cutoff - 1 ? r->max_run : r->alarm_cutoff - 1;
	unsigned t, top;

	if (__builtin_expect(e == ~0ULL, 0)) {
		r->run = run + 64;
		fails += rct_reached(h, run, r->run, g);
		if (r->run > r->max_run)
			r->max_run = r->run;
		r->last = p[63];
		return fails;
	}
	t = (unsigned)__builtin_ctzll(~e);      /* the run carried in goes on t samples */
	top = (unsigned)__builtin_clzll(~e);    /* the run carried out */
	e &= ~0ULL << t;                        /* the runs that start in here */
	/* e & (e >> 1) is a cheap first filter: no two adjacent bits, no run of 2 */
	if (__builtin_expect(run + t > t_limit ||
			     (t_limit < 64 && (e & (e >> (t_limit > 1))) &&
			      bitops_has_run(e, (unsigned)t_limit)), 0)) {
		unsigned inner = bitops_longest_ones(e) + 1;
		if (run + t >= r->alarm_cutoff || inner >= r->alarm_cutoff)
			return rct_scalar(h, p, 64, g);
		if (run + t > r->max_run)
			r->max_run = run + t;
		if (inner > r->max_run)
			r->max_run = inner;
	}
	r->run = (uint64_t)top + 1;
	r->last = p[63];
	return 0;
}

/* Samples s[0..n-1] with global index base..base+n-1. */
static uint64_t rct_push(struct health *h, const uint8_t *s, size_t n, uint64_t base)
{
	struct health_rct *r = &h->rct;
	uint64_t fails = 0;
	size_t i;

	if (n == 0)
		return 0;
	if (base == 0) {                /* the first sample starts the first run */
		r->last = s[0];
		r->run = 1;
		r->max_run = 1;
	} else {
		fails += rct_scalar(h, s, 1, base);
	}
	for (i = 1; i + 64 <= n; i += 64)
		fails += rct_chunk(h, rct_eqmask(s + i), s + i, base + i);
	if (i < n)
		fails += rct_scalar(h, s + i, n - i, base + i);
	return fails;
}

/* ---- 90B 4.4.2 adaptive proportion test ---- */

/* Number of the n samples equal to ref. */
static size_t apt_count(const uint8_t *s, size_t n, uint8_t ref)
{
	size_t c = 0, j = 0;
#if defined(__SSE2__)
	const __m128i vref = _mm_set1_epi8((char)ref), zero = _mm_setzero_si128();
	while (j + 16 <= n) {
		__m128i acc = _mm_setzero_si128(), sad;
		/* each 8-bit lane counts at most 255 matches before the sum */
		for (unsigned k = 0; k < 255 && j + 16 <= n; k++, j += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + j));
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, vref));
		}
		sad = _mm_sad_epu8(acc, zero);
		c += (size_t)_mm_cvtsi128_si32(sad) +
		     (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sad, 8));
	}
#endif
	for (; j < n; j++)
		c += s[j] == ref;
	return c;
}

/* B reached a->count at sample index (B grows by one at a time): an event
 * for each level it reaches for the first time in this window.  Returns 1
 * if the window failed here. */
static uint64_t apt_check(struct health *h, uint64_t index)
{
	struct health_apt *a = &h->apt;
	/* windows that could have ended by now, this one included */
	double windows = (double)(index / a->window + 1);
	if (!a->window_alarmed && a->count >= a->alarm_cutoff) {
		a->window_alarmed = 1;
		a->alarms++;
		if (a->first_alarm == HEALTH_NO_FAILURE)
			a->first_alarm = index;
		if (a->alarm_cutoff < a->cutoff)
			health_event(h, "apt", index, a->count, a->alarm_cutoff, 1, a->alarms,
				     windows * h->apt_alarm_rate);
	}
	if (a->window_failed || a->count < a->cutoff)
		return 0;
	a->failures++;
	a->window_failed = 1;
	if (a->first_failure == HEALTH_NO_FAILURE)
		a->first_failure = index;
	health_event(h, "apt", index, a->count, a->cutoff, 0, a->failures, windows * h->apt_rate);
	return 1;
}

/* The lowest level this window has not reached yet (UINT_MAX: none left). */
static inline unsigned apt_next_level(const struct health_apt *a)
{
	return !a->window_alarmed ? a->alarm_cutoff : !a->window_failed ? a->cutoff : UINT_MAX;
}

static uint64_t apt_push(struct health *h, const uint8_t *s, size_t n, uint64_t base)
{
	struct health_apt *a = &h->apt;
	uint64_t before = a->failures;
	size_t i = 0;

	while (i < n) {
		size_t m, c;
		if (a->pos == 0) {       /* 90B 4.4.2 steps 1-2: A = next sample, B = 1 */
			a->ref = s[i];
			a->count = 1;
			a->pos = 1;
			a->window_failed = a->window_alarmed = 0;
			apt_check(h, base + i);
			i++;
		} else {
			/* step 3: for the next W - 1 samples, B = B + 1 when equal to A */
			m = a->window - a->pos;
			if (m > n - i)
				m = n - i;
			c = apt_count(s + i, m, a->ref);
			if (a->count + c >= apt_next_level(a)) {
				/* a level is reached in here (rare): one sample at a time */
				for (size_t j = 0; j < m; j++)
					if (s[i + j] == a->ref) {
						a->count++;
						apt_check(h, base + i + j);
					}
			} else {
				a->count += (unsigned)c;
			}
			a->pos += (unsigned)m;
			i += m;
		}
		if (a->pos == a->window) {
			a->windows++;
			if (a->count > a->max_count)
				a->max_count = a->count;
			a->pos = 0;
		}
	}
	return a->failures - before;
}

/* ---- both tests in one pass, AVX2 ---- */
#if HEALTH_HAVE_AVX2
/* The APT's windows start at multiples of W (512 or 1024) from the first
 * sample, so with chunks aligned to 64 samples in the stream a window starts
 * only at a chunk start, and B over a chunk is a popcount. */
__attribute__((target("avx2,popcnt")))
static uint64_t health_push_avx2(struct health *h, const uint8_t *s, size_t n, uint64_t base)
{
	struct health_apt *a = &h->apt;
	uint64_t fails = 0;
	size_t i = (size_t)((64 - base % 64) % 64), end;
	__m256i vref;

	if (i == 0)
		i = 64;                 /* p[-1] must be in this block */
	if (n < i + 64) {
		fails += rct_push(h, s, n, base);
		return fails + apt_push(h, s, n, base);
	}
	fails += rct_push(h, s, i, base);
	fails += apt_push(h, s, i, base);
	vref = _mm256_set1_epi8((char)a->ref);
	end = i + (n - i) / 64 * 64;
	for (; i < end; i += 64) {
		const uint8_t *p = s + i;
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
		__m256i y0 = _mm256_loadu_si256((const __m256i *)(const void *)(p - 1));
		__m256i y1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 31));
		uint64_t e = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, y0)) |
			     (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, y1)) << 32;
		uint64_t q;
		unsigned c;

		fails += rct_chunk(h, e, p, base + i);
		/* 90B 4.4.2 */
		if (a->pos == 0) {              /* steps 1-2: A = this sample, B counts it */
			a->ref = p[0];
			a->count = 0;
			a->window_failed = a->window_alarmed = 0;
			vref = _mm256_set1_epi8((char)a->ref);
		}
		q = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, vref)) |
		    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, vref)) << 32;
		c = (unsigned)__builtin_popcountll(q);
		if (__builtin_expect(a->count + c >= apt_next_level(a), 0)) {
			/* a level is reached in here: the matches one at a time */
			unsigned before = a->count;
			for (uint64_t m = q; m; m &= m - 1) {
				a->count++;
				fails += apt_check(h, base + i + (unsigned)__builtin_ctzll(m));
			}
			a->count = before;
		}
		a->count += c;
		a->pos += 64;
		if (a->pos == a->window) {
			a->windows++;
			if (a->count > a->max_count)
				a->max_count = a->count;
			a->pos = 0;
		}
	}
	fails += rct_push(h, s + i, n - i, base + i);
	return fails + apt_push(h, s + i, n - i, base + i);
}
#endif

uint64_t health_push(struct health *h, const uint8_t *s, size_t n)
{
	uint64_t f;
#if HEALTH_HAVE_AVX2
	if (h->impl == HEALTH_IMPL_AVX2) {
		f = health_push_avx2(h, s, n, h->samples);
		h->samples += n;
		return f;
	}
#endif
	f = rct_push(h, s, n, h->samples);
	f += apt_push(h, s, n, h->samples);
	h->samples += n;
	return f;
}

void health_rct_result(const struct health *h, struct health_result *r)
{
	memset(r, 0, sizeof *r);
	r->test = "rct";
	r->cutoff = h->rct.cutoff;
	r->failures = h->rct.failures;
	r->first_failure = h->rct.first_failure;
	r->max_seen = h->rct.max_run;
	r->fraction_failed = h->samples ? (double)h->rct.failures / (double)h->samples : 0;
	r->expected_false_alarms = h->samples >= h->rct.cutoff
		? (double)(h->samples - h->rct.cutoff + 1) * h->rct_rate : 0;
	r->alarm_cutoff = h->rct.alarm_cutoff;
	r->alarms = h->rct.alarms;
	r->first_alarm = h->rct.first_alarm;
	r->expected_alarms = h->samples >= h->rct.alarm_cutoff
		? (double)(h->samples - h->rct.alarm_cutoff + 1) * h->rct_alarm_rate : 0;
}

void health_apt_result(const struct health *h, struct health_result *r)
{
	const struct health_apt *a = &h->apt;
	memset(r, 0, sizeof *r);
	r->test = "apt";
	r->cutoff = a->cutoff;
	r->window = a->window;
	r->failures = a->failures;
	r->first_failure = a->first_failure;
	r->max_seen = a->max_count;
	if (a->pos > 0 && a->count > r->max_seen)
		r->max_seen = a->count;
	r->windows = a->windows + (a->pos > 0 && a->window_failed);
	r->fraction_failed = r->windows ? (double)a->failures / (double)r->windows : 0;
	r->expected_false_alarms = (double)a->windows * h->apt_rate;
	r->alarm_cutoff = a->alarm_cutoff;
	r->alarms = a->alarms;
	r->first_alarm = a->first_alarm;
	r->expected_alarms = (double)a->windows * h->apt_alarm_rate;
}

enum health_startup health_startup_status(const struct health *h)
{
	if (h->rct.first_failure < HEALTH_STARTUP_SAMPLES ||
	    h->apt.first_failure < HEALTH_STARTUP_SAMPLES)
		return HEALTH_STARTUP_FAILED;
	return h->samples >= HEALTH_STARTUP_SAMPLES ? HEALTH_STARTUP_PASSED : HEALTH_STARTUP_PENDING;
}

const char *health_startup_describe(enum health_startup s)
{
	switch (s) {
	case HEALTH_STARTUP_PASSED:
		return "passed";
	case HEALTH_STARTUP_FAILED:
		return "failed";
	default:
		return "pending";
	}
}
