/* SPDX-License-Identifier: GPL-3.0-or-later */
/* multimmc.c - SP 800-90B 6.3.9 MultiMMC prediction estimate.
 *
 * Sixteen Markov-model subpredictors: the depth-d one predicts the symbol
 * that most often followed the last d samples (d = 1..16), ties to the
 * larger value.  As in NIST's ea_non_iid v1.1.7 (multi_mmc_test()):
 *  - each depth keeps at most 100,000 (context, follower) entries (MAX_ENTRIES);
 *    once full, known pairs are still counted but no new pair is added;
 *  - the depths are visited from 1 up and a depth is only looked up when the
 *    previous one knew its context; otherwise (x, y) is entered or counted
 *    without a prediction while the depth has room;
 *  - C and the run counter only move when the winning depth made a
 *    prediction.
 * Bitstrings index their contexts directly (2^d per depth, like NIST's
 * binary path), here; other alphabets use the hashed dictionaries of
 * ctxdict.c, depth by depth (multimmc_literal.c).
 */
#include "config.h"

#include "bigmem.h"

#include "estimators/estsimd.h"
#include "estimators/multimmc.h"
#include "estimators/predictor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* blocks of 64 steps per chunk of the bitstring path */
#define MMC_CHUNK 64

/* One depth's step in mmc_fused(): its word for the context, its sign bit
 * (the prediction is 1 iff the word is positive) into acc, newest first,
 * and the word moved by +-2.  The step is right when that sign differs
 * from y's: the block's y bits are XORed in once per 64 steps, not per
 * depth and step.  With unseen contexts possible, a zero word makes no
 * prediction (pacc) and becomes +-1 (2 (c1 - c0) + 1). */
#define MMC_FUSED_DEPTH(acc, pacc, d)                                             \
	do {                                                                       \
		int32_t *c_ = mem + ((2u << (d)) - 2) + (h & ((2u << (d)) - 1));   \
		int32_t v_ = *c_;                                                  \
		acc = 2 * acc + ((uint32_t)v_ >> 31);                              \
		if (unseen) {                                                      \
			uint32_t f_ = v_ != 0;                                     \
			pacc = 2 * pacc + f_;                                      \
			*c_ = v_ + step + (int32_t)(f_ ^ 1u);                      \
		} else {                                                           \
			*c_ = v_ + step;                                           \
		}                                                                  \
	} while (0)

/* Depths lo .. lo+cnt-1 (cnt <= 4, below the top depth) over one chunk of
 * steps [c0, c1), c0 >= 18, in one loop: the depths touch independent
 * words, so the loop runs at its throughput, a few operations per depth
 * and step.  Once each depth has seen all its contexts (unseen = 0) every
 * step predicts (the sign of the word) and is right when that sign differs
 * from y's.  Called with constant lo, cnt and unseen, so the words of
 * correct bits stay in registers (built newest first, reversed per block). */
static inline __attribute__((always_inline)) void
mmc_fused(const uint64_t *bw, size_t c0, size_t c1, int32_t *mem, const unsigned lo,
	  const unsigned cnt, const int unseen, uint64_t (*corr)[MMC_CHUNK], uint64_t (*pred)[MMC_CHUNK])
{
	uint32_t h = 0;   /* bit m = s[i-1-m]; each depth masks what it needs */
	size_t i = c0;

	for (unsigned m = 0; m < lo + cnt; m++)
		h |= (uint32_t)(est_bit(bw, i - 1 - m)) << m;
	while (i < c1) {
		size_t j0 = (i - c0) & ~(size_t)63, end = c0 + j0 + 64;
		uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, p0 = 0, p1 = 0, p2 = 0, p3 = 0;
		unsigned nj;
		if (end > c1)
			end = c1;
		nj = (unsigned)(end - i);
		uint64_t ys = est_bits64(bw, i);   /* this block's bits, the next on top */
		/* the y bits in acc's order: step j at bit nj - 1 - j */
		const uint64_t yacc = ys >> (64 - nj);
		for (; i < end; i++, ys <<= 1) {
			const uint32_t y = (uint32_t)(ys >> 63);
			const int32_t step = (int32_t)(4 * y) - 2;
			MMC_FUSED_DEPTH(a0, p0, lo);
			if (cnt > 1)
				MMC_FUSED_DEPTH(a1, p1, lo + 1);
			if (cnt > 2)
				MMC_FUSED_DEPTH(a2, p2, lo + 2);
			if (cnt > 3)
				MMC_FUSED_DEPTH(a3, p3, lo + 3);
			h = (h << 1) | y;
		}
		{
			const uint64_t acc[4] = { a0, a1, a2, a3 }, pacc[4] = { p0, p1, p2, p3 };
			const uint64_t all = nj == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nj) - 1;
			for (unsigned k = 0; k < cnt; k++) {
				/* right: a sign (1 = predicts 0) that differs from y */
				const uint64_t right = (acc[k] ^ yacc) & (unseen ? pacc[k] : all);
				corr[lo + k][j0 >> 6] = pred_rev64(right) >> (64 - nj);
				pred[lo + k][j0 >> 6] = unseen ? pred_rev64(pacc[k]) >> (64 - nj) : all;
			}
		}
	}
}

