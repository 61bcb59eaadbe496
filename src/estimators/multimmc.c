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

#include "estimators/predictor.h"

#include <stdlib.h>
#include <string.h>

/* 90B 6.3.9 step 1: D = 16. */
#define MMC_D 16
/* NIST's MAX_ENTRIES: (context, follower) pairs kept per depth. */
#define MMC_MAX_ENTRIES 100000

static int mmc_binary(const uint8_t *s, size_t n, struct pred_board *b, struct err *e)
{
	uint32_t *tab[MMC_D];
	uint32_t *mem;
	long entries[MMC_D];
	size_t total = 0;
	uint32_t h = 0;   /* bit m = s[i-1-m] */

	for (unsigned d = 0; d < MMC_D; d++)
		total += (size_t)2 << (d + 1);
	mem = calloc(total, sizeof *mem);
	if (!mem)
		return err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
	total = 0;
	for (unsigned d = 0; d < MMC_D; d++) {
		tab[d] = mem + total;
		total += (size_t)2 << (d + 1);
		entries[d] = 0;
	}
	/* 90B 6.3.9 step 4 for the first pair of each depth */
	for (unsigned d = 0; d < MMC_D && d + 1 < n - 1; d++) {
		uint32_t ctx = 0;
		for (unsigned m = 0; m <= d; m++)
			ctx |= (uint32_t)(s[d - m] & 1u) << m;
		tab[d][2 * ctx + (s[d + 1] & 1u)] = 1;
		entries[d] = 1;
	}
	h = s[0] & 1u;
	for (size_t i = 2; i < n; i++) {
		unsigned y = s[i] & 1u;
		uint32_t predicted = 0, correct = 0;
		int found = 0;
		h = (h << 1) | (s[i - 1] & 1u);
		for (unsigned d = 0; d < MMC_D && d + 2 <= i; d++) {
			uint32_t *c = tab[d] + 2 * (h & ((2u << d) - 1));
			if (d == 0 || found)
				found = (c[0] | c[1]) != 0;
			if (found) {
				unsigned pred = c[0] > c[1] ? 0u : 1u;
				predicted |= 1u << d;
				if (pred == y)
					correct |= 1u << d;
				if (c[y])
					c[y]++;
				else if (entries[d] < MMC_MAX_ENTRIES) {
					c[y] = 1;
					entries[d]++;
				}
			} else if (entries[d] < MMC_MAX_ENTRIES) {
				c[y] = 1;   /* as NIST's binary path: the pair is new here */
				entries[d]++;
			}
		}
		pred_board_step(b, predicted, correct);
	}
	free(mem);
	return 0;
}

static int mmc_literal(const uint8_t *s, size_t n, struct pred_board *b, struct err *e)
{
	struct pred_dict dict[MMC_D];
	long entries[MMC_D];
	uint8_t *buf = malloc(n + PRED_CTX_PAD);
	int rc = 0;
	unsigned nd = 0;

	if (!buf)
		return err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
	memset(buf, 0, PRED_CTX_PAD);
	memcpy(buf + PRED_CTX_PAD, s, n);
	for (; nd < MMC_D; nd++) {
		if (pred_dict_init(&dict[nd], buf, nd + 1) < 0) {
			rc = err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
			goto out;
		}
		entries[nd] = 0;
	}
	for (unsigned d = 0; d < MMC_D && d + 1 < n - 1; d++) {
		struct pred_key k = pred_dict_key(&dict[d], d + 1);
		if (pred_dict_add(&dict[d], &k, d + 1, s[d + 1]) < 0)
			goto oom;
		entries[d] = 1;
	}
	for (size_t i = 2; i < n; i++) {
		uint8_t y = s[i];
		uint32_t predicted = 0, correct = 0;
		int found = 0;
		for (unsigned d = 0; d < MMC_D && d + 2 <= i; d++) {
			struct pred_dict *dc = &dict[d];
			long rec = -1;
			if (d == 0 || found) {
				struct pred_key k = pred_dict_key(dc, i);
				rec = pred_dict_find(dc, &k);
				found = rec >= 0;
				if (!found) {
					if (entries[d] < MMC_MAX_ENTRIES) {
						if (pred_dict_add(dc, &k, i, y) < 0)
							goto oom;
						entries[d]++;
					}
					continue;
				}
			}
			if (found) {
				int added;
				predicted |= 1u << d;
				if (dc->rec[rec].best_sym == y)
					correct |= 1u << d;
				added = pred_dict_count(dc, rec, y, entries[d] < MMC_MAX_ENTRIES);
				if (added < 0)
					goto oom;
				entries[d] += added;
			} else if (entries[d] < MMC_MAX_ENTRIES) {
				/* a shorter context was unknown: NIST enters (x, y) with
				 * map::operator[], which counts it if x is already known
				 * (possible when a shorter depth was full), and counts an
				 * entry either way */
				struct pred_key k = pred_dict_key(dc, i);
				rec = pred_dict_find(dc, &k);
				if (rec >= 0) {
					if (pred_dict_count(dc, rec, y, 1) < 0)
						goto oom;
				} else if (pred_dict_add(dc, &k, i, y) < 0) {
					goto oom;
				}
				entries[d]++;
			}
		}
		pred_board_step(b, predicted, correct);
	}
	goto out;
oom:
	rc = err_set(e, ERR_NOMEM, "MultiMMC: out of memory");
out:
	for (unsigned d = 0; d < nd; d++)
		pred_dict_free(&dict[d]);
	free(buf);
	return rc;
}

int est_multimmc(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	struct pred_board b;
	int rc;

	est_result_init(r, "multimmc", "MultiMMC Prediction");
	if (k < 2 || k > 256)
		return err_set(e, ERR_USAGE, "MultiMMC: alphabet size %u outside 2..256", k);
	/* NIST's tool needs 3 samples (and asserts 4 on its binary path). */
	if (n < (k == 2 ? 4u : 3u)) {
		est_not_applicable(r, "needs at least %u samples, got %zu", k == 2 ? 4u : 3u, n);
		return 0;
	}
	pred_board_init(&b);
	rc = k == 2 ? mmc_binary(s, n, &b, e) : mmc_literal(s, n, &b, e);
	if (rc < 0)
		return rc;
	pred_finish(r, b.t.C, (long long)n - 2, b.t.max_run, k);
	return 0;
}
