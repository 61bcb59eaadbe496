/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json.h - a small JSON document built in memory and written in the layout
 * of jsoncpp's Json::StyledWriter, which NIST's SP800-90B tools use for
 * their -o output: members sorted by key (byte order), three-space indent,
 * `"key" : value`, reals as %.17g with ".0" added when integral, short
 * arrays of scalars on one line.  So `rngaudit assess -o F` can be diffed
 * against `ea_non_iid -o F` key by key.
 *
 * Builders return 0, or ERR_NOMEM with the document left valid (what was
 * added stays, what failed is missing); json_free() releases a whole tree. */
#ifndef RNGAUDIT_JSON_H
#define RNGAUDIT_JSON_H
#include <stddef.h>
#include <stdio.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_INT, JSON_REAL, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	char *key;                /* member name, in an object */
	long long i;              /* JSON_INT, JSON_BOOL (0/1) */
	double x;                 /* JSON_REAL */
	char *s;                  /* JSON_STRING */
	struct json **kids;       /* JSON_ARRAY, JSON_OBJECT */
	size_t nkids, cap;
};

struct json *json_new(enum json_type type);   /* NULL: out of memory */
void json_free(struct json *v);

/* Object members (a key set twice keeps the last value, as jsoncpp does). */
int json_set_int(struct json *obj, const char *key, long long i);
int json_set_real(struct json *obj, const char *key, double x);
int json_set_bool(struct json *obj, const char *key, int b);
int json_set_string(struct json *obj, const char *key, const char *s);
int json_set_null(struct json *obj, const char *key);
/* Adds (or replaces) member key as a new empty array/object; *out = it. */
int json_set_new(struct json *obj, const char *key, enum json_type type, struct json **out);
/* Appends a new empty value of type to an array; *out = it. */
int json_append_new(struct json *arr, enum json_type type, struct json **out);
int json_append_real(struct json *arr, double x);

/* Writes v as Json::StyledWriter does, ending with a newline.  Returns 0,
 * or -1 if fp reported an error. */
int json_write(FILE *fp, const struct json *v);
#endif
