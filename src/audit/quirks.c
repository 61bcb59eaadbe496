/* SPDX-License-Identifier: GPL-3.0-or-later */
/* quirks.c - the table of known-bad CPU RNGs (data/quirks.txt): parsing and
 * matching against the machine's CPU identity and microcode revision. */
#include "config.h"

#include "audit/quirks.h"
#include "input.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define QUIRK_FIELDS 9   /* before the advisory text */

const char *quirk_severity_name(enum quirk_severity s)
{
	return s == QUIRK_FAIL ? "fail" : s == QUIRK_WARN ? "warn" : "info";
}

static int parse_num(const char *s, unsigned long *out)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* '*', N, LO-HI; with allow_below also '<N' (0..N-1). */
static int parse_range(char *s, struct quirk_range *r, int allow_below)
{
	char *dash;
	if (strcmp(s, "*") == 0) {
		r->lo = 0;
		r->hi = ULONG_MAX;
		return 0;
	}
	if (*s == '<') {
		if (!allow_below || parse_num(s + 1, &r->hi) != 0 || r->hi == 0)
			return -1;
		r->lo = 0;
		r->hi--;
		return 0;
	}
	dash = strchr(s, '-');
	if (dash) {
		*dash = '\0';
		if (parse_num(s, &r->lo) != 0 || parse_num(dash + 1, &r->hi) != 0 || r->lo > r->hi)
			return -1;
		return 0;
	}
	if (parse_num(s, &r->lo) != 0)
		return -1;
	r->hi = r->lo;
	return 0;
}

static int parse_widths(char *s, unsigned *out)
{
	char *save = NULL, *tok;
	*out = 0;
	if (strcmp(s, "*") == 0)
		return 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long w;
		if (parse_num(tok, &w) != 0 || (w != 8 && w != 16 && w != 32 && w != 64))
			return -1;
		*out |= 1u << (w / 8);
	}
	return *out ? 0 : -1;
}

