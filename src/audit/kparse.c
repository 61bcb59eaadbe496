/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kparse.c - pure parsers for the kernel's RNG context (see kparse.h).
 * Each mirrors the kernel's own reading where there is one, so that a
 * value the kernel ignores is not reported as in force. */
#include "config.h"

#include "audit/kparse.h"

#include "audit/cpurng_arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kp_space(char c)
{
	/* The kernel's isspace() plus NUL: junk in a command line separates words. */
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == '\0';
}

/* KV(major, minor) as kversion.h spells it; 0 = unknown. */
#define KP_KV(maj, min) ((maj) * 1000u + (min))

int kparse_kstrtobool_v(const char *s, size_t len, unsigned kv)
{
	/* the version each first letter needs (lib/kstrtox.c) */
	unsigned since;
	int val;

	if (!s || len == 0)
		return -1;
	switch (s[0]) {
	case 'y': case 'Y': case '1':
		return 1;
	case 'n': case 'N': case '0':
		return 0;
	case 'o': case 'O':
		if (len < 2)
			return -1;
		if (s[1] == 'n' || s[1] == 'N')
			return 1;
		if (s[1] == 'f' || s[1] == 'F')
			return 0;
		return -1;
	case 't': case 'T':   /* 0d6ea3ac94ca "lib/kstrtox.c: add "false"/"true" support to kstrtobool()" (5.19) */
		since = KP_KV(5, 19), val = 1;
		break;
	case 'f': case 'F':
		since = KP_KV(5, 19), val = 0;
		break;
	case 'e': case 'E':   /* ae5b3500856f "kstrtox: add support for enabled and disabled in kstrtobool()" (6.16) */
		since = KP_KV(6, 16), val = 1;
		break;
	case 'd': case 'D':
		since = KP_KV(6, 16), val = 0;
		break;
	default:
		return -1;
	}
	if (kv == 0)
		return -2;
	return kv >= since ? val : -1;
}

int kparse_kstrtobool(const char *s, size_t len)
{
	return kparse_kstrtobool_v(s, len, ~0u);
}

/* parameq(): '-' and '_' are the same in parameter names. */
static int kp_name_eq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	if (alen != blen)
		return 0;
	for (size_t i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];
		if (x != y)
			return 0;
	}
	return 1;
}

/* One word of a command line as next_arg() (kernel/params.c) cuts it:
 * a double quote toggles quoting, the first '=' splits name from value. */
static size_t kp_next_word(const char *buf, size_t len, size_t i, size_t *start, size_t *end,
			   size_t *eq)
{
	int quoted = 0;
	while (i < len && kp_space(buf[i]))
		i++;
	*start = i;
	*eq = (size_t)-1;
	for (; i < len; i++) {
		if (buf[i] == '"')
			quoted = !quoted;
		else if (!quoted && kp_space(buf[i]))
			break;
		else if (buf[i] == '=' && *eq == (size_t)-1)
			*eq = i;
	}
	*end = i;
	return i;
}

void kparse_cmdline_each(const char *buf, size_t len, const char *name,
			 int (*fn)(const char *val, size_t vlen, int has_value, int after_dashes, void *arg),
			 void *arg)
{
	size_t i = 0, s, e, eq;
	int dashes = 0;

	while (i < len) {
		i = kp_next_word(buf, len, i, &s, &e, &eq);
		if (s == e)
			break;
		if (e - s == 2 && buf[s] == '-' && buf[s + 1] == '-' && !dashes) {
			dashes = 1;   /* kernel/params.c parse_args(): "Stop at --" */
			continue;
		}
		{
			size_t ns = s, ne = eq == (size_t)-1 ? e : eq;
			if (buf[ns] == '"')
				ns++;
			if (!kp_name_eq(buf + ns, ne > ns ? ne - ns : 0, name))
				continue;
		}
		if (eq == (size_t)-1) {
			if (fn(NULL, 0, 0, dashes, arg))
				return;
			continue;
		}
		{
			size_t vs = eq + 1, ve = e;
			if (vs < ve && buf[vs] == '"')
				vs++;
			if (ve > vs && buf[ve - 1] == '"')
				ve--;
			if (fn(buf + vs, ve - vs, 1, dashes, arg))
				return;
		}
	}
}

