/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bzsize.h - exact bzip2 output sizes (see bzsize.c). */
#ifndef RNGAUDIT_IID_BZSIZE_H
#define RNGAUDIT_IID_BZSIZE_H

#include <stddef.h>
#include <stdint.h>

struct iid_bzwork;
/* Work space for inputs of at most max_in bytes (a text's length for
 * iid_bz2_size_decimal): its buffers hold a block of `level`, or what such
 * an input fills when that is less; longer inputs are declined (-1). */
struct iid_bzwork *iid_bzwork_new(int level, size_t max_in);
void iid_bzwork_free(struct iid_bzwork *w);

/* The length BZ2_bzBuffToBuffCompress(dest, &len, in, n, level, 0, wf) gives
 * (with enough room).  Returns 0, or -1 when it cannot be sure (use libbz2). */
int iid_bz2_size(const uint8_t *in, size_t n, int level, struct iid_bzwork *w, uint64_t *size);

/* The same for the text 90B 5.1.11 compresses, the samples v[0..n-1] in
 * decimal separated by spaces, without writing it; *text_len: its length.
 * -1 when it declines (then write the text and use iid_bz2_size or
 * libbz2). */
int iid_bz2_size_decimal(const uint8_t *v, size_t n, int level, struct iid_bzwork *w,
			 uint64_t *size, uint64_t *text_len);
/* That text's length */
uint64_t iid_decimal_text_len(const uint8_t *v, size_t n);

/* Sort by tokens (tokbwt.c) when possible (the default), or always sort the
 * characters with libdivsufsort (on = 0; for tests). */
void iid_bzwork_use_tokens(struct iid_bzwork *w, int on);

/* Use the vector MTF step and Huffman refinement pass where the processor
 * has them (the default), or always the portable ones (on = 0; for tests). */
void iid_bzwork_use_simd(struct iid_bzwork *w, int on);

/* tokbwt.c: the Burrows-Wheeler transform (last column of the sorted
 * rotations) of blk[0..n-1] into bwt[0..n-1], and if in_use is not NULL
 * which of the 256 byte values the block holds, when the block is text of
 * space-terminated tokens (bwt has room for n + 1 bytes: the last is
 * scratch).  Returns 0, or -1 when it declines. */
struct iid_tokbwt;
struct iid_tokbwt *iid_tokbwt_new(size_t block_cap);
void iid_tokbwt_free(struct iid_tokbwt *t);
int iid_tokbwt(const uint8_t *blk, size_t n, uint8_t *bwt, unsigned char *in_use,
	       struct iid_tokbwt *t);

/* The same for a block of the decimal text of the samples v[] (each
 * written "v ", the last without its space): from character off0 of sample
 * i0's to character off1 of sample i1's, n characters; without writing the
 * text. */
int iid_tokbwt_decimal(const uint8_t *v, size_t i0, unsigned off0, size_t i1, unsigned off1,
		       size_t n, uint8_t *bwt, unsigned char *in_use, struct iid_tokbwt *t);

#endif
