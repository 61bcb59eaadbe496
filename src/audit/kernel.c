/* kernel.c - the kernel's RNG context: what it credits, from where, and
 * why (see kernel.h).  The parsing is in kparse.c; this file reads the
 * files (through sysroot.c), resolves the trust settings by kernel version
 * and reports each item with its source or the reason it is unknown.
 *
 * The history the resolution follows (mainline commits, checked against
 * the kernel's own shortlogs):
 *  - 39a8883a2b98 "random: add a config option to trust the CPU's hwrng"
 *    and 9b25436662d5 "random: make CPU trust a boot parameter" (4.19):
 *    CONFIG_RANDOM_TRUST_CPU (Kconfig default n) and random.trust_cpu=.
 *    Both were backported to older stable series in 2022 (e.g. 4.9.320),
 *    so a kernel before 4.19 is read from its config when there is one.
 *  - CONFIG_RANDOM_TRUST_BOOTLOADER appeared in 5.4; the commit that added
 *    it could not be confirmed with the search tool here.
 *  - d97c68d178fb "random: treat bootloader trust toggle the same way as
 *    cpu trust toggle" (5.18, 2022): random.trust_bootloader=.
 *  - 846bb97e131d "random: credit cpu and bootloader seeds by default"
 *    (5.19): both Kconfig defaults become y (existing configs unchanged).
 *  - b9b01a5625b5 "random: use random.trust_{bootloader,cpu} command line
 *    option only" (6.2): both options removed; the built-in default is
 *    true, and only the command line can turn trust off.
 *  - 049f9ae93d03 "x86/rdrand: Remove "nordrand" flag in favor of
 *    "random.trust_cpu"" (6.0): nordrand no longer clears RDRAND.
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

/* Size limits: a kernel command line is at most COMMAND_LINE_SIZE (2048 on
 * x86, 4096 elsewhere); a config is ~300 KB, compressed ~70 KB; a sysfs
 * value at most a page.  Anything far larger is not what it claims. */
#define KERNEL_CMDLINE_MAX (64u << 10)
#define KERNEL_CONFIG_MAX (16u << 20)
#define KERNEL_CONFIGGZ_MAX (4u << 20)
#define KERNEL_CPUINFO_MAX (16u << 20)
#define KERNEL_LOG_MAX (4u << 20)
#define KERNEL_VALUE_MAX 4096u

#define KV(maj, min) ((maj) * 1000u + (min))

const char *kernel_tri_token(enum kernel_tri t)
{
	return t == KERNEL_ON ? "on" : t == KERNEL_OFF ? "off" : "unknown";
}

/* Per setting: the parameter, the option and the versions that bound them. */
static const struct {
	const char *param, *option;
	unsigned param_since, option_since, removed;
} kernel_trust_spec[] = {
	[KERNEL_TRUST_CPU] = { "random.trust_cpu", "CONFIG_RANDOM_TRUST_CPU", KV(4, 19), KV(4, 19), KV(6, 2) },
	[KERNEL_TRUST_BOOTLOADER] = { "random.trust_bootloader", "CONFIG_RANDOM_TRUST_BOOTLOADER", KV(5, 18),
				      KV(5, 4), KV(6, 2) },
};

