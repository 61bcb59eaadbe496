/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_wide.h - what assess and iid share for wide raw samples (--format F
 * [--method M]): reading and reducing a file, and the two lines that say
 * how it was reduced and what the figure then means (SP 800-90B 6.4). */
#ifndef RNGAUDIT_CLI_WIDE_H
#define RNGAUDIT_CLI_WIDE_H

#include <stdint.h>
#include <stdio.h>

#include "engine/translate.h"
#include "sources/widefmt.h"

/* Reads at most max samples (0: the memory cap) of path in format f and
 * reduces them by m: the symbols and the map.  On failure prints one line
 * for cmd and returns EXIT_ERROR; else 0 (with a note if the cap cut it). */
int cli_read_wide(const char *cmd, const char *path, enum widefmt f, const struct translate_method *m,
		  uint64_t max, uint8_t **sym, size_t *n, struct translate_map *map);

/* "translated F samples: DESCRIPTION" and the 90B 6.4 lower-bound line. */
void cli_print_translation(FILE *fp, enum widefmt f, const struct translate_map *map);

#endif
