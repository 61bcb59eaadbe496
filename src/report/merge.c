/* SPDX-License-Identifier: GPL-3.0-or-later */
/* merge.c - `rngaudit report merge`: many hosts' audit CSVs into one row per
 * (cpu_vendor, cpu_family, cpu_model, microcode, source): the table a
 * distribution needs to see which parts and microcode revisions misbehave.
 *
 * Inputs are read by csvread.c (header, field counts, FILE:LINE messages);
 * here each row's fields are checked and the row is kept once: rows are
 * keyed by (host, timestamp, source), so the same file given twice, or a
 * host's row repeated, counts once (the first one read is kept).
 *
 * Fleet scale: a million rows from a hundred thousand hosts.  Hosts,
 * sources, groups and rows are interned in hash tables (hashtab.h), expected
 * O(1) each; a kept row is 24 bytes here plus its row key in the table.
 * Writing sorts the kept rows by group and host (O(rows log rows)) and
 * aggregates each group's run of rows; the groups are then put in order.
 */
#include "config.h"

#include "report/report.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "report/csvcell.h"
#include "report/csvread.h"
#include "report/hashtab.h"
#include "report/merge_int.h"

const char *const report_merge_columns[] = {
	"cpu_vendor", "cpu_family", "cpu_model", "microcode", "virtualized", "kernel_release", "source",
	"hosts", "runs", "pass", "warn", "fail", "unavailable", "h_assessed_min", "h_assessed_median",
	"trust_cpu_hosts", "trust_cpu_failed", "recommendation", "credited_hosts", "credited_failed",
	"bits_per_sample", "policy_fail_below", "policy_warn_below", NULL,
};

static const char *const key_names[NKEY] = { "cpu_vendor", "cpu_family", "cpu_model", "microcode",
					     "virtualized", "kernel_release", "source" };
/* No recommendation (an empty one, or a schema-1 row). */
#define MERGE_NO_REC UINT32_MAX
/* A source the kernel does not credit by any setting (getrandom, file, sim). */
#define MERGE_NO_ROLE (-2)

static const char *const verdict_names[NVERDICT] = { "pass", "warn", "fail", "unavailable" };

_Static_assert(NKEY == REPORT_MERGE_NKEY, "the merged key has the columns report.h says");
_Static_assert(NVERDICT == 4, "four verdict counts");

/* Room for a field echoed in a message (err_escape()). */
#define MERGE_ECHO_MAX 48

/* One kept row: what the aggregation reads. */
struct mrow {
	uint32_t group, host;   /* ids in merge.groups, merge.hosts */
	uint32_t rec;           /* recommendation id in merge.recs, or MERGE_NO_REC */
	signed char verdict;    /* V_* */
	signed char trust;      /* kernel_trust_cpu: 1 on, 0 off, -1 unknown */
	signed char credited;   /* the kernel credits this source: 1, 0, -1 unknown, MERGE_NO_ROLE */
	double h;               /* h_assessed; NAN when empty */
};


/* The policy a group's hosts were judged by: K and the floors per bit,
 * known when every row of the group gives the same three (schema 3 on);
 * the fleet picture draws them, so that a bar's colour explains itself. */
struct mpolicy {
	double k, fail_below, warn_below;
	signed char state;      /* 0 no row yet, 1 all rows agree, -1 unknown or differing */
};

struct merge {
	int col[NKEY], host_col, time_col, verdict_col, h_col;   /* in report_csv_columns */
	int kernel_col, trust_col, rec_col;
	int credits_col, cleared_col, quality_col;
	int k_col, fail_col, warn_col;
	struct mpolicy *policy; /* by group id */
	size_t policyroom;
	struct hashtab recs;    /* recommendations */
	int text;               /* report_merge_write() writes the table for people */
	size_t width;           /* its notes' width (textwrap.h); 0: 80 columns */
	struct hashtab hosts;   /* host names */
	struct hashtab sources; /* source specs */
	struct hashtab groups;  /* the NKEY values, each ended by a NUL -> group id */
	struct hashtab seen;    /* (host id, source id, timestamp) -> row id */
	struct mrow *row;       /* kept rows, by row id until written */
	size_t nrow, rowroom;
	unsigned char *key;     /* room to build a group or row key in */
	size_t keyroom;
};

