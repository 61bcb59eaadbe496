/* SPDX-License-Identifier: GPL-3.0-or-later */
/* err.h - the one error type that library code passes up.
 *
 * Library functions return 0 on success or a negative ERR_* code, and fill a
 * struct err with a one-line message naming the input and the problem.  They
 * never print or exit: only src/cli/ turns an error into a message and an
 * exit status (see err_exit_status()).
 */
#ifndef RNGAUDIT_ERR_H
#define RNGAUDIT_ERR_H

#include <stddef.h>

enum err_code {
	ERR_OK = 0,
	ERR_USAGE = -1,       /* bad option or argument value */
	ERR_DATA = -2,        /* malformed input data (sample >= 2^K, empty file, bad CSV) */
	ERR_IO = -3,          /* read/write failure */
	ERR_NOMEM = -4,       /* allocation failed */
	ERR_UNAVAILABLE = -5, /* source/device/instruction absent */
	ERR_PERM = -6,        /* permission denied */
	ERR_INTERRUPTED = -7, /* stopped by a signal */
	ERR_SOURCE = -8,      /* the source itself failed (retries exhausted, unplugged) */
	ERR_INTERNAL = -9,    /* a numerical or internal failure */
};

#define ERR_MSG_MAX 512

struct err {
	int code;               /* an enum err_code */
	char msg[ERR_MSG_MAX];  /* one line, no trailing newline */
};

/* Records code and a printf-style message in e (if e is not NULL); returns code. */
int err_set(struct err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like err_set() but appends ": strerror(errnum)". */
int err_set_errno(struct err *e, int code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Maps an errno value to the closest err_code. */
int err_code_from_errno(int errnum);

/* err_escape: text taken from input (CSV fields, header names, file
 * names, arguments), made safe to put in a one-line message.  Copies s into
 * dst (size dstlen, always NUL-terminated) with control characters written
 * as C escapes ("\n", "\r", "\t", "\x1b", "\x7f"), a backslash as "\\",
 * and every byte >= 0x80 that is not part of well-formed UTF-8 (or is a C1
 * control, U+0080..U+009F, which some terminals obey) as "\xHH": a message
 * stays one line and cannot move the cursor or recolour a terminal.  Output
 * that does not fit ends in "..." (never in half an escape or half a UTF-8
 * character).  Returns dst, so it can be an argument of err_set(). */
const char *err_escape(char *dst, size_t dstlen, const char *s);

/* Room for the escape of one character, its NUL included. */
#define ERR_ESCAPE_PIECE 8
/* One character of s (not at its NUL) by err_escape()'s rule: its text in
 * piece (*n bytes, NUL-terminated); returns how many bytes of s it stands
 * for (a whole UTF-8 character, or one byte).  keep_backslash leaves a
 * backslash as it is, for text whose input parts are escaped already (a
 * message built with err_escape()).  Shared with the terminal writers
 * (report/termtext.h), so that every text a terminal sees follows one rule. */
size_t err_escape_char(const char *s, char piece[ERR_ESCAPE_PIECE], size_t *n, int keep_backslash);

/* Resets e to "no error". */
void err_clear(struct err *e);

#endif
