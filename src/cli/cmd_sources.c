/* cmd_sources.c - `rngaudit sources`: the machine, then one line per source. */
#include "config.h"

#include <stdio.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "sources/source.h"
#include "sources/widefmt.h"
#include "audit/sysinfo.h"

int cmd_sources(int argc, char **argv)
{
	struct sysinfo si;
	struct err e;

	(void)argv;
	if (argc > 1)
		return cli_error("sources", "unexpected argument '%s' (sources takes none)", argv[1]);
	sysinfo_read(&si, &e);
	printf("cpu: %s family %u (0x%x) model %u (0x%x) stepping %u, microcode ",
	       si.cpu_vendor[0] ? si.cpu_vendor : "unknown", si.cpu_family, si.cpu_family,
	       si.cpu_model, si.cpu_model, si.cpu_stepping);
	if (si.microcode_known)
		printf("0x%lx", si.microcode);
	else
		printf("unknown");
	printf("%s%s\n", si.cpu_model_name[0] ? ", " : "", si.cpu_model_name);
	printf("kernel: %s %s, host %s\n", si.kernel, si.arch, si.hostname);
	printf("\n%-10s %-11s %-16s %5s  %s\n", "SOURCE", "STATUS", "DEVICE", "WIDTH", "OUTPUT");
	for (const char *const *name = source_real_names; *name; name++) {
		struct source_probe p;
		source_probe(*name, &p);
		printf("%-10s %-11s %-16s %5u  %s", p.name, p.available ? "available" : "unavailable",
		       p.device, p.word_bits, p.what[0] ? p.what : source_kind_describe(p.kind));
		if (p.detail[0] && !p.what[0])
			printf(" (driver %s)", p.detail);
		if (!p.available)
			printf(": %s", p.why);
		putchar('\n');
	}
	printf("\nAlso: file:PATH (raw bytes, file:- = stdin), file:PATH,format=F (wide raw samples:\n"
	       "%s) and sim:MODEL (simulated, for tests).\n", WIDEFMT_NAMES);
	return EXIT_OK;
}
