/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_widefmt.c - wide sample formats: every binary encoding against known
 * values, input split at every byte, odd byte counts, the text formats'
 * grammar and their one-line errors, and encode/decode round trips. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sources/widefmt.h"
#include "tap.h"

static int decode(enum widefmt f, const char *buf, size_t len, uint64_t **x, size_t *n,
		  struct err *e)
{
	return widefmt_decode_buffer(f, (const uint8_t *)buf, len, "in", x, n, e);
}

static void test_names(void)
{
	enum widefmt f;
	struct err e;

	tap_ok(widefmt_parse("u16le", &f, &e) == 0 && f == WIDEFMT_U16LE && widefmt_size(f) == 2 &&
	       widefmt_width(f) == 16, "u16le: 2 bytes, 16 bits");
	tap_ok(widefmt_parse("hex", &f, &e) == 0 && widefmt_size(f) == 0 && widefmt_width(f) == 64,
	       "hex: text, 64 bits");
	tap_ok(widefmt_parse("u24le", &f, &e) == ERR_USAGE && strstr(e.msg, WIDEFMT_NAMES),
	       "u24le: usage error listing the formats");
}

static void test_binary_known(void)
{
	static const char b[] = "\x01\x02\x03\x04\x05\x06\x07\x08";
	static const struct { enum widefmt f; uint64_t first; size_t n; } cases[] = {
		{ WIDEFMT_U8, 0x01, 8 },
		{ WIDEFMT_U16LE, 0x0201, 4 },
		{ WIDEFMT_U16BE, 0x0102, 4 },
		{ WIDEFMT_U32LE, 0x04030201, 2 },
		{ WIDEFMT_U32BE, 0x01020304, 2 },
		{ WIDEFMT_U64LE, 0x0807060504030201ull, 1 },
		{ WIDEFMT_U64BE, 0x0102030405060708ull, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t *x = NULL;
		size_t n = 0;
		struct err e;
		int rc = decode(cases[i].f, b, 8, &x, &n, &e);
		tap_ok(rc == 0 && n == cases[i].n && x[0] == cases[i].first,
		       "%s: 01..08 decodes to %zu samples, first 0x%llx", widefmt_name(cases[i].f),
		       cases[i].n, (unsigned long long)cases[i].first);
		free(x);
	}
}

/* Fed in two pieces split at every position, the result is the same. */
static void test_split_everywhere(void)
{
	static const char *const inputs[] = { "\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\xc0",
					      " 12\r\n0x1f\n\n ff \nA\n7" };
	static const enum widefmt fmts[] = { WIDEFMT_U16BE, WIDEFMT_U32LE, WIDEFMT_HEX };
	for (size_t k = 0; k < 3; k++) {
		const char *in = inputs[k == 2];
		size_t len = k == 2 ? strlen(in) : 12, bad = 0;
		uint64_t *whole = NULL;
		size_t nwhole = 0;
		struct err e;

		if (decode(fmts[k], in, len, &whole, &nwhole, &e) != 0) {
			tap_ok(0, "%s: whole input decodes (%s)", widefmt_name(fmts[k]), e.msg);
			continue;
		}
		for (size_t cut = 0; cut <= len; cut++) {
			struct widefmt_decoder d;
			uint64_t out[32];
			size_t n1 = 0, n2 = 0, n3 = 0;
			widefmt_decoder_init(&d, fmts[k], "in");
			if (widefmt_decode(&d, (const uint8_t *)in, cut, out, &n1, &e) ||
			    widefmt_decode(&d, (const uint8_t *)in + cut, len - cut, out + n1, &n2, &e) ||
			    widefmt_finish(&d, out + n1 + n2, &n3, &e) || n1 + n2 + n3 != nwhole ||
			    memcmp(out, whole, nwhole * sizeof *out) != 0)
				bad++;
		}
		tap_ok(bad == 0, "%s: split at every byte, same %zu samples (%zu cuts differ)",
		       widefmt_name(fmts[k]), nwhole, bad);
		if (k == 2)
			tap_ok(nwhole == 5 && whole[0] == 0x12 && whole[1] == 0x1f && whole[2] == 0xff &&
			       whole[3] == 0xa && whole[4] == 7,
			       "hex: blanks, CRLF, 0x, blank lines and a last line without newline");
		free(whole);
	}
}

static void test_errors(void)
{
	static const struct { enum widefmt f; const char *in; size_t len; const char *msg; } cases[] = {
		{ WIDEFMT_U16LE, "\x01\x02\x03", 3,
		  "in: 3 bytes is not a whole number of 2-byte u16le samples (1 byte left over)" },
		{ WIDEFMT_U64BE, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", 10,
		  "in: 10 bytes is not a whole number of 8-byte u64be samples (2 bytes left over)" },
		{ WIDEFMT_DEC, "12\n3a\n", 6,
		  "in: line 2: unexpected 'a' (expected one decimal integer a line)" },
		{ WIDEFMT_DEC, "1 2\n", 4,
		  "in: line 1: unexpected '2' (expected one decimal integer a line)" },
		{ WIDEFMT_DEC, "-1\n", 3,
		  "in: line 1: unexpected '-' (expected one decimal integer a line)" },
		{ WIDEFMT_DEC, "18446744073709551616\n", 21, "in: line 1: number does not fit in 64 bits" },
		{ WIDEFMT_HEX, "0x\n", 3, "in: line 1: 0x without digits" },
		{ WIDEFMT_HEX, "0x0x1\n", 6,
		  "in: line 1: unexpected 'x' (expected one hexadecimal integer a line)" },
		{ WIDEFMT_HEX, "1\r2\n", 4,
		  "in: line 1: unexpected '2' (expected one hexadecimal integer a line)" },
		{ WIDEFMT_DEC, "5\n\x00\n", 4,
		  "in: line 2: unexpected byte 0x00 (expected one decimal integer a line)" },
		{ WIDEFMT_DEC, "\n \n", 3, "in: no samples" },
		{ WIDEFMT_U8, "", 0, "in: no samples" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t *x = (uint64_t *)1;
		size_t n = 1;
		struct err e;
		int rc = decode(cases[i].f, cases[i].in, cases[i].len, &x, &n, &e);
		tap_ok(rc == ERR_DATA && x == NULL && n == 0, "%s error case %zu: ERR_DATA, nothing kept",
		       widefmt_name(cases[i].f), i);
		tap_eq_str(rc ? e.msg : "", cases[i].msg, "  its one-line message");
	}
	{
		uint64_t *x = NULL;
		size_t n = 0;
		struct err e;
		tap_ok(decode(WIDEFMT_DEC, "18446744073709551615\n", 21, &x, &n, &e) == 0 && n == 1 &&
		       x[0] == UINT64_MAX, "dec: 2^64-1 is the largest");
		free(x);
	}
}

static void test_round_trip(void)
{
	static const enum widefmt fmts[] = { WIDEFMT_U8, WIDEFMT_U16LE, WIDEFMT_U16BE, WIDEFMT_U32LE,
					     WIDEFMT_U32BE, WIDEFMT_U64LE, WIDEFMT_U64BE };
	uint64_t x[64];
	uint8_t buf[64 * 8];
	uint64_t s = 0x9E3779B97F4A7C15ull;
	struct err e;

	for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
		unsigned w = widefmt_width(fmts[k]);
		uint64_t *y = NULL;
		size_t n = 0;
		for (size_t i = 0; i < 64; i++) {
			s ^= s << 13; s ^= s >> 7; s ^= s << 17;
			x[i] = w == 64 ? s : s & (((uint64_t)1 << w) - 1);
		}
		tap_ok(widefmt_encode(fmts[k], x, 64, buf, &e) == 0 &&
		       widefmt_decode_buffer(fmts[k], buf, 64 * widefmt_size(fmts[k]), "rt", &y, &n, &e) == 0 &&
		       n == 64 && memcmp(x, y, sizeof x) == 0, "%s: encode then decode gives the samples back",
		       widefmt_name(fmts[k]));
		free(y);
	}
	x[0] = 256;
	tap_ok(widefmt_encode(WIDEFMT_U8, x, 1, buf, &e) == ERR_DATA, "u8: 256 does not fit: error");
	tap_ok(widefmt_encode(WIDEFMT_DEC, x, 1, buf, &e) == ERR_USAGE, "dec cannot be encoded");
}

int main(void)
{
	test_names();
	test_binary_known();
	test_split_everywhere();
	test_errors();
	test_round_trip();
	return tap_done();
}
