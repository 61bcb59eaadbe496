/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_spec.c - libFuzzer target: source specs (NAME, NAME:key=value,...,
 * file:PATH, sim:MODEL,key=value,...) as `--source` gives them.
 *
 * spec_parse() on the input, then the getters every backend uses and
 * spec_check_unused(); a sim: spec is also opened and read (sims are pure
 * computation; the other backends touch devices and files, so they are not
 * opened here).  The input is also split as audit's --source LIST
 * (spec_list_split()): the specs, joined by commas, are the list without
 * its empty pieces. */
#include "config.h"

#include "fuzz.h"

#include "sources/source.h"
#include "sources/spec.h"

/* The keys and ranges the backends ask for (x86rng.c, sim.c). */
static const struct {
	const char *key;
	unsigned long long min, max;
} u64_keys[] = {
	{ "width", 16, 64 },
	{ "seed", 0, ~0ULL },
	{ "bits", 1, 8 },
	{ "after", 0, ~0ULL },
	{ "value", 0, 255 },
};

static void check_getters(struct spec *sp)
{
	struct err e;
	int unused = spec_check_unused(sp, &e);

	/* Nothing asked for yet: every key is unused. */
	FUZZ_ASSERT((unused != 0) == (sp->nkeys > 0));
	FUZZ_ASSERT(sp->nkeys >= 0 && sp->nkeys <= SPEC_KEYS_MAX);
	FUZZ_ASSERT(sp->name[0] != '\0' && strlen(sp->name) < sizeof sp->name);
	for (size_t i = 0; i < sizeof u64_keys / sizeof u64_keys[0]; i++) {
		unsigned long long v = 0xdeadbeef;
		int present = spec_get(sp, u64_keys[i].key) != NULL;
		if (spec_get_u64(sp, u64_keys[i].key, u64_keys[i].min, u64_keys[i].max, &v, &e) == 0)
			FUZZ_ASSERT(!present || (v >= u64_keys[i].min && v <= u64_keys[i].max));
		else
			FUZZ_ASSERT(present && v == 0xdeadbeef && e.msg[0]);
	}
	{
		double p = -1;
		if (spec_get_prob(sp, "p", &p, &e) == 0)
			FUZZ_ASSERT(p == -1 || (p >= 0 && p <= 1));
	}
	/* Every key, once asked for, is used. */
	for (int i = 0; i < sp->nkeys; i++)
		FUZZ_ASSERT(spec_get(sp, sp->key[i]) == sp->value[i]);
	FUZZ_ASSERT(spec_check_unused(sp, &e) == 0);
}

static void check_list(const char *text)
{
	static char specs[16][SPEC_TEXT_MAX];
	char *joined, *want;
	size_t n = 0, used = 0, w = 0;
	struct err e;

	if (spec_list_split(text, specs, 16, &n, &e) != 0) {
		FUZZ_ASSERT(e.code == ERR_USAGE && e.msg[0] && !strchr(e.msg, '\n'));
		return;
	}
	FUZZ_ASSERT(n >= 1 && n <= 16);
	joined = malloc(n * SPEC_TEXT_MAX + 1);
	want = malloc(strlen(text) + 1);
	FUZZ_ASSERT(joined && want);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(specs[i]);
		FUZZ_ASSERT(len > 0 && len < SPEC_TEXT_MAX && specs[i][0] != ',');
		if (i)
			joined[used++] = ',';
		memcpy(joined + used, specs[i], len);
		used += len;
	}
	joined[used] = '\0';
	for (const char *p = text; *p; p++)   /* the list with empty pieces dropped */
		if (*p != ',' || (w > 0 && want[w - 1] != ','))
			want[w++] = *p;
	if (w > 0 && want[w - 1] == ',')
		w--;
	want[w] = '\0';
	FUZZ_ASSERT(strcmp(joined, want) == 0);
	free(joined);
	free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	struct spec sp;
	struct err e;

	if (!text)
		return 0;
	check_list(text);
	if (spec_parse(&sp, text, &e) == 0) {
		check_getters(&sp);
		if (strcmp(sp.name, "sim") == 0) {
			struct source *src;
			if (source_open(&src, text, &e) == 0) {
				uint8_t buf[64];
				const struct source_info *info = source_get_info(src);
				FUZZ_ASSERT(info->word_bits >= 8 && info->word_bits <= 64);
				FUZZ_ASSERT(source_read(src, buf, sizeof buf, &e) == (ssize_t)sizeof buf);
				source_close(src);
			}
		}
	} else {
		FUZZ_ASSERT(e.code == ERR_USAGE && e.msg[0]);
	}
	free(text);
	return 0;
}