static int find_col(const char *name)
{
	for (size_t i = 0; report_csv_columns[i]; i++)
		if (strcmp(report_csv_columns[i], name) == 0)
			return (int)i;
	return -1;
}

int report_merge_create(struct merge **out, struct err *e)
{
	struct merge *m = calloc(1, sizeof *m);

	*out = NULL;
	if (!m)
		return err_set(e, ERR_NOMEM, "report merge: out of memory");
	for (int k = 0; k < NKEY; k++)
		m->col[k] = find_col(key_names[k]);
	m->host_col = find_col("host");
	m->time_col = find_col("timestamp");
	m->verdict_col = find_col("verdict");
	m->h_col = find_col("h_assessed");
	m->kernel_col = find_col("kernel");
	m->trust_col = find_col("kernel_trust_cpu");
	m->rec_col = find_col("recommendation");
	m->credits_col = find_col("kernel_credits");
	m->cleared_col = find_col("kernel_cpu_flags_cleared");
	m->quality_col = find_col("hwrng_quality");
	m->k_col = find_col("bits_per_sample");
	m->fail_col = find_col("policy_fail_below");
	m->warn_col = find_col("policy_warn_below");
	*out = m;
	return 0;
}

void report_merge_free(struct merge *m)
{
	if (!m)
		return;
	hashtab_free(&m->hosts);
	hashtab_free(&m->recs);
	hashtab_free(&m->sources);
	hashtab_free(&m->groups);
	hashtab_free(&m->seen);
	free(m->row);
	free(m->key);
	free(m->policy);
	free(m);
}

static int intern_str(struct hashtab *t, const char *s, uint32_t *id)
{
	int rc = hashtab_intern(t, s, strlen(s), id);
	return rc < 0 ? rc : 0;
}

/* The real source a spec names for the kernel: "rdrand", "rdseed",
 * "hwrng" (also through a stand-in's as=), or NULL. */
static const char *merge_role(const char *spec)
{
	static const char *const real[] = { "rdrand", "rdseed", "hwrng" };
	const char *as = strstr(spec, "as=");
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(real[i]);
		if ((strncmp(spec, real[i], n) == 0 && (spec[n] == '\0' || spec[n] == ':')) ||
		    (strncmp(spec, "sim:", 4) == 0 && as && strncmp(as + 3, real[i], n) == 0 &&
		     (as[3 + n] == '\0' || as[3 + n] == ',')))
			return real[i];
	}
	return NULL;
}

/* What the kernel credits of this row's source: schemas 4 and 5 say it
 * (kernel_credits, empty for a source no setting credits, and since 5 when
 * unknown); otherwise it is read the way trust.c decides it (the CPU RNG: trust_cpu on and its flag
 * not cleared; the hwrng: a quality above 0). */
static int row_credited(const char *const *f, const struct merge *m, signed char trust, const char *file,
			unsigned long line, signed char *out, struct err *e)
{
	const char *c = f[m->credits_col], *role;
	char echo[MERGE_ECHO_MAX];

	if (*c) {
		*out = strcmp(c, "true") == 0 ? 1 : strcmp(c, "false") == 0 ? 0 : -1;
		if (*out < 0)
			return err_set(e, ERR_DATA, "%s:%lu: kernel_credits '%s' is not true, false or empty", file,
				       line, err_escape(echo, sizeof echo, c));
		return 0;
	}
	role = merge_role(f[m->col[K_SOURCE]]);
	if (!role) {
		*out = MERGE_NO_ROLE;
	} else if (strcmp(role, "hwrng") == 0) {
		const char *q = f[m->quality_col];
		*out = !*q ? -1 : strspn(q, "0") == strlen(q) ? 0 : 1;
	} else {
		const char *cl = f[m->cleared_col], *p = strstr(cl, role);
		*out = p && (p == cl || p[-1] == ' ') ? 0 : trust;
	}
	return 0;
}

