/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel.c - the kernel's RNG context: what it credits, from where, and
 * why (see kernel.h).  The parsing is in kparse.c; this file reads the
 * files (through sysroot.c), resolves the trust settings by kernel version
 * and reports each item with its source or the reason it is unknown.
 *
 * The history the resolution follows (mainline commits and their stable
 * backports, checked in the kernel's mailing-list archives: tip-bot2
 * Commit-ID mails, the random.c pull requests, stable review and release
 * mails; see issue 23):
 *  - 39a8883a2b98 "random: add a config option to trust the CPU's hwrng"
 *    and 9b25436662d5 "random: make CPU trust a boot parameter" (4.19):
 *    CONFIG_RANDOM_TRUST_CPU and random.trust_cpu=, parsed by kstrtobool()
 *    as an early_param: a value that version does not accept is ignored
 *    ("Malformed early option"), the last accepted occurrence wins, and
 *    parse_args() stops at "--".  Both came to 4.14.285 with the 2022
 *    random.c backport, so a config that has the option shows it.
 *  - d97c68d178fb "random: treat bootloader trust toggle the same way as
 *    cpu trust toggle" (5.18): random.trust_bootloader=; in the 2022 stable
 *    backport: 5.17.12, 5.15.44, 5.10.119 (30 May 2022), 5.4.200,
 *    4.19.249, 4.14.285 (June 2022).
 *  - 846bb97e131d "random: credit cpu and bootloader seeds by default"
 *    (5.19; 5.15.49, 5.10.124, 5.4.200, 4.19.249, 4.14.285): the Kconfig
 *    defaults only, "it doesn't actually change any behavior" of a kernel
 *    built from an existing config; the config decides.
 *  - b9b01a5625b5 "random: use random.trust_{bootloader,cpu} command line
 *    option only" (6.2): both options removed; the built-in default is
 *    true, and only the command line can turn trust off.
 *  - 049f9ae93d03 "x86/rdrand: Remove "nordrand" flag in favor of
 *    "random.trust_cpu"" (6.0): nordrand, which cleared RDRAND and RDSEED,
 *    is gone (an unknown parameter, handed to init).
  */
#include "config.h"

#include "audit/kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif
#if defined(HAVE_CPUID_H) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define KERNEL_HAVE_CPUID 1
#endif

#include "audit/kernel_int.h"
#include "audit/kfacts.h"
#include "audit/kversion.h"

/* Size limits: a kernel command line is at most COMMAND_LINE_SIZE (2048 on
 * x86, 4096 elsewhere); a config is ~300 KB, compressed ~70 KB; a sysfs
 * value at most a page.  Anything far larger is not what it claims. */
#define KERNEL_CMDLINE_MAX (64u << 10)
#define KERNEL_CONFIG_MAX (16u << 20)
#define KERNEL_CONFIGGZ_MAX (4u << 20)
#define KERNEL_CPUINFO_MAX (16u << 20)
#define KERNEL_LOG_MAX (4u << 20)
#define KERNEL_VALUE_MAX 4096u

const char *kernel_tri_token(enum kernel_tri t)
{
	return t == KERNEL_ON ? "on" : t == KERNEL_OFF ? "off" : "unknown";
}

/* Per setting: the parameter, the option, and the versions that have them. */
static const struct {
	const char *param, *option;
	const struct kfact *param_since;   /* the kernel reads the parameter (kfacts.h) */
	unsigned option_since, removed;
} kernel_trust_spec[] = {
	[KERNEL_TRUST_CPU] = { "random.trust_cpu", "CONFIG_RANDOM_TRUST_CPU", &kfact_trust_cpu_param,
			       KV(4, 19), KV(6, 2) },
	[KERNEL_TRUST_BOOTLOADER] = { "random.trust_bootloader", "CONFIG_RANDOM_TRUST_BOOTLOADER",
				      &kfact_trust_bootloader_param, KV(5, 4), KV(6, 2) },
};

