/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_audit.c - `rngaudit audit`: every source collected, health-tested
 * while it streams (90B 4.4), assessed (90B 6.3 non-IID track), matched
 * against the quirk table, judged by the policy, and reported as text on
 * stdout plus CSV, JUnit XML and a Prometheus textfile on request.
 *
 * One thread per source (the sources are independent); results keep the
 * order the sources were named in.  SIGINT/SIGTERM stop the collection, or
 * the estimators after the one running: what was collected is judged
 * without the estimators and every report is still written whole, marked
 * partial.
 */
#include "config.h"

#ifdef HAVE_CPUID_H
#include <cpuid.h>
#endif
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "audit/audit_job.h"
#include "cli/audit_progress.h"
#include "cli/cli_plot.h"
#include "report/report_json.h"
#include "cli/cli_util.h"
#include "parse.h"
#include "cli/commands.h"
#include "cli/datapath.h"
#include "engine/engine.h"
#include "estimators/noniid.h"
#include "health/health_monitor.h"
#include "audit/kernel.h"
#include "audit/policy.h"
#include "audit/quirks.h"
#include "engine/recorder.h"
#include "report/report.h"
#include "report/textwrap.h"
#include "engine/samples.h"
#include "engine/translate.h"
#include "engine/widein.h"
#include "sources/source.h"
#include "sources/spec.h"
#include "audit/sysinfo.h"
#include "audit/verdict.h"


#define AUDIT_MAX_SOURCES 16

struct audit_args {
	const char *sources;          /* --source LIST (NULL: every real source) */
	uint64_t samples;             /* -n; 0 = per-source default */
	unsigned bits;
	const char *csv, *junit, *prom, *policy, *plot, *quirks;
	const char *json;             /* --json FILE (report/json_audit.c) */
	int junit_host;               /* --junit-host */
	const char *sysroot;          /* --sysroot / RNGAUDIT_SYSROOT: the kernel and CPU from a bundle */
	int strict;
};

static uint64_t audit_default_samples(const char *spec, const char **why)
{
	if (strncmp(spec, "hwrng", 5) == 0) {
		*why = "default for hwrng: ~2 s at the ~10 KB/s of a virtio RNG";
		return 20000;
	}
	if (strncmp(spec, "file", 4) == 0) {
		*why = "the whole file";
		return 0;
	}
	*why = "default: the 10^6 samples SP 800-90B 3.1.1 asks for";
	return 1000000;
}

/* DESIGN.md: every output checked before the run, not after an hour of
 * collecting; no two the same file (--csv X --junit X lost a report);
 * one that names stdout is "-" (the table then goes to stderr). */
static int audit_check_outputs(struct audit_args *a)
{
	const struct outpath o[] = { { "--csv", a->csv }, { "--junit", a->junit }, { "--prom", a->prom } };

	if (cli_check_outputs("audit", o, sizeof o / sizeof o[0], OUTPATH_DEVICES | OUTPATH_STDOUT) != 0 ||
	    (a->plot && cli_plot_check("audit", a->plot) != 0))
		return EXIT_ERROR;
	a->csv = outpath_normal(a->csv);
	a->junit = outpath_normal(a->junit);
	a->prom = outpath_normal(a->prom);
	return 0;
}

