/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_merge.c - the fleet merge's library: the interning table it keys
 * with (hashtab.h), and report_merge_* on CSVs in memory: rows counted once
 * by (host, timestamp, source), a header with no rows, and bad input as one
 * escaped line naming NAME:LINE. */
#include "config.h"

#include <stdint.h>

#include "report/hashtab.h"
#include "report/report.h"
#include "tap.h"

static void test_hashtab(void)
{
	struct hashtab t = HASHTAB_INIT;
	uint32_t id, id2;
	size_t len;
	int all = 1;
	const char *k;

	tap_ok(hashtab_intern(&t, "alpha", 5, &id) == 1 && id == 0, "hashtab: a new key is added as id 0");
	tap_ok(hashtab_intern(&t, "beta", 4, &id) == 1 && id == 1, "hashtab: the next new key is id 1");
	tap_ok(hashtab_intern(&t, "alpha", 5, &id) == 0 && id == 0, "hashtab: a key seen before gets its id back");
	tap_ok(hashtab_intern(&t, "", 0, &id) == 1 && hashtab_intern(&t, "", 0, &id2) == 0 && id == id2,
	       "hashtab: the empty key is a key");
	tap_ok(hashtab_intern(&t, "a\0b", 3, &id) == 1 && hashtab_intern(&t, "a\0c", 3, &id2) == 1 && id != id2,
	       "hashtab: keys differing after a NUL byte are distinct");
	k = hashtab_key(&t, 1, &len);
	tap_ok(len == 4 && strcmp(k, "beta") == 0, "hashtab: key 1 reads back as \"beta\", NUL-terminated");
	/* 100000 keys: many doublings of the table, every id found again. */
	for (unsigned i = 0; i < 100000; i++) {
		char key[32];
		int n = snprintf(key, sizeof key, "host%u", i);
		if (hashtab_intern(&t, key, (size_t)n, &id) != 1 || id != i + 5)
			all = 0;
	}
	for (unsigned i = 0; i < 100000; i++) {
		char key[32];
		int n = snprintf(key, sizeof key, "host%u", i);
		if (hashtab_intern(&t, key, (size_t)n, &id) != 0 || id != i + 5)
			all = 0;
	}
	tap_ok(all, "hashtab: 100000 keys keep their dense ids across growth");
	tap_eq_long((long long)hashtab_count(&t), 100005, "hashtab: 100005 keys counted");
	hashtab_free(&t);
	tap_ok(hashtab_count(&t) == 0, "hashtab: empty after free");
}

/* An audit CSV of the first ncols columns (59, 70, 79: schemas 1-3): the
 * header, then n rows whose fields cell() gives by column name (every
 * field quoted; "" where it gives none). */
typedef const char *csv_cell_fn(const void *rows, size_t j, const char *col, size_t ncols);

static char *csv_build(size_t ncols, const void *rows, size_t n, csv_cell_fn *cell)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	for (size_t i = 0; i < ncols; i++)
		fprintf(fp, "%s%s", i ? "," : "", report_csv_columns[i]);
	fputs("\r\n", fp);
	for (size_t j = 0; j < n; j++) {
		for (size_t i = 0; i < ncols; i++) {
			const char *v = cell(rows, j, report_csv_columns[i], ncols);
			fprintf(fp, "%s\"%s\"", i ? "," : "", v ? v : "");
		}
		fputs("\r\n", fp);
	}
	fclose(fp);
	return buf;
}

/* The full-width files below are schema 4's, booleans spelt on/off and
 * yes/no; with v5 set, schema 5's, spelt true/false. */
static int v5;

/* The schema column for a file of ncols columns. */
static const char *schema_of(size_t ncols)
{
	return ncols == REPORT_CSV_V2_NCOLUMNS ? "2" : ncols == REPORT_CSV_V3_NCOLUMNS ? "3" : v5 ? "5" : "4";
}

/* A boolean as schema 4 spelt it, in schema 5's spelling when v5 is set. */
static const char *spelt(const char *old)
{
	if (!v5 || !old)
		return old;
	return strcmp(old, "on") == 0 || strcmp(old, "yes") == 0 ? "true" :
	       strcmp(old, "off") == 0 || strcmp(old, "no") == 0 ? "false" : strcmp(old, "unknown") == 0 ? "" : old;
}

