/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csv.c - the audit CSV: one row per source per run (RFC 4180 via libcsv).
 *
 * One convention for every CSV the tool writes (RFC 4180): text always
 * quoted (csv_fwrite(), quotes doubled), numbers bare with %.17g so a reader
 * gets back the exact doubles the verdict saw and can redo the decision
 * without the tool.  A numeric column holds a number or nothing: an empty
 * field means "not measured" (estimators that did not run) or "none", and a
 * text column beside it says which (credit_status for entropy_credit), so
 * typed readers (pandas, R) load every numeric column as numbers.
 *
 * Booleans (schema 5) are one form, bare: true or false, empty when not
 * known (or, for kernel_credits, when no kernel setting credits the
 * source).  That spelling is what JSON writes, what pandas (true_values),
 * R's type.convert and a Frictionless Table Schema's default trueValues
 * read as a boolean, and it cannot be taken for a count as 0/1 can.
 * Schemas 1 to 4 wrote 0/1, yes/no/unknown and on/off/unknown;
 * data/rngaudit-audit-csv-N.tableschema.json names each column's type for
 * each schema N, and csvread.c reads the older forms back as these.
 */
#include "config.h"

#include "report/report.h"

#include <csv.h>
#include <math.h>
#include <string.h>

#include "atomicfile.h"
#include "report/csvcell.h"

/* Keep in step with rngaudit-audit(1), CSV COLUMNS, and row_write() below. */
const char *const report_csv_columns[] = {
	"timestamp", "host", "cpu_vendor", "cpu_family", "cpu_model", "cpu_stepping", "microcode",
	"kernel", "tool_version", "source", "device", "conditioned", "kind", "samples",
	"bits_per_sample", "word_bits", "seconds", "partial", "alpha", "h_claim", "rct_cutoff",
	"rct_failures", "apt_cutoff", "apt_failures", "calls", "underflows", "retries", "exhausted",
	"zero_words", "ones_words", "word_repeats", "h_original", "h_bitstring", "h_assessed",
	"entropy_credit",
	"lit_mcv", "lit_collision", "lit_markov", "lit_compression", "lit_tuple", "lit_lrs",
	"lit_multimcw", "lit_lag", "lit_multimmc", "lit_lz78y",
	"bit_mcv", "bit_collision", "bit_markov", "bit_compression", "bit_tuple", "bit_lrs",
	"bit_multimcw", "bit_lag", "bit_multimmc", "bit_lz78y",
	"iid", "verdict", "credibility", "reasons",
	/* schema 2: what the kernel trusts and what the audit recommends */
	"kernel_release", "kernel_trust_cpu", "kernel_trust_cpu_reason", "kernel_trust_bootloader",
	"kernel_cpu_flags_cleared", "virtualized", "hwrng_quality", "crng_ready", "recommendation",
	"recommendation_reason", "schema",
	/* schema 3: typed columns (entropy_credit a number or empty, its status
	 * here), observed against expected health alarms, the claim's rule */
	"credit_status", "h_claim_rule", "prop_cutoff", "prop_failures", "alarms",
	"alarms_expected", "assess_seconds", "policy_fail_below", "policy_warn_below",
	/* schema 4: one classification per source and why, what an ideal
	 * source of the same width and size scores, what the kernel credits of
	 * this source, the kernel's version with its sublevel, and the RNG
	 * flags its log warned about (still in use) */
	"kind_basis", "ideal_h_low", "ideal_h_mean", "kernel_credits", "operator_choice", "kernel_version",
	"kernel_version_source", "kernel_cpu_flags_warned",
	/* schema 5: no new column; the booleans written true/false (above) */
	NULL,
};

const char *const report_csv_bool_columns[] = {
	"conditioned", "partial", "kernel_trust_cpu", "kernel_trust_bootloader", "virtualized", "crng_ready",
	"kernel_credits", "operator_choice", NULL,
};

size_t report_csv_ncolumns(void)
{
	size_t n = 0;
	while (report_csv_columns[n])
		n++;
	return n;
}

const char *report_iso_time(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "%lld", (long long)t);
	return buf;
}

struct row {
	FILE *fp;
	int n;        /* fields written in this row */
	int bad;
};

static void sep(struct row *w)
{
	if (w->n++ && fputc(',', w->fp) == EOF)
		w->bad = 1;
}

