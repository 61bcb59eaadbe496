#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-iid.sh - issue 5's figures: the whole IID track (`rngaudit iid`) on
# 1,000,000 1-bit and 1,000,000 8-bit samples, and `rngaudit restart` on a
# 1000 x 1000 4-bit matrix; medians of $RUNS runs of the wall-clock time and
# of the CPU time (user + sys, all threads), with the number of shuffles the
# permutation tests needed and how many of them were scored by bzip2 (5.1.11).
#
# The running time follows those two numbers.  NIST's early stop decides a
# statistic once 6 shuffles rank above and 6 below it, which takes ~6/q
# shuffles when the data's value sits at quantile q; the compression
# statistic, by far the costliest (a bzip2 size of 2-3.6 MB of text per
# shuffle), is scored until it is decided.  So the cases are: fresh
# getrandom(2) data (q uniform: typical), sim:ideal (seed 1: its
# periodicity(1) and compression sit near the 1% tail, an unlucky but honest
# sample), NIST's truerand files, and data that is not IID (a statistic that
# fails is scored on all 10,000 shuffles; compression, once another has
# failed, is not scored without --full).  CPU time is shown because the machine
# may be shared: wall time then depends on what else runs.
# Then the spread over fresh IID inputs (sim:ideal seeds 1..SEEDS, one run
# each): median, 90th percentile and maximum wall time.
# Usage: scripts/bench-iid.sh [build-dir]     (RUNS=5, SEEDS=20 by default)
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
NIST="$(dirname "$0")/../tests/data/nist-90b/bin"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# median_times RUNS CMD...: "WALL CPU", the medians over RUNS runs (seconds)
median_times() {
	runs=$1; shift
	i=0
	: >"$tmp/times"
	while [ "$i" -lt "$runs" ]; do
		st=0
		/usr/bin/time -o "$tmp/t" -f '%e %U %S' "$@" >/dev/null 2>&1 || st=$?
		# exit 1 is a verdict (the data was rejected), not a failure to run
		[ "$st" -le 1 ] || { echo "bench: command failed ($st): $*" >&2; return 1; }
		tail -n 1 "$tmp/t" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }' >>"$tmp/times"
		i=$((i + 1))
	done
	med() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }
	printf '%s %s\n' "$(cut -d' ' -f1 "$tmp/times" | med)" "$(cut -d' ' -f2 "$tmp/times" | med)"
}

"$RNGAUDIT" collect --no-health --source sim:ideal -n 1000000 --bits 1 -o "$tmp/s1.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source sim:ideal -n 1000000 --bits 8 -o "$tmp/s8.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source sim:ideal -n 1000000 --bits 4 -o "$tmp/r4.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source getrandom -n 1000000 --bits 1 -o "$tmp/g1.bin" 2>/dev/null
"$RNGAUDIT" collect --no-health --source getrandom -n 1000000 --bits 8 -o "$tmp/g8.bin" 2>/dev/null

printf '%-44s %9s %9s %9s %7s\n' "case (default seed)" "wall s" "cpu s" "shuffles" "bzip2"
iid_case() {   # LABEL FILE BITS
	"$RNGAUDIT" iid -v "$2" "$3" >"$tmp/out" 2>&1 || true
	shuffles=$(sed -n 's/^Permutation seed: .*(\([0-9]*\) shuffles.*/\1/p' "$tmp/out")
	# scores counted in the C0/C1/C2 table, plus the original data's
	scores=$(awk '$1 == "compression" || $1 == "compression*" { print $2 + $3 + $4 + 1 }' \
		"$tmp/out")
	t=$(median_times "$RUNS" "$RNGAUDIT" iid "$2" "$3" || echo "failed -")
	printf '%-44s %9s %9s %9s %7s\n' "$1" ${t} "${shuffles:-?}" "${scores:-?}"
}
iid_case "iid 1-bit sim:ideal" "$tmp/s1.bin" 1
iid_case "iid 1-bit getrandom" "$tmp/g1.bin" 1
iid_case "iid 1-bit truerand_1bit.bin" "$NIST/truerand_1bit.bin" 1
iid_case "iid 1-bit biased-random-bits.bin (98% 0)" "$NIST/biased-random-bits.bin" 1
iid_case "iid 1-bit ringOsc-nist.bin (not IID)" "$NIST/ringOsc-nist.bin" 1
iid_case "iid 8-bit sim:ideal (seed 1: 1% tail)" "$tmp/s8.bin" 8
iid_case "iid 8-bit getrandom" "$tmp/g8.bin" 8
iid_case "iid 8-bit truerand_8bit.bin" "$NIST/truerand_8bit.bin" 8
LC_ALL=C awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%c", i % 256 }' >"$tmp/c8.bin"
iid_case "iid 8-bit counter i % 256 (not IID)" "$tmp/c8.bin" 8

# The running time is a property of the data (where its statistics fall
# among the shuffles' values), so one file says little about IID data in
# general: fresh IID inputs, sim:ideal with seeds 1..$SEEDS, one run each.
spread_case() {   # BITS
	: >"$tmp/spread"
	s=1
	while [ "$s" -le "$SEEDS" ]; do
		"$RNGAUDIT" collect --no-health --source "sim:ideal,seed=$s" -n 1000000 --bits "$1" \
			-o "$tmp/sp.bin" 2>/dev/null
		/usr/bin/time -o "$tmp/t" -f '%e %U %S' "$RNGAUDIT" iid "$tmp/sp.bin" "$1" \
			>/dev/null 2>&1 || true
		tail -n 1 "$tmp/t" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }' >>"$tmp/spread"
		s=$((s + 1))
	done
	sort -g "$tmp/spread" | awk -v bits="$1" -v k="$SEEDS" '
		{ w[NR] = $1; if ($1 <= 10) under++ }
		END {
			m = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
			p90 = w[int(0.9 * NR + 0.999)]
			printf "%-44s %9.2f %9s   p90 %.2f s, max %.2f s, %d of %d within 10 s\n", \
				"iid " bits "-bit, " k " IID inputs: median wall", m, "", p90, w[NR], under, NR
		}'
}
: "${SEEDS:=20}"
spread_case 8
spread_case 1

t=$(median_times "$RUNS" "$RNGAUDIT" restart "$tmp/r4.bin" 4 3)
printf '%-44s %9s %9s\n' "restart (non-IID), 1000x1000 4-bit" ${t}
t=$(median_times "$RUNS" "$RNGAUDIT" restart -i "$tmp/r4.bin" 4 3)
printf '%-44s %9s %9s\n' "restart -i (IID), 1000x1000 4-bit" ${t}
