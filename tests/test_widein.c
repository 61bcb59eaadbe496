/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_widein.c - wide samples through a source and the engine's input:
 * file:PATH,format=F parses and opens, its stream is one 64-bit word per
 * sample, widein_read honours -n, and widein_push hands the sinks the
 * translated symbols with the map's width. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/recorder.h"
#include "engine/widein.h"
#include "sources/spec.h"
#include "tap.h"

#define N 1000

static void test_spec(void)
{
	struct spec sp;
	struct err e;

	tap_ok(spec_parse(&sp, "file:/d/a,b=c.bin,format=u16le", &e) == 0 &&
	       strcmp(sp.arg, "/d/a,b=c.bin") == 0 && sp.nkeys == 1 &&
	       strcmp(sp.value[0], "u16le") == 0, "spec: the last ,format=F is the option, commas before stay in the path");
	tap_ok(spec_parse(&sp, "file:/d/x,format=u8,y", &e) == 0 && sp.nkeys == 0 &&
	       strcmp(sp.arg, "/d/x,format=u8,y") == 0, "spec: ,format= not last stays in the path");
	tap_ok(spec_parse(&sp, "file:,format=u8", &e) == ERR_USAGE, "spec: a format without a path: error");
}

int main(void)
{
	char path[] = "test_widein-XXXXXX", spec[64];
	int fd = mkstemp(path);
	uint8_t bytes[2 * N];
	uint64_t *x = NULL;
	size_t n = 0;
	struct source *src = NULL;
	struct engine_stats st;
	struct translate_method m;
	struct translate_map map;
	struct membuf mb;
	struct sink *sinks[1];
	struct err e;
	size_t bad = 0;

	test_spec();
	for (size_t i = 0; i < N; i++) {        /* big-endian 0xAB00 + (i % 16) */
		bytes[2 * i] = 0xAB;
		bytes[2 * i + 1] = (uint8_t)(i % 16);
	}
	if (fd < 0 || write(fd, bytes, sizeof bytes) != (ssize_t)sizeof bytes) {
		tap_ok(0, "temporary file");
		return tap_done();
	}
	close(fd);
	snprintf(spec, sizeof spec, "file:%s,format=u16be", path);
	tap_ok(source_open(&src, spec, &e) == 0, "file:PATH,format=u16be opens");
	tap_ok(src && source_get_info(src)->sample_bits == 16 && source_get_info(src)->word_bits == 64,
	       "wide file: 16-bit samples in 64-bit words");
	tap_ok(widein_read(src, 300, NULL, &x, &n, &st, &e) == 0 && n == 300 && st.samples == 300,
	       "widein_read: stops at max (300)");
	for (size_t i = 0; i < n; i++)
		bad += x[i] != 0xAB00u + i % 16;
	tap_ok(bad == 0, "widein_read: the values (%zu wrong)", bad);
	free(x);
	tap_ok(widein_read(src, 0, NULL, &x, &n, &st, &e) == 0 && n == N - 300 && st.eof,
	       "widein_read: the rest to the end of the file");
	source_close(src);

	translate_parse("bits-in-use", &m, &e);
	tap_ok(translate_plan(&m, x, n, 16, &map, &e) == 0 && map.bits == 4, "plan: 4 bits in use");
	membuf_init(&mb, 0);
	sinks[0] = &mb.sink;
	tap_ok(widein_push(&map, x, n, sinks, 1, 0, &e) == 0 && mb.n == n, "push: every symbol reaches the sink");
	bad = 0;
	for (size_t i = 0; i < mb.n; i++)
		bad += mb.data[i] != (300 + i) % 16;
	tap_ok(bad == 0, "push: the symbols are the low nibbles (%zu wrong)", bad);
	membuf_free(&mb);
	free(x);

	snprintf(spec, sizeof spec, "file:%s,format=u24", path);
	tap_ok(source_open(&src, spec, &e) == ERR_USAGE && strstr(e.msg, "u24"), "format=u24: usage error");
	snprintf(spec, sizeof spec, "file:%s", path);
	tap_ok(source_open(&src, spec, &e) == 0 && source_get_info(src)->sample_bits == 0,
	       "plain file: a byte stream still");
	tap_ok(widein_read(src, 0, NULL, &x, &n, &st, &e) == ERR_USAGE, "widein_read of a byte stream: error");
	source_close(src);
	unlink(path);
	return tap_done();
}
