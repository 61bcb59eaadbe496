/* bzsize.c - the exact size of bzip2's output without running its block
 * sorter.  90B 5.1.11 (as NIST's tool implements it) scores a permutation by
 * the length of BZ2_bzBuffToBuffCompress(level 5) output; on the decimal text
 * of 1-bit data libbz2's suffix sorting costs ~0.5 s per call, which dominates
 * the IID track.  The size depends only on the Burrows-Wheeler transform of
 * each block, not on how it was sorted, so we sort by tokens (tokbwt.c) or
 * with libdivsufsort and replay bzip2 1.0.x's deterministic stages (RLE1
 * block filling, MTF/RLE2, the four Huffman table refinement passes of
 * sendMTFValues, selector MTF, delta-coded tables) counting bits instead of
 * writing them.
 *
 * The decimal text of samples of up to 8 bits has no run of 4 equal bytes
 * (a number has at most 3 digits), so RLE1 leaves it as it is and its
 * blocks are slices of it: iid_bz2_size_decimal cuts them by offsets in the
 * text without writing it, and reads each block's tokens from the samples.
 *
 * Rotations are sorted as suffixes of the block followed by its first
 * BZ_WRAP bytes; when two neighbouring rotations agree on more than that
 * (periodic data) the function declines and the caller uses libbz2.  The
 * caller also cross-checks one result against libbz2 before trusting it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <divsufsort.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
#define BZ_RUN_TAB 64           /* zero runs coded from a table: up to 63, 6 values */
#define BZ_RUN_SLACK 8          /* values written past the end by a table run */

/* GCC/Clang vectors: 16 byte counts, and the same widened */
typedef uint8_t bz_u8x16 __attribute__((vector_size(16)));
typedef uint32_t bz_u32x16 __attribute__((vector_size(64)));

struct iid_bzwork {
	size_t cap;                 /* block capacity */
	uint8_t *block;             /* block + BZ_WRAP wrap-around bytes */
	uint8_t *bwt;               /* the block's Burrows-Wheeler transform */
	saidx_t *sa;
	uint16_t *mtfv;             /* MTF values, + BZ_RUN_SLACK spare */
	struct iid_tokbwt *tok;     /* token sort for the decimal text (tokbwt.c) */
	int use_tok;
	uint8_t *selector;          /* per group of 50 MTF values: its table */
	bz_u8x16 *gcount;           /* and its symbol counts (refine_small) */
	bz_u8x16 unit[16];          /* 1 in lane v */
	uint16_t run_sym[BZ_RUN_TAB][BZ_RUN_SLACK];   /* a run of z zeros, coded, */
	uint8_t run_len[BZ_RUN_TAB];                   /* in this many values */
};

static size_t put_zero_run(uint16_t *out, size_t z);

