/* cmd_report.c - placeholder until the report command lands (owner replaces this file). */
#include "config.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

int cmd_report(int argc, char **argv)
{
	(void)argc; (void)argv;
	return cli_error("report", "not built yet");
}
