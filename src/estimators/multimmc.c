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
 * binary path); other alphabets use the hashed dictionary of predictor.c.
 */
#include "config.h"

#include "bigmem.h"

#include "estimators/ctxdict.h"
#include "estimators/predictor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 90B 6.3.9 step 1: D = 16. */
#define MMC_D 16
/* NIST's MAX_ENTRIES: (context, follower) pairs kept per depth. */
#define MMC_MAX_ENTRIES 100000
/* blocks of 64 steps per chunk of the bitstring path */
#define MMC_CHUNK 64

/* One depth's step in mmc_fused(): its word for the context, the correct
 * bit (sign(v) xor y) into acc, newest first, and the word moved by +-2.
 * With unseen contexts possible, a zero word makes no prediction (pacc)
 * and becomes +-1 (2 (c1 - c0) + 1). */
#define MMC_FUSED_DEPTH(acc, pacc, d)                                             \
	do {                                                                       \
		int32_t *c_ = mem + ((2u << (d)) - 2) + (h & ((2u << (d)) - 1));   \
		int32_t v_ = *c_;                                                  \
		if (unseen) {                                                      \
			uint32_t f_ = v_ != 0;                                     \
			acc = 2 * acc + ((((uint32_t)v_ ^ yneg) >> 31) & f_);     \
			pacc = 2 * pacc + f_;                                      \
			*c_ = v_ + step + (int32_t)(f_ ^ 1u);                      \
		} else {                                                           \
			acc = 2 * acc + (((uint32_t)v_ ^ yneg) >> 31);             \
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
		for (; i < end; i++, ys <<= 1) {
			const uint32_t y = (uint32_t)(ys >> 63), yneg = 0u - y;
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
				corr[lo + k][j0 >> 6] = pred_rev64(acc[k]) >> (64 - nj);
				pred[lo + k][j0 >> 6] = unseen ? pred_rev64(pacc[k]) >> (64 - nj) : all;
			}
		}
	}
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
	for (size_t c0 = 2; c0 < n; c0 += MMC_CHUNK * PRED_SCHED_BLOCK) {
		size_t c1 = n - c0 < MMC_CHUNK * PRED_SCHED_BLOCK ? n : c0 + MMC_CHUNK * PRED_SCHED_BLOCK;
		size_t nblk = (c1 - c0 + PRED_SCHED_BLOCK - 1) / PRED_SCHED_BLOCK;
		uint32_t done = 0;   /* depths this chunk already has */
		for (unsigned g = 0; c0 >= MMC_D + 2 && g < sizeof mmc_groups / sizeof mmc_groups[0]; g++) {
			unsigned lo = mmc_groups[g].lo, cnt = mmc_groups[g].cnt;
			int unseen = 0;
			for (unsigned d = lo; d < lo + cnt; d++)
				unseen |= seen[d] != (size_t)2 << d;
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

/* Literal samples.  NIST walks the 16 depths within each step, but a depth
 * only needs to know, for each step, what the depth below did there: it
 * found its context (then this depth is looked up), or knew it to be new
 * (then so is this one's, while the depth below had room), and its record
 * (whose link saves a look-up).  So the depths run one after the other over
 * a segment of the input (MMC_SEG), each with its own dictionary and the one
 * below hot, which keeps the tables in cache and the per-step arrays small. */
#define MMC_FOUND 1u
#define MMC_ABSENT 2u

/* The input is taken in segments of MMC_SEG steps, every depth over one
 * segment before the next: the per-step arrays are a segment long, not n
 * (10 bytes a step over 10M samples was 100 MB), while each depth still
 * runs over many steps with only its own dictionary hot.  A multiple of 64,
 * so that each segment's bitmaps are whole words of the scoreboard's. */
#define MMC_SEG ((size_t)1 << 18)

struct mmc_pass {
	uint8_t *state;    /* per step of the segment: MMC_FOUND / MMC_ABSENT */
	int32_t *rec;      /* per step: the context's record, or -1; [0] is the
			      step before the segment */
	size_t base;       /* step base + j is at index j */
};

/* What a depth carries from one segment to the next. */
struct mmc_depth_state {
	long entries;      /* (context, follower) pairs entered */
	size_t full_step;  /* the step that filled the dictionary (SIZE_MAX: never) */
	int32_t last_rec;  /* rec at the segment's last step */
};

/* The record of depth d-1's context at the last step (upr, or -1) in *up,
 * and the record its link names when that context was followed by prev as
 * now, else -1. */
static inline long mmc_via(struct ctxdict *down, long upr, uint8_t prev, struct ctxdict_rec **up)
{
	if (upr < 0)
		return -1;
	*up = &down->rec[upr];
	return (*up)->link && (*up)->link_sym == prev ? (long)(*up)->link - 1 : -1;
}

/* Steps before mmc_depth tries mmc_skip_unfound again, after a try that
 * skipped none. */
#define MMC_SKIP_RETRY 64

/* Steps from i on (before b) of a depth d > 0 that is full where the
 * depth below did not find its context: nothing is looked up, counted or
 * entered there, and the step only passes on, before full_below (the
 * step that filled the depth below), that the depth below knew its context
 * to be absent.  On long random data that is nearly every step of the
 * depths above 2 (~5 cycles a step each, 13 depths); here 8 steps take
 * one test of the states below and two stores.  Writes state and rec of
 * those steps and returns the first step that needs mmc_depth's own path
 * (b when none does). */
static size_t mmc_skip_unfound(const struct mmc_pass *below, size_t full_below, struct mmc_pass *me,
			       size_t i, size_t b)
{
	const uint64_t ones = 0x0101010101010101u;

	for (; i + 8 <= b; i += 8) {
		uint64_t w, st;

		memcpy(&w, below->state + (i - below->base), sizeof w);
		if (w & ones * MMC_FOUND)
			break;
		if (i + 8 <= full_below)
			st = w & ones * MMC_ABSENT;
		else if (i >= full_below)
			st = 0;
		else
			break;
		memcpy(me->state + (i - me->base), &st, sizeof st);
		memset(me->rec + (i - me->base), 0xff, 8 * sizeof *me->rec);   /* -1 */
	}
	return i;
}

/* Depth d over steps [a, b) of d+2 .. n-1, as 90B 6.3.9 steps 4-5 and
 * NIST's multi_mmc_test(): below is depth d-1's pass over the same steps
 * and its dictionary (unused for d = 0); fills me, dc, ds and the depth's
 * correct / predicted bitmaps (bit i-a of words from a, a = 2 mod 64).
 * Returns -1 when out of memory.  Not inlined: inlined into mmc_literal
 * by GCC 12, its step loop ran depths 1 and 2 (the costly ones on random
 * bytes) 10-20% slower, timed per depth with rdtsc. */
static __attribute__((noinline)) int
mmc_depth(const uint8_t *s, size_t n, size_t a, size_t b, unsigned d, struct ctxdict *down,
	  const struct mmc_pass *below, const struct mmc_depth_state *bs, struct ctxdict *dc,
	  struct mmc_pass *me, struct mmc_depth_state *ds, uint64_t *corr, uint64_t *pred)
{
	long entries = ds->entries;

	me->base = a - 1;
	me->rec[0] = ds->last_rec;
	if (a == 2) {
		ds->full_step = SIZE_MAX;
		entries = 0;
		if (d + 1 < n - 1) {
			/* 90B 6.3.9 step 4: the first (context, follower) pair */
			struct ctxdict_key key = ctxdict_key(dc, d + 1);
			if (ctxdict_add(dc, &key, d + 1, s[d + 1]) < 0)
				return -1;
			entries = 1;
		}
		for (size_t i = a; i < d + 2 && i < b; i++) {
			me->state[i - me->base] = 0;
			me->rec[i - me->base] = -1;
		}
	}
	for (size_t i = a > d + 2 ? a : d + 2, skip_at = i; i < b; i++) {
		if (d > 0 && entries >= MMC_MAX_ENTRIES && i >= skip_at) {
			size_t j = mmc_skip_unfound(below, bs->full_step, me, i, b);
			if (j == b)
				break;
			/* where the depth below finds most contexts (depth 2
			 * of random bytes) the test fails at once: it waits */
			skip_at = j == i ? i + MMC_SKIP_RETRY : j;
			i = j;
		}
		const uint8_t y = s[i];
		/* the context at depth d is depth d-1's last context followed
		 * by s[i-1]: its link, when it has one, names the record */
		long upr = d > 0 ? below->rec[i - 1 - below->base] : -1;
		struct ctxdict_rec *up = NULL;
		long via = -1, rec;
		unsigned st;

		if (d == 0 || (below->state[i - below->base] & MMC_FOUND)) {
			struct ctxdict_key key = { 0, 0, 0 };
			via = mmc_via(down, upr, s[i - 1], &up);
			if (via >= 0) {
				rec = via;
			} else {
				key = ctxdict_key(dc, i);
				rec = ctxdict_find(dc, &key);
			}
			if (rec >= 0) {
				size_t w = (i - a) / 64;
				uint64_t bit = (uint64_t)1 << ((i - a) % 64);
				int added;
				st = MMC_FOUND;
				pred[w] |= bit;
				corr[w] |= dc->rec[rec].best_sym == y ? bit : 0;
				added = ctxdict_count(dc, rec, y, entries < MMC_MAX_ENTRIES);
				if (added < 0)
					return -1;
				entries += added;
			} else {
				st = MMC_ABSENT;
				if (entries < MMC_MAX_ENTRIES) {
					rec = ctxdict_add(dc, &key, i, y);
					if (rec < 0)
						return -1;
					entries++;
				}
			}
		} else {
			/* A shorter context was unknown.  If the depth below
			 * never filled up, this longer context is new as well
			 * (its suffix would have been entered with it). */
			int sure = i < bs->full_step && (below->state[i - below->base] & MMC_ABSENT);
			if (entries < MMC_MAX_ENTRIES) {
				/* NIST enters (x, y) with map::operator[], which
				 * counts it if x is known after all (possible when
				 * a shorter depth was full), and counts an entry
				 * either way */
				struct ctxdict_key key = ctxdict_key(dc, i);
				via = mmc_via(down, upr, s[i - 1], &up);
				rec = sure ? -1 : via >= 0 ? via : ctxdict_find(dc, &key);
				if (rec >= 0) {
					st = 0;
					if (ctxdict_count(dc, rec, y, 1) < 0)
						return -1;
				} else {
					st = MMC_ABSENT;
					rec = ctxdict_add(dc, &key, i, y);
					if (rec < 0)
						return -1;
				}
				entries++;
			} else {
				st = sure ? MMC_ABSENT : 0;
				rec = -1;
			}
		}
		if (up && rec >= 0) {   /* the last extension seen is the one cached */
			up->link = (uint32_t)rec + 1;
			up->link_sym = s[i - 1];
		}
		me->state[i - me->base] = (uint8_t)st;
		me->rec[i - me->base] = (int32_t)rec;
		if (entries >= MMC_MAX_ENTRIES && ds->full_step == SIZE_MAX)
			ds->full_step = i;
	}
	ds->entries = entries;
	ds->last_rec = me->rec[b - 1 - me->base];
	return 0;
}

static int mmc_literal(const uint8_t *s, size_t n, unsigned k, struct pred_sched *b, struct err *e)
{
	struct ctxdict dict[MMC_D];
	struct mmc_depth_state ds[MMC_D];
	struct mmc_pass pass[2];   /* depth d in pass[d & 1] */
	const size_t seg = n - 2 < MMC_SEG ? n - 2 : MMC_SEG, nw = (seg + 63) / 64;
	uint8_t *buf = bigmem_calloc(n + CTXDICT_PAD, 1);
	uint64_t *corr = malloc(MMC_D * nw * sizeof *corr), *pred = malloc(MMC_D * nw * sizeof *pred);
	int rc = 0;

	memset(dict, 0, sizeof dict);
	memset(ds, 0, sizeof ds);
	for (int p = 0; p < 2; p++) {
		pass[p].state = bigmem_calloc(seg + 1, 1);
		pass[p].rec = bigmem_calloc(seg + 1, sizeof *pass[p].rec);
	}
	if (!buf || !corr || !pred || !pass[0].state || !pass[0].rec || !pass[1].state || !pass[1].rec)
		goto oom;
	memset(buf, 0, CTXDICT_PAD);
	memcpy(buf + CTXDICT_PAD, s, n);
	for (unsigned d = 0; d < MMC_D; d++)
		if (ctxdict_init(&dict[d], buf, d + 1, k) < 0 ||
		    ctxdict_reserve(&dict[d], n < MMC_MAX_ENTRIES ? n : MMC_MAX_ENTRIES) < 0)
			goto oom;
	for (size_t a = 2; a < n; a += seg) {
		size_t end = n - a < seg ? n : a + seg, nws = (end - a + 63) / 64;

		memset(corr, 0, MMC_D * nw * sizeof *corr);
		memset(pred, 0, MMC_D * nw * sizeof *pred);
		for (unsigned d = 0; d < MMC_D; d++)
			if (mmc_depth(s, n, a, end, d, d > 0 ? &dict[d - 1] : NULL, &pass[(d + 1) & 1],
				      d > 0 ? &ds[d - 1] : NULL, &dict[d], &pass[d & 1], &ds[d],
				      corr + d * nw, pred + d * nw) < 0)
				goto oom;
		/* the scoreboard, 64 steps at a time */
		for (size_t w = 0; w < nws; w++) {
			uint64_t cw[MMC_D], pw[MMC_D];
			size_t t0 = a + w * 64;
			for (unsigned d = 0; d < MMC_D; d++) {
				cw[d] = corr[d * nw + w];
				pw[d] = pred[d * nw + w];
			}
			pred_sched_block(b, MMC_D, cw, pw, (unsigned)(end - t0 < 64 ? end - t0 : 64));
		}
	}
	goto out;
oom:
	rc = err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
out:
	for (unsigned d = 0; d < MMC_D; d++)
		ctxdict_free(&dict[d]);
	for (int p = 0; p < 2; p++) {
		bigmem_free(pass[p].state);
		bigmem_free(pass[p].rec);
	}
	free(corr);
	free(pred);
	bigmem_free(buf);
	return rc;
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
