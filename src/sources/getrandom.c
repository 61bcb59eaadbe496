/* SPDX-License-Identifier: GPL-3.0-or-later */
/* getrandom.c - the kernel's CRNG through getrandom(2): DRBG output.
 * flags=random|insecure|nonblock (default none).  EINTR and short reads are
 * handled by looping; EAGAIN (not yet seeded, with nonblock) is an error. */
#include "config.h"

#include "sources/backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004   /* Linux 5.6; older glibc headers lack it */
#endif

struct getrandom_flag {
	const char *name;
	unsigned value;
};

static const struct getrandom_flag getrandom_flags[] = {
	{ "none", 0 },
	{ "random", GRND_RANDOM },
	{ "insecure", GRND_INSECURE },
	{ "nonblock", GRND_NONBLOCK },
};

static int getrandom_open(struct source *src, struct spec *sp, struct err *e)
{
	const char *fl = spec_get(sp, "flags");
	unsigned flags = 0;
	int rc, found = 0;
	uint8_t probe;

	if (fl) {
		for (size_t i = 0; i < sizeof getrandom_flags / sizeof getrandom_flags[0]; i++)
			if (strcmp(fl, getrandom_flags[i].name) == 0) {
				flags = getrandom_flags[i].value;
				found = 1;
			}
		if (!found)
			return err_set(e, ERR_USAGE,
				       "source '%s': flags=%s: must be random, insecure, nonblock or none",
				       sp->text, fl);
	}
	rc = spec_check_unused(sp, e);
	if (rc)
		return rc;
	/* One byte now, so an old kernel (ENOSYS) or unknown flag (EINVAL) is
	 * reported at open, not in the middle of a run. */
	if (getrandom(&probe, 1, flags | GRND_NONBLOCK) < 0 && errno != EAGAIN)
		return err_set_errno(e, errno == ENOSYS ? ERR_UNAVAILABLE : ERR_USAGE, errno,
				     "source '%s': getrandom", sp->text);
	src->priv = (void *)(uintptr_t)flags;
	snprintf(src->info.spec, sizeof src->info.spec, "getrandom%s%s", fl ? ":flags=" : "",
		 fl ? fl : "");
	snprintf(src->info.device, sizeof src->info.device, "kernel");
	src->info.word_bits = 8;
	src->info.kind = SOURCE_DRBG;
	src->info.block_hint = 65536;
	return 0;
}

static ssize_t getrandom_read(struct source *src, uint8_t *buf, size_t len, struct err *e)
{
	unsigned flags = (unsigned)(uintptr_t)src->priv;
	size_t done = 0;

	while (done < len) {
		ssize_t got = getrandom(buf + done, len - done, flags);
		src->counters.calls++;
		if (got < 0) {
			if (errno == EINTR) {   /* a signal: return what we have, the engine checks stop */
				src->counters.retries++;
				if (done)
					break;
				return ERR_INTERRUPTED;
			}
			if (errno == EAGAIN)
				return err_set(e, ERR_SOURCE, "%s: the kernel CRNG is not seeded yet (EAGAIN)",
					       src->info.spec);
			return err_set_errno(e, ERR_SOURCE, errno, "%s", src->info.spec);
		}
		if ((size_t)got < len - done)
			src->counters.short_reads++;
		done += (size_t)got;
	}
	src->counters.bytes += done;
	src->counters.words += done;
	return (ssize_t)done;
}

static void getrandom_close(struct source *src)
{
	(void)src;
}

static int getrandom_probe(struct source_probe *p)
{
	uint8_t b;
	p->word_bits = 8;
	p->kind = SOURCE_DRBG;
	snprintf(p->device, sizeof p->device, "kernel");
	if (getrandom(&b, 1, GRND_NONBLOCK) < 0 && errno != EAGAIN) {
		p->available = 0;
		snprintf(p->why, sizeof p->why, "getrandom(2) failed: %s", strerror(errno));
		return 0;
	}
	p->available = 1;
	return 0;
}

const struct source_backend source_getrandom = {
	"getrandom", getrandom_open, getrandom_read, getrandom_close, getrandom_probe,
};