#if EST_HAVE_AVX512
/* -1 until the first chunk asks the CPU; tests set it (mmc_simd) */
static int mmc_simd_on = -1;

/* mmc_low_avx512's constants, built once a MultiMMC: sel[h], the lanes of
 * the contexts h & 1, h & 3, h & 7 and h & 15 in A (0-15) and B (16-31);
 * ua[x] and ub[x], the move for x = 2 h + y, +-2 in those lanes (x & 15
 * holds depth 2's context and y, x & 31 depth 3's). */
struct mmc_low {
	int32_t sel[16][16] __attribute__((aligned(64)));
	int32_t ua[16][16] __attribute__((aligned(64)));
	int32_t ub[32][16] __attribute__((aligned(64)));
};

static void mmc_low_init(struct mmc_low *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned c = 0; c < 16; c++) {
		t->sel[c][0] = (int32_t)(c & 1u);
		t->sel[c][1] = (int32_t)(2 + (c & 3u));
		t->sel[c][2] = (int32_t)(6 + (c & 7u));
		t->sel[c][3] = (int32_t)(16 + c);
	}
	for (unsigned x = 0; x < 32; x++) {
		const int32_t step = x & 1u ? 2 : -2;
		const unsigned c = x >> 1;
		if (x < 16) {
			t->ua[x][c & 1u] = step;
			t->ua[x][2 + (c & 3u)] = step;
			t->ua[x][6 + (c & 7u)] = step;
		}
		t->ub[x][c] = step;
	}
}

/* Depths 0-3 over one chunk of steps [c0, c1), c0 >= 18, once each has
 * seen all its contexts: their 30 words (mem[0..29], tables of 2, 4, 8 and
 * 16 contexts one after another) live in two registers, A = mem[0..15]
 * (depths 0-2; its lanes 14-15, depth 3's first words, stay untouched)
 * and B = mem[14..29] (depth 3).  A step is three vector operations, not
 * four loads, stores and sign extractions: the four words of the step's
 * contexts gathered by one permute (their signs, the predictions, into a
 * mask kept a step), and each register moved by a constant of +-2 in those
 * lanes, picked by the context and the follower y, which together are the
 * next history's low bits.  The portable loop took ~2.6 ns a step for the
 * four depths here (a load, a store and a dozen operations a depth). */
