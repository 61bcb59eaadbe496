/* SPDX-License-Identifier: GPL-3.0-or-later */
/* multimmc_literal.c - SP 800-90B 6.3.9 MultiMMC on alphabets of more than
 * two symbols (multimmc.c has the estimator, the bitstring path and NIST's
 * rules it follows): the 16 depths' hashed dictionaries (ctxdict.c), one
 * depth after the other over segments of the input. */
#include "config.h"

#include "bigmem.h"

#include "estimators/ctxdict.h"
#include "estimators/estimators.h"
#include "estimators/multimmc.h"
#include "estimators/predictor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	/* a full hashed depth, once it has looked up as many contexts as it
	 * holds (mmc_present_build): bit (hash >> (64 - MMC_PRESENT_BITS)) set
	 * for each context it knows */
	uint64_t *present;
	long full_lookups;  /* look-ups since it was full */
	/* a full direct depth (mmc_full_direct), by context: */
	uint32_t *known;   /* 0 unknown, else its prediction << 20 | record + 1 */
	uint64_t *follow;  /* bit y % 64 set for each follower y it has */
};

/* 0 makes full depths take mmc_depth's own path, with no filter of their
 * contexts (tests) */
static int mmc_fast_full = 1;

int mmc_literal_fast(int enable)
{
	__atomic_store_n(&mmc_fast_full, enable, __ATOMIC_RELAXED);
	return enable;
}

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

/* The filter of a full hashed depth's contexts: 2^21 bits (256 KiB, within
 * L2) for at most 100,000 contexts, so ~5% of the contexts it does not know
 * pass it. */
#define MMC_PRESENT_BITS 21

/* Builds it: -1 when out of memory.  A full depth enters no context again,
 * so the filter holds for the rest of the input.  On 10^6 random bytes
 * depth 2 looks up ~78% of its steps once full and finds almost none; a
 * look-up read the record of the depth below (its link) and probed the
 * table, ~25 ns, a test of the filter ~2. */
static int mmc_present_build(const struct ctxdict *dc, struct mmc_depth_state *ds)
{
	ds->present = bigmem_calloc(((size_t)1 << MMC_PRESENT_BITS) / 64, sizeof *ds->present);
	if (!ds->present)
		return -1;
	for (size_t r = 0; r < dc->nrec; r++) {
		const uint64_t b = ctxdict_key(dc, dc->rec[r].end).hash >> (64 - MMC_PRESENT_BITS);
		ds->present[b / 64] |= (uint64_t)1 << (b % 64);
	}
	return 0;
}

/* Whether the context of this hash may be known (present built). */
static inline int mmc_may_know(const struct mmc_depth_state *ds, uint64_t hash)
{
	const uint64_t b = hash >> (64 - MMC_PRESENT_BITS);
	return (int)(ds->present[b / 64] >> (b % 64) & 1u);
}

/* Whether depth d (> 0) is full and its contexts are indexed directly
 * (two 8-bit samples: depth 1 of 8-bit data) with their followers hashed:
 * then mmc_full_direct runs its steps. */
static int mmc_is_full_direct(const struct ctxdict *dc, unsigned d, long entries)
{
	return d > 0 && entries >= MMC_MAX_ENTRIES && dc->direct_bits && !dc->dense &&
	       __atomic_load_n(&mmc_fast_full, __ATOMIC_RELAXED);
}

struct mmc_full_fill {
	const struct ctxdict *dc;
	struct mmc_depth_state *ds;
};

/* One entry (record rec, follower y) into the tables of mmc_full_build. */
static void mmc_full_add(void *ctx, size_t rec, uint8_t y)
{
	const struct mmc_full_fill *f = ctx;
	const struct ctxdict_rec *c = &f->dc->rec[rec];
	const size_t x = (size_t)ctxdict_key(f->dc, c->end).hash;

	f->ds->known[x] = (uint32_t)c->best_sym << CTXDICT_REC_BITS | (uint32_t)(rec + 1);
	f->ds->follow[x] |= (uint64_t)1 << (y % 64);
}

/* A full direct dictionary's contexts, for mmc_full_direct: which are
 * known, with their record and prediction, and a filter of their
 * followers (a full depth enters no pair again, so these hold for the rest
 * of the input but for the predictions, which the step that counts keeps
 * up to date).  -1 when out of memory. */