static int audit_parse(int argc, char **argv, struct audit_args *a)
{
	static const struct option longopts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "samples", required_argument, NULL, 'n' },
		{ "bits", required_argument, NULL, 'b' },
		{ "csv", required_argument, NULL, 'C' },
		{ "junit", required_argument, NULL, 'J' },
		{ "prom", required_argument, NULL, 'P' },
		{ "json", required_argument, NULL, 'j' },
		{ "junit-host", no_argument, NULL, 'H' },
		{ "policy", required_argument, NULL, 'p' },
		{ "plot", required_argument, NULL, 'G' },
		{ "quirks", required_argument, NULL, 'Q' },
		{ "strict", no_argument, NULL, 'S' },
		{ "sysroot", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct err e;
	int c;

	a->bits = 8;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:n:b:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': a->sources = optarg; break;
		case 'n':
			if (cli_parse_samples("audit", optarg, &a->samples) != 0)
				return EXIT_ERROR;
			break;
		case 'b':
			if (samples_parse_bits(optarg, &a->bits, &e) != 0)
				return cli_error_err("audit", &e);
			break;
		case 'C': a->csv = optarg; break;
		case 'J': a->junit = optarg; break;
		case 'P': a->prom = optarg; cli_check_prom_name("audit", optarg); break;
		case 'j': a->json = optarg; break;
		case 'H': a->junit_host = 1; break;
		case 'p': a->policy = optarg; break;
		case 'G': a->plot = optarg; break;
		case 'Q': a->quirks = optarg; break;
		case 'S': a->strict = 1; break;
		case 'R': a->sysroot = optarg; break;
		case ':':
			return cli_error("audit", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("audit", "unknown option '%s' (see rngaudit audit --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_error("audit", "unexpected argument '%s'", argv[optind]);
	if (!a->sysroot)
		a->sysroot = cli_sysroot_env();
	return audit_check_outputs(a);
}

/* Draws the pictures from the CSV just written (cli_plot.c); the policy's
 * floors are in it (policy_fail_below, policy_warn_below). */
static int audit_plot(const char *csv, const char *dir)
{
	return cli_plot_run("audit", NULL, 0, csv, dir) == 0 ? EXIT_OK : EXIT_ERROR;
}

/* CPUID leaf 1, ECX bit 31: running under a hypervisor.  The microcode
 * revision a guest sees is then whatever the hypervisor reports (0x1 under
 * Firecracker here), not the host's, so the quirk table must not read it as
 * "before the fix". */
static int audit_under_hypervisor(void)
{
#if defined(HAVE_CPUID_H) && (defined(__x86_64__) || defined(__i386__))
	unsigned a, b, c, d;
	return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31));
#else
	return 0;
#endif
}

static int audit_is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

static int audit_load_quirks(const struct audit_args *a, struct quirk_table *qt)
{
	char buf[1024];
	const char *path = a->quirks;
	struct err e;
	int explicit = path != NULL;

	if (!path) {
		path = getenv("RNGAUDIT_QUIRKS");
		explicit = path && *path;
	}
	if (!path || !*path) {
		path = datapath_data("quirks.txt", buf, sizeof buf);
	}
	if (quirks_load(qt, path, &e) != 0) {
		if (explicit || e.code != ERR_UNAVAILABLE)
			return cli_error_err("audit", &e);
		cli_note("audit", "warning: no quirk table (%s); known-bad CPUs are not flagged", e.msg);
		memset(qt, 0, sizeof *qt);
	}
	return 0;
}

/* The kernel's trust context (live, or the --sysroot bundle's). */
static int audit_kernel(const struct audit_args *a, const struct quirk_table *qt, const struct quirk_cpu *cpu,
			struct kernel_ctx *k)
{
	struct kernel_read_opts ko = { 0 };
	struct err e;
	ko.sysroot = a->sysroot;
	ko.quirks = qt;
	ko.cpu = cpu;
	if (kernel_read(k, &ko, &e) != 0)
		return cli_error_err("audit", &e);
	return 0;
}

/* One audit: what parse, setup, run and the reports share. */
struct audit {
	struct audit_args a;
	int listed;                   /* --source named a list (not the machine's sources) */
	struct policy pol;
	struct quirk_table qt;
	struct quirk_cpu cpu;
	char specs[AUDIT_MAX_SOURCES][SPEC_TEXT_MAX];
	struct audit_job jobs[AUDIT_MAX_SOURCES];
	struct report_source *out;    /* one per spec, in the order named */
	struct report_run run;
	struct cpurng_arch arch;      /* what this architecture's kernel seeds from (issue 27) */
	int usage;                    /* a named source could not be used */
	size_t keep_max;              /* samples a source keeps for the estimators */
};

