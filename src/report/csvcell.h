/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvcell.h - one text cell of the CSVs the tool writes, made safe for the
 * spreadsheets trust reports are opened in, and read back exactly.
 *
 * A spreadsheet runs a cell that starts with '=', '+', '-' or '@' as a
 * formula (=HYPERLINK(...), =cmd|' /C calc'!A0), and some strip a leading
 * TAB or CR first (OWASP, "CSV Injection").  A host name, a source spec or
 * a file name comes from outside, so a text cell starting with one of those
 * six characters is written with a leading apostrophe, OWASP's rule, which
 * spreadsheets show as text.  Numeric cells (-0.5, written bare by the
 * number writers) are never text cells and stay as they are.
 *
 * To read back exactly, a cell that already starts with apostrophes before
 * such a character gets one more: the written cell is '+ s exactly when s
 * matches ^'*[=+\-@\t\r], so csvcell_read() removes one apostrophe exactly
 * when the cell matches ^'+[=+\-@\t\r].  Merging a merged table's inputs
 * again never stacks prefixes.
 */
#ifndef RNGAUDIT_CSVCELL_H
#define RNGAUDIT_CSVCELL_H

#include <stddef.h>
#include <stdio.h>

/* The characters that start a formula, or that a spreadsheet strips
 * before looking for one. */
#define CSVCELL_TRIGGERS "=+-@\t\r"

/* 1 when s[0..len-1] is written with the apostrophe: ^'*[triggers]. */
int csvcell_needs_prefix(const char *s, size_t len);

/* Writes s[0..len-1] as one RFC 4180 text cell, always quoted (quotes
 * doubled), with the apostrophe when csvcell_needs_prefix().  Returns 0,
 * or EOF on a write error. */
int csvcell_write(FILE *fp, const char *s, size_t len);

/* The text a cell read back stands for: s, or s + 1 when s is a prefixed
 * cell (^'+[triggers]). */
const char *csvcell_read(const char *s);

#endif
