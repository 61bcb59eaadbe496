/* test_kernel.c - the kernel RNG context: the pure parsers (kparse.c), the
 * trust resolution by kernel version, and kernel_read() on the fixture
 * sysroots under tests/data/sysroot/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "audit/kernel.h"
#include "audit/kparse.h"
#include "audit/sysinfo.h"
#include "tap.h"

#define S(x) x, sizeof(x) - 1

static void test_kstrtobool(void)
{
	static const struct { const char *s; int want; } t[] = {
		{ "1", 1 }, { "y", 1 }, { "Y", 1 }, { "yes", 1 }, { "on", 1 }, { "ON", 1 },
		{ "0", 0 }, { "n", 0 }, { "no", 0 }, { "off", 0 }, { "oFf", 0 },
		{ "", -1 }, { "o", -1 }, { "ox", -1 }, { "maybe", -1 }, { "2", -1 }, { "true", -1 },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (kparse_kstrtobool(t[i].s, strlen(t[i].s)) != t[i].want) {
			printf("# kstrtobool(\"%s\") = %d, want %d\n", t[i].s,
			       kparse_kstrtobool(t[i].s, strlen(t[i].s)), t[i].want);
			bad = 1;
		}
	tap_ok(!bad, "kstrtobool: the kernel's first-character rule, on/off by the second");
}

static void test_cmdline(void)
{
	char v[64];
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
	const char log[] = "[    0.000000] Linux version 6.18\n"
			   "6,412,199552,-;RDSEED32 is broken. Disabling the corresponding CPUID bit.\n"
			   "[    2.1] random: crng init done\n";
	kparse_log_scan(S(log), &l);
	tap_ok(l.cleared == KPARSE_LOG_RDSEED, "log: the Zen 5 RDSEED line clears rdseed only");
	tap_eq_str(l.rdseed_line, "RDSEED32 is broken. Disabling the corresponding CPUID bit.",
		   "log: the kmsg prefix is cut from the kept line");
	kparse_log_scan(S("[ 1.0] RDRAND gives funky smelling output, might consider not using it\n"), &l);
	tap_ok(l.cleared == KPARSE_LOG_RDRAND, "log: the RDRAND self-test line clears rdrand");
	tap_ok(kparse_clearcpuid(S("158,rdseed,sse")) == (KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED),
	       "clearcpuid: a bit number and a name");
}

static void test_values(void)
{
	unsigned long v;
	char why[64], w[16];
	unsigned maj, min;
	tap_ok(kparse_uint(S("1024\n"), 1024, &v, why, sizeof why) == 0 && v == 1024, "uint: 1024 with a newline");
	tap_ok(kparse_uint(S("abc\n"), 1024, &v, why, sizeof why) == -1 && strstr(why, "'abc'"), "uint: 'abc' refused, quoted");
	tap_ok(kparse_uint(S("1025"), 1024, &v, why, sizeof why) == -1, "uint: above the maximum refused");
	tap_ok(kparse_uint(S("-1"), 1024, &v, why, sizeof why) == -1, "uint: a sign refused");
	tap_ok(kparse_uint(S("99999999999999999999999"), 1024, &v, why, sizeof why) == -1, "uint: overflow refused");
	tap_ok(kparse_uint(S(""), 1024, &v, why, sizeof why) == -1, "uint: empty refused");
	tap_ok(kparse_word(S("virtio_rng.0 \n"), w, sizeof w, why, sizeof why) == 0 && strcmp(w, "virtio_rng.0") == 0,
	       "word: trailing space and newline trimmed");
	tap_ok(kparse_word(S("\377bin"), w, sizeof w, why, sizeof why) == -1, "word: binary refused");
	tap_ok(kparse_release(S("6.18.44-fc-v1252"), &maj, &min) == 0 && maj == 6 && min == 18, "release: 6.18");
	tap_ok(kparse_release(S("x.1"), &maj, &min) == -1, "release: junk refused");
}

static struct kernel_trust resolve(enum kernel_trust_kind kind, unsigned maj, unsigned min, int param,
				   const char *val, int config_known, int option, const char *ov)
{
	struct kernel_trust_input in = { 1, maj, min, 1, param, val, config_known, option, ov };
	struct kernel_trust t;
	kernel_trust_resolve(kind, &in, &t);
	return t;
}

static void test_resolve(void)
{
	struct kernel_trust t;
	t = resolve(KERNEL_TRUST_CPU, 4, 19, 0, "", 1, 1, "n");
	tap_ok(t.state == KERNEL_OFF && strcmp(t.source, "CONFIG default") == 0, "resolve: 4.19, CONFIG=n -> off, CONFIG default");
	t = resolve(KERNEL_TRUST_CPU, 5, 10, 1, "off", 1, 1, "y");
	tap_ok(t.state == KERNEL_OFF && strcmp(t.source, "command line") == 0, "resolve: 5.10, trust_cpu=off -> off, command line");
	t = resolve(KERNEL_TRUST_CPU, 6, 12, 0, "", 1, 0, "");
	tap_ok(t.state == KERNEL_ON && strcmp(t.source, "kernel default since 6.2") == 0, "resolve: 6.12, no option -> on by default");
	t = resolve(KERNEL_TRUST_CPU, 6, 12, 1, "maybe", 1, 0, "");
	tap_ok(t.state == KERNEL_ON && strstr(t.reason, "not a boolean"), "resolve: a non-boolean leaves the default, and says so");
	t = resolve(KERNEL_TRUST_CPU, 5, 15, 0, "", 0, 0, "");
	tap_ok(t.state == KERNEL_UNKNOWN, "resolve: 5.15 without a config is unknown, not guessed");
	t = resolve(KERNEL_TRUST_BOOTLOADER, 5, 10, 1, "off", 1, 1, "y");
	tap_ok(t.state == KERNEL_ON && strstr(t.reason, "ignored before 5.18"), "resolve: trust_bootloader= is ignored before 5.18");
	t = resolve(KERNEL_TRUST_CPU, 4, 14, 1, "on", 1, 0, "");
	tap_ok(t.state == KERNEL_OFF && strstr(t.reason, "ignored before 4.19"), "resolve: 4.14 without the option ignores the parameter");
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
	tap_ok(k.hwrng_quality == 0 && strcmp(k.quality_from, "default_quality") == 0 &&
	       strstr(k.default_quality_meaning, "before 6.2"), "k419: default_quality 0, its pre-6.2 meaning");
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
