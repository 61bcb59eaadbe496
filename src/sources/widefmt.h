/* SPDX-License-Identifier: GPL-3.0-or-later */
/* widefmt.h - encodings of wide raw samples (up to 64 bits each) in files:
 *
 *   u8, u16le, u16be, u32le, u32be, u64le, u64be   fixed-width binary
 *   dec, hex                                      text, one integer a line
 *
 * Text lines may have blanks around the number and end in \n or \r\n; blank
 * lines are skipped; hex takes an optional 0x.  Anything else is an error
 * naming the input, the line and the character.  A binary input must be a
 * whole number of samples.  Pure functions over buffers (no I/O but
 * widefmt_read_file()), so that each can be fed arbitrary bytes by a fuzzer.
 */
#ifndef RNGAUDIT_WIDEFMT_H
#define RNGAUDIT_WIDEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum widefmt {
	WIDEFMT_U8,
	WIDEFMT_U16LE,
	WIDEFMT_U16BE,
	WIDEFMT_U32LE,
	WIDEFMT_U32BE,
	WIDEFMT_U64LE,
	WIDEFMT_U64BE,
	WIDEFMT_DEC,
	WIDEFMT_HEX,
};

/* "u8|u16le|u16be|u32le|u32be|u64le|u64be|dec|hex", for messages. */
#define WIDEFMT_NAMES "u8|u16le|u16be|u32le|u32be|u64le|u64be|dec|hex"

/* Parses a format name; an unknown one is a usage error listing the names. */
int widefmt_parse(const char *text, enum widefmt *f, struct err *e);
const char *widefmt_name(enum widefmt f);
/* Bytes per sample: 1, 2, 4 or 8; 0 for the text formats. */
unsigned widefmt_size(enum widefmt f);
/* Bits per sample value: 8, 16, 32 or 64 (64 for text). */
unsigned widefmt_width(enum widefmt f);

/* A decoder keeps what one call leaves unfinished (a partial sample or
 * number) for the next, so input may arrive in pieces of any size. */
struct widefmt_decoder {
	enum widefmt f;
	const char *name;      /* the input, for messages */
	uint64_t offset;       /* bytes consumed so far */
	uint8_t part[8];       /* binary: bytes of a sample not yet whole */
	unsigned npart;
	uint64_t line;         /* text: the current line, from 1 */
	uint64_t val;          /* text: the number so far */
	unsigned ndig;         /* text: its digits so far */
	int prefixed;          /* text: the number began with 0x */
	int state;             /* text: where in the line (see widefmt.c) */
};

void widefmt_decoder_init(struct widefmt_decoder *d, enum widefmt f, const char *name);

/* Most samples that len more bytes can complete (out must have room). */
size_t widefmt_max_out(const struct widefmt_decoder *d, size_t len);

/* Decodes len bytes, appending whole samples to out; *nout = how many. */
int widefmt_decode(struct widefmt_decoder *d, const uint8_t *in, size_t len,
		   uint64_t *out, size_t *nout, struct err *e);

/* At the end of the input: a text number without its newline is emitted
 * (out has room for 1); a partial binary sample or number is an error. */
int widefmt_finish(struct widefmt_decoder *d, uint64_t *out, size_t *nout, struct err *e);

/* Decodes a whole buffer into a malloc'd array (*n >= 1: no samples is an
 * error). */
int widefmt_decode_buffer(enum widefmt f, const uint8_t *buf, size_t len, const char *name,
			  uint64_t **out, size_t *n, struct err *e);

/* Reads and decodes a file ("-" = stdin) whole, up to max samples (0: no
 * cap); *more (may be NULL) is set when the input held more.  A FIFO or
 * device waits a bounded time for data (input.h). */
int widefmt_read_file(const char *path, enum widefmt f, size_t max, uint64_t **out, size_t *n,
		      int *more, struct err *e);

/* Encodes n samples (binary formats only; values wider than the format are
 * an error naming the first) into out, which holds n * widefmt_size(f). */
int widefmt_encode(enum widefmt f, const uint64_t *x, size_t n, uint8_t *out, struct err *e);

#endif
