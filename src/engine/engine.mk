# SPDX-License-Identifier: GPL-3.0-or-later
# engine.mk: the sample flow: bytes to samples, the pull loop and its sinks
# (recorder, asynchronous sink) (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/engine/samples.c src/engine/samples.h \
	src/engine/engine.c src/engine/engine.h \
	src/engine/asyncsink.c src/engine/asyncsink.h \
	src/engine/recorder.c src/engine/recorder.h
# 90B 6.4 symbol-space reduction of wide raw samples
src_librngaudit_a_SOURCES += src/engine/translate.c src/engine/translate.h \
	src/engine/widein.c src/engine/widein.h
check_PROGRAMS += tests/test_translate
tests_test_translate_SOURCES = tests/test_translate.c
tests_test_translate_LDADD = $(LIBS_ALL)
TESTS += tests/test_translate
TESTS += tests/translate_cli.sh
dist_check_SCRIPTS += tests/translate_cli.sh
check_PROGRAMS += tests/test_widein
tests_test_widein_SOURCES = tests/test_widein.c
tests_test_widein_LDADD = $(LIBS_ALL)
TESTS += tests/test_widein
EXTRA_DIST += scripts/bench-translate.sh scripts/bench-jitter.sh
dist_man_MANS += man/rngaudit-translate.1
