/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_bigmem.c - bigmem: zeroed buffers on either side of the huge-page
 * threshold, growth that keeps the contents and zeroes the new tail, and
 * the alignment that lets the kernel use huge pages at all. */
#include "config.h"

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
	return tap_done();
}
