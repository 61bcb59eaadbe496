# estimators.mk: SP 800-90B 6.3.1-6.3.6 estimators, noniid.c and the assess command (included by Makefile.am)
src_rngaudit_SOURCES += src/cli/cmd_assess.c
