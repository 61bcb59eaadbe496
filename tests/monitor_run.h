/* SPDX-License-Identifier: GPL-3.0-or-later */
/* monitor_run.h - a simulated source through a health monitor and the
 * engine, for test_health.c and test_budget.c (header-only test helper). */
#ifndef RNGAUDIT_TESTS_MONITOR_RUN_H
#define RNGAUDIT_TESTS_MONITOR_RUN_H

#include <stdio.h>

#include "engine/engine.h"
#include "health/health_monitor.h"
#include "sources/source.h"

/* Opens spec, sets c's word width and kind from it, reads at most n
 * K-bit samples (K = c->bits) in blocks of block bytes (0: the engine's
 * default) through a monitor made from c.  Fills *r and, if not NULL,
 * *samples; returns the engine's status, or -1 (said on a # line) if the
 * source or the monitor could not be set up. */
static inline int monitor_run(const char *spec, struct health_monitor_config *c, uint64_t n,
			      size_t block, struct health_monitor_results *r, uint64_t *samples)
{
	struct source *src;
	struct health_monitor *m;
	struct engine_opts o = { 0 };
	struct engine_stats st;
	struct sink *sinks[1];
	struct err e;
	int rc;

	if (source_open(&src, spec, &e) != 0) {
		printf("# %s: %s\n", spec, e.msg);
		return -1;
	}
	c->word_bits = source_get_info(src)->word_bits;
	c->kind = source_get_info(src)->kind;
	if (health_monitor_new(&m, c, &e) != 0) {
		printf("# %s: %s\n", spec, e.msg);
		source_close(src);
		return -1;
	}
	sinks[0] = health_monitor_sink(m);
	o.bits = c->bits;
	o.max_samples = n;
	o.block_bytes = block;
	rc = engine_run(src, &o, sinks, 1, &st, &e);
	if (rc)
		printf("# %s: %s\n", spec, e.msg);
	health_monitor_results(m, r);
	if (samples)
		*samples = st.samples;
	health_monitor_free(m);
	source_close(src);
	return rc;
}

#endif
