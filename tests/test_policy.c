/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_policy.c - the audit policy parser (src/policy.c) and the quirk table
 * (src/quirks.c): defaults, data/policy.default, strict FILE:LINE errors,
 * and matching CPUs against data/quirks.txt. */
#include "config.h"

#include <string.h>

#include "audit/policy.h"
#include "audit/quirks.h"
#include "tap.h"

static int parse(struct policy *p, const char *text, struct err *e)
{
	policy_defaults(p);
	return policy_parse(p, text, strlen(text), "t.policy", e);
}

/* A bad line must fail with ERR_DATA and a message naming t.policy:LINE. */
static void bad(const char *text, const char *want, const char *name)
{
	struct policy p;
	struct err e;
	int rc = parse(&p, text, &e);
	if (!tap_ok(rc == ERR_DATA && strstr(e.msg, want) != NULL, "%s", name))
		printf("# rc %d, message \"%s\", want it to contain \"%s\"\n", rc, rc ? e.msg : "", want);
}

static void test_defaults(void)
{
	struct policy p, f;
	struct policy_source s;
	struct err e;
	const char *names[] = { "default", "rdrand", "rdseed", "getrandom", "hwrng", "sim" };
	int same = 1;

	policy_defaults(&p);
	tap_near(p.alpha, 0x1p-20, 0, "default alpha is 2^-20 over the run, as collect and health");
	tap_eq_long((long long)p.min_samples, 10000, "default min_samples 10000");
	tap_eq_long((long long)p.nist_samples, 1000000, "90B 3.1.1 sample count 10^6");
	tap_ok(policy_is_required(&p, "getrandom") && !policy_is_required(&p, "rdrand"),
	       "getrandom is required by default, rdrand is not");
	policy_for(&p, "hwrng", &s);
	tap_near(s.claim, 0.5, 0, "hwrng falls back to the default claim 0.5 per bit");
	policy_for(&p, "rdrand", &s);
	tap_ok(s.claim == 1.0 && s.exhausted_fails == 1, "rdrand: full-entropy claim, exhausted retries fail");

	/* data/policy.default documents the built-in values: they must agree. */
	policy_defaults(&f);
	if (!tap_ok(policy_load(&f, tap_srcpath("data/policy.default"), &e) == 0,
		    "data/policy.default parses"))
		printf("# %s\n", e.msg);
	tap_near(f.alpha, p.alpha, 0, "data/policy.default alpha = built-in");
	tap_ok(f.min_samples == p.min_samples && f.nrequired == p.nrequired &&
	       strcmp(f.required[0], p.required[0]) == 0, "data/policy.default min_samples and required = built-in");
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct policy_source a, b;
		policy_for(&p, names[i], &a);
		policy_for(&f, names[i], &b);
		if (memcmp(&a, &b, sizeof a) != 0) {
			same = 0;
			printf("# %s differs\n", names[i]);
		}
	}
	tap_ok(same, "data/policy.default per-source values = built-in");
}

