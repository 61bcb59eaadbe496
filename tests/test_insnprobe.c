/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_insnprobe.c - the resume check's judgement of RDRAND/RDSEED
 * (service/insnprobe.h): absent, hidden by the kernel, faulty and starved
 * apart, from filled-in probes (no faulty hardware needed), and a real
 * probe of this machine that must not call its instructions faulty. */
#include "config.h"

#include <string.h>

#include "service/insnprobe.h"
#include "tap.h"

/* One judgement: the probe's fields, the verdict and a word of its why. */
static const struct {
	int cpuid, kernel, executes;
	unsigned words, ones, repeats, underflows;
	enum insnprobe_verdict want;
	const char *why_has, *name;
} cases[] = {
	{ 0, 0, 0, 0, 0, 0, 0, INSNPROBE_ABSENT, "not offered", "#UD and no CPUID bit: absent" },
	{ 1, 1, 0, 0, 0, 0, 0, INSNPROBE_FAULTY, "#UD", "#UD although CPUID offers it: faulty" },
	{ 1, 1, 1, 64, 0, 0, 0, INSNPROBE_OK, "64 words", "64 sound words: ok" },
	{ 0, 0, 1, 64, 0, 0, 0, INSNPROBE_HIDDEN, "CPUID",
	  "runs with sound output but CPUID hides it: hidden by the kernel" },
	{ 1, 0, 1, 64, 0, 0, 0, INSNPROBE_HIDDEN, "/proc/cpuinfo",
	  "CPUID offers it, /proc/cpuinfo does not: hidden by the kernel" },
	/* the AMD family 15h/16h fault after resume: all ones with CF=1, the
	 * CPUID bit cleared by the kernel */
	{ 0, 0, 1, 64, 64, 63, 0, INSNPROBE_FAULTY, "hidden by the kernel",
	  "all ones with CF=1 while hidden: faulty, and said to be hidden" },
	{ 1, 1, 1, 64, 0, 2, 0, INSNPROBE_FAULTY, "2 repeats", "two repeated 64-bit words: faulty" },
	{ 1, 1, 1, 64, 0, 1, 0, INSNPROBE_OK, "64 words",
	  "one repeat alone (2^-64 by chance) is not enough" },
	{ 1, 1, 1, 0, 0, 0, 64, INSNPROBE_STARVED, "CF=0", "CF=0 on every try: starved" },
};

int main(void)
{
	struct insnprobe real[2];
	struct err e;
	int rc;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct insnprobe p;
		memset(&p, 0, sizeof p);
		p.name = "rdrand";
		p.cpuid = cases[i].cpuid;
		p.kernel = cases[i].kernel;
		p.executes = cases[i].executes;
		p.words = cases[i].words;
		p.ones = cases[i].ones;
		p.repeats = cases[i].repeats;
		p.underflows = cases[i].underflows;
		p.first = cases[i].ones ? ~0ULL : 0x1234;
		insnprobe_judge(&p);
		tap_ok(p.verdict == cases[i].want && strstr(p.why, cases[i].why_has), "%s (%s)",
		       cases[i].name, p.why);
	}

	rc = insnprobe_run(real, 64, NULL, &e);
	tap_ok(rc == 0 && real[0].verdict != INSNPROBE_FAULTY && real[1].verdict != INSNPROBE_FAULTY,
	       "this machine: rdrand %s (%s); rdseed %s (%s)", insnprobe_describe(real[0].verdict),
	       real[0].why, insnprobe_describe(real[1].verdict), real[1].why);
	tap_ok(insnprobe_run(real, 0, NULL, &e) == ERR_USAGE, "zero words is a usage error");
	return tap_done();
}
