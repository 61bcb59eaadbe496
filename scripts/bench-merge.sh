#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-merge.sh - issue 17's fleet-scale figure for `rngaudit report merge`:
# NROWS audit CSV rows (default 1,000,000) from NHOSTS distinct hosts
# (100,000) in NGROUPS distinct groups (10,000); wall time, the median of RUNS
# (3) runs, and peak RSS.  Usage: scripts/bench-merge.sh [build-dir]
#
# The rows are one real `audit --source sim:ideal -n 100000 --csv` row,
# copied by awk with host, timestamp, cpu_model, source and h_assessed
# varied: row i is run r = i / NHOSTS of host h = i % NHOSTS; a host has one
# CPU model ((h / 10) % (NGROUPS / 10)) and its run r reads source
# (h + r) % 10, so that the groups are the NGROUPS / 10 models times 10
# sources (whenever NHOSTS >= NGROUPS), and every row is distinct by (host,
# timestamp, source).
set -e
: "${RUNS:=3}"
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
: "${NROWS:=1000000}" "${NHOSTS:=100000}" "${NGROUPS:=10000}"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$(dirname "$0")/../data/quirks.txt"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$RNGAUDIT" audit --source sim:ideal -n 100000 --csv "$tmp/one.csv" >"$tmp/audit.out" 2>&1 || true
head -1 "$tmp/one.csv" >"$tmp/fleet.csv"
ncol=$(head -1 "$tmp/one.csv" | tr ',' '\n' | wc -l)
# (The sim:ideal row has no comma inside a quoted field: split on commas.)
sed -n 2p "$tmp/one.csv" | tr -d '\r' | awk -F, -v rows="$NROWS" -v hosts="$NHOSTS" -v groups="$NGROUPS" -v ncol="$ncol" '
	{
		if (NF != ncol) { print "bench-merge: the audit row has " NF " fields, the header " ncol > "/dev/stderr"; exit 2 }
		split($0, f, ",")
		models = int(groups / 10); if (models < 1) models = 1
		h0 = f[34]
		for (i = 0; i < rows; i++) {
			host = i % hosts; run = int(i / hosts); s = i
			f[1] = sprintf("\"2026-11-%02dT%02d:%02d:%02dZ\"", 1 + int(s / 86400), int(s / 3600) % 24,
				int(s / 60) % 60, s % 60)
			f[2] = "\"host" host "\""
			f[5] = int(host / 10) % models
			f[10] = "\"sim:src" ((host + run) % 10) "\""
			f[34] = sprintf("%.17g", h0 * (1 - (i % 997) / 10000))
			line = f[1]
			for (j = 2; j <= NF; j++) line = line "," f[j]
			printf "%s\r\n", line
		}
	}' >>"$tmp/fleet.csv"
# Column positions used above (1 timestamp, 2 host, 5 cpu_model, 10 source,
# 34 h_assessed) must be the header's.
head -1 "$tmp/fleet.csv" | tr -d '\r' | awk -F, '$1 != "timestamp" || $2 != "host" || $5 != "cpu_model" ||
	$10 != "source" || $34 != "h_assessed" { print "bench-merge: the CSV columns moved; fix the awk" > "/dev/stderr"; exit 2 }'
mb=$(( $(wc -c <"$tmp/fleet.csv") / 1048576 ))

t=$(median_time "$RUNS" "$RNGAUDIT" report merge "$tmp/fleet.csv" -o "$tmp/merged.csv")
# One more run for peak RSS and CPU time (user + system): on a shared
# machine the wall time above includes waiting for a core.
set -- $(/usr/bin/time -f '%M %U %S' "$RNGAUDIT" report merge "$tmp/fleet.csv" -o "$tmp/merged.csv" 2>&1 |
	tail -n 1)
cpu=$(echo "$2 $3" | awk '{ printf "%.2f", $1 + $2 }')
ng=$(( $(wc -l <"$tmp/merged.csv") - 1 ))
echo "report merge, $NROWS rows ($NHOSTS hosts, $NGROUPS groups, $mb MiB): $t s (median of $RUNS);" \
	"CPU $cpu s; peak RSS $1 KiB; $ng groups out"
