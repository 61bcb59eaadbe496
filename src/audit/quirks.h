/* SPDX-License-Identifier: GPL-3.0-or-later */
/* quirks.h - known-bad CPU random number generators, by CPU identity.
 *
 * Some parts are known to return bad values with a success flag: statistics
 * on a short run may or may not catch them (the fault can depend on
 * suspend/resume or on the instruction width), so the audit also matches
 * the CPU against a table of advisories (data/quirks.txt).  One line per
 * (CPU range, microcode range, source, widths):
 *
 *   ID VENDOR FAMILY MODELS STEPPINGS MICROCODE SOURCE WIDTHS SEVERITY ADVISORY...
 *
 * FAMILY, MODELS, STEPPINGS: a number (0x.. or decimal), LO-HI, or '*'.
 * MICROCODE: '*', '<REV' (revisions before the fix) or LO-HI.
 * SOURCE: rdrand, rdseed or '*'.  WIDTHS: '*' or a list such as 16,32.
 * SEVERITY: fail, warn or info.  ADVISORY: the rest of the line.
 * Within one ID the first line whose CPU, source and width match decides:
 * if the microcode is in its range the advisory applies, else (a fixed
 * revision) it does not, and later lines of that ID are not looked at.
 */
#ifndef RNGAUDIT_QUIRKS_H
#define RNGAUDIT_QUIRKS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum quirk_severity { QUIRK_INFO, QUIRK_WARN, QUIRK_FAIL };

struct quirk_range {
	unsigned long lo, hi;    /* inclusive; '*' = 0..ULONG_MAX */
};

struct quirk {
	char id[48];
	char vendor[16];
	struct quirk_range family, model, stepping, microcode;
	char source[16];         /* "" = any */
	unsigned widths;         /* bit (w/8) set for each width: 1<<1 = 8 .. 1<<8 = 64; 0 = any */
	enum quirk_severity severity;
	char advisory[400];
	unsigned line;           /* line in the table */
	size_t id_first;         /* index of the first entry with this ID (quirks_parse) */
};

struct quirk_table {
	char origin[256];
	size_t n;
	struct quirk *q;
};

/* The machine as the table sees it (from sysinfo). */
struct quirk_cpu {
	const char *vendor;
	unsigned family, model, stepping;
	unsigned long microcode;
	int microcode_known;
};

struct quirk_match {
	const struct quirk *q;
	int microcode_unknown;   /* matched only because the microcode could not be read */
};

#define QUIRK_MATCH_MAX 8
/* The table is a few KiB; past 1 MiB it is not a quirk table. */
#define QUIRKS_MAX_BYTES (1u << 20)

/* Parses a table; errors name WHAT:LINE and the problem (ERR_DATA). */
int quirks_parse(struct quirk_table *t, const char *text, size_t len, const char *what,
		 struct err *e);
int quirks_load(struct quirk_table *t, const char *path, struct err *e);
void quirks_free(struct quirk_table *t);

/* The advisories that apply to a source (name, native word width) on cpu.
 * Returns how many were written to out (at most max). */
size_t quirks_match(const struct quirk_table *t, const struct quirk_cpu *cpu, const char *source,
		    unsigned word_bits, struct quirk_match *out, size_t max);

const char *quirk_severity_name(enum quirk_severity s);   /* "info", "warn", "fail" */

#endif
