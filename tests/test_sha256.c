/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sha256.c - SHA-256 against FIPS 180-4's examples (NIST's "Example
 * Algorithms" SHA256.pdf and SHA2_Additional.pdf), in one update and fed in
 * pieces across block edges; and, where the CPU has the SHA extensions,
 * their path against the portable loop on every length up to three blocks
 * and on a megabyte. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "tap.h"

static void hex_of(const unsigned char *p, size_t n, size_t piece, char out[SHA256_HEX])
{
	struct sha256 c;
	unsigned char d[SHA256_BYTES];

	sha256_init(&c);
	for (size_t off = 0; off < n; off += piece)
		sha256_update(&c, p + off, n - off < piece ? n - off : piece);
	sha256_final(&c, d);
	for (int i = 0; i < SHA256_BYTES; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int vectors(const char *path)
{
	static const struct {
		const char *msg;
		size_t repeat;
		const char *hex;
	} v[] = {
		{ "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
		{ "\x55", 1005, "f4d62ddec0f3dd90ea1380fa16a5ff8dc4c54b21740650f24afc4120903552b0" },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		size_t len = strlen(v[i].msg), n = len * v[i].repeat;
		unsigned char *buf = malloc(n ? n : 1);
		const size_t pieces[] = { n ? n : 1, 1, 63, 64, 65, 1000 };
		char got[SHA256_HEX];

		if (!buf)
			return tap_ok(0, "out of memory");
		for (size_t r = 0; r < v[i].repeat; r++)
			memcpy(buf + r * len, v[i].msg, len);
		for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
			hex_of(buf, n, pieces[k], got);
			bad += !tap_ok(strcmp(got, v[i].hex) == 0, "%s: vector %zu (%zu bytes) in pieces of %zu",
				       path, i, n, pieces[k]);
		}
		free(buf);
	}
	return bad;
}

int main(void)
{
	size_t big = (size_t)1 << 20;
	unsigned char *buf = malloc(big);
	int accel;

	if (!buf)
		return 1;
	for (size_t i = 0; i < big; i++)
		buf[i] = (unsigned char)((i * 2654435761u) >> 13);
	sha256_accel(0);
	vectors("portable");
	accel = sha256_accel(1);
	if (!accel) {
		tap_skip("this CPU (or build) has no SHA extensions: one path only");
	} else {
		int same = 1;
		char a[SHA256_HEX], b[SHA256_HEX];

		vectors("SHA extensions");
		for (size_t n = 0; n <= 3 * 64 + 1 && same; n++) {
			sha256_accel(0);
			hex_of(buf, n, n ? n : 1, a);
			sha256_accel(1);
			hex_of(buf, n, n ? n : 1, b);
			same = strcmp(a, b) == 0;
			if (!same)
				tap_ok(0, "lengths: the two paths differ at %zu bytes", n);
		}
		tap_ok(same, "every length 0..193: SHA extensions = portable");
		sha256_accel(0);
		hex_of(buf, big, 4096 + 7, a);
		sha256_accel(1);
		hex_of(buf, big, 4096 + 7, b);
		tap_ok(strcmp(a, b) == 0, "1 MiB in pieces of 4103 bytes: SHA extensions = portable");
	}
	free(buf);
	return tap_done();
}
