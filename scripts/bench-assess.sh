#!/bin/sh
# bench-assess.sh - median wall time and peak RSS of `rngaudit assess -a` on a
# 1,000,000-sample 8-bit file (issue 4 targets: <= 1.0 s wall on 2 cores,
# <= 96 MB peak RSS).
#
# usage: scripts/bench-assess.sh [-n RUNS] [-b RNGAUDIT] [BUILD-DIR] [FILE ...]
#   (bench-all.sh passes a BUILD-DIR; RUNS and RNGAUDIT may come from the
#   environment as for the other bench scripts)
#   FILE defaults to a fresh 1,000,000-byte file from /dev/urandom plus
#   tests/data/nist-90b/bin/{truerand_8bit,biased-random-bytes,normal}.bin.
# Needs GNU time (/usr/bin/time -v).
set -eu

runs=${RUNS:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${RNGAUDIT:-}
while getopts n:b: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	b) bin=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS] [-b RNGAUDIT] [FILE ...]" >&2; exit 2 ;;
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
