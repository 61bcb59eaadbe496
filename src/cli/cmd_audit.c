/* cmd_audit.c - `rngaudit audit`: every source collected, health-tested
 * while it streams (90B 4.4), assessed (90B 6.3 non-IID track), matched
 * against the quirk table, judged by the policy, and reported as text on
 * stdout plus CSV, JUnit XML and a Prometheus textfile on request.
 *
 * One thread per source (the sources are independent); results keep the
 * order the sources were named in.  SIGINT/SIGTERM stop the collection:
 * what was collected is judged without the estimators and every report is
 * still written whole, marked partial.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
#include "engine/samples.h"
#include "engine/translate.h"
#include "engine/widein.h"
#include "sources/source.h"
#include "audit/sysinfo.h"
#include "audit/verdict.h"


#define AUDIT_MAX_SOURCES 16
/* A file of unknown size (a pipe) read whole: the health tests' alpha is
 * made to cover 10^9 samples, more than a pipe is read in an audit. */
#define AUDIT_FILE_SAMPLES_UNKNOWN HEALTH_RUN_SAMPLES_UNKNOWN

/* RDRAND and RDSEED draw on the same on-chip DRNG (Intel DRNG Software
 * Implementation Guide): collected at once they compete for it and each
 * one's CF=0 rate would depend on the other, so they take turns; every
 * other pair of sources runs concurrently. */
static pthread_mutex_t audit_cpu_rng_lock = PTHREAD_MUTEX_INITIALIZER;

static int audit_uses_cpu_rng(const struct source_info *info)
{
	return strcmp(info->name, "rdrand") == 0 || strcmp(info->name, "rdseed") == 0;
}

struct audit_args {
	const char *sources;          /* --source LIST (NULL: every real source) */
	uint64_t samples;             /* -n; 0 = per-source default */
	unsigned bits;
	const char *csv, *junit, *prom, *policy, *plot, *quirks;
	const char *sysroot;          /* --sysroot / RNGAUDIT_SYSROOT: the kernel and CPU from a bundle */
	int strict;
};

/* One source's work, filled by its thread. */
struct audit_job {
	char spec[256];
	uint64_t samples;             /* asked for */
	const char *samples_why;
	unsigned bits;
	const struct policy *policy;
	const struct quirk_table *quirks;
	const struct quirk_cpu *cpu;
	int probe_unavailable;        /* a real source found absent by source_probe */
	int named;                    /* named with --source: failing to open it is an error */
	int usage_error;              /* a named source could not be opened: exit 2 */
	char source_error[ERR_MSG_MAX];
	char est_skipped[160];
	char translation[256];        /* wide samples: what the 90B 6.4 reduction did */
	struct report_source *out;
	/* progress (under audit_progress.lock) */
	enum { AUDIT_QUEUED, AUDIT_WAITING, AUDIT_COLLECTING, AUDIT_ASSESSING, AUDIT_DONE } state;
	uint64_t done, bytes;
	double started;
	struct audit_progress *progress;
};

/* Progress on a terminal, at most four lines a second: which source is on
 * what (waiting for the shared CPU RNG, collecting at its rate, assessing).
 * The sources run in threads; the line is drawn under a lock by whichever
 * reports. */
struct audit_progress {
	pthread_mutex_t lock;
	struct cli_progress p;
	struct audit_job *jobs;
	size_t n;
};

static void audit_progress_draw(struct audit_progress *ap)
{
	char line[512], rate[32];
	size_t len = 0;
	double now = cli_now();

	if (!cli_progress_due(&ap->p))
		return;
	for (size_t i = 0; i < ap->n && len < sizeof line - 80; i++) {
		const struct audit_job *j = &ap->jobs[i];
		const char *sep = len ? ", " : "";
		switch (j->state) {
		case AUDIT_WAITING:
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s waiting", sep, j->spec);
			break;
		case AUDIT_COLLECTING:
			if (j->bytes)
				cli_format_rate((double)j->bytes / (now - j->started + 1e-9), rate,
						sizeof rate);
			else
				snprintf(rate, sizeof rate, "starting");
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %llu/%llu (%s)", sep,
						j->spec, (unsigned long long)j->done,
						(unsigned long long)j->samples, rate);
			break;
		case AUDIT_ASSESSING:
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s assessing", sep, j->spec);
			break;
		default:
			break;
		}
	}
	if (len)
		fprintf(stderr, "\r\033[Kaudit: %s", line);
	fflush(stderr);
}