static void kernel_trust_default(enum kernel_trust_kind kind, const struct kernel_trust_input *in,
				 struct kernel_trust *out, const char *note)
{
	const char *opt = kernel_trust_spec[kind].option;
	unsigned v = in->v.known ? KV(in->v.major, in->v.minor) : 0;
	if (in->v.known && v >= kernel_trust_spec[kind].removed) {
		out->state = KERNEL_ON;
		snprintf(out->source, sizeof out->source, "kernel default since 6.2");
		snprintf(out->reason, sizeof out->reason, "kernel default since 6.2 (b9b01a5625b5)%s", note);
	} else if (in->config_known && in->option) {
		int y = strcmp(in->option_value, "y") == 0;
		out->state = y ? KERNEL_ON : KERNEL_OFF;
		snprintf(out->source, sizeof out->source, "CONFIG default");
		snprintf(out->reason, sizeof out->reason, "CONFIG default (%s=%s)%s", opt,
			 y ? "y" : in->option_value[0] == 'n' ? "n" : in->option_value, note);
	} else if (in->config_known && in->v.known) {
		/* IS_ENABLED() of an option the build does not have is false. */
		out->state = KERNEL_OFF;
		snprintf(out->source, sizeof out->source, "CONFIG default");
		snprintf(out->reason, sizeof out->reason, "CONFIG default (%s absent)%s", opt, note);
	} else {
		out->state = KERNEL_UNKNOWN;
		snprintf(out->source, sizeof out->source, "unknown");
		snprintf(out->reason, sizeof out->reason, "%s, which decides the default, is unreadable%s",
			 in->v.known ? "the kernel config" : "the kernel release", note);
	}
}

/* The command line's occurrences of a trust parameter, in order, as the
 * kernel of that version handles them (kstrtobool(), early_param). */
struct kernel_param_walk {
	unsigned kv;                  /* KV() or 0 unknown */
	int last;                     /* the last accepted value: 1, 0; -1 none */
	char last_text[40];
	int uncertain;                /* an occurrence after it may or may not be accepted */
	char uncertain_text[40];
	int ignored;                  /* occurrences the kernel ignores */
	char ignored_text[40];
	int seen;                     /* occurrences before "--" */
	int after_dashes;             /* occurrences after "--" (init's) */
};

static void kernel_quote(char *dst, size_t dlen, const char *v, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 1 < dlen; i++)
		dst[j++] = v[i] >= ' ' && v[i] <= '~' ? v[i] : '?';
	dst[j] = '\0';
}

static int kernel_param_one(const char *val, size_t n, int has_value, int after_dashes, void *arg)
{
	struct kernel_param_walk *w = arg;
	int b;

	if (after_dashes) {
		w->after_dashes++;
		return 0;
	}
	w->seen++;
	b = has_value ? kparse_kstrtobool_v(val, n, w->kv) : -1;   /* bare: kstrtobool(NULL) fails */
	if (b >= 0) {
		w->last = b;
		w->uncertain = 0;
		kernel_quote(w->last_text, sizeof w->last_text, val, n);
	} else if (b == -2) {
		w->uncertain = 1;
		kernel_quote(w->uncertain_text, sizeof w->uncertain_text, val, n);
	} else {
		w->ignored++;
		if (has_value)
			kernel_quote(w->ignored_text, sizeof w->ignored_text, val, n);
		else
			snprintf(w->ignored_text, sizeof w->ignored_text, "(no value)");
	}
	return 0;
}

void kernel_trust_resolve(enum kernel_trust_kind kind, const struct kernel_trust_input *in,
			  struct kernel_trust *out)
{
	const char *param = kernel_trust_spec[kind].param;
	struct kernel_param_walk w = { 0 };
	char note[KERNEL_WHY_MAX / 2] = "";
	int honoured;

