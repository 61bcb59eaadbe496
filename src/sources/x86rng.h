/* SPDX-License-Identifier: GPL-3.0-or-later */
/* x86rng.h - CPUID checks for RDRAND/RDSEED (0 on non-x86 machines). */
#ifndef RNGAUDIT_X86RNG_H
#define RNGAUDIT_X86RNG_H

int x86rng_have_rdrand(void);
int x86rng_have_rdseed(void);

#endif
