/* SPDX-License-Identifier: GPL-3.0-or-later */
/* termtext.h - text from outside, made safe for a terminal, for every
 * report written to stdout (the audit's table, the fleet table, the
 * sources list, the summaries of health, translate, collect, and NIST's
 * outputs) as err_escape() makes it safe for an error line.
 *
 * A name read from a file, a spec or a bundle (a host name, a CPU vendor,
 * a file name, a kernel release) may hold C0 controls (ESC starts a
 * terminal's control sequences), DEL, C1 controls (U+0080..U+009F: U+009B
 * is CSI on terminals that obey 8-bit controls), bytes that are not UTF-8,
 * or a newline that would break a table's row in two.  Each of those is
 * written as an escape (\n, \t, \r, \xHH; a backslash as \\), one rule
 * with err_escape() (err_escape_char()), so the text stays on its line and
 * cannot drive the terminal.  Text that needs none of it is unchanged.
 *
 *   fprintf(fp, "%-26.26s %s\n", termtext(s->info.spec), termtext(r->sys.hostname));
 */
#ifndef RNGAUDIT_TERMTEXT_H
#define RNGAUDIT_TERMTEXT_H

#include <stddef.h>
#include <stdio.h>

/* Bytes of one escaped text at most (a longer one ends in "..."). */
#define TERMTEXT_MAX 2048
/* How many texts one thread may hold at once: a printf with more string
 * arguments than this must call termtext_put() instead. */
#define TERMTEXT_RING 16

/* s (NULL reads as "") escaped, in one of TERMTEXT_RING buffers of the
 * calling thread: valid until TERMTEXT_RING more calls in that thread. */
const char *termtext(const char *s);
/* The same for the first len bytes of s (which need not end in a NUL; a
 * NUL among them ends the text; at most TERMTEXT_MAX - 1 of them). */
const char *termtext_mem(const char *s, size_t len);
/* s escaped and cut to at most width bytes at a whole character or escape
 * (for a fixed-width column: "%-26s" of it never splits a character). */
const char *termtext_cut(const char *s, size_t width);

/* Writes s escaped to fp, however long; returns 0 or EOF. */
int termtext_put(FILE *fp, const char *s);
/* The same for a line whose parts from outside were escaped already (an
 * error message built with err_escape()): backslashes stay as they are. */
int termtext_put_line(FILE *fp, const char *s);

#endif
