/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textwrap.h - laying out the text reports within a width (issue 26 item 4):
 * the audit's table and sections, the sources list, the fleet table's notes.
 *
 * The width: COLUMNS when it is set to a number, else the terminal's
 * (TIOCGWINSZ) when the report goes to a terminal, else 80 columns.
 *
 * Three shapes, one rule: a word (a source spec, a path, a reason code) is
 * never cut or broken, so that what a reader copies from the report can be
 * pasted back (`--source SPEC`); lines are broken at spaces only.  A line is
 * longer than the width only when one word alone is longer than the room
 * left beside its indent, and then it holds that word alone.
 *
 *  - prose: textwrap_put() fills lines word by word, the first line after a
 *    given prefix, the next ones after a hanging indent;
 *  - items: textwrap_item() is "  label     text..." with the text wrapped
 *    under itself (the label on a line of its own below TEXTWRAP_NARROW);
 *  - tables: struct textwrap_table lays out rows of cells.  The first column
 *    is the row's name (a source spec): a name longer than its column goes
 *    on a line of its own, whole, and the row's cells follow on the next
 *    line under their headings.  The last column may be prose, wrapped
 *    under its heading.  When the columns do not fit (a width under
 *    TEXTWRAP_NARROW, or too little room for the name or the prose), each
 *    row becomes its name alone on a line, then "label value; ..." wrapped
 *    below it: every name still whole, one per line.
 *
 * Widths are counted in characters of UTF-8 text (a byte that is not a
 * continuation byte is one column), which is what termtext() leaves: the
 * caller escapes text from outside first (termtext.h) and hands it here.
 * Wide (East Asian) characters count as one column: the reports' own words
 * are ASCII.  Nothing here prints on its own account: it writes to the
 * stream it is given and returns 0, EOF on a write error or ERR_NOMEM.
 */
#ifndef RNGAUDIT_TEXTWRAP_H
#define RNGAUDIT_TEXTWRAP_H

#include <stddef.h>
#include <stdio.h>

/* The width when the report does not go to a terminal and COLUMNS is unset. */
#define TEXTWRAP_WIDTH_DEFAULT 80
/* Below this many columns a table or an item list gives each name a line of
 * its own (the narrow terminal). */
#define TEXTWRAP_NARROW 40
/* The least room a table leaves its name column and its prose column;
 * with less, the table is written one row a block instead. */
#define TEXTWRAP_NAME_MIN 10
#define TEXTWRAP_PROSE_MIN 20
/* Widths past this are taken as this (COLUMNS=100000 is not a layout). */
#define TEXTWRAP_WIDTH_MAX 1000

/* The width for a report written to fd: COLUMNS when it is a decimal
 * number from 1 to TEXTWRAP_WIDTH_MAX, else the terminal's when fd is one
 * and it says, else TEXTWRAP_WIDTH_DEFAULT. */
size_t textwrap_width(int fd);
/* The same decision from its inputs (columns: COLUMNS or NULL; tty_cols: the
 * terminal's width, 0 when fd is not a terminal or does not say). */
size_t textwrap_width_pick(const char *columns, size_t tty_cols);

/* Columns the UTF-8 text s takes (its characters). */
size_t textwrap_len(const char *s);

/* Writes text wrapped within width: first (a prefix: an indent, a label)
 * starts the first line, hang spaces start each further line.  Runs of
 * spaces inside a line are kept; a '\n' in text starts a new line (with
 * the hanging indent).  Ends with a newline.  Returns 0 or EOF. */
int textwrap_put(FILE *fp, size_t width, const char *first, size_t hang, const char *text);
/* The same for a formatted text; also ERR_NOMEM. */
int textwrap_printf(FILE *fp, size_t width, const char *first, size_t hang, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* "  label     text", the label padded to labelw columns after indent
 * spaces and the text wrapped under its own start.  Under TEXTWRAP_NARROW
 * columns the text starts right after the label and ": " and further lines
 * are indented by indent + 2. */
int textwrap_item(FILE *fp, size_t width, size_t indent, size_t labelw, const char *label, const char *text);

enum textwrap_align {
	TEXTWRAP_LEFT,
	TEXTWRAP_RIGHT,
	TEXTWRAP_PROSE,     /* the last column only: left, wrapped under its heading */
};

struct textwrap_col {
	const char *head;           /* the heading, e.g. "SAMPLES" */
	const char *label;          /* the word before the value when rows are blocks, e.g. "samples" */
	enum textwrap_align align;
};

#define TEXTWRAP_COLS_MAX 12

/* A table built row by row, then written whole (the widths are those of its
 * widest cells). */
struct textwrap_table {
	const struct textwrap_col *col;
	size_t ncols;               /* at most TEXTWRAP_COLS_MAX; column 0 is the name */
	char **cell;                /* nrows * ncols copies */
	size_t nrows, room;
};

/* ncols columns described by col (which must outlive the table). */
void textwrap_table_init(struct textwrap_table *t, const struct textwrap_col *col, size_t ncols);
/* Adds a row: ncols cells (NULL reads as ""), copied.  0 or ERR_NOMEM. */
int textwrap_table_add(struct textwrap_table *t, const char *const *cells);
/* Writes the heading and the rows within width.  0 or EOF or ERR_NOMEM. */
int textwrap_table_write(const struct textwrap_table *t, FILE *fp, size_t width);
void textwrap_table_free(struct textwrap_table *t);

#endif
