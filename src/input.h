/* SPDX-License-Identifier: GPL-3.0-or-later */
/* input.h - opening what the user names as input without hanging on it.
 *
 * A FIFO with no writer, or a device with nothing to say, would block
 * open() or the first read() forever.  input_open() opens with O_NONBLOCK,
 * waits for data with poll() for at most a bounded time, then clears
 * O_NONBLOCK so that reads block as usual.  Regular files open as usual.
 */
#ifndef RNGAUDIT_INPUT_H
#define RNGAUDIT_INPUT_H

#include <stddef.h>

#include "err.h"

/* How long a FIFO or device may take to offer its first byte. */
#define INPUT_WAIT_MS 10000

/* Called once when input_open() starts to wait (the command layer prints
 * it on a terminal; library code does not print).  msg is one line. */
typedef void (*input_wait_notice_fn)(const char *msg);
void input_set_wait_notice(input_wait_notice_fn fn);

/* Opens path read-only ("-" is stdin, returned as is).  Directories are
 * refused; a FIFO or character device with no data within INPUT_WAIT_MS is
 * an error naming path.  Returns a descriptor, or a negative ERR_* code. */
int input_open(const char *path, struct err *e);

/* The same for a descriptor the caller opened with O_NONBLOCK (to tell
 * its own open errors apart): waits, clears O_NONBLOCK.  0 or ERR_*. */
int input_wait(int fd, const char *path, struct err *e);

/* Reads a small text file (a policy, the quirk table) whole: at most max
 * bytes, else ERR_DATA; NUL-terminated.  Errors read "WHAT PATH: ...", and
 * a missing file is ERR_UNAVAILABLE.  The caller frees *text. */
int input_read_all(const char *path, const char *what, size_t max, char **text, size_t *len,
		   struct err *e);

#endif
