/* SPDX-License-Identifier: GPL-3.0-or-later */
/* chaoskey.c - the ChaosKey's raw noise (chaoskey[:serial=S]); see
 * chaoskey.h for what is public about the device and where from.
 *
 * The frames are decoded as u16le by widefmt (a sample split across two
 * transfers is carried over) and checked to hold 12-bit values; the stream
 * this source gives is one 64-bit little-endian word per sample
 * (sample_bits 12), reduced by a 90B 6.4 translation at the engine's input
 * like every wide source.  hwrng:device=/dev/chaoskey0 remains the
 * whitened path. */
#include "config.h"

#include "sources/backend.h"
#include "sources/chaoskey.h"
#include "sources/widefmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHAOSKEY_WORD 8               /* bytes per sample in this source's stream */
#define CHAOSKEY_RAW_BYTES 2          /* bytes per sample on the wire */
/* USB full speed bulk packets are 64 bytes; 4 KiB transfers (2048 samples)
 * keep the per-transfer cost low at the device's tens of KB/s. */
#define CHAOSKEY_TRANSFER 4096

struct chaoskey {
	const struct chaoskey_transport *t;
	void *ctx;
	struct widefmt_decoder dec;
	uint8_t raw[CHAOSKEY_TRANSFER];
	uint64_t vals[CHAOSKEY_TRANSFER / CHAOSKEY_RAW_BYTES + 1];
	uint64_t index;                   /* samples delivered so far */
};

int chaoskey_check_samples(const uint64_t *x, size_t n, uint64_t first_index, struct err *e)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] >> CHAOSKEY_SAMPLE_BITS)
			return err_set(e, ERR_DATA, "chaoskey: raw sample %llu is 0x%llx, wider than %d "
				       "bits: these are not raw ADC frames", (unsigned long long)(first_index + i),
				       (unsigned long long)x[i], CHAOSKEY_SAMPLE_BITS);
	return 0;
}

static int chaoskey_setup(struct source *src, struct spec *sp, const struct chaoskey_transport *t,
			  struct err *e)
{
	const char *serial = spec_get(sp, "serial");
	struct chaoskey *ck;
	char what[128] = "";
	int rc;

	if ((rc = spec_check_unused(sp, e)) != 0)
		return rc;
	ck = calloc(1, sizeof *ck);
	if (!ck)
		return err_set(e, ERR_NOMEM, "chaoskey: out of memory");
	src->priv = ck;
	ck->t = t;
	if ((rc = t->open(&ck->ctx, serial, what, sizeof what, e)) != 0)
		return rc;
	widefmt_decoder_init(&ck->dec, WIDEFMT_U16LE, "chaoskey");
	snprintf(src->info.spec, sizeof src->info.spec, "chaoskey%s%.200s", serial ? ":serial=" : "",
		 serial ? serial : "");
	snprintf(src->info.device, sizeof src->info.device, "usb %04x:%04x", CHAOSKEY_VENDOR,
		 CHAOSKEY_PRODUCT);
	snprintf(src->info.detail, sizeof src->info.detail, "raw endpoint 0x%02x%s%.80s",
		 CHAOSKEY_EP_RAW, what[0] ? ", " : "", what);
	src->info.word_bits = CHAOSKEY_WORD * 8;
	src->info.sample_bits = CHAOSKEY_SAMPLE_BITS;
	src->info.kind = SOURCE_RAW;
	src->info.block_hint = CHAOSKEY_TRANSFER / CHAOSKEY_RAW_BYTES * CHAOSKEY_WORD;
	return 0;
}

static int chaoskey_open(struct source *src, struct spec *sp, struct err *e)
{
	return chaoskey_setup(src, sp, &chaoskey_usb, e);
}

static ssize_t chaoskey_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct chaoskey *ck = src->priv;
	size_t max = len / CHAOSKEY_WORD, n = 0;
	int rc;

	if (max == 0)
		return err_set(e, ERR_USAGE, "chaoskey: a read needs room for one 8-byte sample");
	while (n == 0) {
		size_t want = max * CHAOSKEY_RAW_BYTES;
		ssize_t got;

		if (want > sizeof ck->raw)
			want = sizeof ck->raw;
		got = ck->t->read(ck->ctx, ck->raw, want, e);
		src->counters.calls++;
		if (got < 0)
			return got;
		if (got == 0)
			return err_set(e, ERR_SOURCE, "chaoskey: the device sent an empty transfer");
		if ((rc = widefmt_decode(&ck->dec, ck->raw, (size_t)got, ck->vals, &n, e)) != 0 ||
		    (rc = chaoskey_check_samples(ck->vals, n, ck->index, e)) != 0)
			return rc;
	}
	ck->index += n;
	return source_wide_put(src, buf, ck->vals, n);
}

static void chaoskey_close(struct source *src)
{
	struct chaoskey *ck = src->priv;

	if (!ck)
		return;
	if (ck->ctx)
		ck->t->close(ck->ctx);   /* releases interface 0, reattaches the kernel driver */
	free(ck);
}

static int chaoskey_probe(struct source_probe *p)
{
	p->available = chaoskey_usb.probe(p->why, sizeof p->why);
	snprintf(p->device, sizeof p->device, "usb %04x:%04x", CHAOSKEY_VENDOR, CHAOSKEY_PRODUCT);
	snprintf(p->what, sizeof p->what, "raw noise: 12-bit ADC samples (endpoint 0x%02x)",
		 CHAOSKEY_EP_RAW);
	p->word_bits = 16;
	p->kind = SOURCE_RAW;
	return 0;
}

const struct source_backend source_chaoskey = {
	"chaoskey", chaoskey_open, chaoskey_read, chaoskey_close, chaoskey_probe,
};

int chaoskey_open_with(struct source **out, const char *spec, const struct chaoskey_transport *t,
		       struct err *e)
{
	struct spec sp;
	struct source *src;
	int rc;

	*out = NULL;
	if ((rc = spec_parse(&sp, spec, e)) != 0)
		return rc;
	if (strcmp(sp.name, "chaoskey") != 0)
		return err_set(e, ERR_USAGE, "source '%s' is not a chaoskey", spec);
	src = calloc(1, sizeof *src);
	if (!src)
		return err_set(e, ERR_NOMEM, "out of memory");
	src->backend = &source_chaoskey;
	snprintf(src->info.name, sizeof src->info.name, "chaoskey");
	if ((rc = chaoskey_setup(src, &sp, t, e)) != 0) {
		chaoskey_close(src);
		free(src);
		return rc;
	}
	*out = src;
	return 0;
}
