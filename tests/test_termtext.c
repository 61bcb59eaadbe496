/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_termtext.c - terminal-safe text (src/report/termtext.c, issue 24
 * item 3): C0 controls, DEL, C1 controls (U+0080..U+009F, U+009B is CSI)
 * and bytes that are not UTF-8 are escaped; a newline never survives;
 * ordinary text and well-formed UTF-8 pass unchanged; a cut for a column
 * never splits a character or an escape. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/termtext.h"
#include "tap.h"

/* 1 when s holds no C0 control, DEL or C1 control and is valid UTF-8. */
static int terminal_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) || *p >= 0xf5 ||
		    *p == 0xc0 || *p == 0xc1)
			return 0;
	return 1;
}

int main(void)
{
	char big[3 * TERMTEXT_MAX];
	const char *cut;

	tap_eq_str(termtext("sim:ideal"), "sim:ideal", "plain text is unchanged");
	tap_eq_str(termtext("Z\xc3\xbcrich \xe2\x82\xac"), "Z\xc3\xbcrich \xe2\x82\xac", "well-formed UTF-8 is unchanged");
	tap_eq_str(termtext("a\nb"), "a\\nb", "a newline is \\n: a row stays one line");
	tap_eq_str(termtext("\x1b[31mred"), "\\x1b[31mred", "ESC (C0) is \\x1b");
	tap_eq_str(termtext("x\x7fy"), "x\\x7fy", "DEL is \\x7f");
	tap_eq_str(termtext("\xc2\x9b" "2J"), "\\xc2\\x9b2J", "C1 CSI (U+009B) is escaped byte by byte");
	tap_eq_str(termtext("\xff\xfe"), "\\xff\\xfe", "bytes that are not UTF-8 are \\xHH");
	tap_eq_str(termtext("\xe2\x82"), "\\xe2\\x82", "a cut UTF-8 character is escaped");
	tap_eq_str(termtext("\xed\xa0\x80"), "\\xed\\xa0\\x80", "a UTF-16 surrogate (not UTF-8) is escaped");
	tap_eq_str(termtext("a\\b"), "a\\\\b", "a backslash is doubled: escapes are unambiguous");
	tap_eq_str(termtext(NULL), "", "NULL reads as empty");
	tap_eq_str(termtext_mem("ab\ncd", 3), "ab\\n", "termtext_mem takes len bytes");
	tap_eq_str(termtext_cut("abcdef", 4), "abcd", "termtext_cut: at most width bytes");
	tap_eq_str(termtext_cut("ab\x1b", 4), "ab", "termtext_cut: an escape is never split");
	tap_eq_str(termtext_cut("a\xc3\xbc\xc3\xbc", 4), "a\xc3\xbc", "termtext_cut: a character is never split");
	memset(big, '\x1b', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	cut = termtext(big);
	tap_ok(strlen(cut) < TERMTEXT_MAX && strcmp(cut + strlen(cut) - 3, "...") == 0 && terminal_safe(cut),
	       "text longer than TERMTEXT_MAX ends in ... and stays safe");
	{
		/* TERMTEXT_RING texts are valid at once */
		const char *t[TERMTEXT_RING];
		char want[16];
		int ok = 1;
		for (int i = 0; i < TERMTEXT_RING; i++) {
			snprintf(want, sizeof want, "t%d", i);
			t[i] = termtext(want);
		}
		for (int i = 0; i < TERMTEXT_RING; i++) {
			snprintf(want, sizeof want, "t%d", i);
			ok &= strcmp(t[i], want) == 0;
		}
		tap_ok(ok, "%d texts of one printf are valid at once", TERMTEXT_RING);
	}
	{
		/* every byte value, alone and after each lead byte: always safe */
		int ok = 1;
		char s[3] = { 0 };
		for (int a = 1; a < 256; a++)
			for (int b = 0; b < 256; b++) {
				s[0] = (char)a;
				s[1] = (char)b;
				ok &= terminal_safe(termtext(s));
			}
		tap_ok(ok, "every pair of bytes comes out terminal-safe");
	}
	return tap_done();
}
