/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_translate.c - libFuzzer target: 90B 6.4 translation method strings
 * (`--method M` of translate, assess and iid) and the maps they make.
 *
 * The input up to the first newline is the method; the rest is the data,
 * read as 16-bit little-endian samples.  Properties: a refused method is one
 * ERR_USAGE line; an accepted one plans on any non-empty data, gives 1..8
 * bits and symbols below 2^bits, a one-line description, and is the same
 * map when planned again. */
#include "config.h"

#include "fuzz.h"

#include "engine/translate.h"

#define WIDTH 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t mlen = nl ? (size_t)(nl - data) : size, n;
	char *method = fuzz_strdup(data, mlen);
	struct translate_method m;
	struct translate_map map, again;
	uint64_t *x;
	uint8_t *sym;
	char line[256];
	struct err e;

	if (!method)
		return 0;
	if (translate_parse(method, &m, &e) != 0) {
		FUZZ_ASSERT(e.code == ERR_USAGE && e.msg[0] && !strchr(e.msg, '\n'));
		free(method);
		return 0;
	}
	free(method);
	data += nl ? mlen + 1 : mlen;
	size -= nl ? mlen + 1 : mlen;
	n = size / 2;
	x = malloc((n + 1) * sizeof *x);
	sym = malloc(n + 1);
	if (!x || !sym) {
		free(x);
		free(sym);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = (uint64_t)data[2 * i] | (uint64_t)data[2 * i + 1] << 8;
	if (translate_plan(&m, x, n, WIDTH, &map, &e) != 0) {
		FUZZ_ASSERT(n == 0 && e.code == ERR_DATA);
	} else {
		FUZZ_ASSERT(map.bits >= 1 && map.bits <= 8);
		translate_apply(&map, x, n, sym);
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(sym[i] >> map.bits == 0);
		translate_describe(&map, line, sizeof line);
		FUZZ_ASSERT(line[0] && !strchr(line, '\n'));
		FUZZ_ASSERT(translate_plan(&m, x, n, WIDTH, &again, &e) == 0 &&
			    memcmp(&map, &again, sizeof map) == 0);
	}
	free(x);
	free(sym);
	return 0;
}
