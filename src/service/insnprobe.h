/* SPDX-License-Identifier: GPL-3.0-or-later */
/* insnprobe.h - RDRAND and RDSEED executed directly, under a SIGILL guard,
 * for the check right after resume.
 *
 * AMD family 15h/16h parts can return all ones with CF=1 from RDRAND after
 * a suspend/resume cycle (the fault appears only after resume; Linux then
 * hides the CPUID bit).  So the instructions are tried whatever CPUID and
 * /proc/cpuinfo say: an instruction that runs although the kernel hid it is
 * "hidden by the kernel", apart from one whose output is faulty.  The probe
 * installs a SIGILL handler while it runs (not thread-safe: call it from a
 * single-threaded command).
 */
#ifndef RNGAUDIT_INSNPROBE_H
#define RNGAUDIT_INSNPROBE_H

#include <stdint.h>

#include "err.h"

enum insnprobe_verdict {
	INSNPROBE_ABSENT,        /* raises #UD and CPUID does not offer it */
	INSNPROBE_OK,
	INSNPROBE_HIDDEN,        /* runs, output fine, but CPUID or the kernel hides it */
	INSNPROBE_STARVED,       /* CF=0 on every retry: no output (RDSEED under load) */
	INSNPROBE_FAULTY,        /* bad output with CF=1, or #UD although CPUID offers it */
};

struct insnprobe {
	const char *name;        /* "rdrand" or "rdseed" */
	int cpuid;               /* CPUID offers it (as user space sees CPUID) */
	int kernel;              /* /proc/cpuinfo lists it (-1: unknown) */
	int executes;            /* ran without #UD */
	unsigned words;          /* words delivered with CF=1 */
	unsigned underflows;     /* CF=0 results */
	unsigned ones, zeros;    /* all-ones / all-zero words with CF=1 */
	unsigned repeats;        /* words equal to the one before */
	uint64_t first;          /* the first word */
	enum insnprobe_verdict verdict;
	char why[160];           /* one line */
};

/* Probes RDRAND and RDSEED, `words` 64-bit words each (at most 64 CF=0
 * retries per word, as Intel's guide suggests 10 for RDRAND and more for
 * RDSEED).  cpuinfo: the path of /proc/cpuinfo (NULL: the real one). */
int insnprobe_run(struct insnprobe out[2], unsigned words, const char *cpuinfo, struct err *e);

/* Sets verdict and why from the other fields (insnprobe_run calls it;
 * exposed so that the judgement can be tested without faulty hardware). */
void insnprobe_judge(struct insnprobe *p);

const char *insnprobe_describe(enum insnprobe_verdict v);

#endif
