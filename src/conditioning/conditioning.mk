# SPDX-License-Identifier: GPL-3.0-or-later
# conditioning.mk: SP 800-90B 3.1.5 entropy after conditioning, the
# conditioning command and its tests (included by Makefile.am)
src_librngaudit_a_SOURCES += src/conditioning/conditioning.c src/conditioning/conditioning.h \
	src/conditioning/hprime.c
src_rngaudit_SOURCES += src/cli/cmd_conditioning.c

check_PROGRAMS += tests/test_conditioning
tests_test_conditioning_SOURCES = tests/test_conditioning.c
tests_test_conditioning_LDADD = $(LIBS_ALL)
TESTS += tests/test_conditioning
