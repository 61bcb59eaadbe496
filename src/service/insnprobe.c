/* SPDX-License-Identifier: GPL-3.0-or-later */
/* insnprobe.c - RDRAND/RDSEED tried directly under a SIGILL guard (see
 * insnprobe.h). */
#include "config.h"

#include "service/insnprobe.h"

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#define INSNPROBE_X86 1
#else
#define INSNPROBE_X86 0
#endif

/* Intel's DRNG guide: retry RDRAND up to 10 times on CF=0 (a healthy part
 * "practically never" underflows that often); RDSEED underflows far more,
 * so both get 64 here, and a probe that never succeeds says starved. */
#define INSNPROBE_RETRIES 64

static sigjmp_buf insnprobe_jmp;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(insnprobe_jmp, 1);
}

#if INSNPROBE_X86
__attribute__((target("rdrnd")))
static int try_rdrand(uint64_t *v)
{
	unsigned char ok;
	unsigned long long x;
	__asm__ volatile("rdrand %0; setc %1" : "=r"(x), "=qm"(ok) : : "cc");
	*v = x;
	return ok;
}

__attribute__((target("rdseed")))
static int try_rdseed(uint64_t *v)
{
	unsigned char ok;
	unsigned long long x;
	__asm__ volatile("rdseed %0; setc %1" : "=r"(x), "=qm"(ok) : : "cc");
	*v = x;
	return ok;
}

static void cpuid_bits(int *rdrand, int *rdseed)
{
	unsigned a, b, c, d;
	*rdrand = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_RDRND);
	*rdseed = 0;
	if (__get_cpuid_max(0, NULL) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		*rdseed = (b & bit_RDSEED) != 0;
	}
}
#else
static int try_rdrand(uint64_t *v) { (void)v; raise(SIGILL); return 0; }
static int try_rdseed(uint64_t *v) { (void)v; raise(SIGILL); return 0; }
static void cpuid_bits(int *rdrand, int *rdseed) { *rdrand = *rdseed = 0; }
#endif

/* 1 if the "flags" line of cpuinfo lists flag, 0 if not, -1 if unreadable. */
static int cpuinfo_flag(const char *path, const char *flag)
{
	char line[4096];
	FILE *fp = fopen(path, "r");
	int found = -1;
	if (!fp)
		return -1;
	while (fgets(line, sizeof line, fp)) {
		char *tok, *save = NULL;
		if (strncmp(line, "flags", 5) != 0)
			continue;
		found = 0;
		for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (strcmp(tok, flag) == 0)
				found = 1;
		break;
	}
	fclose(fp);
	return found;
}

/* Draws up to `words` words; returns 0, or 1 if the instruction raised #UD. */
static int probe_draw(struct insnprobe *p, int (*draw)(uint64_t *), unsigned words)
{
	struct sigaction sa, old;
	volatile unsigned got = 0;
	volatile uint64_t prev = 0;   /* kept across a longjmp from the SIGILL handler */
	int ud;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigill;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	ud = sigsetjmp(insnprobe_jmp, 1);
	if (!ud) {
		for (unsigned w = 0; w < words; w++) {
			uint64_t v = 0;
			int ok = 0;
			for (unsigned r = 0; r < INSNPROBE_RETRIES && !ok; r++) {
				ok = draw(&v);
				if (!ok)
					p->underflows++;
			}
			if (!ok)
				break;
			if (got == 0)
				p->first = v;
			else if (v == prev)
				p->repeats++;
			p->ones += v == ~0ULL;
			p->zeros += v == 0;
			prev = v;
			got = got + 1;
		}
	}
	sigaction(SIGILL, &old, NULL);
	p->words = got;
	p->executes = !ud;
	return ud;
}

void insnprobe_judge(struct insnprobe *p)
{
	int hidden = !p->cpuid || p->kernel == 0;
	if (!p->executes) {
		p->verdict = p->cpuid ? INSNPROBE_FAULTY : INSNPROBE_ABSENT;
		snprintf(p->why, sizeof p->why, p->cpuid ? "CPUID offers it but it raises #UD"
							 : "not offered by the CPU (raises #UD)");
		return;
	}
	if (p->words == 0) {
		p->verdict = INSNPROBE_STARVED;
		snprintf(p->why, sizeof p->why, "CF=0 on all %u tries: no output", p->underflows);
		return;
	}
	/* a full-entropy 64-bit word is all ones, all zeros or equal to the one
	 * before with probability 2^-64 each: two such in a few dozen words is a
	 * fault, not chance */
	if (p->ones + p->zeros + p->repeats >= 2 || (p->words == 1 && (p->ones || p->zeros))) {
		p->verdict = INSNPROBE_FAULTY;
		snprintf(p->why, sizeof p->why,
			 "%u of %u words with CF=1 were all ones, %u all zeros, %u repeats "
			 "(first 0x%016llx)%s", p->ones, p->words, p->zeros, p->repeats,
			 (unsigned long long)p->first, hidden ? "; hidden by the kernel" : "");
		return;
	}
	if (hidden) {
		p->verdict = INSNPROBE_HIDDEN;
		snprintf(p->why, sizeof p->why, "runs and its %u words look sound, but %s hides it",
			 p->words, !p->cpuid ? "CPUID" : "the kernel (/proc/cpuinfo)");
		return;
	}
	p->verdict = INSNPROBE_OK;
	snprintf(p->why, sizeof p->why, "%u words, none all ones, all zeros or repeated", p->words);
}

int insnprobe_run(struct insnprobe out[2], unsigned words, const char *cpuinfo, struct err *e)
{
	int cr, cs;
	if (words == 0)
		return err_set(e, ERR_USAGE, "resume check: at least one word per instruction");
	memset(out, 0, 2 * sizeof out[0]);
	out[0].name = "rdrand";
	out[1].name = "rdseed";
	cpuid_bits(&cr, &cs);
	out[0].cpuid = cr;
	out[1].cpuid = cs;
	out[0].kernel = cpuinfo_flag(cpuinfo ? cpuinfo : "/proc/cpuinfo", "rdrand");
	out[1].kernel = cpuinfo_flag(cpuinfo ? cpuinfo : "/proc/cpuinfo", "rdseed");
	probe_draw(&out[0], try_rdrand, words);
	probe_draw(&out[1], try_rdseed, words);
	insnprobe_judge(&out[0]);
	insnprobe_judge(&out[1]);
	return 0;
}

const char *insnprobe_describe(enum insnprobe_verdict v)
{
	switch (v) {
	case INSNPROBE_ABSENT: return "absent";
	case INSNPROBE_OK: return "ok";
	case INSNPROBE_HIDDEN: return "hidden by the kernel";
	case INSNPROBE_STARVED: return "starved";
	default: return "FAULTY";
	}
}
