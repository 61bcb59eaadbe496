# SPDX-License-Identifier: GPL-3.0-or-later
# bench-lib.sh - shared helpers for the benchmark scripts (sourced).
# time_once CMD...: prints the wall-clock seconds of one run.
time_once() {
	s=$(date +%s.%N)
	# exit 1 is a verdict (a health test or gate failed), not a failure to run
	st=0; "$@" >/dev/null 2>&1 || st=$?
	[ "$st" -le 1 ] || { echo "bench: command failed ($st): $*" >&2; return 1; }
	e=$(date +%s.%N)
	echo "$e - $s" | bc -l
}
# median_time RUNS CMD...: prints the median wall-clock seconds of RUNS runs.
median_time() {
	runs=$1; shift
	i=0
	while [ "$i" -lt "$runs" ]; do
		time_once "$@" || return 1
		i=$((i + 1))
	done | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f\n", m}'
}
# interleaved_times RUNS CMDLINE...: runs the shell command lines in turn,
# RUNS rounds (A B A B ...), printing "ROUND INDEX SECONDS" a run (INDEX
# from 1).  Timed one after the other, a drift in a shared machine's load
# falls on whichever ran last and biases their ratio; in turn, it falls on
# every command alike.
interleaved_times() {
	runs=$1; shift
	r=1
	while [ "$r" -le "$runs" ]; do
		k=1
		for c in "$@"; do
			t=$(time_once sh -c "$c") || return 1
			echo "$r $k $t"
			k=$((k + 1))
		done
		r=$((r + 1))
	done
}
# median_of INDEX < TIMES: the median seconds of command INDEX in interleaved_times' output.
median_of() {
	awk -v k="$1" '$2 == k {print $3}' | sort -g |
		awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f\n", m}'
}
# median_ratio A B < TIMES: the median over rounds of t(A) / t(B), each
# round's two runs side by side: what is left of a drift slower than a round.
median_ratio() {
	awk -v a="$1" -v b="$2" '$2 == a {ta[$1]=$3} $2 == b {tb[$1]=$3}
		END {for (r in ta) if (r in tb && tb[r] > 0) print ta[r] / tb[r]}' | sort -g |
		awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f\n", m}'
}
# peak_rss_kb CMD...: the peak resident set size of one run, in KiB.
peak_rss_kb() {
	/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1
}
: "${RNGAUDIT:=$(dirname "$0")/../src/rngaudit}"
: "${RUNS:=5}"
