/* merge.c - `rngaudit report merge`: many hosts' audit CSVs into one row per
 * (cpu_vendor, cpu_family, cpu_model, microcode, source): the table a
 * distribution needs to see which parts and microcode revisions misbehave.
 *
 * Every input is read with libcsv in strict mode and checked whole before
 * anything is written: the header must be exactly report_csv_columns, every
 * row must have as many fields, and the fields the merge reads must parse.
 * The first problem is an ERR_DATA naming FILE:LINE.
 */
#include "config.h"

#include "report/report.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"

const char *const report_merge_columns[] = {
	"cpu_vendor", "cpu_family", "cpu_model", "microcode", "source", "hosts", "runs", "pass", "warn",
	"fail", "unavailable", "h_assessed_min", "h_assessed_median", NULL,
};

enum { K_VENDOR, K_FAMILY, K_MODEL, K_MICROCODE, K_SOURCE, NKEY };

struct group {
	char *key[NKEY];
	char **hosts;
	size_t nhosts, caphosts;
	unsigned long runs, counts[4];   /* pass, warn, fail, unavailable */
	double *h;
	size_t nh, caph;
};

struct merge {
	struct group *g;
	size_t n, cap;
	int key_col[NKEY], host_col, verdict_col, h_col;
};

/* Parser state for one file. */
struct reader {
	struct merge *m;
	const char *path;
	size_t ncols;
	char **fields;               /* current row */
	size_t nfields;
	unsigned line;               /* physical line being fed */
	unsigned row_line;           /* line the current row started on */
	unsigned rows;
	int err;
	struct err *e;
};

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static void on_field(void *s, size_t len, void *ctx)
{
	struct reader *r = ctx;
	(void)len;
	if (r->err)
		return;
	if (r->nfields == 0)
		r->row_line = r->line;
	if (r->nfields == r->ncols) {
		r->err = err_set(r->e, ERR_DATA, "%s:%u: more than the %zu fields of the header", r->path,
				 r->row_line, r->ncols);
		return;
	}
	r->fields[r->nfields] = dupstr(s ? (const char *)s : "");
	if (!r->fields[r->nfields]) {
		r->err = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->path);
		return;
	}
	r->nfields++;
}

static int push_str(char ***arr, size_t *n, size_t *cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*arr)[i], s) == 0)
			return 0;
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 8;
		char **na = realloc(*arr, nc * sizeof *na);
		if (!na)
			return -1;
		*arr = na;
		*cap = nc;
	}
	if (!((*arr)[*n] = dupstr(s)))
		return -1;
	(*n)++;
	return 0;
}

static int row_add(struct reader *r)
{
	struct merge *m = r->m;
	struct group *g = NULL;
	const char *verdict = r->fields[m->verdict_col], *hs = r->fields[m->h_col];
	static const char *const names[4] = { "pass", "warn", "fail", "unavailable" };
	int vi = -1;
	double h = NAN;

	for (int i = 0; i < 4; i++)
		if (strcmp(verdict, names[i]) == 0)
			vi = i;
	if (vi < 0)
		return err_set(r->e, ERR_DATA, "%s:%u: verdict '%.40s' is not pass, warn, fail or unavailable",
			       r->path, r->row_line, verdict);
	if (*hs) {
		char *end;
		errno = 0;
		h = strtod(hs, &end);
		if (errno || *end || !isfinite(h) || h < 0)
			return err_set(r->e, ERR_DATA, "%s:%u: h_assessed '%.40s' is not a number", r->path,
				       r->row_line, hs);
	}
	if (!*r->fields[m->key_col[K_SOURCE]])
		return err_set(r->e, ERR_DATA, "%s:%u: empty source", r->path, r->row_line);
	for (int k = K_FAMILY; k <= K_MODEL; k++) {
		const char *t = r->fields[m->key_col[k]];
		if (!*t || strspn(t, "0123456789") != strlen(t))
			return err_set(r->e, ERR_DATA, "%s:%u: %s '%.20s' is not a decimal number", r->path,
				       r->row_line, k == K_FAMILY ? "cpu_family" : "cpu_model", t);
	}
	for (size_t i = 0; i < m->n && !g; i++) {
		int same = 1;
		for (int k = 0; k < NKEY && same; k++)
			same = strcmp(m->g[i].key[k], r->fields[m->key_col[k]]) == 0;
		if (same)
			g = &m->g[i];
	}
	if (!g) {
		if (m->n == m->cap) {
			size_t nc = m->cap ? 2 * m->cap : 16;
			struct group *ng = realloc(m->g, nc * sizeof *ng);
			if (!ng)
				return err_set(r->e, ERR_NOMEM, "out of memory");
			m->g = ng;
			m->cap = nc;
		}
		g = &m->g[m->n++];
		memset(g, 0, sizeof *g);
		for (int k = 0; k < NKEY; k++)
			if (!(g->key[k] = dupstr(r->fields[m->key_col[k]])))
				return err_set(r->e, ERR_NOMEM, "out of memory");
	}
	if (push_str(&g->hosts, &g->nhosts, &g->caphosts, r->fields[m->host_col]) != 0)
		return err_set(r->e, ERR_NOMEM, "out of memory");
	g->runs++;
	g->counts[vi]++;
	if (!isnan(h)) {
		if (g->nh == g->caph) {
			size_t nc = g->caph ? 2 * g->caph : 8;
			double *nh = realloc(g->h, nc * sizeof *nh);
			if (!nh)
				return err_set(r->e, ERR_NOMEM, "out of memory");
			g->h = nh;
			g->caph = nc;
		}
		g->h[g->nh++] = h;
	}
	return 0;
}

