/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_assess.c - `rngaudit assess`: the SP 800-90B non-IID estimators on a
 * NIST-format file, with the arguments of NIST's ea_non_iid:
 *
 *   rngaudit assess [-i|-c] [-a|-t] [-v|-vv|-q] [-l INDEX,SAMPLES] [-o FILE]
 *                   [--format text|csv] [--format SAMPLES [--method M]] FILE [BITS]
 *
 * The text output (-q, default, -v, -vv) is ea_non_iid's line for line
 * (NIST commit 68ed165, version 1.1.7; assess_nist.c), followed by one line
 * of rngaudit's own, always last, for scripts:
 *   assessed min-entropy: X bits per sample
 * -o FILE writes NIST's JSON document (whole or not at all).  --format csv
 * writes one row per estimator (libcsv) instead of the text.
 * --format u16le (or any wide sample format, sources/widefmt.h) reads wide
 * raw samples and reduces them first (90B 6.4, bits-in-use unless --method
 * says otherwise), saying how before the results. */
#include "config.h"

#include <csv.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomicfile.h"
#include "report/nist_noniid.h"
#include "cli/cli_util.h"
#include "cli/cli_wide.h"
#include "cli/nist_out.h"
#include "parse.h"
#include "cli/commands.h"
#include "estimators/noniid.h"
#include "engine/samples.h"
#include "engine/translate.h"
#include "sources/widefmt.h"

struct assess_args {
	struct noniid_opts o;
	int verbose;               /* times -v was given */
	int quiet;                 /* -q: NIST's quiet mode, overrides -v */
	const char *json_path;     /* -o FILE */
	int csv;
	const char *path;
	int have_block;
	int version;               /* --version */
	uint64_t max_samples;      /* 0: samples_default_max() */
	int wide;                  /* --format names a sample format */
	enum widefmt wide_format;
	struct translate_method method;
	int have_method;
	struct translate_map map;  /* the reduction, when wide */
	char translation[256];     /* what it did, in one line */
};

static int assess_parse_block(const char *text, struct assess_args *a)
{
	const char *comma = strchr(text, ',');
	char first[32];
	uint64_t idx, cnt;
	size_t len;

	if (!comma || (len = (size_t)(comma - text)) == 0 || len >= sizeof first)
		return -1;
	memcpy(first, text, len);
	first[len] = '\0';
	if (parse_u64(first, 0, SIZE_MAX, &idx) != 0 ||
	    parse_u64(comma + 1, 1, SIZE_MAX, &cnt) != 0)
		return -1;
	a->o.sub_index = (size_t)idx;
	a->o.sub_count = (size_t)cnt;
	a->have_block = 1;
	return 0;
}

