/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_err.c - err_escape(): text echoed from input keeps a message one
 * line and harmless on a terminal. */
#include "config.h"

#include "err.h"
#include "tap.h"

static const char *esc(const char *s, size_t room)
{
	static char buf[256];
	return err_escape(buf, room, s);
}

int main(void)
{
	char small[8];

	tap_eq_str(esc("host-1.example", 256), "host-1.example", "plain ASCII is copied as it is");
	tap_eq_str(esc("a\nb\r\tc", 256), "a\\nb\\r\\tc", "newline, CR and tab as \\n \\r \\t");
	tap_eq_str(esc("\x1b[31mred", 256), "\\x1b[31mred", "ESC (a terminal escape) as \\x1b");
	tap_eq_str(esc("\x7f\x01", 256), "\\x7f\\x01", "DEL and other C0 controls as \\xHH");
	tap_eq_str(esc("C:\\dir", 256), "C:\\\\dir", "a backslash doubled, so escapes are unambiguous");
	tap_eq_str(esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x91", 256), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x91",
		   "well-formed UTF-8 (2, 3 and 4 bytes) is kept");
	tap_eq_str(esc("\xc2\x9b" "2J", 256), "\\xc2\\x9b2J", "a C1 control (U+009B CSI) is escaped");
	tap_eq_str(esc("\x9b\xff\xc3(", 256), "\\x9b\\xff\\xc3(", "bytes outside UTF-8 are escaped");
	tap_eq_str(esc("\xe0\x80\xaf", 256), "\\xe0\\x80\\xaf", "an overlong form is escaped");
	tap_eq_str(esc("\xc3", 256), "\\xc3", "a UTF-8 start at the end of the text is escaped");
	tap_eq_str(esc("abcdefghij", 8), "abcd...", "too long: cut, ending in ... within the room");
	tap_eq_str(esc("abcdefg", 8), "abcdefg", "exactly fitting text is not cut");
	tap_eq_str(esc("ab\ncdefgh", 8), "ab\\n...", "an escape is kept whole before the ...");
	tap_eq_str(esc("abcd\x1b", 8), "abcd...", "an escape that does not fit is dropped, not halved");
	tap_eq_str(esc("ab\xe2\x82\xac\xe2\x82\xac", 8), "ab...", "a UTF-8 character is not halved");
	tap_ok(err_escape(small, sizeof small, "") == small && small[0] == '\0', "empty text: empty result");
	tap_eq_str(esc("abc", 1), "", "room for the terminator only: empty");
	return tap_done();
}
