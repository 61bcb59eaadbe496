/* SPDX-License-Identifier: GPL-3.0-or-later */
/* commands.h - every subcommand's entry point (one file each, src/cli/cmd_*.c).
 * Each returns the process exit status: 0 ok / passed, 1 a test or gate
 * failed, 2 usage, bad input or an operational error. */
#ifndef RNGAUDIT_COMMANDS_H
#define RNGAUDIT_COMMANDS_H

int cmd_sources(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_health(int argc, char **argv);
int cmd_assess(int argc, char **argv);
int cmd_iid(int argc, char **argv);
int cmd_restart(int argc, char **argv);
int cmd_conditioning(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_resume_check(int argc, char **argv);
int cmd_translate(int argc, char **argv);

#endif
