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

#include "estimators/predictor.h"

#include <stdlib.h>
#include <string.h>

/* 90B 6.3.10 step 1: B = 16, maxDictionarySize = 65,536. */
#define LZ_B 16
#define LZ_MAX_DICT 65536
/* bitstring contexts up to this length keep 32-bit counts */
#define LZ_WIDE 10

/* Bitstrings: context c of length j (the newest bit in bit 0) has its
 * counts in tab[j][c], c0 in the low and c1 in the high 32 bits (NIST's
 * binary path: prediction 1 unless c0 > c1).  Once the dictionary is full
 * nothing is added any more and the step needs no branch.  With pack, the
 * long contexts then keep 16-bit counts; returns 1 (nothing else done) if
 * one would overflow, and the caller runs again without pack. */
/* One context's 32+32-bit follower counts: offer its prediction (the more
 * frequent follower, 1 on a tie) if its count beats *maxc (longer contexts
 * come first, so ties keep the longer one), then count the follower
 * (inc = 1 << 32y) if the context has been seen before. */
static inline void lz_count_wide(uint64_t *c, uint64_t inc, uint32_t *maxc, uint32_t *pred)
{
	uint64_t v = *c;
	uint32_t c0 = (uint32_t)v, c1 = (uint32_t)(v >> 32);
	uint32_t cnt = c0 > c1 ? c0 : c1;
	uint32_t gt = cnt > *maxc;
	*maxc = gt ? cnt : *maxc;
	*pred = gt ? (uint32_t)(c1 >= c0) : *pred;
	*c = v + (cnt ? inc : 0);
}

static int lz_binary(const uint8_t *s, size_t n, int pack, struct pred_tally *t, struct err *e)
{
	uint64_t *tab[LZ_B + 1];
	uint64_t *mem;
	size_t total = 0, i;
	long dict = 0;
	uint32_t h = 0;   /* bit m = s[i-1-m] */

	for (unsigned j = 1; j <= LZ_B; j++)
		total += (size_t)1 << j;
	mem = calloc(total, sizeof *mem);
	if (!mem)
		return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
	total = 0;
	for (unsigned j = 1; j <= LZ_B; j++) {
		tab[j] = mem + total;
		total += (size_t)1 << j;
	}
	/* 90B 6.3.10 step 2: the contexts s[B-j..B-1] followed by s[B] */
	for (unsigned j = 1; j <= LZ_B; j++)
		h |= (uint32_t)(s[LZ_B - j] & 1u) << (j - 1);
	for (unsigned j = 1; j <= LZ_B; j++) {
		tab[j][h & ((1u << j) - 1)] = (uint64_t)1 << (32 * (s[LZ_B] & 1u));
		dict++;
	}
	h = (h << 1) | (s[LZ_B] & 1u);
	for (i = LZ_B + 1; i < n && dict < LZ_MAX_DICT; i++) {
		unsigned y = s[i] & 1u, pred = 0;
		uint32_t maxc = 0;
		for (unsigned j = LZ_B; j > 0; j--) {
			uint64_t *c = tab[j] + (h & ((1u << j) - 1));
			uint32_t c0 = (uint32_t)*c, c1 = (uint32_t)(*c >> 32);
			uint32_t cnt = c0 > c1 ? c0 : c1;
			if (cnt) {
				if (cnt > maxc) {
					maxc = cnt;
					pred = c0 > c1 ? 0u : 1u;
				}
				*c += (uint64_t)1 << (32 * y);
			} else if (dict < LZ_MAX_DICT) {
				*c = (uint64_t)1 << (32 * y);
				dict++;
			}
		}
		pred_tally_add(t, maxc != 0 && pred == y);
		h = (h << 1) | y;
	}
	/* Once the dictionary is full nothing is added any more.  The long
	 * contexts (j > LZ_WIDE) are many and seldom seen: their counts are
	 * packed in 16 + 16 bits, halving the memory the step touches.  A count
	 * that would pass 65535 makes the caller run again without packing. */
	if (pack) {
		for (unsigned j = LZ_WIDE + 1; j <= LZ_B && pack; j++)
			for (size_t c = 0; c < ((size_t)1 << j); c++)
				if ((tab[j][c] & 0xffff0000ffff0000u) != 0)
					pack = 0;
	}
	if (pack && i < n) {
		uint32_t *pk[LZ_B + 1], *pmem;
		uint32_t over = 0;
		total = 0;
		for (unsigned j = LZ_WIDE + 1; j <= LZ_B; j++)
			total += (size_t)1 << j;
		pmem = malloc(total * sizeof *pmem);
		if (!pmem) {
			free(mem);
			return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
		}
		total = 0;
		for (unsigned j = LZ_WIDE + 1; j <= LZ_B; j++) {
			pk[j] = pmem + total;
			for (size_t c = 0; c < ((size_t)1 << j); c++)
				pk[j][c] = (uint32_t)tab[j][c] | (uint32_t)(tab[j][c] >> 16);
			total += (size_t)1 << j;
		}
		for (; i < n && !over; i++) {
			unsigned y = s[i] & 1u;
			uint64_t inc = (uint64_t)1 << (32 * y);
			uint32_t inc16 = (uint32_t)1 << (16 * y);
			uint32_t maxc = 0, pred = 0;
			for (unsigned j = LZ_B; j > LZ_WIDE; j--) {
				uint32_t *c = pk[j] + (h & ((1u << j) - 1));
				uint32_t v = *c, c0 = v & 0xffffu, c1 = v >> 16;
				uint32_t cnt = c0 > c1 ? c0 : c1;
				uint32_t gt = cnt > maxc;
				maxc = gt ? cnt : maxc;
				pred = gt ? (uint32_t)(c1 >= c0) : pred;
				over |= (cnt != 0) & (((v >> (16 * y)) & 0xffffu) == 0xffffu);
				*c = v + (cnt ? inc16 : 0);
			}
			for (unsigned j = LZ_WIDE; j > 0; j--) {
				lz_count_wide(tab[j] + (h & ((1u << j) - 1)), inc, &maxc, &pred);
			}
			pred_tally_add(t, maxc != 0 && pred == y);
			h = (h << 1) | y;
		}
		free(pmem);
		if (over) {
			free(mem);
			return 1;
		}
	}
	for (; i < n; i++) {
		unsigned y = s[i] & 1u;
		uint64_t inc = (uint64_t)1 << (32 * y);
		uint32_t maxc = 0, pred = 0;
		for (unsigned j = LZ_B; j > 0; j--) {
			lz_count_wide(tab[j] + (h & ((1u << j) - 1)), inc, &maxc, &pred);
		}
		pred_tally_add(t, maxc != 0 && pred == y);
		h = (h << 1) | y;
	}
	free(mem);
	return 0;
}