static int mmc_full_build(const struct ctxdict *dc, struct mmc_depth_state *ds)
{
	const size_t nctx = dc->smask + 1;
	struct mmc_full_fill f = { dc, ds };

	ds->known = bigmem_calloc(nctx, sizeof *ds->known);
	ds->follow = bigmem_calloc(nctx, sizeof *ds->follow);
	if (!ds->known || !ds->follow)
		return -1;
	ctxdict_each_pair(dc, mmc_full_add, &f);
	return 0;
}

/* mmc_depth's steps [i, b) of a full depth whose contexts are indexed
 * directly (mmc_is_full_direct): the same states, records and bits from
 * two tables by context (768 KiB for depth 1 of 8-bit data, within L2)
 * instead of the records (2.4 MB with the followers' table: two cache
 * misses a step, ~40 ns, on 10^6 random bytes); the record is visited only
 * where the follower may be one of the context's (a few % of the steps),
 * and no link is kept (the direct index is as quick as one). */
static void mmc_full_direct(const uint8_t *s, size_t a, size_t i, size_t b, struct ctxdict *dc,
			    const struct mmc_pass *below, size_t full_below,
			    const struct mmc_depth_state *ds, struct mmc_pass *me, uint64_t *corr,
			    uint64_t *pred)
{
	for (; i < b; i++) {
		const uint8_t y = s[i];
		const unsigned sb = below->state[i - below->base];
		long rec = -1;
		unsigned st;

		if (sb & MMC_FOUND) {
			const size_t x = (size_t)ctxdict_key(dc, i).hash;
			const uint32_t kn = ds->known[x];
			if (kn) {
				const size_t w = (i - a) / 64;
				const uint64_t bit = (uint64_t)1 << ((i - a) % 64);
				rec = (long)(kn & CTXDICT_REC_MAX) - 1;
				st = MMC_FOUND;
				pred[w] |= bit;
				corr[w] |= (kn >> CTXDICT_REC_BITS) == y ? bit : 0;
				if (ds->follow[x] >> (y % 64) & 1u) {
					/* counts (c, y) when it is an entry; adds nothing */
					(void)ctxdict_count(dc, rec, y, 0);
					ds->known[x] = (uint32_t)dc->rec[rec].best_sym << CTXDICT_REC_BITS |
						       (uint32_t)(rec + 1);
				}
			} else {
				st = MMC_ABSENT;
			}
		} else {
			/* as mmc_depth: new for sure while the depth below had room */
			st = i < full_below && (sb & MMC_ABSENT) ? MMC_ABSENT : 0;
		}
		me->state[i - me->base] = (uint8_t)st;
		me->rec[i - me->base] = (int32_t)rec;
	}
}

/* Bits [lo, hi) of a bitmap set. */
static void mmc_set_bits(uint64_t *w, size_t lo, size_t hi)
{
	for (; lo < hi && lo % 64; lo++)
		w[lo / 64] |= (uint64_t)1 << (lo % 64);
	for (; lo + 64 <= hi; lo += 64)
		w[lo / 64] = ~(uint64_t)0;
	for (; lo < hi; lo++)
		w[lo / 64] |= (uint64_t)1 << (lo % 64);
}

/* Steps from i on (before b) of a depth d inside a run of one value y
 * that fills its context (y, d + 1 times) and goes on: each such step
 * finds that context (the depth below finding its own, as the step's path
 * asks), predicts the context's prediction and counts y after it.  Where
 * y is the prediction already its count only grows, so it stays the
 * prediction and nothing but that count changes over the run: the steps
 * are taken at once.  A source stuck at one value (10M samples of 0xff)
 * looked up all 16 depths at every step.  Returns the first step not
 * taken (i when none is). */
