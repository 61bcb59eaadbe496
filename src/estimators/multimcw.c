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
 * count wins, ties go to the latest last position (and then to the larger
 * symbol), starting from (max - 1, position of the leaving sample). */
static void mcw_rescan(struct mcw_win *m, unsigned k, long leaving)
{
	long best = m->max, bpos = leaving;
	for (unsigned s = 0; s < k; s++) {
		if (best < m->cnt[s] || (best == m->cnt[s] && bpos <= m->pos[s])) {
			best = m->cnt[s];
			m->freq = s;
			bpos = m->pos[s];
		}
	}
	m->max = best;
}

int est_multimcw(const uint8_t *s, size_t n, unsigned k, struct est_result *r, struct err *e)
{
	struct mcw_win win[MCW_NWIN];
	struct pred_board b;
	long *mem;
	size_t per;
	long len = (long)n;

	est_result_init(r, "multimcw", "MultiMCW Prediction");
	if (k < 2 || k > 256)
		return err_set(e, ERR_USAGE, "MultiMCW: alphabet size %u outside 2..256", k);
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

	pred_board_init(&b);
	for (long i = mcw_w[0]; i < len; i++) {
		unsigned x = s[i];
		uint32_t correct = 0;

		/* 90B 6.3.7 steps 3b-3d: the winner's prediction is tallied,
		 * then every window whose prediction was right scores. */
		for (int j = 0; j < MCW_NWIN; j++)
			if (i >= win[j].w && win[j].freq == x)
				correct |= 1u << j;
		pred_board_step(&b, ~(uint32_t)0, correct);

		/* 90B 6.3.7 step 3e: slide the windows. */
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
					/* one symbol alone at the top: the rescan would pick it */
					unsigned f = m->freq;
					if (m->cnt[f] < m->max)
						f = x;   /* only x can have gained */
					m->freq = f;
					m->max = m->cnt[f];
				} else {
					mcw_rescan(m, k, i - m->w);
				}
			}
		}
	}
	free(mem);
	pred_finish(r, b.t.C, len - mcw_w[0], b.t.max_run, k);
	return 0;
}
