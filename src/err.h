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

/* Resets e to "no error". */
void err_clear(struct err *e);

#endif