__attribute__((target("avx512f")))
static void mmc_low_avx512(const uint64_t *bw, size_t c0, size_t c1, int32_t *mem,
			   const struct mmc_low *t, uint64_t (*corr)[MMC_CHUNK],
			   uint64_t (*pred)[MMC_CHUNK])
{
	uint32_t sign[MMC_CHUNK] __attribute__((aligned(64)));   /* a block's masks, a step each */
	const __m512i zero = _mm512_setzero_si512();
	uint32_t h = 0;   /* bit m = s[i-1-m] */
	size_t i = c0;

	memset(sign, 0, sizeof sign);
	__m512i a = _mm512_loadu_si512(mem), b = _mm512_loadu_si512(mem + 14);
	for (unsigned m = 0; m < 4; m++)
		h |= (uint32_t)(est_bit(bw, i - 1 - m)) << m;
	while (i < c1) {
		const size_t j0 = (i - c0) & ~(size_t)63, end = c0 + j0 + 64 < c1 ? c0 + j0 + 64 : c1;
		const unsigned nj = (unsigned)(end - i);
		const uint64_t all = nj == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nj) - 1;
		/* bit j: y of step j of the block */
		const uint64_t yb = pred_rev64(est_bits64(bw, i)) & all;
		uint64_t ys = est_bits64(bw, i);
		for (unsigned j = 0; j < nj; j++, ys <<= 1) {
			const __m512i v = _mm512_permutex2var_epi32(a, _mm512_load_si512(t->sel[h & 15u]), b);
			sign[j] = _mm512_cmplt_epi32_mask(v, zero);
			h = 2 * h + (uint32_t)(ys >> 63);
			a = _mm512_add_epi32(a, _mm512_load_si512(t->ua[h & 15u]));
			b = _mm512_add_epi32(b, _mm512_load_si512(t->ub[h & 31u]));
		}
		for (unsigned d = 0; d < 4; d++) {
			const __m512i bit = _mm512_set1_epi32(1 << d);
			uint64_t sg = 0;
			for (unsigned q = 0; q < 4; q++)
				sg |= (uint64_t)_mm512_test_epi32_mask(_mm512_load_si512(sign + 16 * q), bit)
				      << (16 * q);
			/* right: the sign (1 = predicts 0) differs from y */
			corr[d][j0 >> 6] = (sg ^ yb) & all;
			pred[d][j0 >> 6] = all;
		}
		i = end;
	}
	_mm512_mask_storeu_epi32(mem, 0x3fff, a);
	_mm512_storeu_si512(mem + 14, b);
}
#endif

int mmc_simd(int enable)
{
#if EST_HAVE_AVX512
	return est_simd_set(&mmc_simd_on, enable, EST_SIMD_F);
#else
	(void)enable;
	return 0;
#endif
}

/* The top depth over one chunk of steps [c0, c1), c0 >= 18, once it holds
 * MMC_MAX_ENTRIES pairs: no pair is added any more, a known pair is
 * counted, and a context still unseen makes no prediction. */
static void mmc_top_full(const uint64_t *bw, size_t c0, size_t c1, int32_t *tb, const uint64_t *pairs,
			 uint64_t *corr, uint64_t *pred)
{
	const unsigned top = MMC_D - 1;
	uint32_t h = 0;
	size_t i = c0;

	for (unsigned m = 0; m <= top; m++)
		h |= (uint32_t)(est_bit(bw, i - 1 - m)) << m;
	while (i < c1) {
		size_t j0 = (i - c0) & ~(size_t)63, end = c0 + j0 + 64;
		uint64_t cacc = 0, pacc = 0;
		unsigned nj;
		if (end > c1)
			end = c1;
		nj = (unsigned)(end - i);
		uint64_t ys = est_bits64(bw, i);
		for (; i < end; i++, ys <<= 1) {
			const uint32_t y = (uint32_t)(ys >> 63), bit = 2 * h + y;
			const int32_t step = (int32_t)(4 * y) - 2;
			const int32_t v = tb[h];
			const uint32_t seen = v != 0;
			const int32_t known = (int32_t)((pairs[bit >> 6] >> (bit & 63u)) & 1u);
			cacc = 2 * cacc + ((((uint32_t)v ^ (0u - y)) >> 31) & seen);
			pacc = 2 * pacc + seen;
			tb[h] = v + (step & -known);
			h = ((h << 1) | y) & ((2u << top) - 1);
		}
		corr[j0 >> 6] = pred_rev64(cacc) >> (64 - nj);
		pred[j0 >> 6] = pred_rev64(pacc) >> (64 - nj);
	}
}

/* The contexts of a depth's table that have been seen. */
static size_t mmc_seen(const int32_t *tb, size_t nctx)
{
	size_t k = 0;
	for (size_t c = 0; c < nctx; c++)
		k += tb[c] != 0;
	return k;
}

/* The depth groups that share a loop. */
static const struct { unsigned lo, cnt; } mmc_groups[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 3 },
};

