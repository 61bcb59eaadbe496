# health.mk: SP 800-90B 4.4 health tests and the health command (included by Makefile.am)
src_rngaudit_SOURCES += src/cli/cmd_health.c
