/* SPDX-License-Identifier: GPL-3.0-or-later */
/* promfmt.c - Prometheus text exposition format (see promfmt.h). */
#include "config.h"

#include "report/promfmt.h"

#include <math.h>
#include <stdlib.h>

#include "err.h"

void promfmt_family(struct promfmt_family *f, FILE *fp, const char *name, const char *type,
		    const char *help)
{
	f->fp = fp;
	f->name = name;
	f->type = type;
	f->help = help;
	f->headed = 0;
}

/* The format escapes only backslash, double quote and newline, and a
 * label value must be valid UTF-8: Prometheus and node_exporter reject a
 * file holding one that is not (node_exporter drops the whole textfile).
 * A source spec or file name may hold any bytes, so every other character
 * err_escape() would escape (a byte that is not UTF-8, a C1 or C0 control)
 * is written as the text of its escape, "\xff" read back as a backslash,
 * 'x', 'f', 'f': valid UTF-8 that still says which byte it was. */
void promfmt_label(FILE *fp, const char *s)
{
	while (*s) {
		char piece[ERR_ESCAPE_PIECE];
		size_t n;
		if (*s == '\\' || *s == '"' || *s == '\n') {
			fputs(*s == '\\' ? "\\\\" : *s == '"' ? "\\\"" : "\\n", fp);
			s++;
			continue;
		}
		s += err_escape_char(s, piece, &n, 0);
		if (piece[0] == '\\')      /* an escape: its backslash escaped in turn */
			fputc('\\', fp);
		fwrite(piece, 1, n, fp);
	}
}

void promfmt_value(FILE *fp, double v)
{
	if (isnan(v))
		fputs("NaN", fp);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", fp);
	else {
		/* the shortest of 15, 16, 17 digits that reads back as v (0.1, not
		 * 0.10000000000000001); 17 always does */
		char buf[32];
		v += 0.0;                /* -0.0 + 0.0 is +0.0 (IEEE 754, round to nearest) */
		for (int digits = 15; digits <= 17; digits++) {
			snprintf(buf, sizeof buf, "%.*g", digits, v);
			if (strtod(buf, NULL) == v)
				break;
		}
		fputs(buf, fp);
	}
}

void promfmt_sample(struct promfmt_family *f, const char *const *labels, double v)
{
	if (!f->headed) {
		/* HELP text escapes only backslash and newline; ours has neither */
		fprintf(f->fp, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help, f->name, f->type);
		f->headed = 1;
	}
	fputs(f->name, f->fp);
	if (labels && labels[0]) {
		fputc('{', f->fp);
		for (size_t i = 0; labels[i] && labels[i + 1]; i += 2) {
			fprintf(f->fp, "%s%s=\"", i ? "," : "", labels[i]);
			promfmt_label(f->fp, labels[i + 1]);
			fputc('"', f->fp);
		}
		fputc('}', f->fp);
	}
	fputc(' ', f->fp);
	promfmt_value(f->fp, v);
	fputc('\n', f->fp);
}

void promfmt_build_info(FILE *fp, const char *source, const char *version, const char *policy)
{
	struct promfmt_family f;

	promfmt_family(&f, fp, "rngaudit_build_info", PROMFMT_GAUGE,
		       "1, labelled with the rngaudit version and the policy file that wrote this textfile.");
	if (source)
		promfmt_sample(&f, (const char *const[]){ "source", source, "version", version, "policy",
							  policy, NULL }, 1);
	else
		promfmt_sample(&f, (const char *const[]){ "version", version, "policy", policy, NULL }, 1);
}
