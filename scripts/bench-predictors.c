/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-predictors.c - times the four SP 800-90B prediction estimators
 * (6.3.7-6.3.10) on one NIST-format file, on the literal samples (after
 * NIST's symbol translation) and on the bitstring, as ea_non_iid -a runs
 * them.  Prints one line per run: "<domain> <estimator> <median s> <C>".
 * Usage: bench-predictors FILE [RUNS]   (built by scripts/bench-predictors.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "estimators/estimators.h"
#include "engine/samples.h"

typedef int (*pred_fn)(const uint8_t *, size_t, unsigned, struct est_result *, struct err *);

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void bench(const char *domain, pred_fn fn, const uint8_t *s, size_t n, unsigned k, int runs)
{
	double t[64];
	struct est_result r;
	struct err e;
	for (int i = 0; i < runs; i++) {
		double t0 = now();
		if (fn(s, n, k, &r, &e) < 0) {
			fprintf(stderr, "bench-predictors: %s\n", e.msg);
			exit(2);
		}
		t[i] = now() - t0;
	}
	qsort(t, (size_t)runs, sizeof t[0], cmp_double);
	printf("%-9s %-20s %.4f s  C=%lld\n", domain, r.name,
	       runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2,
	       r.applicable ? r.detail[0].i : -1);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const pred_fn fns[4] = { est_multimcw, est_lag, est_multimmc, est_lz78y };
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	uint8_t map[256];
	unsigned w, k, maxs;
	uint8_t *s, *lit, *bits;
	size_t n, nb;
	long len;
	FILE *f;

	if (argc < 2 || runs < 1 || runs > 64) {
		fprintf(stderr, "usage: bench-predictors FILE [RUNS]\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0) {
		fprintf(stderr, "bench-predictors: cannot read %s\n", argv[1]);
		return 2;
	}
	rewind(f);
	n = (size_t)len;
	s = malloc(n);
	lit = malloc(n);
	if (!s || !lit || fread(s, 1, n, f) != n) {
		fprintf(stderr, "bench-predictors: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);
	/* NIST's read_file(): width from the highest bit in use, translation
	 * to 0..k-1 when fewer than max+1 values occur, bitstring MSB first */
	w = samples_infer_bits(s, n);
	k = samples_alphabet(s, n, map, &maxs);
	for (size_t i = 0; i < n; i++)
		lit[i] = k < maxs + 1 ? map[s[i]] : s[i];
	if (k < 2)
		k = 2;
	nb = n * w;
	bits = malloc(nb);
	if (!bits)
		return 2;
	samples_to_bits(s, n, w, bits);
	printf("# %s: %zu samples of %u bits, %u symbols; %d runs each\n", argv[1], n, w, k, runs);
	for (int p = 0; p < 4; p++) {
		bench("literal", fns[p], lit, n, k, runs);
		if (w > 1)
			bench("bitstring", fns[p], bits, nb, 2, runs);
	}
	free(bits);
	free(lit);
	free(s);
	return 0;
}
