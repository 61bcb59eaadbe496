/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lz78y.c - SP 800-90B 6.3.10 LZ78Y prediction estimate.
 *
 * A dictionary of contexts (the last j samples, j = 1..16) with the counts
 * of what followed them.  Each step looks up every length from 16 down to 1;
 * the prediction is the follower of the context whose best count is the
 * highest, ties to the longer context (NIST's ea_non_iid v1.1.7 LZ78Y_test()
 * takes a later, shorter context only when its count is strictly larger).
 * Within a context ties go to the larger value (its PostfixDictionary).
 * Known contexts always count their follower; a new context is entered only
 * while the dictionary holds fewer than 65,536 contexts (maxDictionarySize,
 * contexts of all lengths together).
 * Bitstrings index their contexts directly (2^j per length, like NIST's
 * binary path); other alphabets use the hashed dictionary of predictor.c.
 */
#include "config.h"

#include "bigmem.h"

#include "estimators/ctxdict.h"
#include "estimators/predictor.h"

#include <stdlib.h>
#include <string.h>

/* 90B 6.3.10 step 1: B = 16, maxDictionarySize = 65,536. */
#define LZ_B 16
#define LZ_MAX_DICT 65536

/* Bitstrings: context c of length j (the newest bit in bit 0) has its
 * follower counts in tab[j][c], c0 in the low and c1 in the high 32 bits
 * (NIST's binary path: prediction 1 unless c0 > c1); 0 while unknown.
 *
 * NIST's loop looks up all 16 lengths every step; most contexts need never
 * be looked at again:
 *
 * - a context's counts never exceed those of its parent, its suffix one bit
 *   shorter (the parent was entered no later, and every later occurrence of
 *   the context is one of the parent), so its best count is at most the
 *   parent's, and NIST's prediction (highest count, ties to the longer) is
 *   the longest context of the chain 1, 2, .. whose count ties all shorter;
 * - the gap parent - context in each follower's count never shrinks (both
 *   count when the context occurs, only the parent otherwise);
 * - once the gap in follower 0 is positive (c0 < p0), neither the context
 *   nor any longer one that extends it can ever make a prediction other
 *   than the parent's: such a context D ties the highest count M only with
 *   c1(D) = M (its c0 is below the parent's, at most M), so it predicts 1;
 *   and the parent then ties M with p1 = M >= p0, so it predicts 1 too
 *   (ties within a context go to 1).  The context is marked LZ_DEAD and
 *   the walk up the chain stops there.  (A gap in follower 1 alone is not
 *   enough: with p0 = p1 = M the parent predicts 1 and a longer context
 *   with c0 = M > c1 would predict 0: the pruning test in
 *   tests/test_predictors.c fails with that rule.  Earlier versions let a
 *   context die only with both gaps positive.)
 *
 * On random data nearly every context of two bits or more dies early, and a
 * step touches two table words instead of sixteen.  Periodic bits keep
 * chains alive: of the three phases of 010 repeated, the two followed by 0
 * now stop at the first context entered after its parent, and the phase
 * followed by 1 walks all sixteen, as NIST's loop (80M bits: 1.90 -> 1.40
 * s, min of 5; 10M random bytes' bits 0.42 -> 0.40 s).
 *
 * While the dictionary has room, every step enters all its contexts not yet
 * known, so a step's contexts are known up to some length and new beyond
 * it.  The walk finds that length, or, when it stopped at a dead context,
 * one lookup at length 16 settles it (periodic data, which never fills
 * the dictionary, knows every context after its first period); the new
 * ones are entered, dead under a dead one, and count towards the size.
 *
 * The dictionary can fill in the middle of a step: the step's unknown
 * lengths are added longest first, so its contexts of lengths gap_hi+1..16
 * exist while those of lengths gap_lo..gap_hi do not.  The inequality above
 * still holds against the nearest shorter context that exists, so the walk
 * steps over that one gap. */
#define LZ_DEAD UINT64_MAX

#define LZ_STOP_NEW 1    /* the context is not yet known */
#define LZ_STOP_DEAD 2   /* dead, or made so now */

