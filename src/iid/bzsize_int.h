/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bzsize_int.h - what bzsize.c (blocks: filling, transform) and bzcode.c
 * (coding a block: MTF, zero runs, Huffman tables) share. */
#ifndef RNGAUDIT_IID_BZSIZE_INT_H
#define RNGAUDIT_IID_BZSIZE_INT_H

#include <stddef.h>
#include <stdint.h>

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
#define BZ_RUN_TAB 64           /* zero runs coded from a table: up to 63, 6 values */
#define BZ_RUN_SLACK 8          /* values written past the end by a table run */
#define BZ_MTF_SPLIT_MIN 4096   /* blocks this long: MTF in two halves (bzmtf.c) */

/* GCC/Clang vectors: 16 byte counts, and the same widened */
typedef uint8_t bz_u8x16 __attribute__((vector_size(16)));
typedef uint32_t bz_u32x16 __attribute__((vector_size(64)));

struct iid_bzwork {
	size_t cap;                 /* block capacity */
	size_t max_in;              /* the longest input it takes (iid_bzwork_new) */
	uint8_t *block;             /* block + BZ_WRAP wrap-around bytes */
	uint8_t *bwt;               /* the block's Burrows-Wheeler transform */
	saidx_t *sa;
	uint16_t *mtfv;             /* MTF values, + BZ_RUN_SLACK spare */
	uint16_t *mtfv2;            /* those of a block's second half (bzmtf.c) */
	struct iid_tokbwt *tok;     /* token sort for the decimal text (tokbwt.c) */
	int use_tok;
	int use_simd;               /* the vector MTF and refinement, where there are */
	uint8_t *selector;          /* per group of 50 MTF values: its table */
	bz_u8x16 *gcount;           /* and its symbol counts (refine_small) */
	bz_u8x16 unit[16];          /* 1 in lane v */
	uint16_t run_sym[BZ_RUN_TAB][BZ_RUN_SLACK];   /* a run of z zeros, coded, */
	uint8_t run_len[BZ_RUN_TAB];                   /* in this many values */
};

/* SSSE3 and SSE4.1 paths, taken where the processor has them */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define BZ_X86_SIMD 1
#endif

/* bzmtf.c: bzip2's coding of a run of z zeros (z >= 1) as RUNA/RUNB digits
 * into out; returns their number */
size_t bz_put_zero_run(uint16_t *out, size_t z);
/* One MTF step on a list of bytes (bzip2's own loop): ll's place in it;
 * ll moves to the front. */
int bz_mtf_byte_list(uint8_t *list, uint8_t ll);
/* MTF + zero-run coding (bzip2's generateMTFValues) of w->bwt[0..nb-1]
 * (unseq: each byte's symbol, n_in_use of them) into w->mtfv, ending with
 * the end-of-block symbol; returns the number of values. */
size_t bz_mtf_encode(struct iid_bzwork *w, size_t nb, const int *unseq, int n_in_use);
/* Bits of one compressed block of n bytes (magic, CRC, randomised bit,
 * origPtr, and everything sendMTFValues writes) from its transform in
 * w->bwt and the byte values it holds. */
uint64_t bz_block_code_bits(struct iid_bzwork *w, size_t n, const unsigned char *in_use);

#endif
