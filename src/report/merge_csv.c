/* SPDX-License-Identifier: GPL-3.0-or-later */
/* merge_csv.c - `report merge`'s fleet CSV: one row per group, RFC 4180,
 * CRLF, text quoted, numbers and booleans bare (merge_text.c writes the
 * same groups for people). */
#include "config.h"

#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/csvcell.h"
#include "report/merge_int.h"

static int group_write(FILE *fp, const struct report_merge_group *g)
{
	int bad = 0;

	for (int k = 0; k < NKEY; k++) {
		if (k && fputc(',', fp) == EOF)
			bad = 1;
		/* family and model are checked decimals, virtualized a checked
		 * boolean: bare, like the input */
		if (k == K_FAMILY || k == K_MODEL || k == K_VIRT ? fwrite(g->value[k], 1, g->len[k], fp) != g->len[k]
		    : csvcell_write(fp, g->value[k], g->len[k]) == EOF)
			bad = 1;
	}
	if (fprintf(fp, ",%lu,%lu,%lu,%lu,%lu,%lu", g->hosts, g->runs, g->counts[V_PASS],
		    g->counts[V_WARN], g->counts[V_FAIL], g->counts[V_UNAVAILABLE]) < 0)
		bad = 1;
	if (g->nh) {
		if (fprintf(fp, ",%.17g,%.17g", g->h_min + 0.0, g->h_median + 0.0) < 0)   /* no "-0" */
			bad = 1;
	} else if (fputs(",,", fp) == EOF) {
		bad = 1;
	}
	if (fprintf(fp, ",%lu,%lu,", g->trust_hosts, g->trust_failed) < 0 ||
	    csvcell_write(fp, g->rec, g->reclen) == EOF)
		bad = 1;
	/* empty for a source no kernel setting credits */
	if ((g->credit_role ? fprintf(fp, ",%lu,%lu", g->credited_hosts, g->credited_failed)
	     : fprintf(fp, ",,")) < 0)
		bad = 1;
	/* %.15g: the floors as the policy file wrote them (0.4, not 0.40000000000000002) */
	if ((g->policy_known ? fprintf(fp, ",%.15g,%.15g,%.15g\r\n", g->bits, g->fail_below, g->warn_below)
	     : fprintf(fp, ",,,\r\n")) < 0)
		bad = 1;
	return bad ? -1 : 0;
}

int report_merge_print(struct merge *m, FILE *fp, struct err *e)
{
	struct report_merge_group *g;
	size_t ng;
	int bad = 0, rc;

	if ((rc = report_merge_groups(m, &g, &ng, e)) != 0)
		return rc;
	for (size_t i = 0; report_merge_columns[i]; i++)
		if (fprintf(fp, "%s%s", i ? "," : "", report_merge_columns[i]) < 0)
			bad = 1;
	if (fputs("\r\n", fp) == EOF)
		bad = 1;
	for (size_t i = 0; i < ng; i++)
		if (group_write(fp, &g[i]) != 0)
			bad = 1;
	free(g);
	if (bad || ferror(fp))
		return err_set(e, ERR_IO, "report merge: write error");
	return 0;
}