static void test_parse(void)
{
	struct policy p;
	struct policy_source s;
	struct err e;
	char buf[32];
	double x = 0;

	tap_ok(parse(&p, "# comment\n\n  alpha = 2^-20  # trailing\nmin_samples=5000\r\n", &e) == 0,
	       "comments, blanks, spaces and CRLF accepted");
	tap_near(p.alpha, 0x1p-20, 0, "alpha 2^-20 parsed");
	tap_eq_long((long long)p.min_samples, 5000, "min_samples parsed");
	tap_ok(parse(&p, "alpha = 1e-6\n", &e) == 0 && p.alpha == 1e-6, "alpha as a decimal");
	tap_ok(parse(&p, "alpha = 2^(-40)\n", &e) == 0 && p.alpha == 0x1p-40, "alpha as 2^(-40)");
	tap_eq_str(policy_format_alpha(0x1p-30, buf, sizeof buf), "2^-30", "2^-30 formats as a power of two");
	tap_eq_str(policy_format_alpha(1e-6, buf, sizeof buf), "1e-06", "1e-6 formats as %g");
	/* Found by tests/fuzz/fuzz_policy.c: "%g" gave "1", which no policy takes. */
	tap_eq_str(policy_format_alpha(0.9999999, buf, sizeof buf), "0.9999999",
		   "0.9999999 formats with the digits it needs to read back");
	tap_eq_str(policy_format_alpha(0x1p-1010, buf, sizeof buf), "9.113902524445497e-305",
		   "2^-1010 (beyond 2^-1000) formats as a decimal that reads back");
	tap_ok(policy_parse_alpha(policy_format_alpha(0x1p-1000, buf, sizeof buf), &x) == 0 &&
	       x == 0x1p-1000, "2^-1000 formats as 2^-1000 and reads back");

	tap_ok(parse(&p, "claim.hwrng = 0.25\nclaim = 0.75\n", &e) == 0, "per-source and default keys");
	policy_for(&p, "hwrng", &s);
	tap_near(s.claim, 0.25, 0, "claim.hwrng overrides");
	policy_for(&p, "file", &s);
	tap_near(s.claim, 0.75, 0, "a source without a line takes the default");
	tap_ok(parse(&p, "warn_below.hwrng = 0.6\nfail_below = 0.3\n", &e) == 0, "keys in any order");
	policy_for(&p, "hwrng", &s);
	tap_ok(s.warn_below == 0.6 && s.fail_below == 0.3,
	       "a named source takes the default's later keys it does not set");
	policy_for(&p, "rdrand", &s);
	tap_near(s.fail_below, 0.4, 0, "built-in rdrand fail_below 0.4 stays when only the default changes");

	tap_ok(parse(&p, "required = rdrand, rdseed\n", &e) == 0 && p.nrequired == 2 &&
	       policy_is_required(&p, "rdseed") && !policy_is_required(&p, "getrandom"),
	       "required list replaces the default");
	tap_ok(parse(&p, "required =\n", &e) == 0 && p.nrequired == 0, "empty required list");
}

static void test_errors(void)
{
	bad("alpha = 2^-20\nfoo = 1\n", "t.policy:2: unknown key 'foo'", "unknown key names file:line");
	bad("claim.hwrng = 2\n", "t.policy:1: claim", "claim > 1 rejected");
	bad("claim = 0\n", "t.policy:1: claim: must be > 0", "claim 0 rejected (health tests need H > 0)");
	bad("\n\nalpha = 2\n", "t.policy:3: alpha", "alpha >= 1 rejected at line 3");
	bad("alpha = 2^-20\nalpha = 2^-30\n", "t.policy:2: alpha given twice", "repeated key rejected");
	bad("claim.rdrand = 1\nclaim.rdrand = 0.9\n", "t.policy:2: claim.rdrand given twice",
	    "repeated per-source key rejected");
	bad("just words\n", "t.policy:1: expected KEY = VALUE", "line without '=' rejected");
	bad("min_samples = -5\n", "t.policy:1: min_samples", "negative min_samples rejected");
	bad("warn_below.Hw = 0.5\n", "t.policy:1: warn_below.Hw", "bad source name rejected");
	bad("fail_below = 0.6\n", "warn_below (0.5) is under fail_below (0.6)", "warn floor under fail floor rejected");
	bad("exhausted_fails = 0.5\n", "exhausted_fails", "exhausted_fails must be 0 or 1");
	bad("claim = 0.5x\n", "t.policy:1: claim", "trailing junk in a number rejected");
}