/* An audit CSV: rows given as (timestamp, host, model, source, verdict,
 * h_assessed) with the other fields filled plausibly. */
struct row { const char *ts, *host, *model, *source, *verdict, *h; };

static const char *row_cell(const void *rows, size_t j, const char *c, size_t ncols)
{
	const struct row *r = (const struct row *)rows + j;
	if (strcmp(c, "timestamp") == 0) return r->ts;
	if (strcmp(c, "host") == 0) return r->host;
	if (strcmp(c, "cpu_vendor") == 0) return "GenuineIntel";
	if (strcmp(c, "cpu_family") == 0) return "6";
	if (strcmp(c, "cpu_model") == 0) return r->model;
	if (strcmp(c, "source") == 0) return r->source;
	if (strcmp(c, "verdict") == 0) return r->verdict;
	if (strcmp(c, "h_assessed") == 0) return r->h;
	if (strcmp(c, "schema") == 0) return schema_of(ncols);
	return NULL;
}

static char *csv_make(const struct row *r, size_t n)
{
	return csv_build(report_csv_ncolumns(), r, n, row_cell);
}

/* An audit CSV with the kernel columns: rows of (host, source, verdict,
 * kernel_trust_cpu, recommendation), all on one CPU, microcode, kernel and
 * guest state; ncols 59 writes schema 1 (the kernel columns dropped), 70
 * schema 2 (the typed columns dropped). */
struct krow { const char *host, *source, *verdict, *trust, *rec; };

/* One CPU (AMD 26/2, microcode 0xb002147), kernel 6.18.2, bare metal. */
static const char *machine_cell(const char *c)
{
	if (strcmp(c, "timestamp") == 0) return "2026-12-01T00:00:00Z";
	if (strcmp(c, "cpu_vendor") == 0) return "AuthenticAMD";
	if (strcmp(c, "cpu_family") == 0) return "26";
	if (strcmp(c, "cpu_model") == 0) return "2";
	if (strcmp(c, "virtualized") == 0) return spelt("no");
	return NULL;
}

static const char *krow_cell(const void *rows, size_t j, const char *c, size_t ncols)
{
	const struct krow *r = (const struct krow *)rows + j;
	if (strcmp(c, "host") == 0) return r->host;
	if (strcmp(c, "microcode") == 0) return "0xb002147";
	if (strcmp(c, "kernel") == 0 || strcmp(c, "kernel_release") == 0) return "6.18.2";
	if (strcmp(c, "source") == 0) return r->source;
	if (strcmp(c, "verdict") == 0) return r->verdict;
	if (strcmp(c, "kernel_trust_cpu") == 0) return spelt(r->trust);
	if (strcmp(c, "recommendation") == 0) return r->rec;
	if (strcmp(c, "schema") == 0) return schema_of(ncols);
	return machine_cell(c);
}

static char *csv_make_kernel(const struct krow *r, size_t n, size_t ncols)
{
	return csv_build(ncols, r, n, krow_cell);
}

