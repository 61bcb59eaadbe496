#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-translate.sh - issue 19's figure: reading and translating wide
# files, in MB/s of input, against `cat` of the same file.  Medians of
# $RUNS runs, of wall time and of CPU time (user + system: on a machine
# shared with other work the wall figure mostly measures the others).
# Usage: scripts/bench-translate.sh [build-dir]
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: "${N:=8000000}"   # samples per file
# median_cpu RUNS CMD...: the median user + system seconds of RUNS runs.
median_cpu() {
	runs=$1; shift
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ print $1 + $2 }'
		i=$((i + 1))
	done | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f\n", m}'
}
# 12-bit samples around 2048 (12 bits change: bits-in-use goes on to select:8)
perl -e 'srand(19); for (1..'"$N"') { $s = 0; $s += rand() for 1..12; print pack("v", int(2048 + 16 * ($s - 6))) }' >"$tmp/w.u16le"
perl -e 'srand(19); for (1..'"$N"') { $s = 0; $s += rand() for 1..12; print int(2048 + 16 * ($s - 6)), "\n" }' >"$tmp/w.dec"
mb() { echo "$1 / $2 / 1000000" | bc -l | xargs printf %.1f; }
for f in u16le dec; do
	size=$(wc -c <"$tmp/w.$f")
	tc=$(median_time "$RUNS" sh -c "cat '$tmp/w.$f' >/dev/null")
	echo "$f ($N samples, $size bytes): cat $(mb "$size" "$tc") MB/s wall (its CPU time rounds to 0)"
	for m in low:8 mod:251 bits-in-use group:8; do
		t=$(median_time "$RUNS" sh -c "'$RNGAUDIT' translate --format $f --method $m '$tmp/w.$f' -o - >/dev/null")
		c=$(median_cpu "$RUNS" "$RNGAUDIT" translate --format "$f" --method "$m" "$tmp/w.$f" -o -)
		echo "  translate --method $m: $(mb "$size" "$t") MB/s wall, $(mb "$size" "$c") MB/s CPU ($(echo "$N / $c / 1000000" | bc -l | xargs printf %.1f) M samples/s CPU)"
	done
done
