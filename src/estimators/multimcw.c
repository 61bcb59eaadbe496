/* SPDX-License-Identifier: GPL-3.0-or-later */
/* multimcw.c - SP 800-90B 6.3.7 Multi Most Common in Window prediction
 * estimate.
 *
 * Four subpredictors predict the most common symbol of the last w = 63, 255,
 * 1023, 4095 samples; ties go to the symbol seen most recently (as NIST's
 * ea_non_iid v1.1.7, multi_mcw_test(), resolves them).  Each window keeps its
 * symbol counts, each symbol's last position and a histogram of the counts,
 * so a step costs O(1) except when the most common symbol leaves the window
 * while another symbol is within one of its count; then the symbols are
 * rescanned exactly as NIST's tool does.
 */
#include "config.h"

#include "estimators/estsimd.h"
#include "estimators/predictor.h"

#include <stdlib.h>
#include <string.h>

#define MCW_NWIN 4
/* 90B 6.3.7 step 1: the window sizes. */
static const long mcw_w[MCW_NWIN] = { 63, 255, 1023, 4095 };

struct mcw_win {
	long w;
	long *cnt;       /* cnt[s]: occurrences of s in the window */
	long *pos;       /* pos[s]: last index of s (stale once s left) */
	long *hist;      /* hist[c]: symbols with count c, c = 0..w+1 */
	long max;        /* NIST's max_cnts */
	unsigned freq;   /* the window's prediction */
};

static void mcw_count(struct mcw_win *m, unsigned s, long delta)
{
	m->hist[m->cnt[s]]--;
	m->cnt[s] += delta;
	m->hist[m->cnt[s]]++;
}

/* NIST's rescan after the most common symbol left the window: the highest
 * count wins, ties go to the latest last position, starting from (max - 1,
 * position of the leaving sample); NIST loops over all k symbols
 * (cpp/non_iid/multi_mcw_test.h at 68ed165, the `else if` after the
 * window update).  The
 * highest count M is one of top + 1 (the entering symbol), top, top - 1
 * (hist says which), and of the symbols with count M the one last seen
 * latest is the first sample with count M going back from the newest: a
 * few steps (M samples of each such symbol are in the window) instead of
 * k.  The literal MultiMCW of 10M random bytes, where the windows of 63
 * and 255 rescan on a few percent of the steps, spent most of its ~360 ms
 * in the loop over 256 symbols. */
static void mcw_rescan(struct mcw_win *m, const uint8_t *s, long i, long top)
{
	const long best = m->hist[top + 1] ? top + 1 : m->hist[top] ? top : top - 1;
	long j = i;

	while (m->cnt[s[j]] != best)   /* within the window: one has count best */
		j--;
	m->max = best;
	m->freq = s[j];
}

/* Steps t0..t1-1 for any alphabet: bit i-t0 of correct[j] when window j
 * (already full) predicts s[i]; then the windows slide (90B 6.3.7 step 3e). */
static void mcw_general(struct mcw_win *win, const uint8_t *s, long t0, long t1,
			uint64_t *correct)
{
	for (long i = t0; i < t1; i++) {
		unsigned x = s[i];
		for (int j = 0; j < MCW_NWIN; j++)
			if (i >= win[j].w && win[j].freq == x)
				correct[j] |= (uint64_t)1 << (i - t0);
		for (int j = 0; j < MCW_NWIN; j++) {
			struct mcw_win *m = &win[j];
			unsigned out;
			if (i < m->w)
				continue;
			out = s[i - m->w];
			mcw_count(m, out, -1);
			mcw_count(m, x, 1);
			m->pos[x] = i;
			if (out != m->freq) {
				if (m->max <= m->cnt[x]) {
					m->max = m->cnt[x];
					m->freq = x;
				}
			} else {
				long top = m->max;   /* counts are now <= top + 1 */
				m->max--;
				if (m->max > 0 && m->hist[top + 1] + m->hist[top] +
				    m->hist[top - 1] == 1) {
					/* the old prediction alone at the top: the
					 * rescan would keep it */
					m->max = m->cnt[m->freq];
				} else {
					mcw_rescan(m, s, i, top);
				}
			}
		}
	}
}

