/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay.c - runs a libFuzzer target's LLVMFuzzerTestOneInput() over files,
 * without libFuzzer: `make check` links it with each tests/fuzz/fuzz_*.c in
 * the normal build and replays the committed corpus and past crashes
 * (tests/fuzz_replay.sh); under `make check-asan` the sanitizers watch.
 *
 * usage: replay_TARGET FILE|DIR...  (a directory: every file in it, in name
 * order).  Prints how many inputs ran; exit 0, or 2 if an argument cannot
 * be read.  A defect shows as a crash or an abort of a property check. */
#include "config.h"

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

/* Reads a whole file into a buffer of exactly its size, so that the
 * sanitizers see any read past the input's end. */
static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!fp) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 4096);
			if (!nb) {
				free(buf);
				fclose(fp);
				fprintf(stderr, "replay: %s: out of memory\n", path);
				return -1;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	{
		uint8_t *exact = malloc(len ? len : 1);
		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int main(int argc, char **argv)
{
	unsigned long runs = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		struct dirent **names;
		int n;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]) != 0)
				return 2;
			runs++;
			continue;
		}
		n = scandir(argv[i], &names, visible, alphasort);
		if (n < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];
			int bad = (size_t)snprintf(path, sizeof path, "%s/%s", argv[i], names[j]->d_name) >=
				  sizeof path || run_file(path) != 0;
			free(names[j]);
			if (bad) {
				while (++j < n)
					free(names[j]);
				free(names);
				return 2;
			}
			runs++;
		}
		free(names);
	}
	printf("%lu\n", runs);
	return 0;
}
