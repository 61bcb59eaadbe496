/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_nistread.c - a sample file read as NIST's read_file_subset reads it
 * (engine/nistread.c): which of NIST's messages each failure gets, the
 * width given or inferred (0 for all-zero data), the block cut at the end
 * of the file, and the SHA-256 of the whole file.  The expected failures
 * are NIST's tool's at commit 68ed165 on the same inputs
 * (tests/data/nist-68ed165/errors.txt). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/nistread.h"
#include "tap.h"

static char dir[] = "nistread-XXXXXX";   /* in the build directory */

static const char *write_file(const char *name, const void *data, size_t n)
{
	static char path[64];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, n, fp) != n || fclose(fp) != 0)
		tap_ok(0, "write %s", path);
	return path;
}

int main(void)
{
	static const uint8_t data[10] = { 1, 2, 3, 4, 5, 6, 7, 0, 1, 2 }, zeros[3] = { 0 };
	struct nistread r;
	struct err e;
	char sha[SHA256_HEX], path[64];
	const char *f;

	if (!mkdtemp(dir)) {
		tap_ok(0, "temp dir in the build directory");
		return tap_done();
	}
	f = write_file("d.bin", data, sizeof data);
	snprintf(path, sizeof path, "%s", f);
	sha256_hex(data, sizeof data, sha);

	tap_eq_long(nistread_file(path, 0, 0, 0, &r, &e), 0, "whole file reads");
	tap_eq_long((long long)r.n, 10, "whole file: 10 samples");
	tap_eq_long(r.bits, 3, "width inferred from the highest bit in use: 3");
	tap_eq_str(r.sha256, sha, "SHA-256 of the file");
	nistread_free(&r);

	tap_eq_long(nistread_file(path, 1, 4, 0, &r, &e), 0, "-l 1,4 reads");
	tap_ok(r.n == 4 && r.s[0] == 5 && r.s[3] == 0, "-l 1,4: samples 4..7 (5 6 7 0)");
	tap_eq_str(r.sha256, sha, "-l 1,4: the hash is still the whole file's");
	nistread_free(&r);
	tap_eq_long(nistread_file(path, 2, 4, 0, &r, &e), 0, "-l 2,4 reads the short last block");
	tap_eq_long((long long)r.n, 2, "-l 2,4: 2 samples");
	nistread_free(&r);
	nistread_file(path, 5, 2, 0, &r, &e);
	tap_eq_long(r.fail, NISTREAD_EMPTY, "-l 5,2 starts at the end: NIST's \"is empty\"");
	nistread_file(path, 5, 3, 0, &r, &e);
	tap_eq_long(r.fail, NISTREAD_READ, "-l 5,3 starts past the end: NIST's \"file read failure\"");
	nistread_file(path, (unsigned long)-1, 5, 0, &r, &e);
	tap_eq_long(r.fail, NISTREAD_SEEK, "-l -1,5 (index ULONG_MAX): NIST's \"fseek failed\"");

	tap_eq_long(nistread_file(path, 0, 0, 8, &r, &e), 0, "width 8 given: reads");
	tap_ok(r.narrower && r.bits == 8 && r.data_bits == 3, "width 8 given, 3 in use: narrower");
	nistread_free(&r);
	tap_ok(nistread_file(path, 0, 0, 2, &r, &e) != 0 && r.fail == NISTREAD_WIDTH &&
	       r.data_bits == 3 && r.bits == 2, "width 2 given, 3 in use: NIST's bit width error");

	f = write_file("zeros.bin", zeros, sizeof zeros);
	tap_eq_long(nistread_file(f, 0, 0, 0, &r, &e), 0, "all-zero data reads");
	tap_eq_long(r.bits, 0, "all-zero data: width 0, as NIST infers it");
	nistread_free(&r);

	f = write_file("empty.bin", "", 0);
	nistread_file(f, 0, 0, 0, &r, &e);
	tap_eq_long(r.fail, NISTREAD_EMPTY, "empty file: NIST's \"is empty\"");
	tap_eq_str(r.sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		   "empty file: its SHA-256 (FIPS 180-4 of no bytes)");
	unlink(f);

	snprintf(path, sizeof path, "%s/missing.bin", dir);
	nistread_file(path, 0, 0, 0, &r, &e);
	tap_ok(r.fail == NISTREAD_OPEN && r.sha256[0] == '\0', "missing file: NIST's \"could not open\", no hash");

	snprintf(path, sizeof path, "%s/d.bin", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/zeros.bin", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
