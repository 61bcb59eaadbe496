/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_util.h - what every command shares: error lines, exit codes, number
 * parsing, signal handling and progress on a terminal.  Only src/cli/ prints. */
#ifndef RNGAUDIT_CLI_UTIL_H
#define RNGAUDIT_CLI_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "outpath.h"

enum {
	EXIT_OK = 0,        /* passed */
	EXIT_FAILED = 1,    /* a test, check or gate failed */
	EXIT_ERROR = 2,     /* usage, bad input, operational error */
};

/* Prints "rngaudit CMD: MESSAGE" as one line on stderr (control characters
 * escaped, see cli_put_escaped); returns EXIT_ERROR. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same line for what is not an error (a warning, a summary); cmd NULL
 * prints "rngaudit: MESSAGE". */
void cli_note(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* input_open()'s notice that it waits for a FIFO or device (on a terminal). */
void cli_wait_notice(const char *msg);
/* Prints e's message the same way; returns EXIT_ERROR. */
int cli_error_err(const char *cmd, const struct err *e);

/* 1 if JOURNAL_STREAM ("dev:inode", set by systemd) names the file open on
 * fd: its lines then go to the journal, which reads a "<N>" syslog
 * priority prefix (sd-daemon(3)); cli_error's lines carry <3> (err). */
int cli_is_journal(int fd);

/* --prom PATH: a warning when PATH (not "-") does not end in .prom, which
 * node_exporter's textfile collector would skip without a word. */
void cli_check_prom_name(const char *cmd, const char *path);

/* Writes s to fp with control characters, C1 controls and bytes that are
 * not UTF-8 escaped as \n, \t, \r, \xHH (report/termtext.h); backslashes
 * stay (the message's parts from input were escaped already). */
void cli_put_escaped(FILE *fp, const char *s);

/* True if argv holds -h or --help before any "--". */
int cli_wants_help(int argc, char **argv);
/* Prints the help text of a command (from the command table) on fp. */
void cli_print_command_help(const char *cmd, FILE *fp);

/* The largest -n any command takes: 10^15 samples is 31 years of a
 * 1 GB/s source, far past any run, and leaves every sample count, byte count
 * and (for 1-bit samples) bit count well inside 64 bits. */
#define CLI_MAX_SAMPLES 1000000000000000ULL
#define CLI_MAX_SAMPLES_TEXT "10^15"

/* -n TEXT for CMD: an exact integer from 1 to CLI_MAX_SAMPLES; else prints
 * one line naming the value and the range and returns EXIT_ERROR. */
int cli_parse_samples(const char *cmd, const char *text, uint64_t *out);

/* A duration: a number of seconds with an optional unit s, m, h, d or y
 * (365.25 days), e.g. "30d", "1y", "0.5"; must be above 0. */
int cli_parse_duration(const char *text, double *seconds);

/* SIGINT/SIGTERM set cli_stop (first signal); a second one restores the
 * default action so a stuck process can still be killed. */
extern volatile sig_atomic_t cli_stop;
void cli_install_stop_handlers(void);
/* Every command starts with these: a signal that ends the process removes
 * our temporaries first (atomicfile_remove_temps), then takes its default
 * action.  cli_install_stop_handlers() turns SIGINT/SIGTERM into cli_stop. */
void cli_install_fatal_handlers(void);

/* Joins a worker thread; once cli_stop is set, wakes it every 100 ms with
 * CLI_WAKE_SIGNAL so that a blocking read returns EINTR and the engine sees
 * the stop (a signal is delivered to one thread, usually not the reader). */
#define CLI_WAKE_SIGNAL SIGURG
void cli_join_stoppable(pthread_t t);

/* Progress on stderr, only when stderr is a terminal. */
struct cli_progress {
	int enabled;
	uint64_t total;          /* 0 if unknown */
	double start;            /* monotonic seconds */
	double last;
	const char *what;
};
/* engine_opts.progress_every for the progress line: after every block.
 * cli_progress_due() holds the lines to four a second by the clock, so a
 * slow source (a virtio hwrng's small blocks, ~10 KB/s) shows progress as
 * often as a fast one; the cost is one clock read per block. */
#define CLI_PROGRESS_EVERY_BLOCK 1
void cli_progress_init(struct cli_progress *p, const char *what, uint64_t total);
void cli_progress_update(void *ctx, uint64_t done, uint64_t bytes);   /* engine callback */
/* 1 when a progress line is due (enabled, and a quarter second since the
 * last): the caller then prints it, starting with '\r'. */
int cli_progress_due(struct cli_progress *p);
void cli_progress_done(struct cli_progress *p);

/* --max-samples TEXT for CMD: 1..SIZE_MAX, else one line and EXIT_ERROR. */
int cli_parse_max_samples(const char *cmd, const char *text, uint64_t *out);
/* Reads the NIST-format file path for CMD, at most max samples (0: the
 * default cap, samples_default_max()), saying on stderr when the cap cut
 * it short.  Returns 0, or EXIT_ERROR after one line. */
int cli_read_samples(const char *cmd, const char *path, uint64_t max, uint8_t **s, size_t *n);

/* Checks a command's outputs before its run (outpath.h): one line and
 * EXIT_ERROR, or 0. */
int cli_check_outputs(const char *cmd, const struct outpath *o, size_t n, unsigned allowed);

/* NIST's -o JSON to stdout: stdout carries one format only, so the JSON
 * keeps it and the text output moves to stderr (fd 1 becomes a copy of
 * fd 2).  Returns the path to write the JSON to ("/dev/fd/N" in buf), or
 * json_path as it was when it does not name stdout. */
const char *cli_json_stdout_split(const char *json_path, char *buf, size_t len);

/* After a command: flushes stdout; a write that failed (EPIPE, ENOSPC)
 * turns rc into EXIT_ERROR (with one line, except for EPIPE). */
int cli_finish_stdout(int rc);

double cli_now(void);   /* monotonic seconds */

/* A rate in units that fit it: "850 B/s", "9.8 KB/s", "412 MB/s", "2.1 GB/s". */
const char *cli_format_rate(double bytes_per_second, char *buf, size_t len);

/* RNGAUDIT_SYSROOT when set and not empty (the default of --sysroot), else NULL. */
const char *cli_sysroot_env(void);

#endif