/* mmc_fused() on group g with its constants. */
static void mmc_fused_group(const uint64_t *bw, size_t c0, size_t c1, int32_t *mem, unsigned g,
			    int unseen, uint64_t (*corr)[MMC_CHUNK], uint64_t (*pred)[MMC_CHUNK])
{
#define MMC_GROUP(lo, cnt)                                                        \
	do {                                                                       \
		if (unseen)                                                        \
			mmc_fused(bw, c0, c1, mem, lo, cnt, 1, corr, pred);         \
		else                                                               \
			mmc_fused(bw, c0, c1, mem, lo, cnt, 0, corr, pred);         \
	} while (0)
	switch (g) {
	case 0:
		MMC_GROUP(0, 4);
		break;
	case 1:
		MMC_GROUP(4, 4);
		break;
	case 2:
		MMC_GROUP(8, 4);
		break;
	default:
		MMC_GROUP(12, 3);
		break;
	}
#undef MMC_GROUP
}

/* Steps c0, c0 + 1, ... (c0 >= 18) inside a run of one bit y whose 16
 * bits before c0 are y too, taken at once when every depth already
 * predicts y there: the context of depth d is then y^(d+1) at each step,
 * its word moves by 2 towards y (so its prediction stays y, and it is
 * right), and depth 16's pair (context, y) is an entry already (so it is
 * counted, and nothing is added).  Each step is thus right for all
 * sixteen depths: the scoreboard takes them at once (pred_sched_right).
 * A stuck source with a glitch (10M samples at 8 bits: an 80M-bit run)
 * walked every depth of every step.  Returns the steps taken (0: none). */
static size_t mmc_run_skip(const uint64_t *bw, size_t n, size_t c0, int32_t *const tab[MMC_D],
			   const uint64_t *pairs, struct pred_sched *b)
{
	const unsigned y = est_bit(bw, c0 - 1);
	const uint32_t top_ctx = y ? (2u << (MMC_D - 1)) - 1 : 0, bit = 2 * top_ctx + y;
	size_t len;

	if (est_run_length(bw, c0, c0 - 16, y) < 16)
		return 0;
	if (!((pairs[bit >> 6] >> (bit & 63u)) & 1u))
		return 0;
	len = est_run_length(bw, n, c0, y);
	for (unsigned d = 0; d < MMC_D; d++) {
		const int32_t v = tab[d][y ? (2u << d) - 1 : 0];

		if (v == 0 || (v > 0) != (y != 0))
			return 0;
		/* a word that would leave 32 bits (a run past 2^30 bits): the
		 * steps one at a time, as before */
		if ((uint64_t)(y ? INT32_MAX - v : v - INT32_MIN - 1) < 2 * (uint64_t)len)
			return 0;
	}
	for (unsigned d = 0; d < MMC_D; d++)
		tab[d][y ? (2u << d) - 1 : 0] += y ? (int32_t)(2 * len) : -(int32_t)(2 * len);
	pred_sched_right(b, MMC_D, len);
	return len;
}

/* Bitstrings.  Context c at depth d (d + 1 bits, the newest in bit 0) is
 * tab[d][c] = 0 while unseen, else 2 (c1 - c0) + 1: the prediction is 1 iff
 * the value is positive (ties to 1, as NIST's binary path), and the table
 * stays small (512 KiB for all depths).  Below depth 16 there are at most
 * 2^17 / 2 pairs, under the cap, and a context is known at depth d only if
 * it is known at depth d - 1, so NIST's chain of look-ups is the same as
 * looking each depth up on its own (and the loop needs no branch).  Only
 * depth 16 can reach the cap; a bitmap records which of its pairs exist.
 * From step 18 on the depths below the top run in the fused loops above,
 * the top one in mmc_top_full() once it is full; the first steps, and the
 * top depth until then, take the general loop here. */
