/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_int.h - the parts of kernel.c that live in kernel_dev.c (virtual
 * machine, hwrng, CRNG, the sysroot bundle).  Internal to src/audit/. */
#ifndef RNGAUDIT_KERNEL_INT_H
#define RNGAUDIT_KERNEL_INT_H

#include "audit/kernel.h"
#include "audit/sysroot.h"

void kernel_virt(struct kernel_ctx *k, const struct sysroot *sr, const char *cpuinfo, size_t cilen);
void kernel_hwrng(struct kernel_ctx *k, const struct sysroot *sr);
void kernel_crng(struct kernel_ctx *k, const struct sysroot *sr);

/* The kernel log's relevant lines: live from /dev/kmsg, else dmesg.txt. */
int kernel_log_read(const struct sysroot *sr, char **buf, size_t *len, char *why, size_t whylen);

#endif
