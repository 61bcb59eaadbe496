/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_jitter.c - the jitter source: options, its probe, and that it gives
 * one 64-bit little-endian delta per sample.  No timing assertions: its
 * rate and min-entropy are measured by scripts/bench-jitter.sh. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sources/source.h"
#include "tap.h"

#define N 256

int main(void)
{
	struct source *src = NULL;
	struct source_probe p;
	struct source_counters c;
	uint8_t buf[N * 8 + 3];
	struct err e;
	ssize_t got;
	size_t zero = 0, distinct = 0;
	uint64_t first = 0;

	tap_ok(source_probe("jitter", &p) == 0 && p.available && p.word_bits == 64 &&
	       p.kind == SOURCE_RAW && strstr(p.what, "raw noise"), "probe: available, 64-bit raw noise");
	tap_ok(source_open(&src, "jitter:mem=65536,loops=16", &e) == 0, "jitter:mem=65536,loops=16 opens");
	tap_ok(src && source_get_info(src)->sample_bits == 64, "64-bit wide samples");
	got = src ? source_read(src, buf, sizeof buf, &e) : -1;
	tap_eq_long(got, N * 8, "a read gives whole 8-byte samples only (256 of them)");
	for (size_t i = 0; got > 0 && i < N; i++) {
		uint64_t v = 0;
		for (int b = 7; b >= 0; b--)
			v = v << 8 | buf[i * 8 + b];
		zero += v == 0;
		if (i == 0)
			first = v;
		else
			distinct += v != first;
	}
	tap_ok(zero < N, "the deltas are not all zero (%zu zero)", zero);
	tap_ok(got > 0 && buf[7] == 0 && buf[6] == 0, "little-endian: the top bytes of a short delta are 0");
	if (src) {
		source_get_counters(src, &c);
		tap_eq_long((long long)c.words, N, "counters: 256 words");
		tap_ok(source_read(src, buf, 7, &e) == ERR_USAGE, "a read with room for no sample: usage error");
		source_close(src);
	}
	tap_ok(source_open(&src, "jitter:mem=1", &e) == ERR_USAGE && strstr(e.msg, "mem=1"),
	       "mem=1: usage error naming it");
	tap_ok(source_open(&src, "jitter:loops=0", &e) == ERR_USAGE, "loops=0: usage error");
	tap_ok(source_open(&src, "jitter:timer=sundial", &e) == ERR_USAGE && strstr(e.msg, "timer"),
	       "timer=sundial: usage error");
	tap_ok(source_open(&src, "jitter:colour=red", &e) == ERR_USAGE && strstr(e.msg, "colour"),
	       "unknown option: usage error");
	tap_ok(source_open(&src, "jitter:timer=clock,loops=4,mem=4096", &e) == 0 &&
	       strstr(source_get_info(src)->spec, "timer=clock"), "timer=clock opens");
	if (src)
		source_close(src);
	(void)distinct;
	return tap_done();
}
