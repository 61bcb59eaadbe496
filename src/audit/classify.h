/* SPDX-License-Identifier: GPL-3.0-or-later */
/* classify.h - what a source's output is, decided once per source per run.
 *
 * The backend says what it can know alone (RDRAND is DRBG output, RDSEED
 * conditioned, a character device raw or unknown); what /dev/hwrng carries
 * depends on the kernel's driver behind it, which only the kernel context
 * knows.  This decision is written into the source's info (kind) with its
 * basis, and every report of the run (table, CSV, JUnit, Prometheus, JSON,
 * pictures, the kernel-trust text) reads that one field.
 */
#ifndef RNGAUDIT_AUDIT_CLASSIFY_H
#define RNGAUDIT_AUDIT_CLASSIFY_H

#include <stddef.h>

#include "audit/kernel.h"
#include "sources/source.h"

#define CLASSIFY_BASIS_MAX 240

/* Decides info->kind for a source about to be audited (info->as names the
 * real source a sim stands in for: it is classified as that source would
 * be) and writes why into basis.  k may be NULL (no kernel context). */
void classify_source(struct source_info *info, const struct kernel_ctx *k, char *basis, size_t len);

/* 1 when the hwrng driver named by rng_current is known to pass on DRBG
 * output (virtio-rng); fills what with one phrase on what it carries. */
int classify_hwrng_driver(const char *rng_current, char *what, size_t len);

/* The same as a few words for a table ("the host's RNG, usually its
 * DRBG"), or NULL when the driver is not known to pass on DRBG output. */
const char *classify_hwrng_brief(const char *rng_current);

#endif
