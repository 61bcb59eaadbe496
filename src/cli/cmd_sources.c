/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_sources.c - `rngaudit sources`: the machine, what its kernel trusts,
 * then one line per source.  --sysroot DIR (or RNGAUDIT_SYSROOT) reads the
 * machine and kernel from a saved bundle; --save-sysroot DIR writes one. */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/classify.h"
#include "audit/cpurng_arch.h"
#include "audit/kernel.h"
#include "audit/sysinfo.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "report/report_json.h"
#include "report/termtext.h"
#include "report/textwrap.h"
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

/* The layout's width (textwrap.h): the terminal's, COLUMNS, else 80. */
static size_t W;

/* One "  label     text" line of a block, wrapped under its text. */
static void item(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void item(const char *label, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	textwrap_item(stdout, W, 2, 17, label, buf);
}

static void sources_machine(const struct sysinfo *si)
{
	char ucode[32] = "unknown";

	if (si->microcode_known)
		snprintf(ucode, sizeof ucode, "0x%lx", si->microcode);
	textwrap_printf(stdout, W, "", 2, "cpu: %s family %u (0x%x) model %u (0x%x) stepping %u, microcode %s%s%s",
			T(si->cpu_vendor[0] ? si->cpu_vendor : "unknown"), si->cpu_family, si->cpu_family,
			si->cpu_model, si->cpu_model, si->cpu_stepping, ucode, si->cpu_model_name[0] ? ", " : "",
			T(si->cpu_model_name));
	textwrap_printf(stdout, W, "", 2, "kernel: %s%s%s, host %s", T(si->kernel[0] ? si->kernel : "unknown"),
			si->arch[0] ? " " : "", T(si->arch), T(si->hostname[0] ? si->hostname : "unknown"));
}

/* The "kernel rng" block: one item a line, "unknown (why)" where unread. */
static void sources_kernel(const struct kernel_ctx *k)
{
	char hw[1024], credit[768], avail[64] = "unknown", pool[32] = "";

	textwrap_printf(stdout, W, "", 2, "kernel rng%s%s:", k->sysroot[0] ? " from sysroot " : "", T(k->sysroot));
	item("release", "%s (%s)", T(k->release_known ? k->release : "unknown"), T(k->release_why));
	if (k->release_known)
		item("version", "%s (%s)", T(k->version), T(k->version_from));
	item("trust_cpu", "%s (%s)", kernel_tri_token(k->trust_cpu.state), T(k->trust_cpu.reason));
	item("trust_bootloader", "%s (%s)", kernel_tri_token(k->trust_bootloader.state),
	     T(k->trust_bootloader.reason));
	item("config", "%s", T(k->config_from[0] ? k->config_from : k->config_why));
	item("cpu rng flags", "%s%s", k->flags_evidence[0] ? "" : "none cleared or hidden", T(k->flags_evidence));
	item("virtualized", "%s (%s)", k->virtualized == KERNEL_ON ? "yes" :
	     k->virtualized == KERNEL_OFF ? "no" : "unknown", T(k->virt_evidence));
	if (k->hwrng_quality >= 0)
		snprintf(credit, sizeof credit, ", credit %ld/1024 (%s%s%s)", k->hwrng_quality, T(k->quality_from),
			 k->quality_why[0] ? "; " : "", T(k->quality_why));
	else
		snprintf(credit, sizeof credit, ", credit unknown (%s)", T(k->quality_why));
	snprintf(hw, sizeof hw, "%s%s%s%s%s", T(k->rng_current[0] ? k->rng_current : "unknown"),
		 k->rng_available[0] ? " (available: " : "", T(k->rng_available), k->rng_available[0] ? ")" : "",
		 k->rng_selected == 1 ? " chosen by the user" : "");
	item("hwrng", "%s%s", hw, credit);
	if (k->default_quality >= 0)
		item("default_quality", "%ld: %s", k->default_quality, k->default_quality_meaning);
	item("crng initialised", "%s (%s)", kernel_tri_token(k->crng_ready), T(k->crng_why));
	if (k->entropy_avail >= 0)
		snprintf(avail, sizeof avail, "%ld", k->entropy_avail);
	if (k->poolsize >= 0)
		snprintf(pool, sizeof pool, " of %ld", k->poolsize);
	item("entropy_avail", "%s%s (%s)", avail, pool, k->entropy_avail_meaning);
}

/* The "cpu rng" block: what this architecture's kernel seeds from (issue 27). */
static void sources_cpurng(const struct cpurng_arch *a)
{
	textwrap_printf(stdout, W, "", 2, "cpu rng (%s%s%s):", a->machine[0] ? a->machine : "machine unknown",
			a->machine_from[0] ? ", from " : "", a->machine_from);
	item("seed", "%s", a->seed);
	item("longs", "%s", a->longs);
	item("boot credit", "%s", a->trust_cpu_governs ? "governed by random.trust_cpu" : "unknown");
	item("audit with", "%s", a->audit_source ? a->audit_source : "nothing reachable from user space");
	if (a->note[0])
		item("note", "%s", a->note);
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

/* The real sources, one row each: the kind of output wraps under its
 * heading (textwrap.h). */
static int sources_table(const struct kernel_ctx *k)
{
	static const struct textwrap_col col[] = {
		{ "SOURCE", "source", TEXTWRAP_LEFT },
		{ "STATUS", "status", TEXTWRAP_LEFT },
		{ "DEVICE", "device", TEXTWRAP_LEFT },
		{ "WIDTH", "width", TEXTWRAP_RIGHT },
		{ "OUTPUT", "output", TEXTWRAP_PROSE },
	};
	struct textwrap_table t;
	int rc = 0;

	textwrap_table_init(&t, col, sizeof col / sizeof col[0]);
	for (const char *const *name = source_real_names; *name && rc == 0; name++) {
		struct source_probe p;
		char width[16], out[1024];
		sources_probe(*name, k, &p);
		snprintf(width, sizeof width, "%u", p.word_bits);
		snprintf(out, sizeof out, "%s%s%s%s%s%s", T(p.what[0] ? p.what : source_kind_describe(p.kind)),
			 p.detail[0] && !p.what[0] ? " (driver " : "", p.detail[0] && !p.what[0] ? T(p.detail) : "",
			 p.detail[0] && !p.what[0] ? ")" : "", p.available ? "" : ": ", p.available ? "" : T(p.why));
		rc = textwrap_table_add(&t, (const char *const[]){ p.name, p.available ? "available" : "unavailable",
								   T(p.device), width, out });
	}
	if (rc == 0)
		rc = textwrap_table_write(&t, stdout, W) == ERR_NOMEM ? ERR_NOMEM : 0;
	textwrap_table_free(&t);
	return rc;
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
	W = textwrap_width(STDOUT_FILENO);
	sources_machine(&si);
	sources_kernel(&k);
	sources_cpurng(&arch);
	if (a.sysroot) {
		putchar('\n');
		textwrap_put(stdout, W, "", 2, "Sources are not probed from a sysroot (they belong to the machine it "
			     "was saved on).");
		return EXIT_OK;
	}
	putchar('\n');
	if (sources_table(&k) != 0)
		return cli_error("sources", "out of memory");
	putchar('\n');
	textwrap_printf(stdout, W, "", 2, "Also: file:PATH (raw bytes, file:- = stdin), file:PATH,format=F (wide raw "
			"samples: %s) and sim:MODEL (simulated, for tests).", WIDEFMT_NAMES);
	return EXIT_OK;
}
