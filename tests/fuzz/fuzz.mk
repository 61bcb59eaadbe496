# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz.mk: the libFuzzer targets of the parsers (tests/fuzz/fuzz_*.c), their
# replay over the committed corpus and past crashes in `make check`, and
# `make fuzz` (included by Makefile.am).  HACKING.md ("Fuzzing") says how to
# run a target and keep its corpus.
#
# A new parser gets a target: add NAME to FUZZ_TARGETS, a replay_NAME program
# below, tests/fuzz/fuzz_NAME.c and a seed corpus in tests/fuzz/corpus/NAME/,
# then run scripts/fuzz-corpus-list.sh.
FUZZ_TARGETS = spec numbers policy quirks merge samples conditioning widefmt translate kcmdline kconfig klog ksysfs \
	bundle csvcell

check_PROGRAMS += tests/fuzz/replay_spec tests/fuzz/replay_numbers tests/fuzz/replay_policy tests/fuzz/replay_quirks \
	tests/fuzz/replay_merge tests/fuzz/replay_samples tests/fuzz/replay_conditioning \
	tests/fuzz/replay_widefmt tests/fuzz/replay_translate \
	tests/fuzz/replay_kcmdline tests/fuzz/replay_kconfig tests/fuzz/replay_klog tests/fuzz/replay_ksysfs \
	tests/fuzz/replay_bundle tests/fuzz/replay_csvcell
FUZZ_REPLAY_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_spec_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_spec.c
tests_fuzz_replay_spec_LDADD = $(LIBS_ALL)
tests_fuzz_replay_numbers_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_numbers.c
tests_fuzz_replay_numbers_LDADD = $(LIBS_ALL)
tests_fuzz_replay_policy_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_policy.c
tests_fuzz_replay_policy_LDADD = $(LIBS_ALL)
tests_fuzz_replay_quirks_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_quirks.c
tests_fuzz_replay_quirks_LDADD = $(LIBS_ALL)
tests_fuzz_replay_merge_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_merge.c
tests_fuzz_replay_merge_LDADD = $(LIBS_ALL)
tests_fuzz_replay_samples_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_samples.c
tests_fuzz_replay_samples_LDADD = $(LIBS_ALL)
tests_fuzz_replay_conditioning_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_conditioning.c
tests_fuzz_replay_conditioning_LDADD = $(LIBS_ALL)
tests_fuzz_replay_widefmt_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_widefmt.c
tests_fuzz_replay_widefmt_LDADD = $(LIBS_ALL)
tests_fuzz_replay_translate_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_translate.c
tests_fuzz_replay_translate_LDADD = $(LIBS_ALL)
# the kernel context's parsers (src/audit/kparse.c, kparse_gz.c; issue 15)
tests_fuzz_replay_kcmdline_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_kcmdline.c
tests_fuzz_replay_kcmdline_LDADD = $(LIBS_ALL)
tests_fuzz_replay_kconfig_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_kconfig.c
tests_fuzz_replay_kconfig_LDADD = $(LIBS_ALL)
tests_fuzz_replay_klog_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_klog.c
tests_fuzz_replay_klog_LDADD = $(LIBS_ALL)
tests_fuzz_replay_ksysfs_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_ksysfs.c
tests_fuzz_replay_ksysfs_LDADD = $(LIBS_ALL)
# issue 24: a whole sysroot bundle as --sysroot reads it; the CSV writers'
# spreadsheet neutralisation, round trip through a strict reader
tests_fuzz_replay_bundle_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_bundle.c
tests_fuzz_replay_bundle_LDADD = $(LIBS_ALL)
tests_fuzz_replay_csvcell_SOURCES = $(FUZZ_REPLAY_SOURCES) tests/fuzz/fuzz_csvcell.c
tests_fuzz_replay_csvcell_LDADD = $(LIBS_ALL)

TESTS += tests/fuzz_replay.sh
dist_check_SCRIPTS += tests/fuzz_replay.sh
dist_noinst_SCRIPTS += scripts/fuzz-corpus-list.sh scripts/fuzz-run.sh
EXTRA_DIST += tests/fuzz/fuzz.make
# Every corpus and crash file, listed (no wildcards) so that distcheck replays them.
include $(srcdir)/tests/fuzz/corpus.mk

# `make fuzz`: clang objects of the library in fuzz/ of the build directory,
# apart from the normal (gcc) objects; tests/fuzz/fuzz.make has the rules.
.PHONY: fuzz
fuzz:
	@if test -z '$(FUZZ_CC)'; then \
		echo "make fuzz: unavailable: configure found no clang that links -fsanitize=fuzzer (apt install clang, then configure again)"; \
	else \
		$(MAKE) $(AM_MAKEFLAGS) -f $(top_srcdir)/tests/fuzz/fuzz.make fuzz-all; \
	fi
clean-local: fuzz-clean
.PHONY: fuzz-clean
fuzz-clean:
	rm -rf fuzz