static int parse_quirk_line(struct quirk *q, char *s, const char *what, unsigned line, struct err *e)
{
	static const char *const names[QUIRK_FIELDS] = {
		"id", "vendor", "family", "models", "steppings", "microcode", "source", "widths", "severity",
	};
	char *f[QUIRK_FIELDS];
	char *p = s;

	memset(q, 0, sizeof *q);
	q->line = line;
	for (int i = 0; i < QUIRK_FIELDS; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return err_set(e, ERR_DATA, "%s:%u: missing field '%s' (need ID VENDOR FAMILY MODELS "
				       "STEPPINGS MICROCODE SOURCE WIDTHS SEVERITY ADVISORY)", what, line, names[i]);
		f[i] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return err_set(e, ERR_DATA, "%s:%u: missing the advisory text", what, line);
	if (strlen(f[0]) >= sizeof q->id || strlen(f[1]) >= sizeof q->vendor ||
	    strlen(p) >= sizeof q->advisory)
		return err_set(e, ERR_DATA, "%s:%u: a field is too long", what, line);
	snprintf(q->id, sizeof q->id, "%s", f[0]);
	snprintf(q->vendor, sizeof q->vendor, "%s", f[1]);
	if (parse_range(f[2], &q->family, 0) != 0)
		return err_set(e, ERR_DATA, "%s:%u: family '%s' is not N, LO-HI or *", what, line, f[2]);
	if (parse_range(f[3], &q->model, 0) != 0)
		return err_set(e, ERR_DATA, "%s:%u: models '%s' is not N, LO-HI or *", what, line, f[3]);
	if (parse_range(f[4], &q->stepping, 0) != 0)
		return err_set(e, ERR_DATA, "%s:%u: steppings '%s' is not N, LO-HI or *", what, line, f[4]);
	if (parse_range(f[5], &q->microcode, 1) != 0)
		return err_set(e, ERR_DATA, "%s:%u: microcode '%s' is not <REV, LO-HI or *", what, line, f[5]);
	if (strcmp(f[6], "rdrand") != 0 && strcmp(f[6], "rdseed") != 0 && strcmp(f[6], "*") != 0)
		return err_set(e, ERR_DATA, "%s:%u: source '%s' is not rdrand, rdseed or *", what, line, f[6]);
	if (strcmp(f[6], "*") != 0)
		snprintf(q->source, sizeof q->source, "%s", f[6]);
	if (parse_widths(f[7], &q->widths) != 0)
		return err_set(e, ERR_DATA, "%s:%u: widths '%s' is not * or a list of 8, 16, 32, 64", what,
			       line, f[7]);
	if (strcmp(f[8], "fail") == 0)
		q->severity = QUIRK_FAIL;
	else if (strcmp(f[8], "warn") == 0)
		q->severity = QUIRK_WARN;
	else if (strcmp(f[8], "info") == 0)
		q->severity = QUIRK_INFO;
	else
		return err_set(e, ERR_DATA, "%s:%u: severity '%s' is not fail, warn or info", what, line, f[8]);
	memcpy(q->advisory, p, strlen(p) + 1);   /* its length was checked above */
	return 0;
}

struct id_ref {
	const char *id;
	size_t idx;
};

static int id_ref_cmp(const void *a, const void *b)
{
	const struct id_ref *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sets each entry's id_first, the index of the first entry of its ID, by
 * one sort: what lets quirks_match stay linear. */
static int quirks_index_ids(struct quirk_table *t, const char *what, struct err *e)
{
	struct id_ref *r;
	if (t->n == 0)
		return 0;
	r = malloc(t->n * sizeof *r);
	if (!r) {
		quirks_free(t);
		return err_set(e, ERR_NOMEM, "%s: out of memory", what);
	}
	for (size_t i = 0; i < t->n; i++)
		r[i] = (struct id_ref){ t->q[i].id, i };
	qsort(r, t->n, sizeof *r, id_ref_cmp);
	for (size_t i = 0, first = 0; i < t->n; i++) {
		if (i == 0 || strcmp(r[i].id, r[i - 1].id) != 0)
			first = r[i].idx;
		t->q[r[i].idx].id_first = first;
	}
	free(r);
	return 0;
}

int quirks_parse(struct quirk_table *t, const char *text, size_t len, const char *what, struct err *e)
{
	size_t pos = 0, cap = 0;
	unsigned line = 0;
	char buf[1024];

	memset(t, 0, sizeof *t);
	snprintf(t->origin, sizeof t->origin, "%s", what);
	while (pos < len) {
		size_t end = pos, n;
		char *s;
		int rc;
		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		line++;
		if (n >= sizeof buf) {
			quirks_free(t);
			return err_set(e, ERR_DATA, "%s:%u: line longer than %zu bytes", what, line, sizeof buf - 1);
		}
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos = end + 1;
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = '\0';
		s = buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		if (t->n == cap) {
			struct quirk *nq;
			cap = cap ? 2 * cap : 16;
			nq = realloc(t->q, cap * sizeof *nq);
			if (!nq) {
				quirks_free(t);
				return err_set(e, ERR_NOMEM, "%s: out of memory", what);
			}
			t->q = nq;
		}
		if ((rc = parse_quirk_line(&t->q[t->n], s, what, line, e)) != 0) {
			quirks_free(t);
			return rc;
		}
		t->n++;
	}
	return quirks_index_ids(t, what, e);
}

int quirks_load(struct quirk_table *t, const char *path, struct err *e)
{
	char *text;
	size_t len;
	int rc;

	memset(t, 0, sizeof *t);
	rc = input_read_all(path, "quirk table", QUIRKS_MAX_BYTES, &text, &len, e);
	if (rc != 0)
		return rc;
	rc = quirks_parse(t, text, len, path, e);
	free(text);
	return rc;
}

void quirks_free(struct quirk_table *t)
{
	free(t->q);
	t->q = NULL;
	t->n = 0;
}

static int in_range(const struct quirk_range *r, unsigned long v)
{
	return v >= r->lo && v <= r->hi;
}

/* Does q's identity (vendor, family, model, stepping, source, width) match? */
static int identity_matches(const struct quirk *q, const struct quirk_cpu *cpu, const char *source,
			    unsigned word_bits)
{
	if (strcasecmp(q->vendor, cpu->vendor ? cpu->vendor : "") != 0 || !in_range(&q->family, cpu->family) ||
	    !in_range(&q->model, cpu->model) || !in_range(&q->stepping, cpu->stepping))
		return 0;
	if (q->source[0] && strcmp(q->source, source) != 0)
		return 0;
	if (q->widths && !(word_bits % 8 == 0 && word_bits <= 64 && (q->widths & (1u << (word_bits / 8)))))
		return 0;
	return 1;
}

size_t quirks_match(const struct quirk_table *t, const struct quirk_cpu *cpu, const char *source,
		    unsigned word_bits, struct quirk_match *out, size_t max)
{
	/* decided[g]: an earlier entry of the ID whose first entry is g matched
	 * this machine, so only that one counts.  One flag per ID keeps the
	 * match linear in the table (a look back over earlier lines made a
	 * hostile 1 MiB --quirks file cost seconds per source). */
	unsigned char *decided = calloc(t->n ? t->n : 1, 1);
	size_t n = 0;

	for (size_t i = 0; i < t->n && n < max; i++) {
		const struct quirk *q = &t->q[i];
		int earlier = 0;
		if (decided) {
			earlier = decided[q->id_first];
		} else {   /* no memory for the flags: the same answer, slower */
			for (size_t j = q->id_first; j < i && !earlier; j++)
				earlier = strcmp(t->q[j].id, q->id) == 0 &&
					  identity_matches(&t->q[j], cpu, source, word_bits);
		}
		if (earlier || !identity_matches(q, cpu, source, word_bits))
			continue;
		if (decided)
			decided[q->id_first] = 1;
		if (cpu->microcode_known) {
			if (!in_range(&q->microcode, cpu->microcode))
				continue;   /* a fixed revision */
			out[n].microcode_unknown = 0;
		} else {
			/* Cannot tell fixed from unfixed: report it as a possibility. */
			out[n].microcode_unknown = !(q->microcode.lo == 0 && q->microcode.hi == ULONG_MAX);
		}
		out[n].q = q;
		n++;
	}
	free(decided);
	return n;
}
