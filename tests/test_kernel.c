/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_kernel.c - the kernel RNG context: the pure parsers (kparse.c), the
 * trust resolution by kernel version, and kernel_read() on the fixture
 * sysroots under tests/data/sysroot/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "audit/kernel.h"
#include "audit/kparse.h"
#include "audit/kversion.h"
#include "audit/sysinfo.h"
#include "tap.h"

#define S(x) x, sizeof(x) - 1

static void test_kstrtobool(void)
{
	/* lib/kstrtox.c by version: the first character (the second for o);
	 * t/f since 0d6ea3ac94ca (5.19), e/d since ae5b3500856f (6.16) */
	static const struct { const char *s; int k510, k519, k612, k616, unknown; } t[] = {
		{ "1", 1, 1, 1, 1, 1 }, { "y", 1, 1, 1, 1, 1 }, { "yes_please", 1, 1, 1, 1, 1 },
		{ "on", 1, 1, 1, 1, 1 }, { "ON", 1, 1, 1, 1, 1 }, { "1234", 1, 1, 1, 1, 1 },
		{ "0", 0, 0, 0, 0, 0 }, { "no", 0, 0, 0, 0, 0 }, { "off", 0, 0, 0, 0, 0 }, { "oFf", 0, 0, 0, 0, 0 },
		{ "true", -1, 1, 1, 1, -2 }, { "false", -1, 0, 0, 0, -2 }, { "T", -1, 1, 1, 1, -2 },
		{ "enabled", -1, -1, -1, 1, -2 }, { "disabled", -1, -1, -1, 0, -2 }, { "D", -1, -1, -1, 0, -2 },
		{ "", -1, -1, -1, -1, -1 }, { "o", -1, -1, -1, -1, -1 }, { "ox", -1, -1, -1, -1, -1 },
		{ "maybe", -1, -1, -1, -1, -1 }, { "2", -1, -1, -1, -1, -1 },
	};
	static const unsigned kv[5] = { KV(5, 10), KV(5, 19), KV(6, 12), KV(6, 16), 0 };
	int bad = 0;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		const int want[5] = { t[i].k510, t[i].k519, t[i].k612, t[i].k616, t[i].unknown };
		for (int j = 0; j < 5; j++) {
			int got = kparse_kstrtobool_v(t[i].s, strlen(t[i].s), kv[j]);
			if (got != want[j]) {
				printf("# kstrtobool(\"%s\") on %u = %d, want %d\n", t[i].s, kv[j], got, want[j]);
				bad = 1;
			}
		}
	}
	tap_ok(!bad, "kstrtobool by version: first character, t/f from 5.19, e/d from 6.16, -2 when the version decides");
}

static int count_each(const char *v, size_t n, int has_value, int after_dashes, void *arg)
{
	int *c = arg;
	(void)v, (void)n, (void)has_value;
	c[after_dashes]++;
	return 0;
}

static void test_cmdline(void)
{
	char v[64];
	int c[2] = { 0, 0 };
	const char c1[] = "ro \"acpi_osi=Windows 2020\" random.trust_cpu=off quiet random.trust-cpu=on -- random.trust_cpu=0";
	tap_eq_long(kparse_cmdline_param(S(c1), "random.trust_cpu", v, sizeof v), 1, "cmdline: parameter found");
	tap_eq_str(v, "on", "cmdline: the last occurrence before -- wins, '-' equals '_'");
	tap_eq_long(kparse_cmdline_param(S(c1), "acpi_osi", v, sizeof v), 1, "cmdline: a quoted word is one parameter");
	tap_eq_str(v, "Windows 2020", "cmdline: quotes removed from the value");
	tap_eq_long(kparse_cmdline_param(S("quiet nordrand"), "nordrand", v, sizeof v), 2, "cmdline: a bare flag");
	tap_eq_long(kparse_cmdline_param(S("-- random.trust_cpu=on"), "random.trust_cpu", v, sizeof v), 0,
		    "cmdline: what follows -- belongs to init");
	tap_eq_long(kparse_cmdline_param(S("a\0random.trust_cpu=1\377"), "random.trust_cpu", v, sizeof v), 1,
		    "cmdline: NUL bytes separate words");
	tap_eq_long(kparse_cmdline_param(S(""), "x", v, sizeof v), 0, "cmdline: empty");
	kparse_cmdline_each(S(c1), "random.trust_cpu", count_each, c);
	tap_ok(c[0] == 2 && c[1] == 1, "cmdline: each occurrence in order, two before -- and one after");
}