struct iid_bzwork *iid_bzwork_new(int level)
{
	struct iid_bzwork *w = calloc(1, sizeof *w);
	size_t groups;
	if (!w)
		return NULL;
	w->cap = (size_t)100000 * (size_t)level + 16;
	groups = (w->cap + 2) / BZ_G_SIZE + 2;
	w->block = malloc(w->cap + BZ_WRAP);
	w->sa = malloc((w->cap + BZ_WRAP) * sizeof *w->sa);
	w->mtfv = malloc((w->cap + 2 + BZ_RUN_SLACK) * sizeof *w->mtfv);
	w->bwt = malloc(w->cap);
	w->tok = iid_tokbwt_new(w->cap);
	w->selector = malloc(groups);
	w->gcount = aligned_alloc(sizeof *w->gcount, groups * sizeof *w->gcount);
	if (!w->block || !w->sa || !w->mtfv || !w->bwt || !w->tok || !w->selector ||
	    !w->gcount) {
		iid_bzwork_free(w);
		return NULL;
	}
	for (int v = 0; v < 16; v++)
		w->unit[v][v] = 1;
	for (size_t z = 1; z < BZ_RUN_TAB; z++)
		w->run_len[z] = (uint8_t)put_zero_run(w->run_sym[z], z);
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
	free(w->selector);
	free(w->gcount);
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

/* The block's Burrows-Wheeler transform into w->bwt: by tokens when the
 * block is decimal text, else by sorting the suffixes of block + its first
 * `wrap` bytes; and, if in_use is not NULL, the byte values it holds.  -1
 * when the rotation order cannot be established cheaply. */
static int block_transform(struct iid_bzwork *w, size_t n, unsigned char *in_use)
{
	uint8_t *blk = w->block, *bwt = w->bwt;
	size_t nb = 0, wrap = n < BZ_WRAP ? n : BZ_WRAP, prev = (size_t)-1;

	if (w->use_tok && iid_tokbwt(blk, n, bwt, in_use, w->tok) == 0)
		return 0;
	if (in_use) {
		memset(in_use, 0, 256);
		for (size_t k = 0; k < n; k++)
			in_use[blk[k]] = 1;
	}
	memcpy(blk + n, blk, wrap);
	if (divsufsort(blk, w->sa, (saidx_t)(n + wrap)) != 0)
		return -1;
	for (size_t s = 0; s < n + wrap; s++) {
		size_t p = (size_t)w->sa[s];
		if (p >= n)
			continue;
		/* two rotations that agree on `wrap` bytes may be misordered */
		if (prev != (size_t)-1 && blk[prev] == blk[p] && memcmp(blk + prev, blk + p, wrap) == 0)
			return -1;
		prev = p;
		bwt[nb++] = blk[p == 0 ? n - 1 : p - 1];
	}
	return 0;
}

/* bzip2's coding of a run of z zeros (z >= 1) as RUNA/RUNB digits */
static size_t put_zero_run(uint16_t *out, size_t z)
{
	size_t k = 0;
	z--;
	for (;;) {
		out[k++] = (z & 1) ? BZ_RUNB : BZ_RUNA;
		if (z < 2)
			return k;
		z = (z - 2) / 2;
	}
}

/* One MTF step on a list of bytes (bzip2's own loop): ll's place in it;
 * ll moves to the front. */
static int mtf_byte_list(uint8_t *list, uint8_t ll)
{
	uint8_t tmp = list[0], tmp2;
	int j = 0;
	while (ll != tmp) {
		j++;
		tmp2 = tmp;
		tmp = list[j];
		list[j] = tmp2;
	}
	list[0] = tmp;
	return j;
}

/* An MTF list of up to 16 symbols as the nibbles of a word, the front in
 * the lowest: 0, 1, ..., n - 1 */
static uint64_t mtf_nibble_list(int n)
{
	uint64_t list = 0;
	for (int i = n - 1; i >= 0; i--)
		list = list << 4 | (uint64_t)i;
	return list;
}

/* One MTF step on such a list: ll's place in it; ll moves to the front. */
static inline unsigned mtf_nibble_step(uint64_t *list, uint64_t ll)
{
	uint64_t v = *list ^ (0x1111111111111111ULL * ll);
	/* the flag of v's lowest zero nibble is exact (a borrow only flags
	 * nibbles above a true zero); ll is in the list, so it exists */
	uint64_t z = (v - 0x1111111111111111ULL) & ~v & 0x8888888888888888ULL;
	uint64_t upto = z ^ (z - 1);   /* the nibbles up to and including ll's */
	*list = (*list & ~upto) | ((*list << 4) & upto) | ll;
	return (unsigned)__builtin_ctzll(z) >> 2;
}

/* MTF + zero-run coding (bzip2's generateMTFValues) of bwt[0..nb-1] into
 * mtfv, ending with the end-of-block symbol; returns the number of values. */
static size_t mtf_encode(struct iid_bzwork *w, size_t nb, const int *unseq, int n_in_use)
{
	const uint8_t *bwt = w->bwt;
	uint16_t *mtfv = w->mtfv;
	size_t wr = 0, zpend = 0;

	if (n_in_use <= 16) {
		/* without a branch on whether the symbol is at the front (a
		 * third of the time, unpredictably, on the text of 8-bit
		 * samples; no slower on 1-bit text): a pending run of up to
		 * BZ_RUN_TAB - 1 zeros is written from a table with the next
		 * value after it on every step, and kept only when a non-zero
		 * value closes the run */
		uint64_t list = mtf_nibble_list(n_in_use);
		for (size_t s = 0; s < nb; s++) {
			unsigned j = mtf_nibble_step(&list, (uint64_t)unseq[bwt[s]]);
			size_t rl;
			if (__builtin_expect(zpend >= BZ_RUN_TAB - 1, 0)) {
				if (j == 0) {
					zpend++;
					continue;
				}
				wr += put_zero_run(mtfv + wr, zpend);
				mtfv[wr++] = (uint16_t)(j + 1);
				zpend = 0;
				continue;
			}
			rl = w->run_len[zpend];
			memcpy(mtfv + wr, w->run_sym[zpend], sizeof w->run_sym[zpend]);
			mtfv[wr + rl] = (uint16_t)(j + 1);
			/* (masks, not conditionals, which the compiler may
			 * turn back into branches) */
			wr += (rl + 1) & -(size_t)(j != 0);
			zpend = (zpend + 1) & -(size_t)(j == 0);
		}
	} else {
		uint8_t yy[256];
		for (int i = 0; i < n_in_use; i++)
			yy[i] = (uint8_t)i;
		for (size_t s = 0; s < nb; s++) {
			uint8_t ll = (uint8_t)unseq[bwt[s]];
			int j;
			if (yy[0] == ll) {
				zpend++;
				continue;
			}
			if (zpend > 0) {
				wr += put_zero_run(mtfv + wr, zpend);
				zpend = 0;
			}
			j = mtf_byte_list(yy, ll);
			/* position j >= 1 is coded as j + 1 (0, 1 are RUNA, RUNB) */
			mtfv[wr++] = (uint16_t)(j + 1);
		}
	}
	if (zpend > 0)
		wr += put_zero_run(mtfv + wr, zpend);
	mtfv[wr++] = (uint16_t)(n_in_use + 1);
	return wr;
}

/* sendMTFValues' starting tables: the alphabet cut into n_groups ranges of
 * about equal frequency, each table cheap on its own range */
static void initial_tables(uint8_t len[][BZ_MAX_ALPHA_SIZE], int n_groups, int alpha,
			   const int32_t *mtf_freq, size_t wr)
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
		if (ge > gs && n_part != n_groups && n_part != 1 && ((n_groups - n_part) % 2 == 1)) {
			a_freq -= mtf_freq[ge];
			ge--;
		}
		for (int i = 0; i < alpha; i++)
			len[n_part - 1][i] = (i >= gs && i <= ge) ? BZ_LESSER_ICOST : BZ_GREATER_ICOST;
		n_part--;
		gs = ge + 1;
		rem_f -= a_freq;
	}
}

