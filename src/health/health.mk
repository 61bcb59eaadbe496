# SPDX-License-Identifier: GPL-3.0-or-later
# health.mk: SP 800-90B 4.4 health tests and the health command (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/health/health.c src/health/health.h \
	src/health/wordcheck.c src/health/wordcheck.h \
	src/health/health_monitor.c src/health/health_monitor.h \
	src/health/budget.c src/health/budget.h \
	src/health/proportion.c src/health/proportion.h \
	src/health/proportion_avx512.c src/health/proportion_avx512.h \
	src/health/health_prom.c src/health/health_prom.h
src_rngaudit_SOURCES += src/cli/cmd_health.c src/cli/health_print.c src/cli/health_print.h \
	src/cli/health_follow.c src/cli/health_follow.h

check_PROGRAMS += tests/test_health
tests_test_health_SOURCES = tests/test_health.c tests/monitor_run.h
tests_test_health_LDADD = $(LIBS_ALL)
TESTS += tests/test_health
check_PROGRAMS += tests/test_wordcheck
tests_test_wordcheck_SOURCES = tests/test_wordcheck.c
tests_test_wordcheck_LDADD = $(LIBS_ALL)
TESTS += tests/test_wordcheck
TESTS += tests/health_cli.sh
dist_check_SCRIPTS += tests/health_cli.sh

# speed figures (run by hand: scripts/bench-health.sh BUILD-DIR)
dist_noinst_SCRIPTS += scripts/bench-health.sh scripts/bench-follow.sh
EXTRA_DIST += scripts/bench-health.c
check_PROGRAMS += tests/test_budget
tests_test_budget_SOURCES = tests/test_budget.c tests/monitor_run.h
tests_test_budget_LDADD = $(LIBS_ALL)
TESTS += tests/test_budget
check_PROGRAMS += tests/test_proportion
tests_test_proportion_SOURCES = tests/test_proportion.c
tests_test_proportion_LDADD = $(LIBS_ALL)
TESTS += tests/test_proportion
