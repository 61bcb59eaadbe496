/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_asyncsink.c - a sink on a worker thread sees every block, in order,
 * and its stop requests and errors reach the engine. */
#include "config.h"

#include "engine/asyncsink.h"
#include "tap.h"

struct checker {
	struct sink sink;
	uint64_t next, samples;
	int in_order, finished;
	uint64_t fail_after;
	int fail_code;
};

static int checker_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct checker *c = sk->ctx;
	if (b->first_index != c->next || (b->bits == 8 && b->samples != b->raw))
		c->in_order = 0;
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

static int run(struct checker *c, unsigned bits, uint64_t n, struct engine_stats *st, struct err *e)
{
	struct source *src;
	struct asyncsink *a;
	struct sink *sinks[1];
	struct engine_opts o = { .max_samples = n, .bits = bits, .block_bytes = 1000 };
	int rc;
	c->sink = (struct sink){ "checker", checker_push, checker_finish, c };
	c->in_order = 1;
	source_open(&src, "sim:ideal", e);
	asyncsink_new(&a, &c->sink, e);
	sinks[0] = asyncsink_sink(a);
	rc = engine_run(src, &o, sinks, 1, st, e);
	asyncsink_free(a);
	source_close(src);
	return rc;
}

int main(void)
{
	struct checker c = { 0 };
	struct engine_stats st;
	struct err e;

	tap_ok(run(&c, 8, 1000003, &st, &e) == 0 && c.samples == 1000003 && c.in_order && c.finished == 1,
	       "8-bit: every sample, in order, finish once");
	memset(&c, 0, sizeof c);
	tap_ok(run(&c, 3, 200001, &st, &e) == 0 && c.samples == 200001 && c.in_order,
	       "3-bit: every sample, in order");
	memset(&c, 0, sizeof c);
	c.fail_after = 50000;
	c.fail_code = 1;
	tap_ok(run(&c, 8, 10000000, &st, &e) == 0 && st.stopped_by_sink && st.samples < 100000,
	       "a stop request reaches the engine within a few blocks (%llu samples)",
	       (unsigned long long)st.samples);
	memset(&c, 0, sizeof c);
	c.fail_after = 50000;
	c.fail_code = ERR_IO;
	tap_ok(run(&c, 8, 10000000, &st, &e) == ERR_IO && strstr(e.msg, "inner sink failed"),
	       "an inner error is passed up");
	return tap_done();
}