static void audit_progress_set(struct audit_job *j, int state)
{
	struct audit_progress *ap = j->progress;
	if (!ap)
		return;
	pthread_mutex_lock(&ap->lock);
	j->state = state;
	if (state == AUDIT_COLLECTING)
		j->started = cli_now();
	ap->p.last = 0;               /* a change of state shows at once */
	audit_progress_draw(ap);
	pthread_mutex_unlock(&ap->lock);
}

/* The engine's progress callback (ctx = the job). */
static void audit_progress_update(void *ctx, uint64_t done, uint64_t bytes)
{
	struct audit_job *j = ctx;
	pthread_mutex_lock(&j->progress->lock);
	j->done = done;
	j->bytes = bytes;
	audit_progress_draw(j->progress);
	pthread_mutex_unlock(&j->progress->lock);
}

/* Samples per source when -n is not given: enough for the 90B estimators
 * (3.1.1 asks for 10^6) where the source is fast, and what fits a couple of
 * seconds where it is not (virtio /dev/hwrng: ~10 KB/s, CRIB 4). */
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

static int audit_parse(int argc, char **argv, struct audit_args *a)
{
	static const struct option longopts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "samples", required_argument, NULL, 'n' },
		{ "bits", required_argument, NULL, 'b' },
		{ "csv", required_argument, NULL, 'C' },
		{ "junit", required_argument, NULL, 'J' },
		{ "prom", required_argument, NULL, 'P' },
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
		case 'P': a->prom = optarg; break;
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
	return 0;
}

/* Splits LIST at commas into specs.  A piece like "p=0.5" (a key=value with
 * no ':' before its '=') continues the previous spec, so
 * "sim:biased,p=0.5,rdrand" is two sources. */
static int audit_split_sources(const char *list, char specs[][256], size_t *n)
{
	char buf[4096];
	char *save = NULL, *tok;

	*n = 0;
	if (strlen(list) >= sizeof buf)
		return cli_error("audit", "--source: list too long");
	snprintf(buf, sizeof buf, "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *colon = strchr(tok, ':');
		if (!*tok)
			continue;
		if (eq && (!colon || colon > eq) && *n > 0) {
			size_t len = strlen(specs[*n - 1]);
			if (len + 1 + strlen(tok) >= 256)
				return cli_error("audit", "--source: spec too long near '%s'", tok);
			snprintf(specs[*n - 1] + len, 256 - len, ",%s", tok);
			continue;
		}
		if (*n == AUDIT_MAX_SOURCES)
			return cli_error("audit", "--source: more than %d sources", AUDIT_MAX_SOURCES);
		if (strlen(tok) >= 256)
			return cli_error("audit", "--source: spec too long: '%.40s...'", tok);
		snprintf(specs[(*n)++], 256, "%s", tok);
	}
	if (*n == 0)
		return cli_error("audit", "--source: empty list");
	return 0;
}

/* A file source read whole: its samples (K-bit samples from its bytes). */
static uint64_t audit_file_samples(const struct source_info *info, unsigned bits)
{
	struct stat st;
	if (info->device[0] && stat(info->device, &st) == 0 && st.st_size > 0)
		return (uint64_t)st.st_size * 8 / bits + 1;
	return AUDIT_FILE_SAMPLES_UNKNOWN;
}

/* The health tests for samples of `bits` bits over a run of run_samples. */
static int audit_health_new(struct audit_job *j, unsigned bits, unsigned word_bits,
			    uint64_t run_samples, struct health_monitor **hm, struct err *e)
{
	struct health_monitor_config hc = { 0 };

	hc.bits = bits;
	/* one rule with collect and health (health_monitor_default_entropy):
	 * a claim the policy names for this source wins; otherwise DRBG and
	 * conditioned output are full entropy and raw or unknown sources get
	 * the policy's claim (per bit) */
	datapath_apply_claim(j->policy, j->out->info.name, bits, &hc);
	hc.alpha = j->policy->alpha;
	hc.run_samples = run_samples;   /* alpha covers the run */
	hc.word_bits = word_bits;
	hc.kind = j->out->info.kind;
	if (health_monitor_new(hm, &hc, e) == 0)
		return 0;
	snprintf(j->source_error, sizeof j->source_error, "health tests: %.480s", e->msg);
	return -1;
}

/* A byte stream: the engine slices it into K-bit samples and streams them
 * through the health tests into memory.  -1: nothing was collected. */
