/* recorder.c - sinks that keep samples: to a NIST-format file or to memory. */
#include "config.h"

#include "engine/recorder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int recorder_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct recorder *r = sk->ctx;
	if (b->n && fwrite(b->samples, 1, b->n, r->af.fp) != b->n)
		return err_set_errno(e, ERR_IO, errno, "%s: write failed", r->af.path);
	r->written += b->n;
	return 0;
}

int recorder_open(struct recorder *r, const char *path, struct err *e)
{
	memset(r, 0, sizeof *r);
	r->sink.name = "recorder";
	r->sink.push = recorder_push;
	r->sink.ctx = r;
	return atomicfile_open(&r->af, path, e);
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
