/* SPDX-License-Identifier: GPL-3.0-or-later */
/* widefile.c - wide raw samples from a file: file:PATH,format=F.
 *
 * The bytes come from the plain file source (file:PATH, so that stdin,
 * FIFOs and its error messages behave the same); widefmt decodes them, and
 * the stream this source gives is one 64-bit little-endian word per sample
 * (source_info.sample_bits says how wide the values are), which the
 * engine's input reduces with a 90B 6.4 translation (engine/widein.h). */
#include "config.h"

#include "sources/backend.h"
#include "sources/widefmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDEFILE_WORD 8   /* bytes per sample in the stream this source gives */

struct widefile {
	struct source *inner;          /* file:PATH */
	struct widefmt_decoder dec;
	uint8_t *raw;                  /* bytes read from the file */
	size_t raw_cap;
	uint64_t *vals;                /* samples decoded from them */
	size_t vals_cap;
	int eof;
};

static int widefile_open(struct source *src, struct spec *sp, struct err *e)
{
	struct widefile *w;
	enum widefmt f;
	char inner[sizeof sp->arg + 8];
	int rc;

	if ((rc = widefmt_parse(spec_get(sp, "format"), &f, e)) != 0 ||
	    (rc = spec_check_unused(sp, e)) != 0)
		return rc;
	w = calloc(1, sizeof *w);
	if (!w)
		return err_set(e, ERR_NOMEM, "%s: out of memory", sp->arg);
	src->priv = w;
	snprintf(inner, sizeof inner, "file:%s", sp->arg);
	if ((rc = source_open(&w->inner, inner, e)) != 0)
		return rc;
	src->info = *source_get_info(w->inner);
	snprintf(src->info.spec, sizeof src->info.spec, "file:%.240s,format=%s", sp->arg,
		 widefmt_name(f));
	widefmt_decoder_init(&w->dec, f, src->info.device);
	src->info.word_bits = WIDEFILE_WORD * 8;
	src->info.sample_bits = widefmt_width(f);
	src->info.kind = SOURCE_RAW;
	return 0;
}

/* Makes room for the decoder's output of `bytes` more bytes (+1 at the end). */
static int widefile_room(struct widefile *w, size_t bytes, struct err *e)
{
	size_t need = widefmt_max_out(&w->dec, bytes) + 1;

	if (bytes > w->raw_cap) {
		uint8_t *r = realloc(w->raw, bytes);
		if (!r)
			return err_set(e, ERR_NOMEM, "%s: out of memory", w->dec.name);
		w->raw = r;
		w->raw_cap = bytes;
	}
	if (need > w->vals_cap) {
		uint64_t *v = realloc(w->vals, need * sizeof *v);
		if (!v)
			return err_set(e, ERR_NOMEM, "%s: out of memory", w->dec.name);
		w->vals = v;
		w->vals_cap = need;
	}
	return 0;
}

static ssize_t widefile_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct widefile *w = src->priv;
	size_t max = len / WIDEFILE_WORD, size = widefmt_size(w->dec.f), n = 0;
	/* bytes that decode to at most max samples: a text sample ends in a
	 * newline, one byte at least (the end of the file ends one more, alone) */
	size_t want = size ? max * size : max;
	int rc;

	if (max == 0)
		return err_set(e, ERR_USAGE, "%s: a read of wide samples needs room for one",
			       w->dec.name);
	if ((rc = widefile_room(w, want, e)) != 0)
		return rc;
	while (n == 0 && !w->eof) {
		ssize_t got = source_read(w->inner, w->raw, want, e);

		if (got < 0)
			return got;
		src->counters.calls++;
		if (got == 0) {
			w->eof = 1;
			rc = widefmt_finish(&w->dec, w->vals, &n, e);
		} else {
			rc = widefmt_decode(&w->dec, w->raw, (size_t)got, w->vals, &n, e);
		}
		if (rc)
			return rc;
	}
	return source_wide_put(src, buf, w->vals, n);
}

static void widefile_close(struct source *src)
{
	struct widefile *w = src->priv;

	if (!w)
		return;
	source_close(w->inner);
	free(w->raw);
	free(w->vals);
	free(w);
}

const struct source_backend source_widefile = {
	"file", widefile_open, widefile_read, widefile_close, NULL,
};
