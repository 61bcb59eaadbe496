/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_sources.c - spec parsing, the sim models' outputs, each source's
 * error paths, and the real sources where the hardware is present. */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "sources/source.h"
#include "sources/spec.h"
#include "sources/x86rng.h"
#include "tap.h"

static size_t read_all(struct source *s, uint8_t *buf, size_t len)
{
	size_t done = 0;
	struct err e;
	while (done < len) {
		ssize_t got = source_read(s, buf + done, len - done, &e);
		if (got <= 0)
			break;
		done += (size_t)got;
	}
	return done;
}

static void expect_open_error(const char *spec, int code, const char *needle)
{
	struct source *s = NULL;
	struct err e = { 0 };
	int rc = source_open(&s, spec, &e);
	tap_ok(rc == code && s == NULL && strstr(e.msg, needle) != NULL && !strchr(e.msg, '\n'),
	       "open '%s' fails (%d) naming '%s': %s", spec, rc, needle, e.msg);
	source_close(s);
}

static void test_spec(void)
{
	struct spec sp;
	struct err e;
	tap_ok(spec_parse(&sp, "rdrand:width=32", &e) == 0 && strcmp(sp.name, "rdrand") == 0 &&
	       sp.nkeys == 1 && strcmp(spec_get(&sp, "width"), "32") == 0, "spec NAME:key=value");
	tap_ok(spec_parse(&sp, "file:/tmp/a,b=c", &e) == 0 && strcmp(sp.arg, "/tmp/a,b=c") == 0,
	       "file: keeps the whole path");
	tap_ok(spec_parse(&sp, "sim:biased,p=0.1,seed=3", &e) == 0 && strcmp(sp.arg, "biased") == 0 &&
	       sp.nkeys == 2, "sim:MODEL,key=value,...");
	tap_ok(spec_parse(&sp, "rdrand:width", &e) == ERR_USAGE, "key without value rejected");
	tap_ok(spec_parse(&sp, "rdrand:width=1,width=2", &e) == ERR_USAGE, "duplicate key rejected");
	tap_ok(spec_parse(&sp, "", &e) == ERR_USAGE, "empty spec rejected");
}

/* audit's --source LIST */
static void test_spec_list(void)
{
	static char sp[4][SPEC_TEXT_MAX];
	char longspec[300];
	size_t n = 0;
	struct err e;

	tap_ok(spec_list_split("sim:biased,p=0.5,rdrand", sp, 4, &n, &e) == 0 && n == 2 &&
	       strcmp(sp[0], "sim:biased,p=0.5") == 0 && strcmp(sp[1], "rdrand") == 0,
	       "list: a key=value continues the spec before it");
	tap_ok(spec_list_split(",,rdrand,,hwrng:device=/dev/x,", sp, 4, &n, &e) == 0 && n == 2 &&
	       strcmp(sp[1], "hwrng:device=/dev/x") == 0, "list: empty pieces skipped; NAME:key=value starts a spec");
	tap_ok(spec_list_split("file:/tmp/a,b=c,sim:ideal", sp, 4, &n, &e) == 0 && n == 2 &&
	       strcmp(sp[0], "file:/tmp/a,b=c") == 0, "list: file: keeps its comma like spec_parse");
	tap_ok(spec_list_split(",,", sp, 4, &n, &e) == ERR_USAGE && strstr(e.msg, "empty list"), "list: empty");
	tap_ok(spec_list_split("p=0.5,rdrand", sp, 4, &n, &e) == ERR_USAGE && strstr(e.msg, "'p=0.5' is an option"),
	       "list: an option first is an error naming it");
	tap_ok(spec_list_split("a,b,c,d,e", sp, 4, &n, &e) == ERR_USAGE && strstr(e.msg, "more than 4"),
	       "list: more specs than room");
	memset(longspec, 'x', sizeof longspec - 1);
	longspec[sizeof longspec - 1] = '\0';
	tap_ok(spec_list_split(longspec, sp, 4, &n, &e) == ERR_USAGE && strstr(e.msg, "too long"),
	       "list: a 299-byte spec is too long");
	tap_ok(spec_list_split("sim:x,k=\x1b[2J", sp, 4, &n, &e) == 0 && n == 1, "list: control bytes kept for the parser");
	tap_ok(spec_list_split("\x1b[2J=1", sp, 4, &n, &e) == ERR_USAGE && strstr(e.msg, "\\x1b[2J=1"),
	       "list: a message echoes control bytes escaped");
}