/* The fields the merge reads, checked: the verdict, h_assessed (NAN when
 * empty), a non-empty source, decimal family and model. */
static int row_check(const char *const *f, const struct merge *m, const char *file, unsigned long line,
		     struct mrow *out, struct err *e)
{
	const char *verdict = f[m->verdict_col], *hs = f[m->h_col];
	char echo[MERGE_ECHO_MAX];

	out->verdict = -1;
	for (int i = 0; i < NVERDICT; i++)
		if (strcmp(verdict, verdict_names[i]) == 0)
			out->verdict = i;
	if (out->verdict < 0)
		return err_set(e, ERR_DATA, "%s:%lu: verdict '%s' is not pass, warn, fail or unavailable", file,
			       line, err_escape(echo, sizeof echo, verdict));
	out->h = NAN;
	if (*hs) {
		char *end;
		errno = 0;
		out->h = strtod(hs, &end);
		if (errno || *end || !isfinite(out->h) || out->h < 0)
			return err_set(e, ERR_DATA, "%s:%lu: h_assessed '%s' is not a number", file, line,
				       err_escape(echo, sizeof echo, hs));
	}
	if (!*f[m->col[K_SOURCE]])
		return err_set(e, ERR_DATA, "%s:%lu: empty source", file, line);
	{
		const char *t = f[m->trust_col], *v = f[m->col[K_VIRT]];
		/* booleans as schema 5 writes them (csvread.c reads older forms so) */
		out->trust = strcmp(t, "true") == 0 ? 1 : strcmp(t, "false") == 0 ? 0 : -1;
		if (*t && out->trust < 0)
			return err_set(e, ERR_DATA, "%s:%lu: kernel_trust_cpu '%s' is not true, false or empty", file,
				       line, err_escape(echo, sizeof echo, t));
		if (*v && strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
			return err_set(e, ERR_DATA, "%s:%lu: virtualized '%s' is not true, false or empty", file, line,
				       err_escape(echo, sizeof echo, v));
	}
	if (row_credited(f, m, out->trust, file, line, &out->credited, e) != 0)
		return e->code;
	for (int k = K_FAMILY; k <= K_MODEL; k++) {
		const char *t = f[m->col[k]];
		if (!*t || strspn(t, "0123456789") != strlen(t))
			return err_set(e, ERR_DATA, "%s:%lu: %s '%s' is not a decimal number", file, line,
				       key_names[k], err_escape(echo, sizeof echo, t));
	}
	return 0;
}

/* m->key with room for len bytes, or NULL. */
static unsigned char *key_room(struct merge *m, size_t len)
{
	if (len > m->keyroom) {
		unsigned char *k = realloc(m->key, len);
		if (!k)
			return NULL;
		m->key = k;
		m->keyroom = len;
	}
	return m->key;
}

/* The row's group: its key is the NKEY columns' values, each ended by a
 * NUL (csvread passes no field with a NUL inside, so the key is
 * unambiguous). */
static int group_key(struct merge *m, const char *const *f, uint32_t *group)
{
	size_t len[NKEY], total = 0, o = 0;
	const char *v[NKEY];
	unsigned char *key;
	int rc;

	for (int k = 0; k < NKEY; k++)
		v[k] = f[m->col[k]];
	/* Schema 1 rows have no kernel_release: its `kernel` column is the same
	 * release (uname -r).  Whether a host is a guest is true, false or
	 * empty (unknown, and in schema 1 rows). */
	if (!*v[K_KREL])
		v[K_KREL] = f[m->kernel_col];
	for (int k = 0; k < NKEY; k++)
		total += (len[k] = strlen(v[k])) + 1;
	if (!(key = key_room(m, total)))
		return ERR_NOMEM;
	for (int k = 0; k < NKEY; k++) {
		memcpy(key + o, v[k], len[k] + 1);
		o += len[k] + 1;
	}
	rc = hashtab_intern(&m->groups, key, total, group);
	return rc < 0 ? rc : 0;
}

/* 1 if the row (host, timestamp, source) was read before, 0 if it is new
 * (and is now row id *row), or ERR_NOMEM. */
static int row_seen(struct merge *m, const char *const *f, uint32_t host, uint32_t *row)
{
	const char *ts = f[m->time_col];
	size_t tlen = strlen(ts), len = 2 * sizeof(uint32_t) + tlen;
	unsigned char *key;
	uint32_t source;
	int rc;

	if ((rc = intern_str(&m->sources, f[m->col[K_SOURCE]], &source)) != 0)
		return rc;
	if (!(key = key_room(m, len)))
		return ERR_NOMEM;
	memcpy(key, &host, sizeof host);
	memcpy(key + sizeof host, &source, sizeof source);
	memcpy(key + 2 * sizeof(uint32_t), ts, tlen);
	rc = hashtab_intern(&m->seen, key, len, row);
	return rc < 0 ? rc : !rc;
}

/* A number field of the policy: finite and >= 0, else NAN (empty, or a
 * schema before the policy's columns: row_check leaves them to us). */
static double policy_num(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	return errno || *end || !isfinite(v) || v < 0 ? NAN : v;
}

/* The row's policy into its group's: known while every row agrees. */
static int policy_add(struct merge *m, const char *const *f, uint32_t group)
{
	struct mpolicy *p;
	double k = policy_num(f[m->k_col]), fb = policy_num(f[m->fail_col]), wb = policy_num(f[m->warn_col]);

	if (group >= m->policyroom) {
		size_t nr = m->policyroom ? 2 * m->policyroom : 256;
		while (nr <= group)
			nr *= 2;
		p = realloc(m->policy, nr * sizeof *p);
		if (!p)
			return ERR_NOMEM;
		memset(p + m->policyroom, 0, (nr - m->policyroom) * sizeof *p);
		m->policy = p;
		m->policyroom = nr;
	}
	p = &m->policy[group];
	if (isnan(k) || isnan(fb) || isnan(wb))
		p->state = -1;
	else if (p->state == 0)
		*p = (struct mpolicy){ k, fb, wb, 1 };
	else if (p->state == 1 && (p->k != k || p->fail_below != fb || p->warn_below != wb))
		p->state = -1;
	return 0;
}

/* csvread's callback: one data row. */
static int merge_row(void *ctx, const char *const *f, const char *file, unsigned long line, struct err *e)
{
	struct merge *m = ctx;
	struct mrow r;
	uint32_t id;
	int rc;

	if ((rc = row_check(f, m, file, line, &r, e)) != 0)
		return rc;
	r.rec = MERGE_NO_REC;
	if (*f[m->rec_col] && intern_str(&m->recs, f[m->rec_col], &r.rec) != 0)
		return err_set(e, ERR_NOMEM, "%s:%lu: out of memory", file, line);
	if (m->nrow == m->rowroom) {
		size_t nr = m->rowroom ? 2 * m->rowroom : 1024;
		struct mrow *n = realloc(m->row, nr * sizeof *n);
		if (!n)
			return err_set(e, ERR_NOMEM, "%s:%lu: out of memory", file, line);
		m->row = n;
		m->rowroom = nr;
	}
	/* The group after the check for a repeat, so that a repeat with
	 * another key makes no empty group. */
	if ((rc = intern_str(&m->hosts, f[m->host_col], &r.host)) != 0 ||
	    (rc = row_seen(m, f, r.host, &id)) < 0 || (rc == 0 && group_key(m, f, &r.group) != 0))
		return err_set(e, ERR_NOMEM, "%s:%lu: out of memory", file, line);
	if (rc == 1)
		return 0;   /* counted once */
	if (policy_add(m, f, r.group) != 0)
		return err_set(e, ERR_NOMEM, "%s:%lu: out of memory", file, line);
	m->row[m->nrow++] = r;
	return 0;
}

int report_merge_add_file(struct merge *m, const char *path, struct err *e)
{
	return csvread_file(path, merge_row, m, e);
}

int report_merge_add_buffer(struct merge *m, const char *name, const void *data, size_t len,
			    struct err *e)
{
	return csvread_buffer(name, data, len, merge_row, m, e);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmp_row(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->host < y->host ? -1 : x->host > y->host;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The recommendation that holds for a group: the one most of its rows
 * give (ties: the first in byte order); none when no row gives one.  ids
 * is room for n ids. */
static void group_recommend(struct report_merge_group *g, const struct mrow *r, size_t n, uint32_t *ids,
			    const struct hashtab *recs)
{
	size_t k = 0, best = 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].rec != MERGE_NO_REC)
			ids[k++] = r[i].rec;
	g->rec = "";
	g->reclen = 0;
	qsort(ids, k, sizeof *ids, cmp_u32);
	for (size_t i = 0, j; i < k; i = j) {
		size_t len;
		const char *s;
		for (j = i + 1; j < k && ids[j] == ids[i]; j++)
			;
		s = hashtab_key(recs, ids[i], &len);
		if (j - i > best || (j - i == best && strcmp(s, g->rec) < 0)) {
			best = j - i;
			g->rec = s;
			g->reclen = len;
		}
	}
}

/* One group's figures from its rows (sorted by host); h is room for n
 * doubles.  A host trusts the CPU RNG if any of its rows says so, and
 * failed if any of its rows did. */
static void group_aggregate(struct report_merge_group *g, const struct mrow *r, size_t n, double *h)
{
	int trusts = 0, failed = 0, credits = 0;
	g->runs = n;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || r[i].host != r[i - 1].host) {
			g->hosts++;
			trusts = failed = credits = 0;
		}
		if (r[i].credited != MERGE_NO_ROLE)
			g->credit_role = 1;
		if (r[i].credited == 1 && !credits) {
			credits = 1;
			g->credited_hosts++;
			g->credited_failed += (unsigned long)failed;
		}
		if (r[i].verdict == V_FAIL && !failed)
			g->credited_failed += (unsigned long)credits;
		g->counts[r[i].verdict]++;
		if (!isnan(r[i].h))
			h[g->nh++] = r[i].h;
		if (r[i].trust == 1 && !trusts) {
			trusts = 1;
			g->trust_hosts++;
			g->trust_failed += (unsigned long)failed;
		}
		if (r[i].verdict == V_FAIL && !failed) {
			failed = 1;
			g->trust_failed += (unsigned long)trusts;
		}
	}
	if (g->nh) {
		qsort(h, g->nh, sizeof *h, cmp_double);
		g->h_min = h[0];
		g->h_median = g->nh % 2 ? h[g->nh / 2] : 0.5 * (h[g->nh / 2 - 1] + h[g->nh / 2]);
	}
}