/* The code lengths of symbol v in every table, packed in 10-bit fields: a
 * group of 50 costs at most 50 * 17 = 850 < 1024 bits per table, so one
 * multiply-add per symbol sums all six tables. */
static void pack_lengths(uint64_t *pack, uint8_t len[][BZ_MAX_ALPHA_SIZE], int n_groups, int alpha)
{
	for (int i = 0; i < alpha; i++) {
		pack[i] = 0;
		for (int t = 0; t < n_groups; t++)
			pack[i] |= (uint64_t)len[t][i] << (10 * t);
	}
}

/* The table whose packed cost in acc is least, the first on ties (as
 * sendMTFValues' strict comparison picks), without a branch per table. */
static unsigned cheapest_table(uint64_t acc, int n_groups)
{
	uint64_t best = ~0ULL;
	for (int t = 0; t < n_groups; t++) {
		uint64_t c = ((acc >> (10 * t)) & 1023) << 3 | (uint64_t)t;
		best = c < best ? c : best;
	}
	return (unsigned)(best & 7);
}

/* A group's cost in every table at once (see pack_lengths), from its 16
 * symbol counts */
static inline uint64_t group_cost(const uint64_t *pack, bz_u8x16 count)
{
	uint64_t acc = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* lanes 0..7 and 8..15 as the bytes of two words, low byte first */
	uint64_t lo, hi;
	memcpy(&lo, &count, 8);
	memcpy(&hi, (const char *)&count + 8, 8);
	for (int s = 0; s < 8; s++)
		acc += pack[s] * ((lo >> (8 * s)) & 255) + pack[8 + s] * ((hi >> (8 * s)) & 255);
#else
	for (int s = 0; s < 16; s++)
		acc += pack[s] * count[s];
#endif
	return acc;
}

/* sendMTFValues' four refinement passes and the coded data, for an
 * alphabet of at most 16 symbols: each group of 50 values is held as a
 * vector of 16 byte counts, so a pass costs the same for every group and
 * no branch depends on the data.  Sets the selectors and the final code
 * lengths; returns the bits of the coded values. */
