# SPDX-License-Identifier: GPL-3.0-or-later
# bench-lib.sh - shared helpers for the benchmark scripts (sourced).
# median_time RUNS CMD...: prints the median wall-clock seconds of RUNS runs.
median_time() {
	runs=$1; shift
	i=0
	while [ "$i" -lt "$runs" ]; do
		s=$(date +%s.%N)
		# exit 1 is a verdict (a health test or gate failed), not a failure to run
		st=0; "$@" >/dev/null 2>&1 || st=$?
		[ "$st" -le 1 ] || { echo "bench: command failed ($st): $*" >&2; return 1; }
		e=$(date +%s.%N)
		echo "$e - $s" | bc -l
		i=$((i + 1))
	done | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.4f\n", m}'
}
# peak_rss_kb CMD...: the peak resident set size of one run, in KiB.
peak_rss_kb() {
	/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1
}
: "${RNGAUDIT:=$(dirname "$0")/../src/rngaudit}"
: "${RUNS:=5}"
