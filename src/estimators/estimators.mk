# SPDX-License-Identifier: GPL-3.0-or-later
# estimators.mk: SP 800-90B 6.3.1-6.3.6 estimators, noniid.c and the assess command (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/estimators/estimators.c src/estimators/estimators.h \
	src/estimators/mcv.c src/estimators/collision.c src/estimators/markov.c \
	src/estimators/compression.c src/estimators/tuple.c src/estimators/tuple_max.c src/estimators/tuple.h \
	src/estimators/estsimd.h src/estimators/tuple_count.c src/estimators/tuple_dist.c src/estimators/tuple_dist.h src/estimators/tuple_period.c src/estimators/tuple_prefix.c src/estimators/tuple_prefix.h src/estimators/tuple_packed.c src/estimators/tuple_ties.c src/estimators/tuple_ties.h src/estimators/tuple_runs.c src/estimators/deeprank.c src/estimators/deeprank.h \
	src/estimators/lcparray.c src/estimators/lcparray.h \
	src/estimators/lcpint.c src/estimators/lcpint.h \
	src/estimators/lcpshallow.c src/estimators/lcpshallow.h \
	src/estimators/noniid.c src/estimators/noniid.h
src_rngaudit_SOURCES += src/cli/cmd_assess.c
# speed and memory of assess -a on 1M 8-bit samples (run by hand: scripts/bench-assess.sh BUILD-DIR)
dist_noinst_SCRIPTS += scripts/bench-assess.sh
# assess -a on degenerate inputs against random data, 1M and 10M samples (issue 28)
dist_noinst_SCRIPTS += scripts/bench-degenerate.sh

check_PROGRAMS += tests/test_est_estimators tests/test_est_tuple tests/test_est_noniid
tests_test_est_estimators_SOURCES = tests/test_est_estimators.c
tests_test_est_estimators_LDADD = $(LIBS_ALL)
tests_test_est_tuple_SOURCES = tests/test_est_tuple.c
tests_test_est_tuple_LDADD = $(LIBS_ALL)
tests_test_est_noniid_SOURCES = tests/test_est_noniid.c
tests_test_est_noniid_LDADD = $(LIBS_ALL)
TESTS += tests/test_est_estimators tests/test_est_tuple tests/test_est_noniid \
	tests/cli_assess.sh tests/nist_refdata.sh
dist_check_SCRIPTS += tests/cli_assess.sh tests/nist_refdata.sh
dist_check_DATA += tests/data/nist-90b/README.md \
	tests/data/nist-90b/bin/biased-random-bits.bin tests/data/nist-90b/refdata/biased-random-bits.res \
	tests/data/nist-90b/bin/biased-random-bytes.bin tests/data/nist-90b/refdata/biased-random-bytes.res \
	tests/data/nist-90b/bin/data.pi.bin tests/data/nist-90b/refdata/data.pi.res \
	tests/data/nist-90b/bin/normal.bin tests/data/nist-90b/refdata/normal.res \
	tests/data/nist-90b/bin/rand1_short.bin tests/data/nist-90b/refdata/rand1_short.res \
	tests/data/nist-90b/bin/rand4_short.bin tests/data/nist-90b/refdata/rand4_short.res \
	tests/data/nist-90b/bin/rand8_short.bin tests/data/nist-90b/refdata/rand8_short.res \
	tests/data/nist-90b/bin/ringOsc-nist.bin tests/data/nist-90b/refdata/ringOsc-nist.res \
	tests/data/nist-90b/bin/truerand_1bit.bin tests/data/nist-90b/refdata/truerand_1bit.res \
	tests/data/nist-90b/bin/truerand_4bit.bin tests/data/nist-90b/refdata/truerand_4bit.res \
	tests/data/nist-90b/bin/truerand_8bit.bin tests/data/nist-90b/refdata/truerand_8bit.res
