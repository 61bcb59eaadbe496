/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_report.c - `rngaudit report merge A.csv B.csv ... [-o OUT.csv]
 * [--plot DIR]`: the fleet view of many hosts' audit CSVs (see
 * report/merge.c), and its picture (cli_plot.c). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_plot.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "report/report.h"
#include "report/textwrap.h"

static int report_merge_cmd(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "plot", required_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "-", *plot = NULL, *plot_csv;
	char plot_buf[1100];
	struct merge *m;
	struct err e;
	int c, text = 0, rc = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'F':
			if (strcmp(optarg, "csv") != 0 && strcmp(optarg, "text") != 0)
				return cli_error("report", "--format %s: not csv or text", optarg);
			text = strcmp(optarg, "text") == 0;
			break;
		case 'G': plot = optarg; break;
		case ':':
			return cli_error("report", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("report", "unknown option '%s' (see rngaudit report --help)", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_error("report", "merge: no input CSV files (usage: rngaudit report merge A.csv ... [-o OUT.csv] [--plot DIR])");
	/* outputs checked before the inputs are read */
	if (cli_check_outputs("report", &(struct outpath){ "-o", out }, 1, OUTPATH_DEVICES | OUTPATH_STDOUT) != 0 ||
	    (plot && cli_plot_check("report", plot) != 0))
		return EXIT_ERROR;
	out = outpath_normal(out);
	if (plot && mkdir(plot, 0777) != 0 && errno != EEXIST)
		return cli_error("report", "--plot %s: %s", plot, strerror(errno));
	if (plot && strlen(plot) + sizeof "/fleet.csv" > sizeof plot_buf)
		return cli_error("report", "--plot: directory name too long");
	/* The files are read whole before anything is written: bad input
	 * leaves no output. */
	if (report_merge_create(&m, &e) != 0)
		return cli_error_err("report", &e);
	report_merge_set_text(m, text);
	report_merge_set_width(m, strcmp(out, "-") == 0 ? textwrap_width(STDOUT_FILENO) : 0);
	for (int i = optind; i < argc && rc == 0; i++)
		rc = report_merge_add_file(m, argv[i], &e);
	if (rc == 0)
		rc = report_merge_write(m, out, &e);
	/* The picture is drawn from the fleet CSV: -o's file when it is one,
	 * else DIR/fleet.csv, kept beside the picture. */
	plot_csv = out;
	if (rc == 0 && plot && (text || strcmp(out, "-") == 0)) {
		snprintf(plot_buf, sizeof plot_buf, "%s/fleet.csv", plot);
		plot_csv = plot_buf;
		report_merge_set_text(m, 0);
		rc = report_merge_write(m, plot_csv, &e);
	}
	report_merge_free(m);
	if (rc != 0)
		return cli_error_err("report", &e);
	if (strcmp(out, "-") != 0)
		cli_note("report", "merged %d file%s into %s", argc - optind,
			argc - optind == 1 ? "" : "s", out);
	if (plot) {
		if (cli_plot_run("report", NULL, 0, plot_csv, plot) != 0)
			return EXIT_ERROR;
		cli_note("report", "picture in %s/fleet.png", plot);
	}
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	if (argc < 2)
		return cli_error("report", "missing subcommand (usage: rngaudit report merge A.csv ... [-o OUT.csv])");
	if (strcmp(argv[1], "merge") == 0)
		return report_merge_cmd(argc - 1, argv + 1);
	return cli_error("report", "unknown subcommand '%s' (only 'merge')", argv[1]);
}
