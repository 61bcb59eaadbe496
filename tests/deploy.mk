# SPDX-License-Identifier: GPL-3.0-or-later
# deploy.mk: the checks of the Debian packaging, the licence and the fleet
# tools (issue 25), included by Makefile.am.  The package itself is built,
# installed, upgraded and removed by .ci/run's package stage.
TESTS += tests/builddeps.sh
dist_check_SCRIPTS += tests/builddeps.sh
EXTRA_DIST += scripts/deb-clean-build.sh
TESTS += tests/unit_sandbox.sh
dist_check_SCRIPTS += tests/unit_sandbox.sh
TESTS += tests/textfile_link.sh
dist_check_SCRIPTS += tests/textfile_link.sh
TESTS += tests/prom_rules.sh
dist_check_SCRIPTS += tests/prom_rules.sh
# The alerting rules and their unit tests, for the Prometheus server's
# rule_files (rngaudit(1), SERVICES).
promrulesdir = $(pkgdatadir)/prometheus
dist_promrules_DATA = data/prometheus/rngaudit.rules.yml data/prometheus/rngaudit.rules.test.yml
# The fleet playbook (README.md, "Auditing a fleet"); tests/fleet_ansible.sh
# and tests/deb_upgrade.sh run in .ci/run's package stage, on the .deb.
EXTRA_DIST += scripts/fleet/audit.yml scripts/fleet/roles/rngaudit_audit/tasks/main.yml \
	scripts/fleet/roles/rngaudit_audit/defaults/main.yml tests/fleet_ansible.sh tests/deb_upgrade.sh
TESTS += tests/docs.sh
dist_check_SCRIPTS += tests/docs.sh
TESTS += tests/fleet_sqlite.sh
dist_check_SCRIPTS += tests/fleet_sqlite.sh
TESTS += tests/spdx.sh
dist_check_SCRIPTS += tests/spdx.sh
EXTRA_DIST += scripts/spdx-headers.sh
