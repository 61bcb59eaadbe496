/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_engine.c - the pull loop: exact sample counts for every K, block
 * order, sinks asking to stop, errors passed up, the stop flag. */
#include "config.h"

#include <stdint.h>

#include "engine/engine.h"
#include "engine/recorder.h"
#include "tap.h"

struct counting {
	struct sink sink;
	uint64_t samples, next_index, blocks;
	int in_order, finished, finished_interrupted;
	uint64_t stop_after;     /* ask to stop once this many seen (0 = never) */
	int fail_at_block;       /* return an error at this block (0 = never) */
};

static int counting_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct counting *c = sk->ctx;
	c->blocks++;
	if (b->first_index != c->next_index)
		c->in_order = 0;
	c->next_index += b->n;
	c->samples += b->n;
	for (size_t i = 0; i < b->n; i++)
		if (b->samples[i] >> b->bits)
			c->in_order = 0;
	if (c->fail_at_block && c->blocks == (uint64_t)c->fail_at_block)
		return err_set(e, ERR_IO, "sink failed on purpose");
	return c->stop_after && c->samples >= c->stop_after ? 1 : 0;
}

static int counting_finish(struct sink *sk, int interrupted, struct err *e)
{
	struct counting *c = sk->ctx;
	(void)e;
	c->finished++;
	c->finished_interrupted = interrupted;
	return 0;
}

static void counting_init(struct counting *c)
{
	memset(c, 0, sizeof *c);
	c->sink = (struct sink){ "counting", counting_push, counting_finish, c, 0 };
	c->in_order = 1;
}

static void test_exact_counts(void)
{
	for (unsigned k = 1; k <= 8; k++) {
		struct source *src;
		struct counting c;
		struct sink *sinks[1] = { &c.sink };
		struct engine_opts o = { .max_samples = 100003, .bits = k, .block_bytes = 777 };
		struct engine_stats st;
		struct err e;
		counting_init(&c);
		source_open(&src, "sim:ideal", &e);
		tap_ok(engine_run(src, &o, sinks, 1, &st, &e) == 0 && st.samples == 100003 &&
		       c.samples == 100003 && c.in_order && c.finished == 1,
		       "K=%u: exactly 100003 samples, in order, finish once", k);
		tap_ok(st.bytes <= (100003 * k + 7) / 8 + 8, "K=%u: reads only what it needs (%llu bytes)",
		       k, (unsigned long long)st.bytes);
		source_close(src);
	}
}

static void test_sink_stop_and_error(void)
{
	struct source *src;
	struct counting c;
	struct sink *sinks[1] = { &c.sink };
	struct engine_opts o = { .max_samples = 1000000, .bits = 8, .block_bytes = 1000 };
	struct engine_stats st;
	struct err e;

	counting_init(&c);
	c.stop_after = 5000;
	source_open(&src, "sim:ideal", &e);
	tap_ok(engine_run(src, &o, sinks, 1, &st, &e) == 0 && st.stopped_by_sink && st.samples == 5000,
	       "a sink's stop request ends the run cleanly after its block");
	source_close(src);

	counting_init(&c);
	c.fail_at_block = 3;
	source_open(&src, "sim:ideal", &e);
	tap_ok(engine_run(src, &o, sinks, 1, &st, &e) == ERR_IO && strstr(e.msg, "on purpose") &&
	       c.finished == 1, "a sink error is passed up and finish still runs");
	source_close(src);
}

static void test_stop_flag_and_eof(void)
{
	struct source *src;
	struct counting c;
	struct sink *sinks[1] = { &c.sink };
	volatile sig_atomic_t stop = 1;
	int rc;
	struct engine_opts o = { .max_samples = 0, .bits = 8, .stop = &stop };
	struct engine_stats st;
	struct err e;

	counting_init(&c);
	source_open(&src, "sim:ideal", &e);
	tap_ok(engine_run(src, &o, sinks, 1, &st, &e) == 0 && st.interrupted && c.finished_interrupted,
	       "the stop flag ends the run, marked interrupted");
	source_close(src);

	counting_init(&c);
	o.stop = NULL;
	o.max_samples = 1000;
	source_open(&src, "file:/dev/null", &e);
	rc = engine_run(src, &o, sinks, 1, &st, &e);
	if (!tap_ok(rc == 0 && st.eof && st.samples == 0,
	       "end of input ends the run"))
		printf("# rc %d eof %d samples %llu: %s\n", rc, st.eof, (unsigned long long)st.samples, e.msg);
	source_close(src);
	o.bits = 0;
	source_open(&src, "sim:ideal", &e);
	tap_ok(engine_run(src, &o, sinks, 1, &st, &e) == ERR_USAGE, "K=0 is refused");
	source_close(src);
}

static void test_membuf(void)
{
	struct source *src;
	struct membuf m;
	struct sink *sinks[1] = { &m.sink };
	struct engine_opts o = { .max_samples = 300000, .bits = 4 };
	struct engine_stats st;
	struct err e;
	membuf_init(&m, 0);
	source_open(&src, "sim:stuck,after=0,value=9,bits=4", &e);
	tap_ok(engine_run(src, &o, sinks, 1, &st, &e) == 0 && m.n == 300000 && m.data[0] == 9 &&
	       m.data[299999] == 9, "membuf keeps every sample");
	membuf_free(&m);
	source_close(src);
}

/* A sink that holds its last HOLDER_N blocks (struct sink.holds): at each
 * push it checks that the bytes of the blocks it holds are still the ones
 * it was given, so the engine filled none of them meanwhile. */
#define HOLDER_N 3

struct holder {
	struct sink sink;
	struct block held[HOLDER_N];
	uint64_t sum[HOLDER_N];
	uint64_t blocks;
	int intact;
};

static uint64_t holder_sum(const struct block *b)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < b->n; i++)
		h = (h ^ b->samples[i]) * 0x100000001b3ULL;
	for (size_t i = 0; i < b->raw_len; i++)
		h = (h ^ b->raw[i]) * 0x100000001b3ULL;
	return h;
}

static int holder_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct holder *h = sk->ctx;
	(void)e;
	for (uint64_t i = 0; i < HOLDER_N && i < h->blocks; i++)
		if (holder_sum(&h->held[i]) != h->sum[i])
			h->intact = 0;
	h->held[h->blocks % HOLDER_N] = *b;
	h->sum[h->blocks % HOLDER_N] = holder_sum(b);
	h->blocks++;
	return 0;
}

static void test_held_blocks_untouched(void)
{
	for (unsigned k = 1; k <= 8; k += 7) {
		struct source *src;
		struct holder h = { .sink = { "holder", holder_push, NULL, &h, HOLDER_N }, .intact = 1 };
		struct counting c;
		struct sink *sinks[2] = { &c.sink, &h.sink };
		struct engine_opts o = { .max_samples = 50000, .bits = k, .block_bytes = 500 };
		struct engine_stats st;
		struct err e;
		int rc;
		counting_init(&c);
		source_open(&src, "sim:ideal", &e);
		rc = engine_run(src, &o, sinks, 2, &st, &e);
		tap_ok(rc == 0 && c.samples == 50000 && c.in_order && h.blocks > HOLDER_N && h.intact,
		       "K=%u: a sink holding its last %d blocks finds them unchanged (%llu blocks)",
		       k, HOLDER_N, (unsigned long long)h.blocks);
		source_close(src);
	}
}

int main(void)
{
	test_exact_counts();
	test_sink_stop_and_error();
	test_stop_flag_and_eof();
	test_membuf();
	test_held_blocks_untouched();
	return tap_done();
}
