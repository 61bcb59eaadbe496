/* cmd_restart.c - placeholder until the restart command lands (owner replaces this file). */
#include "config.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

int cmd_restart(int argc, char **argv)
{
	(void)argc; (void)argv;
	return cli_error("restart", "not built yet");
}
