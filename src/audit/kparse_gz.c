/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kparse_gz.c - /proc/config.gz decompressed for kparse_config_option()
 * (see kparse.h): the one kernel-context reader that allocates, apart
 * from the pure parsers of kparse.c. */
#include "config.h"

#include "audit/kparse.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int kparse_gunzip(const void *gz, size_t len, size_t max, char **out, size_t *outlen,
		  const char *what, struct err *e)
{
	z_stream zs;
	size_t cap = 1 << 16, n = 0;
	char *buf;
	int zr;

	*out = NULL;
	*outlen = 0;
	if (cap > max)
		cap = max;
	if (len > UINT_MAX)
		return err_set(e, ERR_DATA, "%s: compressed file too large", what);
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)   /* 16+: gzip header, not zlib */
		return err_set(e, ERR_NOMEM, "%s: cannot start zlib", what);
	zs.next_in = (Bytef *)(uintptr_t)gz;
	zs.avail_in = (uInt)len;
	buf = malloc(cap + 1);
	if (!buf) {
		inflateEnd(&zs);
		return err_set(e, ERR_NOMEM, "%s: out of memory", what);
	}
	for (;;) {
		if (n == cap) {
			char *nb;
			if (cap >= max) {
				free(buf);
				inflateEnd(&zs);
				return err_set(e, ERR_DATA, "%s: decompresses to more than %zu bytes", what, max);
			}
			cap = cap * 2 > max ? max : cap * 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				inflateEnd(&zs);
				return err_set(e, ERR_NOMEM, "%s: out of memory", what);
			}
			buf = nb;
		}
		zs.next_out = (Bytef *)buf + n;
		zs.avail_out = (uInt)(cap - n);
		zr = inflate(&zs, Z_NO_FLUSH);
		n = cap - zs.avail_out;
		if (zr == Z_STREAM_END)
			break;
		if (zr == Z_OK && zs.avail_out == 0)
			continue;
		free(buf);
		inflateEnd(&zs);
		if (zr == Z_OK || zr == Z_BUF_ERROR)
			return err_set(e, ERR_DATA, "%s: truncated gzip stream", what);
		return err_set(e, ERR_DATA, "%s: not a valid gzip stream (%s)", what,
			       zs.msg ? zs.msg : "corrupt data");
	}
	inflateEnd(&zs);
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return 0;
}