static int mmc_binary(const uint64_t *bw, size_t n, struct pred_sched *b, struct err *e)
{
	int32_t *tab[MMC_D];
	int32_t *mem;
	uint64_t *pairs;  /* depth 16: bit 2c + y when (c, y) is an entry */
	long full = 0;    /* entries of depth 16 */
	size_t total = 0, seen[MMC_D] = { 0 };   /* contexts seen per depth */
	const unsigned top = MMC_D - 1;
	uint64_t corr[MMC_D][MMC_CHUNK], pred[MMC_D][MMC_CHUNK];
#if EST_HAVE_AVX512
	struct mmc_low low;   /* built at its first use */
	int low_ready = 0;
#endif

	for (unsigned d = 0; d < MMC_D; d++)
		total += (size_t)2 << d;
	mem = bigmem_calloc(total, sizeof *mem);
	pairs = bigmem_calloc(((size_t)4 << top) / 64, sizeof *pairs);
	if (!mem || !pairs) {
		bigmem_free(mem);
		bigmem_free(pairs);
		return err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
	}
	total = 0;
	for (unsigned d = 0; d < MMC_D; d++) {
		tab[d] = mem + total;
		total += (size_t)2 << d;
	}
	/* 90B 6.3.9 step 4 for the first pair of each depth */
	for (unsigned d = 0; d < MMC_D && d + 1 < n - 1; d++) {
		uint32_t ctx = 0;
		unsigned y = est_bit(bw, d + 1);
		for (unsigned m = 0; m <= d; m++)
			ctx |= (uint32_t)(est_bit(bw, d - m)) << m;
		tab[d][ctx] = y ? 3 : -1;
		seen[d] = 1;
		if (d == top) {
			pairs[(2 * ctx + y) >> 6] |= (uint64_t)1 << ((2 * ctx + y) & 63u);
			full = 1;
		}
	}
	for (size_t c0 = 2, skip; c0 < n; c0 += MMC_CHUNK * PRED_SCHED_BLOCK) {
		if (c0 >= MMC_D + 2 && (skip = mmc_run_skip(bw, n, c0, tab, pairs, b)) > 0) {
			c0 += skip - MMC_CHUNK * PRED_SCHED_BLOCK;   /* (the loop adds it back) */
			continue;
		}
		size_t c1 = n - c0 < MMC_CHUNK * PRED_SCHED_BLOCK ? n : c0 + MMC_CHUNK * PRED_SCHED_BLOCK;
		size_t nblk = (c1 - c0 + PRED_SCHED_BLOCK - 1) / PRED_SCHED_BLOCK;
		uint32_t done = 0;   /* depths this chunk already has */
		for (unsigned g = 0; c0 >= MMC_D + 2 && g < sizeof mmc_groups / sizeof mmc_groups[0]; g++) {
			unsigned lo = mmc_groups[g].lo, cnt = mmc_groups[g].cnt;
			int unseen = 0;
			for (unsigned d = lo; d < lo + cnt; d++)
				unseen |= seen[d] != (size_t)2 << d;
#if EST_HAVE_AVX512
			if (g == 0 && !unseen && est_simd_get(&mmc_simd_on, EST_SIMD_F)) {
				if (!low_ready) {
					mmc_low_init(&low);
					low_ready = 1;
				}
				mmc_low_avx512(bw, c0, c1, mem, &low, corr, pred);
			} else
#endif
				mmc_fused_group(bw, c0, c1, mem, g, unseen, corr, pred);
			done |= ((1u << cnt) - 1) << lo;
			if (unseen && ((c0 - 2) / (MMC_CHUNK * PRED_SCHED_BLOCK)) % 16 == 0)
				/* now and then, count what the depths have seen */
				for (unsigned d = lo; d < lo + cnt; d++)
					seen[d] = mmc_seen(tab[d], (size_t)2 << d);
		}
		if (c0 >= MMC_D + 2 && full >= MMC_MAX_ENTRIES) {
			mmc_top_full(bw, c0, c1, tab[top], pairs, corr[top], pred[top]);
			done |= 1u << top;
		}
		for (unsigned d = 0; d < MMC_D; d++) {
			size_t i = c0 > d + 2 ? c0 : d + 2;   /* depth d needs d <= i-2 */
			if (done >> d & 1u)
				continue;
			uint32_t mask = (2u << d) - 1, h = 0;
			int32_t *tb = tab[d];
			size_t fresh = 0;
			memset(corr[d], 0, nblk * sizeof corr[d][0]);
			memset(pred[d], 0, nblk * sizeof pred[d][0]);
			if (i >= c1)
				continue;
			for (unsigned m = 0; m <= d; m++)
				h |= (uint32_t)(est_bit(bw, i - 1 - m)) << m;
			while (i < c1) {
				/* one 64-step block, the words in registers */
				size_t j0 = (i - c0) & ~(size_t)63, end = c0 + j0 + 64;
				uint64_t cacc = 0, pacc = 0;
				if (end > c1)
					end = c1;
				uint64_t ys = est_bits64(bw, i);
				if (d < top) {
					for (; i < end; i++, ys <<= 1) {
						unsigned y = (unsigned)(ys >> 63), j = (unsigned)(i - c0 - j0);
						int32_t v = tb[h];
						uint64_t f = v != 0;
						cacc |= (f & ((uint64_t)(v > 0) == y)) << j;
						pacc |= f << j;
						fresh += f ^ 1u;
						tb[h] = v + (y ? 2 : -2) + (v == 0);
						h = ((h << 1) | y) & mask;
					}
				} else {
					for (; i < end; i++, ys <<= 1) {
						unsigned y = (unsigned)(ys >> 63), j = (unsigned)(i - c0 - j0);
						uint32_t bit = 2 * h + y;
						int32_t v = tb[h];
						uint64_t f = v != 0;
						uint64_t known = (pairs[bit >> 6] >> (bit & 63u)) & 1u;
						cacc |= (f & ((uint64_t)(v > 0) == y)) << j;
						pacc |= f << j;
						uint64_t add = known | (full < MMC_MAX_ENTRIES);
						tb[h] = add ? v + (y ? 2 : -2) + (v == 0) : v;
						full += (long)((known ^ 1u) & add);
						pairs[bit >> 6] |= add << (bit & 63u);
						h = ((h << 1) | y) & mask;
					}
				}
				corr[d][j0 >> 6] = cacc;
				pred[d][j0 >> 6] = pacc;
			}
			seen[d] += fresh;
		}
		for (size_t w = 0; w < nblk; w++) {
			uint64_t cw[MMC_D], pw[MMC_D];
			size_t t0 = c0 + w * PRED_SCHED_BLOCK;
			size_t t1 = n - t0 < PRED_SCHED_BLOCK ? n : t0 + PRED_SCHED_BLOCK;
			for (unsigned d = 0; d < MMC_D; d++) {
				cw[d] = corr[d][w];
				pw[d] = pred[d][w];
			}
			pred_sched_block(b, MMC_D, cw, pw, (unsigned)(t1 - t0));
		}
	}
	bigmem_free(mem);
	bigmem_free(pairs);
	return 0;
}