static uint64_t refine_small(struct iid_bzwork *w, size_t wr, int alpha, int n_groups,
			     uint8_t len[][BZ_MAX_ALPHA_SIZE], uint8_t *selector, size_t *n_sel)
{
	bz_u8x16 *gc = w->gcount;
	bz_u32x16 freq = { 0 }, rfreq[BZ_N_GROUPS];
	uint64_t pack[16], b = 0;
	int32_t f32[BZ_MAX_ALPHA_SIZE] = { 0 };
	size_t ng = 0;

	for (size_t gs = 0; gs < wr; gs += BZ_G_SIZE, ng++) {
		size_t ge = gs + BZ_G_SIZE < wr ? gs + BZ_G_SIZE : wr;
		bz_u8x16 c = { 0 };
		for (size_t k = gs; k < ge; k++)
			c += w->unit[w->mtfv[k]];
		gc[ng] = c;
		freq += __builtin_convertvector(c, bz_u32x16);
	}
	for (int s = 0; s < 16; s++)
		f32[s] = (int32_t)freq[s];
	initial_tables(len, n_groups, alpha, f32, wr);
	for (int iter = 0; iter <= BZ_N_ITERS; iter++) {
		memset(pack, 0, sizeof pack);
		pack_lengths(pack, len, n_groups, alpha);
		if (iter == BZ_N_ITERS) {
			/* the data, coded with the final tables */
			for (size_t g = 0; g < ng; g++)
				b += (group_cost(pack, gc[g]) >> (10 * selector[g])) & 1023;
			break;
		}
		memset(rfreq, 0, sizeof rfreq);
		for (size_t g = 0; g < ng; g++) {
			unsigned bt = cheapest_table(group_cost(pack, gc[g]), n_groups);
			selector[g] = (uint8_t)bt;
			rfreq[bt] += __builtin_convertvector(gc[g], bz_u32x16);
		}
		for (int t = 0; t < n_groups; t++) {
			for (int s = 0; s < 16; s++)
				f32[s] = (int32_t)rfreq[t][s];
			make_code_lengths(len[t], f32, alpha, BZ_MAX_CODE_LEN);
		}
	}
	*n_sel = ng;
	return b;
}

/* The same for any alphabet, symbol by symbol as sendMTFValues does. */
static uint64_t refine_any(struct iid_bzwork *w, size_t wr, int alpha, int n_groups,
			   uint8_t len[][BZ_MAX_ALPHA_SIZE], uint8_t *selector, size_t *n_sel)
{
	const uint16_t *mtfv = w->mtfv;
	uint64_t pack[BZ_MAX_ALPHA_SIZE], b = 0;
	int32_t mtf_freq[BZ_MAX_ALPHA_SIZE] = { 0 }, rfreq[BZ_N_GROUPS][BZ_MAX_ALPHA_SIZE];
	size_t ng = 0;

	for (size_t k = 0; k < wr; k++)
		mtf_freq[mtfv[k]]++;
	initial_tables(len, n_groups, alpha, mtf_freq, wr);
	for (int iter = 0; iter < BZ_N_ITERS; iter++) {
		pack_lengths(pack, len, n_groups, alpha);
		memset(rfreq, 0, sizeof rfreq);
		ng = 0;
		for (size_t gs = 0; gs < wr; gs += BZ_G_SIZE, ng++) {
			size_t ge = gs + BZ_G_SIZE < wr ? gs + BZ_G_SIZE : wr;
			uint64_t acc = 0;
			unsigned bt;
			for (size_t k = gs; k < ge; k++)
				acc += pack[mtfv[k]];
			bt = cheapest_table(acc, n_groups);
			selector[ng] = (uint8_t)bt;
			for (size_t k = gs; k < ge; k++)
				rfreq[bt][mtfv[k]]++;
		}
		for (int t = 0; t < n_groups; t++)
			make_code_lengths(len[t], rfreq[t], alpha, BZ_MAX_CODE_LEN);
	}
	for (size_t gs = 0, g = 0; gs < wr; gs += BZ_G_SIZE, g++) {
		size_t ge = gs + BZ_G_SIZE < wr ? gs + BZ_G_SIZE : wr;
		for (size_t k = gs; k < ge; k++)
			b += len[selector[g]][mtfv[k]];
	}
	*n_sel = ng;
	return b;
}

