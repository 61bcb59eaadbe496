# SPDX-License-Identifier: GPL-3.0-or-later
# core.mk: errors, atomic files, sources and the sources/collect commands (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/err.c src/err.h \
	src/bigmem.c src/bigmem.h \
	src/parse.c src/parse.h \
	src/input.c src/input.h \
	src/atomicfile.c src/atomicfile.h \
	src/outpath.c src/outpath.h \
	src/bitops.h \
	src/sources/source.c src/sources/source.h src/sources/backend.h \
	src/sources/spec.c src/sources/spec.h \
	src/sources/x86rng.c src/sources/x86rng.h src/sources/hwrng.c src/sources/getrandom.c \
	src/sources/file.c src/sources/sim.c \
	src/sources/widefmt.c src/sources/widefmt.h src/sources/widefile.c \
	src/sources/jitter.c src/sources/chaoskey.c src/sources/chaoskey.h src/sources/chaoskey_usb.c \
	src/sources/cpurng.c src/sources/cpurng.h src/sources/cpurng_sim.c
# One file per architecture's CPU RNG instructions (configure.ac: CPURNG_*).
if CPURNG_ARM64
src_librngaudit_a_SOURCES += src/sources/cpurng_arm64.c
endif
if CPURNG_PPC64
src_librngaudit_a_SOURCES += src/sources/cpurng_ppc64.c
endif
if CPURNG_S390X
src_librngaudit_a_SOURCES += src/sources/cpurng_s390x.c
endif
if CPURNG_RISCV64
src_librngaudit_a_SOURCES += src/sources/cpurng_riscv64.c
endif
if CPURNG_NONE
src_librngaudit_a_SOURCES += src/sources/cpurng_none.c
endif
src_rngaudit_SOURCES += src/cli/cmd_sources.c src/cli/cmd_collect.c src/cli/cmd_translate.c \
	src/cli/cli_wide.c src/cli/cli_wide.h
check_PROGRAMS += tests/test_widefmt
tests_test_widefmt_SOURCES = tests/test_widefmt.c
tests_test_widefmt_LDADD = $(LIBS_ALL)
TESTS += tests/test_widefmt
check_PROGRAMS += tests/test_jitter
tests_test_jitter_SOURCES = tests/test_jitter.c
tests_test_jitter_LDADD = $(LIBS_ALL)
TESTS += tests/test_jitter tests/jitter_cli.sh
dist_check_SCRIPTS += tests/jitter_cli.sh
check_PROGRAMS += tests/test_chaoskey
tests_test_chaoskey_SOURCES = tests/test_chaoskey.c
tests_test_chaoskey_LDADD = $(LIBS_ALL)
TESTS += tests/test_chaoskey
# the cross-built runs under qemu-user (run by hand or by CI: scripts/cross-check.sh ARCH)
dist_noinst_SCRIPTS += scripts/cross-check.sh
check_PROGRAMS += tests/test_cpurng
tests_test_cpurng_SOURCES = tests/test_cpurng.c
tests_test_cpurng_LDADD = $(LIBS_ALL)
TESTS += tests/test_cpurng tests/cpurng_cli.sh
dist_check_SCRIPTS += tests/cpurng_cli.sh
