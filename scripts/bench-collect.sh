#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-collect.sh - issue 2's figures: collect throughput against plain
# RDRAND64 and getrandom loops writing the same bytes, and peak RSS for
# 100,000,000 samples.  Medians of $RUNS runs.  Usage: scripts/bench-collect.sh [build-dir]
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/baseline" "$(dirname "$0")/baseline-rng.c"
N=268435456
for src in rdrand getrandom; do
	if [ "$src" = rdrand ] && ! grep -qw rdrand /proc/cpuinfo; then echo "rdrand: not available"; continue; fi
	tb=$(median_time "$RUNS" sh -c "'$tmp/baseline' $src $N >/dev/null")
	tc=$(median_time "$RUNS" "$RNGAUDIT" collect --source "$src" -n "$N" -o -)
	tn=$(median_time "$RUNS" "$RNGAUDIT" collect --source "$src" -n "$N" --no-health -o - >/dev/null 2>&1 || echo "")
	echo "$src: plain loop $(echo "$N / $tb / 1000000" | bc -l | xargs printf %.0f) MB/s;" \
	     "collect $(echo "$N / $tc / 1000000" | bc -l | xargs printf %.0f) MB/s" \
	     "(ratio $(echo "$tb / $tc" | bc -l | xargs printf %.3f))" \
	     ${tn:+"; collect --no-health $(echo "$N / $tn / 1000000" | bc -l | xargs printf %.0f) MB/s (health overhead $(echo "($tc / $tn - 1) * 100" | bc -l | xargs printf %.1f)%)"}
done
echo "peak RSS, collect -n 100000000 sim:ideal: $(peak_rss_kb "$RNGAUDIT" collect --source sim:ideal -n 100000000 -o -) KiB"
