/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_chaoskey.c - the ChaosKey raw source on synthetic frames through a
 * test transport (there is no device here): 12-bit samples in 2-byte
 * little-endian words, transfers that split samples, values wider than 12
 * bits rejected, open errors passed up, close always reached (it is where
 * the kernel driver is reattached), and the probe giving a reason. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "engine/widein.h"
#include "sources/chaoskey.h"
#include "tap.h"

#define N 5000
#define PIECE 7                        /* odd: every other transfer splits a sample */

static uint8_t frames[2 * N];
static size_t frame_at, frame_len;
static int fake_closed, fake_fail_open;

static int fake_open(void **ctx, const char *serial, char *what, size_t what_len, struct err *e)
{
	if (fake_fail_open)
		return err_set(e, ERR_UNAVAILABLE, "chaoskey: no ChaosKey (USB 1d50:60c6) found");
	snprintf(what, what_len, "test frames%s%s", serial ? " for " : "", serial ? serial : "");
	*ctx = frames;
	frame_at = 0;
	fake_closed = 0;
	return 0;
}

static ssize_t fake_read(void *ctx, uint8_t *buf, size_t len, struct err *e)
{
	size_t n = len < PIECE ? len : PIECE;

	(void)ctx;
	if (frame_at == frame_len)
		return err_set(e, ERR_SOURCE, "chaoskey: test frames exhausted");
	if (n > frame_len - frame_at)
		n = frame_len - frame_at;
	memcpy(buf, frames + frame_at, n);
	frame_at += n;
	return (ssize_t)n;
}

static void fake_close(void *ctx)
{
	(void)ctx;
	fake_closed = 1;
}

static int fake_probe(char *why, size_t len)
{
	snprintf(why, len, "test");
	return 1;
}

static const struct chaoskey_transport fake = { "test", fake_open, fake_read, fake_close, fake_probe };

static uint64_t sample(size_t i)
{
	return (i * 2654435761u >> 7) & 0xfff;    /* 12-bit values */
}

int main(void)
{
	struct source *src = NULL;
	struct source_probe p;
	struct engine_stats st;
	uint64_t *x = NULL;
	size_t n = 0, bad = 0;
	struct err e;
	int rc;

	for (size_t i = 0; i < N; i++) {
		frames[2 * i] = (uint8_t)sample(i);
		frames[2 * i + 1] = (uint8_t)(sample(i) >> 8);
	}
	frame_len = sizeof frames;
	tap_ok(chaoskey_open_with(&src, "chaoskey:serial=ABC", &fake, &e) == 0, "opens over a test transport");
	tap_ok(src && source_get_info(src)->sample_bits == 12 && source_get_info(src)->kind == SOURCE_RAW,
	       "12-bit raw samples");
	tap_ok(src && strstr(source_get_info(src)->detail, "raw endpoint 0x86"), "detail names the raw endpoint");
	tap_ok(src && widein_read(src, N, NULL, &x, &n, &st, &e) == 0 && n == N, "reads %d samples from 7-byte transfers", N);
	for (size_t i = 0; i < n; i++)
		bad += x[i] != sample(i);
	tap_ok(bad == 0, "every sample is its 12-bit little-endian word (%zu wrong)", bad);
	free(x);
	source_close(src);
	tap_ok(fake_closed, "close reaches the transport (where the kernel driver is reattached)");

	frames[2 * 100 + 1] |= 0x10;             /* bit 12 of sample 100 */
	tap_ok(chaoskey_open_with(&src, "chaoskey", &fake, &e) == 0, "opens again");
	tap_ok(widein_read(src, N, NULL, &x, &n, &st, &e) == ERR_DATA && strstr(e.msg, "raw sample 100") &&
	       strstr(e.msg, "not raw ADC frames"), "a value wider than 12 bits: data error naming sample 100");
	source_close(src);
	frames[2 * 100 + 1] &= 0x0f;

	fake_fail_open = 1;
	tap_ok(chaoskey_open_with(&src, "chaoskey", &fake, &e) == ERR_UNAVAILABLE && src == NULL,
	       "open failure is passed up (unavailable)");
	fake_fail_open = 0;
	tap_ok(chaoskey_open_with(&src, "chaoskey:colour=red", &fake, &e) == ERR_USAGE, "unknown option: usage error");

	rc = source_probe("chaoskey", &p);
	tap_ok(rc == 0 && strstr(p.what, "raw noise") && (p.available || p.why[0]),
	       "probe: listed, and when unavailable it says why (%s)", p.available ? "available" : p.why);
	rc = source_open(&src, "chaoskey", &e);
	if (rc == 0) {
		tap_ok(1, "# SKIP a ChaosKey is plugged in");
		source_close(src);
	} else {
		tap_ok(e.code != ERR_INTERNAL && !strchr(e.msg, '\n'),
		       "no device here: a one-line error (%s)", e.msg);
	}
	return tap_done();
}