/* Vendor, then family and model as numbers (model 8 before 17), then
 * microcode and source. */
static int cmp_group(const void *a, const void *b)
{
	const struct report_merge_group *x = a, *y = b;
	for (int k = 0; k < NKEY; k++) {
		size_t xl = x->len[k], yl = y->len[k];
		int c;
		if (k == K_FAMILY && x->family != y->family)
			return x->family < y->family ? -1 : 1;
		if (k == K_MODEL && x->model != y->model)
			return x->model < y->model ? -1 : 1;
		if ((c = memcmp(x->value[k], y->value[k], xl < yl ? xl : yl)) != 0)
			return c;
		if (xl != yl)
			return xl < yl ? -1 : 1;
	}
	return 0;
}

/* The groups, aggregated and in order; *out is NULL when there are none. */
static int groups_make(struct merge *m, struct report_merge_group **out, size_t *nout)
{
	size_t ng = hashtab_count(&m->groups), largest = 0;
	struct report_merge_group *g;
	uint32_t *ids;
	double *h;

	*out = NULL;
	*nout = 0;
	if (ng == 0)
		return 0;
	if (!(g = calloc(ng, sizeof *g)))
		return ERR_NOMEM;
	for (size_t i = 0; i < ng; i++) {
		size_t len;
		const char *v = hashtab_key(&m->groups, (uint32_t)i, &len);
		for (int k = 0; k < NKEY; k++) {
			g[i].value[k] = v;
			v += (g[i].len[k] = strlen(v)) + 1;
		}
		/* checked decimals, each ended by a NUL */
		g[i].family = strtoul(g[i].value[K_FAMILY], NULL, 10);
		g[i].model = strtoul(g[i].value[K_MODEL], NULL, 10);
		if (i < m->policyroom && m->policy[i].state == 1) {
			g[i].policy_known = 1;
			g[i].bits = m->policy[i].k;
			g[i].fail_below = m->policy[i].fail_below;
			g[i].warn_below = m->policy[i].warn_below;
		}
	}
	qsort(m->row, m->nrow, sizeof *m->row, cmp_row);
	for (size_t i = 0, j; i < m->nrow; i = j) {
		for (j = i + 1; j < m->nrow && m->row[j].group == m->row[i].group; j++)
			;
		if (j - i > largest)
			largest = j - i;
	}
	h = malloc((largest + 1) * sizeof *h);   /* + 1: never malloc(0) */
	ids = malloc((largest + 1) * sizeof *ids);
	if (!h || !ids) {
		free(h);
		free(ids);
		free(g);
		return ERR_NOMEM;
	}
	for (size_t i = 0, j; i < m->nrow; i = j) {
		for (j = i + 1; j < m->nrow && m->row[j].group == m->row[i].group; j++)
			;
		group_aggregate(&g[m->row[i].group], m->row + i, j - i, h);
		group_recommend(&g[m->row[i].group], m->row + i, j - i, ids, &m->recs);
	}
	free(h);
	free(ids);
	qsort(g, ng, sizeof *g, cmp_group);
	*out = g;
	*nout = ng;
	return 0;
}

