# predictors.mk: SP 800-90B 6.3.7-6.3.10 predictor estimators (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/estimators/predictor.c src/estimators/predictor.h \
	src/estimators/multimcw.c src/estimators/lag.c \
	src/estimators/multimmc.c src/estimators/lz78y.c
