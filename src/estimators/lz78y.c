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

static int lz_binary(const uint8_t *s, size_t n, struct pred_tally *t, struct err *e)
{
	uint32_t *tab[LZ_B + 1];
	uint32_t *mem;
	size_t total = 0;
	long dict = 0;
	uint32_t h = 0;   /* bit m = s[i-1-m] */

	for (unsigned j = 1; j <= LZ_B; j++)
		total += (size_t)2 << j;
	mem = calloc(total, sizeof *mem);
	if (!mem)
		return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
	total = 0;
	for (unsigned j = 1; j <= LZ_B; j++) {
		tab[j] = mem + total;
		total += (size_t)2 << j;
	}
	/* 90B 6.3.10 step 2: the contexts s[B-j..B-1] followed by s[B] */
	for (unsigned j = 1; j <= LZ_B; j++)
		h |= (uint32_t)(s[LZ_B - j] & 1u) << (j - 1);
	for (unsigned j = 1; j <= LZ_B; j++) {
		tab[j][2 * (h & ((1u << j) - 1)) + (s[LZ_B] & 1u)] = 1;
		dict++;
	}
	h = (h << 1) | (s[LZ_B] & 1u);
	for (size_t i = LZ_B + 1; i < n; i++) {
		unsigned y = s[i] & 1u, pred = 0;
		uint32_t maxc = 0;
		for (unsigned j = LZ_B; j > 0; j--) {
			uint32_t *c = tab[j] + 2 * (h & ((1u << j) - 1));
			uint32_t cnt = c[0] > c[1] ? c[0] : c[1];
			if (cnt) {
				if (cnt > maxc) {
					maxc = cnt;
					pred = c[0] > c[1] ? 0u : 1u;
				}
				c[y]++;
			} else if (dict < LZ_MAX_DICT) {
				c[y] = 1;
				dict++;
			}
		}
		pred_tally_add(t, maxc != 0 && pred == y);
		h = (h << 1) | y;
	}
	free(mem);
	return 0;
}

static int lz_literal(const uint8_t *s, size_t n, struct pred_tally *t, struct err *e)
{
	struct pred_dict dict[LZ_B + 1];
	uint8_t *buf = malloc(n + PRED_CTX_PAD);
	long size = 0;
	unsigned nd = 1;
	int rc = 0;

	if (!buf)
		return err_set(e, ERR_NOMEM, "LZ78Y: out of memory");
	memset(buf, 0, PRED_CTX_PAD);
	memcpy(buf + PRED_CTX_PAD, s, n);
	for (; nd <= LZ_B; nd++) {
		if (pred_dict_init(&dict[nd], buf, nd) < 0)
			goto oom;
	}
	for (unsigned j = 1; j <= LZ_B; j++) {
		struct pred_key k = pred_dict_key(&dict[j], LZ_B);
		if (pred_dict_add(&dict[j], &k, LZ_B, s[LZ_B]) < 0)
			goto oom;
		size++;
	}
	for (size_t i = LZ_B + 1; i < n; i++) {
		uint8_t y = s[i], pred = 0;
		uint32_t maxc = 0;
		for (unsigned j = LZ_B; j > 0; j--) {
			struct pred_key k = pred_dict_key(&dict[j], i);
			long rec = pred_dict_find(&dict[j], &k);
			if (rec >= 0) {
				const struct pred_ctx *c = &dict[j].rec[rec];
				if (c->best > maxc) {
					maxc = c->best;
					pred = c->best_sym;
				}
				if (pred_dict_count(&dict[j], rec, y, 1) < 0)
					goto oom;
			} else if (size < LZ_MAX_DICT) {
				if (pred_dict_add(&dict[j], &k, i, y) < 0)
					goto oom;
				size++;
			}
		}
		pred_tally_add(t, maxc != 0 && pred == y);
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
	if (k < 2 || k > 256)
		return err_set(e, ERR_USAGE, "LZ78Y: alphabet size %u outside 2..256", k);
	/* NIST's tool needs B + 2 samples (its binary path asserts B + 3). */
	if (n < (k == 2 ? LZ_B + 3u : LZ_B + 2u)) {
		est_not_applicable(r, "needs at least %u samples, got %zu",
				   k == 2 ? LZ_B + 3u : LZ_B + 2u, n);
		return 0;
	}
	rc = k == 2 ? lz_binary(s, n, &t, e) : lz_literal(s, n, &t, e);
	if (rc < 0)
		return rc;
	pred_finish(r, t.C, (long long)n - LZ_B - 1, t.max_run, k);
	return 0;
}
