# nist.mk: NIST SP800-90B tool compatibility: SHA-256 of the input, the JSON
# writer, the NIST-format text and JSON of the tracks, and the parity tests
# against NIST's outputs (tests/data/nist-68ed165) (included by Makefile.am)
src_librngaudit_a_SOURCES += src/sha256.c src/sha256.h src/report/json.c src/report/json.h \
	src/report/nist_json.c src/report/nist_json.h src/report/nist_noniid.c src/report/nist_noniid.h \
	src/report/nist_iid.c src/report/nist_iid.h src/report/nist_restart.c src/report/nist_restart.h \
	src/report/nist_conditioning.c src/report/nist_conditioning.h
src_rngaudit_SOURCES += src/cli/nist_out.c src/cli/nist_out.h

check_PROGRAMS += tests/test_json
tests_test_json_SOURCES = tests/test_json.c
tests_test_json_LDADD = $(LIBS_ALL)
TESTS += tests/test_json tests/nist_parity.sh
dist_check_SCRIPTS += tests/nist_parity.sh
EXTRA_DIST += tests/data/nist-68ed165
