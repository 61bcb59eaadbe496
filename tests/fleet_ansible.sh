#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# fleet_ansible.sh DEB - scripts/fleet/audit.yml against this machine with
# ansible_connection=local (issue 25 item 4), run by .ci/run's package stage
# as root on the .deb it built; TAP output.  Three inventory hosts, all
# local: "good" installs the package file and audits; "nopkg" has no
# rngaudit (its command is a path that does not exist, as on a host where
# the package is missing); "badaudit" asks for a device that is not there
# (the audit exits 2).  The run must report both bad hosts with their
# reason, fetch good's CSV and bundle, merge them on the controller, and
# fail at the end naming the missing hosts.  Needs ansible-playbook
# (Debian: ansible-core, or ansible).
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
. "$top_srcdir/tests/tap.sh"
deb=${1:?usage: fleet_ansible.sh DEB}
case "$deb" in /*) ;; *) deb="$PWD/$deb" ;; esac
if ! command -v ansible-playbook >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP needs root and ansible-playbook (apt-get install ansible-core)"
	exit 0
fi
out="$TMPD/fleet"
cat >"$TMPD/inventory" <<EOF
[rngaudit]
good rngaudit_deb=$deb
nopkg rngaudit_install=none rngaudit_command=/nonexistent/bin/rngaudit
badaudit rngaudit_install=none rngaudit_audit_args="['--source','hwrng:device=/nonexistent/hwrng']"

[rngaudit:vars]
ansible_connection=local
ansible_python_interpreter=/usr/bin/python3
rngaudit_become=false
rngaudit_audit_args=['--source','getrandom,sim:ideal','-n','20000']
EOF
ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$TMPD/ansible-tmp" \
	ansible-playbook -i "$TMPD/inventory" "$top_srcdir/scripts/fleet/audit.yml" \
	-e "rngaudit_fleet_dir=$out" >"$TMPD/run" 2>&1
rc=$?
sed 's/^/# /' "$TMPD/run" | grep -E 'no audit|fatal|FAILED|hosts have no|ok=|merged' | head -30

test "$rc" -ne 0
ok $? "the run fails (two hosts have no audit): exit $rc"
check "good: its CSV fetched" test -s "$out/good/audit.csv"
check "good: its sysroot bundle fetched" sh -c "tar -tzf '$out/good/sysroot.tar.gz' | grep -q '^sysroot/proc/cpuinfo$'"
check "good: the bundle audits again on the controller (--sysroot)" sh -c "
	mkdir -p '$TMPD/sr' && tar -xzf '$out/good/sysroot.tar.gz' -C '$TMPD/sr' &&
	RNGAUDIT_NO_PROGRESS=1 rngaudit audit --source sim:ideal -n 20000 --sysroot '$TMPD/sr/sysroot' >/dev/null 2>&1"
check "nopkg: reported, with the missing command" grep -q 'nopkg: no audit: Check that rngaudit is installed: .*nonexistent/bin/rngaudit' "$TMPD/run"
check "badaudit: reported, with the audit's own error line" \
	grep -q 'badaudit: no audit: Run the audit: .*hwrng: /nonexistent/hwrng: No such file or directory' "$TMPD/run"
check "the end names the two missing hosts" grep -q '2 of 3 hosts have no audit: nopkg, badaudit' "$TMPD/run"
check "no CSV for the bad hosts" test ! -e "$out/nopkg/audit.csv" -a ! -e "$out/badaudit/audit.csv"
check "the fleet table merged on the controller" test -s "$out/fleet.csv"
check "... and its text form" grep -q getrandom "$out/fleet.txt"

# The merged CSV has this host's row: its CPU, kernel and source, one host.
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
kernel=$(uname -r)
awk -F, -v v="\"$vendor\"" -v k="\"$kernel\"" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["cpu_vendor"] == v && $col["kernel_release"] == k && $col["source"] == "\"getrandom\"" &&
	$col["hosts"] == 1 && $col["runs"] == 1 { found = 1 }
	END { exit !found }' "$out/fleet.csv"
ok $? "fleet.csv: this host's row ($vendor, kernel $kernel, getrandom: 1 host, 1 run)"
check "fleet.csv: only the good host's runs (2 rows: getrandom, sim:ideal)" test "$(wc -l <"$out/fleet.csv")" -eq 3
tap_done