static int audit_collect_bytes(struct audit_job *j, struct source *src, struct health_monitor **hm,
			       struct membuf *buf, struct err *e)
{
	struct report_source *rs = j->out;
	struct engine_opts opts = { 0 };
	struct sink *sinks[2];
	int rc;

	/* alpha covers the run: -n (or the default), or a file's samples */
	if (audit_health_new(j, j->bits, rs->info.word_bits,
			     j->samples ? j->samples : audit_file_samples(&rs->info, j->bits), hm, e) != 0)
		return -1;
	sinks[0] = health_monitor_sink(*hm);
	sinks[1] = &buf->sink;
	opts.max_samples = j->samples;
	opts.bits = j->bits;
	opts.stop = &cli_stop;
	if (j->progress) {
		opts.progress = audit_progress_update;
		opts.progress_ctx = j;
		opts.progress_every = CLI_PROGRESS_EVERY_BLOCK;
	}
	if (audit_uses_cpu_rng(&rs->info)) {
		audit_progress_set(j, AUDIT_WAITING);
		pthread_mutex_lock(&audit_cpu_rng_lock);
	}
	audit_progress_set(j, AUDIT_COLLECTING);
	rc = engine_run(src, &opts, sinks, 2, &rs->stats, e);
	if (audit_uses_cpu_rng(&rs->info))
		pthread_mutex_unlock(&audit_cpu_rng_lock);
	rs->samples = rs->stats.samples;
	if (rc != 0)
		snprintf(j->source_error, sizeof j->source_error, "%s", e->msg);
	return 0;
}

/* Wide raw samples (jitter, file:PATH,format=F): read whole, reduced by the
 * default 90B 6.4 translation, and the symbols sent through the health tests
 * (no word checks: the symbols are not the source's words) into memory. */
static int audit_collect_wide(struct audit_job *j, struct source *src, struct health_monitor **hm,
			      struct membuf *buf, struct err *e)
{
	struct report_source *rs = j->out;
	struct translate_method m;
	struct translate_map map;
	struct sink *sinks[2];
	uint64_t *x = NULL;
	size_t n = 0;
	int rc;

	audit_progress_set(j, AUDIT_COLLECTING);
	rc = widein_read(src, j->samples, &cli_stop, &x, &n, &rs->stats, e);
	if (rc == 0 && n > 0 && (rc = translate_parse(TRANSLATE_DEFAULT, &m, e)) == 0)
		rc = translate_plan(&m, x, n, rs->info.sample_bits, &map, e);
	if (rc != 0 || n == 0) {
		if (rc)
			snprintf(j->source_error, sizeof j->source_error, "%s", e->msg);
		free(x);
		return -1;
	}
	translate_describe(&map, j->translation, sizeof j->translation);
	j->bits = rs->bits = map.bits;
	if (audit_health_new(j, map.bits, 8, n, hm, e) != 0) {
		free(x);
		return -1;
	}
	sinks[0] = health_monitor_sink(*hm);
	sinks[1] = &buf->sink;
	rc = widein_push(&map, x, n, sinks, 2, rs->stats.interrupted, e);
	free(x);
	rs->samples = n;
	if (rc != 0)
		snprintf(j->source_error, sizeof j->source_error, "%s", e->msg);
	return 0;
}

/* Appends an INFO reason after verdict_decide() (room permitting). */
static void audit_add_info(struct verdict *v, const char *code, const char *text)
{
	struct verdict_reason *r;

	if (v->nreasons == VERDICT_REASONS_MAX)
		return;
	r = &v->reasons[v->nreasons++];
	r->level = VERDICT_INFO;
	snprintf(r->code, sizeof r->code, "%s", code);
	snprintf(r->text, sizeof r->text, "%s", text);
}

/* jitter is measured for information: its verdict sets the exit status
 * only when the policy names it (a claim.jitter-style key or `required`). */
static int audit_gates(const struct policy *p, const char *name)
{
	if (strcmp(name, "jitter") != 0)
		return 1;
	if (policy_is_required(p, name))
		return 1;
	for (size_t i = 0; i < p->nentries; i++)   /* a key the policy file set, not a built-in */
		if (strcmp(p->entries[i].name, name) == 0 && p->entries[i].set)
			return 1;
	return 0;
}