static void test_config(void)
{
	char v[16];
	const char cfg[] = "# CONFIG_RANDOM_TRUST_CPU is not set\nCONFIG_RANDOM_TRUST_BOOTLOADER=y\nCONFIG_X=\"q\"\r\n";
	tap_ok(kparse_config_option(S(cfg), "CONFIG_RANDOM_TRUST_CPU", v, sizeof v) == 1 && strcmp(v, "n") == 0,
	       "config: '# X is not set' reads n");
	tap_ok(kparse_config_option(S(cfg), "CONFIG_RANDOM_TRUST_BOOTLOADER", v, sizeof v) == 1 &&
	       strcmp(v, "y") == 0, "config: X=y");
	tap_ok(kparse_config_option(S(cfg), "CONFIG_RANDOM_TRUST", v, sizeof v) == 0, "config: a prefix is not a match");
}

static void test_gunzip(void)
{
	const char text[] = "CONFIG_RANDOM_TRUST_CPU=y\n";
	unsigned char gz[256];
	z_stream zs;
	char *out;
	size_t outlen, gzlen;
	struct err e;

	memset(&zs, 0, sizeof zs);
	deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (Bytef *)text;
	zs.avail_in = sizeof text - 1;
	zs.next_out = gz;
	zs.avail_out = sizeof gz;
	deflate(&zs, Z_FINISH);
	gzlen = sizeof gz - zs.avail_out;
	deflateEnd(&zs);
	tap_ok(kparse_gunzip(gz, gzlen, 1 << 20, &out, &outlen, "t.gz", &e) == 0 && outlen == sizeof text - 1 &&
	       strcmp(out, text) == 0, "gunzip: round trip");
	free(out);
	tap_ok(kparse_gunzip(gz, gzlen - 6, 1 << 20, &out, &outlen, "t.gz", &e) == ERR_DATA &&
	       strstr(e.msg, "truncated") != NULL, "gunzip: a truncated stream is ERR_DATA 'truncated'");
	tap_ok(kparse_gunzip(gz, gzlen, 8, &out, &outlen, "t.gz", &e) == ERR_DATA && strstr(e.msg, "more than"),
	       "gunzip: more than the limit is refused");
	tap_ok(kparse_gunzip("junkjunk", 8, 1 << 20, &out, &outlen, "t.gz", &e) == ERR_DATA,
	       "gunzip: not gzip is ERR_DATA");
}

