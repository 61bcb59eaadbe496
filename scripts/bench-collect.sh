#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-collect.sh - issue 2's figures: collect throughput against plain
# RDRAND64 and getrandom loops writing the same bytes, and peak RSS for
# 100,000,000 samples.  Medians of $RUNS runs, taken in turn (plain loop,
# collect, collect --no-health, again...) so that a shared machine's drift
# does not bias the ratio.  Usage: scripts/bench-collect.sh [build-dir]
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/baseline" "$(dirname "$0")/baseline-rng.c"
N=268435456
# on a shared machine the figures mean little without the load they ran under
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
for src in rdrand getrandom; do
	if [ "$src" = rdrand ] && ! grep -qw rdrand /proc/cpuinfo; then echo "rdrand: not available"; continue; fi
	# in turn, not one after the other (bench-lib.sh: interleaved_times)
	interleaved_times "$RUNS" "'$tmp/baseline' $src $N >/dev/null" \
		"'$RNGAUDIT' collect --source $src -n $N -o - >/dev/null" \
		"'$RNGAUDIT' collect --source $src -n $N --no-health -o - >/dev/null" >"$tmp/times"
	tb=$(median_of 1 <"$tmp/times")
	tc=$(median_of 2 <"$tmp/times")
	tn=$(median_of 3 <"$tmp/times")
	echo "$src: plain loop $(echo "$N / $tb / 1000000" | bc -l | xargs printf %.0f) MB/s;" \
	     "collect $(echo "$N / $tc / 1000000" | bc -l | xargs printf %.0f) MB/s" \
	     "(ratio $(echo "$tb / $tc" | bc -l | xargs printf %.3f); per round $(median_ratio 1 2 <"$tmp/times"))" \
	     "; collect --no-health $(echo "$N / $tn / 1000000" | bc -l | xargs printf %.0f) MB/s (health overhead $(echo "($tc / $tn - 1) * 100" | bc -l | xargs printf %.1f)%)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "peak RSS, collect -n 100000000 sim:ideal: $(peak_rss_kb "$RNGAUDIT" collect --source sim:ideal -n 100000000 -o -) KiB"
