/* SPDX-License-Identifier: GPL-3.0-or-later */
/* policy.c - the audit's gating policy: built-in defaults and a strict
 * key=value parser (data/policy.default documents every key and value). */
#include "config.h"

#include "audit/policy.h"
#include "input.h"
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health/health.h"
#include "health/health_monitor.h"

/* The same alpha as collect and health (one rule for defaults): 2^-20, the
 * probability that a source meeting its claim fails the health tests
 * anywhere in its audit run (health/budget.h scales each test's cutoffs to
 * the run's length, so a longer run no longer raises more false alarms). */
#define POLICY_ALPHA_DEFAULT HEALTH_ALPHA_DEFAULT
/* Under 10^4 samples the estimators' 99% bounds are wide enough that a
 * verdict says little (MCV alone loses ~0.4 bit at K = 8). */
#define POLICY_MIN_SAMPLES_DEFAULT 10000u
/* 90B 3.1.1: at least 1,000,000 samples for an assessment. */
#define POLICY_NIST_SAMPLES 1000000u

static struct policy_entry *policy_entry_get(struct policy *p, const char *name, int create)
{
	for (size_t i = 0; i < p->nentries; i++)
		if (strcmp(p->entries[i].name, name) == 0)
			return &p->entries[i];
	if (!create || p->nentries == POLICY_SOURCES_MAX)
		return NULL;
	struct policy_entry *en = &p->entries[p->nentries++];
	memset(en, 0, sizeof *en);
	snprintf(en->name, sizeof en->name, "%s", name);
	en->v = p->entries[0].v;   /* unset keys inherit "default" */
	return en;
}

static void policy_set_source(struct policy *p, const char *name, double claim, double fail_below,
			      double warn_below, double warn_uf, double fail_uf, int exhausted_fails)
{
	struct policy_entry *en = policy_entry_get(p, name, 1);
	en->v.claim = claim;
	en->v.fail_below = fail_below;
	en->v.warn_below = warn_below;
	en->v.warn_underflow_rate = warn_uf;
	en->v.fail_underflow_rate = fail_uf;
	en->v.exhausted_fails = exhausted_fails;
	en->set = 0;
	en->builtin = 1;
}

void policy_defaults(struct policy *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->origin, sizeof p->origin, "built-in defaults");
	p->alpha = POLICY_ALPHA_DEFAULT;
	p->min_samples = POLICY_MIN_SAMPLES_DEFAULT;
	p->nist_samples = POLICY_NIST_SAMPLES;
	p->nentries = 0;
	/* Raw or unknown sources: a claim of half a bit per bit for the health
	 * tests; floors well under what ideal data of 10^4..10^6 samples gets
	 * (see data/policy.default for the measured values). */
	policy_set_source(p, "default", 0.5, 0.25, 0.5, 0.01, 0.5, 0);
	/* DRBG output (90B treats it as full entropy in the health tests).  Its
	 * floors only catch gross defects: ideal data at K = 1 and 10^4 samples
	 * assesses at 0.59-0.66 per bit, so warn under 0.55, fail under 0.4. */
	policy_set_source(p, "rdrand", 1.0, 0.4, 0.55, 1e-6, 1e-3, 1);
	policy_set_source(p, "getrandom", 1.0, 0.4, 0.55, 1e-6, 1e-3, 1);
	/* RDSEED: CF=0 is normal under load (Intel DRNG guide: retry after a
	 * PAUSE); on this project's VM 75% of calls underflowed with nothing
	 * else running.  Only a source starved nearly always warns or fails. */
	policy_set_source(p, "rdseed", 1.0, 0.4, 0.55, 0.9, 0.999, 0);
	/* The other architectures' CPU RNGs (issue 27), by how they fail:
	 * RNDR (DRBG), darn (Linux gives it 10 tries, as Intel's guide gives
	 * RDRAND) and PRNO-TRNG (no failure indication at all) should practically
	 * never fail: RDRAND's rates.  RNDRRS reseeds on every read and the Zkr
	 * seed CSR says WAIT whenever it is polled faster than its source fills:
	 * failures are normal under load, RDSEED's rates. */
	policy_set_source(p, "rndr", 1.0, 0.4, 0.55, 1e-6, 1e-3, 1);
	policy_set_source(p, "darn", 1.0, 0.4, 0.55, 1e-6, 1e-3, 1);
	policy_set_source(p, "trng", 1.0, 0.4, 0.55, 1e-6, 1e-3, 1);
	policy_set_source(p, "rndrrs", 1.0, 0.4, 0.55, 0.9, 0.999, 0);
	policy_set_source(p, "seed", 0.5, 0.25, 0.5, 0.9, 0.999, 0);
	/* jitter: raw timing noise reduced to 8-bit symbols.  jitterentropy
	 * credits 1/3 bit per time delta (its default oversampling rate 3), so
	 * the health tests claim that, 1/24 per bit of an 8-bit symbol; under it
	 * the source fails, under 1 bit per delta (1/8 per bit) it warns.  These
	 * built-in values do not make it gate the exit status (see cmd_audit). */
	policy_set_source(p, "jitter", 1.0 / 24, 1.0 / 24, 1.0 / 8, 0.01, 0.5, 0);
	p->nrequired = 1;
	snprintf(p->required[0], sizeof p->required[0], "getrandom");
}

