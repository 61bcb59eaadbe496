/* cmd_iid.c - placeholder until the iid command lands (owner replaces this file). */
#include "config.h"
#include "cli/cli_util.h"
#include "cli/commands.h"

int cmd_iid(int argc, char **argv)
{
	(void)argc; (void)argv;
	return cli_error("iid", "not built yet");
}
