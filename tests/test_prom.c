/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_prom.c - the Prometheus textfiles (report/prom.c, health/health_prom.c)
 * and their format (report/promfmt.c) on edge cases a live audit rarely
 * gives: -0.0 figures (-log2(1) of a stuck source), NaN and infinities, an
 * unavailable source, no recommendation, unknown kernel settings, label
 * values that need escaping.  tests/prom_check.sh runs promtool on live
 * files. */
#include "config.h"

#include <unistd.h>

#include "health/health_prom.h"
#include "report/promfmt.h"
#include "report/report.h"
#include "tap.h"

static char tmpdir[] = "/tmp/rngaudit-prom-XXXXXX";

/* The file's text (static buffer). */
static const char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *fp = fopen(path, "r");
	size_t n = 0;
	buf[0] = 0;
	if (fp) {
		n = fread(buf, 1, sizeof buf - 1, fp);
		fclose(fp);
	}
	buf[n] = 0;
	return buf;
}

/* The exact line is in text. */
static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

/* What a value written by promfmt_value() looks like. */
static void value_str(double v, char *buf, size_t len)
{
	FILE *fp = fmemopen(buf, len, "w");
	promfmt_value(fp, v);
	fclose(fp);
}

/* The exposition-format rules promtool and node_exporter hold us to, line
 * by line: HELP then TYPE then the family's samples, every family with a
 * sample, no empty label value, no negative zero, a value strtod reads or
 * NaN/+Inf/-Inf, no timestamp, a final newline.  Returns the first broken
 * rule (NULL: none) and counts the families. */
static const char *check_format(const char *text, int *families)
{
	char fam[128] = "", helped[128] = "";
	int samples = 1;
	const char *p = text;

	*families = 0;
	if (!*text || text[strlen(text) - 1] != '\n')
		return "file ends with a newline";
	while (*p) {
		const char *end = strchr(p, '\n');
		char line[1024], *sp;
		size_t n = (size_t)(end - p);
		if (n >= sizeof line)
			return "line too long";
		memcpy(line, p, n);
		line[n] = 0;
		p = end + 1;
		if (strncmp(line, "# HELP ", 7) == 0) {
			if (!samples)
				return "a family without samples";
			sscanf(line + 7, "%127s", helped);
			continue;
		}
		if (strncmp(line, "# TYPE ", 7) == 0) {
			char type[32] = "";
			sscanf(line + 7, "%127s %31s", fam, type);
			if (strcmp(fam, helped) != 0)
				return "TYPE without HELP just before it";
			if (strcmp(type, "gauge") != 0 && strcmp(type, "counter") != 0)
				return "type is gauge or counter";
			if ((strcmp(type, "counter") == 0) != (strlen(fam) > 6 && strcmp(fam + strlen(fam) - 6, "_total") == 0))
				return "_total if and only if a counter";
			(*families)++;
			samples = 0;
			continue;
		}
		if (line[0] == '#')
			return "no other comments";
		if (strncmp(line, fam, strlen(fam)) != 0 || (line[strlen(fam)] != '{' && line[strlen(fam)] != ' '))
			return "a sample of the family last typed";
		if (strstr(line, "=\"\""))
			return "no empty label value";
		sp = strrchr(line, ' ');
		if (strcmp(sp + 1, "NaN") && strcmp(sp + 1, "+Inf") && strcmp(sp + 1, "-Inf")) {
			char *e;
			double v = strtod(sp + 1, &e);
			if (*e || e == sp + 1)
				return "a number, NaN, +Inf or -Inf";
			if (v == 0 && signbit(v))
				return "no negative zero";
		}
		if (!strchr(line, '}') && strchr(line, ' ') != sp)
			return "no timestamp";
		if (strchr(line, '}') && strchr(strrchr(line, '}'), ' ') != sp)
			return "no timestamp";
		samples++;
	}
	return samples ? NULL : "a family without samples";
}