static void put_str(struct row *w, const char *s)
{
	sep(w);
	if (csvcell_write(w->fp, s, strlen(s)) == EOF)   /* spreadsheet-safe (csvcell.h) */
		w->bad = 1;
}

static void put_u64(struct row *w, uint64_t v)
{
	sep(w);
	if (fprintf(w->fp, "%llu", (unsigned long long)v) < 0)
		w->bad = 1;
}

static void put_real(struct row *w, double v)
{
	sep(w);
	if (isfinite(v) && fprintf(w->fp, "%.17g", v + 0.0) < 0)   /* + 0.0: no "-0" */
		w->bad = 1;
}

static void put_empty(struct row *w)
{
	sep(w);
}

static void put_bool(struct row *w, int v)
{
	sep(w);
	if (fputs(v ? "true" : "false", w->fp) == EOF)
		w->bad = 1;
}

/* A kernel tri-state: true, false, or empty when unknown. */
static void put_tri(struct row *w, enum kernel_tri t)
{
	if (t == KERNEL_UNKNOWN)
		put_empty(w);
	else
		put_bool(w, t == KERNEL_ON);
}

static void row_end(struct row *w)
{
	if (fputs("\r\n", w->fp) == EOF)
		w->bad = 1;
	w->n = 0;
}

/* The schema-2 columns: bare tokens, empty where not known. */
static void row_kernel(struct row *w, const struct kernel_ctx *k, const struct trust_decision *t)
{
	put_str(w, k->release_known ? k->release : "");
	put_tri(w, k->trust_cpu.state);
	put_str(w, k->trust_cpu.source);
	put_tri(w, k->trust_bootloader.state);
	put_str(w, k->cleared_names);
	put_tri(w, k->virtualized);
	if (k->hwrng_quality >= 0)
		put_u64(w, (uint64_t)k->hwrng_quality);
	else
		put_empty(w);
	put_tri(w, k->crng_ready);
	put_str(w, t->recommendation);
	put_str(w, t->reason);
	put_u64(w, REPORT_CSV_SCHEMA);
}

/* "credited": entropy_credit holds the assessed min-entropy; "none": assessed
 * but not credited (DRBG or conditioned output, or a source that failed);
 * "not_assessed": the estimators did not run. */
static const char *credit_status(const struct report_source *s)
{
	if (!s->est_ran)
		return "not_assessed";
	return s->verdict.entropy_credit ? "credited" : "none";
}

/* The schema-3 columns. */
static void row_typed(struct row *w, const struct report_run *r, const struct report_source *s)
{
	struct policy_source ps;
	const struct health_monitor_results *h = &s->health;

	put_str(w, credit_status(s));
	if (s->health_ran) {
		put_str(w, h->entropy_why ? h->entropy_why : "");
		put_u64(w, h->prop.cutoff);
		put_u64(w, h->prop.failures);
		put_u64(w, h->alarms);
		put_real(w, h->expected_alarms);
	} else {
		put_str(w, "");
		for (int i = 0; i < 4; i++)
			put_empty(w);
	}
	if (s->est_ran)
		put_real(w, s->est_seconds);
	else
		put_empty(w);
	/* the floors the verdict held h_assessed / K against (per bit) */
	if (s->available) {
		policy_for(r->policy, s->info.name, &ps);
		put_real(w, ps.fail_below);
		put_real(w, ps.warn_below);
	} else {
		put_empty(w);
		put_empty(w);
	}
}

/* The schema-4 columns. */
static void row_schema4(struct row *w, const struct report_run *r, const struct report_source *s)
{
	const struct trust_decision *t = &s->trust;

	put_str(w, s->available || s->kind_known ? s->kind_basis : "");
	if (s->est_ran && s->ideal_known) {
		put_real(w, s->ideal.low);
		put_real(w, s->ideal.mean);
	} else {
		put_empty(w);
		put_empty(w);
	}
	if (t->role == TRUST_ROLE_NONE)
		put_empty(w);
	else
		put_tri(w, t->credited);
	put_bool(w, t->operator_choice != 0);
	put_str(w, r->kernel.version);
	put_str(w, r->kernel.version_from);
	put_str(w, r->kernel.warned_names);
}

