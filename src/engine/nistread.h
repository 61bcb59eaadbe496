/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nistread.h - a sample file read as NIST's SP800-90B tools read it
 * (shared/utils.h read_file_subset and read_file, commit 68ed165), for the
 * ea_* names that must fail where NIST's tools fail and say so in NIST's
 * words: the whole file (its SHA-256 is of every byte, as sha256_file()
 * hashes it), or with a block size the block [index*size, +size) cut at the
 * end of the file; the symbol width given, or inferred from the highest bit
 * in use (0 for data that is all zero, which NIST then rejects as one
 * symbol).  Nothing here prints: r->fail names the NIST message that
 * applies. */
#ifndef RNGAUDIT_NISTREAD_H
#define RNGAUDIT_NISTREAD_H
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "sha256.h"

enum nistread_fail {
	NISTREAD_OK,
	NISTREAD_OPEN,    /* "Error: could not open '%s'" (sha256 stays empty) */
	NISTREAD_SEEK,    /* "Error: fseek failed" (not seekable, block past LONG_MAX) */
	NISTREAD_EMPTY,   /* "Error: '%s' is empty" (file, or block at its end) */
	NISTREAD_NOMEM,   /* "Error: failure to initialize memory for symbols" */
	NISTREAD_READ,    /* "Error: file read failure" (short read, block past the end) */
	NISTREAD_WIDTH,   /* "Incorrect bit width specification: Data (%u) does not fit
			     within described bit width: %u." */
};

struct nistread {
	uint8_t *s;                 /* the samples read (the block, when one was asked) */
	size_t n;
	unsigned bits;              /* the width given, or inferred (0..8) */
	unsigned data_bits;         /* the highest bit in use (0 for all-zero data) */
	int narrower;               /* a width was given and the data uses fewer bits */
	char sha256[SHA256_HEX];    /* of the whole file; "" when it could not be read */
	enum nistread_fail fail;
};

/* Reads path as above: bits 0 infers the width; block_size 0 reads the
 * whole file (block_index is then ignored).  Returns 0, or ERR_IO / ERR_DATA /
 * ERR_NOMEM with r->fail set and e naming path; r->sha256 is set whenever
 * the file could be read whole. */
int nistread_file(const char *path, unsigned long block_index, unsigned long block_size,
		  unsigned bits, struct nistread *r, struct err *e);
void nistread_free(struct nistread *r);
#endif
