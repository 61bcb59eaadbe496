/* bzsize.c - the exact size of bzip2's output without running its block
 * sorter.  90B 5.1.11 (as NIST's tool implements it) scores a permutation by
 * the length of BZ2_bzBuffToBuffCompress(level 5) output; on the decimal text
 * of 1-bit data libbz2's suffix sorting costs ~0.5 s per call, which dominates
 * the IID track.  The size depends only on the Burrows-Wheeler transform of
 * each block, not on how it was sorted, so we sort with libdivsufsort and
 * replay bzip2 1.0.x's deterministic stages (RLE1 block filling, MTF/RLE2,
 * the four Huffman table refinement passes of sendMTFValues, selector MTF,
 * delta-coded tables) counting bits instead of writing them.
 *
 * Rotations are sorted as suffixes of the block followed by its first
 * BZ_WRAP bytes; when two neighbouring rotations agree on more than that
 * (periodic data) the function declines and the caller uses libbz2.  The
 * caller also cross-checks one result against libbz2 before trusting it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <divsufsort.h>

#include "iid/bzsize.h"

#define BZ_RUNA 0
#define BZ_RUNB 1
#define BZ_N_GROUPS 6
#define BZ_G_SIZE 50
#define BZ_N_ITERS 4
#define BZ_MAX_ALPHA_SIZE 258
#define BZ_LESSER_ICOST 0
#define BZ_GREATER_ICOST 15
#define BZ_MAX_CODE_LEN 17      /* what bzip2 1.0.x passes to hbMakeCodeLengths */
#define BZ_WRAP 4096            /* bytes of the block appended for rotation order */

struct iid_bzwork {
	size_t cap;                 /* block capacity */
	uint8_t *block;             /* block + BZ_WRAP wrap-around bytes */
	uint8_t *bwt;               /* the block's Burrows-Wheeler transform */
	saidx_t *sa;
	uint16_t *mtfv;
	struct iid_tokbwt *tok;     /* token sort for the decimal text (tokbwt.c) */
	int use_tok;
	uint16_t *hsym;             /* per group of 50 MTF values: distinct values */
	uint8_t *hcnt;              /* and their counts */
	uint32_t *goff;             /* group g's pairs are goff[g] .. goff[g+1]-1 */
};

struct iid_bzwork *iid_bzwork_new(int level)
{
	struct iid_bzwork *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->cap = (size_t)100000 * (size_t)level + 16;
	w->block = malloc(w->cap + BZ_WRAP);
	w->sa = malloc((w->cap + BZ_WRAP) * sizeof *w->sa);
	w->mtfv = malloc((w->cap + 2) * sizeof *w->mtfv);
	w->bwt = malloc(w->cap);
	w->tok = iid_tokbwt_new(w->cap);
	w->hsym = malloc((w->cap + 2) * sizeof *w->hsym);
	w->hcnt = malloc(w->cap + 2);
	w->goff = malloc(((w->cap + 2) / BZ_G_SIZE + 2) * sizeof *w->goff);
	if (!w->block || !w->sa || !w->mtfv || !w->bwt || !w->tok || !w->hsym || !w->hcnt ||
	    !w->goff) {
		iid_bzwork_free(w);
		return NULL;
	}
	w->use_tok = 1;
	return w;
}

void iid_bzwork_use_tokens(struct iid_bzwork *w, int on)
{
	w->use_tok = on;
}

void iid_bzwork_free(struct iid_bzwork *w)
{
	if (!w)
		return;
	free(w->block);
	free(w->sa);
	free(w->mtfv);
	free(w->bwt);
	free(w->hsym);
	free(w->hcnt);
	free(w->goff);
	iid_tokbwt_free(w->tok);
	free(w);
}

/* bzip2's huffman.c BZ2_hbMakeCodeLengths, reproduced for its tie-breaking */
#define WEIGHTOF(z) ((z) & 0xffffff00)
#define DEPTHOF(z) ((z) & 0x000000ff)
#define MYMAX(a, b) ((a) > (b) ? (a) : (b))
#define ADDWEIGHTS(a, b) ((WEIGHTOF(a) + WEIGHTOF(b)) | (1 + MYMAX(DEPTHOF(a), DEPTHOF(b))))