static void test_values(void)
{
	char buf[64];

	value_str(-0.0, buf, sizeof buf);
	tap_eq_str(buf, "0", "-0.0 is written 0");
	value_str(-log2(1.0), buf, sizeof buf);
	tap_eq_str(buf, "0", "-log2(1) (a stuck source's estimate) is written 0");
	value_str(NAN, buf, sizeof buf);
	tap_eq_str(buf, "NaN", "NaN as the format spells it");
	value_str(INFINITY, buf, sizeof buf);
	tap_eq_str(buf, "+Inf", "+Inf");
	value_str(-INFINITY, buf, sizeof buf);
	tap_eq_str(buf, "-Inf", "-Inf");
	value_str(0.1, buf, sizeof buf);
	tap_eq_str(buf, "0.1", "0.1: the shortest digits that read back");
	value_str(9007199254740992.0, buf, sizeof buf);
	tap_eq_str(buf, "9007199254740992", "2^53 exactly");
	value_str(0.1 + 0.2, buf, sizeof buf);
	tap_ok(strtod(buf, NULL) == 0.1 + 0.2, "0.1 + 0.2 reads back exactly (%s)", buf);
	value_str(-2.5, buf, sizeof buf);
	tap_eq_str(buf, "-2.5", "negative values keep their sign");
}

static void test_family(void)
{
	char buf[512] = "";
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	struct promfmt_family f;

	promfmt_family(&f, fp, "x_empty", PROMFMT_GAUGE, "never sampled");
	promfmt_family(&f, fp, "x_total", PROMFMT_COUNTER, "help");
	promfmt_sample(&f, (const char *const[]){ "a", "q\"b\\s\nn", "b", "2", NULL }, 3);
	promfmt_sample(&f, NULL, 4);
	fclose(fp);
	tap_eq_str(buf, "# HELP x_total help\n# TYPE x_total counter\n"
			"x_total{a=\"q\\\"b\\\\s\\nn\",b=\"2\"} 3\nx_total 4\n",
		   "a family's head once, before its first sample; none for a family without samples; labels escaped");
}