static int find_col(const struct reader *r, const char *name)
{
	for (size_t i = 0; i < r->ncols; i++)
		if (strcmp(report_csv_columns[i], name) == 0)
			return (int)i;
	return -1;
}

static void on_row(int term, void *ctx)
{
	struct reader *r = ctx;
	(void)term;
	if (!r->err) {
		if (r->nfields == 0)
			r->row_line = r->line;
		if (r->rows == 0) {
			/* The header: exactly our columns, in order. */
			for (size_t i = 0; i < r->ncols && !r->err; i++)
				if (i >= r->nfields || strcmp(r->fields[i], report_csv_columns[i]) != 0)
					r->err = err_set(r->e, ERR_DATA, "%s:%u: header field %zu is '%.40s', expected "
							 "'%s' (not an rngaudit audit CSV of this version?)", r->path,
							 r->row_line, i + 1, i < r->nfields ? r->fields[i] : "",
							 report_csv_columns[i]);
		} else if (r->nfields != r->ncols) {
			r->err = err_set(r->e, ERR_DATA, "%s:%u: %zu fields, the header has %zu", r->path,
					 r->row_line, r->nfields, r->ncols);
		} else {
			r->err = row_add(r);
		}
	}
	for (size_t i = 0; i < r->nfields; i++)
		free(r->fields[i]);
	r->nfields = 0;
	r->rows++;
}

static int merge_file(struct merge *m, const char *path, struct err *e)
{
	struct reader r = { 0 };
	struct csv_parser p;
	FILE *fp;
	char buf[65536];
	int rc = 0;

	r.m = m;
	r.path = path;
	r.e = e;
	r.ncols = report_csv_ncolumns();
	r.fields = calloc(r.ncols, sizeof *r.fields);
	if (!r.fields)
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	fp = fopen(path, "rb");
	if (!fp) {
		free(r.fields);
		return err_set_errno(e, err_code_from_errno(errno), errno, "%s", path);
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		fclose(fp);
		free(r.fields);
		return err_set(e, ERR_NOMEM, "%s: cannot set up the CSV parser", path);
	}
	r.line = 1;
	/* Feed one physical line at a time so errors can name the line. */
	while (!r.err && fgets(buf, sizeof buf, fp)) {
		size_t len = strlen(buf);
		if (csv_parse(&p, buf, len, on_field, on_row, &r) != len) {
			if (!r.err)
				r.err = err_set(e, ERR_DATA, "%s:%u: %s", path, r.line, csv_strerror(csv_error(&p)));
			break;
		}
		if (len && buf[len - 1] == '\n')
			r.line++;
	}
	if (!r.err && ferror(fp))
		r.err = err_set(e, ERR_IO, "%s: read error", path);
	if (!r.err && csv_fini(&p, on_field, on_row, &r) != 0 && !r.err)
		r.err = err_set(e, ERR_DATA, "%s:%u: %s (unterminated quoted field?)", path, r.line,
				csv_strerror(csv_error(&p)));
	if (!r.err && r.rows == 0)
		r.err = err_set(e, ERR_DATA, "%s: empty file (no header)", path);
	csv_free(&p);
	fclose(fp);
	for (size_t i = 0; i < r.nfields; i++)
		free(r.fields[i]);
	free(r.fields);
	rc = r.err;
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	for (int k = 0; k < NKEY; k++) {
		int c;
		/* Numbers compare as numbers so model 8 sorts before 17. */
		if (k == K_FAMILY || k == K_MODEL) {
			unsigned long u = strtoul(x->key[k], NULL, 10), v = strtoul(y->key[k], NULL, 10);
			if (u != v)
				return u < v ? -1 : 1;
		}
		if ((c = strcmp(x->key[k], y->key[k])) != 0)
			return c;
	}
	return 0;
}

