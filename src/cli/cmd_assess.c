/* cmd_assess.c - placeholder until the assess command lands (owner replaces this file). */
#include "config.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

int cmd_assess(int argc, char **argv)
{
	(void)argc; (void)argv;
	return cli_error("assess", "not built yet");
}
