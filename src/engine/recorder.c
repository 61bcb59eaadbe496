/* SPDX-License-Identifier: GPL-3.0-or-later */
/* recorder.c - sinks that keep samples: to a NIST-format file or to memory. */
#include "config.h"

#include "engine/recorder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes straight to the descriptor, not through stdio: every byte counted
 * in r->written has reached the file or pipe, so after a failure (EPIPE
 * from a reader that went away, ENOSPC) the count of whole samples written
 * is exact.  Blocks are large, so this costs no extra system calls. */
static int recorder_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct recorder *r = sk->ctx;
	const uint8_t *p = b->samples;
	size_t left = b->n;
	int fd = fileno(r->af.fp);

	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r->write_errno = w < 0 ? errno : EIO;
			return err_set_errno(e, ERR_IO, r->write_errno, "%s: write failed",
					     strcmp(r->af.path, "-") == 0 ? "stdout" : r->af.path);
		}
		p += w;
		left -= (size_t)w;
		r->written += (uint64_t)w;
	}
	return 0;
}

int recorder_open(struct recorder *r, const char *path, struct err *e)
{
	int rc;
	memset(r, 0, sizeof *r);
	r->sink.name = "recorder";
	r->sink.push = recorder_push;
	r->sink.ctx = r;
	rc = atomicfile_open(&r->af, path, e);
	if (rc == 0)
		fflush(r->af.fp);   /* nothing of stdio's may follow our writes */
	return rc;
}

int recorder_commit(struct recorder *r, struct err *e)
{
	return atomicfile_commit(&r->af, e);
}

void recorder_abort(struct recorder *r)
{
	atomicfile_abort(&r->af);
}

static int membuf_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct membuf *m = sk->ctx;
	size_t n = b->n;
	if (m->limit && m->n + n > m->limit)
		n = m->limit - m->n;
	if (m->n + n > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 1 << 16;
		uint8_t *nd;
		while (ncap < m->n + n)
			ncap *= 2;
		if (m->limit && ncap > m->limit)
			ncap = m->limit;
		nd = realloc(m->data, ncap);
		if (!nd)
			return err_set(e, ERR_NOMEM, "out of memory keeping %zu samples", m->n + n);
		m->data = nd;
		m->cap = ncap;
	}
	memcpy(m->data + m->n, b->samples, n);
	m->n += n;
	return 0;
}

void membuf_init(struct membuf *m, size_t limit)
{
	memset(m, 0, sizeof *m);
	m->sink.name = "membuf";
	m->sink.push = membuf_push;
	m->sink.ctx = m;
	m->limit = limit;
}

void membuf_free(struct membuf *m)
{
	free(m->data);
	m->data = NULL;
	m->n = m->cap = 0;
}
