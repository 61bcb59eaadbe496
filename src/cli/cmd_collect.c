/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_collect.c - `rngaudit collect`: samples from a source into a
 * NIST-format file, health-tested while they stream past; or, with
 * --format F, a wide source's raw samples themselves (collect_wide). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "parse.h"
#include "cli/commands.h"
#include "report/termtext.h"
#include "cli/datapath.h"
#include "cli/health_print.h"
#include "engine/asyncsink.h"
#include "engine/engine.h"
#include "health/health_monitor.h"
#include "engine/recorder.h"
#include "engine/samples.h"
#include "engine/widein.h"
#include "sources/source.h"
#include "sources/widefmt.h"

#define COLLECT_DEFAULT_SAMPLES 1000000ULL

struct collect_args {
	const char *spec;
	const char *output;
	uint64_t samples;
	unsigned bits;
	int health;              /* run the 90B 4.4 health tests online (default) */
	double entropy;          /* claimed H per sample; 0 = the source kind's default */
	const char *entropy_text; /* --entropy as given, for messages */
	double alpha;            /* 0 = 2^-20 over the run */
	enum health_scope scope; /* --per-window: 90B's meaning of alpha */
	int stop_on_failure;
	int wide;                /* --format F: write the raw wide samples in F */
	enum widefmt format;
	int bits_given;
};

enum { OPT_NO_HEALTH = 256, OPT_ENTROPY, OPT_ALPHA, OPT_STOP_ON_FAILURE, OPT_PER_WINDOW, OPT_FORMAT };

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
		{ "per-window", no_argument, NULL, OPT_PER_WINDOW },
		{ "format", required_argument, NULL, OPT_FORMAT },
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
			a->bits_given = 1;
			break;
		case OPT_FORMAT:
			if (widefmt_parse(optarg, &a->format, &e) != 0)
				return cli_error_err("collect", &e);
			a->wide = 1;
			break;
		case OPT_NO_HEALTH: a->health = 0; break;
		case OPT_STOP_ON_FAILURE: a->stop_on_failure = 1; break;
		case OPT_PER_WINDOW: a->scope = HEALTH_SCOPE_WINDOW; break;
		case OPT_ENTROPY:
			a->entropy_text = optarg;
			if (parse_double(optarg, &a->entropy) != 0 || !(a->entropy > 0))
				return cli_error("collect", "--entropy %s: must be a number of bits > 0 and <= the bits per sample", optarg);
			break;
		case OPT_ALPHA:
			if (parse_alpha(optarg, &a->alpha) != 0)
				return cli_error("collect", "--alpha %s: must be in " PARSE_ALPHA_RANGE ", e.g. 2^-20 or 1e-6", optarg);
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
	if (!a->health && (a->entropy > 0 || a->alpha > 0 || a->stop_on_failure ||
			   a->scope == HEALTH_SCOPE_WINDOW))
		return cli_error("collect", "--entropy, --alpha, --per-window and --stop-on-failure need the health tests (drop --no-health)");
	if (a->entropy > a->bits)   /* the text given: "%g" showed 8.0000001 as 8 */
		return cli_error("collect", "--entropy %s: more than the %u bits per sample", a->entropy_text, a->bits);
	if (a->wide && (a->bits_given || a->entropy > 0 || a->alpha > 0 || a->stop_on_failure))
		return cli_error("collect", "--format writes raw wide samples: --bits and the health-test "
				 "options apply to symbols (see rngaudit translate, rngaudit audit)");
	return 0;
}

/* collect --format F streams: each block of samples is encoded and
 * written as it comes, in memory of one block (a 10^9-sample run held every
 * sample, then an encoded copy of them all).  Written straight to the
 * descriptor, as the recorder writes NIST format: after a failure (EPIPE,
 * ENOSPC) the count of samples written whole is exact. */
struct collect_wide_out {
	int fd;
	enum widefmt f;
	uint8_t *buf;              /* one block, encoded */
	size_t room;
	uint64_t written;          /* samples written whole */
	int write_errno;           /* why a write failed (EPIPE, ENOSPC), else 0 */
};

/* The longest line of a text format: "0x" and 16 hex digits, or 20 decimal digits, and "\n". */
#define COLLECT_TEXT_SAMPLE_MAX 24

