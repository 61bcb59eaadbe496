/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_sources.c - `rngaudit sources`: the machine, what its kernel trusts,
 * then one line per source.  --sysroot DIR (or RNGAUDIT_SYSROOT) reads the
 * machine and kernel from a saved bundle; --save-sysroot DIR writes one. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/classify.h"
#include "audit/cpurng_arch.h"
#include "audit/kernel.h"
#include "audit/sysinfo.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "report/report_json.h"
#include "report/termtext.h"
#include "sources/source.h"
#include "sources/widefmt.h"

struct sources_args {
	const char *sysroot, *save;
	int json;          /* --format json */
};

static int sources_parse(int argc, char **argv, struct sources_args *a)
{
	static const struct option longopts[] = {
		{ "sysroot", required_argument, NULL, 'R' },
		{ "save-sysroot", required_argument, NULL, 'W' },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case 'R': a->sysroot = optarg; break;
		case 'W': a->save = optarg; break;
		case 'f':
			if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
				return cli_error("sources", "--format %s: expected text or json", optarg);
			a->json = strcmp(optarg, "json") == 0;
			break;
		case ':':
			return cli_error("sources", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("sources", "unknown option '%s' (see rngaudit sources --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_error("sources", "unexpected argument '%s'", argv[optind]);
	if (!a->sysroot)
		a->sysroot = cli_sysroot_env();
	if (a->save && a->sysroot)
		return cli_error("sources", "--save-sysroot reads the running machine: it does not go with --sysroot");
	if (a->save && a->json)
		return cli_error("sources", "--save-sysroot writes a bundle, not a listing: it does not go with --format json");
	return 0;
}

/* Every value read from the machine or a bundle goes through termtext():
 * a bundle from elsewhere cannot drive the terminal or break a line. */
#define T(s) termtext(s)

static void sources_machine(const struct sysinfo *si)
{
	printf("cpu: %s family %u (0x%x) model %u (0x%x) stepping %u, microcode ",
	       T(si->cpu_vendor[0] ? si->cpu_vendor : "unknown"), si->cpu_family, si->cpu_family,
	       si->cpu_model, si->cpu_model, si->cpu_stepping);
	if (si->microcode_known)
		printf("0x%lx", si->microcode);
	else
		printf("unknown");
	printf("%s%s\n", si->cpu_model_name[0] ? ", " : "", T(si->cpu_model_name));
	printf("kernel: %s%s%s, host %s\n", T(si->kernel[0] ? si->kernel : "unknown"), si->arch[0] ? " " : "",
	       T(si->arch), T(si->hostname[0] ? si->hostname : "unknown"));
}

/* The "kernel rng" block: one item a line, "unknown (why)" where unread. */
static void sources_kernel(const struct kernel_ctx *k)
{
	printf("kernel rng%s%s:\n", k->sysroot[0] ? " from sysroot " : "", T(k->sysroot));
	printf("  %-17s %s (%s)\n", "release", T(k->release_known ? k->release : "unknown"), T(k->release_why));
	if (k->release_known)
		printf("  %-17s %s (%s)\n", "version", T(k->version), T(k->version_from));
	printf("  %-17s %s (%s)\n", "trust_cpu", kernel_tri_token(k->trust_cpu.state), T(k->trust_cpu.reason));
	printf("  %-17s %s (%s)\n", "trust_bootloader", kernel_tri_token(k->trust_bootloader.state),
	       T(k->trust_bootloader.reason));
	printf("  %-17s %s\n", "config", T(k->config_from[0] ? k->config_from : k->config_why));
	printf("  %-17s %s%s%s\n", "cpu rng flags", k->flags_evidence[0] ? "" : "none cleared or hidden",
	       T(k->flags_evidence), "");
	printf("  %-17s %s (%s)\n", "virtualized", k->virtualized == KERNEL_ON ? "yes" :
	       k->virtualized == KERNEL_OFF ? "no" : "unknown", T(k->virt_evidence));
	printf("  %-17s %s", "hwrng", T(k->rng_current[0] ? k->rng_current : "unknown"));
	if (k->rng_available[0])
		printf(" (available: %s)", T(k->rng_available));
	if (k->rng_selected == 1)
		printf(" chosen by the user");
	if (k->hwrng_quality >= 0)
		printf(", credit %ld/1024 (%s%s%s)\n", k->hwrng_quality, T(k->quality_from),
		       k->quality_why[0] ? "; " : "", T(k->quality_why));
	else
		printf(", credit unknown (%s)\n", T(k->quality_why));
	if (k->default_quality >= 0)
		printf("  %-17s %ld: %s\n", "default_quality", k->default_quality, k->default_quality_meaning);
	printf("  %-17s %s (%s)\n", "crng initialised", kernel_tri_token(k->crng_ready), T(k->crng_why));
	printf("  %-17s ", "entropy_avail");
	if (k->entropy_avail >= 0)
		printf("%ld", k->entropy_avail);
	else
		printf("unknown");
	if (k->poolsize >= 0)
		printf(" of %ld", k->poolsize);
	printf(" (%s)\n", k->entropy_avail_meaning);
}

/* The "cpu rng" block: what this architecture's kernel seeds from (issue 27). */
static void sources_cpurng(const struct cpurng_arch *a)
{
	printf("cpu rng (%s%s%s%s):\n", a->machine[0] ? a->machine : "machine unknown", a->machine_from[0] ? ", from " : "",
	       a->machine_from, "");
	printf("  %-17s %s\n", "seed", a->seed);
	printf("  %-17s %s\n", "longs", a->longs);
	printf("  %-17s %s\n", "boot credit", a->trust_cpu_governs ? "governed by random.trust_cpu" : "unknown");
	printf("  %-17s %s\n", "audit with", a->audit_source ? a->audit_source : "nothing reachable from user space");
	if (a->note[0])
		printf("  %-17s %s\n", "note", a->note);
}

#ifndef RNGAUDIT_PKGDATADIR
#define RNGAUDIT_PKGDATADIR "/usr/local/share/rngaudit"
#endif

/* RNGAUDIT_QUIRKS or the installed table; quietly none when absent. */
static int sources_quirks(struct quirk_table *qt)
{
	char buf[1024];
	const char *path = getenv("RNGAUDIT_QUIRKS");
	struct err e;
	if (!path || !*path) {
		snprintf(buf, sizeof buf, "%s/quirks.txt", RNGAUDIT_PKGDATADIR);
		path = buf;
	}
	return quirks_load(qt, path, &e);
}

static int sources_save(const char *dir)
{
	struct err e;
	size_t n;
	if (kernel_save_sysroot(dir, &n, &e) != 0)
		return cli_error_err("sources", &e);
	cli_note("sources", "%zu files saved under %s", n, dir);
	return EXIT_OK;
}

/* One real source's probe, /dev/hwrng classified by its driver as the
 * audit classifies it (classify.h: virtio-rng passes on DRBG output). */
static void sources_probe(const char *name, const struct kernel_ctx *k, struct source_probe *p)
{
	const char *drbg;

	source_probe(name, p);
	drbg = strcmp(p->name, "hwrng") == 0 ? classify_hwrng_brief(k->rng_current) : NULL;
	if (drbg) {
		p->kind = SOURCE_DRBG;
		snprintf(p->what, sizeof p->what, "%s (driver %s: %s)", source_kind_describe(SOURCE_DRBG),
			 k->rng_current, drbg);
	}
}

/* --format json (report/json_sources.c): the same facts, typed */
static int sources_json(const struct sysinfo *si, const struct kernel_ctx *k, int from_sysroot)
{
	struct source_probe p[SOURCE_REAL_MAX];
	size_t n = 0;
	struct err e;

	for (const char *const *name = source_real_names; !from_sysroot && *name &&
	     n < sizeof p / sizeof p[0]; name++)
		sources_probe(*name, k, &p[n++]);
	if (report_sources_json_write(stdout, si, k, from_sysroot ? NULL : p, n, &e) != 0)
		return cli_error_err("sources", &e);
	return EXIT_OK;
}

int cmd_sources(int argc, char **argv)
{
	struct sources_args a = { 0 };
	struct kernel_read_opts ko = { 0 };
	struct kernel_ctx k;
	struct quirk_table qt = { 0 };
	struct quirk_cpu cpu;
	struct sysinfo si;
	struct cpurng_arch arch;
	struct err e;
	int rc;

	if ((rc = sources_parse(argc, argv, &a)) != 0)
		return rc;
	if (a.save)
		return sources_save(a.save);
	if (a.sysroot)
		rc = sysinfo_read_sysroot(&si, a.sysroot, &e);
	else
		rc = sysinfo_read(&si, &e);
	ko.sysroot = a.sysroot;
	/* The quirk table, when installed, explains a flag the kernel cleared. */
	if (rc == 0 && sources_quirks(&qt) == 0) {
		cpu.vendor = si.cpu_vendor;
		cpu.family = si.cpu_family;
		cpu.model = si.cpu_model;
		cpu.stepping = si.cpu_stepping;
		cpu.microcode = si.microcode;
		cpu.microcode_known = si.microcode_known;
		ko.quirks = &qt;
		ko.cpu = &cpu;
	}
	if (rc == 0)
		rc = kernel_read(&k, &ko, &e);
	if (rc == 0)
		rc = cpurng_arch_read(&arch, a.sysroot, &e);
	quirks_free(&qt);
	if (rc != 0)
		return cli_error_err("sources", &e);
	if (a.json)
		return sources_json(&si, &k, a.sysroot != NULL);
	sources_machine(&si);
	sources_kernel(&k);
	sources_cpurng(&arch);
	if (a.sysroot) {
		printf("\nSources are not probed from a sysroot (they belong to the machine it was saved on).\n");
		return EXIT_OK;
	}
	printf("\n%-10s %-11s %-16s %5s  %s\n", "SOURCE", "STATUS", "DEVICE", "WIDTH", "OUTPUT");
	for (const char *const *name = source_real_names; *name; name++) {
		struct source_probe p;
		sources_probe(*name, &k, &p);
		printf("%-10s %-11s %-16s %5u  %s", p.name, p.available ? "available" : "unavailable",
		       T(p.device), p.word_bits, T(p.what[0] ? p.what : source_kind_describe(p.kind)));
		if (p.detail[0] && !p.what[0])
			printf(" (driver %s)", T(p.detail));
		if (!p.available)
			printf(": %s", T(p.why));
		putchar('\n');
	}
	printf("\nAlso: file:PATH (raw bytes, file:- = stdin), file:PATH,format=F (wide raw samples:\n"
	       "%s) and sim:MODEL (simulated, for tests).\n", WIDEFMT_NAMES);
	return EXIT_OK;
}
