/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz.h - what the libFuzzer targets (tests/fuzz/fuzz_*.c) share.
 *
 * Each target defines LLVMFuzzerTestOneInput(), feeds the input to one
 * parser of the library and checks cheap properties of what it accepts.  A
 * target never prints (except when a property fails), never exits and never
 * writes to the filesystem (one exception: fuzz_bundle builds the bundle it
 * reads in a private directory of its own, removed at exit).  `make fuzz` links each one with libFuzzer
 * (clang -fsanitize=fuzzer,address,undefined); the normal build links each
 * one with tests/fuzz/replay.c, which `make check` runs over the committed
 * corpus and past crashes.
 */
#ifndef RNGAUDIT_FUZZ_H
#define RNGAUDIT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property of an accepted input does not hold: say which and abort, so
 * that libFuzzer keeps the input as a crash and the replay fails. */
#define FUZZ_ASSERT(cond) do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

/* The parsers take C strings: a NUL-terminated copy of the input (an
 * embedded NUL simply ends the string early).  NULL if out of memory. */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
