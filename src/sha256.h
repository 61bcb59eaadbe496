/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256.h - SHA-256 (FIPS 180-4) of a file, as NIST's SP800-90B tools
 * print it on their first line ("Opening file: 'F' (SHA-256 hash H)") and
 * store it in their JSON ("sha256"), so rngaudit's outputs can say which
 * bytes they assessed in the same words. */
#ifndef RNGAUDIT_SHA256_H
#define RNGAUDIT_SHA256_H
#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32
#define SHA256_HEX (2 * SHA256_BYTES + 1)  /* lower-case hex and a NUL */

struct sha256 {
	uint32_t h[8];
	uint64_t len;          /* bytes hashed so far */
	unsigned char buf[64]; /* the block being filled */
	size_t fill;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t n);
void sha256_final(struct sha256 *c, unsigned char out[SHA256_BYTES]);
/* Whether blocks go through the CPU's SHA extensions, where it has them
 * (the default); enable 0 forces the portable loop (tests compare the two).
 * Returns 1 when the extensions are now in use. */
int sha256_accel(int enable);
/* out = the lower-case hex digest of the n bytes at data. */
void sha256_hex(const void *data, size_t n, char out[SHA256_HEX]);
#endif
