/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256_int.h - what sha256.c shares with its accelerated block function
 * (sha256_shani.c). */
#ifndef RNGAUDIT_SHA256_INT_H
#define RNGAUDIT_SHA256_INT_H
#include <stddef.h>
#include <stdint.h>

/* GCC 5 and clang 3.8 build SHA intrinsics in a function with a target
 * attribute. */
#if defined(__x86_64__) && \
	((defined(__clang__) && __clang_major__ >= 4) || (!defined(__clang__) && __GNUC__ >= 5))
#define SHA256_HAVE_SHANI 1
#else
#define SHA256_HAVE_SHANI 0
#endif

extern const uint32_t sha256_k[64];

/* 1 when the CPU has the SHA extensions (and this build their path) */
int sha256_shani_usable(void);
/* FIPS 180-4 6.2.2 on nblocks 64-byte blocks at p, state h */
void sha256_blocks_shani(uint32_t h[8], const unsigned char *p, size_t nblocks);
#endif