static void test_log(void)
{
	struct kparse_log l;
	unsigned u;
	const char log[] = "[    0.000000] Linux version 6.18\n"
			   "6,412,199552,-;RDSEED32 is broken. Disabling the corresponding CPUID bit.\n"
			   "[    2.1] random: crng init done\n";
	kparse_log_scan(S(log), &l);
	tap_ok(l.cleared == KPARSE_LOG_RDSEED && l.hidden == KPARSE_LOG_RDSEED && !l.warned,
	       "log: the Zen 5 RDSEED line (607b9fb2ce24) clears rdseed only, and hides it");
	tap_eq_str(l.rdseed_line, "RDSEED32 is broken. Disabling the corresponding CPUID bit.",
		   "log: the kmsg prefix is cut from the kept line");
	kparse_log_scan(S("[ 1.0] RDRAND gives funky smelling output, might consider not using it by booting with "
			  "\"nordrand\"\n"), &l);
	tap_ok(l.cleared == 0 && l.warned == KPARSE_LOG_RDRAND && strstr(l.rdrand_warn_commit, "7879fc4bdc75"),
	       "log: the 5.5-5.19 funky-smelling line only warns (7879fc4bdc75): nothing cleared");
	kparse_log_scan(S("[ 0.2] rdrand: disabled\n"), &l);
	tap_ok(l.cleared == KPARSE_LOG_RDRAND, "log: 'rdrand: disabled' (before 6.0) clears RDRAND only");
	kparse_log_scan(S("[ 0.2] RDRAND is not reliable on this platform; disabling.\n"), &l);
	tap_ok(l.cleared == (KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED) && !l.hidden,
	       "log: the 6.0 self-test line (049f9ae93d03) clears RDRAND and RDSEED, kernel flag only");
	kparse_log_scan(S("[ 0.2] RDSEED is not reliable on this platform; disabling.\n"), &l);
	tap_ok(l.cleared == KPARSE_LOG_RDSEED && strstr(l.rdseed_commit, "5b937a1ed64e"),
	       "log: the Cyan Skillfish line (5b937a1ed64e) clears RDSEED");
	kparse_log_scan(S("[ 0.03] BIOS may not properly restore RDRAND after suspend, hiding RDRAND via CPUID. Use "
			  "rdrand=force to reenable.\n"), &l);
	tap_ok(l.cleared == KPARSE_LOG_RDRAND && l.hidden == KPARSE_LOG_RDRAND && !l.warned,
	       "log: 15h/16h on bare metal (c49a0a80137c) clears and hides RDRAND");
	kparse_log_scan(S("[ 0.03] BIOS may not properly restore RDRAND after suspend, but hypervisor does not support "
			  "hiding RDRAND via CPUID.\n"), &l);
	tap_ok(l.cleared == 0 && l.warned == KPARSE_LOG_RDRAND,
	       "log: 15h/16h in a VM that ignores the MSR: a warning, RDRAND stays");
	tap_ok(kparse_clearcpuid(S("158,rdseed,sse")) == (KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED),
	       "clearcpuid: a bit number and a name");
	tap_ok(kparse_clearcpuid_v(S("rdrand"), KV(5, 10), -1, &u) == 0 && u == 0,
	       "clearcpuid on 5.10: a name is not read (names since 1625c833db93, 5.19)");
	tap_ok(kparse_clearcpuid_v(S("rdrand"), KV(6, 1), -1, &u) == KPARSE_LOG_RDRAND, "clearcpuid on 6.1: rdrand");
	tap_ok(kparse_clearcpuid_v(S("sse,158"), KV(5, 10), -1, &u) == 0,
	       "clearcpuid on 5.10: the list stops at the first name (get_option())");
	tap_ok(kparse_clearcpuid_v(S("1,158"), KV(5, 10), -1, &u) == KPARSE_LOG_RDRAND,
	       "clearcpuid on 5.10: a list of numbers (0a4bb5e5507a)");
	tap_ok(kparse_clearcpuid_v(S("1,158"), KV(4, 19), -1, &u) == 0, "clearcpuid on 4.19: only the first number");
	tap_ok(kparse_clearcpuid_v(S("1,158"), KV(5, 4), -1, &u) == 0 && u == KPARSE_LOG_RDRAND,
	       "clearcpuid on 5.4, sublevel unknown: the list is uncertain (5.4.73 took the list parser)");
	tap_ok(kparse_clearcpuid_v(S("rdrand,158"), 0, -1, &u) == 0 && u == KPARSE_LOG_RDRAND,
	       "clearcpuid, version unknown: a name is uncertain");
}

