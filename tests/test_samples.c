/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_samples.c - symbolization for every K, across byte and block
 * boundaries; bit expansion; width inference; range checks. */
#include "config.h"

#include <stdint.h>

#include "engine/samples.h"
#include "tap.h"

/* Reference slicing: bit i of the stream is bit (7 - i%8) of byte i/8. */
static unsigned ref_sample(const uint8_t *in, size_t idx, unsigned k)
{
	unsigned v = 0;
	for (unsigned j = 0; j < k; j++) {
		size_t bit = idx * k + j;
		v = (v << 1) | ((in[bit / 8] >> (7 - bit % 8)) & 1u);
	}
	return v;
}

static void test_every_k_split_blocks(void)
{
	uint8_t in[257], out[257 * 8 + 8];
	uint32_t x = 0x12345678;
	for (size_t i = 0; i < sizeof in; i++) {
		x = x * 1103515245u + 12345u;
		in[i] = (uint8_t)(x >> 16);
	}
	for (unsigned k = 1; k <= 8; k++) {
		/* Feed in uneven pieces so samples straddle the piece boundaries. */
		static const size_t pieces[] = { 1, 2, 3, 5, 7, 11, 13, 17, 64, 134 };
		struct symbolizer sy;
		size_t pos = 0, n = 0, want = sizeof in * 8 / k, bad = 0;
		samples_symbolizer_init(&sy, k);
		for (size_t p = 0; pos < sizeof in; p++) {
			size_t len = pieces[p % 10];
			if (pos + len > sizeof in)
				len = sizeof in - pos;
			n += samples_symbolize(&sy, in + pos, len, out + n);
			pos += len;
		}
		tap_eq_long((long long)n, (long long)want, "k samples count");
		for (size_t i = 0; i < n; i++)
			if (out[i] != ref_sample(in, i, k) || out[i] >> k)
				bad++;
		tap_ok(bad == 0, "k=%u: every sample equals the MSB-first slice (%zu wrong)", k, bad);
	}
}

static void test_known_values(void)
{
	const uint8_t in[3] = { 0xA5, 0x3C, 0xF0 };   /* 1010 0101 0011 1100 1111 0000 */
	uint8_t out[24];
	struct symbolizer sy;
	size_t n;

	samples_symbolizer_init(&sy, 3);     /* 101 001 010 011 110 011 110 000 */
	n = samples_symbolize(&sy, in, 3, out);
	tap_eq_long((long long)n, 8, "K=3 of 3 bytes: 8 samples");
	tap_ok(out[0] == 5 && out[1] == 1 && out[2] == 2 && out[3] == 3 && out[4] == 6 &&
	       out[5] == 3 && out[6] == 6 && out[7] == 0, "K=3 values 5 1 2 3 6 3 6 0");
	samples_symbolizer_init(&sy, 7);     /* 1010010 1001111 0011110, 000 pending */
	n = samples_symbolize(&sy, in, 3, out);
	tap_eq_long((long long)n, 3, "K=7 of 3 bytes: 3 samples, 3 bits pending");
	tap_ok(out[0] == 0x52 && out[1] == 0x4F && out[2] == 0x1E, "K=7 values 0x52 0x4f 0x1e");
	tap_eq_long(sy.nacc, 3, "K=7 keeps 3 pending bits");
}

static void test_to_bits(void)
{
	const uint8_t s[2] = { 5, 2 };
	uint8_t b[6];
	samples_to_bits(s, 2, 3, b);
	tap_ok(b[0] == 1 && b[1] == 0 && b[2] == 1 && b[3] == 0 && b[4] == 1 && b[5] == 0,
	       "bit expansion MSB first: 5,2 (3 bits) -> 101010");
	{
		const uint8_t t[1] = { 0x81 };
		uint8_t c[8];
		samples_to_bits(t, 1, 8, c);
		tap_ok(c[0] == 1 && c[1] == 0 && c[6] == 0 && c[7] == 1, "8-bit expansion 0x81");
	}
}

/* samples_to_packed against samples_to_bits: every K, lengths around the
 * word and sample boundaries, cut at nbits, zeros after, the spare word. */
