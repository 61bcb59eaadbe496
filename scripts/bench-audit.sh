#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-audit.sh - issue 6's figures: wall time and peak RSS of `rngaudit
# audit` per source (10^6 samples; hwrng at its default 2*10^4), of the whole
# default audit (every real source at once), and of `report merge` over 1000
# audit CSV rows.  Medians of $RUNS runs.  Usage: scripts/bench-audit.sh [build-dir]
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$(dirname "$0")/../data/quirks.txt"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for src in sim:ideal getrandom rdrand rdseed hwrng; do
	if [ "$src" = hwrng ]; then n=20000; else n=1000000; fi
	st=0; "$RNGAUDIT" audit --source "$src" -n 1000 >/dev/null 2>&1 || st=$?
	if [ "$st" -eq 2 ]; then echo "audit $src: not available here"; continue; fi
	t=$(median_time "$RUNS" "$RNGAUDIT" audit --source "$src" -n "$n")
	echo "audit $src, $n samples: $t s; peak RSS $(peak_rss_kb "$RNGAUDIT" audit --source "$src" -n "$n") KiB"
done
t=$(median_time "$RUNS" "$RNGAUDIT" audit --csv "$tmp/a.csv")
echo "audit of every real source (defaults, concurrent): $t s; peak RSS $(peak_rss_kb "$RNGAUDIT" audit) KiB"
# 1000 rows: the audit CSV with its data row repeated under 1000 host names.
"$RNGAUDIT" audit --source sim:ideal -n 20000 --csv "$tmp/one.csv" >/dev/null 2>&1 || true
head -1 "$tmp/one.csv" >"$tmp/many.csv"
i=0
while [ $i -lt 1000 ]; do
	sed -n 2p "$tmp/one.csv" | sed "s/^\"\([^\"]*\)\",\"[^\"]*\"/\"\1\",\"host$i\"/"
	i=$((i + 1))
done >>"$tmp/many.csv"
t=$(median_time "$RUNS" "$RNGAUDIT" report merge "$tmp/many.csv" -o "$tmp/merged.csv")
echo "report merge, 1000 rows: $t s"