static void test_version(void)
{
	struct kversion v;
	char from[128], b[32];
	const char deb[] = "Linux version 5.10.0-28-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) "
			   "10.2.1 20210110) #1 SMP Debian 5.10.209-2 (2024-01-31)\n";
	const char ubu[] = "Ubuntu 5.15.0-91.101-generic 5.15.131\n";
	static const struct kfact f = { KV(5, 19), { { KV(5, 10), 119 }, { KV(5, 15), 44 } } };

	tap_ok(kversion_from_release(S("6.6.7-arch1-1"), &v) == 0 && v.major == 6 && v.minor == 6 && v.sublevel == 7,
	       "release: 6.6.7-arch1-1 carries its sublevel");
	tap_ok(kversion_from_release(S("5.10.0-28-amd64"), &v) == 0 && v.sublevel == -1,
	       "release: Debian's 5.10.0-28-amd64 hides it (an ABI number)");
	tap_ok(kversion_from_release(S("5.14.0-362.8.1.el9_3.x86_64"), &v) == 0 && v.sublevel == -1,
	       "release: RHEL's .el9_3 hides it");
	tap_ok(kversion_from_release(S("6.12.38+deb13-amd64"), &v) == 0 && v.sublevel == 38,
	       "release: Debian 13's 6.12.38+deb13-amd64 carries it");
	tap_ok(kversion_from_release(S("6.5.6-300.fc39.x86_64"), &v) == 0 && v.sublevel == 6, "release: Fedora's");
	tap_ok(kversion_from_release(S("6.1"), &v) == 0 && v.sublevel == 0, "release: a vanilla 6.1 is 6.1.0");
	tap_ok(kversion_from_release(S("linux-6"), &v) == -1 && !v.known, "release: junk is unknown, never guessed");
	kversion_from_release(S("5.10.0-28-amd64"), &v);
	tap_ok(kversion_sublevel_from(S(deb), &v, from, sizeof from) == 1 && v.sublevel == 209 &&
	       strcmp(from, "Debian 5.10.209-2") == 0, "/proc/version: Debian's package version, past the compiler's");
	tap_eq_str(kversion_format(&v, b, sizeof b), "5.10.209", "version: 5.10.209");
	tap_eq_long(kversion_has(&v, &f), 1, "5.10.209 has a fact backported to 5.10.119");
	v.sublevel = 84;
	tap_eq_long(kversion_has(&v, &f), 0, "5.10.84 has not");
	v.sublevel = -1;
	tap_eq_long(kversion_has(&v, &f), -1, "5.10 with its sublevel unknown: unknown");
	kversion_from_release(S("5.15.0-91-generic"), &v);
	tap_ok(kversion_sublevel_from(S(ubu), &v, from, sizeof from) == 1 && v.sublevel == 131,
	       "/proc/version_signature: Ubuntu's upstream 5.15.131");
	kversion_from_release(S("5.14.0-362.el9"), &v);
	tap_eq_long(kversion_has(&v, &f), -1, "RHEL 5.14 (sublevel hidden): a backported fact is unknown");
	kversion_from_release(S("5.16.20"), &v);
	tap_eq_long(kversion_has(&v, &f), 0, "5.16.20: not a series it was backported to");
}

static void test_values(void)
{
	unsigned long v;
	char why[64], w[16];
	tap_ok(kparse_uint(S("1024\n"), 1024, &v, why, sizeof why) == 0 && v == 1024, "uint: 1024 with a newline");
	tap_ok(kparse_uint(S("abc\n"), 1024, &v, why, sizeof why) == -1 && strstr(why, "'abc'"), "uint: 'abc' refused, quoted");
	tap_ok(kparse_uint(S("1025"), 1024, &v, why, sizeof why) == -1, "uint: above the maximum refused");
	tap_ok(kparse_uint(S("-1"), 1024, &v, why, sizeof why) == -1, "uint: a sign refused");
	tap_ok(kparse_uint(S("99999999999999999999999"), 1024, &v, why, sizeof why) == -1, "uint: overflow refused");
	tap_ok(kparse_uint(S(""), 1024, &v, why, sizeof why) == -1, "uint: empty refused");
	tap_ok(kparse_word(S("virtio_rng.0 \n"), w, sizeof w, why, sizeof why) == 0 && strcmp(w, "virtio_rng.0") == 0,
	       "word: trailing space and newline trimmed");
	tap_ok(kparse_word(S("\377bin"), w, sizeof w, why, sizeof why) == -1, "word: binary refused");
}

static struct kernel_trust resolve(enum kernel_trust_kind kind, const char *release, const char *cmdline,
				   int config_known, int option, const char *ov)
{
	struct kernel_trust_input in = { 0 };
	struct kernel_trust t;
	kversion_from_release(release, strlen(release), &in.v);
	in.cmdline = cmdline;
	in.cmdline_len = cmdline ? strlen(cmdline) : 0;
	in.config_known = config_known;
	in.option = option;
	in.option_value = ov;
	kernel_trust_resolve(kind, &in, &t);
	return t;
}

