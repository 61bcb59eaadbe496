/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea.h - NIST's SP800-90B tools by their own names: rngaudit is a
 * multi-call binary, and run as ea_non_iid, ea_iid, ea_restart or
 * ea_conditioning (the links `make install` makes) it takes NIST's flags
 * and arguments, prints NIST's text on stdout (usage text and errors too)
 * and exits as NIST's tools at commit 68ed165 (version 1.1.7) do: 0, or
 * 255 (exit(-1)) for usage errors, bad input and a failed restart test.
 * The differences that remain are rngaudit's own figures (computed in
 * double where NIST uses long double, an exact restart cutoff, seeded
 * shuffles) and NIST's defects it does not keep; ea_non_iid(1) lists them. */
#ifndef RNGAUDIT_EA_H
#define RNGAUDIT_EA_H
#include <stdio.h>
#include <time.h>

#include "engine/nistread.h"
#include "report/json.h"

#define EA_EXIT_ERROR 255   /* NIST's exit(-1) */

/* Runs the NIST tool argv[0] names (its last path component); -1 when it
 * names none of them. */
int ea_dispatch(int argc, char **argv);

int ea_non_iid(int argc, char **argv);
int ea_iid(int argc, char **argv);
int ea_restart(int argc, char **argv);
int ea_conditioning(int argc, char **argv);

/* -l <index>,<samples> of ea_non_iid and ea_iid: strtoull in any base, a
 * comma after the index; the size is read up to whatever follows it, as
 * NIST reads it.  0, or -1 when text is not of that form. */
int ea_parse_block(const char *text, unsigned long *index, unsigned long *size);

/* NIST's print_usage() texts (ea_usage.c). */
extern const char ea_usage_non_iid[], ea_usage_iid[], ea_usage_restart[],
	ea_usage_conditioning[];

/* What every tool notes before parsing: its name for messages, the command
 * line and the time for the JSON (NIST takes both first). */
struct ea_run {
	const char *name;       /* "ea_iid": in error lines on stderr */
	char *commandline;      /* recreateCommandLine: argv as given */
	time_t started;
	const char *json_path;  /* -o, once seen */
};
void ea_run_init(struct ea_run *run, const char *name, int argc, char **argv);
void ea_run_free(struct ea_run *run);

/* Worker threads for the shuffles and simulations: OMP_NUM_THREADS when
 * set to a number (NIST's tools are OpenMP programs), else the online CPUs;
 * 1..64. */
int ea_threads(void);
/* 1 if any argument is exactly "--version" (NIST looks before getopt). */
int ea_wants_version(int argc, char **argv);
/* printVersion(nist_name): "iid 1.1.7", a blank line, then rngaudit's
 * words instead of NIST's disclaimer; returns 0. */
int ea_print_version(const char *nist_name);
/* print_usage(): the text on stdout, then EA_EXIT_ERROR. */
int ea_usage(const char *usage);
/* sha256_file()'s perror when path cannot be opened (stderr). */
void ea_check_openable(const char *path);
/* read_file_subset()'s message on stdout for r->fail. */
void ea_print_read_error(const struct nistread *r, const char *path);
/* The JSON field errorMessage for r->fail (as NIST's testRun->errorMsg,
 * the file name filled in where NIST's printf has it). */
const char *ea_read_error_message(const struct nistread *r, const char *path, char *buf,
				  size_t size);
/* A rngaudit error that NIST's tool would not meet (out of memory, a write
 * error): "NAME: MESSAGE" on stderr; returns EA_EXIT_ERROR. */
int ea_error(const struct ea_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Stamps doc (commandline, dateTimeStamp) and writes it whole to
 * run->json_path, then frees it; nothing when no -o was given.  doc NULL:
 * out of memory.  Returns 0 or EA_EXIT_ERROR (said on stderr). */
int ea_json_save(const struct ea_run *run, struct json *doc);
/* NIST's document for a run that stopped on an error: errorLevel -1,
 * errorMessage msg, testCases null; path and sha256 when known. */
struct json *ea_json_error(int iid, const char *type, const char *path, const char *sha256,
			   const char *msg);
/* Saves ea_json_error(...) when -o was given; returns EA_EXIT_ERROR. */
int ea_fail_json(const struct ea_run *run, int iid, const char *type, const char *path,
		 const char *sha256, const char *msg);
#endif
