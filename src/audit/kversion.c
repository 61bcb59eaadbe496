/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kversion.c - a kernel's version and its facts by version (kversion.h). */
#include "config.h"

#include "audit/kversion.h"

#include <stdio.h>
#include <string.h>

/* A decimal of at most 6 digits at buf[*i]; -1 if none. */
static long kv_num(const char *buf, size_t len, size_t *i)
{
	long v = 0;
	size_t s = *i;
	while (*i < len && buf[*i] >= '0' && buf[*i] <= '9' && *i - s < 6)
		v = v * 10 + (buf[(*i)++] - '0');
	return *i == s ? -1 : v;
}

int kversion_from_release(const char *buf, size_t len, struct kversion *v)
{
	size_t i = 0;
	long maj, min, sub;

	memset(v, 0, sizeof *v);
	v->sublevel = -1;
	if ((maj = kv_num(buf, len, &i)) < 0 || i >= len || buf[i++] != '.' || (min = kv_num(buf, len, &i)) < 0)
		return -1;
	v->known = 1;
	v->major = (unsigned)maj;
	v->minor = (unsigned)min;
	if (i < len && buf[i] == '.') {
		i++;
		if ((sub = kv_num(buf, len, &i)) < 0)
			return 0;
		/* "X.Y.0-N...": Debian, Ubuntu and RHEL put their ABI or build
		 * number after a zero sublevel; the real one is elsewhere. */
		if (sub == 0 && i < len && buf[i] == '-')
			return 0;
		if (i == len || buf[i] == '-' || buf[i] == '+' || buf[i] == '_' || buf[i] == '\n')
			v->sublevel = sub;
	} else if (i == len || buf[i] == '\n') {
		v->sublevel = 0;   /* a vanilla "6.1" is 6.1.0 */
	}
	return 0;
}

static const char *kv_memmem(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	for (size_t i = 0; nl <= hl && i + nl <= hl; i++)
		if (memcmp(h + i, n, nl) == 0)
			return h + i;
	return NULL;
}

/* "MAJ.MIN.SUB" at p (end at e) for the same MAJ.MIN as v: the sublevel. */
static long kv_match(const struct kversion *v, const char *p, const char *e)
{
	size_t i = 0, len = (size_t)(e - p);
	long maj = kv_num(p, len, &i), min, sub;
	if (maj < 0 || i >= len || p[i++] != '.' || (min = kv_num(p, len, &i)) < 0 || i >= len || p[i++] != '.' ||
	    (sub = kv_num(p, len, &i)) < 0)
		return -1;
	if ((unsigned)maj != v->major || (unsigned)min != v->minor)
		return -1;
	return sub;
}

int kversion_sublevel_from(const char *buf, size_t len, struct kversion *v, char *from, size_t fromlen)
{
	const char *p, *e = buf + len;
	long sub;

	if (!v->known)
		return 0;
	/* Debian: "... SMP [PREEMPT_DYNAMIC ]Debian 5.10.209-2 (2024-01-31)";
	 * "Debian" also names the compiler ("gcc-10 (Debian 10.2.1-6)"), so
	 * every occurrence is tried for this kernel's MAJOR.MINOR. */
	for (const char *q = buf; (p = kv_memmem(q, (size_t)(e - q), "Debian ")) != NULL; q = p + 1) {
		const char *end = p + 7;
		if ((sub = kv_match(v, p + 7, e)) < 0)
			continue;
		while (end < e && *end != ' ' && *end != '\n' && end - p < 48)
			end++;
		v->sublevel = sub;
		snprintf(from, fromlen, "%.*s", (int)(end - p), p);
		return 1;
	}
	/* Ubuntu's /proc/version ends with its signature in parentheses:
	 * "(Ubuntu 5.15.0-91.101-generic 5.15.131)" */
	if ((p = kv_memmem(buf, len, "(Ubuntu ")) != NULL) {
		const char *close = memchr(p, ')', (size_t)(e - p)), *last;
		if (close) {
			for (last = close; last > p && last[-1] != ' '; last--)
				;
			if ((sub = kv_match(v, last, close)) >= 0) {
				v->sublevel = sub;
				snprintf(from, fromlen, "%.*s", (int)(close - p - 1) < 120 ? (int)(close - p - 1) : 120,
					 p + 1);
				return 1;
			}
		}
	}
	/* Ubuntu's version_signature: "Ubuntu 5.15.0-91.101-generic 5.15.131" */
	if (len > 7 && memcmp(buf, "Ubuntu ", 7) == 0) {
		const char *last = e;
		while (last > buf && (last[-1] == '\n' || last[-1] == ' '))
			last--;
		p = last;
		while (p > buf && p[-1] != ' ')
			p--;
		if ((sub = kv_match(v, p, last)) >= 0) {
			v->sublevel = sub;
			snprintf(from, fromlen, "%.*s", (int)(last - buf) < 120 ? (int)(last - buf) : 120, buf);
			return 1;
		}
	}
	return 0;
}

int kversion_has(const struct kversion *v, const struct kfact *f)
{
	unsigned kv;
	if (!v->known)
		return -1;
	kv = KV(v->major, v->minor);
	if (kv >= f->since)
		return 1;
	for (size_t i = 0; i < sizeof f->stable / sizeof f->stable[0] && f->stable[i].series; i++)
		if (f->stable[i].series == kv)
			return v->sublevel < 0 ? -1 : v->sublevel >= f->stable[i].sublevel;
	/* A fact backported somewhere, on a kernel whose sublevel its release
	 * hides (RHEL's "5.14.0-362.el9", SUSE's): a vendor that backports by
	 * hand may have taken it, so it cannot be known. */
	if (v->sublevel < 0 && f->stable[0].series)
		return -1;
	return 0;
}

const char *kversion_format(const struct kversion *v, char *buf, size_t len)
{
	if (!v->known)
		snprintf(buf, len, "%s", "");
	else if (v->sublevel < 0)
		snprintf(buf, len, "%u.%u", v->major, v->minor);
	else
		snprintf(buf, len, "%u.%u.%ld", v->major, v->minor, v->sublevel);
	return buf;
}
