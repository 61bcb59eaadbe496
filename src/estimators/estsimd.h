/* SPDX-License-Identifier: GPL-3.0-or-later */
/* estsimd.h - the switch of an estimator's AVX-512 path: asked of the CPU
 * once, at the first use; tests turn it off to run the portable loop
 * beside it (tuple_prefix_simd, mcw_simd, lag_simd).  The paths are
 * compiled with target attributes, so the binary runs anywhere; valgrind
 * (3.19 here) decodes no AVX-512 and clears the CPUID bits (KDE bug
 * 383010), so under valgrind the portable loops run. */
#ifndef RNGAUDIT_ESTSIMD_H
#define RNGAUDIT_ESTSIMD_H

#if defined(__x86_64__) && \
	((defined(__clang__) && __clang_major__ >= 8) || (!defined(__clang__) && __GNUC__ >= 9))
#define EST_HAVE_AVX512 1
#include <immintrin.h>
#else
#define EST_HAVE_AVX512 0
#endif

/* What the path needs beyond AVX-512F */
#define EST_SIMD_F 0
#define EST_SIMD_VPOPCNT 1   /* AVX512_VPOPCNTDQ: VPOPCNTQ */

/* Sets *state (-1: not asked yet) to 1 when enable and the CPU has what
 * `need` says, else 0; returns it. */
static inline int est_simd_set(int *state, int enable, int need)
{
	int on = 0;

#if EST_HAVE_AVX512
	__builtin_cpu_init();
	on = enable && __builtin_cpu_supports("avx512f") &&
	     (need != EST_SIMD_VPOPCNT || __builtin_cpu_supports("avx512vpopcntdq"));
#else
	(void)enable;
	(void)need;
#endif
	__atomic_store_n(state, on, __ATOMIC_RELAXED);
	return on;
}

/* *state, asked of the CPU at the first call. */
static inline int est_simd_get(int *state, int need)
{
	int on = __atomic_load_n(state, __ATOMIC_RELAXED);

	return on < 0 ? est_simd_set(state, 1, need) : on;
}

#endif
