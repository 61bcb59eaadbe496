/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_health.c - `rngaudit health`: the SP 800-90B 4.4 health tests (RCT,
 * APT, start-up) and the native-word checks on a source or a NIST-format
 * file, once or (--follow) until stopped, for monitoring a machine. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "parse.h"
#include "cli/commands.h"
#include "report/termtext.h"
#include "cli/datapath.h"
#include "cli/health_follow.h"
#include "cli/health_print.h"
#include "engine/asyncsink.h"
#include "engine/engine.h"
#include "health/health_monitor.h"
#include "engine/samples.h"
#include "sources/source.h"

/* the read size when a file is tested on a second thread */
#define HEALTH_ASYNC_BLOCK ((size_t)128 << 10)
#define HEALTH_DEFAULT_SAMPLES 1000000ULL   /* a source without -n or --follow */
#define HEALTH_DEFAULT_INTERVAL 10.0        /* --follow status line, seconds */
/* --follow's default --rate: 1 MB/s.  getrandom and RDRAND give hundreds of
 * MB/s flat out, which is most of a core; at 1 MB/s reading and testing cost
 * well under 5% of one (scripts/bench-follow.sh measures it), and a year at
 * that rate, the default horizon, is 3.2e13 samples.  Slower sources are
 * read as they come. */
#define HEALTH_FOLLOW_RATE_DEFAULT 1e6
/* --rate's range (0 aside): a byte a second up to 10^12, beyond any source. */
#define HEALTH_RATE_MIN 1.0
#define HEALTH_RATE_MAX 1e12
/* --horizon at most 1000 years: its samples at the fastest rate stay
 * within 2^63 (health_budget_horizon). */
#define HEALTH_HORIZON_MAX (1000 * 365.25 * 86400.0)

enum { OPT_PER_WINDOW = 256, OPT_HORIZON, OPT_RATE, OPT_PROM, OPT_LOG };

struct health_args {
	const char *spec;
	const char *file;
	uint64_t samples;         /* 0: no limit */
	int have_samples;
	unsigned bits;
	double entropy;           /* 0: default */
	const char *entropy_text; /* --entropy as given, for messages */
	double alpha;
	int follow;
	double interval;
	enum health_scope scope;
	double horizon;           /* --follow: seconds the alpha covers */
	double rate;              /* --follow: bytes per second at most */
	const char *prom;         /* --follow: node_exporter textfile */
	const char *log;          /* --follow: append lines here, not stdout */
};