static void row_write(struct row *w, const struct report_run *r, const struct report_source *s)
{
	char buf[64], codes[2048];
	const struct sysinfo *si = &r->sys;
	const struct health_monitor_results *h = &s->health;
	int words = s->health_ran && h->words_checked;
	int known = s->available || s->kind_known;   /* the source's kind, device, word size */

	put_str(w, report_iso_time(r->finished, buf, sizeof buf));
	put_str(w, si->hostname);
	put_str(w, si->cpu_vendor);
	put_u64(w, si->cpu_family);
	put_u64(w, si->cpu_model);
	put_u64(w, si->cpu_stepping);
	if (si->microcode_known) {
		snprintf(buf, sizeof buf, "0x%lx", si->microcode);
		put_str(w, buf);
	} else {
		put_str(w, "");
	}
	put_str(w, si->kernel);
	put_str(w, r->tool_version);
	put_str(w, s->available ? s->info.spec : s->requested);
	put_str(w, known ? s->info.device : "");
	if (known) {
		put_bool(w, s->info.kind != SOURCE_RAW);
		put_str(w, source_kind_token(s->info.kind));
	} else {
		put_empty(w);
		put_str(w, "");
	}
	put_u64(w, s->samples);
	put_u64(w, s->bits);
	if (known)
		put_u64(w, s->info.word_bits);
	else
		put_empty(w);
	put_real(w, s->stats.seconds);
	put_bool(w, s->stats.interrupted != 0);
	put_real(w, r->policy->alpha);
	if (s->health_ran) {
		put_real(w, h->entropy);
		put_u64(w, h->rct.cutoff);
		put_u64(w, h->rct.failures);
		put_u64(w, h->apt.cutoff);
		put_u64(w, h->apt.failures);
	} else {
		for (int i = 0; i < 5; i++)
			put_empty(w);
	}
	if (s->available) {
		put_u64(w, s->counters.calls);
		put_u64(w, s->counters.underflows);
		put_u64(w, s->counters.retries);
		put_u64(w, s->counters.exhausted);
	} else {
		for (int i = 0; i < 4; i++)
			put_empty(w);
	}
	if (words) {
		put_u64(w, h->words.zeros.count);
		put_u64(w, h->words.ones.count);
		put_u64(w, h->words.repeats.count);
	} else {
		for (int i = 0; i < 3; i++)
			put_empty(w);
	}
	if (s->est_ran) {
		put_real(w, s->est.h_original);
		if (s->est.has_bitstring)
			put_real(w, s->est.h_bitstring);
		else
			put_empty(w);
		put_real(w, s->est.h_assessed);
		if (s->verdict.entropy_credit)   /* else empty: credit_status says why */
			put_real(w, s->est.h_assessed);
		else
			put_empty(w);
		for (int i = 0; i < NONIID_NEST; i++) {
			if (s->est.literal_ran[i] && s->est.literal[i].applicable)
				put_real(w, s->est.literal[i].h);
			else
				put_empty(w);
		}
		for (int i = 0; i < NONIID_NEST; i++) {
			if (s->est.has_bitstring && s->est.bitstring_ran[i] && s->est.bitstring[i].applicable)
				put_real(w, s->est.bitstring[i].h);
			else
				put_empty(w);
		}
	} else {
		for (int i = 0; i < 4 + 2 * NONIID_NEST; i++)
			put_empty(w);
	}
	put_str(w, "not_run");
	put_str(w, verdict_status_name(s->verdict.status));
	put_real(w, s->verdict.credibility);
	put_str(w, verdict_codes(&s->verdict, codes, sizeof codes));
	row_kernel(w, &r->kernel, &s->trust);
	row_typed(w, r, s);
	row_schema4(w, r, s);
	row_end(w);
}

int report_csv_write(const char *path, const struct report_run *r, struct err *e)
{
	struct atomicfile af;
	struct row w = { 0 };
	int rc;

	if ((rc = atomicfile_open(&af, path, e)) != 0)
		return rc;
	w.fp = af.fp;
	for (size_t i = 0; report_csv_columns[i]; i++) {
		if (i && fputc(',', w.fp) == EOF)
			w.bad = 1;
		if (fputs(report_csv_columns[i], w.fp) == EOF)
			w.bad = 1;
	}
	row_end(&w);
	for (size_t i = 0; i < r->n; i++)
		row_write(&w, r, &r->src[i]);
	if (w.bad || ferror(af.fp)) {
		atomicfile_abort(&af);
		return err_set(e, ERR_IO, "CSV report %s: write error", path);
	}
	return atomicfile_commit(&af, e);
}