	memset(out, 0, sizeof *out);
	w.kv = in->v.known ? KV(in->v.major, in->v.minor) : 0;
	w.last = -1;
	/* The parameter exists from its version on (and on the stable series
	 * it was backported to); for the CPU a config that has the option
	 * shows the backport, which brought both. */
	honoured = kversion_has(&in->v, kernel_trust_spec[kind].param_since);
	if (honoured != 1 && kind == KERNEL_TRUST_CPU && in->config_known && in->option)
		honoured = 1;
	if (in->cmdline)
		kparse_cmdline_each(in->cmdline, in->cmdline_len, param, kernel_param_one, &w);
	if (w.after_dashes && !w.seen)
		snprintf(note, sizeof note, "; %s after \"--\" goes to init, not the kernel", param);
	if (w.seen && honoured == 0) {
		snprintf(note, sizeof note, "; %s= is ignored by %u.%u (it needs %u.%u%s)", param, in->v.major,
			 in->v.minor, kernel_trust_spec[kind].param_since->since / 1000,
			 kernel_trust_spec[kind].param_since->since % 1000,
			 kind == KERNEL_TRUST_BOOTLOADER ? " or the 2022 stable backport" : "");
	} else if (w.seen && (honoured < 0 || w.uncertain)) {
		out->state = KERNEL_UNKNOWN;
		snprintf(out->source, sizeof out->source, "unknown");
		if (honoured < 0)
			snprintf(out->reason, sizeof out->reason,
				 "the command line sets %s, but whether this kernel reads it depends on its %s, "
				 "which is unknown", param, in->v.known ? "stable sublevel" : "version");
		else
			snprintf(out->reason, sizeof out->reason,
				 "command line: %s=%s is a boolean only on some kernels (t/f since 5.19, e/d since "
				 "6.16) and this kernel's version is unknown", param, w.uncertain_text);
		return;
	} else if (w.seen && w.last >= 0) {
		out->state = w.last ? KERNEL_ON : KERNEL_OFF;
		snprintf(out->source, sizeof out->source, "command line");
		snprintf(out->reason, sizeof out->reason, "command line: %s=%s%s%s%s", param, w.last_text,
			 w.ignored ? " (a later " : "", w.ignored ? w.ignored_text : "",
			 w.ignored ? " is not a boolean this kernel accepts, so it is ignored)" : "");
		return;
	} else if (w.seen) {
		snprintf(note, sizeof note, "; %s=%s is not a boolean this kernel accepts, so it is ignored", param,
			 w.ignored_text);
	}
	if (!in->cmdline)
		snprintf(note, sizeof note, "; the command line is unreadable, so a %s= there would not be seen", param);
	kernel_trust_default(kind, in, out, note);
	/* The default is known but an override would not be seen: unknown. */
	if (!in->cmdline) {
		out->state = KERNEL_UNKNOWN;
		snprintf(out->source, sizeof out->source, "unknown");
	}
}

static void kernel_release(struct kernel_ctx *k, const struct sysroot *sr)
{
	static const char *const sig[] = { "/proc/version_signature", "/proc/version" };
	char *buf, why[96], from[128];
	size_t len;

	k->kv.sublevel = -1;
	if (sysroot_read(sr, "/proc/sys/kernel/osrelease", KERNEL_VALUE_MAX, &buf, &len, why, sizeof why) != 0) {
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease: %s", why);
		return;
	}
	if (kparse_word(buf, len, k->release, sizeof k->release, why, sizeof why) != 0) {
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease: %.90s", why);
	} else if (kversion_from_release(k->release, strlen(k->release), &k->kv) != 0) {
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease: '%.40s' is not MAJOR.MINOR...",
			 k->release);
	} else {
		k->release_known = 1;
		k->major = k->kv.major;
		k->minor = k->kv.minor;
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease");
	}
	free(buf);
	if (!k->release_known)
		return;
	snprintf(k->version_from, sizeof k->version_from, "the release %s", k->release);
	/* A distribution's release hides the sublevel: Ubuntu's signature,
	 * then Debian's package version in /proc/version. */
	for (size_t i = 0; k->kv.sublevel < 0 && i < sizeof sig / sizeof sig[0]; i++) {
		if (sysroot_read(sr, sig[i], KERNEL_VALUE_MAX, &buf, &len, why, sizeof why) != 0)
			continue;
		if (kversion_sublevel_from(buf, len, &k->kv, from, sizeof from))
			snprintf(k->version_from, sizeof k->version_from, "%s: %s", sig[i], from);
		free(buf);
	}
	if (k->kv.sublevel < 0)
		snprintf(k->version_from, sizeof k->version_from,
			 "the release %.60s (its sublevel is not in it, nor in /proc/version)", k->release);
	kversion_format(&k->kv, k->version, sizeof k->version);
}

