/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_translate.c - `rngaudit translate`: wide raw samples reduced to
 * NIST's 8-bit format by a 90B 6.4 symbol-space reduction.
 *
 *   rngaudit translate [--method M] [--format F] IN -o OUT
 *
 * The symbols go to OUT whole or not at all (atomicfile); the one-line
 * description of the map goes to stdout (to stderr when OUT is stdout). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "report/termtext.h"
#include "engine/samples.h"
#include "engine/translate.h"
#include "engine/widein.h"
#include "sources/widefmt.h"

struct translate_args {
	struct translate_method method;
	enum widefmt format;
	const char *in, *out;
};

static int translate_args_parse(int argc, char **argv, struct translate_args *a)
{
	static const struct option longopts[] = {
		{ "method", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct err e;
	int c;

	if (translate_parse(TRANSLATE_DEFAULT, &a->method, &e) != 0)
		return cli_error_err("translate", &e);
	a->format = WIDEFMT_U8;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":m:f:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (translate_parse(optarg, &a->method, &e) != 0)
				return cli_error_err("translate", &e);
			break;
		case 'f':
			if (widefmt_parse(optarg, &a->format, &e) != 0)
				return cli_error_err("translate", &e);
			break;
		case 'o': a->out = optarg; break;
		case ':':
			return cli_error("translate", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("translate", "unknown option '%s' (see rngaudit translate --help)",
					 argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_error("translate", "an input FILE is required (see rngaudit translate --help)");
	if (argc - optind > 1)
		return cli_error("translate", "unexpected argument '%s'", argv[optind + 1]);
	if (!a->out)
		return cli_error("translate", "-o OUT is required (- for stdout)");
	a->in = argv[optind];
	return 0;
}

static int translate_write(const char *path, const uint8_t *sym, size_t n, struct err *e)
{
	struct atomicfile af;
	int rc = atomicfile_open(&af, path, e);

	if (rc)
		return rc;
	if (fwrite(sym, 1, n, af.fp) != n) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "%s: write failed", path);
	}
	return atomicfile_commit(&af, e);
}

int cmd_translate(int argc, char **argv)
{
	struct translate_args a;
	struct translate_map map;
	struct err e;
	uint8_t *sym = NULL;
	size_t n = 0;
	char line[256];
	int rc, more = 0;

	memset(&a, 0, sizeof a);
	if ((rc = translate_args_parse(argc, argv, &a)) != 0)
		return rc;
	/* OUT checked before reading; one that names stdout (/dev/stdout,
	 * /dev/fd/1, the file stdout is) is stdout: the summary goes to stderr,
	 * not after the symbols */
	if (cli_check_outputs("translate", &(struct outpath){ "-o", a.out }, 1,
			      OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	a.out = outpath_normal(a.out);
	err_clear(&e);
	if (widein_translate_file(a.in, a.format, samples_default_max(), &more, &a.method, &sym, &n,
				  &map, &e) != 0)
		return cli_error_err("translate", &e);
	if (more)
		cli_note("translate", "%s: read the first %zu samples only (the cap, from memory)", a.in, n);
	rc = translate_write(a.out, sym, n, &e);
	free(sym);
	if (rc != 0)
		return cli_error_err("translate", &e);
	translate_describe(&map, line, sizeof line);
	fprintf(strcmp(a.out, "-") == 0 ? stderr : stdout,
		"%s: %zu %s samples -> %u-bit symbols: %s\n", termtext(a.in), n, widefmt_name(a.format),
		map.bits, line);
	return EXIT_OK;
}
