/* SPDX-License-Identifier: GPL-3.0-or-later */
/* file.c - raw bytes from a file or stdin (file:PATH, file:- for stdin).
 * The bytes are the source's output stream, sliced like any other source. */
#include "config.h"

#include "sources/backend.h"
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct filesrc {
	int fd;
	int is_stdin;
};

static int file_open(struct source *src, struct spec *sp, struct err *e)
{
	struct filesrc *f;
	int fd, is_stdin = strcmp(sp->arg, "-") == 0;

	if (!sp->arg[0])
		return err_set(e, ERR_USAGE, "source '%s': file needs a path (file:PATH, file:- for stdin)",
			       sp->text);
	/* A FIFO with no writer would block here forever: bounded wait. */
	fd = input_open(sp->arg, e);
	if (fd < 0)
		return fd;
	f = calloc(1, sizeof *f);
	if (!f) {
		if (!is_stdin)
			close(fd);
		return err_set(e, ERR_NOMEM, "%s: out of memory", sp->arg);
	}
	f->fd = fd;
	f->is_stdin = is_stdin;
	src->priv = f;
	snprintf(src->info.spec, sizeof src->info.spec, "file:%.250s", sp->arg);
	snprintf(src->info.device, sizeof src->info.device, "%.250s", is_stdin ? "stdin" : sp->arg);
	src->info.word_bits = 8;
	src->info.kind = SOURCE_RAW;
	src->info.block_hint = 1 << 20;
	return 0;
}

static ssize_t file_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	struct filesrc *f = src->priv;
	ssize_t got;
	for (;;) {
		src->counters.calls++;
		got = read(f->fd, buf, len);
		if (got >= 0)
			break;
		if (errno != EINTR)
			return err_set_errno(e, ERR_IO, errno, "%s: read failed", src->info.device);
		src->counters.retries++;
		return ERR_INTERRUPTED;
	}
	if (got > 0 && (size_t)got < len)
		src->counters.short_reads++;
	src->counters.bytes += (uint64_t)got;
	src->counters.words += (uint64_t)got;
	return got;
}

static void file_close(struct source *src)
{
	struct filesrc *f = src->priv;
	if (f) {
		if (!f->is_stdin)
			close(f->fd);
		free(f);
	}
}

const struct source_backend source_file = {
	"file", file_open, file_read, file_close, NULL,
};