/* /proc/config.gz (CONFIG_IKCONFIG_PROC), else /boot/config-RELEASE. */
static char *kernel_config(struct kernel_ctx *k, const struct sysroot *sr, size_t *len)
{
	char *gz, *text = NULL, why[96], boot[200];
	size_t gzlen;
	struct err e;

	if (sysroot_read(sr, "/proc/config.gz", KERNEL_CONFIGGZ_MAX, &gz, &gzlen, why, sizeof why) == 0) {
		int rc = kparse_gunzip(gz, gzlen, KERNEL_CONFIG_MAX, &text, len, "/proc/config.gz", &e);
		free(gz);
		if (rc == 0) {
			snprintf(k->config_from, sizeof k->config_from, "/proc/config.gz");
			return text;
		}
		snprintf(k->config_why, sizeof k->config_why, "%.180s", e.msg);
	} else {
		snprintf(k->config_why, sizeof k->config_why, "/proc/config.gz: %s", why);
	}
	if (!k->release[0])
		return NULL;
	snprintf(boot, sizeof boot, "/boot/config-%s", k->release);
	if (strchr(k->release, '/'))
		return NULL;
	if (sysroot_read(sr, boot, KERNEL_CONFIG_MAX, &text, len, why, sizeof why) == 0) {
		snprintf(k->config_from, sizeof k->config_from, "%s", boot);
		return text;
	}
	snprintf(k->config_why + strlen(k->config_why), sizeof k->config_why - strlen(k->config_why),
		 "; %s: %s", boot, why);
	return NULL;
}

static void kernel_trust_all(struct kernel_ctx *k, const char *cmdline, size_t clen, const char *config,
			     size_t cfglen)
{
	for (int kind = KERNEL_TRUST_CPU; kind <= KERNEL_TRUST_BOOTLOADER; kind++) {
		struct kernel_trust_input in = { 0 };
		char opt[32] = "";
		in.v = k->kv;
		in.cmdline = cmdline;
		in.cmdline_len = clen;
		in.config_known = config != NULL;
		if (config)
			in.option = kparse_config_option(config, cfglen, kernel_trust_spec[kind].option, opt, sizeof opt);
		in.option_value = opt;
		kernel_trust_resolve(kind, &in, kind == KERNEL_TRUST_CPU ? &k->trust_cpu : &k->trust_bootloader);
	}
}

/* /dev/kmsg: one record per read(2); EAGAIN at the end (O_NONBLOCK), EPIPE
 * when a record was overwritten while reading.  Keeps only the lines
 * kparse_log_relevant() wants, so the buffer stays small. */