static void test_open_errors(void)
{
	expect_open_error("nosuch", ERR_USAGE, "unknown source 'nosuch'");
	expect_open_error("rdrand:width=48", ERR_USAGE, "width=48");
	expect_open_error("rdrand:widht=32", ERR_USAGE, "widht");
	expect_open_error("getrandom:flags=bogus", ERR_USAGE, "flags=bogus");
	expect_open_error("hwrng:device=/nonexistent/rng", ERR_UNAVAILABLE, "/nonexistent/rng");
	expect_open_error("hwrng:device=/etc/passwd", ERR_USAGE, "not a character device");
	expect_open_error("file:/nonexistent/data.bin", ERR_IO, "/nonexistent/data.bin");
	expect_open_error("file:", ERR_USAGE, "needs a path");
	expect_open_error("sim:nosuch", ERR_USAGE, "unknown sim model");
	expect_open_error("sim:biased", ERR_USAGE, "needs p=P");
	expect_open_error("sim:biased,p=1.5", ERR_USAGE, "p=1.5");
	expect_open_error("sim:stuck", ERR_USAGE, "after=N");
	expect_open_error("sim:ideal,bits=9", ERR_USAGE, "bits=9");
	expect_open_error("sim:ideal,colour=red", ERR_USAGE, "colour");
}

static void test_sim_deterministic(void)
{
	struct source *a, *b, *c;
	struct err e;
	uint8_t x[4096], y[4096], z[4096];
	source_open(&a, "sim:ideal,seed=7", &e);
	source_open(&b, "sim:ideal,seed=7", &e);
	source_open(&c, "sim:ideal,seed=8", &e);
	read_all(a, x, sizeof x);
	read_all(b, y, sizeof y);
	read_all(c, z, sizeof z);
	tap_ok(memcmp(x, y, sizeof x) == 0, "sim: same seed, same bytes");
	tap_ok(memcmp(x, z, sizeof x) != 0, "sim: other seed, other bytes");
	source_close(a);
	source_close(b);
	source_close(c);
}

static void test_sim_models(void)
{
	static uint8_t buf[1 << 20];
	struct source *s;
	struct source_counters cnt;
	struct err e;
	size_t n, count;

	/* biased,p=0.1: symbol 0 with probability 0.1 (binomial sd ~ 300 of 1M). */
	source_open(&s, "sim:biased,p=0.1,seed=2", &e);
	n = read_all(s, buf, sizeof buf);
	count = 0;
	for (size_t i = 0; i < n; i++)
		count += buf[i] == 0;
	tap_ok(count > 103000 && count < 107000, "biased,p=0.1: %zu zeros of %zu (expected 100000, sd 300)", count, n);
	source_close(s);

	/* stuck,after=1000,value=7, 4-bit symbols: from symbol 1000 on always 7. */
	source_open(&s, "sim:stuck,after=1000,value=7,bits=4", &e);
	n = read_all(s, buf, 4096);
	count = 0;
	for (size_t i = 500; i < n; i++)   /* bytes 500.. hold symbols 1000.. */
		count += buf[i] != 0x77;
	tap_ok(count == 0, "stuck,after=1000: every symbol from 1000 on is 7");
	source_close(s);

	/* markov,p=0.5: next = previous+1 about half the time (+1/256 by chance). */
	source_open(&s, "sim:markov,p=0.5,seed=3", &e);
	n = read_all(s, buf, 100000);
	count = 0;
	for (size_t i = 1; i < n; i++)
		count += buf[i] == (uint8_t)(buf[i - 1] + 1);
	tap_ok(count > 49000 && count < 52000, "markov,p=0.5: %zu successors of 100000", count);
	source_close(s);

	/* amd-rdrand-ffffffff: 64-bit words all ones, counted. */
	source_open(&s, "sim:amd-rdrand-ffffffff", &e);
	n = read_all(s, buf, 8000);
	source_get_counters(s, &cnt);
	count = 0;
	for (size_t i = 0; i < n; i++)
		count += buf[i] != 0xFF;
	tap_ok(count == 0 && cnt.ones_words == 1000 && source_get_info(s)->word_bits == 64,
	       "amd-rdrand-ffffffff: 1000 all-ones 64-bit words counted");
	source_close(s);

	/* rdseed-zero,p=0.1: about 10% of 32-bit words zero. */
	source_open(&s, "sim:rdseed-zero,p=0.1,seed=4", &e);
	read_all(s, buf, 400000);
	source_get_counters(s, &cnt);
	tap_ok(cnt.words == 100000 && cnt.zero_words > 9400 && cnt.zero_words < 10600 &&
	       source_get_info(s)->word_bits == 32, "rdseed-zero,p=0.1: %llu zero words of 100000",
	       (unsigned long long)cnt.zero_words);
	source_close(s);

	/* repeat-words,p=0.2: about 20% of 64-bit words repeat the previous one. */
	source_open(&s, "sim:repeat-words,p=0.2,seed=5", &e);
	n = read_all(s, buf, 800000);
	count = 0;
	for (size_t i = 8; i + 8 <= n; i += 8)
		count += memcmp(buf + i, buf + i - 8, 8) == 0;
	tap_ok(count > 19000 && count < 21000, "repeat-words,p=0.2: %zu repeats of 99999", count);
	source_close(s);
}

