/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_xmltext.c - report/xmltext.c: any text as XML 1.0 carries it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/xmltext.h"
#include "tap.h"

/* What fn writes for s, in a malloc'd string. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	fn(fp, s);
	fclose(fp);
	return buf;
}

static void check(void (*fn)(FILE *, const char *), const char *in, const char *want, const char *what)
{
	char *got = written(fn, in);
	tap_ok(strcmp(got, want) == 0, "%s", what);
	if (strcmp(got, want) != 0)
		printf("# got '%s', want '%s'\n", got, want);
	free(got);
}

int main(void)
{
	char out[16];

	check(xmltext_put, "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;", "the five XML specials escaped");
	check(xmltext_put, "line\n\tnext", "line\n\tnext", "text: newline and tab kept");
	check(xmltext_attr, "line\n\tnext", "line&#10;&#9;next", "attribute: newline and tab as references");
	check(xmltext_put, "a\x01\x1b[2Jb", "a  [2Jb", "control characters XML forbids become spaces");
	check(xmltext_put, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac", "valid UTF-8 kept as is");
	check(xmltext_put, "x\xffy", "x\xef\xbf\xbdy", "a byte that starts no character becomes U+FFFD");
	check(xmltext_put, "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "an overlong form is two bad bytes");
	check(xmltext_put, "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate is not a character");
	check(xmltext_put, "\xef\xbf\xbe", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "U+FFFE is not an XML character");
	check(xmltext_put, "\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd", "a character cut by the end of the text");
	xmltext_clean("a&b\x01\xff", out, sizeof out);
	tap_ok(strcmp(out, "a&b \xef\xbf\xbd") == 0, "clean: replacements made, nothing escaped");
	xmltext_clean("abc\xe2\x82\xac", out, 6);
	tap_ok(strcmp(out, "abc") == 0, "clean: cut before a character that does not fit, never inside it");
	return tap_done();
}