/* One audit with every kind of source the writer distinguishes. */
static void test_audit(void)
{
	static struct report_source src[5];
	struct report_run r;
	struct err e;
	char path[300];
	const char *text, *why;
	int fams;

	memset(&r, 0, sizeof r);
	memset(src, 0, sizeof src);
	r.kernel.trust_cpu.state = KERNEL_UNKNOWN;
	r.kernel.hwrng_quality = -1;
	r.finished = 1796367965;
	r.seconds = 1.5;
	r.n = 5;
	r.src = src;

	/* a stuck raw source: every figure 0 or -0.0 */
	strcpy(src[0].requested, "sim:stuck");
	strcpy(src[0].info.spec, "sim:stuck");
	src[0].available = 1;
	src[0].info.kind = SOURCE_RAW;
	src[0].samples = 1000;
	src[0].bits = 8;
	src[0].health_ran = 1;
	src[0].health.rct.failures = 1;
	src[0].health.apt.alarms = 7;
	src[0].health.prop.expected_alarms = 0.25;
	src[0].est_ran = 1;
	src[0].est.h_assessed = -log2(1.0);
	src[0].verdict.status = VERDICT_FAIL;
	src[0].verdict.credibility = -0.0;
	/* an unavailable hwrng with no recommendation */
	strcpy(src[1].requested, "hwrng:device=/nonexistent");
	src[1].verdict.status = VERDICT_UNAVAILABLE;
	src[1].trust.role = TRUST_ROLE_HWRNG;
	src[1].trust.credited = KERNEL_UNKNOWN;
	/* a passing RDRAND with word checks and a recommendation; a spec that needs escaping */
	strcpy(src[2].requested, "rdrand");
	strcpy(src[2].info.spec, "rdrand:width=64");
	src[2].available = 1;
	src[2].info.kind = SOURCE_DRBG;
	src[2].counters.calls = 4;
	src[2].counters.underflows = 1;
	src[2].samples = 1000;
	src[2].bits = 8;
	src[2].health_ran = 1;
	src[2].health.words_checked = 1;
	src[2].health.words.failures = 2;
	src[2].health.words.repeats.count = 3;
	src[2].est_ran = 1;
	src[2].est.h_assessed = 6;
	src[2].verdict.status = VERDICT_PASS;
	src[2].verdict.credibility = 0.5;
	src[2].trust.role = TRUST_ROLE_CPU;
	src[2].trust.credited = KERNEL_ON;
	strcpy(src[2].trust.recommendation, "random.trust_cpu=off");
	src[2].trust.change = 1;
	/* a raw file with an entropy credit, its name full of label syntax */
	strcpy(src[3].requested, "file:/t/a\"b\\c");
	strcpy(src[3].info.spec, "file:/t/a\"b\\c");
	src[3].available = 1;
	src[3].info.kind = SOURCE_RAW;
	src[3].bits = 4;
	src[3].est_ran = 1;
	src[3].est.h_assessed = 3;
	src[3].ideal_known = 1;
	src[3].ideal.bits = 4;
	src[3].ideal.low = 3.5;
	src[3].verdict.entropy_credit = 1;
	src[3].verdict.status = VERDICT_PASS;

	/* an unavailable RDSEED whose probe knows its kind */
	strcpy(src[4].requested, "rdseed");
	strcpy(src[4].info.spec, "rdseed");
	src[4].kind_known = 1;
	src[4].info.kind = SOURCE_CONDITIONED;
	src[4].verdict.status = VERDICT_UNAVAILABLE;

	snprintf(path, sizeof path, "%s/audit.prom", tmpdir);
	tap_ok(report_prom_write(path, &r, &e) == 0, "audit textfile written");
	text = slurp(path);
	why = check_format(text, &fams);
	if (!tap_ok(why == NULL, "audit textfile: exposition-format rules hold"))
		printf("# broken: %s\n", why);
	tap_ok(!strstr(text, "rngaudit_kernel_trust_cpu") && !strstr(text, "rngaudit_kernel_hwrng_quality_ratio"),
	       "unknown kernel settings: no family at all, not a TYPE without samples");
	tap_ok(!strstr(text, "hwrng:device=/nonexistent\",kind="), "unavailable source, kind unknown: no source_info sample");
	tap_ok(has_line(text, "rngaudit_source_info{source=\"rdseed\",kind=\"conditioned\"} 1"),
	       "unavailable source, kind known from its probe: source_info with it");
	tap_ok(has_line(text, "rngaudit_verdict{source=\"hwrng:device=/nonexistent\",status=\"unavailable\"} 1"),
	       "unavailable source: named by the spec asked for");
	tap_ok(has_line(text, "rngaudit_estimate_ratio{source=\"sim:stuck\"} 0"), "stuck source: estimate 0, not -0");
	tap_ok(has_line(text, "rngaudit_credibility_ratio{source=\"sim:stuck\"} 0"), "credibility -0.0 written 0");
	tap_ok(has_line(text, "rngaudit_estimate_ratio{source=\"rdrand:width=64\"} 0.75"), "estimate per bit: 6 bits / K=8");
	tap_ok(!strstr(text, "rngaudit_entropy_credit_ratio{source=\"rdrand"), "DRBG output: no entropy credit");
	tap_ok(has_line(text, "rngaudit_entropy_credit_ratio{source=\"file:/t/a\\\"b\\\\c\"} 0.75"),
	       "raw source credited 3 bits / K=4, label escaped");
	tap_ok(has_line(text, "rngaudit_recommendation_change{source=\"hwrng:device=/nonexistent\",recommendation=\"none\"} 0"),
	       "no recommendation: recommendation=\"none\", not empty");
	tap_ok(has_line(text, "rngaudit_recommendation_change{source=\"rdrand:width=64\",recommendation=\"random.trust_cpu=off\"} 1"),
	       "a recommendation and its change flag");
	tap_ok(has_line(text, "rngaudit_health_failures{source=\"sim:stuck\",test=\"rct\"} 1") &&
	       has_line(text, "rngaudit_health_failures{source=\"rdrand:width=64\",test=\"words\"} 2"),
	       "failures per test, words only where checked");
	tap_ok(!strstr(text, "rngaudit_health_failures{source=\"sim:stuck\",test=\"words\"}"), "no words sample without word checks");
	tap_ok(has_line(text, "rngaudit_health_alarms{source=\"sim:stuck\",test=\"apt\"} 7"), "alarms per source and test");
	tap_ok(has_line(text, "rngaudit_health_expected_alarms{source=\"sim:stuck\",test=\"proportion\"} 0.25"),
	       "expected alarms per source and test");
	tap_ok(!strstr(text, "{source=\"hwrng:device=/nonexistent\",test="), "no health samples for a source never tested");
	tap_ok(has_line(text, "rngaudit_underflow_ratio{source=\"rdrand:width=64\"} 0.25"), "underflow ratio 1/4");
	tap_ok(has_line(text, "# HELP rngaudit_underflow_ratio Fraction of calls that returned no random "
			"data (CF=0): RDRAND and RDSEED sources only; 0 for every other source, absent "
			"for one not opened."), "underflow ratio: HELP names the sources it applies to");
	tap_ok(has_line(text, "rngaudit_word_events{source=\"rdrand:width=64\",event=\"repeats\"} 3"), "word events");
	tap_ok(has_line(text, "rngaudit_last_run_timestamp_seconds 1796367965"), "timestamp gauge, integer seconds");
	tap_ok(has_line(text, "rngaudit_ideal_estimate_ratio{source=\"file:/t/a\\\"b\\\\c\"} 0.875"),
	       "what an ideal source scores, per bit: 3.5 / K=4");
	tap_ok(has_line(text, "rngaudit_kernel_credits{source=\"rdrand:width=64\"} 1") &&
	       !strstr(text, "rngaudit_kernel_credits{source=\"hwrng"), "kernel credits per source, none when unknown");
	tap_ok(!strstr(text, "_bits"), "no _bits names (promtool: use base unit)");

	/* known kernel settings */
	r.kernel.trust_cpu.state = KERNEL_OFF;
	r.kernel.hwrng_quality = 512;
	tap_ok(report_prom_write(path, &r, &e) == 0, "audit textfile written again");
	text = slurp(path);
	tap_ok(has_line(text, "rngaudit_kernel_trust_cpu 0"), "trust_cpu off: 0");
	tap_ok(has_line(text, "rngaudit_kernel_hwrng_quality_ratio 0.5"), "hwrng quality 512/1024: 0.5 per bit");
	why = check_format(text, &fams);
	/* 19 families of the audit and rngaudit_build_info (issue 25) */
	tap_ok(why == NULL && fams == 20, "all 20 families, each with samples (%d; %s)", fams, why ? why : "ok");
	unlink(path);
}

