/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_samples.c - libFuzzer target: NIST sample files with their bits
 * argument, as `assess`, `iid` and `restart` take them (FILE [BITS]).
 *
 * The input's first line is the bits argument, the rest the file's bytes.
 * The bytes go to a memfd (no filesystem write) that samples_read_file_max()
 * opens by its /proc/self/fd path, capped at the value of the file's first
 * byte (as --max-samples caps it); then the range check, the bit width and
 * alphabet NIST's tool infers, and the slicing of bytes into K-bit samples
 * and back to bits, each against what it promises. */
#include "config.h"

#include "fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

#include "engine/samples.h"

static void check_samples(const uint8_t *s, size_t n, const char *bits_text)
{
	struct err e;
	unsigned bits = 0, inferred = samples_infer_bits(s, n), k, maxval = 0;
	uint8_t map[256];

	FUZZ_ASSERT(inferred >= 1 && inferred <= SAMPLES_BITS_MAX);
	FUZZ_ASSERT(samples_check_range(s, n, inferred, "fuzz", &e) == 0);
	if (inferred > 1)
		FUZZ_ASSERT(samples_check_range(s, n, inferred - 1, "fuzz", &e) == ERR_DATA);
	if (samples_parse_bits(bits_text, &bits, &e) == 0) {
		FUZZ_ASSERT(bits >= 1 && bits <= SAMPLES_BITS_MAX);
		FUZZ_ASSERT((samples_check_range(s, n, bits, "fuzz", &e) == 0) == (inferred <= bits));
	} else {
		FUZZ_ASSERT(e.code == ERR_USAGE && e.msg[0]);
	}

	memset(map, 0xff, sizeof map);
	k = samples_alphabet(s, n, map, &maxval);
	FUZZ_ASSERT(k >= 1 && k <= maxval + 1 && maxval <= 255);
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(s[i] <= maxval && map[s[i]] < k);

	/* The samples as 90B's bitstring estimators see them. */
	{
		uint8_t *b = malloc(n * inferred);
		if (b) {
			samples_to_bits(s, n, inferred, b);
			for (size_t i = 0; i < n; i++) {
				unsigned v = 0;
				for (unsigned j = 0; j < inferred; j++) {
					FUZZ_ASSERT(b[i * inferred + j] <= 1);
					v = v << 1 | b[i * inferred + j];
				}
				FUZZ_ASSERT(v == s[i]);
			}
			free(b);
		}
	}
}

/* The file's bytes as a source stream sliced into K-bit samples. */
static void check_symbolize(const uint8_t *in, size_t len)
{
	for (unsigned bits = 1; bits <= SAMPLES_BITS_MAX; bits++) {
		struct symbolizer sy;
		uint8_t *out;
		size_t half = len / 2, got;
		samples_symbolizer_init(&sy, bits);
		out = malloc(samples_max_out(&sy, len) + 1);
		if (!out)
			return;
		/* In two blocks: the bits left over carry across. */
		got = samples_symbolize(&sy, in, half, out);
		got += samples_symbolize(&sy, in + half, len - half, out + got);
		FUZZ_ASSERT(got == len * 8 / bits);
		for (size_t i = 0; i < got; i++)
			FUZZ_ASSERT(out[i] < (1u << bits));
		free(out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t blen = nl ? (size_t)(nl - data) : size;
	char *bits_text = fuzz_strdup(data, blen), path[64];
	const uint8_t *body = nl ? nl + 1 : data + size;
	size_t len = size - (size_t)(body - data), n = 0, max;
	uint8_t *s = NULL;
	struct err e;
	int fd, more = -1;

	if (!bits_text)
		return 0;
	fd = memfd_create("fuzz_samples", MFD_CLOEXEC);
	if (fd < 0 || (len && write(fd, body, len) != (ssize_t)len)) {
		if (fd >= 0)
			close(fd);
		free(bits_text);
		return 0;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	/* An empty file costs the reader a 1 MiB buffer (it cannot know the
	 * size): read it for the empty input only, not for every "BITS\n". */
	if (len == 0 && size > 0) {
		check_symbolize(body, len);
		close(fd);
		free(bits_text);
		return 0;
	}
	/* The cap (--max-samples) is the file's first byte, 0 = none. */
	max = len ? body[0] : 0;
	if (samples_read_file_max(path, max, &s, &n, &more, &e) == 0) {
		size_t want = max && len > max ? max : len;
		FUZZ_ASSERT(n == want && memcmp(s, body, n) == 0 && more == (want < len));
		check_samples(s, n, bits_text);
		free(s);
	} else {
		FUZZ_ASSERT(len == 0 && e.code == ERR_DATA && e.msg[0]);
	}
	check_symbolize(body, len);
	close(fd);
	free(bits_text);
	return 0;
}
