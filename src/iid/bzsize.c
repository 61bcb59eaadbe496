/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bzsize.c - the exact size of bzip2's output without running its block
 * sorter.  90B 5.1.11 (as NIST's tool implements it) scores a permutation by
 * the length of BZ2_bzBuffToBuffCompress(level 5) output; on the decimal text
 * of 1-bit data libbz2's suffix sorting costs ~0.5 s per call, which dominates
 * the IID track.  The size depends only on the Burrows-Wheeler transform of
 * each block, not on how it was sorted, so we sort by tokens (tokbwt.c) or
 * with libdivsufsort and replay bzip2 1.0.x's deterministic stages counting
 * bits instead of writing them: here the RLE1 block filling, in bzcode.c
 * MTF/RLE2, the four Huffman table refinement passes of sendMTFValues,
 * selector MTF and the delta-coded tables.
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

#include "bigmem.h"
#include "iid/bzsize_int.h"

struct iid_bzwork *iid_bzwork_new(int level, size_t max_in)
{
	struct iid_bzwork *w = calloc(1, sizeof *w);
	const size_t block = (size_t)100000 * (size_t)level;
	/* what max_in bytes fill: RLE1 writes at most 5 bytes for 4 */
	const size_t fill = max_in < block ? max_in + max_in / 4 + 8 : block;
	size_t groups;
	if (!w)
		return NULL;
	/* a level's block, or less for short inputs: the buffers below are
	 * populated whole, for each of the workers */
	w->max_in = max_in;
	w->cap = (fill < block ? fill : block) + 16;
	groups = (w->cap + 2) / BZ_G_SIZE + 2;
	/* the buffers every block fills: prefaulted (bigmem.h); sa only
	 * where the tokens decline */
	w->block = bigmem_calloc(w->cap + BZ_WRAP, 1);
	w->sa = malloc((w->cap + BZ_WRAP) * sizeof *w->sa);
	w->mtfv = bigmem_calloc(w->cap + 2 + BZ_RUN_SLACK, sizeof *w->mtfv);
	w->mtfv2 = bigmem_calloc(w->cap / 2 + 2 + BZ_RUN_SLACK, sizeof *w->mtfv2);
	w->bwt = bigmem_calloc(w->cap, 1);
	w->tok = iid_tokbwt_new(w->cap);
	w->selector = malloc(groups);
	w->gcount = aligned_alloc(sizeof *w->gcount, groups * sizeof *w->gcount);
	if (!w->block || !w->sa || !w->mtfv || !w->mtfv2 || !w->bwt || !w->tok || !w->selector ||
	    !w->gcount) {
		iid_bzwork_free(w);
		return NULL;
	}
	for (int v = 0; v < 16; v++)
		w->unit[v][v] = 1;
	for (size_t z = 1; z < BZ_RUN_TAB; z++)
		w->run_len[z] = (uint8_t)bz_put_zero_run(w->run_sym[z], z);
	w->use_tok = 1;
	w->use_simd = 1;
	return w;
}

void iid_bzwork_use_tokens(struct iid_bzwork *w, int on)
{
	w->use_tok = on;
}

void iid_bzwork_use_simd(struct iid_bzwork *w, int on)
{
	w->use_simd = on;
}

void iid_bzwork_free(struct iid_bzwork *w)
{
	if (!w)
		return;
	bigmem_free(w->block);
	free(w->sa);
	bigmem_free(w->mtfv);
	bigmem_free(w->mtfv2);
	bigmem_free(w->bwt);
	free(w->selector);
	free(w->gcount);
	iid_tokbwt_free(w->tok);
	free(w);
}

/* The block's Burrows-Wheeler transform into w->bwt: by tokens when
 * `tokens` is set and the block is decimal text, else by sorting the
 * suffixes of block + its first `wrap` bytes; and, if in_use is not NULL,
 * the byte values it holds.  -1 when the rotation order cannot be
 * established cheaply. */
static int block_transform(struct iid_bzwork *w, size_t n, int tokens, unsigned char *in_use)
{
	uint8_t *blk = w->block, *bwt = w->bwt;
	size_t nb = 0, wrap = n < BZ_WRAP ? n : BZ_WRAP, prev = (size_t)-1;

	if (tokens && iid_tokbwt(blk, n, bwt, in_use, w->tok) == 0)
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

/* The bits of the block in w->block (tokens: try the token sort);
 * in_use: the byte values RLE1 wrote into it, or NULL when the block is the
 * input's own bytes (then they are found here).  Returns 0, or -1 when the
 * rotation order cannot be established cheaply. */
static int block_bits(struct iid_bzwork *w, size_t n, int tokens, const unsigned char *in_use,
		      uint64_t *bits)
{
	unsigned char found[256];

	if (block_transform(w, n, tokens, in_use ? NULL : found) != 0)
		return -1;
	*bits = bz_block_code_bits(w, n, in_use ? in_use : found);
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
	if (total > w->max_in)
		return -1;   /* longer than the buffers were made for */
	/* No run reaches 4 characters, so RLE1 copies the text, and writes a
	 * run when the next one starts: a block takes the text from s up to
	 * the first run that starts nblock_max characters or more after s;
	 * that run begins the next block, unless it is the last. */
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
			bb = bz_block_code_bits(w, nb, in_use);
		} else {
			/* the tokens declined (deep ties among more than 256
			 * distinct ones): this block as text, suffix-sorted (the
			 * same tokens would decline again) */
			dec_write(v, n, s, nb, w->block);
			if (block_bits(w, nb, 0, NULL, &bb) != 0)
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

	if (n > w->max_in)
		return -1;   /* longer than the buffers were made for */
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
				if (block_bits(w, nblock, w->use_tok, in_use, &bb) != 0)
					return -1;
				bits += bb;
			}
			bits += 48 + 32;   /* end-of-stream magic and combined CRC */
			break;
		}
		{
			uint64_t bb;
			if (block_bits(w, nblock, w->use_tok, in_use, &bb) != 0)
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