static void make_code_lengths(uint8_t *len, const int32_t *freq, int alpha, int max_len)
{
	int32_t heap[BZ_MAX_ALPHA_SIZE + 2], weight[BZ_MAX_ALPHA_SIZE * 2];
	int32_t parent[BZ_MAX_ALPHA_SIZE * 2];
	int n_nodes, n_heap, n1, n2, i, j, k, too_long;

	for (i = 0; i < alpha; i++)
		weight[i + 1] = (freq[i] == 0 ? 1 : freq[i]) << 8;
	for (;;) {
		n_nodes = alpha;
		n_heap = 0;
		heap[0] = 0;
		weight[0] = 0;
		parent[0] = -2;
		for (i = 1; i <= alpha; i++) {
			int zz, tmp;
			parent[i] = -1;
			heap[++n_heap] = i;
			zz = n_heap;
			tmp = heap[zz];
			while (weight[tmp] < weight[heap[zz >> 1]]) {
				heap[zz] = heap[zz >> 1];
				zz >>= 1;
			}
			heap[zz] = tmp;
		}
		while (n_heap > 1) {
			for (int pick = 0; pick < 2; pick++) {
				int zz = 1, yy, tmp;
				if (pick == 0)
					n1 = heap[1];
				else
					n2 = heap[1];
				heap[1] = heap[n_heap--];
				tmp = heap[zz];
				for (;;) {
					yy = zz << 1;
					if (yy > n_heap)
						break;
					if (yy < n_heap && weight[heap[yy + 1]] < weight[heap[yy]])
						yy++;
					if (weight[tmp] < weight[heap[yy]])
						break;
					heap[zz] = heap[yy];
					zz = yy;
				}
				heap[zz] = tmp;
			}
			n_nodes++;
			parent[n1] = parent[n2] = n_nodes;
			weight[n_nodes] = ADDWEIGHTS(weight[n1], weight[n2]);
			parent[n_nodes] = -1;
			heap[++n_heap] = n_nodes;
			{
				int zz = n_heap, tmp = heap[zz];
				while (weight[tmp] < weight[heap[zz >> 1]]) {
					heap[zz] = heap[zz >> 1];
					zz >>= 1;
				}
				heap[zz] = tmp;
			}
		}
		too_long = 0;
		for (i = 1; i <= alpha; i++) {
			j = 0;
			k = i;
			while (parent[k] >= 0) {
				k = parent[k];
				j++;
			}
			len[i - 1] = (uint8_t)j;
			if (j > max_len)
				too_long = 1;
		}
		if (!too_long)
			break;
		for (i = 1; i <= alpha; i++) {
			j = weight[i] >> 8;
			j = 1 + (j / 2);
			weight[i] = j << 8;
		}
	}
}

/* Bits of one compressed block (magic, CRC, randomised bit, origPtr, and
 * everything sendMTFValues writes).  Returns 0 and sets *bits, or -1 when
 * the rotation order cannot be established cheaply. */