struct kp_last {
	char *val;
	size_t vlen;
	int found;
};

static int kp_last_one(const char *v, size_t n, int has_value, int after_dashes, void *arg)
{
	struct kp_last *l = arg;
	if (after_dashes)
		return 1;   /* the rest is init's */
	if (!has_value) {
		l->found = 2;
		if (l->vlen)
			l->val[0] = '\0';
		return 0;
	}
	if (l->vlen) {
		if (n >= l->vlen)
			n = l->vlen - 1;
		memcpy(l->val, v, n);
		l->val[n] = '\0';
	}
	l->found = 1;   /* later occurrences win, as each calls the handler again */
	return 0;
}

int kparse_cmdline_param(const char *buf, size_t len, const char *name, char *val, size_t vlen)
{
	struct kp_last l = { val, vlen, 0 };
	if (vlen)
		val[0] = '\0';
	kparse_cmdline_each(buf, len, name, kp_last_one, &l);
	return l.found;
}

/* Calls fn for each line of buf (without its newline); stops when fn returns nonzero. */
static void kp_lines(const char *buf, size_t len, int (*fn)(const char *, size_t, void *), void *arg)
{
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
		if (fn(buf + i, n, arg))
			return;
		i += n + 1;
	}
}

struct kp_config {
	const char *name;
	size_t nlen;
	char *val;
	size_t vlen;
	int found;
};