static int collect_wide_block(void *ctx, const uint64_t *x, size_t n, struct err *e)
{
	struct collect_wide_out *o = ctx;
	int text = o->f == WIDEFMT_DEC || o->f == WIDEFMT_HEX;
	size_t len = 0, done = 0;

	if (text) {
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf((char *)o->buf + len, o->room - len,
						o->f == WIDEFMT_DEC ? "%llu\n" : "0x%llx\n", (unsigned long long)x[i]);
	} else {
		int rc = widefmt_encode(o->f, x, n, o->buf, e);
		if (rc != 0)
			return rc;
		len = n * widefmt_size(o->f);
	}
	while (done < len) {
		ssize_t w = write(o->fd, o->buf + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->write_errno = w < 0 ? errno : EIO;
			break;
		}
		done += (size_t)w;
	}
	if (!text)
		o->written += done / widefmt_size(o->f);
	else
		for (size_t i = 0; i < done; i++)
			o->written += o->buf[i] == '\n';
	if (o->write_errno)
		return err_set_errno(e, ERR_IO, o->write_errno, "write failed");
	return 0;
}

/* --format F: a wide source's raw samples (jitter, chaoskey, a wide file)
 * written as they are, for translate or assess --format to reduce later.
 * Exit status as DESIGN.md's signals rule says: a run cut short by a
 * signal, or whose output failed, is incomplete (2). */
static int collect_wide_run(struct collect_args *a, struct source *src)
{
	const struct source_info *info = source_get_info(src);
	struct collect_wide_out o = { 0 };
	struct engine_stats st;
	struct atomicfile af;
	const char *out;
	char defname[64];
	struct err e;
	int rc;

	if (!info->sample_bits)
		return cli_error("collect", "--format %s: %s gives a byte stream, not wide samples "
				 "(jitter, chaoskey, file:PATH,format=F do)", widefmt_name(a->format), info->spec);
	if (info->sample_bits > widefmt_width(a->format))
		return cli_error("collect", "--format %s holds %u bits: %s gives %u-bit samples",
				 widefmt_name(a->format), widefmt_width(a->format), info->spec,
				 info->sample_bits);
	if (!a->output) {
		snprintf(defname, sizeof defname, "%s.%s", info->name, widefmt_name(a->format));
		a->output = defname;
	}
	if (cli_check_outputs("collect", &(struct outpath){ "-o", a->output }, 1,
			      OUTPATH_DEVICES | OUTPATH_STDOUT) != 0)
		return EXIT_ERROR;
	a->output = outpath_normal(a->output);
	out = strcmp(a->output, "-") == 0 ? "stdout" : a->output;
	o.f = a->format;
	o.room = (size_t)WIDEIN_BLOCK_SAMPLES * (widefmt_size(a->format) > COLLECT_TEXT_SAMPLE_MAX
						 ? widefmt_size(a->format) : COLLECT_TEXT_SAMPLE_MAX);
	o.buf = malloc(o.room);
	if (!o.buf)
		return cli_error("collect", "out of memory");
	if (atomicfile_open(&af, a->output, &e) != 0) {
		free(o.buf);
		return cli_error_err("collect", &e);
	}
	fflush(af.fp);   /* nothing of stdio's may follow our writes */
	o.fd = fileno(af.fp);
	cli_install_stop_handlers();
	rc = widein_each(src, a->samples, &cli_stop, collect_wide_block, &o, &st, &e);
	free(o.buf);
	if (o.write_errno && (o.write_errno == EPIPE || af.in_place)) {
		/* a reader that left, or a device that failed: what reached it
		 * is all there is */
		atomicfile_abort(&af);
		return cli_error("collect", "%s: %s after %llu samples written whole", out,
				 o.write_errno == EPIPE ? "closed by its reader" : strerror(o.write_errno),
				 (unsigned long long)o.written);
	}
	if (o.write_errno || st.samples == 0) {
		/* a temporary the disk could not hold, or nothing at all: keep nothing */
		atomicfile_abort(&af);
		if (rc != 0)
			return cli_error_err("collect", &e);
		return cli_error("collect", "%s: no samples (%s); no output written", info->spec,
				 st.interrupted ? "interrupted" : "empty input");
	}
	if (rc != 0)   /* the source failed mid-run: keep what came before, whole */
		cli_note("collect", "%s", e.msg);
	if (atomicfile_commit(&af, &e) != 0)
		return cli_error_err("collect", &e);
	cli_note("collect", "%llu raw %u-bit samples from %s -> %s (%s)%s", (unsigned long long)st.samples,
		 info->sample_bits, info->spec, out, widefmt_name(a->format),
		 st.interrupted ? " (interrupted: partial)" : st.eof ? " (end of input)" : "");
	fprintf(stderr, "  %.3f s (%.0f samples/s); health tests: none on raw samples (they run on "
		"the reduced symbols: rngaudit audit)\n", st.seconds,
		st.seconds > 0 ? (double)st.samples / st.seconds : 0.0);
	if (st.interrupted)
		fprintf(stderr, "  stopped by a signal: kept the %llu whole samples collected so far\n",
			(unsigned long long)st.samples);
	return rc != 0 || st.interrupted ? EXIT_ERROR : EXIT_OK;
}