static int kernel_kmsg(char **out, size_t *outlen, char *why, size_t whylen)
{
	char rec[8192];
	size_t cap = 1024, n = 0;
	char *buf;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, whylen, "/dev/kmsg: %s", strerror(errno));
		return -1;
	}
	if (!(buf = malloc(cap))) {
		close(fd);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (;;) {
		ssize_t r = read(fd, rec, sizeof rec - 1);
		if (r < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (r <= 0)
			break;
		if (!kparse_log_relevant(rec, (size_t)r))
			continue;
		if (n + (size_t)r + 1 > cap) {
			char *nb;
			if (cap > KERNEL_LOG_MAX)
				break;
			nb = realloc(buf, cap * 2 + (size_t)r);
			if (!nb)
				break;
			buf = nb;
			cap = cap * 2 + (size_t)r;
		}
		memcpy(buf + n, rec, (size_t)r);
		n += (size_t)r;
		if (buf[n - 1] != '\n')
			buf[n++] = '\n';
	}
	close(fd);
	*out = buf;
	*outlen = n;
	return 0;
}

/* Live: /dev/kmsg; in a sysroot: dmesg.txt. */
int kernel_log_read(const struct sysroot *sr, char **buf, size_t *len, char *why, size_t whylen)
{
	char w[96];
	if (sr->dirfd < 0)
		return kernel_kmsg(buf, len, why, whylen);
	if (sysroot_read(sr, "/dmesg.txt", KERNEL_LOG_MAX, buf, len, w, sizeof w) != 0) {
		snprintf(why, whylen, "dmesg.txt: %s", w);
		return -1;
	}
	return 0;
}

/* Appends "NAME WHAT" (NAME may be "") to the flags' evidence. */
static void kernel_evidence(struct kernel_ctx *k, const char *name, const char *what)
{
	size_t n = strlen(k->flags_evidence);
	snprintf(k->flags_evidence + n, sizeof k->flags_evidence - n, "%s%s%s%.200s", n ? "; " : "", name,
		 *name ? " " : "", what);
}

/* The quirk that explains a missing flag (the kernel clears RDRAND on AMD
 * family 15h/16h and RDSEED on Zen 5 by family/model/microcode). */
static const struct quirk *kernel_quirk(const struct kernel_read_opts *o, const char *src)
{
	static const unsigned widths[] = { 32, 64 };
	struct quirk_match qm[QUIRK_MATCH_MAX];
	if (!o->quirks || !o->cpu)
		return NULL;
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
		size_t n = quirks_match(o->quirks, o->cpu, src, widths[w], qm, QUIRK_MATCH_MAX);
		for (size_t i = 0; i < n; i++)
			if (qm[i].q->severity != QUIRK_INFO)
				return qm[i].q;
	}
	return NULL;
}

static void kernel_cpuid_rng(int *rdrand, int *rdseed)
{
	*rdrand = *rdseed = -1;
#ifdef KERNEL_HAVE_CPUID
	{
		unsigned a, b, c, d;
		if (__get_cpuid(1, &a, &b, &c, &d))
			*rdrand = (c >> 30) & 1;
		if (__get_cpuid_max(0, NULL) >= 7) {
			__cpuid_count(7, 0, a, b, c, d);
			*rdseed = (b >> 18) & 1;
		}
	}
#endif
}

/* clearcpuid= as x86's cmdline_find_option() reads it: the raw command line,
 * the last occurrence only; whether it stops at "--" is not established, so
 * an occurrence after it makes the result uncertain. */
struct kernel_clear_walk {
	char val[256];
	int found, after_dashes;
};

static int kernel_clear_one(const char *val, size_t n, int has_value, int after_dashes, void *arg)
{
	struct kernel_clear_walk *w = arg;
	if (!has_value)
		return 0;
	if (n >= sizeof w->val)
		n = sizeof w->val - 1;
	memcpy(w->val, val, n);
	w->val[n] = '\0';
	w->found = 1;
	w->after_dashes = after_dashes;
	return 0;
}

/* nordrand (a __setup() handler: parse_args(), which stops at "--"). */
static int kernel_nordrand_one(const char *val, size_t n, int has_value, int after_dashes, void *arg)
{
	(void)val, (void)n, (void)has_value;
	if (!after_dashes)
		*(int *)arg = 1;
	return 0;
}

/* What the command line clears: *bits certainly, *maybe depending on an
 * unknown version; evidence phrases per flag. */
