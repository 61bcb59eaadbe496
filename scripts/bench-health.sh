#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-health.sh - issue 3's speed figures (medians of $RUNS runs):
#   1. `rngaudit health FILE` over a cached 512 MiB NIST-format 8-bit file
#      (RCT, APT and the proportion test), against `cat FILE > /dev/null` on
#      the same file (the ceiling: reading alone); target >= 4 GB/s (issue 28);
#   2. the same for a 512 Mi-sample 1-bit file; target >= 1e9 samples/s;
#   3. the health tests alone over memory (scripts/bench-health.c): RCT and
#      APT (health_push), the proportion test (proportion_push), all three;
#   4. `collect --source getrandom` with and without the online health tests;
#      target: under 5% overhead;
#   5. (informative) the same for rdrand, where the native-word checks run too.
# Usage: scripts/bench-health.sh [build-dir]   (needs 512 MiB free in $TMPDIR)
# no set -e: median_time runs commands that exit 1 on a (false) alarm, which set -e would abort on
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/bench-lib.sh"
build=${1:-$dir/..}
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-health.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
N=536870912

rate() {  # rate COUNT SECONDS -> COUNT/SECONDS with 3 significant digits
	echo "$1 / $2" | bc -l | xargs printf '%.3g'
}

# 1. 8-bit NIST-format file (sim:ideal, so every sample is a valid 8-bit one)
"$RNGAUDIT" collect --source sim:ideal -n "$N" --no-health -o "$tmp/s8.bin" 2>/dev/null
cat "$tmp/s8.bin" >/dev/null; cat "$tmp/s8.bin" >/dev/null      # cache it
tc=$(median_time "$RUNS" sh -c "cat '$tmp/s8.bin' >/dev/null")
th=$(median_time "$RUNS" "$RNGAUDIT" health --entropy 8 "$tmp/s8.bin")
echo "8-bit file, 512 MiB: cat $tc s, $(rate "$N" "$tc") B/s; rngaudit health $th s, $(rate "$N" "$th") B/s" \
     "(target 4e9; $(echo "$tc / $th * 100" | bc -l | xargs printf %.0f)% of cat's speed)"
rm -f "$tmp/s8.bin"

# 2. 1-bit NIST-format file
"$RNGAUDIT" collect --source sim:ideal,bits=1 --bits 1 -n "$N" --no-health -o "$tmp/s1.bin" 2>/dev/null
cat "$tmp/s1.bin" >/dev/null; cat "$tmp/s1.bin" >/dev/null
t1=$(median_time "$RUNS" "$RNGAUDIT" health --bits 1 --entropy 1 "$tmp/s1.bin")
echo "1-bit file, $N samples: rngaudit health $(rate "$N" "$t1") samples/s (target 1e9)"
rm -f "$tmp/s1.bin"

# 3. the tests alone, in memory (the same library the tool links)
if cc -O2 -I"$dir/../src" -o "$tmp/bench-health" "$dir/bench-health.c" \
	"$build/src/librngaudit.a" $(pkg-config --libs gsl) -lm 2>"$tmp/cc.err"; then
	for t in rct-apt prop all; do
		echo "tests alone ($t), 8-bit: $("$tmp/bench-health" 8 256 "$RUNS" "$t" 2>/dev/null) samples/s;" \
		     "1-bit: $("$tmp/bench-health" 1 256 "$RUNS" "$t" 2>/dev/null) samples/s"
	done
else
	echo "health_push alone: could not build scripts/bench-health.c: $(head -n 1 "$tmp/cc.err")"
fi

# 4. online health tests in collect --source getrandom
G=268435456
tn=$(median_time "$RUNS" "$RNGAUDIT" collect --source getrandom -n "$G" --no-health -o -)
ty=$(median_time "$RUNS" "$RNGAUDIT" collect --source getrandom -n "$G" -o -)
echo "collect getrandom, $G samples: --no-health $(rate "$G" "$tn") B/s; with health" \
     "$(rate "$G" "$ty") B/s (overhead $(echo "($ty / $tn - 1) * 100" | bc -l | xargs printf %.1f)%, target < 5%)"

# 5. (informative) rdrand: the native-word checks run on every 64-bit word
if grep -qw rdrand /proc/cpuinfo; then
	R=134217728
	tn=$(median_time "$RUNS" "$RNGAUDIT" collect --source rdrand -n "$R" --no-health -o -)
	ty=$(median_time "$RUNS" "$RNGAUDIT" collect --source rdrand -n "$R" -o -)
	echo "collect rdrand (64-bit words), $R samples: --no-health $(rate "$R" "$tn") B/s; with health" \
	     "and word checks $(rate "$R" "$ty") B/s (overhead $(echo "($ty / $tn - 1) * 100" | bc -l | xargs printf %.1f)%)"
fi
