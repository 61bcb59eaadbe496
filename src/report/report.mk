# SPDX-License-Identifier: GPL-3.0-or-later
# report.mk: report writers, fleet merge, the
# audit and report commands, their man pages and tests (included by Makefile.am)
src_librngaudit_a_SOURCES += \
	src/report/report.h src/report/text.c src/report/csv.c src/report/junit.c src/report/xmltext.c src/report/xmltext.h \
	src/report/prom.c src/report/promfmt.c src/report/promfmt.h src/report/merge.c src/report/merge_csv.c src/report/merge_int.h src/report/merge_text.c src/report/csvread.c src/report/csvread.h \
	src/report/hashtab.c src/report/hashtab.h src/report/csvcell.c src/report/csvcell.h \
	src/report/termtext.c src/report/termtext.h
# the audit and `sources` as JSON, their schemas in data/ (issue 26 item 2)
src_librngaudit_a_SOURCES += src/report/report_json.h src/report/json_context.c \
	src/report/json_audit.c src/report/json_sources.c
dist_pkgdata_DATA += data/rngaudit-audit-1.schema.json data/rngaudit-sources-1.schema.json
TESTS += tests/json_report.sh
dist_check_SCRIPTS += tests/json_report.sh tests/json_validate.py
src_rngaudit_SOURCES += src/cli/cmd_audit.c src/cli/audit_progress.c src/cli/audit_progress.h src/cli/cmd_report.c \
	src/cli/cli_plot.c src/cli/cli_plot.h
# The audit finds data/quirks.txt and scripts/rngaudit-plot.sh here once installed.
# (AM_CPPFLAGS, not a per-target flag, so no object is renamed.)
AM_CPPFLAGS += -DRNGAUDIT_PKGDATADIR='"$(pkgdatadir)"'

dist_pkgdata_DATA += data/policy.default data/quirks.txt scripts/plot.gp scripts/plot-fleet.gp \
	scripts/rngaudit-plot.awk
dist_pkgdata_SCRIPTS = scripts/rngaudit-plot.sh

dist_man_MANS += man/rngaudit.1 man/rngaudit-sources.1 man/rngaudit-collect.1 \
	man/rngaudit-health.1 man/rngaudit-assess.1 man/rngaudit-iid.1 man/rngaudit-restart.1 \
	man/rngaudit-conditioning.1 man/rngaudit-audit.1 man/rngaudit-report.1

check_PROGRAMS += tests/test_verdict tests/test_policy tests/test_merge
tests_test_merge_SOURCES = tests/test_merge.c
tests_test_merge_LDADD = $(LIBS_ALL)
tests_test_verdict_SOURCES = tests/test_verdict.c
tests_test_verdict_LDADD = $(LIBS_ALL)
tests_test_policy_SOURCES = tests/test_policy.c
tests_test_policy_LDADD = $(LIBS_ALL)
TESTS += tests/test_verdict tests/test_policy tests/test_merge tests/report_cli.sh tests/csv_types.sh
dist_check_SCRIPTS += tests/report_cli.sh tests/csv_types.sh tests/csv_types.py
# the pictures (audit --plot, report merge --plot, scripts/rngaudit-plot.sh)
TESTS += tests/plot_cli.sh
dist_check_SCRIPTS += tests/plot_cli.sh
# their layout: no text outside the image or over another (issue 26 item 5)
TESTS += tests/plot_layout.sh
dist_check_SCRIPTS += tests/plot_layout.sh tests/plot_ink.py
dist_check_DATA += tests/plot_layout.awk tests/data/plot/all-pass.csv tests/data/plot/mixed.csv \
	tests/data/plot/crowded.csv tests/data/plot/unavailable-only.csv tests/data/plot/fleet.csv
# audit and merge timings (run by hand: scripts/bench-audit.sh BUILD-DIR,
# scripts/bench-merge.sh BUILD-DIR for the fleet-scale merge)
dist_noinst_SCRIPTS += scripts/bench-audit.sh scripts/bench-merge.sh
# spreadsheet-safe CSV cells (issue 24 item 3)
check_PROGRAMS += tests/test_csvcell
tests_test_csvcell_SOURCES = tests/test_csvcell.c
tests_test_csvcell_LDADD = $(LIBS_ALL)
TESTS += tests/test_csvcell
TESTS += tests/csvcell_cli.sh
dist_check_SCRIPTS += tests/csvcell_cli.sh
# terminal-safe text for every report on stdout (issue 24 item 3)
check_PROGRAMS += tests/test_termtext
tests_test_termtext_SOURCES = tests/test_termtext.c
tests_test_termtext_LDADD = $(LIBS_ALL)
TESTS += tests/test_termtext
TESTS += tests/termtext_cli.sh
dist_check_SCRIPTS += tests/termtext_cli.sh
# Prometheus label values always valid UTF-8 (issue 24 item 3)
check_PROGRAMS += tests/test_promfmt
tests_test_promfmt_SOURCES = tests/test_promfmt.c
tests_test_promfmt_LDADD = $(LIBS_ALL)
TESTS += tests/test_promfmt tests/prom_utf8.sh
dist_check_SCRIPTS += tests/prom_utf8.sh
# the text reports laid out within the terminal's width (issue 26 item 4)
src_librngaudit_a_SOURCES += src/report/textwrap.c src/report/textwrap.h
check_PROGRAMS += tests/test_textwrap
tests_test_textwrap_SOURCES = tests/test_textwrap.c
tests_test_textwrap_LDADD = $(LIBS_ALL)
TESTS += tests/test_textwrap
TESTS += tests/text_width.sh
dist_check_SCRIPTS += tests/text_width.sh
# the audit and fleet CSVs typed by Frictionless table schemas, one per
# audit CSV schema version; pandas loads a mixed fleet (issue 26 item 3)
dist_pkgdata_DATA += data/rngaudit-audit-csv-1.tableschema.json data/rngaudit-audit-csv-2.tableschema.json \
	data/rngaudit-audit-csv-3.tableschema.json data/rngaudit-audit-csv-4.tableschema.json \
	data/rngaudit-audit-csv-5.tableschema.json data/rngaudit-merge-csv.tableschema.json
dist_noinst_SCRIPTS += scripts/csv-tableschema.py
TESTS += tests/csv_pandas.sh
dist_check_SCRIPTS += tests/csv_pandas.sh tests/csv_pandas.py