static void test_x86(void)
{
	static const char *const specs[] = { "rdrand:width=16", "rdrand:width=32", "rdrand", "rdseed:width=32", "rdseed" };
	for (size_t i = 0; i < 5; i++) {
		struct source *s;
		struct source_counters c;
		struct err e;
		uint8_t buf[1003];
		int seed = strncmp(specs[i], "rdseed", 6) == 0;
		int have = seed ? x86rng_have_rdseed() : x86rng_have_rdrand();
		if (!have) {
			tap_skip(seed ? "no RDSEED on this CPU" : "no RDRAND on this CPU");
			tap_ok(source_open(&s, specs[i], &e) == ERR_UNAVAILABLE, "%s unavailable: %s", specs[i], e.msg);
			continue;
		}
		if (source_open(&s, specs[i], &e) != 0) {
			tap_ok(0, "open %s: %s", specs[i], e.msg);
			continue;
		}
		/* 1003 bytes: not a whole number of words, so the pending-bytes path runs. */
		tap_eq_long((long long)read_all(s, buf, sizeof buf), (long long)sizeof buf, specs[i]);
		source_get_counters(s, &c);
		tap_ok(c.bytes == sizeof buf && c.calls >= c.words && c.words >= sizeof buf / 8,
		       "%s counters: calls %llu words %llu underflows %llu", specs[i],
		       (unsigned long long)c.calls, (unsigned long long)c.words,
		       (unsigned long long)c.underflows);
		source_close(s);
	}
}

static void test_getrandom_and_hwrng(void)
{
	struct source *s;
	struct err e;
	uint8_t buf[300000];
	int fd;
	tap_ok(source_open(&s, "getrandom", &e) == 0 && read_all(s, buf, sizeof buf) == sizeof buf,
	       "getrandom delivers 300000 bytes");
	source_close(s);
	tap_ok(source_open(&s, "getrandom:flags=insecure", &e) == 0 && read_all(s, buf, 64) == 64,
	       "getrandom:flags=insecure");
	source_close(s);
	/* The virtio hwrng gives ~10 KB/s: read only 64 bytes. */
	fd = open("/dev/hwrng", O_RDONLY);
	if (fd < 0) {
		tap_skip("no readable /dev/hwrng");
		return;
	}
	close(fd);
	tap_ok(source_open(&s, "hwrng", &e) == 0 && read_all(s, buf, 64) == 64, "hwrng delivers 64 bytes");
	source_close(s);
}

static void test_file_source(void)
{
	char path[] = "/tmp/rngaudit-test-file-XXXXXX";
	int fd = mkstemp(path);
	struct source *s;
	struct err e;
	uint8_t buf[16];
	const uint8_t data[5] = { 1, 2, 3, 4, 5 };
	tap_ok(fd >= 0 && write(fd, data, 5) == 5, "temp file");
	close(fd);
	tap_ok(source_open(&s, (char[300]){ 0 } , &e) != 0, "empty spec rejected");
	{
		char spec[300];
		snprintf(spec, sizeof spec, "file:%s", path);
		tap_ok(source_open(&s, spec, &e) == 0, "open file source");
		tap_ok(read_all(s, buf, sizeof buf) == 5 && memcmp(buf, data, 5) == 0, "file: raw bytes, then EOF");
		source_close(s);
	}
	unlink(path);
}

/* What a report says of a source it could not open. */
static void test_describe(void)
{
	struct source_info in;

	tap_ok(source_describe("rdseed", &in) == 0 && in.kind == SOURCE_CONDITIONED && in.word_bits == 64 &&
	       strcmp(in.name, "rdseed") == 0, "describe rdseed: conditioned, 64-bit words (whether or not present)");
	tap_ok(source_describe("rdrand:width=32", &in) == 0 && in.kind == SOURCE_DRBG,
	       "describe rdrand:width=32: DRBG output");
	tap_ok(source_describe("hwrng:device=/nonexistent/x", &in) == 0 && in.kind == SOURCE_RAW &&
	       strcmp(in.device, "/nonexistent/x") == 0 && in.word_bits == 8,
	       "describe a missing hwrng: raw, its device from the spec");
	tap_ok(source_describe("file:/nonexistent/y", &in) == 0 && in.kind == SOURCE_RAW &&
	       strcmp(in.device, "/nonexistent/y") == 0, "describe a missing file: raw, its path");
	tap_ok(source_describe("sim:ideal", &in) == ERR_USAGE, "describe sim: not known without opening");
	tap_ok(source_describe("nonesuch", &in) == ERR_USAGE, "describe an unknown source: ERR_USAGE");
}

int main(void)
{
	test_spec();
	test_spec_list();
	test_open_errors();
	test_sim_deterministic();
	test_sim_models();
	test_x86();
	test_getrandom_and_hwrng();
	test_file_source();
	test_describe();
	return tap_done();
}