static int block_bits(struct iid_bzwork *w, size_t n, const unsigned char *in_use,
		      uint64_t *bits)
{
	uint8_t *blk = w->block, *bwt = w->bwt;
	uint64_t ynib = 0;
	int nib;
	size_t nb = 0;
	saidx_t *sa = w->sa;
	uint16_t *mtfv = w->mtfv;
	int unseq[256], n_in_use = 0, alpha, eob, n_groups, n_selectors = 0, i, t;
	int32_t mtf_freq[BZ_MAX_ALPHA_SIZE] = { 0 };
	uint8_t yy[256], len[BZ_N_GROUPS][BZ_MAX_ALPHA_SIZE];
	int32_t rfreq[BZ_N_GROUPS][BZ_MAX_ALPHA_SIZE];
	uint8_t *selector;
	size_t wr = 0, zpend = 0, wrap = n < BZ_WRAP ? n : BZ_WRAP, prev = (size_t)-1;
	uint64_t b = 48 + 32 + 1 + 24;   /* block magic, CRC, randomised, origPtr */

	/* the transform: by tokens when the block is decimal text, else by
	 * sorting the suffixes of block + its first `wrap` bytes */
	if (w->use_tok && iid_tokbwt(blk, n, bwt, w->tok) == 0) {
		nb = n;
	} else {
		memcpy(blk + n, blk, wrap);
		if (divsufsort(blk, sa, (saidx_t)(n + wrap)) != 0)
			return -1;
		for (size_t s = 0; s < n + wrap; s++) {
			size_t p = (size_t)sa[s];
			if (p >= n)
				continue;
			/* two rotations that agree on `wrap` bytes may be misordered */
			if (prev != (size_t)-1 && blk[prev] == blk[p] &&
			    memcmp(blk + prev, blk + p, wrap) == 0)
				return -1;
			prev = p;
			bwt[nb++] = blk[p == 0 ? n - 1 : p - 1];
		}
	}

	for (i = 0; i < 256; i++)
		if (in_use[i])
			unseq[i] = n_in_use++;
	eob = n_in_use + 1;
	for (i = 0; i < n_in_use; i++)
		yy[i] = (uint8_t)i;

	/* MTF + zero-run coding over the BWT, in rotation order; with at most
	 * 16 symbols in use the list fits a 64-bit word */
	nib = n_in_use <= 16;
	for (i = n_in_use - 1; i >= 0; i--)
		ynib = ynib << 4 | (uint64_t)i;
	for (size_t s = 0; s < nb; s++) {
		uint8_t ll = (uint8_t)unseq[bwt[s]];
		if ((nib ? (uint8_t)(ynib & 15) : yy[0]) == ll) {
			zpend++;
		} else {
			if (zpend > 0) {
				zpend--;
				for (;;) {
					int sym = (zpend & 1) ? BZ_RUNB : BZ_RUNA;
					mtfv[wr++] = (uint16_t)sym;
					mtf_freq[sym]++;
					if (zpend < 2)
						break;
					zpend = (zpend - 2) / 2;
				}
				zpend = 0;
			}
			if (nib) {
				/* yy as 16 nibbles: find ll's nibble, move the ones
				 * before it up one */
				uint64_t v = ynib ^ (0x1111111111111111ULL * ll);
				uint64_t z = (v - 0x1111111111111111ULL) & ~v & 0x8888888888888888ULL;
				int j = __builtin_ctzll(z) >> 2;
				uint64_t below = j == 15 ? ~0ULL : (1ULL << (4 * (j + 1))) - 1;
				ynib = (ynib & ~below) | ((ynib << 4) & below) | ll;
				mtfv[wr++] = (uint16_t)(j + 1);
				mtf_freq[j + 1]++;
			} else {
				uint8_t tmp = yy[1], tmp2;
				int j;
				yy[1] = yy[0];
				j = 1;
				while (ll != tmp) {
					j++;
					tmp2 = tmp;
					tmp = yy[j];
					yy[j] = tmp2;
				}
				yy[0] = tmp;
				/* position j >= 1 is coded as j + 1 (0, 1 are RUNA, RUNB) */
				mtfv[wr++] = (uint16_t)(j + 1);
				mtf_freq[j + 1]++;
			}
		}
	}
	if (zpend > 0) {
		zpend--;
		for (;;) {
			int sym = (zpend & 1) ? BZ_RUNB : BZ_RUNA;
			mtfv[wr++] = (uint16_t)sym;
			mtf_freq[sym]++;
			if (zpend < 2)
				break;
			zpend = (zpend - 2) / 2;
		}
	}
	mtfv[wr++] = (uint16_t)eob;
	mtf_freq[eob]++;

	/* sendMTFValues */
	alpha = n_in_use + 2;
	for (t = 0; t < BZ_N_GROUPS; t++)
		for (i = 0; i < alpha; i++)
			len[t][i] = BZ_GREATER_ICOST;
	n_groups = wr < 200 ? 2 : wr < 600 ? 3 : wr < 1200 ? 4 : wr < 2400 ? 5 : 6;
	{
		int n_part = n_groups, gs = 0, ge, rem_f = (int)wr, t_freq, a_freq;
		while (n_part > 0) {
			t_freq = rem_f / n_part;
			ge = gs - 1;
			a_freq = 0;
			while (a_freq < t_freq && ge < alpha - 1) {
				ge++;
				a_freq += mtf_freq[ge];
			}
			if (ge > gs && n_part != n_groups && n_part != 1 &&
			    ((n_groups - n_part) % 2 == 1)) {
				a_freq -= mtf_freq[ge];
				ge--;
			}
			for (i = 0; i < alpha; i++)
				len[n_part - 1][i] = (i >= gs && i <= ge) ? BZ_LESSER_ICOST
									  : BZ_GREATER_ICOST;
			n_part--;
			gs = ge + 1;
			rem_f -= a_freq;
		}
	}
	selector = malloc(wr / BZ_G_SIZE + 2);
	if (!selector)
		return -1;
	/* each group of 50 as (symbol, count) pairs: the decimal text's MTF
	 * alphabet is small, so this shortens the four passes below */
	{
		uint32_t seen[BZ_MAX_ALPHA_SIZE];
		size_t nh = 0, ng = 0;
		memset(seen, 0, sizeof seen);
		for (size_t gs = 0; gs < wr; gs += BZ_G_SIZE) {
			size_t ge = gs + BZ_G_SIZE < wr ? gs + BZ_G_SIZE : wr;
			size_t first = nh;
			w->goff[ng] = (uint32_t)nh;
			for (size_t k = gs; k < ge; k++) {
				uint16_t v = mtfv[k];
				/* seen[v] - 1 is v's slot in this group, if set for it */
				if (seen[v] > first) {
					w->hcnt[seen[v] - 1]++;
				} else {
					w->hsym[nh] = v;
					w->hcnt[nh] = 1;
					seen[v] = (uint32_t)++nh;
				}
			}
			ng++;
		}
		w->goff[ng] = (uint32_t)nh;
		for (int iter = 0; iter < BZ_N_ITERS; iter++) {
			/* the code lengths of symbol v in every table, packed in 10-bit
			 * fields: a group of 50 costs at most 50 * 17 = 850 < 1024 bits
			 * per table, so one 64-bit multiply-add per symbol sums all six
			 * tables */
			uint64_t pack[BZ_MAX_ALPHA_SIZE];
			for (i = 0; i < alpha; i++) {
				pack[i] = 0;
				for (t = 0; t < n_groups; t++)
					pack[i] |= (uint64_t)len[t][i] << (10 * t);
			}
			memset(rfreq, 0, sizeof rfreq);
			n_selectors = 0;
			for (size_t g = 0; g < ng; g++) {
				uint64_t acc = 0;
				int bt = -1, bc = 999999999;
				for (uint32_t h = w->goff[g]; h < w->goff[g + 1]; h++)
					acc += pack[w->hsym[h]] * w->hcnt[h];
				for (t = 0; t < n_groups; t++) {
					int cost = (int)((acc >> (10 * t)) & 1023);
					if (cost < bc) {
						bc = cost;
						bt = t;
					}
				}
				selector[n_selectors++] = (uint8_t)bt;
				for (uint32_t h = w->goff[g]; h < w->goff[g + 1]; h++)
					rfreq[bt][w->hsym[h]] += w->hcnt[h];
			}
			for (t = 0; t < n_groups; t++)
				make_code_lengths(len[t], rfreq[t], alpha, BZ_MAX_CODE_LEN);
		}
	}

	/* mapping table: 16 bits, then 16 per used group of 16 byte values */
	b += 16;
	for (i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			if (in_use[i * 16 + j]) {
				b += 16;
				break;
			}
	/* nGroups, nSelectors, MTF-coded selectors in unary */
	b += 3 + 15;
	{
		uint8_t pos[BZ_N_GROUPS];
		for (t = 0; t < n_groups; t++)
			pos[t] = (uint8_t)t;
		for (i = 0; i < n_selectors; i++) {
			uint8_t ll = selector[i], tmp = pos[0], tmp2;
			int j = 0;
			while (ll != tmp) {
				j++;
				tmp2 = tmp;
				tmp = pos[j];
				pos[j] = tmp2;
			}
			pos[0] = tmp;
			b += (uint64_t)j + 1;
		}
	}
	/* delta-coded code lengths */
	for (t = 0; t < n_groups; t++) {
		int curr = len[t][0];
		b += 5;
		for (i = 0; i < alpha; i++) {
			while (curr < len[t][i]) { b += 2; curr++; }
			while (curr > len[t][i]) { b += 2; curr--; }
			b += 1;
		}
	}
	/* the data */
	{
		int sel = 0;
		for (size_t gs = 0; gs < wr; gs += BZ_G_SIZE, sel++) {
			size_t ge = gs + BZ_G_SIZE < wr ? gs + BZ_G_SIZE : wr;
			const uint8_t *l = len[selector[sel]];
			for (size_t k = gs; k < ge; k++)
				b += l[mtfv[k]];
		}
	}
	free(selector);
	*bits = b;
	return 0;
}

int iid_bz2_size(const uint8_t *in, size_t n, int level, struct iid_bzwork *w, uint64_t *size)
{
	/* bzip2's block filling: runs of 4..255 equal bytes become 4 bytes and a
	 * count (RLE1); a block closes once it holds 100000*level - 19 bytes,
	 * leaving the pending run for the next block */
	size_t nblock_max = (size_t)100000 * (size_t)level - 19, nblock = 0;
	unsigned state_ch = 256, state_len = 0;
	unsigned char in_use[256];
	uint64_t bits = 32;   /* "BZh" + level */
	uint8_t *blk = w->block;

	memset(in_use, 0, sizeof in_use);
#define ADD_PAIR() do { \
		uint8_t ch_ = (uint8_t)state_ch; \
		in_use[ch_] = 1; \
		switch (state_len) { \
		case 1: blk[nblock++] = ch_; break; \
		case 2: blk[nblock++] = ch_; blk[nblock++] = ch_; break; \
		case 3: blk[nblock++] = ch_; blk[nblock++] = ch_; blk[nblock++] = ch_; break; \
		default: \
			in_use[state_len - 4] = 1; \
			blk[nblock++] = ch_; blk[nblock++] = ch_; blk[nblock++] = ch_; \
			blk[nblock++] = ch_; blk[nblock++] = (uint8_t)(state_len - 4); \
		} \
	} while (0)

	for (size_t i = 0;;) {
		while (nblock < nblock_max && i < n) {
			unsigned ch = in[i++];
			if (ch != state_ch && state_len == 1) {
				in_use[state_ch] = 1;
				blk[nblock++] = (uint8_t)state_ch;
				state_ch = ch;
			} else if (ch != state_ch || state_len == 255) {
				if (state_ch < 256)
					ADD_PAIR();
				state_ch = ch;
				state_len = 1;
			} else {
				state_len++;
			}
		}
		if (i >= n) {
			uint64_t bb;
			if (state_ch < 256)
				ADD_PAIR();
			if (nblock > 0) {
				if (block_bits(w, nblock, in_use, &bb) != 0)
					return -1;
				bits += bb;
			}
			bits += 48 + 32;   /* end-of-stream magic and combined CRC */
			break;
		}
		{
			uint64_t bb;
			if (block_bits(w, nblock, in_use, &bb) != 0)
				return -1;
			bits += bb;
			nblock = 0;
			memset(in_use, 0, sizeof in_use);
		}
	}
#undef ADD_PAIR
	*size = (bits + 7) / 8;
	return 0;
}