static void test_to_packed(void)
{
	const uint8_t s2[2] = { 5, 2 };
	uint64_t w2[2];
	uint8_t s[600], bits[600 * 8];
	uint64_t w[600 * 8 / 64 + 3];
	int bad = 0, cases = 0;
	uint32_t x = 12345;

	samples_to_packed(s2, 2, 3, 6, w2);
	tap_ok(samples_packed_words(6) == 2 && w2[0] == (uint64_t)0x2a << 58 && w2[1] == 0,
	       "packed MSB first: 5,2 (3 bits) -> 101010 on top of the word, a zero word after");
	for (size_t i = 0; i < sizeof s; i++) {
		x = x * 1103515245u + 12345u;
		s[i] = (uint8_t)(x >> 16);
	}
	for (unsigned k = 1; k <= 8; k++) {
		static const size_t ns[] = { 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 600 };
		for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
			size_t n = ns[a], full = n * k;
			uint8_t t[600];
			for (size_t i = 0; i < n; i++)
				t[i] = (uint8_t)(s[i] & ((1u << k) - 1));
			samples_to_bits(t, n, k, bits);
			for (size_t cut = full; cut + 70 > full && cut > 0; cut -= (cut > 33 ? 33 : cut)) {
				size_t words = samples_packed_words(cut);
				memset(w, 0xa5, sizeof w);
				samples_to_packed(t, n, k, cut, w);
				cases++;
				for (size_t i = 0; i < words * 64; i++) {
					unsigned want = i < cut ? bits[i] : 0;
					if (((w[i / 64] >> (63 - i % 64)) & 1u) != want) {
						if (bad++ < 3)
							printf("# K %u, n %zu, nbits %zu: bit %zu\n", k, n, cut, i);
						break;
					}
				}
				if (w[words] != 0xa5a5a5a5a5a5a5a5u && bad++ < 3)
					printf("# K %u, n %zu, nbits %zu: wrote past its words\n", k, n, cut);
			}
		}
	}
	tap_ok(bad == 0, "packed bits are samples_to_bits' bits, zeros after nbits, nothing past the words (%d cases)",
	       cases);
}

static void test_infer_and_range(void)
{
	const uint8_t a[4] = { 0, 1, 1, 0 }, b[3] = { 3, 9, 2 }, c[2] = { 0, 0 };
	struct err e;
	tap_eq_long(samples_infer_bits(a, 4), 1, "infer 1 bit");
	tap_eq_long(samples_infer_bits(b, 3), 4, "infer 4 bits from max 9");
	tap_eq_long(samples_infer_bits(c, 2), 1, "all zeros infer 1 bit");
	tap_eq_long(samples_check_range(b, 3, 4, "x", &e), 0, "9 fits 4 bits");
	tap_eq_long(samples_check_range(b, 3, 3, "data.bin", &e), ERR_DATA, "9 does not fit 3 bits");
	tap_ok(strstr(e.msg, "data.bin") && strstr(e.msg, "sample 1"), "range error names file and index: %s", e.msg);
}

/* samples_first_wide against a sample-by-sample search, where the first wide
 * sample sits in the first, a middle or the last block, on a block's edge,
 * with more after it, or nowhere */
static void test_first_wide(void)
{
	enum { N = 3 * 4096 + 100 };
	static uint8_t s[N];
	const size_t at[] = { 0, 1, 4095, 4096, 4097, 8191, 9000, N - 1 };
	int bad = 0, cases = 0;

	for (unsigned bits = 1; bits <= 8; bits++) {
		for (size_t k = 0; k <= sizeof at / sizeof at[0]; k++) {
			size_t want = N;
			for (size_t i = 0; i < N; i++)
				s[i] = (uint8_t)((i * 2654435761u >> 7) & ((1u << bits) - 1u));
			if (k < sizeof at / sizeof at[0] && bits < 8) {
				s[at[k]] = (uint8_t)(1u << bits);
				s[N - 1] |= 0x80;   /* a later one does not count */
				want = at[k];
			}
			for (size_t n = N - 1; n <= N; n++) {
				size_t got = samples_first_wide(s, n, bits);
				size_t w = want < n ? want : n;
				cases++;
				if (got != w) {
					bad++;
					printf("# bits %u, n %zu: %zu, want %zu\n", bits, n, got, w);
				}
			}
		}
	}
	tap_ok(bad == 0, "samples_first_wide finds the first wide sample in any block (%d cases)", cases);
	tap_eq_long((long)samples_first_wide(s, 0, 1), 0, "samples_first_wide on no samples: 0");
}

static void test_parse_bits(void)
{
	unsigned k = 0;
	struct err e;
	tap_ok(samples_parse_bits("8", &k, &e) == 0 && k == 8, "parse bits 8");
	tap_ok(samples_parse_bits("0", &k, &e) == ERR_USAGE, "bits 0 rejected");
	tap_ok(samples_parse_bits("9", &k, &e) == ERR_USAGE, "bits 9 rejected");
	tap_ok(samples_parse_bits("4x", &k, &e) == ERR_USAGE, "bits 4x rejected");
}

static void test_read_file_errors(void)
{
	uint8_t *d;
	size_t n;
	struct err e;
	tap_ok(samples_read_file("/nonexistent/x.bin", &d, &n, &e) != 0 && strstr(e.msg, "/nonexistent/x.bin"),
	       "missing file is an error naming it");
	tap_ok(samples_read_file("/dev/null", &d, &n, &e) == ERR_DATA && strstr(e.msg, "empty"),
	       "empty file is an error");
	tap_ok(samples_read_file("/", &d, &n, &e) != 0, "directory is an error");
}

int main(void)
{
	test_known_values();
	test_every_k_split_blocks();
	test_to_bits();
	test_to_packed();
	test_infer_and_range();
	test_first_wide();
	test_parse_bits();
	test_read_file_errors();
	return tap_done();
}
