/* SPDX-License-Identifier: GPL-3.0-or-later */
/* baseline-rng.c - the plain loops `collect` is measured against:
 *   baseline-rng rdrand BYTES   RDRAND64 into a 64 KiB buffer, written to stdout
 *   baseline-rng getrandom BYTES getrandom(2) 64 KiB at a time, written to stdout
 * Built and run by scripts/bench-collect.sh; not part of the tool. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

__attribute__((target("rdrnd"))) static void fill_rdrand(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		unsigned long long x;
		while (!_rdrand64_step(&x))
			;
		memcpy(buf + i, &x, 8);
	}
}

int main(int argc, char **argv)
{
	static uint8_t buf[65536];
	unsigned long long total, done = 0;
	if (argc != 3)
		return 2;
	total = strtoull(argv[2], NULL, 10);
	while (done < total) {
		size_t len = total - done < sizeof buf ? (size_t)(total - done) : sizeof buf;
		if (strcmp(argv[1], "rdrand") == 0)
			fill_rdrand(buf, len);
		else if (getrandom(buf, len, 0) != (ssize_t)len)
			return 1;
		if (write(1, buf, len) != (ssize_t)len)
			return 1;
		done += len;
	}
	return 0;
}