/* Everything before the sources run: the policy, the quirk table, the
 * list of sources and its bound, the machine and its kernel. */
static int audit_setup(struct audit *au)
{
	const struct audit_args *a = &au->a;
	struct err e;
	size_t n = 0;
	int rc;

	if (datapath_load_policy(&au->pol, a->policy, &e) != 0)
		return cli_error_err("audit", &e);
	if ((rc = audit_load_quirks(a, &au->qt)) != 0)
		return rc;
	au->listed = a->sources && strcmp(a->sources, "all") != 0;
	if (!au->listed) {
		for (n = 0; source_default_names[n]; n++)
			snprintf(au->specs[n], sizeof au->specs[n], "%s", source_default_names[n]);
	} else if (spec_list_split(a->sources, au->specs, AUDIT_MAX_SOURCES, &n, &e) != 0) {
		return cli_error_err("audit", &e);
	}
	/* Every run bounded by the machine: the estimators keep each source's
	 * samples, so -n past what memory holds is refused now, not after an
	 * hour of collecting (or gigabytes of swap), and before the machine's
	 * facts are read (their notes on stderr would come before the
	 * one-line error). */
	au->keep_max = audit_job_keep_max(n);
	if (a->samples > au->keep_max)
		return cli_error("audit", "-n %llu: more samples than this machine can keep for the estimators: at "
				 "most %zu per source with %zu source%s (a quarter of physical memory at %d "
				 "bytes a sample)", (unsigned long long)a->samples, au->keep_max, n,
				 n == 1 ? "" : "s", SAMPLES_ESTIMATOR_BYTES);
	if ((a->sysroot ? sysinfo_read_sysroot(&au->run.sys, a->sysroot, &e) : sysinfo_read(&au->run.sys, &e)) != 0)
		return cli_error_err("audit", &e);
	au->cpu.vendor = au->run.sys.cpu_vendor;
	au->cpu.family = au->run.sys.cpu_family;
	au->cpu.model = au->run.sys.cpu_model;
	au->cpu.stepping = au->run.sys.cpu_stepping;
	au->cpu.microcode = au->run.sys.microcode;
	au->cpu.microcode_known = au->run.sys.microcode_known;
	if (cpurng_arch_read(&au->arch, a->sysroot, &e) != 0)
		return cli_error_err("audit", &e);
	if (audit_kernel(a, &au->qt, &au->cpu, &au->run.kernel) != 0)
		return EXIT_ERROR;
	if (au->cpu.microcode_known &&
	    (a->sysroot ? au->run.kernel.virtualized == KERNEL_ON : audit_under_hypervisor())) {
		au->cpu.microcode_known = 0;
		fprintf(stderr, "rngaudit audit: running under a hypervisor: microcode 0x%lx is the "
			"hypervisor's report, not used to match the quirk table\n", au->run.sys.microcode);
	}

	au->out = calloc(n, sizeof *au->out);
	if (!au->out)
		return cli_error("audit", "out of memory");
	au->run.n = n;
	au->run.src = au->out;
	return 0;
}

