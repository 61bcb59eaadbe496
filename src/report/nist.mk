# SPDX-License-Identifier: GPL-3.0-or-later
# nist.mk: NIST SP800-90B tool compatibility: SHA-256 of the input, the JSON
# writer, the NIST-format text and JSON of the tracks, and the parity tests
# against NIST's outputs (tests/data/nist-68ed165) (included by Makefile.am)
src_librngaudit_a_SOURCES += src/sha256.c src/sha256.h src/sha256_int.h src/sha256_shani.c \
	src/report/json.c src/report/json.h src/report/nist_json.c src/report/nist_json.h \
	src/report/nist_noniid.c src/report/nist_noniid.h \
	src/report/nist_iid.c src/report/nist_iid.h src/report/nist_restart.c src/report/nist_restart.h \
	src/report/nist_conditioning.c src/report/nist_conditioning.h
src_rngaudit_SOURCES += src/cli/nist_out.c src/cli/nist_out.h
# NIST's tools by their own names: rngaudit run as ea_non_iid, ea_iid,
# ea_restart or ea_conditioning (links made by install-exec-hook below)
src_librngaudit_a_SOURCES += src/engine/nistread.c src/engine/nistread.h
src_rngaudit_SOURCES += src/cli/ea.h src/cli/ea_common.c src/cli/ea_usage.c src/cli/ea_non_iid.c \
	src/cli/ea_iid.c src/cli/ea_restart.c src/cli/ea_conditioning.c
# one page for the four names: ea_non_iid.1, the others links to it
dist_man_MANS += man/ea_non_iid.1
EA_NAMES = ea_non_iid ea_iid ea_restart ea_conditioning
EA_MAN_LINKS = ea_iid.1 ea_restart.1 ea_conditioning.1
install-exec-hook: install-ea-links
install-ea-links:
	cd "$(DESTDIR)$(bindir)" && for n in $(EA_NAMES); do \
		rm -f "$$n$(EXEEXT)" && $(LN_S) "rngaudit$(EXEEXT)" "$$n$(EXEEXT)" || exit 1; \
	done
install-data-hook: install-ea-man-links
install-ea-man-links:
	cd "$(DESTDIR)$(man1dir)" && for m in $(EA_MAN_LINKS); do \
		rm -f "$$m" && $(LN_S) ea_non_iid.1 "$$m" || exit 1; \
	done
uninstall-hook: uninstall-ea-links
uninstall-ea-links:
	cd "$(DESTDIR)$(bindir)" && for n in $(EA_NAMES); do rm -f "$$n$(EXEEXT)"; done
	cd "$(DESTDIR)$(man1dir)" && rm -f $(EA_MAN_LINKS)
.PHONY: install-ea-links install-ea-man-links uninstall-ea-links

check_PROGRAMS += tests/test_json tests/test_nistread
tests_test_nistread_SOURCES = tests/test_nistread.c
tests_test_nistread_LDADD = $(LIBS_ALL)
tests_test_json_SOURCES = tests/test_json.c
tests_test_json_LDADD = $(LIBS_ALL)
TESTS += tests/test_json tests/test_nistread tests/nist_parity.sh tests/ea_names.sh
dist_check_SCRIPTS += tests/nist_parity.sh tests/nist_compare.sh tests/ea_names.sh
EXTRA_DIST += tests/data/nist-68ed165
