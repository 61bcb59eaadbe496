/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_csvcell.c - libFuzzer target: the CSV writers' neutralisation of
 * text cells (report/csvcell.h, issue 24 item 3), round trip through a
 * strict CSV reader.
 *
 * The input is up to FIELDS texts separated by NUL bytes.  They become:
 *  1. one row of cells written by csvcell_write(), read back by libcsv in
 *     strict mode: as many fields, each one csvcell_read() turns back into
 *     the text written;
 *  2. the host, CPU vendor, kernel, source spec and recommendation of an
 *     audit report written by report_csv_write() (to a memfd, through
 *     /dev/fd/N: no file is written), read back strictly: the text cells
 *     hold the texts;
 *  3. that CSV merged (report merge), the fleet CSV read back strictly.
 * In every CSV no cell starts with =, +, -, @, TAB or CR unless it is a
 * number, and the fleet CSV's vendor and source cells read back as the
 * audit's (one apostrophe, never stacked).
 */
#include "config.h"

#include "fuzz.h"

#include <csv.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report/csvcell.h"
#include "report/report.h"

#define FIELDS 8
#define CELLS_MAX 128

struct table {
	char *cell[4][CELLS_MAX];   /* at most 4 rows */
	size_t ncell[4];
	size_t rows;
	int overflow;
};

static void on_field(void *s, size_t len, void *ctx)
{
	struct table *t = ctx;
	size_t r = t->rows;
	if (r >= 4 || t->ncell[r] >= CELLS_MAX) {
		t->overflow = 1;
		return;
	}
	t->cell[r][t->ncell[r]++] = fuzz_strdup(s ? s : (const void *)"", len);
}

static void on_row(int c, void *ctx)
{
	struct table *t = ctx;
	(void)c;
	t->rows++;
}

static void table_free(struct table *t)
{
	for (size_t r = 0; r < 4; r++)
		for (size_t i = 0; i < t->ncell[r]; i++)
			free(t->cell[r][i]);
	memset(t, 0, sizeof *t);
}

/* Parses text strictly (RFC 4180: quotes only around whole fields). */
static int table_parse(struct table *t, const char *text, size_t len)
{
	struct csv_parser p;
	int ok;
	memset(t, 0, sizeof *t);
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return 0;
	ok = csv_parse(&p, text, len, on_field, on_row, t) == len && csv_fini(&p, on_field, on_row, t) == 0;
	csv_free(&p);
	return ok && !t->overflow;
}

/* 1 when the cell is a number as the writers write them (all of it). */
static int numeric(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	(void)strtod(s, &end);
	return *end == '\0';
}

static void assert_neutral(const struct table *t)
{
	for (size_t r = 0; r < t->rows && r < 4; r++)
		for (size_t i = 0; i < t->ncell[r]; i++) {
			const char *c = t->cell[r][i];
			if (c[0] && strchr(CSVCELL_TRIGGERS, c[0]))
				FUZZ_ASSERT(numeric(c));
		}
}

/* The column called name in the header, or -1. */
static int column(const struct table *t, const char *name)
{
	for (size_t i = 0; i < t->ncell[0]; i++)
		if (strcmp(t->cell[0][i], name) == 0)
			return (int)i;
	return -1;
}

/* 1. a row of csvcell_write() cells, read back */
static void row_round_trip(char *const *f, size_t n)
{
	struct table t;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp)
		return;
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', fp);
		FUZZ_ASSERT(csvcell_write(fp, f[i], strlen(f[i])) == 0);
	}
	fputs("\r\n", fp);
	fclose(fp);
	FUZZ_ASSERT(table_parse(&t, text, len));
	FUZZ_ASSERT(t.rows == 1 && t.ncell[0] == n);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(strcmp(csvcell_read(t.cell[0][i]), f[i]) == 0);
		FUZZ_ASSERT(!csvcell_needs_prefix(f[i], strlen(f[i])) || t.cell[0][i][0] == '\'');
	}
	assert_neutral(&t);
	table_free(&t);
	free(text);
}

static struct report_run run;
static struct report_source src;
static struct policy pol;

