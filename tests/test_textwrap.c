/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_textwrap.c - the text reports' layout (src/report/textwrap.c, issue 26
 * item 4): the width from COLUMNS, the terminal or 80; prose broken at
 * spaces only, within the width, never inside a word; tables whose long
 * names go whole on a line of their own, and which become one block per
 * row (every name whole, one per line) when narrower than 40 columns. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/textwrap.h"
#include "tap.h"

static char out[16384];

/* What f wrote, through a memory stream. */
#define CAPTURE(call)                                                        \
	do {                                                                 \
		FILE *fp_ = fmemopen(out, sizeof out, "w");                 \
		FILE *fp = fp_;                                              \
		(void)(call);                                                \
		fclose(fp_);                                                 \
	} while (0)

/* The longest line of s, in characters. */
static size_t widest(const char *s)
{
	size_t best = 0;
	while (*s) {
		size_t n = strcspn(s, "\n");
		char line[4096];
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		if (textwrap_len(line) > best)
			best = textwrap_len(line);
		s += n + (s[n] == '\n');
	}
	return best;
}

/* 1 when no line of s ends in a space. */
static int no_trailing_space(const char *s)
{
	for (const char *p = s; *p; p++)
		if (*p == ' ' && (p[1] == '\n' || p[1] == '\0'))
			return 0;
	return 1;
}

static const struct textwrap_col cols[] = {
	{ "SOURCE", "source", TEXTWRAP_LEFT },
	{ "VERDICT", "verdict", TEXTWRAP_LEFT },
	{ "SAMPLES", "samples", TEXTWRAP_RIGHT },
	{ "FIGURE", "figure", TEXTWRAP_LEFT },
};

static const struct textwrap_col pcols[] = {
	{ "SOURCE", "source", TEXTWRAP_LEFT },
	{ "WIDTH", "width", TEXTWRAP_RIGHT },
	{ "OUTPUT", "output", TEXTWRAP_PROSE },
};

