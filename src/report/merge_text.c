/* SPDX-License-Identifier: GPL-3.0-or-later */
/* merge_text.c - `report merge --format text`: the fleet's merged table
 * for people (a release engineer deciding a kernel's defaults reads this;
 * the CSV is for machines).  One line per (CPU, microcode, guest, kernel,
 * source): hosts, verdicts, how many hosts' kernels credit that source and
 * how many of those failed, and the recommendation that holds. */
#include "config.h"

#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "report/termtext.h"
#include "report/textwrap.h"

/* A group's key value as the table shows it: escaped for the terminal
 * (the hosts' CSVs are data from outside: termtext.h), "-" when empty. */
static const char *shown(const char *s, size_t len)
{
	return len ? termtext_mem(s, len) : "-";
}

static void field(FILE *fp, int width, const char *s, size_t len)
{
	fprintf(fp, "%-*s ", width, shown(s, len));
}

int report_merge_print_text(struct merge *m, FILE *fp, struct err *e)
{
	static const char *const head[REPORT_MERGE_NKEY] = { "VENDOR", "FAM/MODEL", "", "MICROCODE", "GUEST",
							     "KERNEL", "SOURCE" };
	struct report_merge_group *g;
	int w[REPORT_MERGE_NKEY];
	size_t n;
	int rc;

	if ((rc = report_merge_groups(m, &g, &n, e)) != 0)
		return rc;
	/* Each column as wide as its widest value. */
	for (int k = 0; k < REPORT_MERGE_NKEY; k++) {
		w[k] = (int)strlen(head[k]);
		for (size_t i = 0; i < n; i++) {
			int len = (int)strlen(shown(g[i].value[k], g[i].len[k]));
			if (len > w[k])
				w[k] = len;
		}
	}
	if (w[1] < 9)
		w[1] = 9;
	fprintf(fp, "%-*s %-9s %-*s %-*s %-*s %-*s %5s %5s %4s %4s %4s %8s %6s  %s\n", w[0], head[0], head[1],
		w[3], head[3], w[4], head[4], w[5], head[5], w[6], head[6], "HOSTS", "PASS", "WARN", "FAIL", "N/A",
		"CREDITED", "FAILED", "RECOMMENDATION");
	for (size_t i = 0; i < n; i++) {
		const struct report_merge_group *x = &g[i];
		char fm[48];
		field(fp, w[0], x->value[0], x->len[0]);
		snprintf(fm, sizeof fm, "%lu/%lu", x->family, x->model);
		fprintf(fp, "%-9s ", fm);
		for (int k = 3; k < REPORT_MERGE_NKEY; k++)
			field(fp, w[k], x->value[k], x->len[k]);
		fprintf(fp, "%5lu %5lu %4lu %4lu %4lu ", x->hosts, x->counts[0], x->counts[1], x->counts[2],
			x->counts[3]);
		if (x->credit_role)
			fprintf(fp, "%8lu %6lu", x->credited_hosts, x->credited_failed);
		else
			fprintf(fp, "%8s %6s", "-", "-");
		fprintf(fp, "  %s\n", shown(x->rec, x->reclen));
	}
	if (n) {
		size_t width = report_merge_width(m);
		fputc('\n', fp);
		textwrap_put(fp, width ? width : TEXTWRAP_WIDTH_DEFAULT, "", 0, "CREDITED: hosts whose kernel credits this "
			     "source as entropy (RDRAND, RDSEED: random.trust_cpu on and the flag not cleared; hwrng: a "
			     "quality above 0; - no kernel setting credits it); FAILED: of those, hosts where this source "
			     "failed; RECOMMENDATION: the kernel setting recommended most often in the group (- nothing "
			     "to change).");
	}
	free(g);
	if (ferror(fp))
		return err_set(e, ERR_IO, "report merge: write error");
	return 0;
}
