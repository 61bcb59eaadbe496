/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json_context.c - the machine and the kernel context as JSON objects,
 * shared by the audit document and `sources --format json`
 * (report_json.h).  Every kernel item keeps where it came from or why it
 * is unknown (kernel.h); a tri-state is true, false or null. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report/report_json.h"

int report_json_text(struct json *obj, const char *key, const char *s)
{
	return s && *s ? json_set_string(obj, key, s) : json_set_null(obj, key);
}

int report_json_real(struct json *obj, const char *key, int known, double x)
{
	return known && isfinite(x) ? json_set_real(obj, key, x + 0.0) : json_set_null(obj, key);
}

int report_json_tri(struct json *obj, const char *key, enum kernel_tri t)
{
	return t == KERNEL_UNKNOWN ? json_set_null(obj, key) : json_set_bool(obj, key, t == KERNEL_ON);
}

int report_json_words(struct json *obj, const char *key, const char *s)
{
	struct json *arr;
	char word[256];
	int rc = json_set_new(obj, key, JSON_ARRAY, &arr);

	while (rc == 0 && s && *s) {
		size_t len = strcspn(s, " ,|");

		if (len > 0 && len < sizeof word) {
			struct json *v;

			memcpy(word, s, len);
			word[len] = '\0';
			rc = json_append_new(arr, JSON_STRING, &v);
			if (rc == 0 && !(v->s = strdup(word)))
				rc = ERR_NOMEM;
		}
		s += len;
		s += strspn(s, " ,|");
	}
	return rc;
}

int report_json_machine(struct json *obj, const char *key, const struct sysinfo *si)
{
	struct json *m, *cpu;
	char mc[32];
	int rc = json_set_new(obj, key, JSON_OBJECT, &m);

	if (rc)
		return rc;
	rc |= report_json_text(m, "host", si->hostname);
	rc |= report_json_text(m, "kernel", si->kernel);
	rc |= report_json_text(m, "arch", si->arch);
	if ((rc |= json_set_new(m, "cpu", JSON_OBJECT, &cpu)) != 0)
		return ERR_NOMEM;
	rc |= report_json_text(cpu, "vendor", si->cpu_vendor);
	rc |= report_json_text(cpu, "model_name", si->cpu_model_name);
	rc |= json_set_int(cpu, "family", si->cpu_family);
	rc |= json_set_int(cpu, "model", si->cpu_model);
	rc |= json_set_int(cpu, "stepping", si->cpu_stepping);
	snprintf(mc, sizeof mc, "0x%lx", si->microcode);
	rc |= report_json_text(cpu, "microcode", si->microcode_known ? mc : "");
	rc |= json_set_bool(cpu, "rdrand", si->has_rdrand);
	rc |= json_set_bool(cpu, "rdseed", si->has_rdseed);
	return rc ? ERR_NOMEM : 0;
}

static int kernel_trust(struct json *k, const char *key, const struct kernel_trust *t)
{
	struct json *o;
	int rc = json_set_new(k, key, JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= report_json_tri(o, "on", t->state);
	rc |= report_json_text(o, "source", t->source);
	rc |= report_json_text(o, "reason", t->reason);
	return rc ? ERR_NOMEM : 0;
}

static int kernel_hwrng(struct json *k, const struct kernel_ctx *c)
{
	struct json *o;
	int rc = json_set_new(k, "hwrng", JSON_OBJECT, &o);

	if (rc)
		return rc;
	rc |= report_json_text(o, "current", c->rng_current);
	rc |= report_json_words(o, "available", c->rng_available);
	rc |= report_json_tri(o, "selected_by_user", c->rng_selected < 0 ? KERNEL_UNKNOWN :
			      c->rng_selected ? KERNEL_ON : KERNEL_OFF);
	if (c->hwrng_quality >= 0)
		rc |= json_set_int(o, "quality", c->hwrng_quality);
	else
		rc |= json_set_null(o, "quality");
	rc |= report_json_text(o, "quality_from", c->quality_from);
	rc |= report_json_text(o, "quality_why", c->quality_why);
	if (c->default_quality >= 0)
		rc |= json_set_int(o, "default_quality", c->default_quality);
	else
		rc |= json_set_null(o, "default_quality");
	rc |= report_json_text(o, "default_quality_meaning", c->default_quality_meaning);
	return rc ? ERR_NOMEM : 0;
}

int report_json_kernel(struct json *obj, const char *key, const struct kernel_ctx *c)
{
	struct json *k, *ci;
	int rc = json_set_new(obj, key, JSON_OBJECT, &k);

	if (rc)
		return rc;
	rc |= report_json_text(k, "sysroot", c->sysroot);
	rc |= report_json_text(k, "release", c->release_known ? c->release : "");
	rc |= report_json_text(k, "release_why", c->release_why);
	rc |= report_json_text(k, "version", c->version);
	rc |= report_json_text(k, "version_from", c->release_known ? c->version_from : "");
	rc |= json_set_bool(k, "cmdline_read", c->cmdline_known);
	rc |= report_json_text(k, "config", c->config_from);
	rc |= report_json_text(k, "config_why", c->config_why);
	rc |= kernel_trust(k, "trust_cpu", &c->trust_cpu);
	rc |= kernel_trust(k, "trust_bootloader", &c->trust_bootloader);
	rc |= report_json_words(k, "cpu_flags_cleared", c->cleared_names);
	rc |= report_json_words(k, "cpu_flags_warned", c->warned_names);
	rc |= report_json_text(k, "cpu_flags_evidence", c->flags_evidence);
	if ((rc |= json_set_new(k, "cpuinfo", JSON_OBJECT, &ci)) != 0)
		return ERR_NOMEM;
	rc |= json_set_bool(ci, "read", c->cpuinfo_known);
	rc |= report_json_tri(ci, "rdrand", !c->cpuinfo_known ? KERNEL_UNKNOWN :
			      c->cpuinfo_rdrand ? KERNEL_ON : KERNEL_OFF);
	rc |= report_json_tri(ci, "rdseed", !c->cpuinfo_known ? KERNEL_UNKNOWN :
			      c->cpuinfo_rdseed ? KERNEL_ON : KERNEL_OFF);
	rc |= report_json_tri(k, "virtualized", c->virtualized);
	rc |= report_json_text(k, "virtualized_evidence", c->virt_evidence);
	rc |= kernel_hwrng(k, c);
	rc |= report_json_tri(k, "crng_ready", c->crng_ready);
	rc |= report_json_text(k, "crng_why", c->crng_why);
	if (c->entropy_avail >= 0)
		rc |= json_set_int(k, "entropy_avail", c->entropy_avail);
	else
		rc |= json_set_null(k, "entropy_avail");
	if (c->poolsize >= 0)
		rc |= json_set_int(k, "poolsize", c->poolsize);
	else
		rc |= json_set_null(k, "poolsize");
	rc |= report_json_text(k, "entropy_avail_meaning", c->entropy_avail_meaning);
	rc |= report_json_tri(k, "hwrng_credit_counts", c->hwrng_credit_counts);
	rc |= report_json_text(k, "hwrng_credit_note", c->hwrng_note);
	return rc ? ERR_NOMEM : 0;
}
