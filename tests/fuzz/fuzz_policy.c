/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_policy.c - libFuzzer target: the audit's policy file (`audit
 * --policy FILE`), the whole input as the file's text.
 *
 * An accepted policy must hold what the verdicts rely on: alpha in (0, 1),
 * every rate and floor in [0, 1], warn floors not under fail floors, at most
 * POLICY_SOURCES_MAX entries, and the alpha the audit echoes must read back
 * as the same value. */
#include "config.h"

#include "fuzz.h"

#include "audit/policy.h"

static int in01(double v)
{
	return v >= 0 && v <= 1;
}

static void check_policy(const struct policy *p)
{
	char buf[64];
	double back = 0;

	FUZZ_ASSERT(p->alpha > 0 && p->alpha < 1);
	FUZZ_ASSERT(p->nentries >= 1 && p->nentries <= POLICY_SOURCES_MAX);
	FUZZ_ASSERT(p->nrequired <= POLICY_SOURCES_MAX);
	FUZZ_ASSERT(strcmp(p->entries[0].name, "default") == 0);
	for (size_t i = 0; i < p->nentries; i++) {
		const struct policy_source *v = &p->entries[i].v;
		struct policy_source got;
		FUZZ_ASSERT(v->claim > 0 && v->claim <= 1);
		FUZZ_ASSERT(in01(v->fail_below) && in01(v->warn_below) && v->warn_below >= v->fail_below);
		FUZZ_ASSERT(in01(v->warn_underflow_rate) && in01(v->fail_underflow_rate) &&
			    v->warn_underflow_rate <= v->fail_underflow_rate);
		FUZZ_ASSERT(v->exhausted_fails == 0 || v->exhausted_fails == 1);
		policy_for(p, p->entries[i].name, &got);
		FUZZ_ASSERT(memcmp(&got, v, sizeof got) == 0);
	}
	/* The alpha the reports print reads back as the same value. */
	policy_format_alpha(p->alpha, buf, sizeof buf);
	FUZZ_ASSERT(policy_parse_alpha(buf, &back) == 0);
	FUZZ_ASSERT(back == p->alpha);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy p;
	struct err e;

	policy_defaults(&p);
	if (policy_parse(&p, (const char *)data, size, "fuzz", &e) == 0)
		check_policy(&p);
	else
		FUZZ_ASSERT(e.code == ERR_DATA && e.msg[0]);
	return 0;
}
