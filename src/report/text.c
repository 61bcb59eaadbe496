/* SPDX-License-Identifier: GPL-3.0-or-later */
/* text.c - the audit's table for people: one line per source, then each
 * source's reasons, then what the figures may and may not be read as. */
#include "config.h"

#include "report/report.h"

#include <math.h>
#include <string.h>

#include "report/termtext.h"
#include "report/textwrap.h"

/* Every text from outside (a spec, a host name, a bundle's values) goes
 * through termtext(): no control character, C1 control, invalid UTF-8 or
 * newline reaches the terminal or breaks a row (termtext.h). */
#define T(s) termtext(s)

static const char *figure_label(const struct report_source *s)
{
	/* Only raw noise gets an entropy figure; DRBG and conditioned output
	 * get a statistical check figure (verdict_kind_note()). */
	if (!s->available || !s->est_ran)
		return "";
	return s->verdict.entropy_credit ? "min-entropy" : "check only";
}

/* Adds s's name to a ", "-joined list of the sources of one kind (once). */
static void kind_list(char *buf, size_t len, const struct report_source *s)
{
	const char *name = s->info.simulated && s->info.as[0] ? s->info.as : s->info.name;
	size_t n = strlen(buf);
	char tok[40];

	snprintf(tok, sizeof tok, "%s", name);
	for (const char *p = buf; (p = strstr(p, tok)) != NULL; p += strlen(tok))
		if ((p == buf || p[-1] == ' ') && (p[strlen(tok)] == ',' || p[strlen(tok)] == '\0'))
			return;
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", tok);
}

/* "Kernel trust": the kernel's settings, then one paragraph per decision. */
static void report_text_trust(FILE *fp, const struct report_run *r, size_t w)
{
	const struct kernel_ctx *k = &r->kernel;
	char boot[512], credit[48] = "";

	if (k->hwrng_quality >= 0)
		snprintf(credit, sizeof credit, " credited %ld/1024", k->hwrng_quality);
	fputc('\n', fp);
	textwrap_printf(fp, w, "", 2, "Kernel trust (%s%s; trust_cpu %s: %s; hwrng %s%s%s%s):",
			k->sysroot[0] ? "sysroot " : "kernel ", T(k->sysroot[0] ? k->sysroot : k->release_known ?
			k->release : "unknown"), kernel_tri_token(k->trust_cpu.state), T(k->trust_cpu.reason),
			T(k->rng_current[0] ? k->rng_current : "unknown"), credit,
			k->cleared_names[0] ? "; cleared: " : "", T(k->cleared_names));
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		const struct trust_decision *t = &s->trust;
		if (t->role == TRUST_ROLE_NONE)
			continue;
		textwrap_printf(fp, w, "  ", 4, "%s%s%s%s: %s%s. %s", T(s->available ? s->info.spec : s->requested),
				t->simulated ? " [simulated " : "", t->simulated ? T(t->as) : "", t->simulated ? "]" : "",
				t->recommendation[0] ? "recommend " : "no change", T(t->recommendation), T(t->reason));
	}
	trust_bootloader_note(k, boot, sizeof boot);
	textwrap_put(fp, w, "  ", 4, T(boot));
}

/* The table's columns: CREDIBILITY is how far the verdict can be believed
 * (verdict.c), not an entropy credit; FIGURE says whether H/SAMPLE is one. */
static const struct textwrap_col text_cols[] = {
	{ "SOURCE", "source", TEXTWRAP_LEFT },
	{ "VERDICT", "verdict", TEXTWRAP_LEFT },
	{ "CREDIBILITY", "credibility", TEXTWRAP_RIGHT },
	{ "SAMPLES", "samples", TEXTWRAP_RIGHT },
	{ "K", "K", TEXTWRAP_RIGHT },
	{ "SECONDS", "seconds", TEXTWRAP_RIGHT },
	{ "H/SAMPLE", "H/sample", TEXTWRAP_RIGHT },
	{ "FIGURE", "figure", TEXTWRAP_LEFT },
};
#define TEXT_NCOLS (sizeof text_cols / sizeof text_cols[0])

/* One row per source; a source the policy requires is marked "*" after its
 * verdict (the legend below the table says so).  Returns 1 if any is. */
