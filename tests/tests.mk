# SPDX-License-Identifier: GPL-3.0-or-later
# tests.mk: unit tests of the core modules and CLI end-to-end tests (included by Makefile.am)
check_PROGRAMS += tests/test_samples tests/test_sources tests/test_engine tests/test_atomicfile tests/test_asyncsink tests/test_parse
tests_test_parse_SOURCES = tests/test_parse.c
tests_test_parse_LDADD = $(LIBS_ALL)
tests_test_asyncsink_SOURCES = tests/test_asyncsink.c
tests_test_asyncsink_LDADD = $(LIBS_ALL)
tests_test_atomicfile_SOURCES = tests/test_atomicfile.c
tests_test_atomicfile_LDADD = $(LIBS_ALL)
tests_test_engine_SOURCES = tests/test_engine.c
tests_test_engine_LDADD = $(LIBS_ALL)
tests_test_samples_SOURCES = tests/test_samples.c
tests_test_samples_LDADD = $(LIBS_ALL)
tests_test_sources_SOURCES = tests/test_sources.c
tests_test_sources_LDADD = $(LIBS_ALL)
TESTS += tests/test_parse tests/test_samples tests/test_sources tests/test_engine tests/test_atomicfile tests/test_asyncsink tests/cli_collect.sh tests/cli_main.sh tests/cli_hardening.sh
dist_check_SCRIPTS += tests/cli_collect.sh tests/cli_main.sh tests/cli_hardening.sh
EXTRA_DIST += HACKING.md tests/data/nist-oracle scripts/bench-collect.sh scripts/bench-lib.sh \
	scripts/bench-all.sh scripts/baseline-rng.c scripts/install-deps.sh scripts/valgrind-wrap.sh
# bigmem: zeroed buffers on huge pages (issue 28)
check_PROGRAMS += tests/test_bigmem
tests_test_bigmem_SOURCES = tests/test_bigmem.c
tests_test_bigmem_LDADD = $(LIBS_ALL)
TESTS += tests/test_bigmem
# sha256: FIPS 180-4 vectors, the SHA-extension path against the portable one
check_PROGRAMS += tests/test_sha256
tests_test_sha256_SOURCES = tests/test_sha256.c
tests_test_sha256_LDADD = $(LIBS_ALL)
TESTS += tests/test_sha256
# err_escape(): input echoed in messages (issue 17)
check_PROGRAMS += tests/test_err
tests_test_err_SOURCES = tests/test_err.c
tests_test_err_LDADD = $(LIBS_ALL)
TESTS += tests/test_err
# The JUnit report against its schema, Jenkins' grouping and GitLab's keys
TESTS += tests/junit_check.sh
dist_check_SCRIPTS += tests/junit_check.sh
dist_check_DATA += tests/data/rngaudit-junit.xsd
# the Prometheus textfiles: format edge cases, and promtool on live files (issue 18)
check_PROGRAMS += tests/test_prom
tests_test_prom_SOURCES = tests/test_prom.c
tests_test_prom_LDADD = $(LIBS_ALL)
TESTS += tests/test_prom tests/prom_check.sh
check_PROGRAMS += tests/test_xmltext
tests_test_xmltext_SOURCES = tests/test_xmltext.c
tests_test_xmltext_LDADD = $(LIBS_ALL)
TESTS += tests/test_xmltext
dist_check_SCRIPTS += tests/prom_check.sh
# a live run's temporary is never removed by another run (issue 24 item 6)
TESTS += tests/tempfile_cli.sh
dist_check_SCRIPTS += tests/tempfile_cli.sh
# small bad inputs refused up front in one line (issue 24 item 7)
TESTS += tests/options_cli.sh
dist_check_SCRIPTS += tests/options_cli.sh
# every run bounded by the machine (issue 24 item 4)
TESTS += tests/bounded_cli.sh
dist_check_SCRIPTS += tests/bounded_cli.sh
# interrupted or failed means non-zero, nothing lost silently (issue 24 item 5)
TESTS += tests/signals_cli.sh
dist_check_SCRIPTS += tests/signals_cli.sh
check_PROGRAMS += tests/test_outpath
tests_test_outpath_SOURCES = tests/test_outpath.c
tests_test_outpath_LDADD = $(LIBS_ALL)
TESTS += tests/test_outpath
