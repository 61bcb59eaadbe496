/* cmd_health.c - placeholder until the health command lands (owner replaces this file). */
#include "config.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

int cmd_health(int argc, char **argv)
{
	(void)argc; (void)argv;
	return cli_error("health", "not built yet");
}
