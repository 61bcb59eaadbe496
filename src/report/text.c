/* SPDX-License-Identifier: GPL-3.0-or-later */
/* text.c - the audit's table for people: one line per source, then each
 * source's reasons, then what the figures may and may not be read as. */
#include "config.h"

#include "report/report.h"

#include <math.h>
#include <string.h>

#include "report/termtext.h"

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

/* "Kernel trust": the kernel's settings, then one line per decision. */
static void report_text_trust(FILE *fp, const struct report_run *r)
{
	const struct kernel_ctx *k = &r->kernel;
	char boot[512];

	fprintf(fp, "\nKernel trust (%s%s; trust_cpu %s: %s; hwrng %s",
		k->sysroot[0] ? "sysroot " : "kernel ", T(k->sysroot[0] ? k->sysroot : k->release_known ? k->release :
		"unknown"), kernel_tri_token(k->trust_cpu.state), T(k->trust_cpu.reason),
		T(k->rng_current[0] ? k->rng_current : "unknown"));
	if (k->hwrng_quality >= 0)
		fprintf(fp, " credited %ld/1024", k->hwrng_quality);
	fprintf(fp, "%s%s):\n", k->cleared_names[0] ? "; cleared: " : "", T(k->cleared_names));
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		const struct trust_decision *t = &s->trust;
		if (t->role == TRUST_ROLE_NONE)
			continue;
		fprintf(fp, "  %s%s%s%s: %s%s%s %s\n", T(s->available ? s->info.spec : s->requested),
			t->simulated ? " [simulated " : "", t->simulated ? T(t->as) : "", t->simulated ? "]" : "",
			t->recommendation[0] ? "recommend " : "no change", T(t->recommendation),
			t->recommendation[0] ? "." : ".", T(t->reason));
	}
	trust_bootloader_note(k, boot, sizeof boot);
	fprintf(fp, "  %s\n", T(boot));
}

int report_text_write(FILE *fp, const struct report_run *r, struct err *e)
{
	char t[64], ucode[32] = "unknown";
	char drbg[200] = "", cond[200] = "";

	/* an unknown revision reads "microcode unknown", not "unknown 0" */
	if (r->sys.microcode_known)
		snprintf(ucode, sizeof ucode, "0x%lx", r->sys.microcode);
	fprintf(fp, "rngaudit %s audit of %s (%s, family %u model %u stepping %u, microcode %s), "
		"kernel %s, %s\n", r->tool_version, T(r->sys.hostname[0] ? r->sys.hostname : "?"),
		T(r->sys.cpu_vendor[0] ? r->sys.cpu_vendor : "unknown CPU"), r->sys.cpu_family,
		r->sys.cpu_model, r->sys.cpu_stepping, ucode, T(r->sys.kernel),
		report_iso_time(r->finished, t, sizeof t));
	fprintf(fp, "policy: %s (alpha %s)%s\n\n", T(r->policy->origin),
		policy_format_alpha(r->policy->alpha, t, sizeof t),
		r->partial ? "; INTERRUPTED: partial results" : "");
	/* CREDIBILITY: how far the verdict can be believed (verdict.c), not
	 * an entropy credit; FIGURE says whether H/SAMPLE is one. */
	fprintf(fp, "%-26s %-11s %11s %9s %4s %8s %10s  %s\n", "SOURCE", "VERDICT", "CREDIBILITY", "SAMPLES",
		"K", "SECONDS", "H/SAMPLE", "FIGURE");
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		char h[32] = "-";
		if (s->est_ran && isfinite(s->est.h_assessed))
			snprintf(h, sizeof h, "%.4f", s->est.h_assessed + 0.0);
		fprintf(fp, "%-26s %-11s %11.2f %9llu %4u %8.2f %10s  %s%s\n",
			termtext_cut(s->available ? s->info.spec : s->requested, 26),
			verdict_status_name(s->verdict.status),
			s->verdict.credibility, (unsigned long long)s->samples, s->bits, s->stats.seconds, h,
			figure_label(s), s->required ? " (required)" : "");
		if (s->available && s->info.kind == SOURCE_DRBG)
			kind_list(drbg, sizeof drbg, s);
		if (s->available && s->info.kind == SOURCE_CONDITIONED)
			kind_list(cond, sizeof cond, s);
	}
	report_text_trust(fp, r);
	for (size_t i = 0; i < r->n; i++) {
		const struct report_source *s = &r->src[i];
		fprintf(fp, "\n%s: %s", T(s->available ? s->info.spec : s->requested),
			verdict_status_name(s->verdict.status));
		if (s->available && s->info.device[0])
			fprintf(fp, " (%s%s%s)", T(s->info.device), s->info.detail[0] ? ", " : "", T(s->info.detail));
		fputc('\n', fp);
		if ((s->available || s->kind_known) && s->kind_basis[0])
			fprintf(fp, "  kind %s: %s\n", source_kind_token(s->info.kind), s->kind_basis);
		for (size_t j = 0; j < s->verdict.nreasons; j++) {
			const struct verdict_reason *rs = &s->verdict.reasons[j];
			/* The kind notes are printed once, below the table. */
			if (strcmp(rs->code, "DRBG_OUTPUT") == 0 || strcmp(rs->code, "CONDITIONED_OUTPUT") == 0)
				continue;
			fprintf(fp, "  %-4s %s: %s\n", verdict_level_name(rs->level), rs->code, T(rs->text));
		}
	}
	if (drbg[0])
		fprintf(fp, "\nDRBG output (%s): %s\n", drbg, verdict_kind_note(SOURCE_DRBG));
	if (cond[0])
		fprintf(fp, "\nConditioned output (%s): %s\n", cond, verdict_kind_note(SOURCE_CONDITIONED));
	fflush(fp);
	if (ferror(fp))
		return err_set(e, ERR_IO, "text report: write error");
	return 0;
}
