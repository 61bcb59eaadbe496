/* cmd_collect.c - `rngaudit collect`: samples from a source into a
 * NIST-format file, health-tested while they stream past. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "parse.h"
#include "cli/commands.h"
#include "cli/health_print.h"
#include "engine/asyncsink.h"
#include "engine/engine.h"
#include "health/health_monitor.h"
#include "engine/recorder.h"
#include "engine/samples.h"
#include "sources/source.h"

#define COLLECT_DEFAULT_SAMPLES 1000000ULL

struct collect_args {
	const char *spec;
	const char *output;
	uint64_t samples;
	unsigned bits;
	int health;              /* run the 90B 4.4 health tests online (default) */
	double entropy;          /* claimed H per sample; 0 = the source kind's default */
	double alpha;            /* 0 = 2^-20 */
	int stop_on_failure;
};

enum { OPT_NO_HEALTH = 256, OPT_ENTROPY, OPT_ALPHA, OPT_STOP_ON_FAILURE };

static int collect_parse(int argc, char **argv, struct collect_args *a)
{
	static const struct option longopts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "samples", required_argument, NULL, 'n' },
		{ "bits", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-health", no_argument, NULL, OPT_NO_HEALTH },
		{ "entropy", required_argument, NULL, OPT_ENTROPY },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "stop-on-failure", no_argument, NULL, OPT_STOP_ON_FAILURE },
		{ NULL, 0, NULL, 0 },
	};
	struct err e;
	int c;

	a->samples = COLLECT_DEFAULT_SAMPLES;
	a->bits = 8;
	a->health = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:n:b:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': a->spec = optarg; break;
		case 'o': a->output = optarg; break;
		case 'n':
			if (cli_parse_samples("collect", optarg, &a->samples) != 0)
				return EXIT_ERROR;
			break;
		case 'b':
			if (samples_parse_bits(optarg, &a->bits, &e) != 0)
				return cli_error_err("collect", &e);
			break;
		case OPT_NO_HEALTH: a->health = 0; break;
		case OPT_STOP_ON_FAILURE: a->stop_on_failure = 1; break;
		case OPT_ENTROPY:
			if (parse_double(optarg, &a->entropy) != 0 || !(a->entropy > 0))
				return cli_error("collect", "--entropy %s: must be a number of bits > 0 and <= the bits per sample", optarg);
			break;
		case OPT_ALPHA:
			if (parse_alpha(optarg, &a->alpha) != 0)
				return cli_error("collect", "--alpha %s: must be in (0, 1), e.g. 2^-20 or 1e-6", optarg);
			break;
		case ':':
			return cli_error("collect", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("collect", "unknown option '%s' (see rngaudit collect --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_error("collect", "unexpected argument '%s'", argv[optind]);
	if (!a->spec)
		return cli_error("collect", "--source SPEC is required (see rngaudit sources)");
	if (!a->health && (a->entropy > 0 || a->alpha > 0 || a->stop_on_failure))
		return cli_error("collect", "--entropy, --alpha and --stop-on-failure need the health tests (drop --no-health)");
	if (a->entropy > a->bits)
		return cli_error("collect", "--entropy %g: more than the %u bits per sample", a->entropy, a->bits);
	return 0;
}

static void collect_print_counters(const struct source_info *info, const struct source_counters *c)
{
	fprintf(stderr, "  source counters: calls %llu, words %llu, underflows (CF=0) %llu, retries %llu, "
		"exhausted retries %llu, short reads %llu\n",
		(unsigned long long)c->calls, (unsigned long long)c->words,
		(unsigned long long)c->underflows, (unsigned long long)c->retries,
		(unsigned long long)c->exhausted, (unsigned long long)c->short_reads);
	if (info->word_bits > 8)
		fprintf(stderr, "  %u-bit words all zeros: %llu, all ones: %llu (each expected %.3g)\n",
			info->word_bits, (unsigned long long)c->zero_words,
			(unsigned long long)c->ones_words,
			(double)c->words * ldexp(1.0, -(int)info->word_bits));
}

/* The health monitor for this source, or NULL with --no-health.  DRBG
 * output and conditioned entropy-source output (RDSEED) claim full entropy,
 * so H defaults to K for them; raw sources need the claim (--entropy H). */
static int collect_health_new(const struct collect_args *a, const struct source_info *info,
			      struct health_monitor **out, struct err *e)
{
	struct health_monitor_config c = { 0 };
	*out = NULL;
	if (!a->health)
		return 0;
	c.bits = a->bits;
	c.entropy = a->entropy;
	c.alpha = a->alpha;
	c.word_bits = info->word_bits;
	c.kind = info->kind;
	c.stop_on_failure = a->stop_on_failure;
	c.what = info->spec;
	if (c.entropy == 0 && info->kind != SOURCE_RAW)
		c.entropy = a->bits;
	if (c.entropy == 0)
		return err_set(e, ERR_USAGE, "%s is %s: give its claimed min-entropy per sample "
			       "with --entropy H (or --no-health)", info->spec,
			       source_kind_describe(info->kind));
	return health_monitor_new(out, &c, e);
}

int cmd_collect(int argc, char **argv)
{
	struct collect_args a = { 0 };
	struct source *src = NULL;
	struct recorder rec;
	struct engine_opts opts = { 0 };
	struct engine_stats st;
	struct source_counters cnt;
	struct cli_progress prog;
	struct sink *sinks[2];
	struct health_monitor *hm = NULL;
	struct asyncsink *hm_async = NULL;
	struct health_monitor_results hr;
	size_t nsinks = 1;
	char defname[64];
	struct err e;
	int rc;

	rc = collect_parse(argc, argv, &a);
	if (rc)
		return rc;
	if (source_open(&src, a.spec, &e) != 0)
		return cli_error_err("collect", &e);
	if (collect_health_new(&a, source_get_info(src), &hm, &e) != 0) {
		source_close(src);
		return cli_error_err("collect", &e);
	}
	if (!a.output) {
		snprintf(defname, sizeof defname, "%s.bin", source_get_info(src)->name);
		a.output = defname;
	}
	if (recorder_open(&rec, a.output, &e) != 0) {
		health_monitor_free(hm);
		source_close(src);
		return cli_error_err("collect", &e);
	}
	sinks[0] = &rec.sink;
	/* With native-word checks (RDRAND, RDSEED) the tests run on a second
	 * thread, so they cost the source little wall time (inline they slow
	 * RDRAND ~40%); byte sources' tests are cheaper inline than a copy. */
	if (hm && source_get_info(src)->word_bits > 8 && asyncsink_new(&hm_async, health_monitor_sink(hm), &e) != 0) {
		recorder_abort(&rec);
		health_monitor_free(hm);
		source_close(src);
		return cli_error_err("collect", &e);
	}
	if (hm)
		sinks[nsinks++] = hm_async ? asyncsink_sink(hm_async) : health_monitor_sink(hm);

	cli_install_stop_handlers();
	cli_progress_init(&prog, "collect", a.samples);
	opts.max_samples = a.samples;
	opts.bits = a.bits;
	opts.stop = &cli_stop;
	opts.progress = cli_progress_update;
	opts.progress_ctx = &prog;
	opts.progress_every = 1u << 16;
	rc = engine_run(src, &opts, sinks, nsinks, &st, &e);
	cli_progress_done(&prog);
	asyncsink_free(hm_async);   /* finish() already joined the worker */
	source_get_counters(src, &cnt);

	if (rc != 0 && st.samples == 0) {
		recorder_abort(&rec);
		health_monitor_free(hm);
		source_close(src);
		return cli_error_err("collect", &e);
	}
	if (rc != 0) {
		/* The source failed mid-run: keep what came before, whole, and say so. */
		cli_note("collect", "%s", e.msg);
	}
	if (recorder_commit(&rec, &e) != 0) {
		health_monitor_free(hm);
		source_close(src);
		return cli_error_err("collect", &e);
	}
	fprintf(stderr, "rngaudit collect: %llu samples of %u bit%s from %s -> %s%s\n",
		(unsigned long long)st.samples, a.bits, a.bits == 1 ? "" : "s",
		source_get_info(src)->spec, strcmp(a.output, "-") == 0 ? "stdout" : a.output,
		st.interrupted ? " (interrupted: partial)" : st.eof ? " (end of input)" : "");
	fprintf(stderr, "  bytes read: %llu in %.3f s (%.1f MB/s)\n", (unsigned long long)st.bytes,
		st.seconds, st.seconds > 0 ? (double)st.bytes / 1e6 / st.seconds : 0.0);
	collect_print_counters(source_get_info(src), &cnt);
	if (st.interrupted)
		fprintf(stderr, "  stopped by a signal: kept the %llu whole samples collected so far\n",
			(unsigned long long)st.samples);
	if (hm) {
		health_monitor_results(hm, &hr);
		health_print_results(stderr, "  ", &hr);
		if (st.stopped_by_sink)
			fprintf(stderr, "  stopped at the first failure (--stop-on-failure)\n");
	} else {
		fprintf(stderr, "  health tests: off (--no-health)\n");
	}
	source_close(src);
	if (rc != 0) {
		health_monitor_free(hm);
		return EXIT_ERROR;
	}
	rc = hm && hr.failures ? EXIT_FAILED : EXIT_OK;
	health_monitor_free(hm);
	return rc;
}