static void *audit_source_run(void *arg)
{
	struct audit_job *j = arg;
	struct report_source *rs = j->out;
	struct source *src = NULL;
	struct health_monitor *hm = NULL;
	struct membuf buf;
	struct policy_source pol;
	struct quirk_match qm[QUIRK_MATCH_MAX];
	size_t nq = 0;
	struct verdict_input vin = { 0 };
	struct err e;
	int rc;

	err_clear(&e);
	membuf_init(&buf, 0);
	snprintf(rs->requested, sizeof rs->requested, "%s", j->spec);
	rs->bits = j->bits;
	if (j->probe_unavailable)
		goto decide;
	if (source_open(&src, j->spec, &e) != 0) {
		snprintf(rs->why, sizeof rs->why, "%.250s", e.msg);
		j->usage_error = j->named || e.code == ERR_USAGE;
		goto decide;
	}
	rs->available = 1;
	rs->info = *source_get_info(src);
	policy_for(j->policy, rs->info.name, &pol);
	rs->required = policy_is_required(j->policy, rs->info.name);

	rc = rs->info.sample_bits ? audit_collect_wide(j, src, &hm, &buf, &e)
				  : audit_collect_bytes(j, src, &hm, &buf, &e);
	source_get_counters(src, &rs->counters);
	if (rc != 0)
		goto decide;
	health_monitor_results(hm, &rs->health);
	rs->health_ran = 1;

	if (rs->stats.interrupted) {
		snprintf(j->est_skipped, sizeof j->est_skipped, "interrupted before the estimators ran");
	} else if (buf.n == 0) {
		snprintf(j->est_skipped, sizeof j->est_skipped, "no samples");
	} else {
		struct noniid_opts no;
		double t0 = cli_now();
		audit_progress_set(j, AUDIT_ASSESSING);
		noniid_opts_init(&no);
		no.bits = j->bits;
		no.threads = 1;       /* one thread per source already */
		if (noniid_assess(buf.data, buf.n, &no, &rs->est, &e) == 0)
			rs->est_ran = 1;
		else
			snprintf(j->est_skipped, sizeof j->est_skipped, "%.150s", e.msg);
		rs->est_seconds = cli_now() - t0;
	}

decide:
	audit_progress_set(j, AUDIT_DONE);
	if (rs->available)
		nq = quirks_match(j->quirks, j->cpu, rs->info.name, rs->info.word_bits, qm, QUIRK_MATCH_MAX);
	vin.info = rs->available ? &rs->info : NULL;
	vin.counters = rs->available ? &rs->counters : NULL;
	vin.health = rs->health_ran ? &rs->health : NULL;
	vin.est = rs->est_ran ? &rs->est : NULL;
	vin.est_skipped = j->est_skipped;
	vin.policy = j->policy;
	vin.pol = &pol;
	if (!rs->available)
		policy_for(j->policy, "default", &pol);
	vin.quirks = qm;
	vin.nquirks = nq;
	vin.samples = rs->samples;
	vin.bits = j->bits;
	vin.unavailable = !rs->available;
	vin.unavailable_why = rs->why;
	vin.source_error = j->source_error[0] ? j->source_error : NULL;
	vin.partial = rs->stats.interrupted;
	verdict_decide(&vin, &rs->verdict);
	if (j->translation[0]) {
		char text[VERDICT_TEXT_MAX];
		snprintf(text, sizeof text, "Wide raw samples reduced by %.300s; the figure is for the "
			 "reduced symbols, a lower bound for the raw samples (SP 800-90B 6.4).",
			 j->translation);
		audit_add_info(&rs->verdict, "TRANSLATED", text);
	}
	if (rs->available && !audit_gates(j->policy, rs->info.name))
		audit_add_info(&rs->verdict, "INFORMATION_ONLY", "Measured for information: this "
			       "verdict sets the exit status only if the policy names the source "
			       "(e.g. claim.jitter, or required).");
	/* quirk matches point into the table, which outlives the report */
	if (hm)
		health_monitor_free(hm);
	membuf_free(&buf);
	if (src)
		source_close(src);
	return NULL;
}

static const char *audit_script_path(char *buf, size_t len)
{
	const char *env = getenv("RNGAUDIT_PLOT_SCRIPT");
	if (env && *env)
		return env;
	return datapath_script("rngaudit-plot.sh", buf, len);
}

