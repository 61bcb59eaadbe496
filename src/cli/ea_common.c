/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ea_common.c - see ea.h: what the ea_* names share. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/ea.h"
#include "report/nist_json.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} tools[] = {
	{ "ea_non_iid", ea_non_iid },
	{ "ea_iid", ea_iid },
	{ "ea_restart", ea_restart },
	{ "ea_conditioning", ea_conditioning },
};

int ea_dispatch(int argc, char **argv)
{
	const char *base;

	if (argc < 1 || !argv[0])
		return -1;
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		int rc;

		if (strcmp(base, tools[i].name) != 0)
			continue;
		/* a fatal signal removes the JSON's temporary; SIGPIPE keeps its
		 * default action, which ends NIST's tools too */
		cli_install_fatal_handlers();
		rc = tools[i].run(argc, argv);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			if (errno != EPIPE)
				fprintf(stderr, "%s: stdout: write failed: %s\n", base, strerror(errno));
			return EA_EXIT_ERROR;
		}
		return rc;
	}
	return -1;
}

void ea_run_init(struct ea_run *run, const char *name, int argc, char **argv)
{
	memset(run, 0, sizeof *run);
	run->name = name;
	run->commandline = nist_json_commandline(NULL, argc, argv);
	run->started = time(NULL);
}

void ea_run_free(struct ea_run *run)
{
	free(run->commandline);
	run->commandline = NULL;
}

int ea_threads(void)
{
	const char *env = getenv("OMP_NUM_THREADS");
	long n = 0;

	if (env && *env) {
		char *end;

		errno = 0;
		n = strtol(env, &end, 10);
		if (errno != 0 || *end != '\0')
			n = 0;
	}
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int ea_wants_version(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "--version") == 0)
			return 1;
	return 0;
}

int ea_print_version(const char *nist_name)
{
	/* NIST's first line, so that a script reading the version reads
	 * NIST's; NIST's disclaimer is about NIST's software, not this */
	printf("%s %s\n\n", nist_name, NIST_TOOL_VERSION);
	printf("rngaudit %s, run by the name of NIST's tool: its options, outputs and exit "
	       "codes follow NIST's SP800-90B_EntropyAssessment (commit 68ed165); see "
	       "ea_non_iid(1) for the differences.\n\n", PACKAGE_VERSION);
	fflush(stdout);
	return 0;
}

int ea_usage(const char *usage)
{
	fputs(usage, stdout);
	fflush(stdout);
	return EA_EXIT_ERROR;
}

void ea_check_openable(const char *path)
{
	FILE *fp = fopen(path, "rb");

	if (fp)
		fclose(fp);
	else
		fprintf(stderr, "Can't open the provided file name: %s\n", strerror(errno));
}

void ea_print_read_error(const struct nistread *r, const char *path)
{
	switch (r->fail) {
	case NISTREAD_OPEN: printf("Error: could not open '%s'\n", path); break;
	case NISTREAD_SEEK: printf("Error: fseek failed\n"); break;
	case NISTREAD_EMPTY: printf("Error: '%s' is empty\n", path); break;
	case NISTREAD_NOMEM: printf("Error: failure to initialize memory for symbols\n"); break;
	case NISTREAD_READ: printf("Error: file read failure\n"); break;
	case NISTREAD_WIDTH:
		printf("Incorrect bit width specification: Data (%u) does not fit within described "
		       "bit width: %u.\n", r->data_bits, r->bits);
		break;
	case NISTREAD_OK: break;
	}
}

const char *ea_read_error_message(const struct nistread *r, const char *path, char *buf,
				  size_t size)
{
	switch (r->fail) {
	case NISTREAD_OPEN: snprintf(buf, size, "Error: could not open '%s'", path); break;
	case NISTREAD_SEEK: snprintf(buf, size, "Error: fseek failed"); break;
	case NISTREAD_EMPTY: snprintf(buf, size, "Error: '%s' is empty", path); break;
	case NISTREAD_NOMEM: snprintf(buf, size, "Error: failure to initialize memory for symbols");
		break;
	case NISTREAD_READ: snprintf(buf, size, "Error: file read failure"); break;
	case NISTREAD_WIDTH:
		snprintf(buf, size, "Error: Incorrect bit width specification: Data (%u) does not "
			 "fit within described bit width: %u.", r->data_bits, r->bits);
		break;
	case NISTREAD_OK: snprintf(buf, size, "Error reading file."); break;
	}
	return buf;
}

int ea_error(const struct ea_run *run, const char *fmt, ...)
{
	char line[2 * ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "%s: ", run->name);
	cli_put_escaped(stderr, line);
	fputc('\n', stderr);
	return EA_EXIT_ERROR;
}

int ea_json_save(const struct ea_run *run, struct json *doc)
{
	struct err e;
	int rc = 0;

	if (!run->json_path) {
		json_free(doc);
		return 0;
	}
	if (!doc || !run->commandline ||
	    nist_json_stamp(doc, run->commandline, run->started) != 0) {
		json_free(doc);
		return ea_error(run, "%s: out of memory building the JSON report", run->json_path);
	}
	err_clear(&e);
	if (nist_json_write_file(run->json_path, doc, &e) != 0)
		rc = ea_error(run, "%s", e.msg);
	json_free(doc);
	return rc;
}

struct json *ea_json_error(int iid, const char *type, const char *path, const char *sha256,
			   const char *msg)
{
	struct json *cases;
	struct json *doc = nist_json_doc(iid, type, NULL, NULL, &cases);
	int rc;

	if (!doc)
		return NULL;
	/* test_run_base.h writes each of filename and sha256 when not empty */
	rc = json_set_int(doc, "errorLevel", -1);
	rc |= json_set_string(doc, "errorMessage", msg);
	if (path && *path)
		rc |= json_set_string(doc, "filename", path);
	if (sha256 && *sha256)
		rc |= json_set_string(doc, "sha256", sha256);
	rc |= json_set_null(doc, "testCases");
	if (rc != 0) {
		json_free(doc);
		return NULL;
	}
	return doc;
}

int ea_fail_json(const struct ea_run *run, int iid, const char *type, const char *path,
		 const char *sha256, const char *msg)
{
	if (run->json_path)
		ea_json_save(run, ea_json_error(iid, type, path, sha256, msg));
	return EA_EXIT_ERROR;
}

/* -l <index>,<samples>: strtoull in any base, a comma after the index;
 * the size is read up to whatever follows it, as NIST reads it. */
int ea_parse_block(const char *text, unsigned long *index, unsigned long *size)
{
	char *next = NULL;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &next, 0);
	if (v > ULONG_MAX || errno == EINVAL || !next || *next != ',')
		return -1;
	*index = (unsigned long)v;
	errno = 0;
	v = strtoull(next + 1, NULL, 0);
	if (v > ULONG_MAX || errno == EINVAL)
		return -1;
	*size = (unsigned long)v;
	return 0;
}
