/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_csvcell.c - spreadsheet-safe text cells (src/report/csvcell.c,
 * issue 24 item 3): OWASP's six trigger characters get a leading
 * apostrophe, nothing else changes, and every cell reads back through a
 * strict RFC 4180 reader (libcsv, CSV_STRICT) as exactly what was written. */
#include "config.h"

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/csvcell.h"
#include "tap.h"

/* s as csvcell_write() writes it, in a static buffer. */
static const char *written(const char *s)
{
	static char buf[256];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	memset(buf, 0, sizeof buf);
	if (fp) {
		csvcell_write(fp, s, strlen(s));
		fclose(fp);
	}
	return buf;
}

struct cells {
	char v[8][64];
	int n;
};

static void on_field(void *s, size_t len, void *ctx)
{
	struct cells *c = ctx;
	if (c->n < 8)
		snprintf(c->v[c->n++], sizeof c->v[0], "%.*s", (int)len, (const char *)s);
}

/* The cell of s written, then read by libcsv in strict mode and by
 * csvcell_read(): 1 when it comes back as s. */
static int round_trip(const char *s)
{
	struct csv_parser p;
	struct cells c = { .n = 0 };
	const char *w = written(s);
	int ok;
	csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	ok = csv_parse(&p, w, strlen(w), on_field, NULL, &c) == strlen(w) && csv_fini(&p, on_field, NULL, &c) == 0;
	csv_free(&p);
	return ok && c.n == 1 && strcmp(csvcell_read(c.v[0]), s) == 0;
}

int main(void)
{
	static const char *const triggers[] = { "=1+2", "+1", "-2+3", "@SUM(1)", "\tx", "\rx" };
	static const char *const samples[] = { "=cmd|' /C calc'!A0", "'=x", "''@y", "'", "''", "'plain", "plain",
					       "", "a=b", "\"=q\"", "-", "=\"quoted\",comma", "line\nbreak" };
	char want[32];

	for (size_t i = 0; i < sizeof triggers / sizeof triggers[0]; i++) {
		snprintf(want, sizeof want, "\"'%s\"", triggers[i]);
		tap_eq_str(written(triggers[i]), want, "a cell starting with a trigger gets the apostrophe");
	}
	tap_eq_str(written("sim:ideal"), "\"sim:ideal\"", "an ordinary cell is written quoted, unchanged");
	tap_eq_str(written("a-b"), "\"a-b\"", "a trigger inside a cell changes nothing");
	tap_eq_str(written("'=x"), "\"''=x\"", "'=x gets one more apostrophe, so it reads back as '=x");
	tap_eq_str(written("'plain"), "\"'plain\"", "an apostrophe before no trigger is left alone");
	tap_eq_str(written("=\"q\""), "\"'=\"\"q\"\"\"", "quotes inside a prefixed cell are doubled");
	tap_eq_str(csvcell_read("'=x"), "=x", "read back: the prefix comes off");
	tap_eq_str(csvcell_read("''=x"), "'=x", "read back: one apostrophe only");
	tap_eq_str(csvcell_read("'plain"), "'plain", "read back: an apostrophe before no trigger stays");
	tap_eq_str(csvcell_read("=x"), "=x", "read back: an unprefixed cell (another tool's) stays as it is");
	for (size_t i = 0; i < sizeof triggers / sizeof triggers[0]; i++)
		tap_ok(round_trip(triggers[i]), "round trip through strict libcsv: trigger %zu", i);
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
		tap_ok(round_trip(samples[i]), "round trip through strict libcsv: sample %zu", i);
	return tap_done();
}
