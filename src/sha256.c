/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256.c - SHA-256 as FIPS 180-4 section 6.2 defines it (big-endian
 * words, 64 rounds, the length in bits in the last 8 bytes of padding). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sha256.h"
#include "sha256_int.h"

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void blocks_portable(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
	uint32_t w[64], v[8], t1, t2;

	for (; nblocks > 0; nblocks--, p += 64) {
		for (int i = 0; i < 16; i++)
			w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
			       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
		for (int i = 16; i < 64; i++) {
			uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		memcpy(v, h, sizeof v);
		for (int i = 0; i < 64; i++) {
			t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
			     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha256_k[i] + w[i];
			t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
			     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
			memmove(v + 1, v, 7 * sizeof v[0]);
			v[4] += t1;
			v[0] = t1 + t2;
		}
		for (int i = 0; i < 8; i++)
			h[i] += v[i];
	}
}

/* -1 until the first hash asks the CPU; then 1 for the SHA extensions */
static int use_shani = -1;

int sha256_accel(int enable)
{
	int on = enable && sha256_shani_usable();

	__atomic_store_n(&use_shani, on, __ATOMIC_RELAXED);
	return on;
}

static void sha256_blocks(struct sha256 *c, const unsigned char *p, size_t nblocks)
{
	int shani = __atomic_load_n(&use_shani, __ATOMIC_RELAXED);

	if (shani < 0)
		shani = sha256_accel(1);
#if SHA256_HAVE_SHANI
	if (shani) {
		sha256_blocks_shani(c->h, p, nblocks);
		return;
	}
#endif
	blocks_portable(c->h, p, nblocks);
}

void sha256_init(struct sha256 *c)
{
	/* FIPS 180-4 5.3.3: square roots of the first 8 primes */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(c->h, h0, sizeof h0);
	c->len = 0;
	c->fill = 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t n)
{
	const unsigned char *p = data;

	c->len += n;
	while (n > 0) {
		size_t take = sizeof c->buf - c->fill;

		if (c->fill == 0 && n >= sizeof c->buf) {
			size_t whole = n / sizeof c->buf;
			sha256_blocks(c, p, whole);
			p += whole * sizeof c->buf;
			n -= whole * sizeof c->buf;
			continue;
		}
		if (take > n)
			take = n;
		memcpy(c->buf + c->fill, p, take);
		c->fill += take;
		p += take;
		n -= take;
		if (c->fill == sizeof c->buf) {
			sha256_blocks(c, c->buf, 1);
			c->fill = 0;
		}
	}
}

void sha256_final(struct sha256 *c, unsigned char out[SHA256_BYTES])
{
	/* 5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the length in bits */
	uint64_t bits = c->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t npad = (c->fill < 56 ? 56 : 120) - c->fill;

	for (int i = 0; i < 8; i++)
		pad[npad + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(c, pad, npad + 8);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (unsigned char)(c->h[i] >> (24 - 8 * j));
}

void sha256_hex(const void *data, size_t n, char out[SHA256_HEX])
{
	struct sha256 c;
	unsigned char d[SHA256_BYTES];

	sha256_init(&c);
	sha256_update(&c, data, n);
	sha256_final(&c, d);
	for (int i = 0; i < SHA256_BYTES; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}