/* Bits of one compressed block of n bytes (magic, CRC, randomised bit,
 * origPtr, and everything sendMTFValues writes) from its transform in
 * w->bwt and the byte values it holds. */
static uint64_t block_code_bits(struct iid_bzwork *w, size_t n, const unsigned char *in_use)
{
	int unseq[256], n_in_use = 0, alpha, n_groups, i, t;
	uint8_t len[BZ_N_GROUPS][BZ_MAX_ALPHA_SIZE];
	uint8_t *selector = w->selector;
	size_t wr, n_sel;
	uint64_t b = 48 + 32 + 1 + 24;   /* block magic, CRC, randomised, origPtr */

	for (i = 0; i < 256; i++)
		if (in_use[i])
			unseq[i] = n_in_use++;
	wr = mtf_encode(w, n, unseq, n_in_use);

	/* sendMTFValues */
	alpha = n_in_use + 2;
	for (t = 0; t < BZ_N_GROUPS; t++)
		for (i = 0; i < alpha; i++)
			len[t][i] = BZ_GREATER_ICOST;
	n_groups = wr < 200 ? 2 : wr < 600 ? 3 : wr < 1200 ? 4 : wr < 2400 ? 5 : 6;
	if (alpha <= 16)
		b += refine_small(w, wr, alpha, n_groups, len, selector, &n_sel);
	else
		b += refine_any(w, wr, alpha, n_groups, len, selector, &n_sel);

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
		for (size_t k = 0; k < n_sel; k++)
			b += (uint64_t)mtf_byte_list(pos, selector[k]) + 1;
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
	return b;
}

/* The same for the block in w->block; in_use: the byte values RLE1 wrote
 * into it, or NULL when the block is the input's own bytes (then they are
 * found here).  Returns 0, or -1 when the rotation order cannot be
 * established cheaply. */
static int block_bits(struct iid_bzwork *w, size_t n, const unsigned char *in_use,
		      uint64_t *bits)
{
	unsigned char found[256];

	if (block_transform(w, n, in_use ? NULL : found) != 0)
		return -1;
	*bits = block_code_bits(w, n, in_use ? in_use : found);
	return 0;
}

/* Non-zero if in[0..n-1] holds 4 equal bytes in a row (a run RLE1 codes). */
static int has_run4(const uint8_t *in, size_t n)
{
	size_t k = 0;
#if defined(__SSE2__)
	for (; k + 19 <= n; k += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(in + k));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(in + k + 1));
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(in + k + 2));
		__m128i d = _mm_loadu_si128((const __m128i *)(const void *)(in + k + 3));
		__m128i e = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(a, b), _mm_cmpeq_epi8(b, c)),
					  _mm_cmpeq_epi8(c, d));
		if (_mm_movemask_epi8(e))
			return 1;
	}
#endif
	for (; k + 3 < n; k++)
		if (in[k] == in[k + 1] && in[k + 1] == in[k + 2] && in[k + 2] == in[k + 3])
			return 1;
	return 0;
}

/* The block filling below when no run reaches 4 bytes (the decimal text of
 * samples of up to 8 bits: a number has at most 3 digits): RLE1 then copies
 * the input, and a run is written when the next one starts.  So a block
 * takes the input from s up to the first run that starts nblock_max bytes or
 * more after s; that run begins the next block, unless it is the last. */
static int bz2_size_verbatim(const uint8_t *in, size_t n, size_t nblock_max,
			     struct iid_bzwork *w, uint64_t *bits)
{
	for (size_t s = 0; s < n;) {
		size_t q = s + nblock_max, nb;
		uint64_t bb;
		while (q < n && in[q] == in[q - 1])
			q++;
		nb = q + 1 < n ? q - s : n - s;
		memcpy(w->block, in + s, nb);
		if (block_bits(w, nb, NULL, &bb) != 0)
			return -1;
		*bits += bb;
		s += nb;
	}
	*bits += 48 + 32;   /* end-of-stream magic and combined CRC */
	return 0;
}

