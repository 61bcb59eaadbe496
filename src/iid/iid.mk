# iid.mk: SP 800-90B chapter 5 IID track, 3.1.4 restart, 3.1.5 conditioning (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/iid/iid.h src/iid/data.c src/iid/shuffle.c src/iid/stats.c \
	src/iid/permutation.c src/iid/chisquare.c src/iid/lrs_test.c \
	src/conditioning.c src/conditioning.h
src_rngaudit_SOURCES += src/cli/cmd_iid.c src/cli/cmd_restart.c src/cli/cmd_conditioning.c