/* -1 until the first block asks the CPU; tests set it (mcw_simd) */
static int mcw_simd_on = -1;

int mcw_simd(int enable)
{
	return est_simd_set(&mcw_simd_on, enable, EST_SIMD_VPOPCNT);
}

#if EST_HAVE_AVX512
/* One block of nb <= 64 steps with every window full, all at once: the
 * count of ones in window j before step i is o_j plus the block's bits
 * before i, less those that left window j before i, two popcounts of the
 * words under a mask of the steps before i (bit 63 - i is step i), eight
 * steps a register.  The window predicts 1 iff that count reaches
 * (w + 1) / 2, and is right where its prediction equals the step's bit.
 * The scalar loop below spent ~28 operations a step on the four windows
 * (~7% of assess on 1M bits); this ~2.5.  AVX-512F and VPOPCNTQ
 * (AVX512_VPOPCNTDQ). */
__attribute__((target("avx512f,avx512vpopcntdq")))
static void mcw_block_avx512(long o[MCW_NWIN], uint64_t x, const uint64_t l[MCW_NWIN], unsigned nb,
			     uint64_t *correct)
{
	const __m512i xb = _mm512_set1_epi64((long long)x);
	__m512i lb[MCW_NWIN], need[MCW_NWIN];
	uint64_t pred[MCW_NWIN] = { 0 };
	/* the block's steps: the top nb bits of x, the low nb of correct */
	const uint64_t first = nb == 64 ? ~(uint64_t)0 : ~(~(uint64_t)0 >> nb);
	const uint64_t low = nb == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nb) - 1;

	for (unsigned j = 0; j < MCW_NWIN; j++) {
		lb[j] = _mm512_set1_epi64((long long)l[j]);
		/* predicts 1 iff o + in - out >= (w + 1) / 2 */
		need[j] = _mm512_set1_epi64((mcw_w[j] + 1) / 2 - o[j]);
	}
	for (unsigned g = 0; g < 8; g++) {
		/* the steps before 8g + k, k = 0..7: the top 8g + k bits */
		const __m512i k = _mm512_add_epi64(_mm512_set1_epi64(8 * (long long)g),
						   _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
		const __m512i before = _mm512_andnot_si512(
			_mm512_srlv_epi64(_mm512_set1_epi64(-1), k),
			_mm512_set1_epi64(-1));
		const __m512i in = _mm512_popcnt_epi64(_mm512_and_si512(xb, before));

		for (unsigned j = 0; j < MCW_NWIN; j++) {
			__m512i out = _mm512_popcnt_epi64(_mm512_and_si512(lb[j], before));
			__mmask8 p = _mm512_cmpge_epi64_mask(_mm512_sub_epi64(in, out), need[j]);

			pred[j] |= (uint64_t)p << (8 * g);
		}
	}
	for (unsigned j = 0; j < MCW_NWIN; j++) {
		/* step i at bit i: right where the prediction is the bit */
		correct[j] = ~(pred[j] ^ pred_rev64(x)) & low;
		o[j] += __builtin_popcountll(x & first) - __builtin_popcountll(l[j] & first);
	}
}
#endif

/* The same for bitstrings: every window size is odd, so two symbols never
 * tie and the prediction is the majority bit (cnt[1] alone is kept).  Once
 * every window is full (t0 >= 4095) the four share one loop over 64-bit
 * words of the step's bit and of the bits leaving each window; their correct
 * bits are built newest first and reversed at the end. */
