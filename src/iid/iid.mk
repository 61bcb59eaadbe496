# iid.mk: SP 800-90B chapter 5 IID track, 3.1.4 restart, 3.1.5 conditioning (included by Makefile.am)
src_rngaudit_SOURCES += src/cli/cmd_iid.c src/cli/cmd_restart.c src/cli/cmd_conditioning.c