/* One length of the walk up the chain: the context's counts at c, the
 * step's follower adding inc.  0 to go on, else LZ_STOP_*. */
static inline __attribute__((always_inline)) int lz_level(uint64_t *c, uint64_t inc, uint32_t *p0,
							 uint32_t *best, unsigned *pred)
{
	const uint64_t v = *c;

	if (v == 0)
		return LZ_STOP_NEW;
	if (v == LZ_DEAD)
		return LZ_STOP_DEAD;
	const uint32_t c0 = (uint32_t)v, c1 = (uint32_t)(v >> 32);
	if (c0 < *p0) {
		*c = LZ_DEAD;
		return LZ_STOP_DEAD;
	}
	const uint32_t cnt = c0 > c1 ? c0 : c1;
	if (cnt >= *best) {   /* going up, >= is NIST's > going down */
		*best = cnt;
		*pred = c1 >= c0;
	}
	*c = v + inc;
	*p0 = c0;
	return 0;
}

/* Steps i0, i0 + 1, ... inside a run of y whose first 17 bits are behind
 * them (h: the last 16 as the context of every length is y^j), taken at
 * once while nothing changes but counts.  A step there looks up the same
 * contexts every time, and it is one of them only if
 *  - no context dies (c0 < the parent's: the gap stays as it is, both
 *    counting y, or neither when y = 1) and none is entered (new ones
 *    would be met while the dictionary has room; at a dead one, length 16
 *    decides, as in the loop);
 *  - the walk passes a context (else no prediction), and every one it
 *    passes predicts y (y = 0: c0 > c1; y = 1: c1 >= c0, ties going to
 *    1), which stays so as their y counts grow: the prediction is one of
 *    theirs, so right, and no context dies.
 * Then each of the run's steps adds 1 to the y count of those contexts and
 * one right prediction: a stuck source with a glitch (10M samples at 8
 * bits: an 80M-bit run) walked all 16 lengths on each of its bits.
 * Returns the steps taken, 0 when the step at i0 is not such a step (the
 * loop takes it, and may come back a step later). */
static size_t lz_run_skip(uint64_t *const tab[LZ_B + 1], const uint64_t *w, size_t n, size_t i0,
			  uint32_t h, int room, unsigned gap_lo, unsigned gap_hi, struct pred_tally *t)
{
	const unsigned y = h & 1u;
	const uint64_t inc = (uint64_t)1 << (32 * y);
	uint64_t *live[LZ_B];
	unsigned nlive = 0, j;
	uint32_t p0 = 0;
	int is_new = 0;
	size_t len;

	for (j = 1; j <= LZ_B; j++) {
		uint64_t *c = tab[j] + (h & ((1u << j) - 1));
		const uint64_t v = *c;

		if (v == 0) {
			if (j >= gap_lo && j <= gap_hi)
				continue;
			is_new = 1;
			break;
		}
		if (v == LZ_DEAD)
			break;
		const uint32_t c0 = (uint32_t)v, c1 = (uint32_t)(v >> 32);
		if (c0 < p0 || (y ? c1 < c0 : c0 <= c1))
			return 0;
		live[nlive++] = c;
		p0 = c0;
	}
	if (nlive == 0)
		return 0;   /* no prediction (a full dictionary knows none of them) */
	if (room && j <= LZ_B && (is_new || tab[LZ_B][h & ((1u << LZ_B) - 1)] == 0))
		return 0;   /* the step would enter contexts */
	len = est_run_length(w, n, i0, y);
	for (unsigned k = 0; k < nlive; k++)
		*live[k] += len * inc;
	pred_tally_add_right(t, (long long)len);
	return len;
}

