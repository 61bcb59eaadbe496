/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_plot.c - runs the gnuplot wrapper (scripts/rngaudit-plot.sh) for the
 * commands that draw pictures.  The script reads the CSV the command wrote,
 * so the pictures show exactly what the report says. */
#include "config.h"

#include "cli/cli_plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/datapath.h"

static const char *plot_script_path(char *buf, size_t len)
{
	const char *env = getenv("RNGAUDIT_PLOT_SCRIPT");
	if (env && *env)
		return env;
	return datapath_script("rngaudit-plot.sh", buf, len);
}

int cli_plot_check(const char *cmd, const char *dir)
{
	char pbuf[1024];
	const char *script = plot_script_path(pbuf, sizeof pbuf);
	struct stat st;

	if (!*dir)
		return cli_error(cmd, "--plot: empty directory name");
	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return cli_error(cmd, "--plot %s: not a directory", dir);
		if (access(dir, W_OK | X_OK) != 0)
			return cli_error(cmd, "--plot %s: %s", dir, strerror(errno));
	} else {
		char parent[1100];
		const char *slash = strrchr(dir, '/');
		if (errno != ENOENT)
			return cli_error(cmd, "--plot %s: %s", dir, strerror(errno));
		if ((size_t)snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - dir) : 1,
				     slash ? (slash == dir ? "/" : dir) : ".") >= sizeof parent)
			return cli_error(cmd, "--plot: directory name too long");
		if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode) || access(parent, W_OK | X_OK) != 0)
			return cli_error(cmd, "--plot %s: cannot make it: %s is not a directory that can be "
					 "written", dir, parent);
	}
	if (access(script, R_OK) != 0)
		return cli_error(cmd, "--plot: cannot read the plot script %s: %s", script, strerror(errno));
	return 0;
}

int cli_plot_run(const char *cmd, const char *const *opts, size_t nopts, const char *csv,
		 const char *dir)
{
	char pbuf[1024];
	const char *script = plot_script_path(pbuf, sizeof pbuf);
	const char **argv;
	size_t k = 0;
	pid_t pid;
	int status;

	if (access(script, R_OK) != 0) {
		cli_error(cmd, "--plot: cannot read the plot script %s: %s", script, strerror(errno));
		return -1;
	}
	argv = calloc(nopts + 6, sizeof *argv);
	if (!argv) {
		cli_error(cmd, "--plot: out of memory");
		return -1;
	}
	argv[k++] = "sh";
	argv[k++] = script;
	for (size_t i = 0; i < nopts; i++)
		argv[k++] = opts[i];
	argv[k++] = "--";   /* a CSV named -x is not an option */
	argv[k++] = csv;
	argv[k++] = dir;
	argv[k] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cli_error(cmd, "--plot: fork: %s", strerror(errno));
		free(argv);
		return -1;
	}
	if (pid == 0) {
		execv("/bin/sh", (char *const *)argv);
		_exit(127);
	}
	free(argv);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			cli_error(cmd, "--plot: waiting for the plot script: %s", strerror(errno));
			return -1;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status))
			cli_error(cmd, "--plot: the plot script exited with status %d", WEXITSTATUS(status));
		else
			cli_error(cmd, "--plot: the plot script was killed by signal %d", WTERMSIG(status));
		return -1;
	}
	return 0;
}