/* Job i, ready to run; its note on stderr. */
static void audit_job_prepare(struct audit *au, size_t i, const struct audit_job_hooks *hooks)
{
	struct audit_job *j = &au->jobs[i];
	const struct audit_args *a = &au->a;

	j->hooks = hooks;
	j->stop = &cli_stop;
	snprintf(j->spec, sizeof j->spec, "%.255s", au->specs[i]);
	j->bits = a->bits;
	j->policy = &au->pol;
	j->quirks = &au->qt;
	j->cpu = &au->cpu;
	j->kernel = &au->run.kernel;
	j->arch = &au->arch;
	j->out = &au->out[i];
	j->named = au->listed;
	j->keep_max = au->keep_max;
	if (a->samples) {
		j->samples = a->samples;
		j->samples_why = "-n";
	} else {
		j->samples = audit_default_samples(au->specs[i], &j->samples_why);
	}
	/* Real sources the default list names but this machine lacks are
	 * reported unavailable, not an error. */
	if (!au->listed) {
		struct source_probe p;
		int known = source_probe(au->specs[i], &p) == 0;
		if (!known || !p.available) {
			struct report_source *s = &au->out[i];
			j->probe_unavailable = 1;
			snprintf(s->why, sizeof s->why, "%s", p.why[0] ? p.why : "not available");
			/* the probe knows what it would have been (report rows) */
			s->kind_known = known;
			snprintf(s->info.name, sizeof s->info.name, "%s", au->specs[i]);
			snprintf(s->info.spec, sizeof s->info.spec, "%s", au->specs[i]);
			snprintf(s->info.device, sizeof s->info.device, "%s", p.device);
			s->info.kind = p.kind;
			s->info.word_bits = p.word_bits;
			return;
		}
	}
	if (j->samples)
		cli_note("audit", "%s: %llu samples of %u bit%s (%s)", j->spec, (unsigned long long)j->samples,
			 a->bits, a->bits == 1 ? "" : "s", j->samples_why);
	else
		cli_note("audit", "%s: %s, %u bit%s per sample", j->spec, j->samples_why, a->bits,
			 a->bits == 1 ? "" : "s");
}

/* Every source in its own thread, then what the kernel should trust of
 * each; fills au->run. */
