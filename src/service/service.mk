# SPDX-License-Identifier: GPL-3.0-or-later
# service.mk: rngaudit as a service - the resume check, the systemd units,
# sleep hook, sysusers/tmpfiles entries and udev rule (data/systemd/), and
# their tests (included by Makefile.am).  Install directories come from
# configure (--with-systemdsystemunitdir and friends; "no" leaves one out).
src_librngaudit_a_SOURCES += src/service/insnprobe.c src/service/insnprobe.h
src_rngaudit_SOURCES += src/cli/cmd_resume_check.c
dist_man_MANS += man/rngaudit-resume-check.1

service_in = data/systemd/rngaudit-health@.service.in data/systemd/rngaudit-audit.service.in \
	data/systemd/rngaudit-resume.in
service_gen = data/systemd/rngaudit-health@.service data/systemd/rngaudit-audit.service \
	data/systemd/rngaudit-resume
EXTRA_DIST += $(service_in) data/systemd/rngaudit-audit.timer data/systemd/rngaudit.sysusers \
	data/systemd/rngaudit.tmpfiles data/systemd/60-rngaudit.rules \
	data/systemd/health-chaoskey0.conf

# Run by the units as root before their sandbox (ExecStartPre=+): the
# textfiles' links in node_exporter's directory.
dist_pkglibexec_SCRIPTS = data/systemd/rngaudit-textfile
# The per-instance drop-in of the health template for the ChaosKey's
# whitened output at /dev/chaoskey0 (the instance name is systemd-escape's
# of hwrng:device=/dev/chaoskey0).
dropin_ck0 = rngaudit-health@hwrng:device\x3d-dev-chaoskey0.service.d
CLEANFILES = $(service_gen)
noinst_DATA = $(service_gen)

# @bindir@ as configured (make's value, so that `make bindir=...` holds)
service_subst = sed -e 's|@[b]indir@|$(bindir)|g' -e 's|@[p]kglibexecdir@|$(pkglibexecdir)|g'
data/systemd/rngaudit-health@.service: $(srcdir)/data/systemd/rngaudit-health@.service.in Makefile
	$(MKDIR_P) data/systemd && $(service_subst) $(srcdir)/data/systemd/rngaudit-health@.service.in >$@
data/systemd/rngaudit-audit.service: $(srcdir)/data/systemd/rngaudit-audit.service.in Makefile
	$(MKDIR_P) data/systemd && $(service_subst) $(srcdir)/data/systemd/rngaudit-audit.service.in >$@
data/systemd/rngaudit-resume: $(srcdir)/data/systemd/rngaudit-resume.in Makefile
	$(MKDIR_P) data/systemd && $(service_subst) $(srcdir)/data/systemd/rngaudit-resume.in >$@ && chmod +x $@

install-data-local: install-service-files
uninstall-local: uninstall-service-files
install-service-files: $(service_gen)
if HAVE_SYSTEMD_UNITS
	$(MKDIR_P) '$(DESTDIR)$(systemdsystemunitdir)'
	$(INSTALL_DATA) data/systemd/rngaudit-health@.service data/systemd/rngaudit-audit.service \
		$(srcdir)/data/systemd/rngaudit-audit.timer '$(DESTDIR)$(systemdsystemunitdir)'
	$(MKDIR_P) '$(DESTDIR)$(systemdsystemunitdir)/$(dropin_ck0)'
	$(INSTALL_DATA) $(srcdir)/data/systemd/health-chaoskey0.conf \
		'$(DESTDIR)$(systemdsystemunitdir)/$(dropin_ck0)/chaoskey0.conf'
endif
if HAVE_SYSTEMD_SLEEP
	$(MKDIR_P) '$(DESTDIR)$(systemdsleepdir)'
	$(INSTALL_SCRIPT) data/systemd/rngaudit-resume '$(DESTDIR)$(systemdsleepdir)/rngaudit-resume'
endif
if HAVE_SYSUSERS
	$(MKDIR_P) '$(DESTDIR)$(sysusersdir)'
	$(INSTALL_DATA) $(srcdir)/data/systemd/rngaudit.sysusers '$(DESTDIR)$(sysusersdir)/rngaudit.conf'
endif
if HAVE_TMPFILES
	$(MKDIR_P) '$(DESTDIR)$(tmpfilesdir)'
	$(INSTALL_DATA) $(srcdir)/data/systemd/rngaudit.tmpfiles '$(DESTDIR)$(tmpfilesdir)/rngaudit.conf'
endif
if HAVE_UDEV_RULES
	$(MKDIR_P) '$(DESTDIR)$(udevrulesdir)'
	$(INSTALL_DATA) $(srcdir)/data/systemd/60-rngaudit.rules '$(DESTDIR)$(udevrulesdir)/60-rngaudit.rules'
endif
uninstall-service-files:
	rm -f '$(DESTDIR)$(systemdsystemunitdir)/rngaudit-health@.service' \
		'$(DESTDIR)$(systemdsystemunitdir)/rngaudit-audit.service' \
		'$(DESTDIR)$(systemdsystemunitdir)/rngaudit-audit.timer' \
		'$(DESTDIR)$(systemdsystemunitdir)/$(dropin_ck0)/chaoskey0.conf' \
		'$(DESTDIR)$(systemdsleepdir)/rngaudit-resume' \
		'$(DESTDIR)$(sysusersdir)/rngaudit.conf' '$(DESTDIR)$(tmpfilesdir)/rngaudit.conf' \
		'$(DESTDIR)$(udevrulesdir)/60-rngaudit.rules'
	-rmdir '$(DESTDIR)$(systemdsystemunitdir)/$(dropin_ck0)'
.PHONY: install-service-files uninstall-service-files

# make distcheck installs under its own prefix, never into the real system
AM_DISTCHECK_CONFIGURE_FLAGS = \
	--with-systemdsystemunitdir='$${dc_install_base}/lib/systemd/system' \
	--with-systemdsleepdir='$${dc_install_base}/lib/systemd/system-sleep' \
	--with-sysusersdir='$${dc_install_base}/lib/sysusers.d' \
	--with-tmpfilesdir='$${dc_install_base}/lib/tmpfiles.d' \
	--with-udevrulesdir='$${dc_install_base}/lib/udev/rules.d'

check_PROGRAMS += tests/test_insnprobe
tests_test_insnprobe_SOURCES = tests/test_insnprobe.c
tests_test_insnprobe_LDADD = $(LIBS_ALL)
TESTS += tests/test_insnprobe tests/service.sh
dist_check_SCRIPTS += tests/service.sh
