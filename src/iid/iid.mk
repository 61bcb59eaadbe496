# SPDX-License-Identifier: GPL-3.0-or-later
# iid.mk: SP 800-90B chapter 5 IID track (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/iid/iid.h src/iid/data.c src/iid/shuffle.c src/iid/stats.c \
	src/iid/permutation.c src/iid/chisquare.c src/iid/lrs_test.c \
	src/iid/bzsize.c src/iid/bzsize.h src/iid/bzsize_int.h src/iid/bzcode.c src/iid/bzmtf.c src/iid/tokbwt.c src/iid/tokbwt_int.h src/iid/toksort.c src/iid/stats_bits.c src/iid/stats_int.h
src_rngaudit_SOURCES += src/cli/cmd_iid.c

check_PROGRAMS += tests/test_iid
tests_test_iid_SOURCES = tests/test_iid.c
tests_test_iid_LDADD = $(LIBS_ALL)
TESTS += tests/test_iid tests/iid_cli.sh \
	tests/iid_oracle.sh
dist_check_SCRIPTS += tests/iid_cli.sh tests/iid_oracle.sh
dist_check_DATA += tests/data/iid/README tests/data/iid/rand4_1000.bin \
	tests/data/iid/rand1_1000.bin tests/data/iid/sparse3_1003.bin
# speed of the IID track and the restart test (run by hand: scripts/bench-iid.sh BUILD-DIR)
dist_noinst_SCRIPTS += scripts/bench-iid.sh
# rngaudit against NIST's own tools, issue 28's table (run by hand:
# scripts/bench-vs-nist.sh NIST_DIR BUILD-DIR; bench-all.sh runs it when NIST_DIR is set)
dist_noinst_SCRIPTS += scripts/bench-vs-nist.sh