static void kernel_cmdline_clears(const struct kernel_ctx *k, const char *cmdline, size_t clen, unsigned *bits,
				  unsigned *maybe, char why[2][120])
{
	struct kernel_clear_walk cw = { .found = 0 };
	unsigned kv = k->kv.known ? KV(k->kv.major, k->kv.minor) : 0, c, u = 0;
	int nordrand = 0, sub54 = k->kv.sublevel < 0 ? -1 : k->kv.sublevel >= 73;

	*bits = *maybe = 0;
	why[0][0] = why[1][0] = '\0';
	if (!cmdline)
		return;
	kparse_cmdline_each(cmdline, clen, "clearcpuid", kernel_clear_one, &cw);
	if (cw.found) {
		c = kparse_clearcpuid_v(cw.val, strlen(cw.val), kv, sub54, &u);
		if (cw.after_dashes) {
			u |= c;
			c = 0;
		}
		*bits |= c;
		*maybe |= u;
		for (int i = 0; i < 2; i++)
			if ((c | u) & (1u << i))
				snprintf(why[i], sizeof why[i], "clearcpuid=%.40s%s", cw.val,
					 (u & (1u << i)) ? (cw.after_dashes ? " (after \"--\": may not reach the kernel)"
							   : " (names need 5.19, lists 5.10: the version decides)") : "");
	}
	/* nordrand cleared RDRAND and RDSEED until 049f9ae93d03 (6.0). */
	kparse_cmdline_each(cmdline, clen, "nordrand", kernel_nordrand_one, &nordrand);
	if (nordrand && (!kv || kv < KV(6, 0))) {
		unsigned both = KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED;
		if (kv)
			*bits |= both;
		else
			*maybe |= both;
		for (int i = 0; i < 2; i++)
			if (!why[i][0])
				snprintf(why[i], sizeof why[i], "nordrand%s", kv ? "" : " (before 6.0 only)");
	}
}

static void kernel_flags(struct kernel_ctx *k, const struct sysroot *sr, const struct kernel_read_opts *o,
			 const char *cmdline, size_t clen, const char *cpuinfo, size_t cilen)
{
	static const struct { const char *name; unsigned bit; } f[] = {
		{ "rdrand", KPARSE_LOG_RDRAND }, { "rdseed", KPARSE_LOG_RDSEED },
	};
	struct kparse_log log;
	struct kparse_cpuflags cf = { 0 };
	char *lbuf = NULL, why[128], cwhy[2][120];
	size_t llen = 0;
	unsigned clear = 0, maybe = 0;
	int cpuid[2] = { -1, -1 }, log_known;

	memset(&log, 0, sizeof log);
	log_known = kernel_log_read(sr, &lbuf, &llen, why, sizeof why) == 0;
	if (log_known)
		kparse_log_scan(lbuf, llen, &log);
	else {
		char s[200];
		snprintf(s, sizeof s, "kernel log unreadable (%.150s)", why);
		kernel_evidence(k, "", s);
	}
	free(lbuf);
	kernel_cmdline_clears(k, cmdline, clen, &clear, &maybe, cwhy);
	if (cpuinfo) {
		kparse_cpuinfo_flags(cpuinfo, cilen, &cf);
		k->cpuinfo_known = cf.known;
		k->cpuinfo_rdrand = cf.rdrand;
		k->cpuinfo_rdseed = cf.rdseed;
	}
	if (sr->dirfd < 0)
		kernel_cpuid_rng(&cpuid[0], &cpuid[1]);
	for (size_t i = 0; i < 2; i++) {
		int in_cpuinfo = i == 0 ? cf.rdrand : cf.rdseed;
		const char *line = i == 0 ? log.rdrand_line : log.rdseed_line;
		const char *commit = i == 0 ? log.rdrand_commit : log.rdseed_commit;
		const struct quirk *q;
		char s[320];

		if (cf.known && in_cpuinfo) {
			/* /proc/cpuinfo is this boot's word: the kernel uses it */
			if (log.cleared & f[i].bit) {
				snprintf(s, sizeof s, "in /proc/cpuinfo although the kernel log says \"%.120s\" "
					 "(a log of another boot?): the kernel uses it", line);
				kernel_evidence(k, f[i].name, s);
			}
		} else if (log.cleared & f[i].bit) {
			k->cleared |= f[i].bit;
			snprintf(s, sizeof s, "cleared (kernel log: \"%.160s\", %s)%s", line, commit,
				 (log.hidden & f[i].bit) ? "; also hidden from user CPUID on bare metal" : "");
			kernel_evidence(k, f[i].name, s);
		} else if (clear & f[i].bit) {
			k->cleared |= f[i].bit;
			snprintf(s, sizeof s, "cleared (command line %s; user CPUID keeps it)", cwhy[i]);
			kernel_evidence(k, f[i].name, s);
		} else if (cf.known && !in_cpuinfo && (q = kernel_quirk(o, f[i].name)) != NULL) {
			k->cleared |= f[i].bit;
			snprintf(s, sizeof s, "cleared (quirk %.48s matches this CPU and microcode)", q->id);
			kernel_evidence(k, f[i].name, s);
		} else if (cf.known && !in_cpuinfo) {
			/* A flag missing from /proc/cpuinfo is neither used nor
			 * credited, whatever the reason. */
			k->hidden |= f[i].bit;
			kernel_evidence(k, f[i].name, cpuid[i] == 1
					? "hidden (absent from /proc/cpuinfo, present in CPUID: the kernel or hypervisor "
					  "cleared it; the kernel neither uses nor credits it)"
					: "absent from /proc/cpuinfo (the kernel neither uses nor credits it)");
		} else if (!cf.known && (maybe & f[i].bit)) {
			snprintf(s, sizeof s, "may be cleared (command line %s)", cwhy[i]);
			kernel_evidence(k, f[i].name, s);
		}
		/* a warning leaves the flag in use: said as a warning, never a clear */
		if ((log.warned & f[i].bit) && !(k->cleared & f[i].bit) && !(k->hidden & f[i].bit)) {
			const char *w = i == 0 ? log.rdrand_warn : log.rdseed_warn;
			k->warned |= f[i].bit;
			snprintf(s, sizeof s, "warned, still in use and credited (kernel log: \"%.160s\", %s)", w,
				 i == 0 ? log.rdrand_warn_commit : log.rdseed_warn_commit);
			kernel_evidence(k, f[i].name, s);
		}
	}
	if (!cf.known)
		kernel_evidence(k, "", cpuinfo ? "/proc/cpuinfo: no flags line" : "/proc/cpuinfo: unreadable");
	for (size_t i = 0; i < 2; i++) {
		if (k->cleared & f[i].bit) {
			size_t n = strlen(k->cleared_names);
			snprintf(k->cleared_names + n, sizeof k->cleared_names - n, "%s%s", n ? " " : "", f[i].name);
		}
		if (k->warned & f[i].bit) {
			size_t n = strlen(k->warned_names);
			snprintf(k->warned_names + n, sizeof k->warned_names - n, "%s%s", n ? " " : "", f[i].name);
		}
	}
}