static int assess_parse(int argc, char **argv, struct assess_args *a)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "max-samples", required_argument, NULL, 'M' },
		{ "version", no_argument, NULL, 'V' },
		{ "method", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct err e;
	int c;

	noniid_opts_init(&a->o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":icatvqo:l:", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': a->o.conditioned = 0; break;
		case 'c': a->o.conditioned = 1; break;
		case 'a': a->o.truncate = 0; break;
		case 't': a->o.truncate = 1; break;
		case 'v': a->verbose++; break;
		case 'q': a->quiet = 1; break;
		case 'o': a->json_path = optarg; break;
		case 'l':
			if (assess_parse_block(optarg, a) != 0)
				return cli_error("assess", "-l %s: expected INDEX,SAMPLES (SAMPLES >= 1)", optarg);
			break;
		case 'M':
			if (cli_parse_max_samples("assess", optarg, &a->max_samples) != 0)
				return EXIT_ERROR;
			break;
		case 'f':
			if (strcmp(optarg, "csv") == 0)
				a->csv = 1;
			else if (strcmp(optarg, "text") == 0)
				a->csv = 0;
			else if (widefmt_parse(optarg, &a->wide_format, &e) == 0)
				a->wide = 1;
			else
				return cli_error("assess", "--format %s: expected text or csv, or a sample "
						 "format (%s)", optarg, WIDEFMT_NAMES);
			break;
		case 'm':
			if (translate_parse(optarg, &a->method, &e) != 0)
				return cli_error_err("assess", &e);
			a->have_method = 1;
			break;
		case 'V':
			a->version = 1;
			return 0;
		case ':':
			return cli_error("assess", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("assess", "unknown option '%s' (see rngaudit assess --help)",
					 argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_error("assess", "a sample FILE is required (see rngaudit assess --help)");
	if (argc - optind > 2)
		return cli_error("assess", "unexpected argument '%s'", argv[optind + 2]);
	a->path = argv[optind];
	if (argc - optind == 2 && samples_parse_bits(argv[optind + 1], &a->o.bits, &e) != 0)
		return cli_error_err("assess", &e);
	if (a->have_method && !a->wide)
		return cli_error("assess", "--method needs --format with a wide sample format (%s)",
				 WIDEFMT_NAMES);
	if (a->wide && argc - optind == 2)
		return cli_error("assess", "BITS cannot be given with --format %s: the translation "
				 "decides the symbol width", widefmt_name(a->wide_format));
	if (a->wide && !a->have_method && translate_parse(TRANSLATE_DEFAULT, &a->method, &e) != 0)
		return cli_error_err("assess", &e);
	return 0;
}

/* -log2(1) is -0: shown as 0 outside the NIST-format lines */
static double nz(double x)
{
	return x + 0.0;
}

static const char *set_by(int by)
{
	return by < 0 ? "no estimate below the maximum" : noniid_est_name(by);
}

/* ---- --format csv ------------------------------------------------------ */

/* One quoting convention with the audit CSV (report/csv.c, RFC 4180):
 * text always quoted (quotes doubled), numbers bare, a missing number an
 * empty field, so typed readers load the numeric columns as numbers. */
static int csv_field(FILE *fp, const char *text, int last)
{
	if (csv_fwrite(fp, text, strlen(text)) == EOF)
		return -1;
	return fputs(last ? "\r\n" : ",", fp) == EOF ? -1 : 0;
}

static int csv_number(FILE *fp, const char *num, int last)
{
	if (fputs(num, fp) == EOF)
		return -1;
	return fputs(last ? "\r\n" : ",", fp) == EOF ? -1 : 0;
}

static int csv_row(FILE *fp, const char *domain, const struct est_result *r)
{
	char num[64], details[EST_DETAILS_MAX * 96] = "";
	size_t used = 0;

	for (int i = 0; i < r->ndetails && used < sizeof details; i++) {
		const struct est_detail *d = &r->detail[i];
		int w;

		if (strcmp(d->key, "min entropy") == 0)
			continue;
		if (d->kind == EST_DETAIL_INT)
			w = snprintf(details + used, sizeof details - used, "%s%s=%lld",
				     used ? ";" : "", d->key, d->i);
		else if (d->kind == EST_DETAIL_REAL)
			w = snprintf(details + used, sizeof details - used, "%s%s=%.17g",
				     used ? ";" : "", d->key, d->x);
		else
			w = snprintf(details + used, sizeof details - used, "%s%s",
				     used ? ";" : "", d->key);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (csv_field(fp, domain, 0) || csv_field(fp, r->id, 0) || csv_field(fp, r->name, 0) ||
	    csv_number(fp, r->applicable ? "1" : "0", 0) || csv_field(fp, r->reason, 0))
		return -1;
	snprintf(num, sizeof num, "%.17g", r->applicable ? r->p : 0.0);
	if (csv_number(fp, r->applicable ? num : "", 0))
		return -1;
	snprintf(num, sizeof num, "%.17g", r->applicable ? nz(r->h) : 0.0);
	if (csv_number(fp, r->applicable ? num : "", 0))
		return -1;
	return csv_field(fp, details, 1);
}

static int csv_summary(FILE *fp, const char *id, const char *name, double h, const char *by)
{
	char num[64];

	snprintf(num, sizeof num, "%.17g", nz(h));
	if (csv_field(fp, "summary", 0) || csv_field(fp, id, 0) || csv_field(fp, name, 0) ||
	    csv_number(fp, "1", 0) || csv_field(fp, "", 0) || csv_number(fp, "", 0) ||
	    csv_number(fp, num, 0))
		return -1;
	return csv_field(fp, by, 1);
}

static int print_csv(const struct assess_args *a, const struct noniid_report *rep)
{
	char by[96];

	/* the header's names bare, as in the audit and merged CSVs */
	if (fputs("domain,id,estimator,applicable,reason,p,min_entropy,details\r\n", stdout) == EOF)
		return -1;
	for (int d = 0; d < 2; d++) {
		const struct est_result *r = d ? rep->literal : rep->bitstring;
		const unsigned char *ran = d ? rep->literal_ran : rep->bitstring_ran;

		for (int i = 0; i < NONIID_NEST; i++)
			if (ran[i] && csv_row(stdout, d ? "literal" : "bitstring", &r[i]) != 0)
				return -1;
	}
	if (a->wide && (csv_field(stdout, "input", 0) || csv_field(stdout, "translation", 0) ||
			csv_field(stdout, a->translation, 0) || csv_number(stdout, "1", 0) ||
			csv_field(stdout, "", 0) || csv_number(stdout, "", 0) ||
			csv_number(stdout, "", 0) || csv_field(stdout, "lower bound for the raw samples "
							       "(SP 800-90B 6.4)", 1)))
		return -1;
	if (!a->o.conditioned) {
		snprintf(by, sizeof by, "set_by=%s", set_by(rep->h_original_by));
		if (csv_summary(stdout, "h_original", "H_original", rep->h_original, by))
			return -1;
	}
	if (rep->has_bitstring) {
		snprintf(by, sizeof by, "set_by=%s", set_by(rep->h_bitstring_by));
		if (csv_summary(stdout, "h_bitstring", "H_bitstring", rep->h_bitstring, by))
			return -1;
	}
	snprintf(by, sizeof by, "from=%s", rep->assessed_by_bitstring ? "bits*H_bitstring" : "H_original");
	return csv_summary(stdout, "h_assessed", "Assessed min-entropy", rep->h_assessed, by);
}

/* NIST's text, then rngaudit's one line that scripts read (always last). */
static void print_text(const struct assess_args *a, const struct nist_noniid_run *run,
		       const struct noniid_report *rep)
{
	/* 90B 6.4: how the wide samples were reduced, and what the figure means */
	if (a->wide)
		cli_print_translation(stdout, a->wide_format, &a->map);
	nist_noniid_print(stdout, run, rep);
	printf("assessed min-entropy: %.17g bits per sample\n",
	       rep->alph_size <= 1 ? 0.0 : nz(rep->h_assessed));
}

static void run_init(const struct assess_args *a, const uint8_t *s, size_t n,
		     struct nist_noniid_run *run)
{
	memset(run, 0, sizeof *run);
	run->path = a->path;
	run->have_block = a->have_block;
	run->sub_index = a->o.sub_index;
	run->sub_count = a->o.sub_count;
	run->conditioned = a->o.conditioned;
	run->verbose = a->quiet ? NIST_QUIET : NIST_NORMAL + a->verbose;
	/* only -v's "Opening file" line and the JSON name the hash (1 MB of
	 * samples hashed was 1% of a 1-bit assess) */
	if (run->verbose > NIST_NORMAL || a->json_path)
		sha256_hex(s, n, run->sha256);
}

int cmd_assess(int argc, char **argv)
{
	struct assess_args a;
	struct nist_noniid_run run;
	struct noniid_report rep;
	struct err e;
	char json_fd[32];
	uint8_t *s = NULL;
	size_t n = 0;
	int rc;

	memset(&a, 0, sizeof a);
	nist_note_commandline(argc, argv);
	if (cli_wants_help(argc, argv)) {
		cli_print_command_help("assess", stdout);
		return EXIT_OK;
	}
	if ((rc = assess_parse(argc, argv, &a)) != 0)
		return rc;
	if (a.version)
		return nist_print_version("assess", "noniid");
	/* -o checked before the estimators run; to stdout, it keeps stdout
	 * and the text goes to stderr (one format a stream) */
	if (a.json_path && cli_check_outputs("assess", &(struct outpath){ "-o", a.json_path }, 1,
					     OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	a.json_path = cli_json_stdout_split(a.json_path, json_fd, sizeof json_fd);
	err_clear(&e);
	if (a.wide) {
		if (cli_read_wide("assess", a.path, a.wide_format, &a.method, a.max_samples, &s, &n,
				  &a.map) != 0)
			return EXIT_ERROR;
		translate_describe(&a.map, a.translation, sizeof a.translation);
		a.o.bits = a.map.bits;
	} else if (cli_read_samples("assess", a.path, a.max_samples, &s, &n) != 0) {
		return EXIT_ERROR;
	}
	/* DESIGN.md's signals rule: SIGINT, SIGTERM or SIGHUP stop after the
	 * estimator running; the run is incomplete (2), nothing is written */
	cli_install_stop_handlers();
	a.o.stop = &cli_stop;
	rc = noniid_assess(s, n, &a.o, &rep, &e);
	run_init(&a, s, n, &run);
	free(s);
	if (rc == ERR_INTERRUPTED)
		return cli_error("assess", "%s: interrupted: no result", a.path);
	if (rc != 0)
		return cli_error("assess", "%s: %s", a.path, e.msg);
	if (a.json_path && nist_json_save("assess", a.json_path, nist_noniid_json(&run, &rep)) != 0) {
		noniid_report_free(&rep);
		return EXIT_ERROR;
	}
	if (a.csv)
		rc = print_csv(&a, &rep);
	else
		print_text(&a, &run, &rep);
	noniid_report_free(&rep);
	if (rc != 0 || fflush(stdout) == EOF || ferror(stdout))
		return cli_error("assess", "could not write the results to standard output");
	return EXIT_OK;
}