/* Characters of v's "v " (with the space) */
static const uint8_t dec_width[256] = {
#define W10(w) w, w, w, w, w, w, w, w, w, w
	W10(2), W10(3), W10(3), W10(3), W10(3), W10(3), W10(3), W10(3), W10(3), W10(3),
	W10(4), W10(4), W10(4), W10(4), W10(4), W10(4), W10(4), W10(4), W10(4), W10(4),
	W10(4), W10(4), W10(4), W10(4), W10(4), 4, 4, 4, 4, 4, 4
#undef W10
};

/* Characters of sample k's in the decimal text of n samples (the last has
 * no space), and character o of v's */
static unsigned dec_len(const uint8_t *v, size_t n, size_t k)
{
	return dec_width[v[k]] - (k + 1 == n);
}

static uint8_t dec_char(unsigned x, unsigned o)
{
	unsigned digits = dec_width[x] - 1u;
	if (o >= digits)
		return ' ';
	for (unsigned k = digits - 1; k > o; k--)
		x /= 10;
	return (uint8_t)('0' + x % 10);
}

/* A place in that text: character off of sample k's, at offset `at` */
struct dec_place {
	size_t k;
	unsigned off;
	uint64_t at;
};

/* Moves p forward to offset `to`, at most the text's length (the end of
 * the last sample's digits). */
static void dec_seek(struct dec_place *p, const uint8_t *v, size_t n, uint64_t to)
{
	size_t k = p->k;
	uint64_t start = p->at - p->off;   /* where sample k's text starts */
	while (k + 1 < n && start + dec_width[v[k]] <= to)
		start += dec_width[v[k++]];
	p->k = k;
	p->off = (unsigned)(to - start);
	p->at = to;
}

/* Writes the nb characters of the text from place p into out. */
static void dec_write(const uint8_t *v, size_t n, struct dec_place p, size_t nb, uint8_t *out)
{
	for (size_t i = 0; i < nb; i++) {
		out[i] = dec_char(v[p.k], p.off);
		if (++p.off == dec_len(v, n, p.k)) {
			p.k++;
			p.off = 0;
		}
	}
}

uint64_t iid_decimal_text_len(const uint8_t *v, size_t n)
{
	uint64_t total = 0;
	for (size_t k = 0; k < n; k++)
		total += dec_width[v[k]];
	return total > 0 ? total - 1 : 0;   /* no space after the last */
}

int iid_bz2_size_decimal(const uint8_t *v, size_t n, int level, struct iid_bzwork *w,
			 uint64_t *size, uint64_t *text_len)
{
	size_t nblock_max = (size_t)100000 * (size_t)level - 19;
	uint64_t total, bits = 32;   /* "BZh" + level */
	struct dec_place s = { 0, 0, 0 };

	if (n < 2)
		return -1;
	*text_len = total = iid_decimal_text_len(v, n);
	/* as bz2_size_verbatim: no run reaches 4 characters */
	while (s.at < total) {
		struct dec_place q = s;
		unsigned char in_use[256];
		size_t nb;
		uint64_t bb;
		dec_seek(&q, v, n, s.at + nblock_max < total ? s.at + nblock_max : total);
		/* skip to the start of the run that holds the cut */
		while (q.at < total) {
			uint8_t before = q.off > 0 ? dec_char(v[q.k], q.off - 1) : ' ';
			if (dec_char(v[q.k], q.off) != before)
				break;
			dec_seek(&q, v, n, q.at + 1);
		}
		if (q.at + 1 >= total)
			dec_seek(&q, v, n, total);
		nb = (size_t)(q.at - s.at);
		if (w->use_tok &&
		    iid_tokbwt_decimal(v, s.k, s.off, q.k, q.off, nb, w->bwt, in_use, w->tok) == 0) {
			bb = block_code_bits(w, nb, in_use);
		} else {
			/* the tokens declined (deep ties among more than 256
			 * distinct ones): this block as text */
			dec_write(v, n, s, nb, w->block);
			if (block_bits(w, nb, NULL, &bb) != 0)
				return -1;
		}
		bits += bb;
		s = q;
	}
	*size = (bits + 48 + 32 + 7) / 8;   /* and the end-of-stream magic and CRC */
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

	if (!has_run4(in, n)) {
		if (bz2_size_verbatim(in, n, nblock_max, w, &bits) != 0)
			return -1;
		*size = (bits + 7) / 8;
		return 0;
	}
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