static void kp_copy(char *dst, size_t dlen, const char *src, size_t n)
{
	if (!dlen)
		return;
	if (n >= dlen)
		n = dlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int kp_config_line(const char *l, size_t n, void *arg)
{
	struct kp_config *c = arg;
	static const char notset[] = " is not set";
	if (n && l[n - 1] == '\r')
		n--;
	if (n > c->nlen + 1 && memcmp(l, c->name, c->nlen) == 0 && l[c->nlen] == '=') {
		kp_copy(c->val, c->vlen, l + c->nlen + 1, n - c->nlen - 1);
		c->found = 1;
	} else if (n == 2 + c->nlen + sizeof notset - 1 && l[0] == '#' && l[1] == ' ' &&
		   memcmp(l + 2, c->name, c->nlen) == 0 &&
		   memcmp(l + 2 + c->nlen, notset, sizeof notset - 1) == 0) {
		kp_copy(c->val, c->vlen, "n", 1);
		c->found = 1;
	}
	return 0;   /* the last mention wins, as in Kconfig */
}

int kparse_config_option(const char *buf, size_t len, const char *name, char *val, size_t vlen)
{
	struct kp_config c = { name, strlen(name), val, vlen, 0 };
	if (vlen)
		val[0] = '\0';
	kp_lines(buf, len, kp_config_line, &c);
	return c.found;
}

/* The kernel's log lines about the CPU RNG and what each does, checked in
 * the kernel's history (issue 23; the quoted text as it stands in the
 * source).  Order matters where one text contains another: the VM variant
 * of the 15h/16h line comes before the bare-metal one. */
static const struct {
	const char *text;
	unsigned cleared, warned, hidden;
	const char *commit;
} kp_log_lines[] = {
	/* 7879fc4bdc75 "x86/rdrand: Sanity-check RDRAND output" (5.5, not in
	 * stable; replaced in 6.0): pr_emerg after WARN_ON_ONCE, nothing
	 * cleared: RDRAND stays in use and credited. */
	{ "RDRAND gives funky smelling output", 0, KPARSE_LOG_RDRAND, 0, "7879fc4bdc75 (5.5-5.19)" },
	/* x86_init_rdrand() before 6.0: RDRAND returned CF=0 on every retry:
	 * clear_cpu_cap(RDRAND) only. */
	{ "rdrand: disabled", KPARSE_LOG_RDRAND, 0, 0, "x86_init_rdrand (before 6.0)" },
	/* 049f9ae93d03 "x86/rdrand: Remove "nordrand" flag in favor of
	 * "random.trust_cpu"" (6.0): the boot self-test clears both. */
	{ "RDRAND is not reliable on this platform; disabling.", KPARSE_LOG_RDRAND | KPARSE_LOG_RDSEED, 0, 0,
	  "049f9ae93d03 (6.0)" },
	/* 5b937a1ed64e "x86/rdrand: Disable RDSEED on AMD Cyan Skillfish"
	 * (6.16; 6.15.7, 6.12.39, 6.6.99): family 17h model 47h stepping 0,
	 * clear_cpu_cap + MSR C001_1002 bit 18 (user CPUID too, bare metal). */
	{ "RDSEED is not reliable on this platform; disabling.", KPARSE_LOG_RDSEED, 0, KPARSE_LOG_RDSEED,
	  "5b937a1ed64e (6.16)" },
	/* 607b9fb2ce24 "x86/CPU/AMD: Add RDSEED fix for Zen5" (6.18; 6.12.58):
	 * Zen 5 below the fixed microcode, clear_cpu_cap + the same MSR. */
	{ "RDSEED32 is broken", KPARSE_LOG_RDSEED, 0, KPARSE_LOG_RDSEED, "607b9fb2ce24 (6.18)" },
	/* c49a0a80137c "x86/CPU/AMD: Clear RDRAND CPUID bit on AMD family
	 * 15h/16h" (5.3; 4.19.69): when the hypervisor ignores the MSR write
	 * RDRAND stays (kernel flag and user CPUID); on bare metal it is
	 * cleared and hidden via MSR C001_1004 bit 62. */
	{ "hypervisor does not support hiding RDRAND via CPUID", 0, KPARSE_LOG_RDRAND, 0, "c49a0a80137c (5.3)" },
	{ "hiding RDRAND via CPUID. Use rdrand=force", KPARSE_LOG_RDRAND, 0, KPARSE_LOG_RDRAND,
	  "c49a0a80137c (5.3)" },
};

static const char *kp_memmem(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	if (nl > hl)
		return NULL;
	for (size_t i = 0; i + nl <= hl; i++)
		if (h[i] == n[0] && memcmp(h + i, n, nl) == 0)
			return h + i;
	return NULL;
}

/* The first table line l matches, or -1. */
static int kp_log_match(const char *l, size_t n)
{
	for (size_t i = 0; i < sizeof kp_log_lines / sizeof kp_log_lines[0]; i++)
		if (kp_memmem(l, n, kp_log_lines[i].text))
			return (int)i;
	return -1;
}

int kparse_log_relevant(const char *line, size_t len)
{
	/* and the lines that say which CPU or firmware RNG the kernel of
	 * another architecture found (issue 27) */
	return kp_log_match(line, len) >= 0 || cpurng_arch_log_relevant(line, len);
}

/* The message part of a log line: after "[ time] " or a kmsg "...;" prefix. */
static void kp_log_message(const char **l, size_t *n)
{
	const char *p = *l, *end = *l + *n, *semi;
	if (p < end && *p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));
		if (close) {
			p = close + 1;
			while (p < end && *p == ' ')
				p++;
		}
	} else if ((semi = memchr(p, ';', (size_t)(end - p))) != NULL && p < end && *p >= '0' && *p <= '9') {
		p = semi + 1;
	}
	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	*l = p;
	*n = (size_t)(end - p);
}

/* Copies a log message for people: printable ASCII only. */
static void kp_log_keep(char *dst, size_t dlen, const char *l, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 1 < dlen; i++)
		dst[j++] = (l[i] >= ' ' && l[i] <= '~') ? l[i] : '?';
	dst[j] = '\0';
}