static void test_follow(void)
{
	struct health_monitor_results r;
	struct err e;
	char path[300];
	const char *text, *why;
	int fams;

	memset(&r, 0, sizeof r);
	r.bits = 8;
	r.entropy = 4;
	r.alpha = 0x1p-20;
	r.samples = 123456789;
	r.rct.alarms = 2;
	r.rct.expected_alarms = 0.5;
	r.apt.expected_alarms = -0.0;
	r.prop.failures = 1;
	snprintf(path, sizeof path, "%s/health.prom", tmpdir);
	tap_ok(health_prom_write(path, "sim:ideal", "/etc/rngaudit/policy.conf", &r, 1796368736.0, &e) == 0,
	       "follow textfile written");
	text = slurp(path);
	why = check_format(text, &fams);
	if (!tap_ok(why == NULL && fams == 9, "follow textfile: exposition-format rules hold, 9 families (%d)", fams))
		printf("# broken: %s\n", why ? why : "-");
	tap_ok(has_line(text, "rngaudit_health_samples_total{source=\"sim:ideal\"} 123456789"), "samples counter");
	tap_ok(has_line(text, "rngaudit_health_alarms_total{source=\"sim:ideal\",test=\"rct\"} 2") &&
	       has_line(text, "rngaudit_health_expected_alarms_total{source=\"sim:ideal\",test=\"rct\"} 0.5"),
	       "alarms against expected alarms, both counters");
	tap_ok(has_line(text, "rngaudit_health_expected_alarms_total{source=\"sim:ideal\",test=\"apt\"} 0"), "-0.0 written 0");
	tap_ok(has_line(text, "rngaudit_health_failures_total{source=\"sim:ideal\",test=\"proportion\"} 1"), "failures per test");
	tap_ok(!strstr(text, "test=\"words\""), "no words sample without word checks");
	tap_ok(has_line(text, "rngaudit_health_claim_ratio{source=\"sim:ideal\"} 0.5"), "claim per bit: H=4 / K=8");
	tap_ok(has_line(text, "rngaudit_health_alpha{source=\"sim:ideal\"} 9.5367431640625e-07"), "alpha 2^-20");
	tap_ok(!strstr(text, "_bits"), "no _bits names (promtool: use base unit)");
	unlink(path);
}

