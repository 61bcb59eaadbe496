/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvread.c - reading an audit CSV back (see csvread.h).
 *
 * The input is fed to libcsv a physical line at a time, so that a message
 * can name the line; a line is cut into pieces of at most CSVREAD_PIECE
 * bytes, so that a "line" of binary junk is refused after a bounded read.
 */
#include "config.h"

#include "input.h"
#include "report/csvcell.h"
#include "report/csvread.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

/* The longest row the audit writes is about 5 KiB: 77 fields, of which the
 * strings come from buffers of at most 256 bytes (struct sysinfo,
 * struct source_info) or are at most VERDICT_REASONS_MAX reason codes, each
 * possibly doubled by quoting, and the numbers at most 24 characters
 * ("%.17g").  A row past 64 KiB (over ten times that) is not ours, and
 * stopping there bounds what a file of junk with no line ends can make
 * libcsv hold. */
#define CSVREAD_ROW_MAX (64 * 1024)
/* Bytes fed to libcsv at once: the unit in which the bound above is checked. */
#define CSVREAD_PIECE (64 * 1024)
/* Room for a file name in messages: ERR_MSG_MAX holds it and the rest. */
#define CSVREAD_NAME_MAX 200
/* Room for a field echoed in a message. */
#define CSVREAD_ECHO_MAX 64
/* libcsv 3's pstate between rows (ROW_NOT_BEGUN in libcsv.c, which the
 * header does not export): where the next byte starts a new row. */
#define CSVREAD_ROW_NOT_BEGUN 0

struct reader {
	csvread_row_fn fn;
	void *ctx;
	struct err *e;
	char file[CSVREAD_NAME_MAX];   /* escaped */
	size_t ncols;                  /* report_csv_columns: the most a row may have */
	size_t fcols;                  /* this file's: ncols, or an older schema's */
	int schema;                    /* the file's, from its header's width (0: as wide as
					  this version's, its first row's schema column says) */
	char schema_text[8];           /* what its rows' schema column holds (schema > 1) */
	char *buf;                     /* the current row's fields, each NUL-terminated */
	size_t used, room;
	size_t *off;                   /* field i starts at buf + off[i] */
	unsigned char *is_bool;        /* column i is one of report_csv_bool_columns */
	const char **field;            /* pointers, made at the end of a row */
	size_t nfields;
	size_t rowbytes;               /* bytes fed since the current row started */
	unsigned long line;            /* physical line being fed (1-based) */
	unsigned long row_line;        /* line the current row started on */
	unsigned long rows;            /* rows seen, the header included */
	int err;
};

static void on_field(void *s, size_t len, void *ctx)
{
	struct reader *r = ctx;

	if (r->err)
		return;
	if (r->nfields == r->ncols) {
		r->err = r->rows == 0
			? err_set(r->e, ERR_DATA, "%s:%lu: header has more than the %zu columns of an audit CSV "
				  "(not an rngaudit audit CSV of this version?)", r->file, r->row_line, r->ncols)
			: err_set(r->e, ERR_DATA, "%s:%lu: more than the %zu fields of the header", r->file,
				  r->row_line, r->ncols);
		return;
	}
	if (len + 1 > r->room - r->used) {   /* the bound on a row keeps this small */
		size_t nr = r->room ? r->room : 4096;
		char *nb;
		while (len + 1 > nr - r->used)
			nr *= 2;
		if (!(nb = realloc(r->buf, nr))) {
			r->err = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->file);
			return;
		}
		r->buf = nb;
		r->room = nr;
	}
	if (len)
		memcpy(r->buf + r->used, s, len);
	r->buf[r->used + len] = '\0';
	r->off[r->nfields++] = r->used;
	r->used += len + 1;
}

/* The schema a file's width names: 1, 2 and 3 are the first
 * REPORT_CSV_V1_NCOLUMNS, _V2_ and _V3_ columns (hosts not yet upgraded);
 * 4 and 5 are as wide as this version's (0: the rows' schema column says),
 * anything else must be this version's. */
static int schema_of_width(size_t n)
{
	return n == REPORT_CSV_V1_NCOLUMNS ? 1 : n == REPORT_CSV_V2_NCOLUMNS ? 2 :
	       n == REPORT_CSV_V3_NCOLUMNS ? 3 : 0;
}

