/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tokbwt_int.h - what tokbwt.c and toksort.c share: the token sort's
 * limits and working arrays. */
#ifndef RNGAUDIT_IID_TOKBWT_INT_H
#define RNGAUDIT_IID_TOKBWT_INT_H

#include <stddef.h>
#include <stdint.h>

#include <divsufsort.h>

#include "iid/bzsize.h"

#define TOK_MAX_LEN 8           /* a token is packed big-endian into a uint64_t */
#define TOK_MAX_DISTINCT 1024   /* 256 sample values and the odd tokens at the wrap */
#define TOK_HASH 4096           /* open addressing, > 2 * TOK_MAX_DISTINCT */
#define TOK_MAX_DEPTH 64        /* keys compared past the first before declining */
#define TOK_RUN_SORT 32         /* longer runs of equal top key bits are sorted by key */
#define TOK_MAX_SHIFT 64        /* insertion sort moves allowed per item */
#define TOK_IDX_BITS 24         /* rotation number in a radix record */
#define TOK_IDX_MAX ((1u << TOK_IDX_BITS) - 1)
#define TOK_KEY_MASK (~0ULL << 34)   /* bits 34..63 of a record: a key's top 30;
					below them the string before (10 bits) */
#define TOK_RUN_MAX 4096        /* a longer run of equal top key bits: suffix-sort */

struct iid_tokbwt {
	size_t cap;                 /* most tokens */
	uint16_t *tr;               /* token j's string (its distinct number) */
	uint16_t *before;           /* the string of token j - 1 (cyclically) */
	uint16_t *rk;               /* rank of token j's string, + 64 from the start */
	uint16_t *dprev;            /* the string before each rotation, in order */
	unsigned per_key;           /* tokens in a key (step 3) */
	uint64_t base, top;         /* its base (the distinct ones), the first's weight */
	unsigned shift;             /* a key shifted left this much fills 64 bits */
	uint64_t *key;              /* the keys, when ties are common (skewed data) */
	int have_keys;
	uint64_t *pair;             /* radix sort records */
	uint8_t *twice;             /* deep ties: the token ranks, twice */
	saidx_t *sa;                /* and their suffix array */
};

/* a key and the item it belongs to, for qsort */
struct tok_kp { uint64_t key; uint32_t idx; };
int tok_cmp_kp(const void *a, const void *b);
/* Sorts p[0..n-1] by key, equal keys in their order (tmp: room for n):
 * radix passes over the bytes in which the keys differ, for the few
 * hundred token strings and their tails of a block, which qsort's
 * comparisons through a pointer cost more than the block's other small
 * steps together */
void tok_radix_kp(struct tok_kp *p, size_t n, struct tok_kp *tmp);

int tok_sort_rotations(struct iid_tokbwt *t, size_t m, const uint16_t *rank_of, int ndistinct,
		       const uint32_t *dcount);

#endif