static void mcw_binary(struct mcw_win *win, const uint64_t *w, long t0, long t1, uint64_t *correct)
{
#if EST_HAVE_AVX512
	if (est_simd_get(&mcw_simd_on, EST_SIMD_VPOPCNT) && t0 >= mcw_w[MCW_NWIN - 1]) {
		long o[MCW_NWIN];
		uint64_t l[MCW_NWIN];

		for (unsigned j = 0; j < MCW_NWIN; j++) {
			o[j] = win[j].cnt[1];
			l[j] = est_bits64(w, (size_t)(t0 - mcw_w[j]));
		}
		mcw_block_avx512(o, est_bits64(w, (size_t)t0), l, (unsigned)(t1 - t0), correct);
		for (unsigned j = 0; j < MCW_NWIN; j++)
			win[j].cnt[1] = o[j];
		return;
	}
#endif
	if (t0 >= mcw_w[MCW_NWIN - 1]) {
		long o0 = win[0].cnt[1], o1 = win[1].cnt[1], o2 = win[2].cnt[1], o3 = win[3].cnt[1];
		uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
		unsigned nb = (unsigned)(t1 - t0);
		uint64_t x = est_bits64(w, (size_t)t0), l0 = est_bits64(w, (size_t)(t0 - 63)),
			 l1 = est_bits64(w, (size_t)(t0 - 255)), l2 = est_bits64(w, (size_t)(t0 - 1023)),
			 l3 = est_bits64(w, (size_t)(t0 - 4095));
		for (unsigned i = 0; i < nb; i++) {
			long b = (long)(x >> (63 - i) & 1u);
			c0 = 2 * c0 + (uint64_t)((2 * o0 > 63) == b);
			c1 = 2 * c1 + (uint64_t)((2 * o1 > 255) == b);
			c2 = 2 * c2 + (uint64_t)((2 * o2 > 1023) == b);
			c3 = 2 * c3 + (uint64_t)((2 * o3 > 4095) == b);
			o0 += b - (long)(l0 >> (63 - i) & 1u);
			o1 += b - (long)(l1 >> (63 - i) & 1u);
			o2 += b - (long)(l2 >> (63 - i) & 1u);
			o3 += b - (long)(l3 >> (63 - i) & 1u);
		}
		win[0].cnt[1] = o0;
		win[1].cnt[1] = o1;
		win[2].cnt[1] = o2;
		win[3].cnt[1] = o3;
		correct[0] = pred_rev64(c0) >> (64 - nb);
		correct[1] = pred_rev64(c1) >> (64 - nb);
		correct[2] = pred_rev64(c2) >> (64 - nb);
		correct[3] = pred_rev64(c3) >> (64 - nb);
		return;
	}
	for (int j = 0; j < MCW_NWIN; j++) {
		long ww = win[j].w, ones = win[j].cnt[1];
		uint64_t c = 0;
		long i = t0;
		for (; i < t1 && i < ww; i++)
			;   /* window j not yet full: no prediction, no slide */
		for (; i < t1; i++) {
			unsigned x = est_bit(w, (size_t)i);
			unsigned f = 2 * ones > ww;
			c |= (uint64_t)(f == x) << (i - t0);
			ones += (long)x - (long)est_bit(w, (size_t)(i - ww));
		}
		win[j].cnt[1] = ones;
		correct[j] = c;
	}
}

