/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_wide.c - wide raw samples for assess and iid (see cli_wide.h). */
#include "config.h"

#include "cli/cli_wide.h"

#include "cli/cli_util.h"
#include "engine/samples.h"
#include "engine/widein.h"

int cli_read_wide(const char *cmd, const char *path, enum widefmt f, const struct translate_method *m,
		  uint64_t max, uint8_t **sym, size_t *n, struct translate_map *map)
{
	size_t cap = max ? (size_t)max : samples_default_max();
	struct err e;
	int more = 0;

	err_clear(&e);
	if (widein_translate_file(path, f, cap, &more, m, sym, n, map, &e) != 0)
		return cli_error_err(cmd, &e);
	if (more)
		cli_note(cmd, "%s: read the first %zu samples only (the cap%s)", path, cap,
			 max ? " set by --max-samples" : ", from memory: --max-samples changes it");
	return 0;
}

void cli_print_translation(FILE *fp, enum widefmt f, const struct translate_map *map)
{
	char line[256];

	translate_describe(map, line, sizeof line);
	fprintf(fp, "translated %s samples: %s\n", widefmt_name(f), line);
	fprintf(fp, "the assessed figure is for the reduced symbols: a lower bound for the raw "
		"samples (SP 800-90B 6.4)\n");
}