static int kp_log_line(const char *l, size_t n, void *arg)
{
	struct kparse_log *out = arg;
	int i = kp_log_match(l, n);
	unsigned c, w;
	const char *commit;

	if (i < 0)
		return 0;
	c = kp_log_lines[i].cleared;
	w = kp_log_lines[i].warned;
	commit = kp_log_lines[i].commit;
	kp_log_message(&l, &n);
	{
		/* the first line (and its commit) that cleared or warned about each flag */
		struct { unsigned bits, flag; char *line, *commit; } keep[] = {
			{ c, KPARSE_LOG_RDRAND, out->rdrand_line, out->rdrand_commit },
			{ c, KPARSE_LOG_RDSEED, out->rdseed_line, out->rdseed_commit },
			{ w, KPARSE_LOG_RDRAND, out->rdrand_warn, out->rdrand_warn_commit },
			{ w, KPARSE_LOG_RDSEED, out->rdseed_warn, out->rdseed_warn_commit },
		};
		for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++)
			if ((keep[k].bits & keep[k].flag) && !keep[k].line[0]) {
				kp_log_keep(keep[k].line, sizeof out->rdrand_line, l, n);
				snprintf(keep[k].commit, sizeof out->rdrand_commit, "%s", commit);
			}
	}
	out->cleared |= c;
	out->warned |= w;
	out->hidden |= kp_log_lines[i].hidden;
	return 0;
}

void kparse_log_scan(const char *buf, size_t len, struct kparse_log *out)
{
	memset(out, 0, sizeof *out);
	kp_lines(buf, len, kp_log_line, out);
}

static int kp_has_word(const char *l, size_t n, const char *w)
{
	size_t wl = strlen(w), i = 0;
	while (i < n) {
		size_t s;
		while (i < n && kp_space(l[i]))
			i++;
		s = i;
		while (i < n && !kp_space(l[i]))
			i++;
		if (i - s == wl && memcmp(l + s, w, wl) == 0)
			return 1;
	}
	return 0;
}

static int kp_cpuinfo_line(const char *l, size_t n, void *arg)
{
	struct kparse_cpuflags *f = arg;
	const char *colon;
	if (n == 0 && f->known)
		return 1;   /* end of the first processor's block */
	if (n < 5 || memcmp(l, "flags", 5) != 0 || !(colon = memchr(l, ':', n)))
		return 0;
	colon++;
	n -= (size_t)(colon - l);
	f->known = 1;
	f->rdrand = kp_has_word(colon, n, "rdrand");
	f->rdseed = kp_has_word(colon, n, "rdseed");
	f->hypervisor = kp_has_word(colon, n, "hypervisor");
	return 1;
}

void kparse_cpuinfo_flags(const char *buf, size_t len, struct kparse_cpuflags *out)
{
	memset(out, 0, sizeof *out);
	kp_lines(buf, len, kp_cpuinfo_line, out);
}

/* X86_FEATURE_RDRAND is word 4 bit 30 and X86_FEATURE_RDSEED word 9 bit 18
 * (arch/x86/include/asm/cpufeatures.h): the numbers clearcpuid= takes. */
#define KP_X86_FEATURE_RDRAND (4 * 32 + 30)
#define KP_X86_FEATURE_RDSEED (9 * 32 + 18)

/* One word of a clearcpuid list: the bits it names, -1 when it is a name
 * (not a number), -2 when it is neither. */
static int kp_clear_word(const char *w, unsigned *bits)
{
	*bits = 0;
	if (w[0] >= '0' && w[0] <= '9') {
		char *end;
		unsigned long b = strtoul(w, &end, 10);
		if (*end != '\0')
			return -2;
		if (b == KP_X86_FEATURE_RDRAND)
			*bits = KPARSE_LOG_RDRAND;
		else if (b == KP_X86_FEATURE_RDSEED)
			*bits = KPARSE_LOG_RDSEED;
		return 0;
	}
	if (strcmp(w, "rdrand") == 0)
		*bits = KPARSE_LOG_RDRAND;
	else if (strcmp(w, "rdseed") == 0)
		*bits = KPARSE_LOG_RDSEED;
	return -1;
}

