/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json_audit.c - the audit as a JSON document (report_json.h), shaped by
 * data/rngaudit-audit-1.schema.json: the run (when, how long, whether it
 * was cut short), the machine and the kernel context once, then one object
 * per source with every fact of its CSV row (report/csv.c) and what a row
 * cannot hold: each estimator's figures and NIST's intermediates, the
 * reasons as a list, the trust decision as an object.  Numbers are
 * numbers, flags booleans, and what was not measured or is not known is
 * null (an estimate that did not run, a device an unavailable source
 * never named).  To add a field: one line in the function of its object,
 * one property in the schema. */
#include "config.h"

#include <string.h>

#include "atomicfile.h"
#include "report/report_json.h"

static const char *credit_status(const struct report_source *s)
{
	if (!s->est_ran)
		return "not_assessed";
	return s->verdict.entropy_credit ? "credited" : "none";
}

static const char *role_name(enum trust_role r)
{
	return r == TRUST_ROLE_CPU ? "cpu" : r == TRUST_ROLE_HWRNG ? "hwrng" : "none";
}

static int set_u64(struct json *o, const char *key, uint64_t v)
{
	return json_set_int(o, key, (long long)v);
}

/* {cutoff, failures, ...} of one 90B 4.4 test */
static int health_test(struct json *h, const char *key, const struct health_result *t)
{
	struct json *o;
	int rc = json_set_new(h, key, JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= json_set_int(o, "cutoff", t->cutoff);
	if (t->window)
		rc |= json_set_int(o, "window", t->window);
	else
		rc |= json_set_null(o, "window");
	rc |= set_u64(o, "failures", t->failures);
	rc |= report_json_real(o, "expected_false_alarms", 1, t->expected_false_alarms);
	return rc ? ERR_NOMEM : 0;
}

static int source_health(struct json *s, const struct report_source *src)
{
	const struct health_monitor_results *h = &src->health;
	struct json *o, *w;
	int rc;

	if (!src->health_ran)
		return json_set_null(s, "health");
	if ((rc = json_set_new(s, "health", JSON_OBJECT, &o)) != 0)
		return rc;
	rc |= report_json_real(o, "h_claim", 1, h->entropy);
	rc |= report_json_text(o, "h_claim_rule", h->entropy_why);
	rc |= report_json_real(o, "alpha", 1, h->alpha);
	rc |= set_u64(o, "samples", h->samples);
	rc |= health_test(o, "rct", &h->rct);
	rc |= health_test(o, "apt", &h->apt);
	rc |= health_test(o, "proportion", &h->prop);
	rc |= json_set_string(o, "startup", health_startup_describe(h->startup));
	rc |= set_u64(o, "failures", h->failures);
	rc |= set_u64(o, "alarms", h->alarms);
	rc |= report_json_real(o, "alarms_expected", 1, h->expected_alarms);
	if (!h->words_checked) {
		rc |= json_set_null(o, "words");
	} else if ((rc |= json_set_new(o, "words", JSON_OBJECT, &w)) == 0) {
		rc |= json_set_int(w, "word_bits", h->words.word_bits);
		rc |= set_u64(w, "words", h->words.words);
		rc |= set_u64(w, "zeros", h->words.zeros.count);
		rc |= set_u64(w, "ones", h->words.ones.count);
		rc |= set_u64(w, "repeats", h->words.repeats.count);
		rc |= set_u64(w, "rct_failures", h->words.rct_failures);
	}
	return rc ? ERR_NOMEM : 0;
}

/* One estimator: its figure and NIST's intermediates, in NIST's order. */
static int estimator(struct json *arr, const struct est_result *r)
{
	struct json *o, *d, *kv;
	int rc = json_append_new(arr, JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= json_set_string(o, "id", r->id ? r->id : "");
	rc |= json_set_string(o, "name", r->name ? r->name : "");
	rc |= json_set_bool(o, "applicable", r->applicable);
	rc |= report_json_text(o, "reason", r->applicable ? "" : r->reason);
	rc |= report_json_real(o, "p", r->applicable, r->p);
	rc |= report_json_real(o, "h", r->applicable, r->h);
	if ((rc |= json_set_new(o, "details", JSON_ARRAY, &d)) != 0)
		return ERR_NOMEM;
	for (int i = 0; i < r->ndetails; i++) {
		const struct est_detail *x = &r->detail[i];

		if ((rc |= json_append_new(d, JSON_OBJECT, &kv)) != 0)
			break;
		rc |= json_set_string(kv, "key", x->key);
		if (x->kind == EST_DETAIL_INT)
			rc |= json_set_int(kv, "value", x->i);
		else if (x->kind == EST_DETAIL_REAL)
			rc |= report_json_real(kv, "value", 1, x->x);
		else
			rc |= json_set_null(kv, "value");
	}
	return rc ? ERR_NOMEM : 0;
}

static int source_estimates(struct json *s, const struct report_source *src)
{
	const struct noniid_report *est = &src->est;
	struct json *o, *lit, *bit;
	int rc;

	if (!src->est_ran)
		return json_set_null(s, "estimates");
	if ((rc = json_set_new(s, "estimates", JSON_OBJECT, &o)) != 0)
		return rc;
	rc |= report_json_real(o, "seconds", 1, src->est_seconds);
	rc |= set_u64(o, "samples", est->n);
	rc |= json_set_int(o, "alphabet", est->alph_size);
	rc |= report_json_real(o, "h_original", 1, est->h_original);
	rc |= report_json_real(o, "h_bitstring", est->has_bitstring, est->h_bitstring);
	rc |= report_json_real(o, "h_assessed", 1, est->h_assessed);
	rc |= json_set_new(o, "literal", JSON_ARRAY, &lit);
	rc |= json_set_new(o, "bitstring", JSON_ARRAY, &bit);
	for (int i = 0; rc == 0 && i < NONIID_NEST; i++) {
		if (est->literal_ran[i])
			rc |= estimator(lit, &est->literal[i]);
		if (est->has_bitstring && est->bitstring_ran[i])
			rc |= estimator(bit, &est->bitstring[i]);
	}
	return rc ? ERR_NOMEM : 0;
}

/* What an ideal source of this width and sample count scores (baseline.h). */
static int source_ideal(struct json *s, const struct report_source *src)
{
	const struct baseline_cell *c = &src->ideal;
	struct json *o;
	int rc;

	if (!src->est_ran || !src->ideal_known)
		return json_set_null(s, "ideal");
	if ((rc = json_set_new(s, "ideal", JSON_OBJECT, &o)) != 0)
		return rc;
	rc |= json_set_int(o, "bits", c->bits);
	rc |= set_u64(o, "samples", c->n);
	rc |= json_set_int(o, "runs", c->runs);
	rc |= report_json_real(o, "mean", 1, c->mean);
	rc |= report_json_real(o, "sd", 1, c->sd);
	rc |= report_json_real(o, "min", 1, c->min);
	rc |= report_json_real(o, "low", 1, c->low);
	return rc ? ERR_NOMEM : 0;
}

static int source_verdict(struct json *s, const struct verdict *v)
{
	struct json *o, *reasons, *x;
	int rc = json_set_new(s, "verdict", JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= json_set_string(o, "status", verdict_status_name(v->status));
	rc |= report_json_real(o, "credibility", 1, v->credibility);
	rc |= json_set_new(o, "reasons", JSON_ARRAY, &reasons);
	for (size_t i = 0; rc == 0 && i < v->nreasons; i++) {
		if ((rc |= json_append_new(reasons, JSON_OBJECT, &x)) != 0)
			break;
		rc |= json_set_string(x, "code", v->reasons[i].code);
		rc |= json_set_string(x, "level", verdict_level_name(v->reasons[i].level));
		rc |= json_set_string(x, "text", v->reasons[i].text);
	}
	return rc ? ERR_NOMEM : 0;
}

static int source_trust(struct json *s, const struct trust_decision *t)
{
	struct json *o;
	int rc = json_set_new(s, "trust", JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= json_set_string(o, "role", role_name(t->role));
	rc |= report_json_text(o, "as", t->as);
	rc |= json_set_bool(o, "simulated", t->simulated);
	rc |= report_json_tri(o, "credited", t->credited);
	rc |= report_json_text(o, "current", t->current);
	rc |= report_json_text(o, "recommendation", t->recommendation);
	rc |= json_set_bool(o, "change", t->change);
	rc |= json_set_bool(o, "credits_failed", t->credits_failed);
	rc |= json_set_bool(o, "operator_choice", t->operator_choice);
	rc |= report_json_text(o, "reason", t->reason);
	return rc ? ERR_NOMEM : 0;
}

static int source_object(struct json *arr, const struct report_run *r, const struct report_source *src)
{
	struct json *s, *c, *p;
	struct policy_source ps;
	int known = src->available || src->kind_known;   /* kind, device, word size */
	int rc = json_append_new(arr, JSON_OBJECT, &s);

	if (rc)
		return rc;
	rc |= json_set_string(s, "source", src->available ? src->info.spec : src->requested);
	rc |= json_set_string(s, "requested", src->requested);
	rc |= json_set_bool(s, "available", src->available);
	rc |= report_json_text(s, "unavailable_reason", src->available ? "" : src->why);
	rc |= json_set_bool(s, "required", src->required);
	rc |= report_json_text(s, "name", known ? src->info.name : "");
	rc |= report_json_text(s, "device", known ? src->info.device : "");
	rc |= report_json_text(s, "kind", known ? source_kind_token(src->info.kind) : "");
	rc |= report_json_text(s, "kind_basis", known ? src->kind_basis : "");
	if (known) {
		rc |= json_set_bool(s, "conditioned", src->info.kind != SOURCE_RAW);
		rc |= json_set_int(s, "word_bits", src->info.word_bits);
	} else {
		rc |= json_set_null(s, "conditioned");
		rc |= json_set_null(s, "word_bits");
	}
	rc |= set_u64(s, "samples", src->samples);
	rc |= json_set_int(s, "bits_per_sample", src->bits);
	rc |= report_json_real(s, "seconds", 1, src->stats.seconds);
	rc |= json_set_bool(s, "partial", src->stats.interrupted != 0);
	if (!src->available) {
		rc |= json_set_null(s, "counters");
	} else if ((rc |= json_set_new(s, "counters", JSON_OBJECT, &c)) == 0) {
		rc |= set_u64(c, "calls", src->counters.calls);
		rc |= set_u64(c, "underflows", src->counters.underflows);
		rc |= set_u64(c, "retries", src->counters.retries);
		rc |= set_u64(c, "exhausted", src->counters.exhausted);
		rc |= set_u64(c, "short_reads", src->counters.short_reads);
	}
	rc |= source_health(s, src);
	rc |= source_estimates(s, src);
	/* the IID track does not run in an audit (the CSV's "not_run") */
	rc |= json_set_null(s, "iid");
	rc |= report_json_real(s, "entropy_credit", src->est_ran && src->verdict.entropy_credit,
			       src->est.h_assessed);
	rc |= json_set_string(s, "credit_status", credit_status(src));
	rc |= source_ideal(s, src);
	rc |= source_verdict(s, &src->verdict);
	rc |= source_trust(s, &src->trust);
	/* the floors the verdict held h_assessed per bit against */
	if (!src->available) {
		rc |= json_set_null(s, "policy");
	} else if ((rc |= json_set_new(s, "policy", JSON_OBJECT, &p)) == 0) {
		policy_for(r->policy, src->info.name, &ps);
		rc |= report_json_real(p, "claim", 1, ps.claim);
		rc |= report_json_real(p, "fail_below", 1, ps.fail_below);
		rc |= report_json_real(p, "warn_below", 1, ps.warn_below);
	}
	return rc ? ERR_NOMEM : 0;
}

static struct json *audit_doc(const struct report_run *r)
{
	struct json *doc = json_new(JSON_OBJECT), *pol, *srcs, *counts;
	unsigned long n[4] = { 0 };
	char when[40];
	int rc;

	if (!doc)
		return NULL;
	rc = json_set_string(doc, "schema", "rngaudit-audit");
	rc |= json_set_int(doc, "schema_version", REPORT_JSON_AUDIT_SCHEMA);
	rc |= json_set_string(doc, "tool_version", r->tool_version ? r->tool_version : "");
	rc |= json_set_string(doc, "timestamp", report_iso_time(r->finished, when, sizeof when));
	rc |= report_json_real(doc, "seconds", 1, r->seconds);
	rc |= json_set_bool(doc, "partial", r->partial);
	rc |= json_set_bool(doc, "strict", r->strict);
	rc |= report_json_machine(doc, "machine", &r->sys);
	rc |= report_json_kernel(doc, "kernel", &r->kernel);
	if ((rc |= json_set_new(doc, "policy", JSON_OBJECT, &pol)) == 0) {
		rc |= json_set_string(pol, "origin", r->policy->origin);
		rc |= report_json_real(pol, "alpha", 1, r->policy->alpha);
		rc |= set_u64(pol, "min_samples", r->policy->min_samples);
	}
	rc |= json_set_new(doc, "sources", JSON_ARRAY, &srcs);
	for (size_t i = 0; rc == 0 && i < r->n; i++) {
		rc |= source_object(srcs, r, &r->src[i]);
		if (r->src[i].verdict.status <= VERDICT_UNAVAILABLE)
			n[r->src[i].verdict.status]++;
	}
	if (rc == 0 && (rc = json_set_new(doc, "counts", JSON_OBJECT, &counts)) == 0) {
		rc |= json_set_int(counts, "pass", (long long)n[VERDICT_PASS]);
		rc |= json_set_int(counts, "warn", (long long)n[VERDICT_WARN]);
		rc |= json_set_int(counts, "fail", (long long)n[VERDICT_FAIL]);
		rc |= json_set_int(counts, "unavailable", (long long)n[VERDICT_UNAVAILABLE]);
	}
	if (rc != 0) {
		json_free(doc);
		return NULL;
	}
	return doc;
}

int report_json_write(const char *path, const struct report_run *r, struct err *e)
{
	struct atomicfile af;
	struct json *doc = audit_doc(r);
	int rc;

	if (!doc)
		return err_set(e, ERR_NOMEM, "JSON report %s: out of memory", path);
	if ((rc = atomicfile_open(&af, path, e)) != 0) {
		json_free(doc);
		return rc;
	}
	if (json_write(af.fp, doc) != 0) {
		atomicfile_abort(&af);
		json_free(doc);
		return err_set(e, ERR_IO, "JSON report %s: write error", path);
	}
	json_free(doc);
	return atomicfile_commit(&af, e);
}
