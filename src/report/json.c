/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json.c - see json.h.  The layout rules are jsoncpp 1.9's StyledWriter
 * (src/lib_json/json_writer.cpp): writeValue, writeArrayValue,
 * isMultilineArray (rightMargin 74, indentSize 3) and valueToString. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "report/json.h"

/* StyledWriter's rightMargin: a scalar array whose one-line form would
 * reach this many characters is written one element per line. */
#define JSON_RIGHT_MARGIN 74
#define JSON_INDENT "   "

struct json *json_new(enum json_type type)
{
	struct json *v = calloc(1, sizeof *v);

	if (v)
		v->type = type;
	return v;
}

void json_free(struct json *v)
{
	if (!v)
		return;
	for (size_t k = 0; k < v->nkids; k++)
		json_free(v->kids[k]);
	free(v->kids);
	free(v->key);
	free(v->s);
	free(v);
}

static int json_add(struct json *parent, struct json *kid)
{
	if (parent->nkids == parent->cap) {
		size_t cap = parent->cap ? 2 * parent->cap : 8;
		struct json **k = realloc(parent->kids, cap * sizeof *k);

		if (!k)
			return ERR_NOMEM;
		parent->kids = k;
		parent->cap = cap;
	}
	parent->kids[parent->nkids++] = kid;
	return 0;
}

/* A new member key of obj, replacing one of the same name. */
static struct json *json_member(struct json *obj, const char *key, enum json_type type)
{
	struct json *v = json_new(type);

	if (!v || !(v->key = strdup(key))) {
		json_free(v);
		return NULL;
	}
	for (size_t k = 0; k < obj->nkids; k++)
		if (strcmp(obj->kids[k]->key, key) == 0) {
			json_free(obj->kids[k]);
			obj->kids[k] = v;
			return v;
		}
	if (json_add(obj, v) != 0) {
		json_free(v);
		return NULL;
	}
	return v;
}

int json_set_int(struct json *obj, const char *key, long long i)
{
	struct json *v = json_member(obj, key, JSON_INT);

	if (!v)
		return ERR_NOMEM;
	v->i = i;
	return 0;
}

int json_set_real(struct json *obj, const char *key, double x)
{
	struct json *v = json_member(obj, key, JSON_REAL);

	if (!v)
		return ERR_NOMEM;
	v->x = x;
	return 0;
}

int json_set_bool(struct json *obj, const char *key, int b)
{
	struct json *v = json_member(obj, key, JSON_BOOL);

	if (!v)
		return ERR_NOMEM;
	v->i = b != 0;
	return 0;
}

int json_set_string(struct json *obj, const char *key, const char *s)
{
	struct json *v = json_member(obj, key, JSON_STRING);

	if (!v || !(v->s = strdup(s)))
		return ERR_NOMEM;
	return 0;
}

int json_set_null(struct json *obj, const char *key)
{
	return json_member(obj, key, JSON_NULL) ? 0 : ERR_NOMEM;
}

int json_set_new(struct json *obj, const char *key, enum json_type type, struct json **out)
{
	return (*out = json_member(obj, key, type)) ? 0 : ERR_NOMEM;
}

int json_append_new(struct json *arr, enum json_type type, struct json **out)
{
	struct json *v = json_new(type);

	*out = NULL;
	if (!v || json_add(arr, v) != 0) {
		json_free(v);
		return ERR_NOMEM;
	}
	*out = v;
	return 0;
}

int json_append_real(struct json *arr, double x)
{
	struct json *v;

	if (json_append_new(arr, JSON_REAL, &v) != 0)
		return ERR_NOMEM;
	v->x = x;
	return 0;
}

/* ---- writing ------------------------------------------------------------ */

/* valueToString(double): %.17g, ".0" when that reads as an integer;
 * non-finite values as StyledWriter writes them without special floats. */
static void json_format_real(double x, char *buf, size_t size)
{
	if (isnan(x)) {
		snprintf(buf, size, "null");
		return;
	}
	if (isinf(x)) {
		snprintf(buf, size, x < 0 ? "-1e+9999" : "1e+9999");
		return;
	}
	snprintf(buf, size, "%.17g", x);
	if (!strchr(buf, '.') && !strchr(buf, 'e'))
		strncat(buf, ".0", size - strlen(buf) - 1);
}

/* One UTF-8 code point at *p (advanced past it), or U+FFFD for a bad one. */
static unsigned long json_utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	int more = s[0] >= 0xf0 ? 3 : s[0] >= 0xe0 ? 2 : s[0] >= 0xc0 ? 1 : -1;
	unsigned long cp = more == 3 ? s[0] & 0x07u : more == 2 ? s[0] & 0x0fu : s[0] & 0x1fu;

	if (more < 0 || s[0] >= 0xf8) {
		*p = s + 1;
		return 0xfffd;
	}
	for (int k = 1; k <= more; k++) {
		if ((s[k] & 0xc0) != 0x80) {
			*p = s + k;
			return 0xfffd;
		}
		cp = cp << 6 | (s[k] & 0x3fu);
	}
	*p = s + more + 1;
	return cp;
}