int est_multimmc(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	struct pred_sched b;
	int rc;

	est_result_init(r, "multimmc", "MultiMMC Prediction");
	{
		int bad = pred_check_input("MultiMMC", s, n, k, e);
		if (bad < 0)
			return bad;
	}
	/* NIST's tool needs 3 samples (and asserts 4 on its binary path). */
	if (n < (k == 2 ? 4u : 3u)) {
		est_not_applicable(r, "needs at least %u samples, got %zu", k == 2 ? 4u : 3u, n);
		return 0;
	}
	if (k == 2)
		return est_run_packed(est_multimmc_bits, "MultiMMC", s, n, r, e);
	if (pred_sched_init(&b) < 0)
		return err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
	rc = mmc_literal(s, n, k, &b, e);
	pred_sched_free(&b);
	if (rc < 0)
		return rc;
	pred_finish(r, b.t.C, (long long)n - 2, b.t.max_run, k);
	return 0;
}

int est_multimmc_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	struct pred_sched b;
	int rc;

	est_result_init(r, "multimmc", "MultiMMC Prediction");
	/* NIST's tool asserts 4 samples on its binary path. */
	if (n < 4) {
		est_not_applicable(r, "needs at least %u samples, got %zu", 4u, n);
		return 0;
	}
	if (pred_sched_init(&b) < 0)
		return err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
	rc = mmc_binary(w, n, &b, e);
	pred_sched_free(&b);
	if (rc < 0)
		return rc;
	pred_finish(r, b.t.C, (long long)n - 2, b.t.max_run, 2);
	return 0;
}
