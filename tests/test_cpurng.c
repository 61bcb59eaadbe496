/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cpurng.c - the CPU RNG sources of arm64, POWER, s390x and RISC-V
 * (issue 27): the decoders of the raw register values, the SIGILL guard,
 * the failure paths through the sim stand-ins (the same decoders and read
 * loop as the hardware), and the real sources: available on their own
 * architecture where the CPU (or qemu's CPU model) has them, one line
 * "NAME: not available on <machine>" everywhere else. */
#include "config.h"

#include <signal.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "sources/cpurng.h"
#include "sources/source.h"
#include "tap.h"

static void test_decoders(void)
{
	uint64_t v = 7;
	uint8_t status[16] = { 0 };

	/* Arm ARM: NZCV 0b0000 on success, 0b0100 (Z, bit 30) on failure */
	tap_ok(cpurng_decode_nzcv(0x1234, 0, &v) == CPURNG_OK && v == 0x1234, "RNDR with NZCV=0000 gives its value");
	v = 7;
	tap_ok(cpurng_decode_nzcv(0, 0x40000000, &v) == CPURNG_FAIL && v == 7,
	       "RNDR with NZCV=0100 is a failure and its 0 is not emitted");
	tap_ok(cpurng_decode_nzcv(5, 0x20000000, &v) == CPURNG_OK, "NZCV with only C set is a success (Z decides)");
	/* POWER ISA 3.0: all ones is the error for every L */
	for (unsigned l = 0; l <= 2; l++)
		tap_ok(cpurng_decode_darn(l, UINT64_MAX, &v) == CPURNG_FAIL, "darn L=%u: 0xFFFFFFFFFFFFFFFF is the error", l);
	tap_ok(cpurng_decode_darn(0, 0xFFFFFFFFull, &v) == CPURNG_OK && v == 0xFFFFFFFFull,
	       "darn L=0: 0x00000000FFFFFFFF is a valid sample");
	tap_ok(cpurng_decode_darn(1, 0xFFFFFFFFull, &v) == CPURNG_OK && v == 0xFFFFFFFFull,
	       "darn L=1: 0x00000000FFFFFFFF is a valid 64-bit sample");
	tap_ok(cpurng_decode_darn(0, 0x1234567887654321ull, &v) == CPURNG_OK && v == 0x87654321ull,
	       "darn L=0 keeps the low 32 bits");
	/* Zkr: OPST bits 31:30, entropy 15:0; qemu sign-extends */
	tap_ok(cpurng_decode_seed(0xFFFFFFFF800016FBull, &v) == CPURNG_OK && v == 0x16FB,
	       "seed ES16 sign-extended (qemu's 0xffffffff800016fb) gives 0x16fb");
	tap_ok(cpurng_decode_seed(0x800016FBull, &v) == CPURNG_OK && v == 0x16FB, "seed ES16 zero-extended gives 0x16fb");
	tap_ok(cpurng_decode_seed(0x40000000ull, &v) == CPURNG_FAIL, "seed OPST WAIT (01) is a failure to retry");
	tap_ok(cpurng_decode_seed(0, &v) == CPURNG_FAIL, "seed OPST BIST (00) is a failure to retry");
	tap_ok(cpurng_decode_seed(0xFFFFFFFFC0000000ull, &v) == CPURNG_DEAD, "seed OPST DEAD (11) is unrecoverable");
	/* z/Architecture: function n is bit n from the left of the 16 bytes */
	status[14] = 0x20;
	tap_ok(cpurng_cpacf_offered(status, 114) && !cpurng_cpacf_offered(status, 113) &&
	       !cpurng_cpacf_offered(status, 115), "PRNO query: function 114 is byte 14, mask 0x20");
	tap_ok(!cpurng_cpacf_offered(status, 200), "a function code past 127 is never offered");
}

static void raise_sigill(void *arg)
{
	(void)arg;
	raise(SIGILL);
}

static void set_flag(void *arg)
{
	*(int *)arg = 1;
}

static void test_guard(void)
{
	int flag = 0;
	tap_ok(cpurng_guarded(raise_sigill, NULL) == 1, "a SIGILL inside the guard is caught (returns 1)");
	tap_ok(cpurng_guarded(set_flag, &flag) == 0 && flag == 1, "a function that runs returns 0");
	tap_ok(cpurng_guarded(raise_sigill, NULL) == 1, "the guard works again after a SIGILL");
}

static ssize_t read_some(struct source *s, uint8_t *buf, size_t len, struct err *e)
{
	size_t done = 0;
	while (done < len) {
		ssize_t got = source_read(s, buf + done, len - done, e);
		if (got <= 0)
			return done ? (ssize_t)done : got;
		done += (size_t)got;
	}
	return (ssize_t)done;
}

static void expect_open_error(const char *spec, int code, const char *needle)
{
	struct source *s = NULL;
	struct err e = { 0 };
	int rc = source_open(&s, spec, &e);
	tap_ok(rc == code && !s && strstr(e.msg, needle) && !strchr(e.msg, '\n'), "open '%s' fails (%d) naming '%s': %s",
	       spec, rc, needle, e.msg);
	source_close(s);
}

/* The failure paths, through the stand-ins (the seam: the same decoders and loop). */
static void test_sim_failures(void)
{
	static uint8_t buf[80000];
	struct source_counters c;
	struct source *s;
	struct err e = { 0 };
	ssize_t got;
	int all = 1;

	/* RNDR failing half the time: failures counted, no 0 ever emitted */
	tap_ok(source_open(&s, "sim:rndr,fail=0.5,seed=3", &e) == 0, "open sim:rndr,fail=0.5");
	got = read_some(s, buf, 80000, &e);
	source_get_counters(s, &c);
	tap_ok(got == 80000 && c.words == 10000, "10000 64-bit words read (got %zd bytes, %llu words)", got,
	       (unsigned long long)c.words);
	tap_ok(c.underflows > 8000 && c.underflows < 12000 && c.calls == c.words + c.underflows,
	       "NZCV failures counted like CF=0: %llu of %llu calls (about half)", (unsigned long long)c.underflows,
	       (unsigned long long)c.calls);
	tap_ok(c.zero_words == 0, "the 0 a failed read returns is never emitted (0 all-zero words)");
	source_close(s);

	/* RNDR always failing: 10 tries, then a one-line error */
	tap_ok(source_open(&s, "sim:rndr,fail=1", &e) == 0, "open sim:rndr,fail=1");
	got = source_read(s, buf, 64, &e);
	source_get_counters(s, &c);
	tap_ok(got == ERR_SOURCE && strstr(e.msg, "10 consecutive failed reads") && strstr(e.msg, "NZCV=0100"),
	       "RNDR failing every read: error after 10 tries: %s", e.msg);
	tap_ok(c.calls == 10 && c.underflows == 10 && c.exhausted == 1 && c.bytes == 0,
	       "counters: 10 calls, 10 failures, 1 exhausted, 0 bytes");
	source_close(s);

	/* RNDRRS gets 100 tries */
	tap_ok(source_open(&s, "sim:rndrrs,fail=1", &e) == 0 && source_read(s, buf, 8, &e) == ERR_SOURCE &&
	       strstr(e.msg, "100 consecutive"), "RNDRRS failing every read: error after 100 tries");
	source_close(s);

	/* darn: the all-ones error never emitted; L=0's 0xFFFFFFFF is data */
	tap_ok(source_open(&s, "sim:darn,mode=1,fail=1", &e) == 0 && source_read(s, buf, 8, &e) == ERR_SOURCE &&
	       strstr(e.msg, "all-ones error value"), "darn L=1 always the error value: %s", e.msg);
	source_close(s);
	tap_ok(source_open(&s, "sim:darn,mode=1,fail=0.25", &e) == 0, "open sim:darn,mode=1,fail=0.25");
	got = read_some(s, buf, 8000, &e);
	source_get_counters(s, &c);
	tap_ok(got == 8000 && c.ones_words == 0 && c.underflows > 0,
	       "darn L=1 with errors: %llu errors counted, no all-ones word emitted", (unsigned long long)c.underflows);
	source_close(s);
	tap_ok(source_open(&s, "sim:darn,mode=0,ones=1", &e) == 0, "open sim:darn,mode=0,ones=1");
	got = read_some(s, buf, 4000, &e);
	source_get_counters(s, &c);
	for (int i = 0; i < 4000; i++)
		all &= buf[i] == 0xFF;
	tap_ok(got == 4000 && all && c.words == 1000 && c.ones_words == 1000 && c.underflows == 0,
	       "darn L=0: 1000 valid 32-bit 0xFFFFFFFF samples emitted (and counted as all-ones words)");
	tap_ok(source_get_info(s)->word_bits == 32 && source_get_info(s)->kind == SOURCE_CONDITIONED,
	       "darn L=0: 32-bit words of conditioned output");
	source_close(s);
	expect_open_error("sim:darn,mode=1,ones=0.5", ERR_USAGE, "ones= needs mode=0");

	/* PRNO query without function 114 */
	expect_open_error("sim:trng,query=missing", ERR_UNAVAILABLE,
			  "CPU lacks the TRNG function (PRNO query: function 114");
	tap_ok(source_open(&s, "sim:trng,part=raw", &e) == 0 && source_get_info(s)->kind == SOURCE_RAW &&
	       read_some(s, buf, 64, &e) == 64, "sim:trng,part=raw reads raw 64-bit words");
	source_close(s);

	/* seed: WAIT retried and counted, DEAD unrecoverable */
	tap_ok(source_open(&s, "sim:seed,wait=0.5", &e) == 0, "open sim:seed,wait=0.5");
	got = read_some(s, buf, 2000, &e);
	source_get_counters(s, &c);
	tap_ok(got == 2000 && c.words == 1000 && c.underflows > 0 && source_get_info(s)->word_bits == 16,
	       "seed: 1000 16-bit words, %llu WAITs counted", (unsigned long long)c.underflows);
	source_close(s);
	tap_ok(source_open(&s, "sim:seed,dead=3", &e) == 0, "open sim:seed,dead=3");
	got = source_read(s, buf, 16, &e);
	tap_ok(got == 6, "seed dead after 3 reads: the 3 words before come out (%zd bytes)", got);
	got = source_read(s, buf, 16, &e);
	source_get_counters(s, &c);
	/* exhausted 2: the first read met DEAD too, after its 3 words, and
	 * returned those (a short read); the second has nothing before it */
	tap_ok(got == ERR_SOURCE && strstr(e.msg, "unrecoverable") && c.exhausted == 2 && c.retries == 0,
	       "then OPST DEAD is an error at once, never retried: %s", e.msg);
	source_close(s);

	/* stand-ins for the trust decision */
	tap_ok(source_open(&s, "sim:rndr,as=rndr", &e) == 0 && strcmp(source_get_info(s)->as, "rndr") == 0 &&
	       source_get_info(s)->simulated, "sim:rndr,as=rndr stands in for rndr");
	source_close(s);
	tap_ok(source_open(&s, "sim:ideal,as=darn", &e) == 0 && strcmp(source_get_info(s)->as, "darn") == 0,
	       "sim:ideal,as=darn is accepted");
	source_close(s);
	expect_open_error("sim:ideal,as=bogus", ERR_USAGE, "rndr, rndrrs, darn, trng or seed");
	expect_open_error("sim:rndr,fail=2", ERR_USAGE, "fail=2");
	expect_open_error("sim:rndr,width=32", ERR_USAGE, "unknown option 'width'");
}

static int on_own_arch(const char *name, const char *machine)
{
	const char *arch = strcmp(name, "rndr") == 0 || strcmp(name, "rndrrs") == 0 ? "aarch64"
			   : strcmp(name, "darn") == 0 ? "ppc64" : strcmp(name, "trng") == 0 ? "s390x" : "riscv64";
	return strncmp(machine, arch, strlen(arch)) == 0;
}

/* The real sources: here, or "not available on <machine>". */
static void test_real(void)
{
	static const char *const names[] = { "rndr", "rndrrs", "darn", "trng", "seed" };
	struct utsname u;
	char alias[64];

	uname(&u);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct source_probe p;
		struct source *s = NULL;
		struct err e = { 0 };
		int own = on_own_arch(names[i], u.machine), listed = 0, dflt = 0;
		for (const char *const *n = source_real_names; *n; n++)
			listed |= strcmp(*n, names[i]) == 0;
		for (const char *const *n = source_default_names; *n; n++)
			dflt |= strcmp(*n, names[i]) == 0;
		tap_ok(listed, "%s is in the source table", names[i]);
		tap_ok(dflt == own, "%s is in the default audit only on its own architecture (%s here)", names[i],
		       own ? "in" : "out");
		int prc = source_probe(names[i], &p);   /* before tap_ok: its arguments print p */
		tap_ok(prc == 0 && p.other_arch == !own && p.what[0], "%s probe: other_arch %d, what '%s'", names[i],
		       p.other_arch, p.what);
		if (!own) {
			char want[128];
			snprintf(want, sizeof want, "%s: not available on %s", names[i], u.machine);
			tap_ok(!p.available && strstr(p.why, "not available on"), "%s unavailable here: %s", names[i], p.why);
			expect_open_error(names[i], ERR_UNAVAILABLE, want);
			continue;
		}
		if (!p.available) {
			/* a CPU (or qemu model) without it: refused, never SIGILL */
			tap_ok(p.why[0] != '\0', "%s: this CPU lacks it: %s", names[i], p.why);
			tap_ok(source_open(&s, names[i], &e) == ERR_UNAVAILABLE && strstr(e.msg, p.why),
			       "opening %s fails in one line: %s", names[i], e.msg);
			source_close(s);
			continue;
		}
		{
			static uint8_t buf[4096];
			struct source_counters c;
			tap_ok(source_open(&s, names[i], &e) == 0, "%s opens here (%s)", names[i], p.detail);
			tap_ok(s && read_some(s, buf, sizeof buf, &e) == (ssize_t)sizeof buf, "%s reads 4096 bytes", names[i]);
			if (s) {
				source_get_counters(s, &c);
				tap_ok(c.zero_words + c.ones_words <= 1, "%s: no run of all-zero/all-ones words", names[i]);
			}
			source_close(s);
		}
	}
	tap_eq_str(cpurng_spec_alias("trng:raw", alias, sizeof alias), "trng:part=raw", "trng:raw means trng:part=raw");
	tap_eq_str(cpurng_spec_alias("trng:rawx", alias, sizeof alias), "trng:rawx", "trng:rawx is left alone");
	expect_open_error("darn:mode=3", ERR_USAGE, "mode=3");
	expect_open_error("trng:part=half", ERR_USAGE, "must be conditioned or raw");
}

int main(void)
{
	test_decoders();
	test_guard();
	test_sim_failures();
	test_real();
	return tap_done();
}