/* No family name in both files: node_exporter reads both from one
 * directory and drops one file's samples of a family whose HELP differs. */
static void test_disjoint(void)
{
	static struct report_source src[1];
	struct health_monitor_results h;
	struct report_run r;
	struct err e;
	char a[300], b[300], fa[64][128];
	int na = 0, clash = 0;
	const char *p;

	memset(&r, 0, sizeof r);
	memset(src, 0, sizeof src);
	memset(&h, 0, sizeof h);
	r.kernel.trust_cpu.state = KERNEL_ON;
	r.kernel.hwrng_quality = 1024;
	r.n = 1;
	r.src = src;
	strcpy(src[0].requested, "rdrand");
	strcpy(src[0].info.spec, "rdrand");
	src[0].available = 1;
	src[0].bits = 8;
	src[0].counters.calls = 1;
	src[0].health_ran = 1;
	src[0].health.words_checked = 1;
	src[0].est_ran = 1;
	src[0].ideal_known = 1;
	src[0].ideal.bits = 8;
	src[0].verdict.entropy_credit = 1;
	src[0].trust.role = TRUST_ROLE_CPU;
	src[0].trust.credited = KERNEL_ON;
	h.bits = 8;
	h.words_checked = 1;
	snprintf(a, sizeof a, "%s/a.prom", tmpdir);
	snprintf(b, sizeof b, "%s/b.prom", tmpdir);
	tap_ok(report_prom_write(a, &r, &e) == 0 && health_prom_write(b, "rdrand", NULL, &h, 1, &e) == 0,
	       "both textfiles for one source");
	for (p = slurp(a); (p = strstr(p, "# TYPE ")) && na < 64; p++)
		sscanf(p + 7, "%127s", fa[na++]);
	for (p = slurp(b); (p = strstr(p, "# TYPE ")); p++) {
		char name[128];
		sscanf(p + 7, "%127s", name);
		for (int i = 0; i < na; i++)
			if (strcmp(fa[i], name) == 0 && strcmp(name, "rngaudit_build_info") != 0) {
				printf("# in both: %s\n", name);
				clash = 1;
			}
	}
	tap_ok(na == 20 && !clash, "the audit's 20 families and the follow file's share no name but rngaudit_build_info");
	{
		/* rngaudit_build_info is in both: one HELP text, label sets that
		 * differ (node_exporter reads both files from one directory) */
		char ha[512] = "", hb[512] = "", la[512] = "", lb[512] = "";
		const char *ta = slurp(a), *tb, *q;   /* slurp's buffer is reused */
		if ((q = strstr(ta, "# HELP rngaudit_build_info ")))
			sscanf(q, "%511[^\n]", ha);
		if ((q = strstr(ta, "\nrngaudit_build_info{")))
			sscanf(q + 1, "%511[^\n]", la);
		tb = slurp(b);
		if ((q = strstr(tb, "# HELP rngaudit_build_info ")))
			sscanf(q, "%511[^\n]", hb);
		if ((q = strstr(tb, "\nrngaudit_build_info{")))
			sscanf(q + 1, "%511[^\n]", lb);
		tap_ok(ha[0] && strcmp(ha, hb) == 0, "rngaudit_build_info: the same HELP in both textfiles");
		tap_ok(la[0] && lb[0] && strcmp(la, lb) != 0, "rngaudit_build_info: distinct series (%s | %s)", la, lb);
		tap_ok(strstr(lb, "source=\"rdrand\"") && strstr(lb, "version=\"" PACKAGE_VERSION "\"") &&
			       strstr(lb, "policy=\"built-in defaults\""),
		       "follow's rngaudit_build_info: source, version and policy (%s)", lb);
	}
	unlink(a);
	unlink(b);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_values();
	test_family();
	test_audit();
	test_follow();
	test_disjoint();
	rmdir(tmpdir);
	return tap_done();
}
