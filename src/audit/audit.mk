# SPDX-License-Identifier: GPL-3.0-or-later
# audit.mk: the decision layer: machine facts, quirk table, policy and the
# per-source verdict (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/audit/sysinfo.c src/audit/sysinfo.h \
	src/audit/quirks.c src/audit/quirks.h \
	src/audit/policy.c src/audit/policy.h \
	src/audit/verdict.c src/audit/verdict.h
src_librngaudit_a_SOURCES += \
	src/audit/kparse.c src/audit/kparse_gz.c src/audit/kparse.h src/audit/kversion.c src/audit/kversion.h \
	src/audit/kfacts.c src/audit/kfacts.h \
	src/audit/sysroot.c src/audit/sysroot.h \
	src/audit/kernel.c src/audit/kernel.h src/audit/kernel_dev.c src/audit/kernel_int.h \
	src/audit/bundle_save.c \
	src/audit/trust.c src/audit/trust.h \
	src/audit/audit_job.c src/audit/audit_job.h \
	src/audit/baseline.c src/audit/baseline.h src/audit/baseline_table.c \
	src/audit/classify.c src/audit/classify.h \
	src/audit/cpurng_arch.c src/audit/cpurng_arch.h

check_PROGRAMS += tests/test_kernel
tests_test_kernel_SOURCES = tests/test_kernel.c
tests_test_kernel_LDADD = $(LIBS_ALL)
TESTS += tests/test_kernel tests/kernel_cli.sh tests/trust_cli.sh tests/kfacts_cli.sh
dist_check_SCRIPTS += tests/kernel_cli.sh tests/trust_cli.sh tests/kfacts_cli.sh
# fixture sysroots: kernels of several eras, a Zen 5 host, empty and malformed
EXTRA_DIST += tests/data/sysroot tests/data/merge
check_PROGRAMS += tests/test_trust
tests_test_trust_SOURCES = tests/test_trust.c
tests_test_trust_LDADD = $(LIBS_ALL)
TESTS += tests/test_trust
# the ideal-source baseline (issue 23): its small cells recomputed bit for
# bit; scripts/ideal-baseline.sh regenerates the whole table
check_PROGRAMS += tests/test_baseline
tests_test_baseline_SOURCES = tests/test_baseline.c
tests_test_baseline_LDADD = $(LIBS_ALL)
TESTS += tests/test_baseline
dist_noinst_SCRIPTS += scripts/ideal-baseline.sh
check_PROGRAMS += tests/test_cpurng_arch
tests_test_cpurng_arch_SOURCES = tests/test_cpurng_arch.c
tests_test_cpurng_arch_LDADD = $(LIBS_ALL)
TESTS += tests/test_cpurng_arch
# the bundle reader opens nothing but regular files inside it (issue 24)
check_PROGRAMS += tests/test_sysroot
tests_test_sysroot_SOURCES = tests/test_sysroot.c
tests_test_sysroot_LDADD = $(LIBS_ALL)
TESTS += tests/test_sysroot
TESTS += tests/bundle_cli.sh
dist_check_SCRIPTS += tests/bundle_cli.sh
# an audit job bounded by the machine (issue 24 item 4)
check_PROGRAMS += tests/test_audit_job
tests_test_audit_job_SOURCES = tests/test_audit_job.c
tests_test_audit_job_LDADD = $(LIBS_ALL)
TESTS += tests/test_audit_job
