/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_bigmem.c - bigmem: zeroed buffers on either side of the huge-page
 * threshold, growth that keeps the contents and zeroes the new tail, the
 * alignment that lets the kernel use huge pages at all, and freed mappings
 * reused zeroed, by one thread or two at once. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "tap.h"

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static int pattern_ok(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 7 + 1))
			return 0;
	return 1;
}

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 1);
}

/* Two threads at once: buffers of sizes around the cache's, filled, freed
 * and taken again; each must come back zeroed.  Returns the failures. */
static void *churn(void *arg)
{
	uint64_t x = (uintptr_t)arg * 0x9e3779b97f4a7c15u + 1;
	size_t bad = 0;

	for (int it = 0; it < 200; it++) {
		size_t n;
		unsigned char *p;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = BIGMEM_MAP_MIN + (size_t)(x % (3 * BIGMEM_HUGE));
		p = bigmem_calloc(n, 1);
		if (!p || !all_zero(p, n)) {
			bad++;
			bigmem_free(p);
			continue;
		}
		fill(p, n);
		bigmem_free(p);
	}
	return (void *)(uintptr_t)bad;
}

static void test_reuse(void)
{
	const size_t n = 3 * BIGMEM_MAP_MIN + 777;
	unsigned char *p = bigmem_calloc(n, 1), *q, *r;
	pthread_t t[2];
	size_t bad = 0;

	if (!p) {
		tap_ok(0, "reuse: %zu bytes allocated", n);
		return;
	}
	fill(p, n);
	bigmem_free(p);
	q = bigmem_calloc(n - 1000, 1);
	tap_ok(q && all_zero(q, n - 1000), "a freed buffer's memory comes back zeroed");
	fill(q, n - 1000);
	r = q ? bigmem_realloc(q, 2 * n, 1) : NULL;
	tap_ok(r && pattern_ok(r, n - 1000) && all_zero(r + n - 1000, n + 1000),
	       "a reused buffer grown: contents kept, the old user's bytes past them zeroed");
	bigmem_free(r ? r : q);
	p = bigmem_calloc(BIGMEM_HUGE * 3, 1);
	if (p)
		fill(p, BIGMEM_HUGE * 3);
	bigmem_free(p);
	q = bigmem_calloc(BIGMEM_MAP_MIN, 1);
	tap_ok(q && q != p && all_zero(q, BIGMEM_MAP_MIN),
	       "a small request does not take a freed buffer of more than twice its size");
	bigmem_free(q);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)(i + 1)) != 0)
			bad++;
	for (int i = 0; i < 2; i++) {
		void *v;

		if (pthread_join(t[i], &v) == 0)
			bad += (size_t)(uintptr_t)v;
	}
	tap_ok(bad == 0, "two threads taking and freeing 400 buffers: each zeroed (%zu not)", bad);
}

/* bigmem_malloc: a buffer for free() and realloc(), on huge pages from
 * BIGMEM_ONE_MIN (the 2 MiB boundary shows it), every byte writable. */
static void test_malloc(void)
{
	const size_t sizes[] = { 0, 1, BIGMEM_ONE_MIN - 1, BIGMEM_ONE_MIN, 1000001,
				 BIGMEM_HUGE + 1, BIGMEM_HUGE + BIGMEM_ONE_MIN, 3 * BIGMEM_HUGE + 12345 };

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		const size_t n = sizes[i];
		unsigned char *p = bigmem_malloc(n), *q;

		tap_ok(p != NULL, "bigmem_malloc(%zu): a buffer", n);
		if (!p)
			continue;
		fill(p, n);
		tap_ok(pattern_ok(p, n), "bigmem_malloc(%zu): every byte holds what was written", n);
		if (n >= BIGMEM_ONE_MIN)
			tap_ok(((uintptr_t)p & (BIGMEM_HUGE - 1)) == 0,
			       "bigmem_malloc(%zu): the data starts on a 2 MiB boundary", n);
		/* realloc() takes it, as the sample reader grows it */
		q = realloc(p, 2 * n + 100);
		tap_ok(q && pattern_ok(q, n), "bigmem_malloc(%zu) grown by realloc: contents kept", n);
		free(q ? q : p);
	}
	tap_ok(bigmem_malloc(SIZE_MAX - BIGMEM_HUGE) == NULL && bigmem_malloc(SIZE_MAX - 100) == NULL,
	       "bigmem_malloc of nearly SIZE_MAX (rounding up would wrap): NULL");
}