/* 2^-1000 is already far below any rate a test could observe; the bound
 * keeps the exponent an int and the value a normal double (the options'
 * floor too: parse.h). */
#define POLICY_ALPHA_EXP_MIN PARSE_ALPHA_EXP_MIN

int policy_parse_alpha(const char *text, double *out)
{
	char *end;
	double v;

	if (strncmp(text, "2^", 2) == 0) {
		const char *t = text + 2;
		int paren = *t == '(';
		long exp;
		if (paren)
			t++;
		errno = 0;
		exp = strtol(t, &end, 10);
		if (errno || end == t || exp >= 0 || exp < POLICY_ALPHA_EXP_MIN)
			return -1;
		if (paren && *end++ != ')')
			return -1;
		if (*end)
			return -1;
		*out = ldexp(1.0, (int)exp);
		return 0;
	}
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !(v >= ldexp(1.0, POLICY_ALPHA_EXP_MIN) && v < 1))
		return -1;
	*out = v;
	return 0;
}

/* What the reports print must read back as the same alpha: "%g" alone
 * printed 0.9999999 as "1" (which the policy refuses) and 2^-1010 as a power
 * the parser does not take.  So: 2^N where policy_parse_alpha() takes it,
 * else the fewest significant digits (6 at least, 17 always suffice for a
 * double) that give the value back. */
const char *policy_format_alpha(double alpha, char *buf, size_t len)
{
	int exp;
	double m = frexp(alpha, &exp);
	if (m == 0.5 && exp <= 0 && exp - 1 >= POLICY_ALPHA_EXP_MIN) {
		snprintf(buf, len, "2^%d", exp - 1);
		return buf;
	}
	for (int digits = 6; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, alpha);
		if (strtod(buf, NULL) == alpha)
			break;
	}
	return buf;
}

static int parse_real(const char *text, double lo, double hi, double *out)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_count(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= POLICY_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return 0;
	return 1;
}

