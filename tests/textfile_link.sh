#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# textfile_link.sh - how the textfiles reach node_exporter (issue 25 item
# 2): data/systemd/rngaudit-textfile, which the units run as
# root to show their textfiles in node_exporter's directory (issue 25 item
# 2): a link per file and nothing else there, nothing created as root in
# the rngaudit user's directory, a clean stop takes the link away and a
# failure keeps it, bad names refused.  Run on private directories
# (RNGAUDIT_TEXTFILE_DIR, RNGAUDIT_STATE_DIR) as the current user.  And
# the warning of audit and health when --prom names no .prom file.
. "${top_srcdir:-.}/tests/tap.sh"
tf="$top_srcdir/data/systemd/rngaudit-textfile"
dir="$TMPD/node-exporter"
state="$TMPD/rngaudit"
mkdir -p "$state"
export RNGAUDIT_TEXTFILE_DIR="$dir" RNGAUDIT_STATE_DIR="$state" RNGAUDIT_USER="$(id -un)"
unset SERVICE_RESULT

expect_exit 0 "no node_exporter directory: link does nothing (exit 0)" sh "$tf" link audit.prom
check "... and creates nothing" test ! -e "$dir" -a ! -e "$state/audit.prom"
mkdir "$dir"
echo 'apt_upgrades_pending 0' >"$dir/apt.prom"
expect_exit 0 "link audit.prom" sh "$tf" link audit.prom
check "the link rngaudit-audit.prom points at the state file" test "$(readlink "$dir/rngaudit-audit.prom")" = "$state/audit.prom"
check "an empty state file exists until the first write (no dangling link)" test -f "$state/audit.prom" -a ! -s "$state/audit.prom"
check "the state file is the user's" test -O "$state/audit.prom"
printf 'rngaudit_partial 0\n' >"$state/audit.prom"
expect_exit 0 "link again (the unit's next start)" sh "$tf" link audit.prom
check "an existing state file is kept as it is" grep -q rngaudit_partial "$dir/rngaudit-audit.prom"
check "the other textfiles are untouched" test "$(cat "$dir/apt.prom")" = 'apt_upgrades_pending 0'
check "only the link was added" test "$(ls "$dir" | tr '\n' ' ')" = "apt.prom rngaudit-audit.prom "

inst='health-hwrng:device\x3d-dev-chaoskey0.prom'
expect_exit 0 "link an escaped instance's file" sh "$tf" link "$inst"
check "its link is there" test -L "$dir/rngaudit-$inst"
SERVICE_RESULT=exit-code sh "$tf" unlink "$inst"
check "a failed stop keeps the link (its stale timestamp raises the alert)" test -L "$dir/rngaudit-$inst"
SERVICE_RESULT=success sh "$tf" unlink "$inst"
check "a clean stop takes the link away" test ! -e "$dir/rngaudit-$inst" -a ! -L "$dir/rngaudit-$inst"
check "... and keeps the state file" test -e "$state/$inst"

for bad in ../etc/passwd.prom .hidden.prom audit.txt 'a b.prom' ''; do
	expect_exit 2 "refused name '$bad'" sh "$tf" link "$bad"
	check "refused name '$bad': one line" test "$(wc -l <"$TMPD/err")" -eq 1
done
expect_exit 2 "no action: usage" sh "$tf"

# The commands warn when --prom names a file the collector would skip.
export RNGAUDIT_NO_PROGRESS=1
expect_exit 0 "audit --prom FILE.txt: written all the same" ra audit --source sim:ideal -n 20000 --prom "$TMPD/audit.txt"
check "audit --prom FILE.txt: warns that node_exporter reads only .prom" \
	grep -q "^rngaudit audit: warning: --prom $TMPD/audit.txt: node_exporter's textfile collector reads only files ending in .prom\$" "$TMPD/err"
check "audit --prom FILE.txt: the file is there" test -s "$TMPD/audit.txt"
expect_exit 0 "health --follow --prom FILE" ra health --source sim:ideal --follow --interval 0.01 -n 50000 --prom "$TMPD/h"
check "health --prom FILE without .prom: warns" grep -q "^rngaudit health: warning: --prom $TMPD/h: " "$TMPD/err"
expect_exit 0 "health --follow --prom FILE.prom" ra health --source sim:ideal --follow --interval 0.01 -n 50000 --prom "$TMPD/h.prom"
check "health --prom FILE.prom: no warning" sh -c "! grep -q warning '$TMPD/err'"
# As root (the units' ExecStartPre=+), the state file is made by the user
# that owns the directory, never by root.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	chown nobody "$state" && chmod 755 "$TMPD"
	RNGAUDIT_USER=nobody sh "$tf" link health-getrandom.prom
	check "as root: the state file is made by the unit's user" \
		test "$(stat -c %U "$state/health-getrandom.prom")" = nobody
	rm -f "$dir/rngaudit-health-getrandom.prom"
else
	skip "not root: the state file made as the unit's user not tried"
fi
check "nothing but the two links was ever made" test "$(ls "$dir" | wc -l)" -eq 2
tap_done
