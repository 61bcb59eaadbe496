# SPDX-License-Identifier: GPL-3.0-or-later
# restart.mk: SP 800-90B 3.1.4 restart tests, the restart command and its
# tests (included by Makefile.am)
src_librngaudit_a_SOURCES += src/restart/restart.c src/restart/restart.h src/restart/restart_iid.c
src_rngaudit_SOURCES += src/cli/cmd_restart.c

check_PROGRAMS += tests/test_restart
tests_test_restart_SOURCES = tests/test_restart.c
tests_test_restart_LDADD = $(LIBS_ALL)
TESTS += tests/test_restart