int main(void)
{
	const char *prose = "Repetition count test (90B 4.4.1): 4 failures (cutoff 109 at H = 0.333 bits "
			    "per sample, alpha = 2^-20), first at sample 17160, longest run 243.";
	const char *spec = "jitter:mem=33554432,loops=4,timer=tsc";
	struct textwrap_table t;

	/* the width */
	tap_eq_long((long long)textwrap_width_pick(NULL, 0), 80, "no COLUMNS, no terminal: 80 columns");
	tap_eq_long((long long)textwrap_width_pick(NULL, 132), 132, "a terminal: its width (TIOCGWINSZ)");
	tap_eq_long((long long)textwrap_width_pick("50", 132), 50, "COLUMNS wins over the terminal");
	tap_eq_long((long long)textwrap_width_pick("30", 0), 30, "COLUMNS when not a terminal");
	tap_eq_long((long long)textwrap_width_pick("0", 0), 80, "COLUMNS=0 is ignored");
	tap_eq_long((long long)textwrap_width_pick("7x", 100), 100, "COLUMNS not a number is ignored");
	tap_eq_long((long long)textwrap_width_pick("99999999999", 0), TEXTWRAP_WIDTH_MAX, "a huge COLUMNS is capped");
	tap_eq_long((long long)textwrap_len("Z\xc3\xbcrich"), 6, "a UTF-8 character is one column");

	/* prose */
	CAPTURE(textwrap_put(fp, 40, "  fail HEALTH_RCT: ", 4, prose));
	tap_ok(widest(out) <= 40, "prose: every line within 40 columns (widest %zu)", widest(out));
	tap_ok(strncmp(out, "  fail HEALTH_RCT: Repetition count", 35) == 0, "prose: the first line starts with its prefix");
	tap_ok(strstr(out, "\n    ") != NULL && no_trailing_space(out), "prose: later lines hang by 4, no trailing space");
	{
		char joined[1024], *o = joined;
		for (const char *p = out + strlen("  fail HEALTH_RCT: "); *p; p++) {
			if (*p == '\n') {
				*o++ = ' ';
				p += 4;
			} else {
				*o++ = *p;
			}
		}
		*o = '\0';
		if (o > joined && o[-1] == ' ')
			o[-1] = '\0';
		tap_eq_str(joined, prose, "prose: broken at spaces only (the words joined back are the text)");
	}
	CAPTURE(textwrap_put(fp, 20, "  ", 2, spec));
	tap_ok(strstr(out, spec) != NULL, "a word longer than the width is never cut");
	CAPTURE(textwrap_printf(fp, 20, "", 2, "a %s b", spec));
	tap_eq_str(out, "a\n  jitter:mem=33554432,loops=4,timer=tsc\n  b\n", "a long word goes alone on its line");
	CAPTURE(textwrap_put(fp, 80, "  ", 2, "one\ntwo"));
	tap_eq_str(out, "  one\n  two\n", "a newline in the text starts a hanging line");
	CAPTURE(textwrap_put(fp, 80, "label   ", 2, ""));
	tap_eq_str(out, "label\n", "an empty text: the prefix alone, trimmed");

	/* items */
	CAPTURE(textwrap_item(fp, 60, 2, 17, "trust_cpu", "on (command line: random.trust_cpu=1, a long reason that wraps)"));
	tap_ok(widest(out) <= 60 && strncmp(out, "  trust_cpu         on (command", 31) == 0 &&
	       strstr(out, "\n                    ") != NULL, "item: label column, the text wrapped under itself");
	CAPTURE(textwrap_item(fp, 30, 2, 17, "trust_cpu", "on (command line: random.trust_cpu=1)"));
	tap_ok(strncmp(out, "  trust_cpu on (command", 23) == 0 && widest(out) <= 30,
	       "item under 40 columns: the text follows the label");

	/* tables */
	textwrap_table_init(&t, cols, 4);
	textwrap_table_add(&t, (const char *const[]){ "sim:ideal", "pass", "20000", "min-entropy" });
	textwrap_table_add(&t, (const char *const[]){ spec, "fail", "20000", "check only" });
	CAPTURE(textwrap_table_write(&t, fp, 80));
	tap_ok(strstr(out, "\nsim:ideal") != NULL && strstr(out, spec) != NULL && widest(out) <= 80,
	       "table at 80: every name whole, every line within 80");
	CAPTURE(textwrap_table_write(&t, fp, 50));
	tap_ok(strstr(out, "\njitter:mem=33554432,loops=4,timer=tsc\n") != NULL && widest(out) <= 50 && no_trailing_space(out),
	       "table at 50: the long name on a line of its own, its cells below");
	{
		/* the cells below a long name line up under the headings */
		const char *h = strstr(out, "VERDICT"), *row = strstr(out, "timer=tsc\n") + 10;
		tap_ok(h && row && strncmp(row + (h - out), "fail", 4) == 0, "table at 50: the cells under their headings");
	}
	CAPTURE(textwrap_table_write(&t, fp, 30));
	tap_eq_str(out, "sim:ideal\n  verdict pass\n  samples 20000\n  figure min-entropy\n"
		   "jitter:mem=33554432,loops=4,timer=tsc\n  verdict fail\n  samples 20000\n  figure check only\n",
		   "table at 30: one name a line, whole, its cells labelled below");
	textwrap_table_free(&t);

	textwrap_table_init(&t, pcols, 3);
	textwrap_table_add(&t, (const char *const[]){ "rdseed", "64",
		"conditioned entropy-source output: no CPU flag (CPUID reports no RDSEED)" });
	CAPTURE(textwrap_table_write(&t, fp, 50));
	tap_ok(widest(out) <= 50 && strstr(out, "\n              no CPU") != NULL && no_trailing_space(out),
	       "prose column: wrapped under its heading within the width");
	CAPTURE(textwrap_table_write(&t, fp, 30));
	tap_ok(strncmp(out, "rdseed\n  width 64\n  output conditioned", 37) == 0 && widest(out) <= 30,
	       "prose column under 40 columns: labelled below the name");
	textwrap_table_free(&t);
	return tap_done();
}
