# audit.mk: the decision layer: machine facts, quirk table, policy and the
# per-source verdict (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/audit/sysinfo.c src/audit/sysinfo.h \
	src/audit/quirks.c src/audit/quirks.h \
	src/audit/policy.c src/audit/policy.h \
	src/audit/verdict.c src/audit/verdict.h
