# SPDX-License-Identifier: GPL-3.0-or-later
# predictors.mk: SP 800-90B 6.3.7-6.3.10 predictor estimators (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/estimators/predictor.c src/estimators/predictor.h \
	src/estimators/ctxdict.c src/estimators/ctxdict.h \
	src/estimators/multimcw.c src/estimators/lag.c \
	src/estimators/multimmc.c src/estimators/multimmc_literal.c src/estimators/multimmc.h \
	src/estimators/lz78y.c

check_PROGRAMS += tests/test_predictors
tests_test_predictors_SOURCES = tests/test_predictors.c
tests_test_predictors_LDADD = $(LIBS_ALL)
TESTS += tests/test_predictors
dist_check_DATA += tests/data/predictors/README \
	tests/data/predictors/rand1_short.bin tests/data/predictors/rand1_short.res \
	tests/data/predictors/rand4_short.bin tests/data/predictors/rand4_short.res \
	tests/data/predictors/rand8_short.bin tests/data/predictors/rand8_short.res
EXTRA_DIST += scripts/bench-predictors.sh scripts/bench-predictors.c
