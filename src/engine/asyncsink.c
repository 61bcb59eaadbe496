/* SPDX-License-Identifier: GPL-3.0-or-later */
/* asyncsink.c - sinks on a worker thread, fed through a queue of the
 * engine's own blocks (no copies: the sink declares what it holds). */
#include "config.h"

#include "engine/asyncsink.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The worker, once idle, sleeps until this many blocks are queued, and the
 * engine, once the queue is full, until this many slots are free: on a VM a
 * wake-up costs ~15 us (a futex system call and a paravirtual interrupt
 * switch), a twentieth of the time RDRAND takes to fill 64 KiB, so waking
 * once a block was the largest cost beside RDRAND itself.  finish() wakes
 * the worker whatever is queued, so no block waits for a batch to fill. */
#define ASYNC_BATCH (ASYNCSINK_SLOTS / 2)

struct asyncsink {
	struct sink sink;
	struct sink **inner;
	size_t ninner;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t queued;        /* the worker waits here for blocks */
	pthread_cond_t room;          /* push() waits here for a free slot */
	struct block slot[ASYNCSINK_SLOTS];
	unsigned head, tail;          /* head: next to fill; tail: next to consume */
	int worker_idle;              /* the worker waits on queued */
	int pusher_waiting;           /* push() waits on room */
	int closing;
	int result;                   /* the first error, else 1 once an inner sink asked to stop */
	struct err err;
	int started;
};

static void *async_worker(void *arg)
{
	struct asyncsink *a = arg;
	pthread_mutex_lock(&a->lock);
	for (;;) {
		const struct block *b;
		int r, stopped = 0, skip;
		struct err e = { 0 };
		if (a->head == a->tail) {
			if (a->closing)
				break;
			a->worker_idle = 1;
			while (!a->closing && a->head - a->tail < ASYNC_BATCH)
				pthread_cond_wait(&a->queued, &a->lock);
			a->worker_idle = 0;
			continue;
		}
		b = &a->slot[a->tail % ASYNCSINK_SLOTS];
		skip = a->result < 0;   /* after an error, drain without pushing */
		pthread_mutex_unlock(&a->lock);
		r = skip ? 0 : sinks_push(a->inner, a->ninner, b, &stopped, &e);
		pthread_mutex_lock(&a->lock);
		if (r < 0 && a->result >= 0) {
			a->result = r;
			a->err = e;
		} else if (stopped && a->result == 0) {
			a->result = 1;
		}
		a->tail++;
		if (a->pusher_waiting && (ASYNCSINK_SLOTS - (a->head - a->tail) >= ASYNC_BATCH ||
					  a->result < 0))
			pthread_cond_signal(&a->room);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static int async_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct asyncsink *a = sk->ctx;
	int r;

	pthread_mutex_lock(&a->lock);
	while (a->head - a->tail == ASYNCSINK_SLOTS && a->result >= 0) {
		a->pusher_waiting = 1;
		pthread_cond_wait(&a->room, &a->lock);
		a->pusher_waiting = 0;
	}
	r = a->result;
	if (r < 0) {
		if (e)
			*e = a->err;
		pthread_mutex_unlock(&a->lock);
		return r;
	}
	/* The block struct only: its bytes stay where the engine put them,
	 * untouched while this sink holds them (sink.holds). */
	a->slot[a->head % ASYNCSINK_SLOTS] = *b;
	a->head++;
	if (a->worker_idle && a->head - a->tail >= ASYNC_BATCH)
		pthread_cond_signal(&a->queued);
	pthread_mutex_unlock(&a->lock);
	return r;
}

/* Stops the worker once it has fed every queued block to the inner sinks. */
static void async_join(struct asyncsink *a)
{
	if (!a->started)
		return;
	pthread_mutex_lock(&a->lock);
	a->closing = 1;
	pthread_cond_signal(&a->queued);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	a->started = 0;
}

static int async_finish(struct sink *sk, int interrupted, struct err *e)
{
	struct asyncsink *a = sk->ctx;
	int rc = 0;
	async_join(a);
	if (a->result < 0) {
		if (e)
			*e = a->err;
		rc = a->result;
	}
	/* every inner sink finishes, as the engine finishes its own; the first error wins */
	for (size_t i = 0; i < a->ninner; i++) {
		struct err fe;
		int r;
		if (!a->inner[i]->finish)
			continue;
		r = a->inner[i]->finish(a->inner[i], interrupted, &fe);
		if (r < 0 && !rc) {
			rc = r;
			if (e)
				*e = fe;
		}
	}
	return rc;
}

int asyncsink_new(struct asyncsink **out, struct sink *const *inner, size_t n, struct err *e)
{
	struct asyncsink *a = calloc(1, sizeof *a);
	unsigned held = 0;

	*out = NULL;
	if (!a || !(a->inner = calloc(n ? n : 1, sizeof *a->inner))) {
		free(a);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		a->inner[i] = inner[i];
		if (inner[i]->holds > held)
			held = inner[i]->holds;
	}
	a->ninner = n;
	/* what the worker has not finished, and what an inner sink still holds after it */
	a->sink = (struct sink){ n ? inner[0]->name : "async", async_push, async_finish, a,
				 ASYNCSINK_SLOTS + held };
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->queued, NULL);
	pthread_cond_init(&a->room, NULL);
	if (pthread_create(&a->thread, NULL, async_worker, a) != 0) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->queued);
		pthread_cond_destroy(&a->room);
		free(a->inner);
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
	async_join(a);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->queued);
	pthread_cond_destroy(&a->room);
	free(a->inner);
	free(a);
}
