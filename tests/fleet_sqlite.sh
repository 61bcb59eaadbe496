#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# fleet_sqlite.sh - the README's "Auditing a fleet" SQLite block, run as it
# is written on three hosts' audit CSVs (issue 25 item 4): it loads every
# file (one header, no header row loaded as data) and its per-group counts
# are report merge's.  Hosts h1..h3 audit sim:ideal; h2 also audits
# sim:biased,p=0.3, which fails.  Needs sqlite3 (scripts/install-deps.sh).
. "${top_srcdir:-.}/tests/tap.sh"
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "1..0 # SKIP sqlite3 not installed (Debian: apt-get install sqlite3)"
	exit 0
fi
# absolute: the test works in $TMPD, and an in-tree build has top_srcdir=.
top_srcdir=$(cd "$top_srcdir" && pwd)
case "$RNGAUDIT" in /*) ;; *) RNGAUDIT="$PWD/$RNGAUDIT" ;; esac
export RNGAUDIT_NO_PROGRESS=1 RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
cd "$TMPD" || exit 99
for h in h1 h2 h3; do
	mkdir -p "rngaudit-fleet/$h"
	src=sim:ideal
	[ "$h" = h2 ] && src='sim:ideal,sim:biased,p=0.3'
	ra audit --source "$src" -n 20000 --csv "rngaudit-fleet/$h/raw.csv" >/dev/null 2>&1
	# as if audited on host h: the host column (the second) renamed
	sed "2,\$ s/^\\(\"[^\"]*\"\\),\"[^\"]*\",/\\1,\"$h\",/" "rngaudit-fleet/$h/raw.csv" >"rngaudit-fleet/$h/audit.csv"
	rm "rngaudit-fleet/$h/raw.csv"
done
check "three hosts' CSVs" test "$(cat rngaudit-fleet/*/audit.csv | grep -c '^"')" -eq 4

# the block as the README has it
sed -n '/^<!-- tests\/fleet_sqlite.sh runs this block -->$/,/^```$/p' "$top_srcdir/README.md" |
	sed '1,2d;$d' >block.sh
check "the README has the block" grep -q 'sqlite3 fleet.db' block.sh
sh block.sh >query.csv 2>query.err
ok $? "the README's block runs"
sed 's/^/# /' query.csv query.err
check "every row loaded once, no header as data" test "$(sqlite3 fleet.db 'SELECT COUNT(*) FROM audit')" -eq 4
check "no header row among the data" test "$(sqlite3 fleet.db "SELECT COUNT(*) FROM audit WHERE host = 'host'")" -eq 0
# columns: ...,source,hosts,failing_hosts,h_assessed_min
row() { awk -F, -v s="\"$1\"" -v t="$1" '$6 == s || $6 == t { print $7 "," $8 }' query.csv; }
check "sim:ideal: 3 hosts, none failing" test "$(row sim:ideal)" = "3,0"
check "sim:biased,p=0.3: 1 host, failing" sh -c "sqlite3 fleet.db \"SELECT COUNT(DISTINCT host) || ',' || COUNT(DISTINCT CASE WHEN verdict = 'fail' THEN host END) FROM audit WHERE source = 'sim:biased,p=0.3'\" | grep -qx '1,1'"
check "the failing group sorts first" sh -c "sed -n 2p query.csv | grep -q 'sim:biased'"

# the same counts as report merge's table
ra report merge rngaudit-fleet/*/audit.csv -o merged.csv 2>/dev/null
hosts=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["source"] == "\"sim:ideal\"" { print $c["hosts"] "," $c["fail"] }' merged.csv)
check "report merge agrees: sim:ideal on 3 hosts, 0 failed runs ($hosts)" test "$hosts" = "3,0"
tap_done