static void test_quirks(void)
{
	struct quirk_table t;
	struct quirk_match m[QUIRK_MATCH_MAX];
	struct quirk_cpu zen5 = { "AuthenticAMD", 0x1a, 0x44, 0, 0x0b404032, 1 };
	struct quirk_cpu zen5_fixed = { "AuthenticAMD", 0x1a, 0x44, 0, 0x0b404035, 1 };
	struct quirk_cpu zen5_other = { "AuthenticAMD", 0x1a, 0x20, 0, 0x0b200001, 1 };
	struct quirk_cpu zen6 = { "AuthenticAMD", 0x1a, 0x50, 0, 0x0b500001, 1 };
	struct quirk_cpu cyan = { "AuthenticAMD", 0x17, 0x47, 0, 0x8407007, 1 };
	struct quirk_cpu cyan1 = { "AuthenticAMD", 0x17, 0x47, 1, 0x8407007, 1 };
	struct quirk_cpu zen5_noucode = { "AuthenticAMD", 0x1a, 0x02, 1, 0, 0 };
	struct quirk_cpu fam16 = { "AuthenticAMD", 0x16, 0x30, 1, 0x700010f, 1 };
	struct quirk_cpu matisse = { "AuthenticAMD", 0x17, 0x71, 0, 0x8701013, 1 };
	struct quirk_cpu intel = { "GenuineIntel", 6, 106, 6, 0xd0003f5, 1 };
	struct err e;
	size_t n;

	if (!tap_ok(quirks_load(&t, tap_srcpath("data/quirks.txt"), &e) == 0, "data/quirks.txt parses")) {
		printf("# %s\n", e.msg);
		return;
	}
	/* AMD-SB-7055: model 44h stepping 0 fixed in 0x0b404035 (Linux 607b9fb2ce24). */
	n = quirks_match(&t, &zen5, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && strcmp(m[0].q->id, "amd-zen5-rdseed") == 0 && m[0].q->severity == QUIRK_FAIL,
	       "Zen 5 44h/0 microcode 0x0b404032: RDSEED32 matches amd-zen5-rdseed (fail)");
	n = quirks_match(&t, &zen5_fixed, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_eq_long((long long)n, 0, "Zen 5 44h/0 at the fixed 0x0b404035: no advisory");
	n = quirks_match(&t, &zen5, "rdseed", 64, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && strcmp(m[0].q->id, "amd-zen5-rdseed-narrow") == 0 && m[0].q->severity == QUIRK_WARN,
	       "Zen 5 unfixed, RDSEED64: only the warning about the narrow forms");
	n = quirks_match(&t, &zen5, "rdrand", 64, m, QUIRK_MATCH_MAX);
	tap_eq_long((long long)n, 0, "Zen 5 RDRAND: no advisory");
	n = quirks_match(&t, &zen5_other, "rdseed", 16, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && m[0].q->severity == QUIRK_WARN, "Zen 5 model 20h without a known fix: warn");
	/* Linux's Zen 5 ranges are models 00h-2Fh, 40h-4Fh, 60h-7Fh
	 * (607b9fb2ce24); Zen 6 (50h-5Fh, 80h-AFh, C0h-CFh) is not affected */
	n = quirks_match(&t, &zen6, "rdseed", 16, m, QUIRK_MATCH_MAX);
	tap_eq_long((long long)n, 0, "Zen 6 (family 1Ah model 50h): no Zen 5 advisory");
	/* 5b937a1ed64e: family 17h model 47h stepping 0 only */
	n = quirks_match(&t, &cyan, "rdseed", 64, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && strcmp(m[0].q->id, "amd-cyan-skillfish-rdseed") == 0 && m[0].q->severity == QUIRK_FAIL,
	       "Cyan Skillfish (17h/47h stepping 0): RDSEED fails");
	n = quirks_match(&t, &cyan1, "rdseed", 64, m, QUIRK_MATCH_MAX);
	tap_eq_long((long long)n, 0, "17h/47h stepping 1: not the part Linux disables");
	n = quirks_match(&t, &zen5_noucode, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && m[0].microcode_unknown, "unreadable microcode: matched as 'may apply'");
	n = quirks_match(&t, &fam16, "rdrand", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && strcmp(m[0].q->id, "amd-fam15h16h-rdrand-resume") == 0,
	       "family 16h RDRAND: resume advisory");
	n = quirks_match(&t, &matisse, "rdrand", 64, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && m[0].q->severity == QUIRK_INFO, "Zen 2 Matisse RDRAND: AGESA note (info)");
	n = quirks_match(&t, &intel, "rdrand", 64, m, QUIRK_MATCH_MAX);
	tap_eq_long((long long)n, 0, "Intel Ice Lake: no advisory");
	quirks_free(&t);

	{
		const char *badq = "x AuthenticAMD 0x1a * * <0x10 rdseed 16,24 fail text\n";
		int rc = quirks_parse(&t, badq, strlen(badq), "q.txt", &e);
		tap_ok(rc == ERR_DATA && strstr(e.msg, "q.txt:1: widths") != NULL, "bad width names q.txt:1");
		badq = "# c\nx AuthenticAMD 0x1a * *\n";
		rc = quirks_parse(&t, badq, strlen(badq), "q.txt", &e);
		tap_ok(rc == ERR_DATA && strstr(e.msg, "q.txt:2: missing field") != NULL,
		       "short line names q.txt:2");
		{
			/* an advisory too long to keep whole is refused, not cut */
			static char longq[700];
			int len = snprintf(longq, sizeof longq, "x AuthenticAMD 0x1a * * * rdseed * fail ");
			memset(longq + len, 'a', 450);
			longq[len + 450] = '\n';
			rc = quirks_parse(&t, longq, strlen(longq), "q.txt", &e);
			tap_ok(rc == ERR_DATA && strstr(e.msg, "q.txt:1: a field is too long") != NULL,
			       "over-long advisory names q.txt:1 (%s)", e.msg);
		}
	}
}

/* Only the first line of an ID that matches the machine's identity counts:
 * later lines of that ID are its other cases, not further matches. */
static void test_quirks_first_line_of_id(void)
{
	static const char text[] =
		"x AuthenticAMD 0x1a 0x44 * 0x0-0x0b404034 rdseed * fail first\n"
		"y AuthenticAMD 0x1a * * * rdseed * info other id\n"
		"x AuthenticAMD 0x1a * * * rdseed * warn second line of x\n"
		"x GenuineIntel 0x6 * * * rdseed * warn x for another vendor\n";
	struct quirk_cpu zen5 = { "AuthenticAMD", 0x1a, 0x44, 0, 0x0b404032, 1 };
	struct quirk_cpu zen5_fixed = { "AuthenticAMD", 0x1a, 0x44, 0, 0x0b404035, 1 };
	struct quirk_cpu zen5_other = { "AuthenticAMD", 0x1a, 0x50, 0, 0x0b500001, 1 };
	struct quirk_cpu intel = { "GenuineIntel", 0x6, 0x55, 4, 0x1, 1 };
	struct quirk_match m[QUIRK_MATCH_MAX];
	struct quirk_table t;
	struct err e;
	size_t n;

	if (!tap_ok(quirks_parse(&t, text, strlen(text), "ids.txt", &e) == 0, "a table with repeated IDs parses"))
		return;
	n = quirks_match(&t, &zen5, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 2 && m[0].q->line == 1 && m[1].q->line == 2,
	       "model 44h, old microcode: x's first line and y match, x's second line does not");
	n = quirks_match(&t, &zen5_fixed, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && m[0].q->line == 2, "model 44h, fixed microcode: x is decided by its first line (fixed), only y");
	n = quirks_match(&t, &zen5_other, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 2 && m[0].q->line == 2 && m[1].q->line == 3,
	       "another model: x's first line does not match it, so x's second line counts");
	n = quirks_match(&t, &intel, "rdseed", 32, m, QUIRK_MATCH_MAX);
	tap_ok(n == 1 && m[0].q->line == 4, "another vendor: x's fourth line");
	quirks_free(&t);
}

int main(void)
{
	test_defaults();
	test_parse();
	test_errors();
	test_quirks();
	test_quirks_first_line_of_id();
	return tap_done();
}