int lz78y_binary_tally(const uint64_t *w, size_t n, long max_dict, struct pred_tally *t,
		       long *entries, struct err *e)
{
	uint64_t *tab[LZ_B + 1];
	uint64_t *mem;
	size_t total = 0, i;
	long dict = 0;
	uint32_t h = 0;   /* bit m = s[i-1-m] */
	unsigned gap_lo = LZ_B + 1, gap_hi = 0;

	for (unsigned j = 1; j <= LZ_B; j++)
		total += (size_t)1 << j;
	mem = bigmem_calloc(total, sizeof *mem);
	if (!mem)
		return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
	total = 0;
	for (unsigned j = 1; j <= LZ_B; j++) {
		tab[j] = mem + total;
		total += (size_t)1 << j;
	}
	/* 90B 6.3.10 step 2: the contexts s[B-j..B-1] followed by s[B] */
	for (unsigned j = 1; j <= LZ_B; j++)
		h |= (uint32_t)(est_bit(w, LZ_B - j)) << (j - 1);
	for (unsigned j = 1; j <= LZ_B; j++) {
		tab[j][h & ((1u << j) - 1)] = (uint64_t)1 << (32 * (est_bit(w, LZ_B)));
		dict++;
	}
	h = (h << 1) | (est_bit(w, LZ_B));
	/* 6.3.10 step 3: walk the chain up from length 1 while it may predict */
	for (i = LZ_B + 1; i < n; i++) {
		unsigned y = est_bit(w, i), pred = 0, j;
		uint64_t inc = (uint64_t)1 << (32 * y);
		uint32_t p0 = 0, best = 0;   /* no parent: never dead */
		int dead = 0;
		/* unrolled: each length's mask and table a constant.  In the gap
		 * (see above) every length up to gap_hi is unknown too: the walk
		 * goes on past them to the longer contexts, its parent the last
		 * known one */
#pragma GCC unroll 16
		for (j = 1; j <= LZ_B; j++) {
			const int st = lz_level(tab[j] + (h & ((1u << j) - 1)), inc, &p0, &best, &pred);

			if (st == 0 || (st == LZ_STOP_NEW && j >= gap_lo && j <= gap_hi))
				continue;
			dead = st == LZ_STOP_DEAD;
			break;
		}
		if (dict < max_dict && j <= LZ_B) {
			/* While there is room every step has entered all 16 of its
			 * contexts, so this step's are known up to some length
			 * and new beyond it: from j when the walk met an unknown
			 * one, else past the longest known.  New contexts are
			 * entered longest first, as NIST does; under a dead one
			 * they are dead too (they count no more than it does). */
			unsigned lo = j, k;
			if (dead) {
				for (lo = LZ_B; lo > j && tab[lo][h & ((1u << lo) - 1)] == 0; lo--)
					;
				lo++;
			}
			for (k = LZ_B; k >= lo; k--) {
				if (dict >= max_dict) {
					/* full within this step: lo..k stay unknown */
					gap_hi = k;
					gap_lo = lo;
					break;
				}
				tab[k][h & ((1u << k) - 1)] = dead ? LZ_DEAD : inc;
				dict++;
			}
		}
		pred_tally_add(t, best != 0 && pred == y);
		h = (h << 1) | y;
		/* the last 17 bits equal: a run may go on (see lz_run_skip) */
		if (__builtin_expect((((h & 0x1ffffu) + 1u) & 0x1ffffu) <= 1u, 0) && i + 1 < n)
			i += lz_run_skip(tab, w, n, i + 1, h, dict < max_dict, gap_lo, gap_hi, t);
	}
	bigmem_free(mem);
	if (entries)
		*entries = dict;
	return 0;
}

/* Records in length j-1's context (last step) that its follower s[i-1]
 * made this step's length-j context rec. */
static void lz_link(struct ctxdict *dict, unsigned j, const long *last, long rec, uint8_t prev)
{
	struct ctxdict_rec *up;
	if (j < 2 || last[j - 1] < 0)
		return;
	up = &dict[j - 1].rec[last[j - 1]];
	up->link = (uint32_t)rec + 1;   /* the last extension seen is the one cached */
	up->link_sym = prev;
}

/* Steps before lz_literal tries lz_literal_run again inside a run where
 * it took none (some context predicts another value, for a while). */
#define LZ_RUN_RETRY 64

