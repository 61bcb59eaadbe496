# estimators.mk: SP 800-90B 6.3.1-6.3.6 estimators, noniid.c and the assess command (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/estimators/estimators.c src/estimators/estimators.h \
	src/estimators/mcv.c src/estimators/collision.c src/estimators/markov.c \
	src/estimators/compression.c src/estimators/tuple.c src/estimators/tuple.h
# noniid.c joins once the predictors (predictors.mk) are in the library:
# EST_PENDING src/estimators/noniid.c src/estimators/noniid.h
src_rngaudit_SOURCES += src/cli/cmd_assess.c