/* The header: exactly the columns of one schema we read, in order. */
static int header_check(struct reader *r)
{
	r->schema = schema_of_width(r->nfields);
	r->fcols = r->schema == 0 ? r->ncols : r->nfields;
	if (r->schema)
		snprintf(r->schema_text, sizeof r->schema_text, "%d", r->schema);
	for (size_t i = 0; i < r->fcols; i++) {
		char got[CSVREAD_ECHO_MAX];
		if (i < r->nfields && strcmp(r->field[i], report_csv_columns[i]) == 0)
			continue;
		return err_set(r->e, ERR_DATA, "%s:%lu: header field %zu is '%s', expected '%s' "
			       "(not an rngaudit audit CSV of this version?)", r->file, r->row_line, i + 1,
			       err_escape(got, sizeof got, i < r->nfields ? r->field[i] : ""),
			       report_csv_columns[i]);
	}
	return 0;
}

/* A file as wide as this version's: schema 4 or 5, as its first row says
 * (every row after must say the same). */
static int schema_of_row(struct reader *r)
{
	const char *s = r->field[REPORT_CSV_SCHEMA_COL];
	char got[CSVREAD_ECHO_MAX];

	if (strcmp(s, "4") == 0 || strcmp(s, REPORT_CSV_SCHEMA_TEXT) == 0) {
		r->schema = s[0] - '0';
		snprintf(r->schema_text, sizeof r->schema_text, "%s", s);
		return 0;
	}
	return err_set(r->e, ERR_DATA, "%s:%lu: schema '%s' (this version reads schemas 1 to %d)", r->file,
		       r->row_line, err_escape(got, sizeof got, s), REPORT_CSV_SCHEMA);
}

/* Schemas 1 to 4 wrote booleans as 0/1, yes/no/unknown and on/off/unknown:
 * each reads back as schema 5 writes it, true, false or empty (unknown),
 * so that the merge reads one form.  Anything else stays as it is, for the
 * reader's own check to name. */
static const char *bool_of_old(const char *v)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "on") == 0)
		return "true";
	if (strcmp(v, "0") == 0 || strcmp(v, "no") == 0 || strcmp(v, "off") == 0)
		return "false";
	if (strcmp(v, "unknown") == 0)
		return "";
	return v;
}

static void on_row(int term, void *ctx)
{
	struct reader *r = ctx;

	(void)term;
	if (!r->err) {
		/* a text cell the writer neutralised reads back as it was (csvcell.h) */
		for (size_t i = 0; i < r->nfields; i++)
			r->field[i] = csvcell_read(r->buf + r->off[i]);
		if (r->rows == 0)
			r->err = header_check(r);
		else if (r->schema == 0 && r->nfields == r->fcols && schema_of_row(r) != 0)
			r->err = r->e->code;
		else if (r->nfields != r->fcols)
			r->err = err_set(r->e, ERR_DATA, "%s:%lu: %zu fields, the header has %zu", r->file,
					 r->row_line, r->nfields, r->fcols);
		else if (r->schema > 1 && strcmp(r->field[REPORT_CSV_SCHEMA_COL], r->schema_text) != 0) {
			char got[CSVREAD_ECHO_MAX];
			r->err = err_set(r->e, ERR_DATA, "%s:%lu: schema '%s' in a file whose header is "
					 "schema %d's (this version reads schemas 1 to %d)", r->file,
					 r->row_line, err_escape(got, sizeof got, r->field[REPORT_CSV_SCHEMA_COL]),
					 r->schema, REPORT_CSV_SCHEMA);
		} else {
			/* older schemas: the newer columns are empty ("not known"),
			 * the booleans in schema 5's form */
			for (size_t i = r->nfields; i < r->ncols; i++)
				r->field[i] = "";
			if (r->schema < REPORT_CSV_SCHEMA)
				for (size_t i = 0; i < r->nfields; i++)
					if (r->is_bool[i])
						r->field[i] = bool_of_old(r->field[i]);
			r->err = r->fn(r->ctx, r->field, r->file, r->row_line, r->e);
		}
	}
	r->nfields = 0;
	r->used = 0;
	r->rowbytes = 0;
	r->rows++;
}

/* libcsv's error, in words that say what is wrong with the file (its own
 * "error parsing data while strict checking enabled" does not). */
static int parse_error(struct reader *r, struct csv_parser *p, int at_end)
{
	switch (csv_error(p)) {
	case CSV_EPARSE:
		if (at_end)
			return err_set(r->e, ERR_DATA, "%s:%lu: not a CSV: a quoted field in the row starting "
				       "here is not closed by the end of the file (truncated?)", r->file, r->row_line);
		return err_set(r->e, ERR_DATA, "%s:%lu: not a CSV: a quote inside an unquoted field, or "
			       "text after a closing quote", r->file, r->line);
	case CSV_ENOMEM:
	case CSV_ETOOBIG:
		return err_set(r->e, ERR_NOMEM, "%s:%lu: out of memory", r->file, r->line);
	default:
		return err_set(r->e, ERR_INTERNAL, "%s:%lu: CSV parser failed", r->file, r->line);
	}
}

