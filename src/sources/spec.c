/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spec.c - source spec parsing. */
#include "config.h"

#include "sources/spec.h"
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static int spec_add_pair(struct spec *sp, const char *item, size_t len, struct err *e)
{
	const char *eq = memchr(item, '=', len);
	size_t klen, vlen;

	if (!eq || eq == item)
		return err_set(e, ERR_USAGE, "source '%s': expected key=value, got '%.*s'",
			       sp->text, (int)len, item);
	if (sp->nkeys == SPEC_KEYS_MAX)
		return err_set(e, ERR_USAGE, "source '%s': too many options", sp->text);
	klen = (size_t)(eq - item);
	vlen = len - klen - 1;
	if (klen >= sizeof sp->key[0] || vlen >= sizeof sp->value[0])
		return err_set(e, ERR_USAGE, "source '%s': option '%.*s' is too long",
			       sp->text, (int)len, item);
	for (int i = 0; i < sp->nkeys; i++)
		if (strlen(sp->key[i]) == klen && memcmp(sp->key[i], item, klen) == 0)
			return err_set(e, ERR_USAGE, "source '%s': option '%.*s' given twice",
				       sp->text, (int)klen, item);
	memcpy(sp->key[sp->nkeys], item, klen);
	sp->key[sp->nkeys][klen] = '\0';
	memcpy(sp->value[sp->nkeys], eq + 1, vlen);
	sp->value[sp->nkeys][vlen] = '\0';
	sp->used[sp->nkeys] = 0;
	sp->nkeys++;
	return 0;
}