static void test_resolve(void)
{
	struct kernel_trust t;
	t = resolve(KERNEL_TRUST_CPU, "4.19.0", "ro", 1, 1, "n");
	tap_ok(t.state == KERNEL_OFF && strcmp(t.source, "CONFIG default") == 0, "resolve: 4.19, CONFIG=n -> off, CONFIG default");
	t = resolve(KERNEL_TRUST_CPU, "5.10.0", "random.trust_cpu=off", 1, 1, "y");
	tap_ok(t.state == KERNEL_OFF && strcmp(t.source, "command line") == 0, "resolve: 5.10, trust_cpu=off -> off, command line");
	t = resolve(KERNEL_TRUST_CPU, "6.12.9", "ro", 1, 0, "");
	tap_ok(t.state == KERNEL_ON && strcmp(t.source, "kernel default since 6.2") == 0, "resolve: 6.12, no option -> on by default");
	t = resolve(KERNEL_TRUST_CPU, "6.12.9", "random.trust_cpu=maybe", 1, 0, "");
	tap_ok(t.state == KERNEL_ON && strstr(t.reason, "not a boolean"), "resolve: a non-boolean leaves the default, and says so");
	t = resolve(KERNEL_TRUST_CPU, "5.15.0", "ro", 0, 0, "");
	tap_ok(t.state == KERNEL_UNKNOWN, "resolve: 5.15 without a config is unknown, not guessed");
	t = resolve(KERNEL_TRUST_BOOTLOADER, "5.10.84", "random.trust_bootloader=off", 1, 1, "y");
	tap_ok(t.state == KERNEL_ON && strstr(t.reason, "ignored by 5.10"),
	       "resolve: trust_bootloader= is ignored by 5.10.84 (before the 5.10.119 backport)");
	t = resolve(KERNEL_TRUST_BOOTLOADER, "5.10.209", "random.trust_bootloader=off", 1, 1, "y");
	tap_ok(t.state == KERNEL_OFF, "resolve: 5.10.209 reads random.trust_bootloader= (d97c68d178fb in 5.10.119)");
	t = resolve(KERNEL_TRUST_BOOTLOADER, "5.10.0-28-amd64", "random.trust_bootloader=off", 1, 1, "y");
	tap_ok(t.state == KERNEL_UNKNOWN, "resolve: 5.10 with its sublevel unknown: unknown, not a guess");
	t = resolve(KERNEL_TRUST_CPU, "4.14.200", "random.trust_cpu=on", 1, 0, "");
	tap_ok(t.state == KERNEL_OFF && strstr(t.reason, "ignored by 4.14"), "resolve: 4.14.200 without the option ignores the parameter");
	t = resolve(KERNEL_TRUST_CPU, "6.12.9", "random.trust_cpu=false", 1, 0, "");
	tap_ok(t.state == KERNEL_OFF, "resolve: 6.12, random.trust_cpu=false -> off (t/f since 5.19)");
	t = resolve(KERNEL_TRUST_CPU, "5.15.131", "random.trust_cpu=false", 1, 1, "y");
	tap_ok(t.state == KERNEL_ON && strstr(t.reason, "not a boolean this kernel accepts"),
	       "resolve: 5.15, random.trust_cpu=false is ignored: the CONFIG default stays");
	t = resolve(KERNEL_TRUST_CPU, "6.12.9", "random.trust_cpu=off random.trust_cpu=disabled", 1, 0, "");
	tap_ok(t.state == KERNEL_OFF && strstr(t.reason, "disabled"),
	       "resolve: 6.12, off then disabled: disabled is ignored, off stays");
	t = resolve(KERNEL_TRUST_CPU, "6.16.3", "random.trust_cpu=on random.trust_cpu=disabled", 1, 0, "");
	tap_ok(t.state == KERNEL_OFF, "resolve: 6.16, on then disabled: off (e/d since 6.16)");
	t = resolve(KERNEL_TRUST_CPU, "6.12.9", "quiet -- random.trust_cpu=off", 1, 0, "");
	tap_ok(t.state == KERNEL_ON && strstr(t.reason, "goes to init"), "resolve: after -- it is init's, the default stays");
	t = resolve(KERNEL_TRUST_CPU, "6.12.9", "random.trust_cpu", 1, 0, "");
	tap_ok(t.state == KERNEL_ON, "resolve: a bare random.trust_cpu is malformed, ignored");
	t = resolve(KERNEL_TRUST_CPU, "junk", "random.trust_cpu=true", 1, 1, "y");
	tap_ok(t.state == KERNEL_UNKNOWN, "resolve: an unknown version with a version-dependent value: unknown");
}

static void fixture(const char *name, struct kernel_ctx *k)
{
	char dir[1024];
	struct kernel_read_opts o = { 0 };
	struct err e;
	snprintf(dir, sizeof dir, "%s/tests/data/sysroot/%s", getenv("top_srcdir") ? getenv("top_srcdir") : ".", name);
	o.sysroot = dir;
	if (kernel_read(k, &o, &e) != 0)
		printf("# %s\n", e.msg);
}

