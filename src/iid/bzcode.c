/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bzcode.c - coding one bzip2 block from its Burrows-Wheeler transform, as
 * bzip2 1.0.x does, counting bits instead of writing them (see bzsize.c):
 * the MTF values (bzmtf.c), then sendMTFValues' tables, their four
 * refinement passes, the selectors and the coded data.
 *
 * For the small alphabets of decimal text a group of 50 values is a vector
 * of 16 counts, so that the passes run without data-dependent branches
 * (and on SSE4.1, cost all six tables at once). */
#include "config.h"

#include <string.h>

#include "iid/bzsize_int.h"

#ifdef BZ_X86_SIMD
#include <smmintrin.h>
#endif

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

/* One refinement pass over the ng groups (counts gc): each group's
 * cheapest table (the first on ties, as sendMTFValues' strict comparison
 * picks) into selector, and its counts added to that table's in rfreq. */
static void assign_tables(const bz_u8x16 *gc, size_t ng, const uint64_t *pack, int n_groups,
			  uint8_t *selector, bz_u32x16 *rfreq)
{
	for (size_t g = 0; g < ng; g++) {
		unsigned bt = cheapest_table(group_cost(pack, gc[g]), n_groups);
		selector[g] = (uint8_t)bt;
		rfreq[bt] += __builtin_convertvector(gc[g], bz_u32x16);
	}
}

#ifdef BZ_X86_SIMD
/* The same on SSE4.1: a table's cost is a multiply-add of the 16 byte
 * counts by its 16 code lengths (pmaddubsw: at most 50 * 17 per pair of
 * lanes, no saturation), the six summed across lanes, and the cheapest is
 * phminposuw's, which takes the lowest lane on ties. */
__attribute__((target("sse4.1"))) static void
assign_tables_sse41(const bz_u8x16 *gc, size_t ng, uint8_t len[][BZ_MAX_ALPHA_SIZE], int n_groups,
		    int alpha, uint8_t *selector, bz_u32x16 *rfreq)
{
	__m128i lt[BZ_N_GROUPS], unused;
	const __m128i ones = _mm_set1_epi16(1), zero = _mm_setzero_si128();
	uint16_t no[8];

	for (int t = 0; t < BZ_N_GROUPS; t++) {
		uint8_t l[16] = { 0 };
		for (int v = 0; t < n_groups && v < alpha; v++)
			l[v] = len[t][v];
		lt[t] = _mm_loadu_si128((const __m128i *)l);
	}
	/* the lanes of tables not in use, and lanes 6 and 7, never least */
	for (int t = 0; t < 8; t++)
		no[t] = t < n_groups ? 0 : 0xffff;
	unused = _mm_loadu_si128((const __m128i *)no);
	for (size_t g = 0; g < ng; g++) {
		__m128i c, cost, lo, hi, *f;
		unsigned bt;
		memcpy(&c, &gc[g], sizeof c);
#define BZ_COST(t) _mm_madd_epi16(_mm_maddubs_epi16(c, lt[t]), ones)
		cost = _mm_packus_epi32(_mm_hadd_epi32(_mm_hadd_epi32(BZ_COST(0), BZ_COST(1)),
						       _mm_hadd_epi32(BZ_COST(2), BZ_COST(3))),
					_mm_hadd_epi32(_mm_hadd_epi32(BZ_COST(4), BZ_COST(5)), ones));
#undef BZ_COST
		cost = _mm_or_si128(cost, unused);
		bt = (unsigned)_mm_extract_epi16(_mm_minpos_epu16(cost), 1) & 7;
		selector[g] = (uint8_t)bt;
		/* the 16 counts widened to 32 bits, four at a time, by
		 * interleaving with zeros.  (Not pmovzxbd: at -O1 GCC 12 moved
		 * its operand through an MMX register, leaving the x87 stack
		 * unusable for the long doubles computed later.) */
		f = (__m128i *)&rfreq[bt];
		lo = _mm_unpacklo_epi8(c, zero);
		hi = _mm_unpackhi_epi8(c, zero);
		f[0] = _mm_add_epi32(f[0], _mm_unpacklo_epi16(lo, zero));
		f[1] = _mm_add_epi32(f[1], _mm_unpackhi_epi16(lo, zero));
		f[2] = _mm_add_epi32(f[2], _mm_unpacklo_epi16(hi, zero));
		f[3] = _mm_add_epi32(f[3], _mm_unpackhi_epi16(hi, zero));
	}
}
#endif

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
#ifdef BZ_X86_SIMD
		if (w->use_simd && __builtin_cpu_supports("sse4.1"))
			assign_tables_sse41(gc, ng, len, n_groups, alpha, selector, rfreq);
		else
#endif
			assign_tables(gc, ng, pack, n_groups, selector, rfreq);
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

uint64_t bz_block_code_bits(struct iid_bzwork *w, size_t n, const unsigned char *in_use)
{
	int unseq[256], n_in_use = 0, alpha, n_groups, i, t;
	uint8_t len[BZ_N_GROUPS][BZ_MAX_ALPHA_SIZE];
	uint8_t *selector = w->selector;
	size_t wr, n_sel;
	uint64_t b = 48 + 32 + 1 + 24;   /* block magic, CRC, randomised, origPtr */

	for (i = 0; i < 256; i++)
		unseq[i] = in_use[i] ? n_in_use++ : -1;
	wr = bz_mtf_encode(w, n, unseq, n_in_use);

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
			b += (uint64_t)bz_mtf_byte_list(pos, selector[k]) + 1;
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

