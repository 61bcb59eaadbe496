/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audit_progress.c - the audit's progress line (audit_progress.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/audit_progress.h"
#include "report/termtext.h"

static void audit_progress_draw(struct audit_progress *ap)
{
	char line[512], rate[32];
	size_t len = 0;
	double now = cli_now();

	if (!cli_progress_due(&ap->p))
		return;
	for (size_t i = 0; i < ap->n && len < sizeof line - 80; i++) {
		const struct audit_job *j = &ap->jobs[i];
		const struct audit_progress_job *v = &ap->view[i];
		const char *sep = len ? ", " : "";
		switch (v->state) {
		case AUDIT_WAITING:
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s waiting", sep, j->spec);
			break;
		case AUDIT_COLLECTING:
			if (v->bytes)
				cli_format_rate((double)v->bytes / (now - v->started + 1e-9), rate,
						sizeof rate);
			else
				snprintf(rate, sizeof rate, "starting");
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %llu/%llu (%s)", sep,
						termtext(j->spec), (unsigned long long)v->done,
						(unsigned long long)j->samples, rate);
			break;
		case AUDIT_ASSESSING:
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s assessing", sep, termtext(j->spec));
			break;
		default:
			break;
		}
	}
	if (len)
		fprintf(stderr, "\r\033[Kaudit: %s", line);
	fflush(stderr);
}

static void audit_progress_state(void *ctx, struct audit_job *j, enum audit_job_state state)
{
	struct audit_progress *ap = ctx;
	struct audit_progress_job *v = &ap->view[j - ap->jobs];

	pthread_mutex_lock(&ap->lock);
	v->state = state;
	if (state == AUDIT_COLLECTING)
		v->started = cli_now();
	ap->p.last = 0;               /* a change of state shows at once */
	audit_progress_draw(ap);
	pthread_mutex_unlock(&ap->lock);
}

static void audit_progress_update(void *ctx, struct audit_job *j, uint64_t done, uint64_t bytes)
{
	struct audit_progress *ap = ctx;
	struct audit_progress_job *v = &ap->view[j - ap->jobs];

	pthread_mutex_lock(&ap->lock);
	v->done = done;
	v->bytes = bytes;
	audit_progress_draw(ap);
	pthread_mutex_unlock(&ap->lock);
}

void audit_progress_init(struct audit_progress *ap, const struct audit_job *jobs,
			 struct audit_progress_job *view, size_t n)
{
	pthread_mutex_init(&ap->lock, NULL);
	cli_progress_init(&ap->p, "audit", 0);
	ap->jobs = jobs;
	ap->view = view;
	ap->n = n;
	memset(view, 0, n * sizeof *view);    /* AUDIT_QUEUED */
	ap->hooks.state = audit_progress_state;
	ap->hooks.progress = audit_progress_update;
	ap->hooks.ctx = ap;
	ap->hooks.progress_every = CLI_PROGRESS_EVERY_BLOCK;
}

const struct audit_job_hooks *audit_progress_hooks(const struct audit_progress *ap)
{
	return ap->p.enabled ? &ap->hooks : NULL;
}

void audit_progress_end(struct audit_progress *ap)
{
	if (ap->p.enabled && ap->p.last > 0) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	pthread_mutex_destroy(&ap->lock);
}