static size_t mmc_literal_run(const uint8_t *s, size_t a, size_t i, size_t b, unsigned d,
			   struct ctxdict *down, const struct mmc_pass *below, struct ctxdict *dc,
			   struct mmc_pass *me, struct mmc_depth_state *ds, long entries,
			   uint64_t *corr, uint64_t *pred)
{
	const uint8_t y = s[i];
	struct ctxdict_key key;
	long rec, upr;
	size_t e;

	if (est_byte_run(s, i + 1, i - d - 1, y) != d + 2)
		return i;
	key = ctxdict_key(dc, i);
	rec = ctxdict_find(dc, &key);
	if (rec < 0 || dc->rec[rec].best_sym != y)
		return i;
	/* the run, as far as the depth below finds its context: a scan as
	 * long as the steps it takes (a scan to the run's end, cut after,
	 * was repeated at each step where the depth below did not find it) */
	if (d == 0)
		e = i + est_byte_run(s, b, i, y);
	else
		for (e = i; e < b && s[e] == y && (below->state[e - below->base] & MMC_FOUND); e++)
			;
	if (e == i)
		return i;
	/* (known, the context passes a full depth's filter, mmc_may_know) */
	ctxdict_count_more(dc, rec, y, (uint32_t)(e - i));
	mmc_set_bits(pred, i - a, e - a);
	mmc_set_bits(corr, i - a, e - a);
	memset(me->state + (i - me->base), MMC_FOUND, e - i);
	for (size_t j = i; j < e; j++)
		me->rec[j - me->base] = (int32_t)rec;
	/* the link the last step would leave (a cache: any would do) */
	upr = d > 0 ? below->rec[e - 2 - below->base] : -1;
	if (upr >= 0) {
		down->rec[upr].link = (uint32_t)rec + 1;
		down->rec[upr].link_sym = y;
	}
	/* as many look-ups as mmc_depth's path counts towards the filter */
	if (entries >= MMC_MAX_ENTRIES && !dc->direct_bits)
		ds->full_lookups += (long)(e - i);
	return e;
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
	const int runs = pred_literal_runs_on();

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
		if (mmc_is_full_direct(dc, d, entries)) {
			if (!ds->known && mmc_full_build(dc, ds) < 0)
				return -1;
			mmc_full_direct(s, a, i, b, dc, below, bs->full_step, ds, me, corr, pred);
			break;
		}
		if (d > 0 && entries >= MMC_MAX_ENTRIES && i >= skip_at) {
			size_t j = mmc_skip_unfound(below, bs->full_step, me, i, b);
			if (j == b)
				break;
			/* where the depth below finds most contexts (depth 2
			 * of random bytes) the test fails at once: it waits */
			skip_at = j == i ? i + MMC_SKIP_RETRY : j;
			i = j;
		}
		if (s[i] == s[i - 1] && runs) {
			const size_t j = mmc_literal_run(s, a, i, b, d, down, below, dc, me, ds, entries,
						      corr, pred);
			if (j > i) {
				i = j - 1;
				continue;
			}
		}
		const uint8_t y = s[i];
		/* the context at depth d is depth d-1's last context followed
		 * by s[i-1]: its link, when it has one, names the record */
		long upr = d > 0 ? below->rec[i - 1 - below->base] : -1;
		struct ctxdict_rec *up = NULL;
		long via = -1, rec;
		unsigned st;

		if (d > 0 && ds->present && (below->state[i - below->base] & MMC_FOUND) &&
		    !mmc_may_know(ds, ctxdict_key(dc, i).hash)) {
			/* full, and surely without this context: as a look-up
			 * that finds nothing, without the link's record */
			st = MMC_ABSENT;
			rec = -1;
		} else if (d == 0 || (below->state[i - below->base] & MMC_FOUND)) {
			struct ctxdict_key key = { 0, 0, 0 };
			if (entries >= MMC_MAX_ENTRIES && !dc->direct_bits &&
			    ++ds->full_lookups > (long)dc->nrec && !ds->present &&
			    __atomic_load_n(&mmc_fast_full, __ATOMIC_RELAXED) &&
			    mmc_present_build(dc, ds) < 0)
				return -1;
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

int mmc_literal(const uint8_t *s, size_t n, unsigned k, struct pred_sched *b, struct err *e)
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
	for (unsigned d = 0; d < MMC_D; d++) {
		ctxdict_free(&dict[d]);
		bigmem_free(ds[d].known);
		bigmem_free(ds[d].present);
		bigmem_free(ds[d].follow);
	}
	for (int p = 0; p < 2; p++) {
		bigmem_free(pass[p].state);
		bigmem_free(pass[p].rec);
	}
	free(corr);
	free(pred);
	bigmem_free(buf);
	return rc;
}
