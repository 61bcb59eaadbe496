/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_resume_check.c - `rngaudit resume-check`: RDRAND and RDSEED tried
 * directly right after a resume (the system-sleep hook runs it), one line
 * each; a faulty instruction is a failure (exit 1).  Lines carry syslog
 * priority prefixes when the output is the journal. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/health_follow.h"
#include "parse.h"
#include "service/insnprobe.h"

#define RESUME_WORDS_DEFAULT 64   /* 64 words: two faulty ones are certain, a good part costs ~10 us */

struct resume_args {
	uint64_t words;
	const char *cpuinfo;      /* for tests: another /proc/cpuinfo */
};

static int resume_parse(int argc, char **argv, struct resume_args *a)
{
	static const struct option longopts[] = {
		{ "words", required_argument, NULL, 'w' },
		{ "cpuinfo", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->words = RESUME_WORDS_DEFAULT;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (parse_u64(optarg, 1, 1000000, &a->words) != 0)
				return cli_error("resume-check", "--words %s: must be an integer from 1 to 1000000",
						 optarg);
			break;
		case 'c': a->cpuinfo = optarg; break;
		case ':':
			return cli_error("resume-check", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_error("resume-check", "unknown option '%s' (see rngaudit resume-check --help)",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_error("resume-check", "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_resume_check(int argc, char **argv)
{
	struct resume_args a = { 0 };
	struct insnprobe p[2];
	struct err e;
	int journal, failed = 0, rc;

	if ((rc = resume_parse(argc, argv, &a)))
		return rc;
	if (insnprobe_run(p, (unsigned)a.words, a.cpuinfo, &e) != 0)
		return cli_error_err("resume-check", &e);
	journal = health_follow_is_journal(STDOUT_FILENO);
	for (int i = 0; i < 2; i++) {
		/* RDRAND that never delivers is a fault; RDSEED starves under load */
		int bad = p[i].verdict == INSNPROBE_FAULTY ||
			  (p[i].verdict == INSNPROBE_STARVED && strcmp(p[i].name, "rdrand") == 0);
		printf("%s%s: %s: %s\n", journal ? (bad ? "<3>" : "<6>") : "", p[i].name,
		       insnprobe_describe(p[i].verdict), p[i].why);
		failed |= bad;
	}
	return failed ? EXIT_FAILED : EXIT_OK;
}