static void kernel_trust_default(enum kernel_trust_kind kind, const struct kernel_trust_input *in,
				 unsigned v, struct kernel_trust *out, const char *note)
{
	const char *opt = kernel_trust_spec[kind].option;
	if (in->release_known && v >= kernel_trust_spec[kind].removed) {
		out->state = KERNEL_ON;
		snprintf(out->source, sizeof out->source, "kernel default since 6.2");
		snprintf(out->reason, sizeof out->reason, "kernel default since 6.2%s", note);
	} else if (in->config_known && in->option) {
		int y = strcmp(in->option_value, "y") == 0;
		out->state = y ? KERNEL_ON : KERNEL_OFF;
		snprintf(out->source, sizeof out->source, "CONFIG default");
		snprintf(out->reason, sizeof out->reason, "CONFIG default (%s=%s)%s", opt,
			 y ? "y" : in->option_value[0] == 'n' ? "n" : in->option_value, note);
	} else if (in->config_known) {
		/* IS_ENABLED() of an option the build does not have is false. */
		out->state = KERNEL_OFF;
		snprintf(out->source, sizeof out->source, "CONFIG default");
		snprintf(out->reason, sizeof out->reason, "CONFIG default (%s absent)%s", opt, note);
	} else {
		out->state = KERNEL_UNKNOWN;
		snprintf(out->source, sizeof out->source, "unknown");
		snprintf(out->reason, sizeof out->reason, "%s, which decides the default, is unreadable%s%s",
			 in->release_known ? "the kernel config" : "the kernel release", note,
			 in->release_known && v >= KV(5, 19) ? " (its Kconfig default is y since 5.19)" : "");
	}
}

void kernel_trust_resolve(enum kernel_trust_kind kind, const struct kernel_trust_input *in,
			  struct kernel_trust *out)
{
	unsigned v = in->release_known ? KV(in->major, in->minor) : 0;
	const char *param = kernel_trust_spec[kind].param;
	char note[KERNEL_WHY_MAX / 2] = "";
	int honoured;

	/* The parameter exists from its version on; for the CPU a config that
	 * has the option shows the 2022 stable backport, which brought both. */
	honoured = in->release_known ? v >= kernel_trust_spec[kind].param_since ||
				       (kind == KERNEL_TRUST_CPU && in->config_known && in->option)
				     : -1;
	if (in->cmdline_known && in->param) {
		int b = in->param == 1 ? kparse_kstrtobool(in->value, strlen(in->value)) : -1;
		if (b < 0) {
			snprintf(note, sizeof note, "; %s%s%.24s is not a boolean, so the kernel ignores it",
				 param, in->param == 1 ? "=" : "", in->param == 1 ? in->value : "");
		} else if (honoured == 0) {
			snprintf(note, sizeof note, "; %s= is ignored before %u.%u", param,
				 kernel_trust_spec[kind].param_since / 1000, kernel_trust_spec[kind].param_since % 1000);
		} else if (honoured < 0) {
			out->state = KERNEL_UNKNOWN;
			snprintf(out->source, sizeof out->source, "unknown");
			snprintf(out->reason, sizeof out->reason,
				 "command line has %s=%.24s, but the kernel release (which decides whether it is read) is unknown",
				 param, in->value);
			return;
		} else {
			out->state = b ? KERNEL_ON : KERNEL_OFF;
			snprintf(out->source, sizeof out->source, "command line");
			snprintf(out->reason, sizeof out->reason, "command line: %s=%.24s", param, in->value);
			return;
		}
	}
	if (!in->cmdline_known)
		snprintf(note, sizeof note, "; the command line is unreadable, so a %s= there would not be seen", param);
	kernel_trust_default(kind, in, v, out, note);
	/* The default is known but an override would not be seen: unknown. */
	if (!in->cmdline_known) {
		out->state = KERNEL_UNKNOWN;
		snprintf(out->source, sizeof out->source, "unknown");
	}
}

static void kernel_release(struct kernel_ctx *k, const struct sysroot *sr)
{
	char *buf, why[96];
	size_t len;
	if (sysroot_read(sr, "/proc/sys/kernel/osrelease", KERNEL_VALUE_MAX, &buf, &len, why, sizeof why) != 0) {
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease: %s", why);
		return;
	}
	if (kparse_word(buf, len, k->release, sizeof k->release, why, sizeof why) != 0) {
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease: %.90s", why);
	} else if (kparse_release(k->release, strlen(k->release), &k->major, &k->minor) != 0) {
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease: '%.40s' is not MAJOR.MINOR...",
			 k->release);
	} else {
		k->release_known = 1;
		snprintf(k->release_why, sizeof k->release_why, "/proc/sys/kernel/osrelease");
	}
	free(buf);
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
		char val[64] = "", opt[32] = "";
		in.release_known = k->release_known;
		in.major = k->major;
		in.minor = k->minor;
		in.cmdline_known = cmdline != NULL;
		if (cmdline)
			in.param = kparse_cmdline_param(cmdline, clen, kernel_trust_spec[kind].param, val, sizeof val);
		in.value = val;
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