int main(void)
{
	/* below the mapping threshold (calloc), at it (a prefaulted mapping of
	 * small pages), at the huge-page one, and well past it (several huge
	 * pages, and a size that is not a multiple of anything) */
	const size_t sizes[] = { 1, 4095, BIGMEM_MAP_MIN - 1, BIGMEM_MAP_MIN, BIGMEM_MAP_MIN + 1,
				 BIGMEM_MIN - 1, BIGMEM_MIN, BIGMEM_HUGE + 1, 3 * BIGMEM_HUGE + 12345 };
	unsigned char *p, *q;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t n = sizes[i];

		p = bigmem_calloc(n, 1);
		tap_ok(p && all_zero(p, n), "%zu bytes: allocated and zeroed", n);
		if (!p)
			continue;
		fill(p, n);   /* every byte writable */
		tap_ok(pattern_ok(p, n), "%zu bytes: every byte holds what was written", n);
		if (n >= BIGMEM_MIN)
			tap_ok(((uintptr_t)p & (BIGMEM_HUGE - 1)) == 0,
			       "%zu bytes: the data starts on a 2 MiB boundary", n);
		/* grow across the threshold: contents kept, the tail zero */
		q = bigmem_realloc(p, 2 * n + BIGMEM_HUGE, 1);
		tap_ok(q && pattern_ok(q, n) && all_zero(q + n, n + BIGMEM_HUGE),
		       "%zu bytes grown to %zu: contents kept, new tail zeroed", n, 2 * n + BIGMEM_HUGE);
		if (!q) {
			bigmem_free(p);
			continue;
		}
		/* shrink, then grow again: what was cut comes back as zeros */
		p = bigmem_realloc(q, n / 2 + 1, 1);
		tap_ok(p && pattern_ok(p, n / 2 + 1), "%zu bytes shrunk to %zu: contents kept", n,
		       n / 2 + 1);
		q = p ? bigmem_realloc(p, n, 1) : NULL;
		tap_ok(q && pattern_ok(q, n / 2 + 1) && all_zero(q + n / 2 + 1, n - n / 2 - 1),
		       "shrunk then grown back to %zu: the cut part reads as zeros", n);
		bigmem_free(q ? q : p);
	}
	tap_ok(bigmem_calloc(SIZE_MAX / 2, 4) == NULL, "a size that overflows: NULL");
	p = bigmem_calloc(16, 1);
	tap_ok(p && bigmem_realloc(p, SIZE_MAX / 2, 4) == NULL && p[0] == 0,
	       "an overflowing growth: NULL, the old buffer untouched");
	bigmem_free(p);
	p = bigmem_realloc(NULL, 100, 8);
	tap_ok(p && all_zero(p, 800), "realloc of NULL allocates, zeroed");
	bigmem_free(p);
	bigmem_free(NULL);
	/* prefaulting a malloc'd buffer (unaligned ends) changes nothing in it */
	{
		size_t n = 3 * BIGMEM_MAP_MIN + 123;
		unsigned char *m = malloc(n);

		if (m) {
			fill(m, n);
			bigmem_prefault(m + 1, n - 1);
			bigmem_prefault(m, 10);
			tap_ok(pattern_ok(m, n), "prefaulting %zu malloc'd bytes keeps them", n);
			free(m);
		}
	}
	tap_ok(1, "bigmem_free(NULL) does nothing");
	test_malloc();
	test_reuse();
	return tap_done();
}
