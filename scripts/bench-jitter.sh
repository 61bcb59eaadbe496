#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-jitter.sh - issue 19's figures for the jitter source on this
# machine: samples per second (median of $RUNS collections of $N samples)
# and the assessed min-entropy per sample of $N samples reduced by the
# default translation (bits-in-use; median of $FIG_RUNS collections), with
# the translation each used.  Usage: scripts/bench-jitter.sh [build-dir] [SPEC]
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
SPEC=${2:-jitter}
: "${N:=1000000}"
: "${FIG_RUNS:=3}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t=$(median_time "$RUNS" sh -c "'$RNGAUDIT' collect --source '$SPEC' --format u64le -n $N -o - >/dev/null")
echo "$SPEC: $(echo "$N / $t" | bc -l | xargs printf %.0f) samples/s (median of $RUNS runs of $N)"
i=0
while [ "$i" -lt "$FIG_RUNS" ]; do
	"$RNGAUDIT" collect --source "$SPEC" --format u64le -n "$N" -o "$tmp/j.u64" 2>/dev/null
	"$RNGAUDIT" assess --format u64le "$tmp/j.u64" >"$tmp/a.txt"
	h=$(tail -n 1 "$tmp/a.txt" | awk '{ print $3 }')
	ho=$(awk '/^H_original:/ { print $2 }' "$tmp/a.txt")
	echo "  run $((i + 1)): assessed $h bits per sample (H_original $ho); $(sed -n 's/^translated u64le samples: //p' "$tmp/a.txt")"
	echo "$h" >>"$tmp/figs"
	i=$((i + 1))
done
echo "$SPEC: median assessed min-entropy $(sort -g "$tmp/figs" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') bits per sample ($N samples, default translation)"