int est_multimcw(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	struct mcw_win win[MCW_NWIN];
	struct pred_sched b;
	long *mem;
	size_t per;
	long len = (long)n;

	est_result_init(r, "multimcw", "MultiMCW Prediction");
	{
		int bad = pred_check_input("MultiMCW", s, n, k, e);
		if (bad < 0)
			return bad;
	}
	if (k == 2)
		return est_run_packed(est_multimcw_bits, "MultiMCW", s, n, r, e);
	/* NIST's tool needs more than the largest window (len >= 4096). */
	if (len < mcw_w[MCW_NWIN - 1] + 1) {
		est_not_applicable(r, "needs at least %ld samples, got %zu", mcw_w[MCW_NWIN - 1] + 1, n);
		return 0;
	}
	per = 2 * (size_t)k + (size_t)mcw_w[MCW_NWIN - 1] + 2;
	mem = calloc(per * MCW_NWIN, sizeof *mem);
	if (!mem)
		return err_set(e, ERR_NOMEM, "MultiMCW: out of memory");
	for (int j = 0; j < MCW_NWIN; j++) {
		win[j].w = mcw_w[j];
		win[j].cnt = mem + (size_t)j * per;
		win[j].pos = win[j].cnt + k;
		win[j].hist = win[j].pos + k;
		win[j].hist[0] = k;
		win[j].max = 0;
		win[j].freq = 0;
	}

	/* Fill each window with its first w samples; ties to the latest. */
	for (long i = 0; i < mcw_w[MCW_NWIN - 1]; i++) {
		for (int j = 0; j < MCW_NWIN; j++) {
			struct mcw_win *m = &win[j];
			if (i >= m->w)
				continue;
			mcw_count(m, s[i], 1);
			if (m->max <= m->cnt[s[i]]) {
				m->max = m->cnt[s[i]];
				m->freq = s[i];
			}
			m->pos[s[i]] = i;
		}
	}

	if (pred_sched_init(&b) < 0) {
		free(mem);
		return err_set(e, ERR_NOMEM, "MultiMCW: out of memory");
	}
	for (long t0 = mcw_w[0]; t0 < len; t0 += PRED_SCHED_BLOCK) {
		uint64_t correct[MCW_NWIN] = { 0 };
		long t1 = len - t0 < PRED_SCHED_BLOCK ? len : t0 + PRED_SCHED_BLOCK;
		/* 90B 6.3.7 step 3b-3d: which windows predict right (the
		 * scoreboard runs over the block afterwards) */
		mcw_general(win, s, t0, t1, correct);
		pred_sched_block(&b, MCW_NWIN, correct, NULL, (unsigned)(t1 - t0));
	}
	pred_sched_free(&b);
	free(mem);
	pred_finish(r, b.t.C, len - mcw_w[0], b.t.max_run, k);
	return 0;
}

int est_multimcw_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	struct mcw_win win[MCW_NWIN];
	long cnt[MCW_NWIN][2];
	struct pred_sched b;
	long len = (long)n;

	est_result_init(r, "multimcw", "MultiMCW Prediction");
	if (len < mcw_w[MCW_NWIN - 1] + 1) {
		est_not_applicable(r, "needs at least %ld samples, got %zu", mcw_w[MCW_NWIN - 1] + 1, n);
		return 0;
	}
	/* each window filled with its first w bits */
	memset(win, 0, sizeof win);
	for (int j = 0; j < MCW_NWIN; j++) {
		long ones = 0;
		for (long i = 0; i < mcw_w[j]; i++)
			ones += est_bit(w, (size_t)i);
		win[j].w = mcw_w[j];
		win[j].cnt = cnt[j];
		cnt[j][0] = mcw_w[j] - ones;
		cnt[j][1] = ones;
	}
	if (pred_sched_init(&b) < 0)
		return err_set(e, ERR_NOMEM, "MultiMCW: out of memory");
	for (long t0 = mcw_w[0]; t0 < len; t0 += PRED_SCHED_BLOCK) {
		uint64_t correct[MCW_NWIN] = { 0 };
		long t1 = len - t0 < PRED_SCHED_BLOCK ? len : t0 + PRED_SCHED_BLOCK;
		/* 90B 6.3.7 step 3b-3d, then the scoreboard over the block */
		mcw_binary(win, w, t0, t1, correct);
		pred_sched_block(&b, MCW_NWIN, correct, NULL, (unsigned)(t1 - t0));
	}
	pred_sched_free(&b);
	pred_finish(r, b.t.C, len - mcw_w[0], b.t.max_run, 2);
	return 0;
}