/* Steps from i on inside a run of one value y that fills every length's
 * context (y, 1 to 16 times) and goes on: each such step knows all 16 of
 * its contexts (so enters none), predicts the prediction of one of them
 * and counts y after each.  Where y is every one's prediction already it
 * stays so (its counts only grow), so each step predicts right and
 * nothing else changes: the steps are taken at once (a source stuck at
 * one value walked all 16 lengths at every step).  last[] is left as the
 * last step leaves it.  Returns the steps taken, 0 when the step at i is
 * not such a step (the loop takes it). */
static size_t lz_literal_run(struct ctxdict *dict, const uint8_t *s, size_t n, size_t i, long *last,
			     struct pred_tally *t)
{
	const uint8_t y = s[i];
	long rec[LZ_B + 1];
	size_t m;

	if (est_byte_run(s, i + 1, i - LZ_B, y) != LZ_B + 1)
		return 0;
	for (unsigned j = 1; j <= LZ_B; j++) {
		const struct ctxdict_key key = ctxdict_key(&dict[j], i);
		rec[j] = ctxdict_find(&dict[j], &key);
		if (rec[j] < 0 || dict[j].rec[rec[j]].best_sym != y)
			return 0;
	}
	m = est_byte_run(s, n, i, y);
	for (unsigned j = 1; j <= LZ_B; j++) {
		ctxdict_count_more(&dict[j], rec[j], y, (uint32_t)m);
		last[j] = rec[j];
		lz_link(dict, j, last, rec[j], y);
	}
	pred_tally_add_right(t, (long long)m);
	return m;
}

static int lz_literal(const uint8_t *s, size_t n, unsigned k, struct pred_tally *t, struct err *e)
{
	struct ctxdict dict[LZ_B + 1];
	uint8_t *buf = bigmem_calloc(n + CTXDICT_PAD, 1);
	long size = 0;
	unsigned nd = 1;
	int rc = 0;
	unsigned char gap[LZ_B + 1] = { 0 };
	long last[LZ_B + 1], cur[LZ_B + 1];   /* each length's record, last / this step */
	size_t i, run_retry = 0;
	const int runs = pred_literal_runs_on();

	if (!buf)
		return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
	memset(buf, 0, CTXDICT_PAD);
	memcpy(buf + CTXDICT_PAD, s, n);
	for (; nd <= LZ_B; nd++) {
		if (ctxdict_init(&dict[nd], buf, nd, k) < 0)
			goto oom;
	}
	last[0] = cur[0] = -1;
	for (unsigned j = 1; j <= LZ_B; j++) {
		struct ctxdict_key key = ctxdict_key(&dict[j], LZ_B);
		if (ctxdict_add(&dict[j], &key, LZ_B, s[LZ_B]) < 0)
			goto oom;
		size++;
		last[j] = -1;
	}
	/* NIST looks every length up, from 16 down.  Here the lengths are
	 * looked up from 1 while they are known and the scan stops at the first
	 * unknown one: a context's suffix one sample shorter is always in the
	 * dictionary too (within a step the contexts are added longest first),
	 * except where the dictionary filled up in the middle of a step; gap[j]
	 * marks the lengths with such contexts, and those are looked up anyway.
	 * The longest of the known contexts with the highest count predicts
	 * (>= going up is NIST's strict > going down); the unknown lengths are
	 * added longest first while there is room.  A context of length j is
	 * the last step's context of length j-1 followed by s[i-1]; its link
	 * saves the hash look-up. */
	for (i = LZ_B + 1; i < n; i++) {
		uint8_t y = s[i], pred = 0;
		uint32_t maxc = 0;
		unsigned j = 1, stop;
		int known = 1;
		if (y == s[i - 1] && i >= run_retry && runs) {
			const size_t m = lz_literal_run(dict, s, n, i, last, t);
			if (m) {
				i += m - 1;
				continue;
			}
			run_retry = i + LZ_RUN_RETRY;
		}
		for (; j <= LZ_B && (known || gap[j]); j++) {
			struct ctxdict *dc = &dict[j];
			const struct ctxdict_rec *up = last[j - 1] >= 0 ? &dict[j - 1].rec[last[j - 1]] : NULL;
			long rec;
			if (up && up->link && up->link_sym == s[i - 1]) {
				rec = (long)up->link - 1;
			} else {
				struct ctxdict_key key = ctxdict_key(dc, i);
				rec = ctxdict_find(dc, &key);
			}
			known = rec >= 0;
			cur[j] = rec;
			if (known) {
				const struct ctxdict_rec *c = &dc->rec[rec];
				if (c->best >= maxc) {
					maxc = c->best;
					pred = c->best_sym;
				}
				if (ctxdict_count(dc, rec, y, 1) < 0)
					goto oom;
				lz_link(dict, j, last, rec, s[i - 1]);
			}
		}
		stop = j - 1;   /* the first unknown length (or 16) */
		for (j = stop + 1; j <= LZ_B; j++)
			cur[j] = -1;
		if (!known && size < LZ_MAX_DICT) {
			/* lengths stop..16 are unknown: add them, longest first */
			for (j = LZ_B; j >= stop && size < LZ_MAX_DICT; j--) {
				struct ctxdict_key key = ctxdict_key(&dict[j], i);
				long rec = ctxdict_add(&dict[j], &key, i, y);
				if (rec < 0)
					goto oom;
				size++;
				cur[j] = rec;
				lz_link(dict, j, last, rec, s[i - 1]);
			}
			if (size >= LZ_MAX_DICT && j >= stop) {
				/* full in the middle of a step: from now on a context
				 * may lack its shorter suffix; find those lengths */
				for (unsigned g = 2; g <= LZ_B; g++) {
					for (size_t r = 0; r < dict[g].nrec && !gap[g]; r++) {
						struct ctxdict_key key = ctxdict_key(&dict[g - 1], dict[g].rec[r].end);
						if (ctxdict_find(&dict[g - 1], &key) < 0)
							gap[g] = 1;
					}
				}
			}
		}
		pred_tally_add(t, maxc != 0 && pred == y);
		memcpy(last, cur, sizeof last);
	}
	goto out;
oom:
	rc = err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
out:
	for (unsigned j = 1; j < nd; j++)
		ctxdict_free(&dict[j]);
	bigmem_free(buf);
	return rc;
}

