/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_ksysfs.c - libFuzzer target: one-value sysfs and procfs files
 * (rng_quality, current_quality, default_quality, rng_selected,
 * entropy_avail, rng_current, osrelease), the whole input as the file.
 *
 * An accepted number is within its maximum, a rejected one has a reason;
 * an accepted word is printable and fits its buffer; a release that parses
 * starts with the digits it reports. */
#include "config.h"

#include "fuzz.h"

#include "audit/kparse.h"
#include "audit/kversion.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned long maxima[] = { 0, 1, 1024, 1ul << 20, ~0ul };
	const char *buf = (const char *)data;
	char why[96], word[64];

	for (size_t i = 0; i < sizeof maxima / sizeof maxima[0]; i++) {
		unsigned long v = 12345;
		why[0] = '\0';
		if (kparse_uint(buf, size, maxima[i], &v, why, sizeof why) == 0)
			FUZZ_ASSERT(v <= maxima[i]);
		else
			FUZZ_ASSERT(why[0] && memchr(why, '\0', sizeof why));
	}
	why[0] = '\0';
	if (kparse_word(buf, size, word, sizeof word, why, sizeof why) == 0) {
		size_t n = strlen(word);
		FUZZ_ASSERT(n > 0 && n < sizeof word);
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(word[i] >= ' ' && word[i] <= '~');
	} else {
		FUZZ_ASSERT(why[0] && word[0] == '\0');
	}
	{
		/* a release string, and the same bytes as /proc/version: the
		 * sublevel comes only for the release's MAJOR.MINOR */
		struct kversion v;
		char from[64];
		if (kversion_from_release(buf, size, &v) == 0) {
			FUZZ_ASSERT(v.known && size > 0 && buf[0] >= '0' && buf[0] <= '9');
			FUZZ_ASSERT(v.sublevel >= -1);
			(void)kversion_sublevel_from(buf, size, &v, from, sizeof from);
			FUZZ_ASSERT(v.sublevel >= -1 && memchr(from, '\0', sizeof from));
		} else {
			FUZZ_ASSERT(!v.known);
		}
	}
	return 0;
}