/* valueToQuotedString: the JSON escapes, controls and non-ASCII as \uXXXX
 * (StyledWriter does not emit raw UTF-8), astral ones as surrogate pairs. */
static void json_put_string(FILE *fp, const char *str)
{
	const unsigned char *p = (const unsigned char *)str;

	fputc('"', fp);
	while (*p) {
		unsigned long cp;

		switch (*p) {
		case '"': fputs("\\\"", fp); p++; continue;
		case '\\': fputs("\\\\", fp); p++; continue;
		case '\b': fputs("\\b", fp); p++; continue;
		case '\f': fputs("\\f", fp); p++; continue;
		case '\n': fputs("\\n", fp); p++; continue;
		case '\r': fputs("\\r", fp); p++; continue;
		case '\t': fputs("\\t", fp); p++; continue;
		default: break;
		}
		if (*p >= 0x20 && *p < 0x80) {
			fputc(*p++, fp);
			continue;
		}
		cp = *p < 0x80 ? *p++ : json_utf8_next(&p);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			fprintf(fp, "\\u%04lx\\u%04lx", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
		} else {
			fprintf(fp, "\\u%04lx", cp);
		}
	}
	fputc('"', fp);
}

/* A scalar as text (strings are written by json_put_string). */
static void json_format_scalar(const struct json *v, char *buf, size_t size)
{
	switch (v->type) {
	case JSON_NULL: snprintf(buf, size, "null"); break;
	case JSON_BOOL: snprintf(buf, size, v->i ? "true" : "false"); break;
	case JSON_INT: snprintf(buf, size, "%lld", v->i); break;
	case JSON_REAL: json_format_real(v->x, buf, size); break;
	default: buf[0] = '\0'; break;
	}
}

static void json_indent(FILE *fp, int depth)
{
	fputc('\n', fp);
	for (int d = 0; d < depth; d++)
		fputs(JSON_INDENT, fp);
}

static int json_cmp_key(const void *a, const void *b)
{
	return strcmp((*(struct json *const *)a)->key, (*(struct json *const *)b)->key);
}

/* isMultilineArray: one line unless an element is a non-empty container,
 * a string (its escaped length is not worth computing: none of NIST's
 * arrays hold strings) or the line would reach the right margin. */
static int json_array_multiline(const struct json *v)
{
	size_t len = 4 + (v->nkids - 1) * 2;
	char buf[64];

	if (v->nkids * 3 >= JSON_RIGHT_MARGIN)
		return 1;
	for (size_t k = 0; k < v->nkids; k++) {
		const struct json *c = v->kids[k];

		if (c->type == JSON_STRING || ((c->type == JSON_ARRAY || c->type == JSON_OBJECT) && c->nkids))
			return 1;
		if (c->type == JSON_ARRAY || c->type == JSON_OBJECT)
			len += 2;
		else {
			json_format_scalar(c, buf, sizeof buf);
			len += strlen(buf);
		}
	}
	return len >= JSON_RIGHT_MARGIN;
}

static void json_put(FILE *fp, const struct json *v, int depth)
{
	char buf[64];

	switch (v->type) {
	case JSON_STRING:
		json_put_string(fp, v->s);
		return;
	case JSON_OBJECT: {
		struct json **sorted;

		if (v->nkids == 0) {
			fputs("{}", fp);
			return;
		}
		/* a copy to sort: the caller's order is kept; if even that much
		 * memory is missing, members go out unsorted, never lost */
		sorted = malloc(v->nkids * sizeof *sorted);
		if (sorted) {
			memcpy(sorted, v->kids, v->nkids * sizeof *sorted);
			qsort(sorted, v->nkids, sizeof *sorted, json_cmp_key);
		}
		fputc('{', fp);
		for (size_t k = 0; k < v->nkids; k++) {
			const struct json *c = sorted ? sorted[k] : v->kids[k];

			json_indent(fp, depth + 1);
			json_put_string(fp, c->key);
			fputs(" : ", fp);
			json_put(fp, c, depth + 1);
			if (k + 1 < v->nkids)
				fputc(',', fp);
		}
		free(sorted);
		json_indent(fp, depth);
		fputc('}', fp);
		return;
	}
	case JSON_ARRAY:
		if (v->nkids == 0) {
			fputs("[]", fp);
			return;
		}
		if (!json_array_multiline(v)) {
			fputs("[ ", fp);
			for (size_t k = 0; k < v->nkids; k++) {
				if (k)
					fputs(", ", fp);
				json_put(fp, v->kids[k], depth + 1);
			}
			fputs(" ]", fp);
			return;
		}
		fputc('[', fp);
		for (size_t k = 0; k < v->nkids; k++) {
			json_indent(fp, depth + 1);
			json_put(fp, v->kids[k], depth + 1);
			if (k + 1 < v->nkids)
				fputc(',', fp);
		}
		json_indent(fp, depth);
		fputc(']', fp);
		return;
	default:
		json_format_scalar(v, buf, sizeof buf);
		fputs(buf, fp);
		return;
	}
}

int json_write(FILE *fp, const struct json *v)
{
	json_put(fp, v, 0);
	fputc('\n', fp);
	return ferror(fp) ? -1 : 0;
}
