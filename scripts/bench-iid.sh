#!/bin/sh
# bench-iid.sh - issue 5's figures: the whole IID track (`rngaudit iid`) on
# 1,000,000 1-bit and 1,000,000 8-bit samples, and `rngaudit restart` on a
# 1000 x 1000 4-bit matrix; medians of $RUNS runs (wall clock), with the
# number of shuffles the permutation tests needed.  The running time follows
# that number (NIST's early stop: a statistic is decided once 6 shuffles rank
# above and 6 below it, which takes ~6/q shuffles when the data's value sits
# at quantile q), so it is also shown for fresh getrandom(2) data, where q is
# uniform.  Each bzip2 score (5.1.11) costs ~0.25 s; other shuffles ~5 ms.
# Usage: scripts/bench-iid.sh [build-dir]     (RUNS=5 by default)
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$RNGAUDIT" collect --no-health --source sim:ideal -n 1000000 --bits 1 -o "$tmp/b1.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source sim:ideal -n 1000000 --bits 8 -o "$tmp/b8.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source sim:ideal -n 1000000 --bits 4 -o "$tmp/r4.bin" 2>/dev/null

"$RNGAUDIT" collect --no-health --source getrandom -n 1000000 --bits 1 -o "$tmp/g1.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source getrandom -n 1000000 --bits 8 -o "$tmp/g8.bin" 2>/dev/null

for d in b g; do
	for b in 1 8; do
		src=sim:ideal; [ "$d" = g ] && src=getrandom
		shuffles=$("$RNGAUDIT" iid "$tmp/$d$b.bin" "$b" | sed -n 's/^Permutation seed: .*(\([0-9]*\) shuffles.*/\1/p')
		t=$(median_time "$RUNS" "$RNGAUDIT" iid "$tmp/$d$b.bin" "$b" || true)
		echo "iid, 1,000,000 $b-bit samples ($src): median ${t:-failed} s wall ($shuffles shuffles, default seed)"
	done
done
t=$(median_time "$RUNS" "$RNGAUDIT" restart "$tmp/r4.bin" 4 3)
echo "restart (non-IID), 1000x1000 4-bit matrix: median $t s wall"
t=$(median_time "$RUNS" "$RNGAUDIT" restart -i "$tmp/r4.bin" 4 3)
echo "restart -i (IID), 1000x1000 4-bit matrix: median $t s wall"