static int health_parse(int argc, char **argv, struct health_args *a)
{
	static const struct option longopts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "samples", required_argument, NULL, 'n' },
		{ "bits", required_argument, NULL, 'b' },
		{ "entropy", required_argument, NULL, 'H' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "follow", no_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ "per-window", no_argument, NULL, OPT_PER_WINDOW },
		{ "horizon", required_argument, NULL, OPT_HORIZON },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "prom", required_argument, NULL, OPT_PROM },
		{ "log", required_argument, NULL, OPT_LOG },
		{ NULL, 0, NULL, 0 },
	};
	struct err e;
	int c;

	a->bits = 8;
	a->interval = HEALTH_DEFAULT_INTERVAL;
	a->horizon = HEALTH_HORIZON_SECONDS;
	a->rate = HEALTH_FOLLOW_RATE_DEFAULT;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:n:b:H:a:fi:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': a->spec = optarg; break;
		case 'f': a->follow = 1; break;
		case 'n':
			if (cli_parse_samples("health", optarg, &a->samples) != 0)
				return EXIT_ERROR;
			a->have_samples = 1;
			break;
		case 'b':
			if (samples_parse_bits(optarg, &a->bits, &e) != 0)
				return cli_error_err("health", &e);
			break;
		case 'H':
			a->entropy_text = optarg;
			if (parse_double(optarg, &a->entropy) != 0 || !(a->entropy > 0))
				return cli_error("health", "--entropy %s: the claimed min-entropy must be a "
						 "number above 0 (and at most the bits per sample)", optarg);
			break;
		case 'a':
			if (parse_alpha(optarg, &a->alpha) != 0)
				return cli_error("health", "--alpha %s: must be in " PARSE_ALPHA_RANGE ", e.g. 2^-20 or 1e-6",
						 optarg);
			break;
		case 'i':
			if (parse_double(optarg, &a->interval) != 0 || !(a->interval > 0))
				return cli_error("health", "--interval %s: must be a number of seconds above 0",
						 optarg);
			break;
		case OPT_PER_WINDOW: a->scope = HEALTH_SCOPE_WINDOW; break;
		case OPT_PROM: a->prom = optarg; cli_check_prom_name("health", optarg); break;
		case OPT_LOG: a->log = optarg; break;
		case OPT_HORIZON:
			/* at least a second: alpha over a horizon of no samples
			 * would make every alarm a failure */
			if (cli_parse_duration(optarg, &a->horizon) != 0 || !(a->horizon >= 1) ||
			    !(a->horizon <= HEALTH_HORIZON_MAX))
				return cli_error("health", "--horizon %s: must be a duration from 1 s to 1000y, "
						 "e.g. 30d or 1y", optarg);
			break;
		case OPT_RATE:
			/* A rate below a byte a second made the sleep to hold it
			 * (seconds to a time_t) overflow, undefined behaviour, and
			 * the horizon's samples (rate x horizon) fall to one, so a
			 * healthy source raised alarms. */
			if (parse_double(optarg, &a->rate) != 0 ||
			    !(a->rate == 0 || (a->rate >= HEALTH_RATE_MIN && a->rate <= HEALTH_RATE_MAX)))
				return cli_error("health", "--rate %s: must be 0 (flat out) or bytes per second "
						 "from 1 to 1e12", optarg);
			break;
		case ':':
			return cli_error("health", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("health", "unknown option '%s' (see rngaudit health --help)",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc)
		return cli_error("health", "unexpected argument '%s'", argv[optind]);
	if (!a->spec == !a->file)
		return cli_error("health", "give either --source SPEC or a NIST-format FILE");
	if (a->entropy > a->bits)
		return cli_error("health", "--entropy %s: above %u, the bits per sample", a->entropy_text,
				 a->bits);   /* the text given: "%g" showed 8.0000001 as 8 */
	if ((a->prom || a->log) && !a->follow)
		return cli_error("health", "--prom and --log go with --follow");
	return 0;
}

/* The run the alpha covers (budget.h): -n, else a file's samples (one per
 * byte), else --follow's horizon at its rate, else the default -n. */
static uint64_t health_run_samples(const struct health_args *a, const char *file,
				   const struct source_info *info)
{
	struct stat st;
	(void)info;
	if (file && stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (!a->have_samples || (uint64_t)st.st_size < a->samples))
		return (uint64_t)st.st_size;
	if (a->have_samples)
		return a->samples;
	if (a->follow)        /* K-bit samples from rate bytes a second: 8 / K per byte */
		return health_budget_horizon(a->rate > 0 ? a->rate * 8.0 / a->bits
							 : HEALTH_FOLLOW_RATE_DEFAULT * 8.0 / a->bits,
					     a->horizon);
	return file ? 1 : HEALTH_DEFAULT_SAMPLES;
}

/* One error line on stderr, with the journal's err priority when stderr
 * is the journal and the run is a service (--follow); returns EXIT_ERROR. */
static int health_error(const struct health_args *a, const char *msg)
{
	if (a->follow && health_follow_is_journal(STDERR_FILENO))
		fputs("<3>", stderr);
	return cli_error("health", "%s", msg);
}

static int failed_output(const struct health_follow *f)
{
	const char *why;
	return health_follow_failed(f, &why);
}

static const char *health_follow_why(const struct health_follow *f)
{
	const char *why;
	health_follow_failed(f, &why);
	return why;
}

/* DESIGN.md: the outputs checked before the run.  The textfile is a
 * regular file (node_exporter's textfile collector reads *.prom files; a
 * FIFO stalled every interval); the log may be a file, FIFO, device or
 * stdout ("-", the default); not the same file. */
