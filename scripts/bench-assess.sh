#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-assess.sh - median wall time and peak RSS of `rngaudit assess -a` on a
# 1,000,000-sample 8-bit file (issue 4 targets: <= 1.0 s wall on 2 cores,
# <= 96 MB peak RSS).
#
# usage: scripts/bench-assess.sh [-n RUNS] [-b RNGAUDIT] [-s] [BUILD-DIR] [FILE ...]
#   (bench-all.sh passes a BUILD-DIR; RUNS and RNGAUDIT may come from the
#   environment as for the other bench scripts)
#   FILE defaults to a fresh 1,000,000-byte file from /dev/urandom plus
#   tests/data/nist-90b/bin/{truerand_8bit,biased-random-bytes,normal}.bin.
#   -s adds the inputs issue 4 names as worst cases, each 1,000,000 bytes:
#   a period-2 pattern, every byte value in turn (a counter), a 100 KB random
#   block repeated 10 times, a 1000-byte block repeated 1000 times, 99.9%
#   zeros with rare random bytes, and the bit pattern 010 repeated.
# Needs GNU time (/usr/bin/time -v).
set -eu

runs=${RUNS:-5}
stress=0
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${RNGAUDIT:-}
while getopts n:b:s opt; do
	case $opt in
	n) runs=$OPTARG ;;
	b) bin=$OPTARG ;;
	s) stress=1 ;;
	*) echo "usage: $0 [-n RUNS] [-b RNGAUDIT] [-s] [FILE ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ] && [ -d "$1" ]; then
	bin=$1/src/rngaudit
	shift
fi
if [ -z "$bin" ]; then
	for c in "$here/src/rngaudit" "$here/../build/src/rngaudit"; do
		[ -x "$c" ] && { bin=$c; break; }
	done
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "$0: no rngaudit binary (use -b PATH)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-assess.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
	head -c 1000000 /dev/urandom >"$tmp/urandom-1M.bin"
	set -- "$tmp/urandom-1M.bin"
	for f in truerand_8bit biased-random-bytes normal; do
		[ -f "$here/tests/data/nist-90b/bin/$f.bin" ] && set -- "$@" "$here/tests/data/nist-90b/bin/$f.bin"
	done
	if [ "$stress" = 1 ]; then
		LC_ALL=C awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%c", i % 2 }' >"$tmp/period2.bin"
		LC_ALL=C awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%c", i % 256 }' >"$tmp/counter.bin"
		head -c 100000 /dev/urandom >"$tmp/blk"
		for i in 1 2 3 4 5 6 7 8 9 10; do cat "$tmp/blk"; done >"$tmp/repeat-100k-x10.bin"
		head -c 1000 /dev/urandom >"$tmp/blk"
		i=0; while [ $i -lt 1000 ]; do cat "$tmp/blk"; i=$((i + 1)); done >"$tmp/repeat-1k-x1000.bin"
		head -c 4000000 /dev/urandom | od -An -v -tu4 -w4 |
			LC_ALL=C awk '{ if ($1 % 1000 == 0) printf "%c", int($1 / 1000) % 256; else printf "%c", 0 }' >"$tmp/rare.bin"
		# bits 010 repeated: a repeat at every bit offset, the suffix array's case
		LC_ALL=C awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%c", i % 3 == 0 ? 73 : i % 3 == 1 ? 36 : 146 }' >"$tmp/bits-010.bin"
		set -- "$@" "$tmp/period2.bin" "$tmp/counter.bin" "$tmp/repeat-100k-x10.bin" \
			"$tmp/repeat-1k-x1000.bin" "$tmp/rare.bin" "$tmp/bits-010.bin"
	fi
fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "rngaudit: $bin"
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %5s %12s %12s %12s\n' file runs "wall s (med)" "user+sys s" "peak RSS MB"
for f in "$@"; do
	: >"$tmp/wall"; : >"$tmp/cpu"; : >"$tmp/rss"
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -v "$bin" assess -a "$f" >/dev/null 2>"$tmp/tv" || { echo "$0: assess failed on $f" >&2; cat "$tmp/tv" >&2; exit 1; }
		awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/tv" >>"$tmp/wall"
		awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$tmp/tv" >>"$tmp/cpu"
		awk -F': ' '/Maximum resident set size/ { printf "%.1f\n", $2 / 1024 }' "$tmp/tv" >>"$tmp/rss"
		i=$((i + 1))
	done
	printf '%-28s %5d %12s %12s %12s\n' "$(basename "$f")" "$runs" "$(median <"$tmp/wall")" \
		"$(median <"$tmp/cpu")" "$(median <"$tmp/rss")"
done