static int report_text_table(FILE *fp, const struct report_run *r, size_t w, struct err *e, int *rc)
{
	struct textwrap_table t;
	int required = 0;

	textwrap_table_init(&t, text_cols, TEXT_NCOLS);
	*rc = 0;
	for (size_t i = 0; i < r->n && *rc == 0; i++) {
		const struct report_source *s = &r->src[i];
		char h[32] = "-", verdict[24], cred[32], samples[32], k[16], secs[32];
		const char *cells[TEXT_NCOLS];
		if (s->est_ran && isfinite(s->est.h_assessed))
			snprintf(h, sizeof h, "%.4f", s->est.h_assessed + 0.0);
		snprintf(verdict, sizeof verdict, "%s%s", verdict_status_name(s->verdict.status), s->required ? "*" : "");
		snprintf(cred, sizeof cred, "%.2f", s->verdict.credibility);
		snprintf(samples, sizeof samples, "%llu", (unsigned long long)s->samples);
		snprintf(k, sizeof k, "%u", s->bits);
		snprintf(secs, sizeof secs, "%.2f", s->stats.seconds);
		required |= s->required;
		cells[0] = T(s->available ? s->info.spec : s->requested);   /* whole, never cut */
		cells[1] = verdict;
		cells[2] = cred;
		cells[3] = samples;
		cells[4] = k;
		cells[5] = secs;
		cells[6] = h;
		cells[7] = figure_label(s);
		*rc = textwrap_table_add(&t, cells);
	}
	if (*rc == 0 && textwrap_table_write(&t, fp, w) == ERR_NOMEM)
		*rc = ERR_NOMEM;
	textwrap_table_free(&t);
	if (*rc)
		*rc = err_set(e, ERR_NOMEM, "text report: out of memory");
	return required;
}

int report_text_write(FILE *fp, const struct report_run *r, struct err *e)
{
	char t[64], ucode[32] = "unknown";
	char drbg[200] = "", cond[200] = "";
	size_t w = r->width ? r->width : TEXTWRAP_WIDTH_DEFAULT;
	size_t hang = w < TEXTWRAP_NARROW ? 4 : 7;   /* a reason's lines under its code */
	int rc;

	/* an unknown revision reads "microcode unknown", not "unknown 0" */
	if (r->sys.microcode_known)
		snprintf(ucode, sizeof ucode, "0x%lx", r->sys.microcode);
	textwrap_printf(fp, w, "", 2, "rngaudit %s audit of %s (%s, family %u model %u stepping %u, microcode %s), "
			"kernel %s, %s", r->tool_version, T(r->sys.hostname[0] ? r->sys.hostname : "?"),
			T(r->sys.cpu_vendor[0] ? r->sys.cpu_vendor : "unknown CPU"), r->sys.cpu_family,
			r->sys.cpu_model, r->sys.cpu_stepping, ucode, T(r->sys.kernel),
			report_iso_time(r->finished, t, sizeof t));
	textwrap_printf(fp, w, "", 2, "policy: %s (alpha %s)%s", T(r->policy->origin),
			policy_format_alpha(r->policy->alpha, t, sizeof t),
			r->partial ? "; INTERRUPTED: partial results" : "");
	fputc('\n', fp);
	if (report_text_table(fp, r, w, e, &rc))
		textwrap_put(fp, w, "", 2, "* required by the policy: its absence fails the audit.");
	if (rc)
		return rc;
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		if (s->available && s->info.kind == SOURCE_DRBG)
			kind_list(drbg, sizeof drbg, s);
		if (s->available && s->info.kind == SOURCE_CONDITIONED)
			kind_list(cond, sizeof cond, s);
	}
	report_text_trust(fp, r, w);
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		char dev[600] = "";
		if (s->available && s->info.device[0])
			snprintf(dev, sizeof dev, " (%s%s%s)", T(s->info.device), s->info.detail[0] ? ", " : "",
				 T(s->info.detail));
		fputc('\n', fp);
		textwrap_printf(fp, w, "", 2, "%s: %s%s", T(s->available ? s->info.spec : s->requested),
				verdict_status_name(s->verdict.status), dev);
		if ((s->available || s->kind_known) && s->kind_basis[0])
			textwrap_printf(fp, w, "  ", 4, "kind %s: %s", source_kind_token(s->info.kind), s->kind_basis);
		for (size_t j = 0; j < s->verdict.nreasons; j++) {
			const struct verdict_reason *rs = &s->verdict.reasons[j];
			char lead[16];
			/* The kind notes are printed once, below the table. */
			if (strcmp(rs->code, "DRBG_OUTPUT") == 0 || strcmp(rs->code, "CONDITIONED_OUTPUT") == 0)
				continue;
			snprintf(lead, sizeof lead, "  %-4s ", verdict_level_name(rs->level));
			textwrap_printf(fp, w, lead, hang, "%s: %s", rs->code, T(rs->text));
		}
	}
	if (drbg[0]) {
		fputc('\n', fp);
		textwrap_printf(fp, w, "", 2, "DRBG output (%s): %s", drbg, verdict_kind_note(SOURCE_DRBG));
	}
	if (cond[0]) {
		fputc('\n', fp);
		textwrap_printf(fp, w, "", 2, "Conditioned output (%s): %s", cond, verdict_kind_note(SOURCE_CONDITIONED));
	}
	fflush(fp);
	if (ferror(fp))
		return err_set(e, ERR_IO, "text report: write error");
	return 0;
}
