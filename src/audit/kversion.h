/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kversion.h - a kernel's version as far as it can be known, and whether a
 * fact that entered mainline at some release (and was backported to some
 * stable series) holds for it.
 *
 * A distribution's release string often hides the sublevel ("5.10.0-28-
 * amd64" is Debian's 5.10.209; "5.15.0-91-generic" Ubuntu's 5.15.131;
 * "5.14.0-362.el9" RHEL's, which backports by hand), so the sublevel comes
 * from /proc/version (Debian appends "Debian 5.10.209-2") or
 * /proc/version_signature (Ubuntu: "Ubuntu 5.15.0-91.101-generic
 * 5.15.131"), and is unknown otherwise.  Pure functions over buffers.
 */
#ifndef RNGAUDIT_AUDIT_KVERSION_H
#define RNGAUDIT_AUDIT_KVERSION_H

#include <stddef.h>

#define KV(maj, min) ((maj) * 1000u + (min))

struct kversion {
	int known;                 /* major and minor known */
	unsigned major, minor;
	long sublevel;             /* -1 unknown */
};

/* The release string (/proc/sys/kernel/osrelease, uname -r): MAJOR.MINOR
 * always when it starts with them; the sublevel only when the string
 * carries the real one: "6.6.7-arch1-1", "6.5.6-300.fc39.x86_64", "6.1.0"
 * (a vanilla build), but not "6.1.0-13-amd64", "5.15.0-91-generic" or
 * "5.14.0-362.8.1.el9_3.x86_64" (an ABI number in place of the sublevel).
 * Returns 0, or -1 when it does not start with MAJOR.MINOR. */
int kversion_from_release(const char *buf, size_t len, struct kversion *v);

/* The sublevel /proc/version or /proc/version_signature gives for the
 * same MAJOR.MINOR as v: Debian's "Debian 5.10.209-2" (also
 * "Debian 6.1.76-1" after "PREEMPT_DYNAMIC"), Ubuntu's signature's last
 * field "5.15.131".  Returns 1 and sets v->sublevel (what names it in from),
 * 0 when the text does not give it. */
int kversion_sublevel_from(const char *buf, size_t len, struct kversion *v, char *from, size_t fromlen);

/* A fact of the kernel's history: true from mainline release `since`
 * (KV(maj, min)), and on the stable series listed from their sublevel on
 * (backports; series 0 ends the list). */
struct kfact {
	unsigned since;
	struct { unsigned series; long sublevel; } stable[8];
};

/* 1 the fact holds for v, 0 it does not, -1 unknown: the version is
 * unknown, or the sublevel is, on a series the fact was backported to or
 * (for a fact backported at all) on a vendor kernel that hides it. */
int kversion_has(const struct kversion *v, const struct kfact *f);

/* "5.10.209", "5.10" (sublevel unknown), "" (unknown) into buf. */
const char *kversion_format(const struct kversion *v, char *buf, size_t len);

#endif
