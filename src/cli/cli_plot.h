/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_plot.h - runs the gnuplot wrapper, scripts/rngaudit-plot.sh, for
 * `audit --plot` and `report merge --plot`. */
#ifndef RNGAUDIT_CLI_PLOT_H
#define RNGAUDIT_CLI_PLOT_H

#include <stddef.h>

/* Runs `sh SCRIPT OPTS... -- CSV DIR` (SCRIPT: $RNGAUDIT_PLOT_SCRIPT or the
 * installed rngaudit-plot.sh) and waits for it.  On failure says why as
 * `rngaudit CMD: --plot: ...` and returns -1; 0 when the pictures are in DIR. */
int cli_plot_run(const char *cmd, const char *const *opts, size_t nopts, const char *csv,
		 const char *dir);

/* --plot DIR checked before a run: a directory that can be written, or a
 * name that can be made one (its parent exists and can be written); and
 * the plot script readable.  One line and EXIT_ERROR, or 0. */
int cli_plot_check(const char *cmd, const char *dir);

#endif
