/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health_monitor.c - the SP 800-90B 4.4 health tests and the native-word
 * checks as one engine sink (see health_monitor.h). */
#include "config.h"

#include "health/health_monitor.h"
#include "health/proportion.h"
#include "engine/samples.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct health_monitor {
	struct health_monitor_config cfg;
	struct health_budget budget;
	struct health h;
	struct proportion prop;
	struct wordcheck w;
	int words_on;
	uint64_t failures;
	struct sink sink;
};

void health_monitor_default_entropy(enum source_kind kind, unsigned bits, double raw_claim,
				    double *entropy, const char **why)
{
	switch (kind) {
	case SOURCE_DRBG:
		*entropy = bits;
		*why = "DRBG output: full entropy";
		return;
	case SOURCE_CONDITIONED:
		*entropy = bits;
		*why = "conditioned output: full entropy, as Intel and AMD specify RDSEED";
		return;
	default:
		if (!(raw_claim > 0) || raw_claim > 1)
			raw_claim = HEALTH_RAW_CLAIM_DEFAULT;
		*entropy = raw_claim * bits;
		*why = raw_claim == HEALTH_RAW_CLAIM_DEFAULT
		     ? "raw or unknown source: the policy's claim, 0.5 bit per bit"
		     : "raw or unknown source: the policy's claim";
		return;
	}
}

static int monitor_push(struct sink *sk, const struct block *b, struct err *e)
{
	struct health_monitor *m = sk->ctx;
	uint64_t f;

	if (m->cfg.nist_format) {
		size_t bad = samples_first_wide(b->samples, b->n, m->cfg.bits);
		if (bad < b->n)
			return err_set(e, ERR_DATA, "%s: sample %" PRIu64 " is %u, not below 2^%u "
				       "(NIST format, %u-bit samples)",
				       m->cfg.what ? m->cfg.what : "input", b->first_index + bad,
				       b->samples[bad], m->cfg.bits, m->cfg.bits);
	} else if (b->bits != m->cfg.bits) {
		return err_set(e, ERR_INTERNAL, "health tests set up for %u-bit samples got %u-bit ones",
			       m->cfg.bits, b->bits);
	}
	f = health_push(&m->h, b->samples, b->n);
	f += proportion_push(&m->prop, b->samples, b->n);
	if (m->words_on)
		f += wordcheck_push(&m->w, b->raw, b->raw_len);
	m->failures += f;
	return m->cfg.stop_on_failure && m->failures ? 1 : 0;
}

static int words_checked(const struct health_monitor_config *c)
{
	return !c->nist_format && (c->word_bits == 16 || c->word_bits == 32 || c->word_bits == 64);
}

int health_monitor_new(struct health_monitor **out, const struct health_monitor_config *c,
		       struct err *e)
{
	struct health_monitor *m;
	struct health_params hp = { 0 };
	double entropy = c->entropy;
	int words = words_checked(c);
	int rc;

	*out = NULL;
	if (c->bits < 1 || c->bits > 8)
		return err_set(e, ERR_USAGE, "bits per sample %u is outside 1..8", c->bits);
	m = calloc(1, sizeof *m);
	if (!m)
		return err_set(e, ERR_NOMEM, "health tests: out of memory");
	m->cfg = *c;
	if (entropy == 0)
		health_monitor_default_entropy(c->kind, c->bits, c->raw_claim, &entropy,
					       &m->cfg.entropy_why);
	else if (!m->cfg.entropy_why)
		m->cfg.entropy_why = "given";
	m->cfg.entropy = entropy;
	if (m->cfg.alpha == 0)
		m->cfg.alpha = HEALTH_ALPHA_DEFAULT;
	if (m->cfg.run_samples == 0)
		m->cfg.run_samples = HEALTH_RUN_SAMPLES_UNKNOWN;
	if ((rc = health_budget_init(&m->budget, c->scope, m->cfg.alpha, m->cfg.run_samples, c->bits,
				     words ? c->word_bits : 0, e)))
		goto fail;
	hp.bits = c->bits;
	hp.entropy = entropy;
	hp.alpha = m->budget.rct_fail;
	hp.apt_alpha = m->budget.apt_fail;
	hp.rct_alarm_alpha = m->budget.rct_alarm;
	hp.apt_alarm_alpha = m->budget.apt_alarm;
	/* run scope bounds the real window statistic (health.h); 90B's literal
	 * form stays for the per-window meaning */
	hp.apt_exact = c->scope == HEALTH_SCOPE_RUN;
	hp.on_event = c->on_failure;
	hp.event_ctx = c->cb_ctx;
	if ((rc = health_init(&m->h, &hp, e)))
		goto fail;
	if ((rc = proportion_init(&m->prop, c->bits, entropy, m->budget.prop_fail,
				  m->budget.prop_alarm, c->on_failure, c->cb_ctx, e)))
		goto fail;
	if (words) {
		/* a word of w bits holds w/K samples of H bits each */
		struct wordcheck_params wp = {
			.word_bits = c->word_bits,
			.entropy = entropy * c->word_bits / c->bits,
			.alpha = m->budget.per_test,
			.run_words = c->scope == HEALTH_SCOPE_RUN ? m->budget.words : 0,
			.window = 0,
			.on_event = c->on_failure,
			.event_ctx = c->cb_ctx,
		};
		if (wp.entropy > c->word_bits)
			wp.entropy = c->word_bits;
		if ((rc = wordcheck_init(&m->w, &wp, e)))
			goto fail;
		m->words_on = 1;
	}
	m->sink.name = "health";
	m->sink.push = monitor_push;
	m->sink.finish = NULL;
	m->sink.ctx = m;
	*out = m;
	return 0;
fail:
	free(m);
	return rc;
}

void health_monitor_free(struct health_monitor *m)
{
	if (!m)
		return;
	if (m->words_on)
		wordcheck_free(&m->w);
	free(m);
}

struct sink *health_monitor_sink(struct health_monitor *m)
{
	return &m->sink;
}

void health_monitor_results(const struct health_monitor *m, struct health_monitor_results *r)
{
	memset(r, 0, sizeof *r);
	r->bits = m->cfg.bits;
	r->entropy = m->cfg.entropy;
	r->entropy_why = m->cfg.entropy_why;
	r->alpha = m->cfg.alpha;
	r->samples = m->h.samples;
	health_rct_result(&m->h, &r->rct);
	health_apt_result(&m->h, &r->apt);
	proportion_result(&m->prop, &r->prop);
	r->budget = m->budget;
	r->startup = health_startup_status(&m->h);
	r->failures = r->rct.failures + r->apt.failures + r->prop.failures;
	r->alarms = r->rct.alarms + r->apt.alarms + r->prop.alarms;
	r->expected_alarms = r->rct.expected_alarms + r->apt.expected_alarms +
			     r->prop.expected_alarms;
	r->beyond_horizon = m->cfg.scope == HEALTH_SCOPE_RUN && r->samples > m->budget.samples;
	r->first_failure = r->rct.first_failure < r->apt.first_failure ? r->rct.first_failure
								       : r->apt.first_failure;
	if (r->prop.first_failure < r->first_failure)
		r->first_failure = r->prop.first_failure;
	if (m->words_on) {
		r->words_checked = 1;
		wordcheck_results(&m->w, &r->words);
		r->failures += r->words.failures;
	}
}