/* The list as the newest parser reads it (names: 1625c833db93, 5.19), as
 * the numbers-only list parser reads it (0a4bb5e5507a, 5.10: get_option()
 * stops at the first word that is not a number), and as the single-number
 * parser before it (get_option() once: the first word, if a number). */
static void kp_clear_eras(const char *val, size_t len, unsigned *names, unsigned *numbers, unsigned *single)
{
	size_t i = 0, nwords = 0;
	int stopped = 0;

	*names = *numbers = *single = 0;
	while (i < len) {
		size_t s = i, n;
		char w[16];
		unsigned bits;
		int kind;
		while (i < len && val[i] != ',')
			i++;
		n = i - s;
		i++;
		nwords++;
		if (n == 0 || n >= sizeof w) {
			stopped = 1;
			continue;
		}
		memcpy(w, val + s, n);
		w[n] = '\0';
		kind = kp_clear_word(w, &bits);
		if (kind != -2)
			*names |= bits;
		if (kind != 0)
			stopped = 1;
		else if (!stopped) {
			*numbers |= bits;
			if (nwords == 1)
				*single = bits;   /* get_option() takes the first number */
		}
	}
}

unsigned kparse_clearcpuid_v(const char *val, size_t len, unsigned kv, int sub54, unsigned *uncertain)
{
	unsigned names, numbers, single, lo, hi;

	kp_clear_eras(val, len, &names, &numbers, &single);
	*uncertain = 0;
	if (kv >= KP_KV(5, 19))
		return names;
	if (kv >= KP_KV(5, 10))
		return numbers;
	if (kv == KP_KV(5, 4) && sub54 != 0) {
		if (sub54 > 0)
			return numbers;
		*uncertain = numbers ^ single;   /* 5.4.73 took the list parser */
		return numbers & single;
	}
	if (kv != 0)
		return single;
	/* unknown version: what every era clears, and what only some do */
	lo = names & numbers & single;
	hi = names | numbers | single;
	*uncertain = hi & ~lo;
	return lo;
}

unsigned kparse_clearcpuid(const char *val, size_t len)
{
	unsigned u;
	return kparse_clearcpuid_v(val, len, ~0u, 1, &u);
}

/* A short, printable quote of bad input for a reason string. */
static void kp_quote(char *why, size_t whylen, const char *what, const char *buf, size_t len)
{
	char q[24];
	kp_log_keep(q, len + 1 < sizeof q ? len + 1 : sizeof q, buf, len);
	snprintf(why, whylen, "%s: '%s%s'", what, q, len + 1 > sizeof q ? "..." : "");
}

int kparse_uint(const char *buf, size_t len, unsigned long max, unsigned long *v, char *why,
		size_t whylen)
{
	unsigned long x = 0;
	size_t n = len;
	if (n && buf[n - 1] == '\n')
		n--;
	if (n == 0) {
		snprintf(why, whylen, "empty");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (buf[i] < '0' || buf[i] > '9') {
			kp_quote(why, whylen, "not a number", buf, n);
			return -1;
		}
		unsigned long d = (unsigned long)(buf[i] - '0');
		if (x > max / 10 || x * 10 > max - d || d > max) {
			kp_quote(why, whylen, "out of range", buf, n);
			return -1;
		}
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int kparse_word(const char *buf, size_t len, char *out, size_t outlen, char *why, size_t whylen)
{
	size_t n = len;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;   /* rng_available ends "virtio_rng.0 \n" */
	out[0] = '\0';
	if (n == 0) {
		snprintf(why, whylen, "empty");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (buf[i] < ' ' || buf[i] > '~') {
			kp_quote(why, whylen, "not text", buf, n);
			return -1;
		}
	if (n >= outlen) {
		snprintf(why, whylen, "longer than %zu characters", outlen - 1);
		return -1;
	}
	memcpy(out, buf, n);
	out[n] = '\0';
	return 0;
}