int report_merge_groups(struct merge *m, struct report_merge_group **g, size_t *n, struct err *e)
{
	if (groups_make(m, g, n) != 0)
		return err_set(e, ERR_NOMEM, "report merge: out of memory");
	return 0;
}

void report_merge_set_text(struct merge *m, int text)
{
	m->text = text;
}

void report_merge_set_width(struct merge *m, size_t width)
{
	m->width = width;
}

size_t report_merge_width(const struct merge *m)
{
	return m->width;
}

int report_merge_write(struct merge *m, const char *out, struct err *e)
{
	struct atomicfile af;
	int rc;

	if ((rc = atomicfile_open(&af, out, e)) != 0)
		return rc;
	if ((rc = m->text ? report_merge_print_text(m, af.fp, e) : report_merge_print(m, af.fp, e)) != 0) {
		char name[200];
		atomicfile_abort(&af);
		if (rc == ERR_IO)
			err_set(e, ERR_IO, "report merge: write error on %s", err_escape(name, sizeof name, out));
		return rc;
	}
	return atomicfile_commit(&af, e);
}

int report_merge(const char *const *paths, size_t npaths, const char *out, struct err *e)
{
	struct merge *m;
	int rc;

	if (npaths == 0)
		return err_set(e, ERR_USAGE, "report merge: no input files");
	if ((rc = report_merge_create(&m, e)) != 0)
		return rc;
	for (size_t i = 0; i < npaths && rc == 0; i++)
		rc = report_merge_add_file(m, paths[i], e);
	if (rc == 0)
		rc = report_merge_write(m, out, e);
	report_merge_free(m);
	return rc;
}