static void test_fixtures(void)
{
	struct kernel_ctx k;
	struct err e;

	fixture("k419-config-n", &k);
	tap_ok(k.trust_cpu.state == KERNEL_OFF && strcmp(k.trust_cpu.source, "CONFIG default") == 0,
	       "k419: trust_cpu off by CONFIG default from /boot/config-R");
	tap_ok(k.hwrng_quality == -1 && k.default_quality == 0 && strstr(k.default_quality_meaning, "before 6.2") &&
	       strstr(k.quality_why, "reaches only drivers that set no quality"),
	       "k419: only default_quality 0: not presented as tpm-rng's credit (a driver may set its own)");
	fixture("k510-trust-off", &k);
	tap_ok(k.trust_cpu.state == KERNEL_OFF && strcmp(k.trust_cpu.source, "command line") == 0,
	       "k510: trust_cpu=off from the command line (config.gz says y)");
	tap_ok(k.trust_bootloader.state == KERNEL_ON, "k510: trust_bootloader on by CONFIG default");
	tap_eq_long(k.hwrng_quality, 700, "k510: hwrng credit 700 from current_quality");
	fixture("current-default", &k);
	tap_ok(k.trust_cpu.state == KERNEL_ON && strcmp(k.trust_cpu.source, "kernel default since 6.2") == 0,
	       "current: trust_cpu on, kernel default since 6.2");
	tap_ok(k.virtualized == KERNEL_ON && strstr(k.virt_evidence, "QEMU"), "current: a guest (hypervisor flag, DMI)");
	tap_ok(k.hwrng_quality == 1024 && strcmp(k.rng_current, "virtio_rng.0") == 0, "current: virtio_rng.0 at 1024");
	fixture("zen5-rdseed", &k);
	tap_eq_str(k.cleared_names, "rdseed", "zen5: rdseed cleared");
	tap_ok(strstr(k.flags_evidence, "RDSEED32 is broken") != NULL, "zen5: the kernel log line is the evidence");
	tap_ok(k.crng_ready == KERNEL_UNKNOWN, "zen5: CRNG state unknown from a sysroot");
	fixture("empty", &k);
	tap_ok(k.trust_cpu.state == KERNEL_UNKNOWN && k.trust_bootloader.state == KERNEL_UNKNOWN &&
	       k.virtualized == KERNEL_UNKNOWN && k.hwrng_quality == -1 && k.entropy_avail == -1 && !k.release_known,
	       "empty: every item unknown");
	fixture("malformed", &k);
	tap_ok(k.trust_cpu.state == KERNEL_UNKNOWN && strstr(k.config_why, "truncated"),
	       "malformed: truncated config.gz leaves trust unknown, with the reason");
	tap_ok(k.hwrng_quality == -1 && strstr(k.quality_why, "'abc'"), "malformed: quality 'abc' is unknown, quoted");
	tap_ok(kernel_read(&k, &(struct kernel_read_opts){ .sysroot = "/nonexistent/sysroot" }, &e) == ERR_USAGE &&
	       strstr(e.msg, "/nonexistent/sysroot"), "a missing sysroot is a usage error naming it");
}

static void test_sysinfo(void)
{
	struct sysinfo si;
	const char ci[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
			  "model name\t: AMD EPYC\nstepping\t: 1\nmicrocode\t: 0xb002147\n\nprocessor\t: 1\nmodel\t: 9\n";
	memset(&si, 0, sizeof si);
	sysinfo_parse_cpuinfo(&si, S(ci));
	tap_ok(strcmp(si.cpu_vendor, "AuthenticAMD") == 0 && si.cpu_family == 26 && si.cpu_model == 2 &&
	       si.cpu_stepping == 1 && si.microcode == 0xb002147 && si.microcode_known,
	       "sysinfo: the first processor's identity from cpuinfo text");
}

int main(void)
{
	test_version();
	test_kstrtobool();
	test_cmdline();
	test_config();
	test_gunzip();
	test_log();
	test_values();
	test_resolve();
	test_fixtures();
	test_sysinfo();
	return tap_done();
}