static int health_check_outputs(struct health_args *a)
{
	const struct outpath o[] = { { "--prom", a->prom }, { "--log", a->log } };

	if (a->prom && cli_check_outputs("health", o, 1, 0) != 0)
		return EXIT_ERROR;
	if (cli_check_outputs("health", o, 2, OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	if (a->log && outpath_is_stdout(a->log))
		a->log = NULL;
	return 0;
}

/* Whether path names a regular file ("-", stdin, does not). */
static int is_regular(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

int cmd_health(int argc, char **argv)
{
	struct health_args a = { 0 };
	struct health_follow fol;
	struct health_follow_opts fo = { 0 };
	struct health_monitor_config cfg = { 0 };
	struct health_monitor_results res;
	struct health_monitor *mon = NULL;
	struct source *src = NULL;
	const struct source_info *info;
	struct engine_opts opts = { 0 };
	struct engine_stats st = { 0 };
	struct cli_progress prog;
	struct sink *sinks[2];
	struct asyncsink *async = NULL;   /* the tests on a second thread, or NULL */
	FILE *out;
	const char *info_prefix;
	struct policy pol;
	char spec[4096 + 8];
	struct err e;
	int rc = 0;

	if ((rc = health_parse(argc, argv, &a)) || (rc = health_check_outputs(&a)))
		return rc;
	if (a.file) {
		if (strlen(a.file) > 4096)
			return cli_error("health", "file name too long");
		snprintf(spec, sizeof spec, "file:%s", a.file);
	}
	if (source_open(&src, a.file ? spec : a.spec, &e) != 0)
		return cli_error_err("health", &e);
	info = source_get_info(src);
	if (datapath_load_policy(&pol, NULL, &e) != 0) {
		source_close(src);
		return cli_error_err("health", &e);
	}
	fo.on = a.follow;
	fo.interval = a.interval;
	fo.rate = a.rate;
	fo.prom = a.prom;
	fo.log = a.log;
	fo.source = a.file ? a.file : info->spec;
	fo.policy = pol.origin;
	if (health_follow_init(&fol, &fo, &e) != 0) {
		source_close(src);
		return cli_error_err("health", &e);
	}

	cfg.bits = a.bits;
	cfg.entropy = a.entropy;
	cfg.entropy_why = "given with --entropy";
	policy_apply_claim(&pol, a.file ? "file" : info->name, a.bits, &cfg);
	/* no --alpha: the policy's, as collect's and audit's */
	cfg.alpha = a.alpha > 0 ? a.alpha : pol.alpha;
	cfg.scope = a.scope;
	cfg.run_samples = health_run_samples(&a, a.file, info);
	cfg.word_bits = info->word_bits;
	cfg.kind = info->kind;
	cfg.nist_format = a.file != NULL;
	cfg.what = a.file ? a.file : info->spec;
	cfg.on_failure = health_follow_event;
	cfg.cb_ctx = &fol;
	if (health_monitor_new(&mon, &cfg, &e) != 0) {
		health_follow_close(&fol);
		source_close(src);
		return cli_error_err("health", &e);
	}
	health_follow_attach(&fol, mon);
	sinks[0] = health_monitor_sink(mon);
	sinks[1] = health_follow_sink(&fol);
	/* A file is read at memory speed: its next blocks are read while a
	 * second thread tests these, so a run costs the tests' time alone, not
	 * the read's added (scripts/bench-health.sh, 512 MiB of 8-bit samples
	 * cached, on a Zen 5 guest: 0.138 -> 0.108 s, 3.9 -> 5.0 GB/s).  The
	 * blocks are smaller than a file's 1 MiB, so the queue's 17 stay in
	 * the caches (1 MiB blocks gained nothing).  Only a regular file: the
	 * worker waits for a batch of blocks, so the results of a pipe that
	 * pauses would wait for it.  --follow reads at its rate: one thread. */
	if (a.file && !a.follow && is_regular(a.file)) {
		if (asyncsink_new(&async, sinks, 1, &e) != 0) {
			health_monitor_free(mon);
			health_follow_close(&fol);
			source_close(src);
			return cli_error_err("health", &e);
		}
		sinks[0] = asyncsink_sink(async);
		opts.block_bytes = HEALTH_ASYNC_BLOCK;
	}

	cli_install_stop_handlers();
	health_follow_catch_hup(&fol);
	/* NIST format is one sample per byte: the engine reads bytes as 8-bit
	 * samples and the monitor checks each is below 2^K. */
	opts.bits = a.file ? 8 : a.bits;
	opts.max_samples = a.have_samples ? a.samples
			   : (a.file || a.follow) ? 0 : HEALTH_DEFAULT_SAMPLES;
	opts.stop = &cli_stop;
	cli_progress_init(&prog, "health", opts.max_samples);
	if (!a.follow) {
		opts.progress = cli_progress_update;
		opts.progress_ctx = &prog;
		opts.progress_every = CLI_PROGRESS_EVERY_BLOCK;
	}
	out = health_follow_out(&fol);
	info_prefix = health_follow_prefix(&fol, 6);
	if (a.follow) {
		fprintf(out, "%sfollowing %s: %u-bit samples, status every %g s, at most %g bytes/s\n",
			info_prefix, termtext(info->spec), a.bits, a.interval, a.rate);
	}
	if (a.follow && health_follow_check(&fol))   /* the first line could not be written */
		rc = ERR_IO;
	rc = rc ? rc : engine_run(src, &opts, sinks, a.follow ? 2 : 1, &st, &e);
	asyncsink_free(async);   /* engine_run's finish() joined the worker */
	if (!a.follow)
		cli_progress_done(&prog);
	if (rc != 0 && !failed_output(&fol) && (rc == ERR_DATA || st.samples == 0)) {
		health_monitor_free(mon);
		health_follow_close(&fol);
		source_close(src);
		return health_error(&a, e.msg);
	}
	if (rc != 0)            /* the source or an output failed mid-run: say so once */
		health_error(&a, failed_output(&fol) ? health_follow_why(&fol) : e.msg);
	if (st.samples == 0 && !failed_output(&fol)) {
		/* info belongs to src: name the input before closing it */
		char msg[ERR_MSG_MAX];
		snprintf(msg, sizeof msg, "%.400s: no samples (empty input)", a.file ? a.file : info->spec);
		health_monitor_free(mon);
		health_follow_close(&fol);
		source_close(src);
		return health_error(&a, msg);
	}
	/* DESIGN.md: a followed source that ends or shrinks (a file read to
	 * its end, a device gone) is an operational error, so that a service
	 * does not stop watching with "pass"; -n reached is a normal end */
	if (a.follow && rc == 0 && st.eof && !st.interrupted && !(a.have_samples && st.samples >= a.samples)) {
		char msg[ERR_MSG_MAX];
		snprintf(msg, sizeof msg, "%.400s: the followed source ended after %llu samples",
			 a.file ? a.file : info->spec, (unsigned long long)st.samples);
		health_error(&a, msg);
		rc = ERR_SOURCE;
	}
	health_monitor_results(mon, &res);
	health_follow_finish(&fol);
	/* SIGHUP may have reopened the log; a dead output leaves the summary
	 * to stderr, where it can be seen */
	out = failed_output(&fol) ? stderr : health_follow_out(&fol);
	fprintf(out, "%ssource: %s (%s)%s\n", info_prefix, termtext(a.file ? a.file : info->spec),
		a.file ? "NIST-format file" : source_kind_describe(info->kind),
		st.interrupted ? ", stopped by a signal" : "");
	health_print_results(out, info_prefix, &res);
	if (a.follow && !failed_output(&fol) && health_follow_check(&fol)) {
		health_error(&a, health_follow_why(&fol));   /* the summary itself was lost */
		rc = ERR_IO;
	}
	health_follow_close(&fol);
	health_monitor_free(mon);
	source_close(src);
	/* DESIGN "Signals and exit codes": a bounded run cut short by a signal
	 * is incomplete (2); --follow ends on a signal by design. */
	if (rc != 0 || (st.interrupted && !a.follow))
		return EXIT_ERROR;
	return res.failures ? EXIT_FAILED : EXIT_OK;
}
