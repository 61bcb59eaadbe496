/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_prom.h - `health --follow`'s state as a node_exporter textfile.
 *
 * Prometheus exposition format 0.0.4, written whole through atomicfile.h
 * (temp + rename) so that node_exporter's textfile collector never reads
 * half a file; no sample carries a client timestamp (node_exporter rejects
 * the file for one), the time goes in a _timestamp_seconds gauge.  The
 * counts grow for as long as the monitor runs, so they are counters.
 */
#ifndef RNGAUDIT_HEALTH_PROM_H
#define RNGAUDIT_HEALTH_PROM_H

#include "err.h"
#include "health/health_monitor.h"

/* Writes path (or "-": stdout) for the monitored source.  policy: the file
 * the policy came from, for rngaudit_build_info.  now: wall-clock seconds
 * since the epoch for the last-update gauge. */
int health_prom_write(const char *path, const char *source, const char *policy,
		      const struct health_monitor_results *r, double now, struct err *e);

#endif
