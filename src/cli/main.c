/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c - rngaudit's entry point: one table of commands, dispatch, help. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "input.h"
#include "cli/commands.h"
#include "cli/ea.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;   /* one line for `rngaudit --help` */
	const char *usage;     /* synopsis and options for `rngaudit help CMD` */
};

static const struct command commands[] = {
	{ "sources", cmd_sources, "list the random sources of this machine and whether each is usable",
	  "usage: rngaudit sources [--sysroot DIR | --save-sysroot DIR] [--format text|json]\n"
	  "\n"
	  "Lists the machine (CPU vendor, family/model/stepping, microcode, kernel), what\n"
	  "its kernel trusts (random.trust_cpu, random.trust_bootloader, CPU RNG flags it\n"
	  "cleared, guest or not, the hwrng's credit, the CRNG) and, for each real source\n"
	  "(rdrand, rdseed, hwrng, getrandom, jitter, chaoskey, and the CPU RNGs of\n"
	  "arm64, POWER, s390x and RISC-V: rndr, rndrrs, darn, trng, seed), whether it is\n"
	  "available and why not, its device, native word width and kind of output, and\n"
	  "what this architecture's kernel seeds from (the cpu rng block).\n"
	  "\n"
	  "  --sysroot DIR       read the machine and kernel from a saved bundle (default:\n"
	  "                      $RNGAUDIT_SYSROOT); the sources are not probed then\n"
	  "  --save-sysroot DIR  write this machine's bundle (plain files, the relevant\n"
	  "                      kernel log lines in dmesg.txt) for an auditor elsewhere\n"
	  "  --format json       the same as one JSON document (rngaudit-sources-1.schema.json)\n" },
	{ "collect", cmd_collect, "collect samples from a source into a NIST-format file",
	  "usage: rngaudit collect --source SPEC [-n N] [--bits K | --format F] [-o FILE]\n"
	  "                        [--no-health] [--entropy H] [--alpha A] [--per-window]\n"
	  "                        [--stop-on-failure]\n"
	  "\n"
	  "  --source SPEC      rdrand[:width=16|32|64], rdseed[:width=...],\n"
	  "                     hwrng[:device=PATH], getrandom[:flags=random|insecure|nonblock],\n"
	  "                     jitter[:mem=BYTES,loops=N,timer=auto|tsc|clock], chaoskey[:serial=S],\n"
	  "                     rndr, rndrrs, darn[:mode=0|1|2], trng[:raw], seed,\n"
	  "                     file:PATH[,format=F] (file:- = stdin), sim:MODEL[,key=value,...]\n"
	  "  -n, --samples N    number of samples, at most 10^15 (default 1000000)\n"
	  "  -b, --bits K       bits per sample, 1..8 (default 8); the byte stream is\n"
	  "                     sliced most-significant bit first\n"
	  "  -o, --output FILE  output file, one sample per byte (default NAME.bin after the\n"
	  "                     source; - = stdout); a regular file is written to a temporary\n"
	  "                     and renamed at the end, a device or FIFO is written in place\n"
	  "  --no-health        do not run the SP 800-90B health tests while collecting\n"
	  "  --entropy H        claimed min-entropy per sample for the health tests (default:\n"
	  "                     DRBG and conditioned output K, raw or unknown the policy's claim, K/2)\n"
	  "  --alpha A          chance that a healthy source fails anywhere in the N samples\n"
	  "                     (default 2^-20)\n"
	  "  --per-window       SP 800-90B's meaning of alpha instead: per sample (RCT) and window (APT)\n"
	  "  --stop-on-failure  stop at the first health-test failure\n"
	  "  --format F         write a wide source's raw samples (jitter, chaoskey,\n"
	  "                     file:PATH,format=F) in F: u8, u16le, u16be, u32le, u32be,\n"
	  "                     u64le, u64be, dec or hex; reduce them with rngaudit translate\n"
	  "\n"
	  "SIGINT/SIGTERM stop early and keep the whole samples collected so far (exit 2).\n"
	  "Exit status: 0 ok, 1 a health test failed, 2 error or incomplete run.\n" },
	{ "health", cmd_health, "run the SP 800-90B health tests (RCT, APT) on a source or file",
	  "usage: rngaudit health (--source SPEC | FILE) [--bits K] [--entropy H] [--alpha A]\n"
	  "                       [--per-window] [-n N] [--follow] [--interval SECONDS]\n"
	  "                       [--rate BYTES/S] [--horizon DURATION] [--prom FILE] [--log FILE]\n"
	  "\n"
	  "  --source SPEC      a source (as for collect); or FILE: NIST format, one sample per byte\n"
	  "  -b, --bits K       bits per sample, 1..8 (default 8)\n"
	  "  --entropy H        claimed min-entropy per sample (default: DRBG and conditioned\n"
	  "                     output K, raw or unknown sources the policy's claim, K/2)\n"
	  "  --alpha A          chance that a healthy source fails anywhere in the run, e.g. 2^-30\n"
	  "                     or 1e-9 (default 2^-20); alarms at its square root per trial are\n"
	  "                     counted against the number expected\n"
	  "  --per-window       SP 800-90B's meaning of alpha instead: per sample (RCT) and window (APT)\n"
	  "  -n, --samples N    samples to test (default 1000000 from a source; a FILE is read to its end)\n"
	  "  --follow           run until SIGINT/SIGTERM (exit 0 unless a failure): each failure and\n"
	  "                     alarm on one line, a status line every interval; <N> priority\n"
	  "                     prefixes when the output is the journal (JOURNAL_STREAM)\n"
	  "  --interval S       seconds between --follow status lines (default 10)\n"
	  "  --rate BYTES/S     --follow reads at most this (default 1000000; 0 = flat out)\n"
	  "  --horizon D        --follow: the time alpha covers, e.g. 30d (default 1y)\n"
	  "  --prom FILE        --follow: node_exporter textfile, rewritten whole every interval\n"
	  "  --log FILE         --follow: append the lines here instead of stdout; SIGHUP reopens it\n"
	  "\n"
	  "Exit status: 0 no failure, 1 a test failed, 2 error.\n" },
	{ "assess", cmd_assess, "SP 800-90B non-IID min-entropy estimators on a NIST-format file",
	  "usage: rngaudit assess [-i|-c] [-a|-t] [-v|-vv|-q] [-l INDEX,SAMPLES] [-o JSON]\n"
	  "                       [--format text|csv] [--max-samples N] [--version] FILE [BITS]\n"
	  "       rngaudit assess [...] --format SAMPLES [--method M] FILE\n"
	  "\n"
	  "Options are NIST's ea_non_iid's, with its meaning; so is the text output, line for\n"
	  "line, followed by one last line of rngaudit's: assessed min-entropy: X bits per sample\n"
	  "  -i                 initial entropy: H_original and H_bitstring (default)\n"
	  "  -c                 conditioned output: the bitstring estimators only, h'\n"
	  "  -a                 H_bitstring over all the bits (default)\n"
	  "  -t                 H_bitstring over the first 1000000 bits only\n"
	  "  -v, -vv            more output: one line per estimator; every intermediate\n"
	  "  -q                 NIST's quiet mode: warnings and the result line only\n"
	  "  -l INDEX,SAMPLES   assess samples [INDEX*SAMPLES, (INDEX+1)*SAMPLES) only\n"
	  "  -o JSON            also write NIST's JSON report (whole or not at all; - = stdout)\n"
	  "  --format csv       one CSV row per estimator instead of the text\n"
	  "  --format SAMPLES   FILE holds wide raw samples (u8, u16le, u16be, u32le, u32be,\n"
	  "                     u64le, u64be, dec, hex): they are reduced first by M\n"
	  "                     (--method; default bits-in-use; see rngaudit translate --help),\n"
	  "                     and the figure is a lower bound for the raw samples (90B 6.4)\n"
	  "  --max-samples N    read at most N samples (default: from physical memory)\n"
	  "  --version          rngaudit's version and the NIST tool it follows\n"
	  "  BITS               bits per sample, 1..8 (default: inferred from the data)\n"
	  "\n"
	  "Exit status: 0 assessed, 2 usage error or bad input.\n" },
	{ "translate", cmd_translate, "reduce wide raw samples to NIST's 8-bit format (SP 800-90B 6.4)",
	  "usage: rngaudit translate [--method M] [--format F] IN -o OUT\n"
	  "\n"
	  "  -m, --method M     low:K (the K low bits), bits-in-use (drop bits that never\n"
	  "                     change; select:8 if more than 8 remain; the default),\n"
	  "                     select:K (K bits chosen jointly by a min-entropy estimate),\n"
	  "                     group:K (2^K value ranges of equal population), mod:M\n"
	  "  -f, --format F     IN's samples: u8 (default), u16le, u16be, u32le, u32be,\n"
	  "                     u64le, u64be, dec or hex (text, one integer a line)\n"
	  "  -o, --output OUT   NIST format, one symbol per byte (- = stdout); written whole\n"
	  "\n"
	  "Prints one line saying what the mapping did.  The min-entropy assessed on the\n"
	  "symbols is a lower bound for the raw samples (SP 800-90B 6.4).\n"
	  "Exit status: 0 ok, 2 usage or bad input.\n" },
	{ "iid", cmd_iid, "SP 800-90B IID track: permutation and chi-square tests",
	  "usage: rngaudit iid [-i|-c] [-a|-t] [-v|-vv|-q] [-l INDEX,SAMPLES] [-o JSON]\n"
	  "                    [--seed S|random] [--threads N] [--full] [--max-samples N]\n"
	  "                    [--version] FILE [BITS]\n"
	  "       rngaudit iid [...] --format SAMPLES [--method M] FILE\n"
	  "\n"
	  "Options -i -c -a -t -v -q -l -o are NIST's ea_iid's, with its meaning; so is the\n"
	  "output, line for line, followed by the permutation seed.\n"
	  "  -i                 initial entropy: literal and bitstring MCV (default)\n"
	  "  -c                 conditioned output: bitstring MCV only\n"
	  "  -a, -t             bitstring of all the bits (default), or its first 1000000\n"
	  "  -v, -vv            more output, as NIST's\n"
	  "  -q                 NIST's quiet mode: warnings only (the verdict is the exit status)\n"
	  "  -l INDEX,SAMPLES   test samples [INDEX*SAMPLES, (INDEX+1)*SAMPLES) only\n"
	  "  -o JSON            also write NIST's JSON report (whole or not at all; - = stdout)\n"
	  "  --seed S|random    seed of the 10000 shuffles (default 800090; random draws one)\n"
	  "  --threads N        permutation worker threads, 1..64 (default: online CPUs)\n"
	  "  --full             run every statistic to its end even once the verdict is known\n"
	  "  --max-samples N    read at most N samples (default: from physical memory)\n"
	  "  --format SAMPLES   FILE holds wide raw samples: reduced first by M (--method;\n"
	  "                     default bits-in-use; see rngaudit translate --help)\n"
	  "  --version          rngaudit's version and the NIST tool it follows\n"
	  "  BITS               bits per sample, 1..8 (default: inferred from the data)\n"
	  "\n"
	  "Exit status: 0 IID, 1 a test rejected the IID assumption, 2 error.\n" },
	{ "restart", cmd_restart, "SP 800-90B 3.1.4 restart tests on a 1000x1000 restart matrix",
	  "usage: rngaudit restart [-i|-n] [-v|-vv|-q] [-o JSON] [--full] FILE [BITS] H_I\n"
	  "\n"
	  "Options are NIST's ea_restart's, with its meaning. FILE: 1000 restarts x 1000\n"
	  "samples, one sample per byte, row i = restart i.\n"
	  "  -i                 the IID track (MCV estimates, IID tests on rows and columns)\n"
	  "  --full             -i: every permutation statistic to its end (NIST's table),\n"
	  "                     not only until one has failed\n"
	  "  -n                 the non-IID track: all ten estimators (default)\n"
	  "  -v, -vv            more output, as NIST's\n"
	  "  -q                 NIST's quiet mode\n"
	  "  -o JSON            also write NIST's JSON report (whole or not at all; - = stdout)\n"
	  "  BITS               bits per sample, 1..8 (default: inferred from the data)\n"
	  "  H_I                the initial entropy estimate to validate, bits per sample\n"
	  "\n"
	  "Exit status: 0 passed, 1 the sanity check or the validation failed, 2 error.\n" },
	{ "conditioning", cmd_conditioning, "SP 800-90B 3.1.5 entropy after a conditioning function",
	  "usage: rngaudit conditioning [-v|-n] [-q] [-o JSON] n_in n_out nw h_in [h']\n"
	  "       rngaudit conditioning -n [-q] [-o JSON] -i FILE [-c iid|non_iid] n_in n_out nw h_in\n"
	  "\n"
	  "Options are NIST's ea_conditioning's, with its meaning (-v here means vetted,\n"
	  "not verbose, as in NIST's tool).\n"
	  "  -v                 a vetted conditioning function (SP 800-90B 3.1.5.1.2; default)\n"
	  "  -n                 a non-vetted one (3.1.5.2): needs h', given or from -i\n"
	  "  -q                 NIST's quiet mode\n"
	  "  -i FILE            compute h' from the conditioned output samples in FILE\n"
	  "  -c iid|non_iid     how to estimate h' from FILE (default non_iid)\n"
	  "  -o JSON            also write NIST's JSON report (whole or not at all; - = stdout)\n"
	  "  n_in n_out nw      input, output and narrowest internal widths, in bits\n"
	  "  h_in               entropy of the input, in bits\n"
	  "  h'                 entropy per bit of the output (non-vetted)\n"
	  "\n"
	  "Exit status: 0 computed, 2 usage error or bad input.\n" },
	{ "audit", cmd_audit, "audit every source: collect, health-test, assess, verdict, reports",
	  "usage: rngaudit audit [--source LIST|all] [-n N] [--bits K] [--csv F] [--junit F]\n"
	  "                      [--junit-host] [--prom F] [--json F] [--policy F] [--quirks F]\n"
	  "                      [--plot DIR] [--strict] [--sysroot DIR]\n"
	  "\n"
	  "  --source LIST   comma-separated source specs (default: every real source;\n"
	  "                  sim sources only when named)\n"
	  "  -n N            samples per source (default 10^6; 20000 for hwrng)\n"
	  "  --bits K        bits per sample, 1..8 (default 8)\n"
	  "  --csv/--junit/--prom F   write the CSV, JUnit XML or Prometheus report\n"
	  "  --junit-host    JUnit classnames name the host: rngaudit.HOST.SOURCE, one row\n"
	  "                  per host and source when a fleet's reports are merged\n"
	  "  --json F        write the JSON report (rngaudit-audit-1.schema.json; - = stdout)\n"
	  "  --policy F      gating policy (key=value; see rngaudit-audit(1))\n"
	  "  --quirks F      table of known-bad CPUs (default: the installed quirks.txt)\n"
	  "  --plot DIR      draw PNGs with gnuplot into DIR\n"
	  "  --strict        warnings fail too\n"
	  "  --sysroot DIR   judge the kernel (and CPU) of a saved bundle, see rngaudit sources\n"
	  "                  (default: $RNGAUDIT_SYSROOT)\n"
	  "\n"
	  "Exit status: 0 every source passed, 1 a source failed (or warned with\n"
	  "--strict) or a required source is missing, 2 error or interrupted.\n" },
	{ "report", cmd_report, "fleet reports: merge many hosts' audit CSVs",
	  "usage: rngaudit report merge A.csv B.csv ... [-o OUT] [--format csv|text] [--plot DIR]\n"
	  "\n"
	  "  merge              one fleet table from many hosts' audit CSVs (rngaudit audit --csv;\n"
	  "                     this version's schema 5; 4, 3, 2 and 1 from hosts not yet upgraded),\n"
	  "                     each run counted once: one row per (CPU vendor, family, model,\n"
	  "                     microcode, guest or not, kernel release, source) with hosts, runs,\n"
	  "                     verdict counts, min and median h_assessed, hosts whose kernel\n"
	  "                     credits that source, how many of those failed, and the\n"
	  "                     recommendation that holds for the group\n"
	  "  -o, --output FILE  write it to FILE (whole or not at all; default and - = stdout)\n"
	  "  --format csv|text  csv (default) for machines, text: the same as a table for people\n"
	  "  --plot DIR         draw DIR/fleet.png with gnuplot (min and median h_assessed per\n"
	  "                     group, hosts per verdict); the CSV it is drawn from is -o's file,\n"
	  "                     or DIR/fleet.csv\n"
	  "\n"
	  "Exit status: 0 merged, 2 usage error or bad input (one line naming the file and line).\n" },
	{ "resume-check", cmd_resume_check, "try RDRAND and RDSEED directly (the check after a resume)",
	  "usage: rngaudit resume-check [--words N]\n"
	  "\n"
	  "Runs RDRAND and RDSEED under a SIGILL guard whatever CPUID and the kernel say,\n"
	  "N 64-bit words each (default 64), and prints one line each: ok, absent, hidden by\n"
	  "the kernel (it runs and looks sound, but CPUID or /proc/cpuinfo hides it), starved\n"
	  "(CF=0 every try) or FAULTY (e.g. all ones with CF=1, AMD family 15h/16h after a\n"
	  "resume).  The system-sleep hook rngaudit-resume runs it after every resume.\n"
	  "\n"
	  "Exit status: 0 no fault, 1 an instruction is faulty (or RDRAND starved), 2 error.\n" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

void cli_print_command_help(const char *cmd, FILE *fp)
{
	const struct command *c = command_find(cmd);
	if (c)
		fprintf(fp, "rngaudit %s: %s\n%s", c->name, c->summary, c->usage);
}

static void print_main_help(FILE *fp)
{
	fprintf(fp,
		"usage: rngaudit [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"Audits the random number generators of this machine with the NIST\n"
		"SP 800-90B health tests and min-entropy estimators.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-13s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp,
		"\n"
		"`rngaudit help COMMAND` or `rngaudit COMMAND --help` shows a command's options.\n"
		"Exit status: 0 passed, 1 a test or gate failed, 2 usage or operational error.\n");
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;

	/* run as ea_non_iid, ea_iid, ea_restart or ea_conditioning: NIST's
	 * tool by that name (cli/ea.h) */
	if ((rc = ea_dispatch(argc, argv)) >= 0)
		return rc;
	if (argc < 2) {
		print_main_help(stderr);
		return EXIT_ERROR;
	}
	/* Help and version go to stdout like any output: a write that fails
	 * (a full disk behind the redirection) is exit 2, not 0. */
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_main_help(stdout);
		return cli_finish_stdout(EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("%s\n", PACKAGE_STRING);
		return cli_finish_stdout(EXIT_OK);
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			print_main_help(stdout);
			return cli_finish_stdout(EXIT_OK);
		}
		if (!command_find(argv[2]))
			return cli_error("help", "unknown command '%s' (see rngaudit --help)", argv[2]);
		cli_print_command_help(argv[2], stdout);
		return cli_finish_stdout(EXIT_OK);
	}
	c = command_find(argv[1]);
	if (!c) {
		return cli_error(NULL, "unknown command '%s' (see rngaudit --help)", argv[1]);
	}
	if (cli_wants_help(argc - 1, argv + 1)) {
		cli_print_command_help(c->name, stdout);
		return cli_finish_stdout(EXIT_OK);
	}
	/* A reader that goes away (rngaudit ... | head) must not kill us
	 * mid-write: writes fail with EPIPE instead, the commands stop and say
	 * what they wrote, and the exit status says the output is incomplete. */
	signal(SIGPIPE, SIG_IGN);
	cli_install_fatal_handlers();
	/* Waiting on a silent FIFO or device is news only to someone watching. */
	if (isatty(STDERR_FILENO))
		input_set_wait_notice(cli_wait_notice);
	rc = c->run(argc - 1, argv + 1);
	return cli_finish_stdout(rc);
}
