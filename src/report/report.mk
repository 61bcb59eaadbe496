# report.mk: verdicts, report writers, audit and report commands (included by Makefile.am)
src_rngaudit_SOURCES += src/cli/cmd_audit.c src/cli/cmd_report.c
