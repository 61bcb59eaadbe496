#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-follow.sh - issue 16's figures for `health --follow` (medians of $RUNS runs):
#   1. the CPU share of `health --follow` at the default --rate (1 MB/s) on
#      getrandom and rdrand: (user + system CPU) / wall time over $SECS s,
#      read from /proc/PID/stat; target under 5% of a core;
#   2. alarms and failures of a healthy source: the exact false-failure bound
#      over 10^10 samples (from the cutoffs, as tests/test_budget checks) and
#      a measured run of $MEASURE sim:ideal samples in run scope;
#   3. each detection latency of rngaudit-health(1) DETECTION, at 10^6 and
#      10^9 samples (first failing sample, --stop-on-failure).
# Usage: scripts/bench-follow.sh [build-dir]
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
: "${SECS:=10}" "${MEASURE:=10000000000}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-follow.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
tck=$(getconf CLK_TCK)

median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4g\n", m}'; }

cpu_share() {  # cpu_share SOURCE: one run's CPU seconds / wall seconds
	"$RNGAUDIT" health --source "$1" --follow --interval 1 >"$tmp/out" 2>&1 &
	pid=$!
	s=$(date +%s.%N)
	sleep "$SECS"
	# fields 14 and 15 of /proc/PID/stat: utime, stime in clock ticks
	t=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	e=$(date +%s.%N)
	kill -TERM "$pid"; wait "$pid"
	echo "$t / $tck / ($e - $s)" | bc -l
}

for src in getrandom rdrand; do
	if ! "$RNGAUDIT" collect --source "$src" -n 16 -o - >/dev/null 2>&1; then
		echo "$src: not available here"; continue
	fi
	share=$(i=0; while [ $i -lt "$RUNS" ]; do cpu_share "$src"; i=$((i + 1)); done | median)
	echo "health --follow --source $src at the default rate: $(echo "$share * 100" | bc -l | xargs printf %.2f)% of a core (median of $RUNS runs of $SECS s; target < 5%)"
done

# 2. false failures: the union bound's sum over 10^10 samples is at most
# alpha (tests/test_budget "N=1e+10"); measured: a run of sim:ideal
# (--entropy 8: ideal 8-bit samples meet that claim exactly, so the alarms
# expected are the ones to compare with)
"$RNGAUDIT" health --source sim:ideal --entropy 8 -n "$MEASURE" >"$tmp/ideal" 2>&1
echo "sim:ideal --entropy 8, $MEASURE samples, alpha 2^-20 over the run: $(grep -E '^(health:|alarms:)' "$tmp/ideal" | tr '\n' ' ')"
echo "10^10 healthy samples: false failures expected <= alpha = 2^-20 = 9.5e-7 (union bound of the exact tails; see tests/test_budget)"

# 3. detection latencies (deterministic: seeded sim sources)
latency() {  # latency N SPEC [ARGS]: the first failure, as samples (and words)
	n=$1; shift
	"$RNGAUDIT" collect --source "$@" -n "$n" --stop-on-failure -o - 2>"$tmp/err" >"$tmp/s.bin"
	f=$(grep -o '^ *first failure at sample [0-9]*$' "$tmp/err" | sed 's/^ *//')
	w=$(grep -o 'first failure at word [0-9]*\|EXCESSIVE from word [0-9]*' "$tmp/err" | awk '{print $NF}' | sort -n | head -n 1)
	echo "  $*: ${f:-no sample-level failure}${w:+; first word-level failure at word $w}"
}
for n in 1000000 1000000000; do
	echo "detection, alpha 2^-20 over $n samples:"
	latency "$n" sim:amd-rdrand-ffffffff
	latency "$n" sim:rdseed-zero,p=0.1
	latency "$n" sim:repeat-words,p=0.001
	latency "$n" sim:stuck,after=50000
	i=0; while [ $i -lt 21 ]; do
		"$RNGAUDIT" collect --source "sim:biased,p=0.02,seed=$((50 + i))" --entropy 8 -n "$n" \
			--stop-on-failure -o - 2>"$tmp/err" >"$tmp/s.bin"
		grep '^ *first failure at sample [0-9]*$' "$tmp/err" | awk '{print $NF}'
		i=$((i + 1))
	done | median | xargs printf '  sim:biased,p=0.02 --entropy 8: median first failure at sample %s (21 seeds)\n'
done