static void kernel_flags(struct kernel_ctx *k, const struct sysroot *sr, const struct kernel_read_opts *o,
			 const char *cmdline, size_t clen, const char *cpuinfo, size_t cilen)
{
	static const struct { const char *name; unsigned bit; } f[] = {
		{ "rdrand", KPARSE_LOG_RDRAND }, { "rdseed", KPARSE_LOG_RDSEED },
	};
	struct kparse_log log;
	struct kparse_cpuflags cf = { 0 };
	char *lbuf = NULL, why[128], val[256];
	size_t llen = 0;
	unsigned clear = 0;
	int cpuid[2] = { -1, -1 };

	memset(&log, 0, sizeof log);
	if (kernel_log_read(sr, &lbuf, &llen, why, sizeof why) == 0)
		kparse_log_scan(lbuf, llen, &log);
	else {
		char s[200];
		snprintf(s, sizeof s, "kernel log unreadable (%.150s)", why);
		kernel_evidence(k, "", s);
	}
	free(lbuf);
	if (cmdline && kparse_cmdline_param(cmdline, clen, "clearcpuid", val, sizeof val) == 1)
		clear = kparse_clearcpuid(val, strlen(val));
	/* nordrand cleared RDRAND until 6.0 (049f9ae93d03). */
	if (cmdline && kparse_cmdline_param(cmdline, clen, "nordrand", val, sizeof val) == 2 &&
	    k->release_known && KV(k->major, k->minor) < KV(6, 0))
		clear |= KPARSE_LOG_RDRAND << 8;
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
		const struct quirk *q;
		char s[240];
		if (log.cleared & f[i].bit) {
			k->cleared |= f[i].bit;
			snprintf(s, sizeof s, "cleared (kernel log: \"%.160s\")", i == 0 ? log.rdrand_line : log.rdseed_line);
			kernel_evidence(k, f[i].name, s);
		} else if (clear & f[i].bit) {
			k->cleared |= f[i].bit;
			kernel_evidence(k, f[i].name, "cleared (command line clearcpuid=)");
		} else if (clear & (f[i].bit << 8)) {
			k->cleared |= f[i].bit;
			kernel_evidence(k, f[i].name, "cleared (command line nordrand)");
		} else if (cf.known && !in_cpuinfo && (q = kernel_quirk(o, f[i].name)) != NULL) {
			k->cleared |= f[i].bit;
			snprintf(s, sizeof s, "cleared (quirk %.48s matches this CPU and microcode)", q->id);
			kernel_evidence(k, f[i].name, s);
		} else if (cf.known && !in_cpuinfo && cpuid[i] == 1) {
			k->hidden |= f[i].bit;
			kernel_evidence(k, f[i].name, "hidden (kernel or hypervisor: CPUID has it, /proc/cpuinfo does not)");
		}
	}
	if (!cf.known)
		kernel_evidence(k, "", cpuinfo ? "/proc/cpuinfo: no flags line" : "/proc/cpuinfo: unreadable");
	for (size_t i = 0; i < 2; i++)
		if (k->cleared & f[i].bit) {
			size_t n = strlen(k->cleared_names);
			snprintf(k->cleared_names + n, sizeof k->cleared_names - n, "%s%s", n ? " " : "", f[i].name);
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
	k->virtualized = k->crng_ready = KERNEL_UNKNOWN;
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
