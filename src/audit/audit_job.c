/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audit_job.c - one source's audit: collect (the health tests streaming),
 * assess with the 90B estimators, match the quirk table, judge with the
 * policy.  Library code: the caller runs it in a thread of its own and sees
 * its progress through the hooks (audit_job.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "audit/audit_job.h"
#include "audit/baseline.h"
#include "audit/classify.h"
#include "audit/policy.h"
#include "audit/quirks.h"
#include "audit/trust.h"
#include "audit/verdict.h"
#include "engine/engine.h"
#include "engine/recorder.h"
#include "engine/samples.h"
#include "engine/translate.h"
#include "engine/widein.h"
#include "estimators/noniid.h"
#include "health/health_monitor.h"
#include "report/report.h"
#include "sources/source.h"

/* RDRAND and RDSEED draw on the same on-chip DRNG (Intel DRNG Software
 * Implementation Guide): collected at once they compete for it and each
 * one's CF=0 rate would depend on the other, so they take turns; every
 * other pair of sources runs concurrently. */
static pthread_mutex_t audit_cpu_rng_lock = PTHREAD_MUTEX_INITIALIZER;

static int audit_uses_cpu_rng(const struct source_info *info)
{
	return strcmp(info->name, "rdrand") == 0 || strcmp(info->name, "rdseed") == 0;
}



static double audit_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void audit_state(struct audit_job *j, enum audit_job_state s)
{
	if (j->hooks && j->hooks->state)
		j->hooks->state(j->hooks->ctx, j, s);
}

/* The engine's progress callback (ctx = the job). */
static void audit_progress(void *ctx, uint64_t done, uint64_t bytes)
{
	struct audit_job *j = ctx;
	j->hooks->progress(j->hooks->ctx, j, done, bytes);
}

/* A file source read whole: its samples (K-bit samples from its bytes). */
static uint64_t audit_file_samples(const struct source_info *info, unsigned bits)
{
	struct stat st;
	if (info->device[0] && stat(info->device, &st) == 0 && st.st_size > 0)
		return (uint64_t)st.st_size * 8 / bits + 1;
	return AUDIT_FILE_SAMPLES_UNKNOWN;
}

/* The health tests for samples of `bits` bits over a run of run_samples. */
static int audit_health_new(struct audit_job *j, unsigned bits, unsigned word_bits,
			    uint64_t run_samples, struct health_monitor **hm, struct err *e)
{
	struct health_monitor_config hc = { 0 };

	hc.bits = bits;
	/* one rule with collect and health (health_monitor_default_entropy):
	 * a claim the policy names for this source wins; otherwise DRBG and
	 * conditioned output are full entropy and raw or unknown sources get
	 * the policy's claim (per bit) */
	policy_apply_claim(j->policy, j->out->info.name, bits, &hc);
	hc.alpha = j->policy->alpha;
	hc.run_samples = run_samples;   /* alpha covers the run */
	hc.word_bits = word_bits;
	hc.kind = j->out->info.kind;
	if (health_monitor_new(hm, &hc, e) == 0)
		return 0;
	snprintf(j->source_error, sizeof j->source_error, "health tests: %.480s", e->msg);
	return -1;
}

/* A byte stream: the engine slices it into K-bit samples and streams them
 * through the health tests into memory.  -1: nothing was collected. */
static int audit_collect_bytes(struct audit_job *j, struct source *src, struct health_monitor **hm,
			       struct membuf *buf, struct err *e)
{
	struct report_source *rs = j->out;
	struct engine_opts opts = { 0 };
	struct sink *sinks[2];
	int rc;

	/* alpha covers the run: -n (or the default), or a file's samples */
	if (audit_health_new(j, j->bits, rs->info.word_bits,
			     j->samples ? j->samples : audit_file_samples(&rs->info, j->bits), hm, e) != 0)
		return -1;
	sinks[0] = health_monitor_sink(*hm);
	sinks[1] = &buf->sink;
	opts.max_samples = j->samples;
	opts.bits = j->bits;
	opts.stop = j->stop;
	if (j->hooks && j->hooks->progress) {
		opts.progress = audit_progress;
		opts.progress_ctx = j;
		opts.progress_every = j->hooks->progress_every;
	}
	if (audit_uses_cpu_rng(&rs->info)) {
		audit_state(j, AUDIT_WAITING);
		pthread_mutex_lock(&audit_cpu_rng_lock);
	}
	audit_state(j, AUDIT_COLLECTING);
	rc = engine_run(src, &opts, sinks, 2, &rs->stats, e);
	if (audit_uses_cpu_rng(&rs->info))
		pthread_mutex_unlock(&audit_cpu_rng_lock);
	rs->samples = rs->stats.samples;
	if (rc != 0)
		snprintf(j->source_error, sizeof j->source_error, "%s", e->msg);
	return 0;
}

/* Wide raw samples (jitter, file:PATH,format=F): read whole, reduced by the
 * default 90B 6.4 translation, and the symbols sent through the health tests
 * (no word checks: the symbols are not the source's words) into memory. */
static int audit_collect_wide(struct audit_job *j, struct source *src, struct health_monitor **hm,
			      struct membuf *buf, struct err *e)
{
	struct report_source *rs = j->out;
	struct translate_method m;
	struct translate_map map;
	struct sink *sinks[2];
	uint64_t *x = NULL;
	size_t n = 0;
	int rc;

	audit_state(j, AUDIT_COLLECTING);
	/* a file read whole: at most keep_max samples in memory (8 bytes each) */
	rc = widein_read(src, j->samples ? j->samples : j->keep_max, j->stop, &x, &n, &rs->stats, e);
	if (rc == 0 && n > 0 && (rc = translate_parse(TRANSLATE_DEFAULT, &m, e)) == 0)
		rc = translate_plan(&m, x, n, rs->info.sample_bits, &map, e);
	if (rc != 0 || n == 0) {
		if (rc)
			snprintf(j->source_error, sizeof j->source_error, "%s", e->msg);
		free(x);
		return -1;
	}
	translate_describe(&map, j->translation, sizeof j->translation);
	j->bits = rs->bits = map.bits;
	if (audit_health_new(j, map.bits, 8, n, hm, e) != 0) {
		free(x);
		return -1;
	}
	sinks[0] = health_monitor_sink(*hm);
	sinks[1] = &buf->sink;
	rc = widein_push(&map, x, n, sinks, 2, rs->stats.interrupted, e);
	free(x);
	rs->samples = n;
	if (rc != 0)
		snprintf(j->source_error, sizeof j->source_error, "%s", e->msg);
	return 0;
}

/* Appends an INFO reason after verdict_decide() (room permitting). */
static void audit_add_info(struct verdict *v, const char *code, const char *text)
{
	struct verdict_reason *r;

	if (v->nreasons == VERDICT_REASONS_MAX)
		return;
	r = &v->reasons[v->nreasons++];
	r->level = VERDICT_INFO;
	snprintf(r->code, sizeof r->code, "%s", code);
	snprintf(r->text, sizeof r->text, "%s", text);
}

/* What the kernel should trust of this source, from the verdict, the
 * kernel context and the policy (trust.h). */
static void audit_job_trust(struct audit_job *j)
{
	const struct report_source *s = j->out;
	struct trust_input ti = { 0 };

	ti.info = s->available ? &s->info : NULL;
	ti.requested = s->requested;
	ti.verdict = &s->verdict;
	ti.h_per_bit = s->est_ran && s->bits ? s->est.h_assessed / s->bits : -1;
	ti.h_assessed = s->est_ran ? s->est.h_assessed : -1;
	ti.ideal = s->ideal_known ? &s->ideal : NULL;
	ti.kernel = j->kernel;
	ti.policy = j->policy;
	ti.arch = j->arch;
	trust_decide(&ti, &j->out->trust);
}

size_t audit_job_keep_max(size_t nsources)
{
	size_t cap = samples_default_max() / (nsources ? nsources : 1);
	return cap < SAMPLES_MAX_FLOOR ? SAMPLES_MAX_FLOOR : cap;
}

/* jitter is measured for information: its verdict sets the exit status
 * only when the policy names it (a claim.jitter-style key or `required`). */
int audit_gates(const struct policy *p, const char *name)
{
	if (strcmp(name, "jitter") != 0)
		return 1;
	if (policy_is_required(p, name))
		return 1;
	for (size_t i = 0; i < p->nentries; i++)   /* a key the policy file set, not a built-in */
		if (strcmp(p->entries[i].name, name) == 0 && p->entries[i].set)
			return 1;
	return 0;
}

void audit_job_run(struct audit_job *j)
{
	struct report_source *rs = j->out;
	struct source *src = NULL;
	struct health_monitor *hm = NULL;
	struct membuf buf;
	struct policy_source pol;
	struct quirk_match qm[QUIRK_MATCH_MAX];
	size_t nq = 0;
	struct verdict_input vin = { 0 };
	struct err e;
	int rc;

	err_clear(&e);
	membuf_init(&buf, j->keep_max);   /* every run bounded by the machine */
	snprintf(rs->requested, sizeof rs->requested, "%s", j->spec);
	rs->bits = j->bits;
	if (j->probe_unavailable || source_open(&src, j->spec, &e) != 0) {
		if (!j->probe_unavailable) {
			snprintf(rs->why, sizeof rs->why, "%.250s", e.msg);
			j->usage_error = j->named || e.code == ERR_USAGE;
		}
		/* its kind is known all the same: the report rows say it (a
		 * probed source's came with its probe, audit_job_prepare()) */
		if (!j->probe_unavailable)
			rs->kind_known = source_describe(j->spec, &rs->info) == 0;
		if (rs->kind_known)
			classify_source(&rs->info, j->kernel, rs->kind_basis, sizeof rs->kind_basis);
		goto decide;
	}
	rs->available = 1;
	rs->info = *source_get_info(src);
	/* decided once, before the health tests take their claim from it */
	classify_source(&rs->info, j->kernel, rs->kind_basis, sizeof rs->kind_basis);
	policy_for(j->policy, rs->info.name, &pol);
	rs->required = policy_is_required(j->policy, rs->info.name);

	rc = rs->info.sample_bits ? audit_collect_wide(j, src, &hm, &buf, &e)
				  : audit_collect_bytes(j, src, &hm, &buf, &e);
	source_get_counters(src, &rs->counters);
	if (rc != 0)
		goto decide;
	health_monitor_results(hm, &rs->health);
	rs->health_ran = 1;

	if (rs->stats.interrupted) {
		snprintf(j->est_skipped, sizeof j->est_skipped, "interrupted before the estimators ran");
	} else if (buf.n == 0) {
		snprintf(j->est_skipped, sizeof j->est_skipped, "no samples");
	} else {
		struct noniid_opts no;
		double t0 = audit_now();
		audit_state(j, AUDIT_ASSESSING);
		noniid_opts_init(&no);
		no.bits = j->bits;
		no.threads = 1;       /* one thread per source already */
		no.stop = j->stop;   /* Ctrl-C waits for one estimator, not all */
		if ((rc = noniid_assess(buf.data, buf.n, &no, &rs->est, &e)) == 0) {
			rs->est_ran = 1;
			rs->ideal_known = baseline_lookup(rs->est.bits, rs->est.n, &rs->ideal) == 0;
		}
		else
			snprintf(j->est_skipped, sizeof j->est_skipped, "%.150s", e.msg);
		if (rc == ERR_INTERRUPTED)
			rs->stats.interrupted = 1;   /* the reports are partial: no figure */
		rs->est_seconds = audit_now() - t0;
	}

decide:
	audit_state(j, AUDIT_DONE);
	/* A source that opened and gave nothing (an empty file named with
	 * --source, a device at its end) is bad input or an operational error:
	 * exit 2, as every other command says of the same input. */
	if (rs->available && rs->samples == 0 && !rs->stats.interrupted) {
		j->usage_error = 1;
		snprintf(rs->why, sizeof rs->why, "%.200s: no samples (%s)",
			 rs->info.device[0] ? rs->info.device : rs->info.spec,
			 rs->stats.eof ? "empty input" : "the source failed");
	}
	if (rs->available)
		/* a stand-in (sim as=rdseed) meets the table as the real source */
		nq = quirks_match(j->quirks, j->cpu, rs->info.simulated && rs->info.as[0] ? rs->info.as : rs->info.name,
				  rs->info.word_bits, qm, QUIRK_MATCH_MAX);
	vin.info = rs->available ? &rs->info : NULL;
	vin.counters = rs->available ? &rs->counters : NULL;
	vin.health = rs->health_ran ? &rs->health : NULL;
	vin.est = rs->est_ran ? &rs->est : NULL;
	vin.est_skipped = j->est_skipped;
	vin.policy = j->policy;
	vin.pol = &pol;
	if (!rs->available)
		policy_for(j->policy, "default", &pol);
	vin.quirks = qm;
	vin.nquirks = nq;
	vin.samples = rs->samples;
	vin.bits = j->bits;
	vin.unavailable = !rs->available;
	vin.unavailable_why = rs->why;
	vin.source_error = j->source_error[0] ? j->source_error : NULL;
	vin.partial = rs->stats.interrupted;
	verdict_decide(&vin, &rs->verdict);
	if (j->translation[0]) {
		char text[VERDICT_TEXT_MAX];
		snprintf(text, sizeof text, "Wide raw samples reduced by %.300s; the figure is for the "
			 "reduced symbols, a lower bound for the raw samples (SP 800-90B 6.4).",
			 j->translation);
		audit_add_info(&rs->verdict, "TRANSLATED", text);
	}
	if (rs->ideal_known) {
		char text[VERDICT_TEXT_MAX];
		snprintf(text, sizeof text, "An ideal %u-bit source of %llu samples scores at least %.4f bits "
			 "per sample in the estimators (mean %.4f over %u simulated runs, 0.1%% quantile: their "
			 "downward bias); this one scored %.4f.", rs->ideal.bits,
			 (unsigned long long)rs->ideal.n, rs->ideal.low, rs->ideal.mean, rs->ideal.runs,
			 rs->est.h_assessed);
		audit_add_info(&rs->verdict, "IDEAL_BASELINE", text);
	}
	if (rs->est_ran && buf.n < rs->samples) {
		char text[VERDICT_TEXT_MAX];
		snprintf(text, sizeof text, "The estimators assessed the first %zu of the %llu samples: more "
			 "would not fit in memory (a quarter of physical memory at %d bytes a sample, "
			 "shared by the sources audited at once); the health tests saw them all.",
			 buf.n, (unsigned long long)rs->samples, SAMPLES_ESTIMATOR_BYTES);
		audit_add_info(&rs->verdict, "SAMPLES_CAPPED", text);
	} else if (rs->est_ran && !j->samples && j->keep_max && buf.n == j->keep_max && !rs->stats.eof) {
		char text[VERDICT_TEXT_MAX];
		snprintf(text, sizeof text, "Read the first %zu samples of the file only: more would not fit "
			 "in memory (a quarter of physical memory at %d bytes a sample, shared by the "
			 "sources audited at once).", buf.n, SAMPLES_ESTIMATOR_BYTES);
		audit_add_info(&rs->verdict, "SAMPLES_CAPPED", text);
	}
	if (rs->available && !audit_gates(j->policy, rs->info.name))
		audit_add_info(&rs->verdict, "INFORMATION_ONLY", "Measured for information: this "
			       "verdict sets the exit status only if the policy names the source "
			       "(e.g. claim.jitter, or required).");
	audit_job_trust(j);
	/* quirk matches point into the table, which outlives the report */
	if (hm)
		health_monitor_free(hm);
	membuf_free(&buf);
	if (src)
		source_close(src);
}

void *audit_job_thread(void *arg)
{
	audit_job_run(arg);
	return NULL;
}