/* 2 and 3: the audit CSV of a report carrying the texts, and its merge. */
static void report_round_trip(char *const *f)
{
	struct table t, ft;
	struct merge *m;
	struct err e;
	char path[64], *csv, *fleet = NULL;
	size_t fleetlen = 0;
	off_t len;
	FILE *fp;
	int fd = memfd_create("fuzz-csv", MFD_CLOEXEC), c;

	if (fd < 0)
		return;
	memset(&run, 0, sizeof run);
	memset(&src, 0, sizeof src);
	policy_defaults(&pol);
	run.policy = &pol;
	run.tool_version = "fuzz";
	run.n = 1;
	run.src = &src;
	snprintf(run.sys.hostname, sizeof run.sys.hostname, "%s", f[0]);
	snprintf(run.sys.cpu_vendor, sizeof run.sys.cpu_vendor, "%s", f[1]);
	snprintf(run.sys.kernel, sizeof run.sys.kernel, "%s", f[2]);
	/* the merge refuses a row with an empty source */
	snprintf(src.requested, sizeof src.requested, "%s", f[3][0] ? f[3] : "x");
	snprintf(src.trust.recommendation, sizeof src.trust.recommendation, "%s", f[4]);
	snprintf(src.trust.reason, sizeof src.trust.reason, "%s", f[5]);
	src.verdict.status = VERDICT_UNAVAILABLE;
	snprintf(path, sizeof path, "/dev/fd/%d", fd);
	FUZZ_ASSERT(report_csv_write(path, &run, &e) == 0);
	len = lseek(fd, 0, SEEK_END);
	csv = malloc((size_t)len + 1);
	FUZZ_ASSERT(csv && pread(fd, csv, (size_t)len, 0) == len);
	close(fd);
	FUZZ_ASSERT(table_parse(&t, csv, (size_t)len));
	FUZZ_ASSERT(t.rows == 2 && t.ncell[1] == t.ncell[0]);
	assert_neutral(&t);
	FUZZ_ASSERT((c = column(&t, "host")) >= 0 && strcmp(csvcell_read(t.cell[1][c]), run.sys.hostname) == 0);
	FUZZ_ASSERT((c = column(&t, "cpu_vendor")) >= 0 && strcmp(csvcell_read(t.cell[1][c]), run.sys.cpu_vendor) == 0);
	FUZZ_ASSERT((c = column(&t, "source")) >= 0 && strcmp(csvcell_read(t.cell[1][c]), src.requested) == 0);
	FUZZ_ASSERT((c = column(&t, "recommendation_reason")) < 0 ||
		    strcmp(csvcell_read(t.cell[1][c]), src.trust.reason) == 0);

	/* 3. merged: the fleet CSV's cells are the audit's, prefixed once */
	FUZZ_ASSERT(report_merge_create(&m, &e) == 0);
	FUZZ_ASSERT(report_merge_add_buffer(m, "fuzz.csv", csv, (size_t)len, &e) == 0);
	fp = open_memstream(&fleet, &fleetlen);
	if (fp) {
		int vc, sc, ac, bc;
		FUZZ_ASSERT(report_merge_print(m, fp, &e) == 0);
		fclose(fp);
		FUZZ_ASSERT(table_parse(&ft, fleet, fleetlen));
		assert_neutral(&ft);
		vc = column(&ft, "cpu_vendor");
		sc = column(&ft, "source");
		ac = column(&t, "cpu_vendor");
		bc = column(&t, "source");
		FUZZ_ASSERT(ft.rows == 2 && vc >= 0 && sc >= 0);
		FUZZ_ASSERT(strcmp(ft.cell[1][vc], t.cell[1][ac]) == 0);
		FUZZ_ASSERT(strcmp(ft.cell[1][sc], t.cell[1][bc]) == 0);
		table_free(&ft);
		free(fleet);
	}
	report_merge_free(m);
	table_free(&t);
	free(csv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char empty[] = "";
	char *copy = malloc(size + 1), *f[FIELDS];
	size_t n = 0, at = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	while (n < FIELDS) {
		f[n++] = copy + at;
		while (at < size && copy[at])
			at++;
		if (at >= size)
			break;
		at++;
	}
	for (size_t i = n; i < FIELDS; i++)
		f[i] = empty;
	row_round_trip(f, n);
	report_round_trip(f);
	free(copy);
	return 0;
}