/* Splits "a=1,b=2" into pairs. */
static int spec_add_list(struct spec *sp, const char *list, struct err *e)
{
	const char *p = list;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int rc;
		if (len == 0)
			return err_set(e, ERR_USAGE, "source '%s': empty option", sp->text);
		rc = spec_add_pair(sp, p, len, e);
		if (rc)
			return rc;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The last ",format=" of s with no comma after it, or NULL. */
static char *spec_file_format_key(char *s)
{
	static const char key[] = ",format=";
	char *last = NULL, *p = s;

	while ((p = strstr(p, key)) != NULL)
		last = p++;
	return last && !strchr(last + 1, ',') ? last : NULL;
}

/* file:PATH,format=F: the one option a file takes comes last, so that a
 * path may still hold commas and '=' anywhere else.  A path that itself
 * ends in ",format=F" is the key given twice (file:P,format=u8,format=u16le
 * opened P through two decoders, one inside the other): refused, as every
 * other source refuses a key given twice. */
static int spec_split_file_format(struct spec *sp, struct err *e)
{
	char *last = spec_file_format_key(sp->arg);

	if (!last)
		return 0;
	*last = '\0';
	if (!sp->arg[0])
		return err_set(e, ERR_USAGE, "source '%s': file needs a path (file:PATH,format=F)",
			       sp->text);
	if (spec_file_format_key(sp->arg))
		return err_set(e, ERR_USAGE, "source '%s': option 'format' given twice", sp->text);
	return spec_add_pair(sp, last + 1, strlen(last + 1), e);
}

int spec_parse(struct spec *sp, const char *text, struct err *e)
{
	const char *colon;
	size_t nlen;

	memset(sp, 0, sizeof *sp);
	sp->text = text;
	if (!text || !*text)
		return err_set(e, ERR_USAGE, "empty source spec");
	colon = strchr(text, ':');
	nlen = colon ? (size_t)(colon - text) : strlen(text);
	if (nlen == 0 || nlen >= sizeof sp->name)
		return err_set(e, ERR_USAGE, "source '%s': bad source name", text);
	memcpy(sp->name, text, nlen);
	sp->name[nlen] = '\0';
	if (!colon)
		return 0;
	if (strcmp(sp->name, "file") == 0) {
		/* The whole rest is the path: paths may hold commas and '='. */
		if (!colon[1])
			return err_set(e, ERR_USAGE, "source '%s': file needs a path (file:PATH, file:- for stdin)", text);
		if (strlen(colon + 1) >= sizeof sp->arg)
			return err_set(e, ERR_USAGE, "source '%s': path too long", text);
		memcpy(sp->arg, colon + 1, strlen(colon + 1) + 1);
		return spec_split_file_format(sp, e);
	}
	if (strcmp(sp->name, "sim") == 0) {
		const char *rest = colon + 1, *comma = strchr(rest, ',');
		size_t mlen = comma ? (size_t)(comma - rest) : strlen(rest);
		if (mlen == 0 || mlen >= sizeof sp->arg)
			return err_set(e, ERR_USAGE, "source '%s': sim needs a model (sim:MODEL[,key=value...])", text);
		memcpy(sp->arg, rest, mlen);
		sp->arg[mlen] = '\0';
		return comma ? spec_add_list(sp, comma + 1, e) : 0;
	}
	if (!colon[1])
		return err_set(e, ERR_USAGE, "source '%s': nothing after ':'", text);
	return spec_add_list(sp, colon + 1, e);
}

const char *spec_get(struct spec *sp, const char *key)
{
	for (int i = 0; i < sp->nkeys; i++)
		if (strcmp(sp->key[i], key) == 0) {
			sp->used[i] = 1;
			return sp->value[i];
		}
	return NULL;
}

int spec_get_u64(struct spec *sp, const char *key, unsigned long long min,
		 unsigned long long max, unsigned long long *out, struct err *e)
{
	const char *v = spec_get(sp, key);
	uint64_t x;
	if (!v)
		return 0;
	if (parse_u64(v, min, max, &x) != 0)
		return err_set(e, ERR_USAGE, "source '%s': %s=%s: must be an integer from %llu to %llu",
			       sp->text, key, v, min, max);
	*out = x;
	return 0;
}

int spec_get_prob(struct spec *sp, const char *key, double *out, struct err *e)
{
	const char *v = spec_get(sp, key);
	double x;
	if (!v)
		return 0;
	if (parse_double(v, &x) != 0 || !(x >= 0.0 && x <= 1.0))
		return err_set(e, ERR_USAGE, "source '%s': %s=%s: must be a probability from 0 to 1",
			       sp->text, key, v);
	*out = x;
	return 0;
}

int spec_check_unused(const struct spec *sp, struct err *e)
{
	for (int i = 0; i < sp->nkeys; i++)
		if (!sp->used[i])
			return err_set(e, ERR_USAGE, "source '%s': unknown option '%s' for %s",
				       sp->text, sp->key[i], sp->name);
	return 0;
}

/* A piece that continues the spec before it: key=value with no ':' ahead
 * of the '=' ("p=0.5" after "sim:biased"). */
static int spec_piece_continues(const char *piece, size_t len)
{
	const char *eq = memchr(piece, '=', len), *colon = memchr(piece, ':', len);
	return eq && (!colon || colon > eq);
}

/* One piece of the list, escaped, for a message. */
static const char *spec_piece_echo(char *dst, size_t dstlen, const char *piece, size_t len)
{
	char tmp[48];

	if (len >= sizeof tmp)
		len = sizeof tmp - 1;
	memcpy(tmp, piece, len);
	tmp[len] = '\0';
	return err_escape(dst, dstlen, tmp);
}

int spec_list_split(const char *list, char (*specs)[SPEC_TEXT_MAX], size_t max, size_t *n,
		    struct err *e)
{
	char echo[64];

	*n = 0;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		const char *next = p + len + (p[len] == ',');

		if (len == 0) {
			p = next;
			continue;
		}
		if (spec_piece_continues(p, len)) {
			size_t have;
			if (*n == 0)
				return err_set(e, ERR_USAGE, "--source: '%s' is an option with no source "
					       "before it", spec_piece_echo(echo, sizeof echo, p, len));
			have = strlen(specs[*n - 1]);
			if (have + 1 + len >= SPEC_TEXT_MAX)
				return err_set(e, ERR_USAGE, "--source: spec too long near '%s' (at most "
					       "%d bytes)", spec_piece_echo(echo, sizeof echo, p, len), SPEC_TEXT_MAX - 1);
			specs[*n - 1][have] = ',';
			memcpy(specs[*n - 1] + have + 1, p, len);
			specs[*n - 1][have + 1 + len] = '\0';
		} else {
			if (*n == max)
				return err_set(e, ERR_USAGE, "--source: more than %zu sources", max);
			if (len >= SPEC_TEXT_MAX)
				return err_set(e, ERR_USAGE, "--source: spec too long: '%s' (at most %d "
					       "bytes)", spec_piece_echo(echo, sizeof echo, p, len), SPEC_TEXT_MAX - 1);
			memcpy(specs[*n], p, len);
			specs[(*n)++][len] = '\0';
		}
		p = next;
	}
	if (*n == 0)
		return err_set(e, ERR_USAGE, "--source: empty list");
	return 0;
}
