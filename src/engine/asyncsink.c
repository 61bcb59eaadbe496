/* SPDX-License-Identifier: GPL-3.0-or-later */
/* asyncsink.c - a sink on a worker thread, fed through a ring of block copies. */
#include "config.h"

#include "engine/asyncsink.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define ASYNC_SLOTS 4

struct slot {
	struct block b;
	uint8_t *raw, *samples;
	size_t raw_cap, samples_cap;
};

struct asyncsink {
	struct sink sink;
	struct sink *inner;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct slot slot[ASYNC_SLOTS];
	unsigned head, tail;          /* head: next to fill; tail: next to consume */
	int closing;
	int result;                   /* first non-zero inner push result */
	struct err err;
	int started;
};

static int slot_reserve(uint8_t **buf, size_t *cap, size_t len)
{
	if (len <= *cap)
		return 0;
	free(*buf);
	*buf = malloc(len ? len : 1);
	*cap = *buf ? len : 0;
	return *buf ? 0 : -1;
}

static void *async_worker(void *arg)
{
	struct asyncsink *a = arg;
	pthread_mutex_lock(&a->lock);
	for (;;) {
		struct slot *s;
		int r, skip;
		struct err e = { 0 };
		while (a->head == a->tail && !a->closing)
			pthread_cond_wait(&a->changed, &a->lock);
		if (a->head == a->tail)
			break;
		s = &a->slot[a->tail % ASYNC_SLOTS];
		skip = a->result < 0;   /* after an error, drain without pushing */
		pthread_mutex_unlock(&a->lock);
		r = skip ? 0 : a->inner->push(a->inner, &s->b, &e);
		pthread_mutex_lock(&a->lock);
		if (r != 0 && a->result == 0) {
			a->result = r;
			a->err = e;
		}
		a->tail++;
		pthread_cond_broadcast(&a->changed);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static int async_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct asyncsink *a = sk->ctx;
	struct slot *s;
	int r;

	pthread_mutex_lock(&a->lock);
	while (a->head - a->tail == ASYNC_SLOTS)
		pthread_cond_wait(&a->changed, &a->lock);
	r = a->result;
	if (r < 0 && e)
		*e = a->err;
	pthread_mutex_unlock(&a->lock);
	if (r < 0)
		return r;
	/* Only this thread touches slot head until head is advanced. */
	s = &a->slot[a->head % ASYNC_SLOTS];
	if (slot_reserve(&s->raw, &s->raw_cap, b->raw_len))
		return err_set(e, ERR_NOMEM, "out of memory for a block copy");
	memcpy(s->raw, b->raw, b->raw_len);
	s->b = *b;
	s->b.raw = s->raw;
	if (b->samples == b->raw) {   /* K = 8: the samples are the bytes; one copy */
		s->b.samples = s->raw;
	} else {
		if (slot_reserve(&s->samples, &s->samples_cap, b->n))
			return err_set(e, ERR_NOMEM, "out of memory for a block copy");
		memcpy(s->samples, b->samples, b->n);
		s->b.samples = s->samples;
	}
	pthread_mutex_lock(&a->lock);
	a->head++;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	return r > 0 ? r : 0;
}

static int async_finish(struct sink *sk, int interrupted, struct err *e)
{
	struct asyncsink *a = sk->ctx;
	int r;
	pthread_mutex_lock(&a->lock);
	a->closing = 1;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	if (a->started) {
		pthread_join(a->thread, NULL);
		a->started = 0;
	}
	if (a->result < 0) {
		if (e)
			*e = a->err;
		return a->result;
	}
	r = a->inner->finish ? a->inner->finish(a->inner, interrupted, e) : 0;
	return r;
}

int asyncsink_new(struct asyncsink **out, struct sink *inner, struct err *e)
{
	struct asyncsink *a = calloc(1, sizeof *a);
	*out = NULL;
	if (!a)
		return err_set(e, ERR_NOMEM, "out of memory");
	a->inner = inner;
	a->sink = (struct sink){ inner->name, async_push, async_finish, a };
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->changed, NULL);
	if (pthread_create(&a->thread, NULL, async_worker, a) != 0) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->changed);
		free(a);
		return err_set(e, ERR_INTERNAL, "cannot start a worker thread");
	}
	a->started = 1;
	*out = a;
	return 0;
}

struct sink *asyncsink_sink(struct asyncsink *a)
{
	return &a->sink;
}

void asyncsink_free(struct asyncsink *a)
{
	if (!a)
		return;
	if (a->started) {
		pthread_mutex_lock(&a->lock);
		a->closing = 1;
		pthread_cond_broadcast(&a->changed);
		pthread_mutex_unlock(&a->lock);
		pthread_join(a->thread, NULL);
	}
	for (int i = 0; i < ASYNC_SLOTS; i++) {
		free(a->slot[i].raw);
		free(a->slot[i].samples);
	}
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->changed);
	free(a);
}
