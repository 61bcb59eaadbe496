/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-health.c - the health tests' own speed, without I/O: health_push()
 * (RCT, APT) and proportion_push() over an in-memory buffer of random 8-bit
 * or 1-bit samples, pushed in 1 MiB blocks as the engine pushes them to the
 * monitor.  Built and run by scripts/bench-health.sh.
 * Usage: bench-health BITS MIB RUNS [TESTS]  -> prints the median samples/s;
 * TESTS "all" (default: RCT, APT and proportion, as `rngaudit health`
 * runs them), "rct-apt" or "prop". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "health/health.h"
#include "health/proportion.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(getenv("BENCH_CPU") ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned bits = argc > 1 ? (unsigned)atoi(argv[1]) : 8;
	size_t n = (argc > 2 ? (size_t)atol(argv[2]) : 256) << 20;
	int runs = argc > 3 ? atoi(argv[3]) : 5;
	const char *tests = argc > 4 ? argv[4] : "all";
	int rct_apt = strcmp(tests, "prop") != 0, prop = strcmp(tests, "rct-apt") != 0;
	uint8_t *s = malloc(n);
	double *t = calloc((size_t)runs, sizeof *t);
	uint64_t x = 0x9E3779B97F4A7C15ULL, fails = 0;

	if (!s || !t || bits < 1 || bits > 8 || runs < 1)
		return 2;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		s[i] = (uint8_t)((x >> 32) & ((1u << bits) - 1));
	}
	for (int r = 0; r < runs; r++) {
		struct health h;
		struct health_params p = { .bits = bits, .entropy = bits, .alpha = 0x1p-20 };
		struct proportion pr;
		struct err e;
		double t0;
		if (health_init(&h, &p, &e) ||
		    proportion_init(&pr, bits, bits, 0x1p-40, 0x1p-20, NULL, NULL, &e))
			return 2;
		t0 = now();
		for (size_t i = 0; i < n; i += 1 << 20) {
			size_t m = n - i < (1u << 20) ? n - i : 1u << 20;
			if (rct_apt)
				fails += health_push(&h, s + i, m);
			if (prop)
				fails += proportion_push(&pr, s + i, m);
		}
		t[r] = now() - t0;
	}
	qsort(t, (size_t)runs, sizeof *t, cmp);
	printf("%.4g\n", (double)n / t[runs / 2]);
	fprintf(stderr, "bench-health: %s, %u-bit, %zu samples, median %.4f s, %llu failures in all runs\n",
		tests, bits, n, t[runs / 2], (unsigned long long)fails);
	free(s);
	free(t);
	return 0;
}