/* The merged CSV of the buffers (NULL on error, e says why). */
static char *merge_bufs(const char *const *bufs, size_t n, struct err *e)
{
	struct merge *m;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;
	int rc = 0;

	if (report_merge_create(&m, e) != 0)
		return NULL;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = report_merge_add_buffer(m, "in.csv", bufs[i], strlen(bufs[i]), e);
	fp = open_memstream(&out, &len);
	if (rc == 0)
		rc = report_merge_print(m, fp, e);
	fclose(fp);
	report_merge_free(m);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static const char merged_header[] = "cpu_vendor,cpu_family,cpu_model,microcode,virtualized,kernel_release,"
				    "source,hosts,runs,pass,warn,fail,unavailable,h_assessed_min,h_assessed_median,"
				    "trust_cpu_hosts,trust_cpu_failed,recommendation,credited_hosts,credited_failed,"
				    "bits_per_sample,policy_fail_below,policy_warn_below\r\n";

static void test_merge_counts(void)
{
	static const struct row rows[] = {
		{ "2026-01-01T00:00:00Z", "a", "17", "rdrand", "pass", "0.9" },
		{ "2026-01-01T00:00:00Z", "b", "17", "rdrand", "fail", "0.5" },
		{ "2026-01-02T00:00:00Z", "a", "17", "rdrand", "warn", "0.7" },  /* a's second run */
		{ "2026-01-01T00:00:00Z", "a", "17", "rdrand", "fail", "0.1" },  /* a's first again */
		{ "2026-01-01T00:00:00Z", "a", "8", "rdseed", "pass", "" },
	};
	struct err e;
	char *in = csv_make(rows, 5), *header_only = csv_make(NULL, 0), *out;
	const char *twice[2] = { in, in }, *one[1] = { in }, *hdr[1] = { header_only };
	char *once;

	out = merge_bufs(hdr, 1, &e);
	tap_ok(out && strcmp(out, merged_header) == 0, "a header with no rows merges to the header alone");
	free(out);
	once = merge_bufs(one, 1, &e);
	tap_ok(once != NULL, "five rows merge");
	tap_ok(once && strstr(once, "\"GenuineIntel\",6,17,\"\",,\"\",\"rdrand\",2,3,1,1,1,0,0.5,"
			       "0.69999999999999996,0,0,\"\",0,0,,,\r\n"),
	       "a row repeated counts once, the first kept: model 17 rdrand has 2 hosts, 3 runs, min 0.5, median 0.7");
	tap_ok(once && strstr(once, "\"GenuineIntel\",6,8,\"\",,\"\",\"rdseed\",1,1,1,0,0,0,,,0,0,\"\",0,0,,,\r\n"),
	       "the same host and time with another source is its own row (rdseed, no h)");
	tap_ok(once && strstr(once, ",8,") && strstr(once, ",17,") && strstr(once, ",8,") < strstr(once, ",17,"),
	       "groups in order: model 8 before 17");
	out = merge_bufs(twice, 2, &e);
	tap_ok(out && once && strcmp(out, once) == 0, "the same file given twice merges as once");
	free(out);
	free(once);
	free(in);
	free(header_only);
}

static void test_merge_trust(void)
{
	static const struct krow v3[] = {
		{ "a", "rdrand", "fail", "on", "random.trust_cpu=off" },
		{ "b", "rdrand", "pass", "on", "" },
		{ "c", "rdrand", "fail", "off", "" },
	};
	static const struct krow v2[] = {
		{ "d", "rdrand", "pass", "on", "" },
	};
	static const struct krow v1[] = {
		{ "old", "rdrand", "fail", "", "" },
	};
	struct err e;
	char *in3 = csv_make_kernel(v3, 3, report_csv_ncolumns()),
	     *in2 = csv_make_kernel(v2, 1, REPORT_CSV_V2_NCOLUMNS),
	     *in1 = csv_make_kernel(v1, 1, REPORT_CSV_V1_NCOLUMNS);
	const char *all[3] = { in3, in2, in1 };
	char *out = merge_bufs(all, 3, &e);

	tap_ok(out && strstr(out, "\"AuthenticAMD\",26,2,\"0xb002147\",false,\"6.18.2\",\"rdrand\",4,4,2,0,2,0,,,3,1,"
			      "\"random.trust_cpu=off\",3,1,,,\r\n"),
	       "schemas 4 and 2 in one group: 4 hosts, 3 trust and credit the CPU RNG, 1 of those failed, the recommendation holds");
	tap_ok(out && strstr(out, "\"AuthenticAMD\",26,2,\"0xb002147\",,\"6.18.2\",\"rdrand\",1,1,0,0,1,0,,,0,0,"
			      "\"\",0,0,,,\r\n"),
	       "schema 1 beside it: its own group, guest unknown, kernel release from its kernel column");
	if (!out)
		printf("# %s\n", e.msg);
	free(out);
	free(in1);
	free(in2);
	free(in3);
	tap_eq_str(report_csv_columns[REPORT_CSV_SCHEMA_COL], "schema", "the schema column is the 70th");
	tap_eq_str(report_csv_columns[REPORT_CSV_V1_NCOLUMNS - 1], "reasons", "schema 1 ends with reasons");
}

/* An audit CSV of (host, source, verdict, cleared, hwrng_quality,
 * kernel_credits) rows, every host's kernel trusting the CPU; ncols as for
 * csv_make_kernel (79: schema 3, no kernel_credits). */
static int merge_error(const char *buf, size_t len, struct err *e);

struct crow { const char *host, *source, *verdict, *cleared, *quality, *credits; };

static const char *crow_cell(const void *rows, size_t j, const char *c, size_t ncols)
{
	const struct crow *r = (const struct crow *)rows + j;
	if (strcmp(c, "host") == 0) return r->host;
	if (strcmp(c, "source") == 0) return r->source;
	if (strcmp(c, "verdict") == 0) return r->verdict;
	if (strcmp(c, "kernel_trust_cpu") == 0) return spelt("on");
	if (strcmp(c, "kernel_cpu_flags_cleared") == 0) return r->cleared;
	if (strcmp(c, "hwrng_quality") == 0) return r->quality;
	if (strcmp(c, "kernel_credits") == 0) return spelt(r->credits);
	if (strcmp(c, "schema") == 0) return schema_of(ncols);
	return machine_cell(c);
}

static char *csv_make_credit(const struct crow *r, size_t n, size_t ncols)
{
	return csv_build(ncols, r, n, crow_cell);
}

/* issue 23 item 4: the fleet table counts, per source, the hosts whose
 * kernel credits that source (not the CPU trust of every source). */
static void test_merge_credited(void)
{
	static const struct crow v4[] = {
		{ "a", "hwrng", "fail", "", "1024", "on" },      /* credited and failed */
		{ "b", "hwrng", "pass", "", "0", "off" },        /* quality 0: not credited */
		{ "a", "rdseed", "fail", "rdseed", "", "off" },  /* cleared: trust_cpu on, but not credited */
		{ "a", "getrandom", "pass", "", "", "" },        /* no kernel setting credits it */
	};
	static const struct crow v3[] = {
		{ "c", "hwrng", "fail", "", "512", "" },         /* schema 3: derived from hwrng_quality */
		{ "c", "rdseed", "fail", "rdseed", "", "" },     /* and from the cleared flags */
	};
	struct err e;
	char *in4 = csv_make_credit(v4, 4, report_csv_ncolumns()), *in3 = csv_make_credit(v3, 2, REPORT_CSV_V3_NCOLUMNS);
	const char *all[2] = { in4, in3 };
	char *out = merge_bufs(all, 2, &e);

	if (!out)
		printf("# %s\n", e.msg);
	tap_ok(out && strstr(out, "\"hwrng\",3,3,1,0,2,0,,,3,2,\"\",2,2,,,\r\n"),
	       "hwrng: 3 hosts trust the CPU, but 2 credit the hwrng, both failed (schema 4 and 3)");
	tap_ok(out && strstr(out, "\"rdseed\",2,2,0,0,2,0,,,2,2,\"\",0,0,,,\r\n"),
	       "rdseed cleared on both hosts: trusted CPU, 0 credited");
	tap_ok(out && strstr(out, "\"getrandom\",1,1,1,0,0,0,,,1,0,\"\",,,,,\r\n"),
	       "getrandom: no kernel setting credits it, the columns empty");
	free(out);
	free(in4);
	free(in3);
	{
		static const struct crow bad[] = { { "a", "hwrng", "pass", "", "", "maybe" } };
		char *b = csv_make_credit(bad, 1, report_csv_ncolumns());
		tap_ok(merge_error(b, strlen(b), &e) == ERR_DATA &&
		       strstr(e.msg, "kernel_credits 'maybe' is not true, false or empty"), "a bad kernel_credits: names it");
		free(b);
	}
}

/* The error of merging one buffer, and whether it is a single line. */
static int merge_error(const char *buf, size_t len, struct err *e)
{
	struct merge *m;
	int rc;

	if (report_merge_create(&m, e) != 0)
		return -1;
	rc = report_merge_add_buffer(m, "bad.csv", buf, len, e);
	report_merge_free(m);
	return rc;
}

static int one_line(const struct err *e)
{
	for (const char *p = e->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* The policy of a group (issue 26 item 5: the fleet picture draws each
 * group's floors): rows of (host, source, bits_per_sample, fail_below,
 * warn_below). */
struct prow { const char *host, *source, *k, *fail, *warn; };

static const char *prow_cell(const void *rows, size_t j, const char *c, size_t ncols)
{
	const struct prow *r = (const struct prow *)rows + j;
	if (strcmp(c, "host") == 0) return r->host;
	if (strcmp(c, "source") == 0) return r->source;
	if (strcmp(c, "verdict") == 0) return "pass";
	if (strcmp(c, "bits_per_sample") == 0) return r->k;
	if (strcmp(c, "policy_fail_below") == 0) return r->fail;
	if (strcmp(c, "policy_warn_below") == 0) return r->warn;
	if (strcmp(c, "schema") == 0) return schema_of(ncols);
	return machine_cell(c);
}

static void test_merge_policy(void)
{
	static const struct prow rows[] = {
		{ "a", "rdrand", "8", "0.4", "0.55" },     /* two hosts, one policy */
		{ "b", "rdrand", "8", "0.4", "0.55" },
		{ "a", "sim:ideal", "8", "0.25", "0.5" },  /* two hosts, two policies */
		{ "b", "sim:ideal", "8", "0.3", "0.5" },
		{ "a", "hwrng", "8", "0.25", "0.5" },      /* one host says none */
		{ "b", "hwrng", "8", "", "" },
	};
	struct err e;
	char *in = csv_build(report_csv_ncolumns(), rows, 6, prow_cell);
	const char *one[1] = { in };
	char *out = merge_bufs(one, 1, &e);

	tap_ok(out && strstr(out, "\"rdrand\",2,2,2,0,0,0,,,0,0,\"\",0,0,8,0.4,0.55\r\n"),
	       "a group whose hosts agree: K 8 and the floors per bit as the policy wrote them (0.4, 0.55)");
	tap_ok(out && strstr(out, "\"sim:ideal\",2,2,2,0,0,0,,,0,0,\"\",,,,,\r\n"),
	       "a group whose hosts' floors differ: no floors (no one line explains its bar)");
	tap_ok(out && strstr(out, "\"hwrng\",2,2,2,0,0,0,,,0,0,\"\",0,0,,,\r\n"),
	       "a group with a host that gives no floors (an older schema): no floors");
	free(out);
	free(in);
}

static void test_merge_errors(void)
{
	static const struct row evil[] = {
		{ "2026-01-01T00:00:00Z", "a", "17", "rdrand", "pa\nss\x1b[2J", "0.9" },
	};
	static const char junk[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\x00";
	struct err e;
	char *in = csv_make(evil, 1), *hdr = csv_make(NULL, 0), *cut, *big;
	size_t hlen = strlen(hdr);

	tap_ok(merge_error(in, strlen(in), &e) == ERR_DATA && one_line(&e) &&
	       strstr(e.msg, "bad.csv:2: verdict 'pa\\nss\\x1b[2J'"),
	       "a verdict with a newline and ESC: one line, escaped, naming bad.csv:2");
	tap_ok(merge_error(junk, sizeof junk - 1, &e) == ERR_DATA && one_line(&e) && strstr(e.msg, "bad.csv:1: "),
	       "binary junk: ERR_DATA, one line naming bad.csv:1");
	tap_ok(merge_error("1,2,3\n", 6, &e) == ERR_DATA && one_line(&e) &&
	       strstr(e.msg, "bad.csv:1: header field 1 is '1'"), "no header: names bad.csv:1 and what it found");
	tap_ok(merge_error("", 0, &e) == ERR_DATA && one_line(&e) && strstr(e.msg, "bad.csv: empty file"),
	       "an empty file is ERR_DATA");
	{
		static const struct krow r[] = { { "a", "rdrand", "pass", "maybe", "" } };
		char *bad = csv_make_kernel(r, 1, report_csv_ncolumns()), *p;
		tap_ok(merge_error(bad, strlen(bad), &e) == ERR_DATA && strstr(e.msg, "bad.csv:2: kernel_trust_cpu 'maybe'"),
		       "a kernel_trust_cpu other than true/false/empty (or on/off/unknown in schema 4): names bad.csv:2");
		p = strstr(bad, ",\"4\",");   /* the schema field of the row */
		if (p)
			p[2] = '2';
		tap_ok(p && merge_error(bad, strlen(bad), &e) == ERR_DATA &&
		       strstr(e.msg, "bad.csv:2: schema '2' (this version reads schemas 1 to 5)"),
		       "a schema that does not fit the header's width: names it");
		free(bad);
	}
	/* A quoted field opened on line 2 and never closed. */
	cut = malloc(hlen + 8);
	memcpy(cut, hdr, hlen);
	memcpy(cut + hlen, "\"2026-0", 7);
	tap_ok(merge_error(cut, hlen + 7, &e) == ERR_DATA && one_line(&e) &&
	       strstr(e.msg, "bad.csv:2: not a CSV: a quoted field"), "a truncated quoted field: names bad.csv:2");
	memcpy(cut + hlen, "a\"b,\r\n", 6);
	tap_ok(merge_error(cut, hlen + 6, &e) == ERR_DATA && one_line(&e) &&
	       strstr(e.msg, "bad.csv:2: not a CSV: a quote inside"), "a stray quote: libcsv's error in our words");
	free(cut);
	/* 100 KiB with no line end after the header: refused, not buffered. */
	big = malloc(hlen + 100 * 1024);
	memcpy(big, hdr, hlen);
	memset(big + hlen, 'x', 100 * 1024);
	tap_ok(merge_error(big, hlen + 100 * 1024, &e) == ERR_DATA && one_line(&e) &&
	       strstr(e.msg, "bad.csv:2: a row of more than 64 KiB"), "a row past 64 KiB is refused");
	free(big);
	free(in);
	free(hdr);
}

/* issue 26 item 3: schema 5 spells booleans true/false; the same rows in
 * schema 4's on/off and yes/no merge to the same table, and a schema-4
 * spelling in a schema-5 file is refused. */
static void test_merge_v5(void)
{
	static const struct krow rows[] = {
		{ "a", "rdrand", "fail", "on", "random.trust_cpu=off" },
		{ "b", "rdrand", "pass", "off", "" },
		{ "c", "rdrand", "pass", "unknown", "" },
	};
	static const struct crow cr[] = { { "a", "hwrng", "fail", "", "1024", "on" } };
	struct err e;
	char *in4, *in5, *out4, *out5, *c4, *c5, *o4, *o5;
	const char *one[1];

	v5 = 0;
	in4 = csv_make_kernel(rows, 3, report_csv_ncolumns());
	c4 = csv_make_credit(cr, 1, report_csv_ncolumns());
	v5 = 1;
	in5 = csv_make_kernel(rows, 3, report_csv_ncolumns());
	c5 = csv_make_credit(cr, 1, report_csv_ncolumns());
	one[0] = in4;
	out4 = merge_bufs(one, 1, &e);
	one[0] = in5;
	out5 = merge_bufs(one, 1, &e);
	tap_ok(out4 && out5 && strcmp(out4, out5) == 0 && strstr(out5, ",false,\"6.18.2\",\"rdrand\",3,3,2,0,1,0,,,1,1,"),
	       "schema 4 (on/off, yes/no) and schema 5 (true/false) rows merge to the same table");
	one[0] = c4;
	o4 = merge_bufs(one, 1, &e);
	one[0] = c5;
	o5 = merge_bufs(one, 1, &e);
	tap_ok(o4 && o5 && strcmp(o4, o5) == 0 && strstr(o5, "\"hwrng\",1,1,0,0,1,0,,,1,1,\"\",1,1,,,\r\n"),
	       "kernel_credits on (schema 4) and true (schema 5) both credit the hwrng");
	free(out4);
	free(out5);
	free(o4);
	free(o5);
	free(in4);
	free(c4);
	free(c5);
	free(in5);
	{
		/* a schema-4 spelling in a file whose rows say schema 5 */
		static const struct krow bad[] = { { "a", "rdrand", "pass", "on", "" } };
		char *b, *p;
		v5 = 0;
		b = csv_make_kernel(bad, 1, report_csv_ncolumns());
		p = strstr(b, ",\"4\",");
		if (p)
			p[2] = '5';
		tap_ok(p && merge_error(b, strlen(b), &e) == ERR_DATA &&
		       strstr(e.msg, "bad.csv:2: kernel_trust_cpu 'on' is not true, false or empty"),
		       "schema 5 with a schema-4 spelling (on): refused, named");
		free(b);
	}
	v5 = 0;
}

int main(void)
{
	test_hashtab();
	test_merge_counts();
	test_merge_trust();
	test_merge_credited();
	test_merge_policy();
	test_merge_errors();
	test_merge_v5();
	return tap_done();
}