static int collect_wide(struct collect_args *a)
{
	struct source *src = NULL;
	struct err e;
	int rc;

	if (source_open(&src, a->spec, &e) != 0)
		return cli_error_err("collect", &e);
	rc = collect_wide_run(a, src);
	source_close(src);
	return rc;
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

/* The health monitor for this source, or NULL with --no-health.  The
 * claimed entropy follows health_monitor_default_entropy's rule unless
 * --entropy gives it; alpha covers the -n samples of the run. */
static int collect_health_new(const struct collect_args *a, const struct source_info *info,
			      struct health_monitor **out, struct err *e)
{
	struct health_monitor_config c = { 0 };
	struct policy pol;
	int rc;

	*out = NULL;
	if (!a->health)
		return 0;
	c.bits = a->bits;
	c.entropy = a->entropy;
	c.entropy_why = "given with --entropy";
	if ((rc = datapath_load_policy(&pol, NULL, e)))
		return rc;
	policy_apply_claim(&pol, info->name, a->bits, &c);
	c.alpha = a->alpha > 0 ? a->alpha : pol.alpha;   /* the policy's, as audit's */
	c.scope = a->scope;
	c.run_samples = a->samples;
	c.word_bits = info->word_bits;
	c.kind = info->kind;
	c.stop_on_failure = a->stop_on_failure;
	c.what = info->spec;
	return health_monitor_new(out, &c, e);
}

/* Everything one run holds, so that parse, run and print are one function each. */
struct collect_run {
	struct source *src;
	struct recorder rec;
	struct health_monitor *hm;
	struct asyncsink *async;       /* the recorder and the tests on a worker, or NULL */
	struct engine_stats st;
	struct err e;
	int rc;                   /* engine_run's result */
	char defname[64];
};

static void collect_release(struct collect_run *r)
{
	health_monitor_free(r->hm);
	source_close(r->src);
}

/* Opens the source, the health monitor and the output; runs the engine.
 * Returns 0 or an exit status after printing one line. */
static int collect_run(struct collect_args *a, struct collect_run *r)
{
	struct engine_opts opts = { 0 };
	struct cli_progress prog;
	struct sink *sinks[2];
	size_t nsinks = 1;

	if (source_open(&r->src, a->spec, &r->e) != 0)
		return cli_error_err("collect", &r->e);
	if (source_get_info(r->src)->sample_bits) {
		/* a wide source's samples are written raw (--format) or not at all */
		cli_error("collect", "%s gives raw %u-bit samples: write them with --format F, then "
			  "reduce them first (rngaudit translate)", source_get_info(r->src)->spec,
			  source_get_info(r->src)->sample_bits);
		collect_release(r);
		return EXIT_ERROR;
	}
	if (collect_health_new(a, source_get_info(r->src), &r->hm, &r->e) != 0)
		goto fail;
	if (!a->output) {
		snprintf(r->defname, sizeof r->defname, "%s.bin", source_get_info(r->src)->name);
		a->output = r->defname;
	}
	/* checked before the run; one that names stdout is "-" */
	if (cli_check_outputs("collect", &(struct outpath){ "-o", a->output }, 1,
			      OUTPATH_DEVICES | OUTPATH_STDOUT) != 0) {
		collect_release(r);
		return EXIT_ERROR;
	}
	a->output = outpath_normal(a->output);
	if (recorder_open(&r->rec, a->output, &r->e) != 0)
		goto fail;
	sinks[0] = &r->rec.sink;
	if (r->hm)
		sinks[nsinks++] = health_monitor_sink(r->hm);
	/* The CPU RNGs (RDRAND, RDSEED: native words) are fast enough that the
	 * writes and the tests with their word checks would slow them (inline
	 * the tests slow RDRAND ~40%): both run on a second thread, on the
	 * engine's blocks in place, while the source fills the next blocks.
	 * Byte sources' tests are cheaper inline than a hand-over. */
	if (source_get_info(r->src)->word_bits > 8) {
		if (asyncsink_new(&r->async, sinks, nsinks, &r->e) != 0) {
			recorder_abort(&r->rec);
			goto fail;
		}
		sinks[0] = asyncsink_sink(r->async);
		nsinks = 1;
	}

	cli_install_stop_handlers();
	cli_progress_init(&prog, "collect", a->samples);
	opts.max_samples = a->samples;
	opts.bits = a->bits;
	opts.stop = &cli_stop;
	opts.progress = cli_progress_update;
	opts.progress_ctx = &prog;
	opts.progress_every = CLI_PROGRESS_EVERY_BLOCK;
	r->rc = engine_run(r->src, &opts, sinks, nsinks, &r->st, &r->e);
	cli_progress_done(&prog);
	asyncsink_free(r->async);   /* finish() already joined the worker */
	return 0;
fail:
	cli_error_err("collect", &r->e);
	collect_release(r);
	return EXIT_ERROR;
}

/* Keeps what the run produced, or nothing: a run with no samples, or a
 * temporary file the disk could not hold, leaves no file.  Returns 0 when
 * samples were kept, else an exit status after one line. */
static int collect_keep(const struct collect_args *a, struct collect_run *r)
{
	const char *out = strcmp(a->output, "-") == 0 ? "stdout" : a->output;
	struct err e;

	if (r->rec.write_errno == EPIPE || (r->rec.write_errno && r->rec.af.in_place)) {
		/* A reader that left, or a device that failed: what reached it is
		 * all there is; say how much of it is whole samples. */
		recorder_abort(&r->rec);
		cli_error("collect", "%s: %s after %llu samples written whole", out,
			  r->rec.write_errno == EPIPE ? "closed by its reader" : strerror(r->rec.write_errno),
			  (unsigned long long)r->rec.written);
		return EXIT_ERROR;
	}
	if (r->rec.write_errno) {   /* the temporary could not be written: keep nothing */
		recorder_abort(&r->rec);
		return cli_error_err("collect", &r->e);
	}
	if (r->st.samples == 0) {
		recorder_abort(&r->rec);
		if (r->rc != 0)
			return cli_error_err("collect", &r->e);
		return cli_error("collect", "%s: no samples (%s); no output written",
				 source_get_info(r->src)->spec, r->st.interrupted ? "interrupted" : "empty input");
	}
	if (r->rc != 0)   /* the source failed mid-run: keep what came before, whole */
		cli_note("collect", "%s", r->e.msg);
	if (recorder_commit(&r->rec, &e) != 0)
		return cli_error_err("collect", &e);
	return 0;
}

static void collect_print(const struct collect_args *a, struct collect_run *r)
{
	const struct source_info *info = source_get_info(r->src);
	struct health_monitor_results hr;
	struct source_counters cnt;

	source_get_counters(r->src, &cnt);
	cli_note("collect", "%llu samples of %u bit%s from %s -> %s%s",
		 (unsigned long long)r->st.samples, a->bits, a->bits == 1 ? "" : "s", info->spec,
		 strcmp(a->output, "-") == 0 ? "stdout" : a->output,
		 r->st.interrupted ? " (interrupted: partial)" : r->st.eof ? " (end of input)" : "");
	fprintf(stderr, "  bytes read: %llu in %.3f s (%.1f MB/s)\n", (unsigned long long)r->st.bytes,
		r->st.seconds, r->st.seconds > 0 ? (double)r->st.bytes / 1e6 / r->st.seconds : 0.0);
	collect_print_counters(info, &cnt);
	if (r->st.eof && r->st.samples < a->samples)
		fprintf(stderr, "  the input ended after %llu of the %llu samples asked for\n",
			(unsigned long long)r->st.samples, (unsigned long long)a->samples);
	if (r->st.interrupted)
		fprintf(stderr, "  stopped by a signal: kept the %llu whole samples collected so far\n",
			(unsigned long long)r->st.samples);
	if (r->hm) {
		health_monitor_results(r->hm, &hr);
		health_print_results(stderr, "  ", &hr);
		if (r->st.stopped_by_sink)
			fprintf(stderr, "  stopped at the first failure (--stop-on-failure)\n");
	} else {
		fprintf(stderr, "  health tests: off (--no-health)\n");
	}
}

int cmd_collect(int argc, char **argv)
{
	struct collect_args a = { 0 };
	struct collect_run r;
	struct health_monitor_results hr;
	int rc;

	memset(&r, 0, sizeof r);
	if ((rc = collect_parse(argc, argv, &a)) != 0)
		return rc;
	if (a.wide)
		return collect_wide(&a);
	if ((rc = collect_run(&a, &r)) != 0)
		return rc;
	if ((rc = collect_keep(&a, &r)) != 0) {
		collect_release(&r);
		return rc;
	}
	collect_print(&a, &r);
	/* DESIGN "Signals and exit codes": a source that failed, or a run cut
	 * short by a signal, is incomplete (2) whatever the tests said. */
	if (r.rc != 0 || r.st.interrupted)
		rc = EXIT_ERROR;
	else if (r.hm && (health_monitor_results(r.hm, &hr), hr.failures))
		rc = EXIT_FAILED;
	else
		rc = EXIT_OK;
	collect_release(&r);
	return rc;
}