int kernel_read(struct kernel_ctx *k, const struct kernel_read_opts *o, struct err *e)
{
	struct sysroot sr;
	char *cmdline = NULL, *config = NULL, *cpuinfo = NULL, why[96];
	size_t clen = 0, cfglen = 0, cilen = 0;
	int rc;

	memset(k, 0, sizeof *k);
	k->rng_selected = -1;
	k->hwrng_quality = k->default_quality = k->entropy_avail = k->poolsize = -1;
	k->virtualized = k->crng_ready = k->hwrng_credit_counts = KERNEL_UNKNOWN;
	if ((rc = sysroot_open(&sr, o->sysroot, e)) != 0)
		return rc;
	snprintf(k->sysroot, sizeof k->sysroot, "%s", sr.path);

	kernel_release(k, &sr);
	if (sysroot_read(&sr, "/proc/cmdline", KERNEL_CMDLINE_MAX, &cmdline, &clen, why, sizeof why) == 0)
		k->cmdline_known = 1;
	else
		snprintf(k->cmdline_why, sizeof k->cmdline_why, "/proc/cmdline: %s", why);
	config = kernel_config(k, &sr, &cfglen);
	kernel_trust_all(k, cmdline, clen, config, cfglen);
	if (sysroot_read(&sr, "/proc/cpuinfo", KERNEL_CPUINFO_MAX, &cpuinfo, &cilen, why, sizeof why) != 0)
		cpuinfo = NULL;
	kernel_flags(k, &sr, o, cmdline, clen, cpuinfo, cilen);
	kernel_virt(k, &sr, cpuinfo, cilen);
	kernel_hwrng(k, &sr);
	kernel_crng(k, &sr);
	free(cmdline);
	free(config);
	free(cpuinfo);
	sysroot_close(&sr);
	return 0;
}