static char *trim(char *s)
{
	char *end;
	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* The per-source keys: name, bit, range. */
static const struct {
	const char *key;
	unsigned bit;
	double lo, hi;
} source_keys[] = {
	{ "claim", POLICY_SET_CLAIM, 0, 1 },
	{ "fail_below", POLICY_SET_FAIL_BELOW, 0, 1 },
	{ "warn_below", POLICY_SET_WARN_BELOW, 0, 1 },
	{ "warn_underflow_rate", POLICY_SET_WARN_UNDERFLOW, 0, 1 },
	{ "fail_underflow_rate", POLICY_SET_FAIL_UNDERFLOW, 0, 1 },
	{ "exhausted_fails", POLICY_SET_EXHAUSTED, 0, 1 },
};
#define NSOURCE_KEYS (sizeof source_keys / sizeof source_keys[0])

static void entry_store(struct policy_entry *en, unsigned bit, double v)
{
	switch (bit) {
	case POLICY_SET_CLAIM: en->v.claim = v; break;
	case POLICY_SET_FAIL_BELOW: en->v.fail_below = v; break;
	case POLICY_SET_WARN_BELOW: en->v.warn_below = v; break;
	case POLICY_SET_WARN_UNDERFLOW: en->v.warn_underflow_rate = v; break;
	case POLICY_SET_FAIL_UNDERFLOW: en->v.fail_underflow_rate = v; break;
	default: en->v.exhausted_fails = v != 0; break;
	}
	en->set |= bit;
}

static int parse_required(struct policy *p, char *val, const char *what, unsigned line,
			  struct err *e)
{
	char *save = NULL, *tok;
	p->nrequired = 0;
	for (tok = strtok_r(val, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok = trim(tok);
		if (!*tok)
			continue;
		if (!valid_name(tok))
			return err_set(e, ERR_DATA, "%s:%u: required: '%s' is not a source name", what, line, tok);
		if (p->nrequired == POLICY_SOURCES_MAX)
			return err_set(e, ERR_DATA, "%s:%u: required: more than %d sources", what, line,
				       POLICY_SOURCES_MAX);
		snprintf(p->required[p->nrequired++], POLICY_NAME_MAX, "%s", tok);
	}
	return 0;
}

/* KEY = keep | recommend-off, given once (bit in *seen_global). */
static int parse_stance(const char *key, const char *val, unsigned bit, int *off, unsigned *seen_global,
			const char *what, unsigned line, struct err *e)
{
	if (*seen_global & bit)
		return err_set(e, ERR_DATA, "%s:%u: %s given twice", what, line, key);
	*seen_global |= bit;
	if (strcmp(val, "keep") == 0)
		*off = 0;
	else if (strcmp(val, "recommend-off") == 0)
		*off = 1;
	else
		return err_set(e, ERR_DATA, "%s:%u: %s: '%s' is not keep or recommend-off", what, line, key, val);
	return 0;
}

static int parse_line(struct policy *p, char *s, const char *what, unsigned line, unsigned *seen_global,
		      struct err *e)
{
	char *eq = strchr(s, '='), *key, *val, *dot;
	double v;

	if (!eq)
		return err_set(e, ERR_DATA, "%s:%u: expected KEY = VALUE, got '%.60s'", what, line, s);
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (!*key)
		return err_set(e, ERR_DATA, "%s:%u: missing key before '='", what, line);
	if (!*val && strcmp(key, "required") != 0)
		return err_set(e, ERR_DATA, "%s:%u: %s: missing value", what, line, key);

	/* The stances, keep or recommend-off: trust_cpu_on_pass, on a CPU RNG
	 * that passed (a distribution that distrusts on principle: statistics
	 * cannot exclude a keyed backdoor); drbg_hwrng, on an hwrng whose
	 * driver passes on DRBG output (virtio-rng: the statistics can neither
	 * support nor refute its credit, so keeping it is the default). */
	if (strcmp(key, "trust_cpu_on_pass") == 0)
		return parse_stance(key, val, 8u, &p->trust_cpu_on_pass_off, seen_global, what, line, e);
	if (strcmp(key, "drbg_hwrng") == 0)
		return parse_stance(key, val, 16u, &p->drbg_hwrng_off, seen_global, what, line, e);
	if (strcmp(key, "alpha") == 0 || strcmp(key, "min_samples") == 0 || strcmp(key, "required") == 0) {
		unsigned bit = key[0] == 'a' ? 1u : key[0] == 'm' ? 2u : 4u;
		if (*seen_global & bit)
			return err_set(e, ERR_DATA, "%s:%u: %s given twice", what, line, key);
		*seen_global |= bit;
		if (bit == 1u) {
			if (policy_parse_alpha(val, &p->alpha) != 0)
				return err_set(e, ERR_DATA, "%s:%u: alpha: '%s' is not 2^-N or a number in " PARSE_ALPHA_RANGE,
					       what, line, val);
			return 0;
		}
		if (bit == 2u) {
			if (parse_count(val, &p->min_samples) != 0)
				return err_set(e, ERR_DATA, "%s:%u: min_samples: '%s' is not a whole number",
					       what, line, val);
			return 0;
		}
		return parse_required(p, val, what, line, e);
	}

	dot = strchr(key, '.');
	if (dot)
		*dot = '\0';
	for (size_t i = 0; i < NSOURCE_KEYS; i++) {
		struct policy_entry *en;
		const char *src = dot ? dot + 1 : "default";
		if (strcmp(key, source_keys[i].key) != 0)
			continue;
		if (!valid_name(src))
			return err_set(e, ERR_DATA, "%s:%u: %s.%s: '%s' is not a source name", what, line, key,
				       src, src);
		if (parse_real(val, source_keys[i].lo, source_keys[i].hi, &v) != 0)
			return err_set(e, ERR_DATA, "%s:%u: %s: '%s' is not a number in [%g, %g]", what, line,
				       key, val, source_keys[i].lo, source_keys[i].hi);
		if (source_keys[i].bit == POLICY_SET_CLAIM && v <= 0)
			return err_set(e, ERR_DATA, "%s:%u: claim: must be > 0 (the health tests need H > 0)",
				       what, line);
		if (source_keys[i].bit == POLICY_SET_EXHAUSTED && v != 0 && v != 1)
			return err_set(e, ERR_DATA, "%s:%u: exhausted_fails: '%s' must be 0 or 1", what, line, val);
		en = policy_entry_get(p, src, 1);
		if (!en)
			return err_set(e, ERR_DATA, "%s:%u: more than %d sources named", what, line,
				       POLICY_SOURCES_MAX);
		if (en->set & source_keys[i].bit)
			return err_set(e, ERR_DATA, "%s:%u: %s.%s given twice", what, line, key, src);
		entry_store(en, source_keys[i].bit, v);
		return 0;
	}
	return err_set(e, ERR_DATA, "%s:%u: unknown key '%s%s%s' (see rngaudit-audit(1), POLICY FILE)",
		       what, line, key, dot ? "." : "", dot ? dot + 1 : "");
}

int policy_parse(struct policy *p, const char *text, size_t len, const char *what, struct err *e)
{
	unsigned line = 0, seen_global = 0;
	size_t pos = 0;
	char buf[1024];
	int rc;

	while (pos < len) {
		size_t end = pos, n;
		char *s, *hash;
		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		line++;
		if (n >= sizeof buf)
			return err_set(e, ERR_DATA, "%s:%u: line longer than %zu bytes", what, line, sizeof buf - 1);
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos = end + 1;
		if (memchr(buf, '\0', n))
			return err_set(e, ERR_DATA, "%s:%u: NUL byte in a text file", what, line);
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		s = trim(buf);
		if (!*s)
			continue;
		if ((rc = parse_line(p, s, what, line, &seen_global, e)) != 0)
			return rc;
	}
	/* A source the file names without built-in values takes every key it
	 * does not give from "default", wherever in the file that was set. */
	for (size_t i = 1; i < p->nentries; i++) {
		struct policy_entry *en = &p->entries[i];
		struct policy_source d = p->entries[0].v;
		if (en->builtin)
			continue;
		if (!(en->set & POLICY_SET_CLAIM)) en->v.claim = d.claim;
		if (!(en->set & POLICY_SET_FAIL_BELOW)) en->v.fail_below = d.fail_below;
		if (!(en->set & POLICY_SET_WARN_BELOW)) en->v.warn_below = d.warn_below;
		if (!(en->set & POLICY_SET_WARN_UNDERFLOW)) en->v.warn_underflow_rate = d.warn_underflow_rate;
		if (!(en->set & POLICY_SET_FAIL_UNDERFLOW)) en->v.fail_underflow_rate = d.fail_underflow_rate;
		if (!(en->set & POLICY_SET_EXHAUSTED)) en->v.exhausted_fails = d.exhausted_fails;
	}
	/* A floor for warnings under the one for failures would never warn. */
	for (size_t i = 0; i < p->nentries; i++) {
		const struct policy_entry *en = &p->entries[i];
		if (en->v.warn_below < en->v.fail_below)
			return err_set(e, ERR_DATA, "%s: %s: warn_below (%g) is under fail_below (%g)", what,
				       en->name, en->v.warn_below, en->v.fail_below);
		if (en->v.warn_underflow_rate > en->v.fail_underflow_rate)
			return err_set(e, ERR_DATA, "%s: %s: warn_underflow_rate (%g) is above fail_underflow_rate (%g)",
				       what, en->name, en->v.warn_underflow_rate, en->v.fail_underflow_rate);
	}
	snprintf(p->origin, sizeof p->origin, "%s", what);
	return 0;
}

int policy_load(struct policy *p, const char *path, struct err *e)
{
	char *text;
	size_t len;
	int rc = input_read_all(path, "policy", POLICY_MAX_BYTES, &text, &len, e);
	if (rc != 0)
		return rc;
	rc = policy_parse(p, text, len, path, e);
	free(text);
	return rc;
}

void policy_for(const struct policy *p, const char *source, struct policy_source *out)
{
	for (size_t i = 0; i < p->nentries; i++)
		if (strcmp(p->entries[i].name, source) == 0) {
			*out = p->entries[i].v;
			return;
		}
	*out = p->entries[0].v;
}

int policy_is_required(const struct policy *p, const char *source)
{
	for (size_t i = 0; i < p->nrequired; i++)
		if (strcmp(p->required[i], source) == 0)
			return 1;
	return 0;
}

void policy_apply_claim(const struct policy *p, const char *source, unsigned bits,
			struct health_monitor_config *c)
{
	struct policy_source ps;
	policy_for(p, source, &ps);
	c->raw_claim = ps.claim;
	if (c->entropy > 0)
		return;
	for (size_t i = 0; i < p->nentries; i++)
		if (strcmp(p->entries[i].name, source) == 0 &&
		    (p->entries[i].set & POLICY_SET_CLAIM)) {
			c->entropy = ps.claim * bits;
			c->entropy_why = "the policy's claim for this source";
		}
}
