# report.mk: verdicts, policy, quirk table, report writers, fleet merge and
# the audit and report commands (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/policy.c src/policy.h \
	src/quirks.c src/quirks.h \
	src/verdict.c src/verdict.h \
	src/report/report.h src/report/text.c src/report/csv.c src/report/junit.c \
	src/report/prom.c src/report/merge.c
src_rngaudit_SOURCES += src/cli/cmd_audit.c src/cli/cmd_report.c
