/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_asyncsink.c - sinks on a worker thread see every block, in order,
 * with the bytes the source gave (read in place, never overwritten while
 * queued), and their stop requests and errors reach the engine. */
#include "config.h"

#include <time.h>

#include "engine/asyncsink.h"
#include "tap.h"

struct checker {
	struct sink sink;
	uint64_t next, samples;
	uint64_t hash;           /* FNV-1a over every sample and raw byte seen */
	int in_order, finished;
	uint64_t fail_after;
	int fail_code;
	int slow;                /* sleep a little each block: the queue fills up */
};

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static int checker_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct checker *c = sk->ctx;
	if (b->first_index != c->next || (b->bits == 8 && b->samples != b->raw))
		c->in_order = 0;
	if (c->slow)
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	c->hash = fnv1a(fnv1a(c->hash, b->samples, b->n), b->raw, b->raw_len);
	c->next += b->n;
	c->samples += b->n;
	if (c->fail_after && c->samples >= c->fail_after)
		return c->fail_code < 0 ? err_set(e, c->fail_code, "inner sink failed") : c->fail_code;
	return 0;
}

static int checker_finish(struct sink *sk, int interrupted, struct err *e)
{
	struct checker *c = sk->ctx;
	(void)interrupted; (void)e;
	c->finished++;
	return 0;
}

static void checker_init(struct checker *c)
{
	memset(c, 0, sizeof *c);
	c->sink = (struct sink){ "checker", checker_push, checker_finish, c, 0 };
	c->in_order = 1;
	c->hash = 0xcbf29ce484222325ULL;
}

/* Runs sim:ideal through the checkers: on a worker (async) or inline. */
static int run(struct checker *c, size_t nc, int async, unsigned bits, uint64_t n,
	       struct engine_stats *st, struct err *e)
{
	struct source *src;
	struct asyncsink *a = NULL;
	struct sink *inner[2], *sinks[2];
	struct engine_opts o = { .max_samples = n, .bits = bits, .block_bytes = 1000 };
	int rc;
	for (size_t i = 0; i < nc; i++)
		inner[i] = sinks[i] = &c[i].sink;
	source_open(&src, "sim:ideal", e);
	if (async) {
		asyncsink_new(&a, inner, nc, e);
		sinks[0] = asyncsink_sink(a);
	}
	rc = engine_run(src, &o, sinks, async ? 1 : nc, st, e);
	asyncsink_free(a);
	source_close(src);
	return rc;
}

static void test_bytes_in_place(unsigned bits, uint64_t n, int slow)
{
	struct checker sync, c[2];
	struct engine_stats st;
	struct err e;
	checker_init(&sync);
	run(&sync, 1, 0, bits, n, &st, &e);
	checker_init(&c[0]);
	checker_init(&c[1]);
	c[0].slow = c[1].slow = slow;
	tap_ok(run(c, 2, 1, bits, n, &st, &e) == 0 && c[0].samples == n && c[1].samples == n &&
	       c[0].in_order && c[1].in_order && c[0].finished == 1 && c[1].finished == 1,
	       "%u-bit%s: both inner sinks see every sample, in order, finish once", bits,
	       slow ? ", slow sinks" : "");
	tap_ok(c[0].hash == sync.hash && c[1].hash == sync.hash,
	       "%u-bit%s: the bytes the sinks read in place are the ones pushed inline", bits,
	       slow ? ", slow sinks (a full queue)" : "");
}

int main(void)
{
	struct checker c;
	struct engine_stats st;
	struct err e;
	int rc;

	test_bytes_in_place(8, 1000003, 0);
	test_bytes_in_place(3, 200001, 0);
	test_bytes_in_place(8, 100000, 1);
	test_bytes_in_place(1, 100000, 1);
	checker_init(&c);
	c.fail_after = 50000;
	c.fail_code = 1;
	rc = run(&c, 1, 1, 8, 10000000, &st, &e);
	tap_ok(rc == 0 && st.stopped_by_sink && st.samples < 100000,
	       "a stop request reaches the engine within a few blocks (%llu samples)",
	       (unsigned long long)st.samples);
	checker_init(&c);
	c.fail_after = 50000;
	c.fail_code = ERR_IO;
	rc = run(&c, 1, 1, 8, 10000000, &st, &e);
	tap_ok(rc == ERR_IO && strstr(e.msg, "inner sink failed"),
	       "an inner error is passed up");
	return tap_done();
}
