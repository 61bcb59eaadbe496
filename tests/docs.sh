#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# docs.sh - the documentation says what the program does (issue 25 item 5):
# every command has a man page; every environment variable the code reads
# is in an ENVIRONMENT section; the CSV schema that report --help and
# rngaudit-report(1) name is the one audit writes; rngaudit-audit(1) lists
# the default sources that `rngaudit sources` shows.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
man="$top_srcdir/man"

# commands: the names main's table prints in --help
ra --help 2>&1 | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' >"$TMPD/cmds"
check "rngaudit --help lists commands" test -s "$TMPD/cmds"
while read -r c; do
	check "command $c has its man page" test -f "$man/rngaudit-$c.1"
done <"$TMPD/cmds"

# environment variables read by the code, each in an ENVIRONMENT section
grep -rhoE 'getenv\("[A-Z_]+"\)' "$top_srcdir/src" | sed 's/getenv("\(.*\)")/\1/' | sort -u >"$TMPD/env"
grep -hoE '\$\{?(RNGAUDIT_[A-Z_]+|GNUPLOT)' "$top_srcdir/scripts/rngaudit-plot.sh" | tr -d '${' | sort -u >>"$TMPD/env"
for f in "$man"/*.1; do
	sed -n '/^\.Sh ENVIRONMENT/,/^\.Sh /p' "$f"
done | sed -n 's/^\.It Ev \([A-Z_]*\).*/\1/p' | sort -u >"$TMPD/documented"
sort -u "$TMPD/env" | while read -r v; do
	echo "$v"
done >"$TMPD/env.sorted"
check "the code reads environment variables" test -s "$TMPD/env.sorted"
while read -r v; do
	check "environment variable $v is in an ENVIRONMENT section" grep -qx "$v" "$TMPD/documented"
done <"$TMPD/env.sorted"

# the CSV schema
ra audit --source sim:ideal -n 20000 --csv "$TMPD/a.csv" >/dev/null 2>&1
schema=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "schema") c = i } NR == 2 { gsub(/"/, "", $c); print $c }' "$TMPD/a.csv")
cols=$(head -n 1 "$TMPD/a.csv" | tr ',' '\n' | wc -l)
check "audit writes a schema number ($schema)" test -n "$schema"
check "report --help names schema $schema" sh -c "'$RNGAUDIT' report --help | grep -q \"schema $schema\""
check "rngaudit-report(1) names schema $schema, $cols columns" grep -q "(schema $schema, $cols columns" "$man/rngaudit-report.1"
check "rngaudit-audit(1): the schema column reads $schema" \
	sh -c "sed -n '/^\\.It schema\$/,/^\\.It /p' '$man/rngaudit-audit.1' | grep -q 'The CSV.s version: $schema\\.'"

# the default sources: sources' table, in order, and the man page's list
ra sources 2>/dev/null | sed -n '/^SOURCE /,/^$/p' | awk 'NR > 1 && NF { print $1 }' >"$TMPD/real"
check "sources lists the real sources" test -s "$TMPD/real"
sed -n '/the real sources are audited/,/are not an error/p' "$man/rngaudit-audit.1" |
	sed -n 's/^\.Cm \([a-z]*\).*/\1/p' >"$TMPD/listed"
check "rngaudit-audit(1) lists the default sources as sources shows them ($(tr '\n' ' ' <"$TMPD/real"))" \
	cmp -s "$TMPD/real" "$TMPD/listed"
tap_done
