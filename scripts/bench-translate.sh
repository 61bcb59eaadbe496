#!/bin/sh
# bench-translate.sh - issue 19's figure: reading and translating wide
# files, in MB/s of input, against `cat` of the same file.  Medians of
# $RUNS runs.  Usage: scripts/bench-translate.sh [build-dir]
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
: "${N:=8000000}"   # samples per file
# 12-bit samples around 2048 (12 bits change: bits-in-use goes on to select:8)
perl -e 'srand(19); for (1..'"$N"') { $s = 0; $s += rand() for 1..12; print pack("v", int(2048 + 16 * ($s - 6))) }' >"$tmp/w.u16le"
perl -e 'srand(19); for (1..'"$N"') { $s = 0; $s += rand() for 1..12; print int(2048 + 16 * ($s - 6)), "\n" }' >"$tmp/w.dec"
mb() { echo "$1 / $2 / 1000000" | bc -l | xargs printf %.1f; }
for f in u16le dec; do
	size=$(wc -c <"$tmp/w.$f")
	tc=$(median_time "$RUNS" sh -c "cat '$tmp/w.$f' >/dev/null")
	echo "$f ($N samples, $size bytes): cat $(mb "$size" "$tc") MB/s"
	for m in low:8 mod:251 bits-in-use group:8; do
		t=$(median_time "$RUNS" sh -c "'$RNGAUDIT' translate --format $f --method $m '$tmp/w.$f' -o - >/dev/null")
		echo "  translate --method $m: $(mb "$size" "$t") MB/s ($(echo "$N / $t / 1000000" | bc -l | xargs printf %.1f) M samples/s)"
	done
done
