/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_promfmt.c - Prometheus label values are valid UTF-8 whatever the
 * source spec or file name holds (src/report/promfmt.c, issue 24 item 3):
 * node_exporter drops a whole textfile for one label that is not. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/promfmt.h"
#include "tap.h"

static const char *label(const char *s)
{
	static char buf[256];
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	memset(buf, 0, sizeof buf);
	if (fp) {
		promfmt_label(fp, s);
		fclose(fp);
	}
	return buf;
}

/* 1 when s is well-formed UTF-8 (RFC 3629). */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = *p < 0x80 ? 1 : *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ? 3
			 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
		if (!n)
			return 0;
		for (size_t i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return 0;
		p += n;
	}
	return 1;
}

int main(void)
{
	tap_eq_str(label("sim:ideal"), "sim:ideal", "a plain value is unchanged");
	tap_eq_str(label("a\\b\"c\nd"), "a\\\\b\\\"c\\nd", "backslash, quote and newline: the format's escapes");
	tap_eq_str(label("Z\xc3\xbcrich"), "Z\xc3\xbcrich", "well-formed UTF-8 is unchanged");
	tap_eq_str(label("file:/x\xff.bin"), "file:/x\\\\xff.bin",
		   "a byte that is not UTF-8 is the text \\xff (backslash escaped in turn)");
	tap_eq_str(label("\xc2\x9b"), "\\\\xc2\\\\x9b", "a C1 control is spelled out");
	tap_eq_str(label("a\tb"), "a\\\\tb", "a tab is spelled out");
	{
		char s[3] = { 0 };
		int ok = 1;
		for (int a = 1; a < 256; a++)
			for (int b = 0; b < 256; b++) {
				s[0] = (char)a;
				s[1] = (char)b;
				ok &= utf8_ok(label(s));
			}
		tap_ok(ok, "every pair of bytes gives a valid UTF-8 label value");
	}
	return tap_done();
}