/* Records in length j-1's context (last step) that its follower s[i-1]
 * made this step's length-j context rec. */
static void lz_link(struct pred_dict *dict, unsigned j, const long *last, long rec, uint8_t prev)
{
	struct pred_ctx *up;
	if (j < 2 || last[j - 1] < 0)
		return;
	up = &dict[j - 1].rec[last[j - 1]];
	if (!up->link && up->first_sym == prev)
		up->link = (uint32_t)rec + 1;
}

static int lz_literal(const uint8_t *s, size_t n, unsigned k, struct pred_tally *t, struct err *e)
{
	struct pred_dict dict[LZ_B + 1];
	uint8_t *buf = malloc(n + PRED_CTX_PAD);
	long size = 0;
	unsigned nd = 1;
	int rc = 0;
	unsigned char gap[LZ_B + 1] = { 0 };
	long last[LZ_B + 1], cur[LZ_B + 1];   /* each length's record, last / this step */
	size_t i;

	if (!buf)
		return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
	memset(buf, 0, PRED_CTX_PAD);
	memcpy(buf + PRED_CTX_PAD, s, n);
	for (; nd <= LZ_B; nd++) {
		if (pred_dict_init(&dict[nd], buf, nd, k) < 0)
			goto oom;
	}
	last[0] = cur[0] = -1;
	for (unsigned j = 1; j <= LZ_B; j++) {
		struct pred_key key = pred_dict_key(&dict[j], LZ_B);
		if (pred_dict_add(&dict[j], &key, LZ_B, s[LZ_B]) < 0)
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
		for (; j <= LZ_B && (known || gap[j]); j++) {
			struct pred_dict *dc = &dict[j];
			const struct pred_ctx *up = last[j - 1] >= 0 ? &dict[j - 1].rec[last[j - 1]] : NULL;
			long rec;
			if (up && up->link && up->first_sym == s[i - 1]) {
				rec = (long)up->link - 1;
			} else {
				struct pred_key key = pred_dict_key(dc, i);
				rec = pred_dict_find(dc, &key);
			}
			known = rec >= 0;
			cur[j] = rec;
			if (known) {
				const struct pred_ctx *c = &dc->rec[rec];
				if (c->best >= maxc) {
					maxc = c->best;
					pred = c->best_sym;
				}
				if (pred_dict_count(dc, rec, y, 1) < 0)
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
				struct pred_key key = pred_dict_key(&dict[j], i);
				long rec = pred_dict_add(&dict[j], &key, i, y);
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
						struct pred_key key = pred_dict_key(&dict[g - 1], dict[g].rec[r].end);
						if (pred_dict_find(&dict[g - 1], &key) < 0)
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
		pred_dict_free(&dict[j]);
	free(buf);
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
	if (k == 2) {
		rc = lz_binary(s, n, 1, &t, e);
		if (rc == 1) {   /* a packed count overflowed: again, all wide */
			memset(&t, 0, sizeof t);
			rc = lz_binary(s, n, 0, &t, e);
		}
	} else {
		rc = lz_literal(s, n, k, &t, e);
	}
	if (rc < 0)
		return rc;
	pred_finish(r, t.C, (long long)n - LZ_B - 1, t.max_run, k);
	return 0;
}
