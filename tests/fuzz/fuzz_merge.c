/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_merge.c - libFuzzer target: audit CSVs as `report merge` reads them
 * (report_merge_add_buffer(), the path the command takes for a file).
 *
 * The input is one CSV.  What the merge promises is checked: a refused
 * input gets one ERR_DATA (or ERR_NOMEM) line with no control character in
 * it (text from the input is escaped), the merge stays usable after it, and
 * an accepted input given twice merges to exactly the same output as given
 * once (rows are kept once by host, timestamp and source). */
#include "config.h"

#include "fuzz.h"

#include "report/report.h"

/* The merged CSV of the input added `times` times, in a malloc'd string
 * (*len bytes); returns the first add's code. */
static int merge_times(const uint8_t *data, size_t size, int times, char **out, size_t *len)
{
	struct merge *m;
	struct err e;
	FILE *fp;
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (report_merge_create(&m, &e) != 0)
		return ERR_NOMEM;
	for (int i = 0; i < times; i++) {
		int r = report_merge_add_buffer(m, "fuzz.csv", data, size, &e);
		if (i == 0)
			rc = r;
		if (r != 0) {
			FUZZ_ASSERT((r == ERR_DATA || r == ERR_NOMEM) && e.code == r && e.msg[0]);
			for (const char *p = e.msg; *p; p++)
				FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
		}
	}
	/* Usable after an error too (the command would write nothing). */
	fp = open_memstream(out, len);
	if (fp) {
		FUZZ_ASSERT(report_merge_print(m, fp, &e) == 0);
		fclose(fp);
	}
	report_merge_free(m);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *once, *twice;
	size_t nonce, ntwice;

	if (merge_times(data, size, 1, &once, &nonce) == 0) {
		merge_times(data, size, 2, &twice, &ntwice);
		FUZZ_ASSERT(once && twice);
		FUZZ_ASSERT(nonce == ntwice && memcmp(once, twice, nonce) == 0);
		FUZZ_ASSERT(strncmp(once, "cpu_vendor,", 11) == 0);
		free(twice);
	}
	free(once);
	return 0;
}
