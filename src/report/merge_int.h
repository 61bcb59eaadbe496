/* SPDX-License-Identifier: GPL-3.0-or-later */
/* merge_int.h - what merge.c (reading and grouping audit CSVs) and
 * merge_csv.c (writing the fleet CSV) share.  Internal to src/report/. */
#ifndef RNGAUDIT_MERGE_INT_H
#define RNGAUDIT_MERGE_INT_H

/* The grouping key's columns, in output order.  The kernel's trust is
 * decided per (CPU, microcode, guest or not, kernel), so a fleet's groups
 * are those, per source. */
enum { K_VENDOR, K_FAMILY, K_MODEL, K_MICROCODE, K_VIRT, K_KREL, K_SOURCE, NKEY };

/* The verdicts, in the order of their count columns. */
enum { V_PASS, V_WARN, V_FAIL, V_UNAVAILABLE, NVERDICT };

#endif
