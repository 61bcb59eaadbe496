/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_quirks.c - libFuzzer target: the quirk table (data/quirks.txt, or
 * `audit --quirks FILE`), the whole input as the table's text.
 *
 * An accepted table is matched against a few CPUs: one taken from each line
 * (so that matches happen), one with an unknown microcode and one from
 * another vendor; every match must name a line of the table. */
#include "config.h"

#include "fuzz.h"

#include "audit/quirks.h"

static void check_match(const struct quirk_table *t, const struct quirk_cpu *cpu)
{
	static const char *const sources[] = { "rdrand", "rdseed" };
	static const unsigned widths[] = { 32, 64, 12 };
	struct quirk_match m[QUIRK_MATCH_MAX];

	for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++)
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
			size_t n = quirks_match(t, cpu, sources[s], widths[w], m, QUIRK_MATCH_MAX);
			FUZZ_ASSERT(n <= QUIRK_MATCH_MAX);
			for (size_t i = 0; i < n; i++)
				FUZZ_ASSERT(m[i].q >= t->q && m[i].q < t->q + t->n);
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct quirk_table t;
	struct err e;

	if (quirks_parse(&t, (const char *)data, size, "fuzz", &e) != 0) {
		FUZZ_ASSERT((e.code == ERR_DATA || e.code == ERR_NOMEM) && e.msg[0]);
		FUZZ_ASSERT(t.q == NULL && t.n == 0);
		return 0;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct quirk *q = &t.q[i];
		FUZZ_ASSERT(q->family.lo <= q->family.hi && q->model.lo <= q->model.hi &&
			    q->stepping.lo <= q->stepping.hi && q->microcode.lo <= q->microcode.hi);
		FUZZ_ASSERT(q->severity == QUIRK_INFO || q->severity == QUIRK_WARN || q->severity == QUIRK_FAIL);
		FUZZ_ASSERT(q->advisory[0] && q->line >= 1);
	}
	/* Matching costs lines^2 (each line looks back for its ID): CPUs from the
	 * first and the last line only, with the microcode known and unknown. */
	for (size_t k = 0; k < 2 && t.n > 0; k++) {
		const struct quirk *q = &t.q[k ? t.n - 1 : 0];
		struct quirk_cpu cpu = {
			.vendor = q->vendor, .family = (unsigned)q->family.lo, .model = (unsigned)q->model.hi,
			.stepping = (unsigned)q->stepping.lo, .microcode = q->microcode.hi,
			.microcode_known = 1,
		};
		check_match(&t, &cpu);
		cpu.microcode_known = 0;
		check_match(&t, &cpu);
	}
	{
		struct quirk_cpu other = { .vendor = NULL, .family = 0x17, .model = 0x31 };
		check_match(&t, &other);
	}
	quirks_free(&t);
	return 0;
}