static void merge_free(struct merge *m)
{
	for (size_t i = 0; i < m->n; i++) {
		for (int k = 0; k < NKEY; k++)
			free(m->g[i].key[k]);
		for (size_t j = 0; j < m->g[i].nhosts; j++)
			free(m->g[i].hosts[j]);
		free(m->g[i].hosts);
		free(m->g[i].h);
	}
	free(m->g);
}

static int put_field(FILE *fp, const char *s, int first)
{
	if (!first && fputc(',', fp) == EOF)
		return -1;
	return csv_fwrite(fp, s, strlen(s)) == EOF ? -1 : 0;
}

int report_merge(const char *const *paths, size_t npaths, const char *out, struct err *e)
{
	struct merge m = { 0 };
	struct reader probe = { 0 };
	struct atomicfile af;
	int rc = 0, bad = 0;

	probe.ncols = report_csv_ncolumns();
	m.key_col[K_VENDOR] = find_col(&probe, "cpu_vendor");
	m.key_col[K_FAMILY] = find_col(&probe, "cpu_family");
	m.key_col[K_MODEL] = find_col(&probe, "cpu_model");
	m.key_col[K_MICROCODE] = find_col(&probe, "microcode");
	m.key_col[K_SOURCE] = find_col(&probe, "source");
	m.host_col = find_col(&probe, "host");
	m.verdict_col = find_col(&probe, "verdict");
	m.h_col = find_col(&probe, "h_assessed");
	if (npaths == 0)
		return err_set(e, ERR_USAGE, "report merge: no input files");
	for (size_t i = 0; i < npaths; i++)
		if ((rc = merge_file(&m, paths[i], e)) != 0) {
			merge_free(&m);
			return rc;
		}
	qsort(m.g, m.n, sizeof *m.g, cmp_group);

	if ((rc = atomicfile_open(&af, out, e)) != 0) {
		merge_free(&m);
		return rc;
	}
	for (size_t i = 0; report_merge_columns[i]; i++)
		if (fprintf(af.fp, "%s%s", i ? "," : "", report_merge_columns[i]) < 0)
			bad = 1;
	if (fputs("\r\n", af.fp) == EOF)
		bad = 1;
	for (size_t i = 0; i < m.n; i++) {
		struct group *g = &m.g[i];
		for (int k = 0; k < NKEY; k++) {
			/* family and model are validated decimals: bare, like the input */
			if (k == K_FAMILY || k == K_MODEL) {
				if (fprintf(af.fp, ",%s", g->key[k]) < 0)
					bad = 1;
			} else if (put_field(af.fp, g->key[k], k == 0) != 0) {
				bad = 1;
			}
		}
		if (fprintf(af.fp, ",%zu,%lu,%lu,%lu,%lu,%lu", g->nhosts, g->runs, g->counts[0], g->counts[1],
			    g->counts[2], g->counts[3]) < 0)
			bad = 1;
		if (g->nh) {
			double med;
			qsort(g->h, g->nh, sizeof *g->h, cmp_double);
			med = g->nh % 2 ? g->h[g->nh / 2] : 0.5 * (g->h[g->nh / 2 - 1] + g->h[g->nh / 2]);
			if (fprintf(af.fp, ",%.17g,%.17g\r\n", g->h[0] + 0.0, med + 0.0) < 0)
				bad = 1;
		} else if (fputs(",,\r\n", af.fp) == EOF) {
			bad = 1;
		}
	}
	merge_free(&m);
	if (bad || ferror(af.fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "report merge: write error on %s", out);
	}
	return atomicfile_commit(&af, e);
}