int est_lz78y(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	struct pred_tally t = { 0, 0, 0 };
	int rc;

	est_result_init(r, "lz78y", "LZ78Y Prediction");
	{
		int bad = pred_check_input("LZ78Y", s, n, k, e);
		if (bad < 0)
			return bad;
	}
	/* NIST's tool needs B + 2 samples (its binary path asserts B + 3). */
	if (n < (k == 2 ? LZ_B + 3u : LZ_B + 2u)) {
		est_not_applicable(r, "needs at least %u samples, got %zu",
				   k == 2 ? LZ_B + 3u : LZ_B + 2u, n);
		return 0;
	}
	if (k == 2)
		return est_run_packed(est_lz78y_bits, "LZ78Y", s, n, r, e);
	rc = lz_literal(s, n, k, &t, e);
	if (rc < 0)
		return rc;
	pred_finish(r, t.C, (long long)n - LZ_B - 1, t.max_run, k);
	return 0;
}

int est_lz78y_bits(const uint64_t *w, size_t n, struct est_result *r, struct err *e)
{
	struct pred_tally t = { 0, 0, 0 };
	int rc;

	est_result_init(r, "lz78y", "LZ78Y Prediction");
	/* NIST's binary path asserts B + 3 samples. */
	if (n < LZ_B + 3u) {
		est_not_applicable(r, "needs at least %u samples, got %zu", LZ_B + 3u, n);
		return 0;
	}
	rc = lz78y_binary_tally(w, n, LZ_MAX_DICT, &t, NULL, e);
	if (rc < 0)
		return rc;
	pred_finish(r, t.C, (long long)n - LZ_B - 1, t.max_run, 2);
	return 0;
}
