/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_widefmt.c - libFuzzer target: wide raw samples in files, as
 * `translate --format F`, `assess --format F` and file:PATH,format=F read
 * them (widefmt_decode_buffer and the streaming decoder).
 *
 * The first byte picks the format (u8 ... u64be, dec, hex), the second
 * where to split the rest; the rest is the file.  Properties: an accepted
 * binary file is a whole number of samples that encode back to the same
 * bytes; values fit the format's width; fed in two pieces the decoder gives
 * the same samples; a refused file is one ERR_DATA line and keeps nothing. */
#include "config.h"

#include "fuzz.h"

#include "sources/widefmt.h"

#define FORMATS (WIDEFMT_HEX + 1)

/* The same input through the streaming decoder, split at cut. */
static int decode_split(enum widefmt f, const uint8_t *in, size_t len, size_t cut, uint64_t *out,
			size_t *n, struct err *e)
{
	struct widefmt_decoder d;
	size_t a = 0, b = 0, c = 0;
	int rc;

	widefmt_decoder_init(&d, f, "fuzz");
	if ((rc = widefmt_decode(&d, in, cut, out, &a, e)) != 0 ||
	    (rc = widefmt_decode(&d, in + cut, len - cut, out + a, &b, e)) != 0 ||
	    (rc = widefmt_finish(&d, out + a + b, &c, e)) != 0)
		return rc;
	*n = a + b + c;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum widefmt f;
	const uint8_t *in;
	size_t len, cut, n = 0, n2 = 0;
	uint64_t *x = NULL, *y;
	struct err e;
	int rc;

	if (size < 2)
		return 0;
	f = (enum widefmt)(data[0] % FORMATS);
	in = data + 2;
	len = size - 2;
	cut = len ? data[1] % (len + 1) : 0;
	FUZZ_ASSERT(widefmt_parse(widefmt_name(f), &f, &e) == 0);
	rc = widefmt_decode_buffer(f, in, len, "fuzz", &x, &n, &e);
	y = malloc((len + 1) * sizeof *y);
	if (!y) {
		free(x);
		return 0;
	}
	if (rc != 0) {
		FUZZ_ASSERT(rc == ERR_DATA && x == NULL && n == 0 && e.msg[0] && !strchr(e.msg, '\n'));
		/* split or whole, the same input is refused */
		FUZZ_ASSERT(decode_split(f, in, len, cut, y, &n2, &e) != 0 || n2 == 0);
		free(y);
		return 0;
	}
	FUZZ_ASSERT(n >= 1 && x != NULL);
	FUZZ_ASSERT(decode_split(f, in, len, cut, y, &n2, &e) == 0 && n2 == n &&
		    memcmp(x, y, n * sizeof *x) == 0);
	if (widefmt_size(f)) {
		uint8_t *back = malloc(len + 1);
		FUZZ_ASSERT(len == n * widefmt_size(f));
		for (size_t i = 0; widefmt_width(f) < 64 && i < n; i++)
			FUZZ_ASSERT(x[i] >> widefmt_width(f) == 0);
		if (back) {
			FUZZ_ASSERT(widefmt_encode(f, x, n, back, &e) == 0 && memcmp(back, in, len) == 0);
			free(back);
		}
	}
	free(x);
	free(y);
	return 0;
}