/* Feeds len bytes, a line (or a piece of one) at a time. */
static void reader_feed(struct reader *r, struct csv_parser *p, const char *data, size_t len)
{
	while (len && !r->err) {
		const char *nl = memchr(data, '\n', len < CSVREAD_PIECE ? len : CSVREAD_PIECE);
		size_t n = nl ? (size_t)(nl - data) + 1 : (len < CSVREAD_PIECE ? len : CSVREAD_PIECE);

		/* A row starts on the first line fed while libcsv is between rows. */
		if (p->pstate == CSVREAD_ROW_NOT_BEGUN && r->nfields == 0)
			r->row_line = r->line;
		r->rowbytes += n;
		/* A NUL is no text: checked here, once a piece, so that every field
		 * handed on is a C string (and binary junk stops at once). */
		if (memchr(data, '\0', n)) {
			r->err = err_set(r->e, ERR_DATA, "%s:%lu: a NUL byte (not a text CSV)", r->file, r->line);
			return;
		}
		if (csv_parse(p, data, n, on_field, on_row, r) != n) {
			if (!r->err)
				r->err = parse_error(r, p, 0);
			return;
		}
		if (!r->err && r->rowbytes > CSVREAD_ROW_MAX)
			r->err = err_set(r->e, ERR_DATA, "%s:%lu: a row of more than %d KiB (not an rngaudit "
					 "audit CSV)", r->file, r->row_line, CSVREAD_ROW_MAX / 1024);
		if (nl)
			r->line++;
		data += n;
		len -= n;
	}
}

static int reader_init(struct reader *r, struct csv_parser *p, const char *name, csvread_row_fn fn,
		       void *ctx, struct err *e)
{
	memset(r, 0, sizeof *r);
	r->fn = fn;
	r->ctx = ctx;
	r->e = e;
	err_escape(r->file, sizeof r->file, name);
	r->ncols = r->fcols = report_csv_ncolumns();
	r->line = r->row_line = 1;
	r->off = calloc(r->ncols, sizeof *r->off);
	r->field = calloc(r->ncols, sizeof *r->field);
	r->is_bool = calloc(r->ncols, 1);
	if (!r->off || !r->field || !r->is_bool || csv_init(p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		free(r->off);
		free(r->field);
		free(r->is_bool);
		return err_set(e, ERR_NOMEM, "%s: out of memory", r->file);
	}
	for (size_t i = 0; i < r->ncols; i++)
		for (const char *const *b = report_csv_bool_columns; *b; b++)
			if (strcmp(report_csv_columns[i], *b) == 0)
				r->is_bool[i] = 1;
	return 0;
}

/* Ends the parse (a last row without a line end, an open quote) and frees. */
static int reader_finish(struct reader *r, struct csv_parser *p)
{
	if (!r->err && csv_fini(p, on_field, on_row, r) != 0 && !r->err)
		r->err = parse_error(r, p, 1);
	if (!r->err && r->rows == 0)
		r->err = err_set(r->e, ERR_DATA, "%s: empty file (no header; not an rngaudit audit CSV)",
				 r->file);
	csv_free(p);
	free(r->buf);
	free(r->off);
	free(r->field);
	free(r->is_bool);
	return r->err;
}

int csvread_buffer(const char *name, const void *data, size_t len, csvread_row_fn fn, void *ctx,
		   struct err *e)
{
	struct reader r;
	struct csv_parser p;
	int rc;

	if ((rc = reader_init(&r, &p, name, fn, ctx, e)) != 0)
		return rc;
	reader_feed(&r, &p, data, len);
	return reader_finish(&r, &p);
}

int csvread_file(const char *path, csvread_row_fn fn, void *ctx, struct err *e)
{
	struct reader r;
	struct csv_parser p;
	char buf[CSVREAD_PIECE];
	FILE *fp;
	size_t n;
	int rc, fd;

	/* input_open: a FIFO with no writer gets a bounded wait, not a hang. */
	if ((fd = input_open(path, e)) < 0)
		return fd;
	if (!(fp = fdopen(fd, "rb"))) {
		char name[CSVREAD_NAME_MAX];
		int errnum = errno;
		if (fd != STDIN_FILENO)
			close(fd);
		return err_set_errno(e, err_code_from_errno(errnum), errnum, "%s",
				     err_escape(name, sizeof name, path));
	}
	if ((rc = reader_init(&r, &p, path, fn, ctx, e)) != 0) {
		fclose(fp);
		return rc;
	}
	while (!r.err && (n = fread(buf, 1, sizeof buf, fp)) > 0)
		reader_feed(&r, &p, buf, n);
	if (!r.err && ferror(fp))
		r.err = err_set_errno(e, ERR_IO, errno, "%s: read error", r.file);
	fclose(fp);
	return reader_finish(&r, &p);
}
