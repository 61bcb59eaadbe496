# SPDX-License-Identifier: GPL-3.0-or-later
# datapath.mk: where the binary finds its data (src/cli/datapath.c), and the
# configured paths in the installed man pages (included by Makefile.am).
src_rngaudit_SOURCES += src/cli/datapath.c src/cli/datapath.h
# Per-object flags would rename the objects: AM_CPPFLAGS, like report.mk's.
AM_CPPFLAGS += -DRNGAUDIT_SYSCONFDIR='"$(sysconfdir)"' \
	-DRNGAUDIT_ABS_BUILDDIR='"$(abs_top_builddir)"' -DRNGAUDIT_ABS_SRCDIR='"$(abs_top_srcdir)"'

# The man pages name their files as @[s]ysconfdir@ and @[p]kgdatadir@ (FILES
# sections; bracketed here so that configure leaves them); the installed
# copies carry the configured paths.
install-data-hook: install-man-paths
install-man-paths:
	for f in rngaudit.1 rngaudit-audit.1 rngaudit-health.1; do \
		p="$(DESTDIR)$(man1dir)/$$f"; \
		test -f "$$p" || continue; \
		sed -e 's|@[s]ysconfdir@|$(sysconfdir)|g' -e 's|@[p]kgdatadir@|$(pkgdatadir)|g' \
			"$$p" >"$$p.tmp" && mv "$$p.tmp" "$$p"; \
	done
.PHONY: install-man-paths
