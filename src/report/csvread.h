/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvread.h - reading an audit CSV (what report_csv_write() writes) back,
 * for the fleet merge.
 *
 * libcsv in strict mode; the header must be exactly report_csv_columns and
 * every row must have as many fields.  Each data row goes to a callback with
 * the file and line it started on.  Anything else (binary junk, a file with
 * no header, a quote out of place, a quoted field never closed, a NUL byte,
 * a row far longer than the audit writes) stops the read with one ERR_DATA
 * line naming FILE:LINE, with anything echoed from the input escaped
 * (err_escape()).  Never prints or exits.
 */
#ifndef RNGAUDIT_CSVREAD_H
#define RNGAUDIT_CSVREAD_H

#include <stddef.h>

#include "err.h"

/* Called once per data row.  field[i] is the value of report_csv_columns[i]
 * (NUL-terminated, no NUL inside), valid during the call only; file is the
 * file's name escaped for messages, line the line the row starts on.
 * Returns 0 to go on, or a negative ERR_* with e filled to stop the read. */
typedef int (*csvread_row_fn)(void *ctx, const char *const *field, const char *file,
			      unsigned long line, struct err *e);

/* Reads the CSV file at path.  Returns 0, the callback's error, or ERR_DATA
 * / ERR_IO / ERR_NOMEM (or err_code_from_errno() of fopen) naming path. */
int csvread_file(const char *path, csvread_row_fn fn, void *ctx, struct err *e);

/* The same for len bytes in memory; name stands for the file in messages. */
int csvread_buffer(const char *name, const void *data, size_t len, csvread_row_fn fn, void *ctx,
		   struct err *e);

#endif