static void audit_run(struct audit *au)
{
	pthread_t tid[AUDIT_MAX_SOURCES];
	int started[AUDIT_MAX_SOURCES] = { 0 };
	struct audit_progress progress;
	struct audit_progress_job view[AUDIT_MAX_SOURCES];
	size_t n = au->run.n;
	double t0;

	cli_install_stop_handlers();
	t0 = cli_now();
	/* all jobs cleared (AUDIT_QUEUED) before any thread draws the line */
	memset(au->jobs, 0, n * sizeof au->jobs[0]);
	audit_progress_init(&progress, au->jobs, view, n);
	for (size_t i = 0; i < n; i++)
		audit_job_prepare(au, i, audit_progress_hooks(&progress));
	/* the notes above first, then the threads and their progress line */
	for (size_t i = 0; i < n; i++) {
		if (pthread_create(&tid[i], NULL, audit_job_thread, &au->jobs[i]) != 0)
			audit_job_run(&au->jobs[i]);   /* no thread: run it here, same result */
		else
			started[i] = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (started[i])
			cli_join_stoppable(tid[i]);
	audit_progress_end(&progress);

	au->run.finished = time(NULL);
	au->run.seconds = cli_now() - t0;
	au->run.tool_version = PACKAGE_VERSION;
	au->run.policy = &au->pol;
	au->run.strict = au->a.strict;
	au->run.junit_host = au->a.junit_host;
	for (size_t i = 0; i < n; i++) {
		struct report_source *s = &au->out[i];
		/* Interrupted while collecting or assessing (audit/audit_job.c); a
		 * signal after both left the results whole: not partial. */
		if (s->stats.interrupted)
			au->run.partial = 1;
		if (au->jobs[i].usage_error) {
			cli_error("audit", "%s", s->why);
			au->usage = 1;
		}
	}
}

/* The pictures: the plot script on the CSV (written into DIR when the
 * CSV went nowhere else). */
static int audit_print_plots(const struct audit *au)
{
	char plot_csv[1100];
	const char *csv = au->a.csv;
	struct err e;

	if (mkdir(au->a.plot, 0777) != 0 && errno != EEXIST)   /* checked before the run */
		return cli_error("audit", "--plot %s: %s", au->a.plot, strerror(errno));
	if (!csv || strcmp(csv, "-") == 0) {
		if ((size_t)snprintf(plot_csv, sizeof plot_csv, "%s/audit.csv", au->a.plot) >= sizeof plot_csv)
			return cli_error("audit", "--plot: directory name too long");
		csv = plot_csv;
		if (report_csv_write(csv, &au->run, &e) != 0)
			return cli_error_err("audit", &e);
	}
	if (audit_plot(csv, au->a.plot) != EXIT_OK)
		return EXIT_ERROR;
	cli_note("audit", "pictures in %s", au->a.plot);
	return EXIT_OK;
}

/* The text table and every report asked for; EXIT_ERROR if one could not
 * be written (the others still are). */
static int audit_print(const struct audit *au)
{
	const struct audit_args *a = &au->a;
	struct err e;
	int status = EXIT_OK;

	/* A report sent to stdout ("-") keeps stdout to itself: the table goes
	 * to stderr then. */
	FILE *text = audit_is_stdout(a->csv) || audit_is_stdout(a->junit) || audit_is_stdout(a->prom) ||
		     audit_is_stdout(a->json) ? stderr : stdout;
	struct report_run run = au->run;

	/* the table fits the terminal it goes to (80 columns off a terminal) */
	run.width = textwrap_width(fileno(text));
	if (report_text_write(text, &run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a->csv && report_csv_write(a->csv, &au->run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a->junit && report_junit_write(a->junit, &au->run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a->prom && report_prom_write(a->prom, &au->run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a->json && report_json_write(a->json, &au->run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a->plot && status == EXIT_OK)
		status = audit_print_plots(au);
	return status;
}

/* 1 if the audit fails the gate: a source fails (or warns under --strict),
 * or a required source did not pass or, when the audit covers the
 * machine's sources, was not audited at all. */
static int audit_failed(const struct audit *au)
{
	const struct policy *pol = &au->pol;
	int failed = 0;

	for (size_t i = 0; i < au->run.n; i++) {
		const struct report_source *s = &au->out[i];
		int req = policy_is_required(pol, s->available ? s->info.name : s->requested);
		if (s->available && !audit_gates(pol, s->info.name))
			continue;
		if (s->verdict.status == VERDICT_FAIL || (au->a.strict && s->verdict.status == VERDICT_WARN))
			failed = 1;
		if (req && s->verdict.status != VERDICT_PASS && s->verdict.status != VERDICT_WARN)
			failed = 1;
	}
	for (size_t r = 0; !au->listed && r < pol->nrequired; r++) {
		int found = 0;
		for (size_t i = 0; i < au->run.n; i++)
			if (au->out[i].available && strcmp(au->out[i].info.name, pol->required[r]) == 0)
				found = 1;
		if (!found) {
			cli_note("audit", "required source '%s' (policy %s) was not audited or not available",
				 pol->required[r], pol->origin);
			failed = 1;
		}
	}
	return failed;
}

static void audit_free(struct audit *au)
{
	for (size_t i = 0; au->out && i < au->run.n; i++)
		noniid_report_free(&au->out[i].est);
	free(au->out);
	quirks_free(&au->qt);
}

/* Exit status (DESIGN.md "Signals and exit codes"): 0 every source passed,
 * 1 the gate failed, 2 errors and interrupted runs. */
int cmd_audit(int argc, char **argv)
{
	static struct audit au;   /* its jobs are large: not on the stack */
	int rc, status, failed;

	memset(&au, 0, sizeof au);
	if ((rc = audit_parse(argc, argv, &au.a)) != 0)
		return rc;
	if ((rc = audit_setup(&au)) != 0) {
		audit_free(&au);
		return rc;
	}
	audit_run(&au);
	status = audit_print(&au);
	failed = audit_failed(&au);
	audit_free(&au);
	if (au.usage || status != EXIT_OK)
		return EXIT_ERROR;
	if (au.run.partial) {
		fprintf(stderr, "rngaudit audit: interrupted: reports are marked partial\n");
		return EXIT_ERROR;
	}
	return failed ? EXIT_FAILED : EXIT_OK;
}