/* Runs the gnuplot wrapper: sh SCRIPT CSV DIR.  Returns its exit status or -1. */
static int audit_plot(const char *csv, const char *dir)
{
	char pbuf[1024];
	const char *script = audit_script_path(pbuf, sizeof pbuf);
	pid_t pid;
	int status;

	if (access(script, R_OK) != 0) {
		cli_error("audit", "--plot: cannot read the plot script %s: %s", script, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cli_error("audit", "--plot: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execl("/bin/sh", "sh", script, csv, dir, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

int cmd_audit(int argc, char **argv)
{
	struct audit_args a = { 0 };
	static char specs[AUDIT_MAX_SOURCES][256];
	struct audit_job jobs[AUDIT_MAX_SOURCES];
	pthread_t tid[AUDIT_MAX_SOURCES];
	int started[AUDIT_MAX_SOURCES] = { 0 };
	struct report_source *out;
	struct report_run run;
	struct audit_progress progress;
	struct policy pol;
	struct quirk_table qt = { 0 };
	struct quirk_cpu cpu;
	size_t n = 0;
	struct err e;
	int rc, status = EXIT_OK, any_fail = 0, usage = 0;
	double t0;
	char plot_csv[1100];

	rc = audit_parse(argc, argv, &a);
	if (rc)
		return rc;
	if (datapath_load_policy(&pol, a.policy, &e) != 0)
		return cli_error_err("audit", &e);
	if ((rc = audit_load_quirks(&a, &qt)) != 0)
		return rc;
	if (a.plot && mkdir(a.plot, 0777) != 0 && errno != EEXIST) {
		quirks_free(&qt);
		return cli_error("audit", "--plot %s: %s", a.plot, strerror(errno));
	}

	memset(&run, 0, sizeof run);
	if ((a.sysroot ? sysinfo_read_sysroot(&run.sys, a.sysroot, &e) : sysinfo_read(&run.sys, &e)) != 0) {
		quirks_free(&qt);
		return cli_error_err("audit", &e);
	}
	cpu.vendor = run.sys.cpu_vendor;
	cpu.family = run.sys.cpu_family;
	cpu.model = run.sys.cpu_model;
	cpu.stepping = run.sys.cpu_stepping;
	cpu.microcode = run.sys.microcode;
	cpu.microcode_known = run.sys.microcode_known;
	if (audit_kernel(&a, &qt, &cpu, &run.kernel) != 0) {
		quirks_free(&qt);
		return EXIT_ERROR;
	}
	if (cpu.microcode_known && (a.sysroot ? run.kernel.virtualized == KERNEL_ON : audit_under_hypervisor())) {
		cpu.microcode_known = 0;
		fprintf(stderr, "rngaudit audit: running under a hypervisor: microcode 0x%lx is the "
			"hypervisor's report, not used to match the quirk table\n", run.sys.microcode);
	}

	if (!a.sources || strcmp(a.sources, "all") == 0) {
		for (n = 0; source_real_names[n]; n++)
			snprintf(specs[n], sizeof specs[n], "%s", source_real_names[n]);
	} else if ((rc = audit_split_sources(a.sources, specs, &n)) != 0) {
		quirks_free(&qt);
		return rc;
	}
	out = calloc(n, sizeof *out);
	if (!out) {
		quirks_free(&qt);
		return cli_error("audit", "out of memory");
	}

	cli_install_stop_handlers();
	t0 = cli_now();
	pthread_mutex_init(&progress.lock, NULL);
	cli_progress_init(&progress.p, "audit", 0);
	progress.jobs = jobs;
	progress.n = n;
	/* all jobs cleared (AUDIT_QUEUED) before any thread draws the line */
	memset(jobs, 0, n * sizeof jobs[0]);
	for (size_t i = 0; i < n; i++) {
		struct audit_job *j = &jobs[i];
		j->progress = progress.p.enabled ? &progress : NULL;
		snprintf(j->spec, sizeof j->spec, "%.255s", specs[i]);
		j->bits = a.bits;
		j->policy = &pol;
		j->quirks = &qt;
		j->cpu = &cpu;
		j->out = &out[i];
		j->named = a.sources && strcmp(a.sources, "all") != 0;
		if (a.samples) {
			j->samples = a.samples;
			j->samples_why = "-n";
		} else {
			j->samples = audit_default_samples(specs[i], &j->samples_why);
		}
		/* Real sources the default list names but this machine lacks are
		 * reported unavailable, not an error. */
		if (!a.sources || strcmp(a.sources, "all") == 0) {
			struct source_probe p;
			if (source_probe(specs[i], &p) != 0 || !p.available) {
				j->probe_unavailable = 1;
				snprintf(out[i].why, sizeof out[i].why, "%s", p.why[0] ? p.why : "not available");
			}
		}
		if (!j->probe_unavailable) {
			if (j->samples)
				cli_note("audit", "%s: %llu samples of %u bit%s (%s)", j->spec,
					(unsigned long long)j->samples, a.bits, a.bits == 1 ? "" : "s", j->samples_why);
			else
				cli_note("audit", "%s: %s, %u bit%s per sample", j->spec,
					j->samples_why, a.bits, a.bits == 1 ? "" : "s");
		}
	}
	/* the notes above first, then the threads and their progress line */
	for (size_t i = 0; i < n; i++) {
		if (pthread_create(&tid[i], NULL, audit_source_run, &jobs[i]) != 0)
			audit_source_run(&jobs[i]);   /* no thread: run it here, same result */
		else
			started[i] = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (started[i])
			cli_join_stoppable(tid[i]);
	if (progress.p.enabled && progress.p.last > 0) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	pthread_mutex_destroy(&progress.lock);

	run.finished = time(NULL);
	run.seconds = cli_now() - t0;
	run.tool_version = PACKAGE_VERSION;
	run.policy = &pol;
	run.strict = a.strict;
	run.n = n;
	run.src = out;
	for (size_t i = 0; i < n; i++) {
		struct trust_input ti = { 0 };
		ti.info = out[i].available ? &out[i].info : NULL;
		ti.requested = out[i].requested;
		ti.verdict = &out[i].verdict;
		ti.h_per_bit = out[i].est_ran && out[i].bits ? out[i].est.h_assessed / out[i].bits : -1;
		ti.kernel = &run.kernel;
		ti.policy = &pol;
		trust_decide(&ti, &out[i].trust);
		if (out[i].stats.interrupted)
			run.partial = 1;
		if (jobs[i].usage_error) {
			cli_error("audit", "%s", out[i].why);
			usage = 1;
		}
	}
	/* A signal that came after every collection had finished (during the
	 * estimators) left the results whole: not partial. */

	/* A report sent to stdout ("-") keeps stdout to itself: the table goes
	 * to stderr then. */
	if (report_text_write(audit_is_stdout(a.csv) || audit_is_stdout(a.junit) || audit_is_stdout(a.prom) ?
			      stderr : stdout, &run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a.csv && report_csv_write(a.csv, &run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a.junit && report_junit_write(a.junit, &run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a.prom && report_prom_write(a.prom, &run, &e) != 0)
		status = cli_error_err("audit", &e);
	if (a.plot) {
		const char *csv = a.csv;
		if (!csv || strcmp(csv, "-") == 0) {
			snprintf(plot_csv, sizeof plot_csv, "%s/audit.csv", a.plot);
			csv = plot_csv;
			if (report_csv_write(csv, &run, &e) != 0)
				status = cli_error_err("audit", &e);
		}
		if (status == EXIT_OK) {
			int prc = audit_plot(csv, a.plot);
			if (prc != 0) {
				if (prc > 0)
					cli_error("audit", "--plot: the plot script exited with status %d", prc);
				status = EXIT_ERROR;
			} else {
				cli_note("audit", "pictures in %s", a.plot);
			}
		}
	}

	/* Exit status: 1 if any source fails (or warns under --strict), or a
	 * required source did not pass; 2 for errors and interrupted runs. */
	for (size_t i = 0; i < n; i++) {
		const struct report_source *s = &out[i];
		int req = policy_is_required(&pol, s->available ? s->info.name : s->requested);
		if (s->available && !audit_gates(&pol, s->info.name))
			continue;
		if (s->verdict.status == VERDICT_FAIL || (a.strict && s->verdict.status == VERDICT_WARN))
			any_fail = 1;
		if (req && s->verdict.status != VERDICT_PASS && s->verdict.status != VERDICT_WARN)
			any_fail = 1;
	}
	/* A required source that was not audited at all cannot pass (when the
	 * audit covers the machine's sources, not a list named by --source). */
	for (size_t r = 0; (!a.sources || strcmp(a.sources, "all") == 0) && r < pol.nrequired; r++) {
		int found = 0;
		for (size_t i = 0; i < n; i++)
			if (out[i].available && strcmp(out[i].info.name, pol.required[r]) == 0)
				found = 1;
		if (!found) {
			cli_note("audit", "required source '%s' (policy %s) was not audited or not available",
				 pol.required[r], pol.origin);
			any_fail = 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		noniid_report_free(&out[i].est);
	free(out);
	quirks_free(&qt);
	if (usage || status != EXIT_OK)
		return EXIT_ERROR;
	if (run.partial) {
		fprintf(stderr, "rngaudit audit: interrupted: reports are marked partial\n");
		return EXIT_ERROR;
	}
	return any_fail ? EXIT_FAILED : EXIT_OK;
}
