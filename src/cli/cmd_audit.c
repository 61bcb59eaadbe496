/* cmd_audit.c - placeholder until the audit command lands (owner replaces this file). */
#include "config.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

int cmd_audit(int argc, char **argv)
{
	(void)argc; (void)argv;
	return cli_error("audit", "not built yet");
}
