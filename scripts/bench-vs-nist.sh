#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-vs-nist.sh - issue 28's table: rngaudit against NIST's own
# SP800-90B_EntropyAssessment tools, row by row, on the same machine in one
# run: CPU (user + sys, all threads), wall time and peak RSS of each side,
# medians of $RUNS runs of rngaudit and of $NIST_RUNS runs of NIST's tool,
# the two taken in turn, and the ratios NIST / rngaudit.
#
# It builds nothing: NIST_DIR is a NIST checkout (or its cpp/ directory)
# where NIST's own Makefile has built ea_non_iid, ea_iid and ea_restart.
# Rows (-r picks some, comma-separated):
#   assess8     ea_non_iid -a / rngaudit assess -a, NIST's truerand_8bit.bin (1M 8-bit)
#   assess8-10m the same on 10,000,000 bytes of /dev/urandom
#   assess1     the same on NIST's truerand_1bit.bin (1M 1-bit)
#   iid8        ea_iid / rngaudit iid on truerand_8bit.bin (rngaudit's
#               shuffles from its fixed default seed, so its early stop is the
#               same every run; NIST seeds from /dev/urandom)
#   iid8-rdrand the same on 1,000,000 8-bit samples captured from RDRAND
#               (rngaudit collect --source rdrand; only where RDRAND exists)
#   restart8    ea_restart / rngaudit restart, truerand_8bit.bin as the
#               1000 x 1000 matrix, H_I = 7 (the non-IID track)
# NIST's runs take 1-170 s each (the 10M assess the longest): a full table
# is about a quarter of an hour.  For a quiet machine: other load skews it.
#
# usage: scripts/bench-vs-nist.sh [-n RUNS] [-N NIST_RUNS] [-r ROWS] [-b RNGAUDIT]
#                                 [NIST_DIR] [BUILD-DIR]
#   RUNS (default 5), NIST_RUNS (default 3) and NIST_DIR may also come from
#   the environment.  scripts/bench-all.sh runs every bench-*.sh with the
#   build directory alone: then this one runs if NIST_DIR is set, and says
#   it skipped otherwise.
# Needs GNU time (/usr/bin/time) and bash.
set -eu

runs=${RUNS:-5}
nist_runs=${NIST_RUNS:-3}
rows=assess8,assess8-10m,assess1,iid8,iid8-rdrand,restart8
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${RNGAUDIT:-}
usage() {
	echo "usage: $0 [-n RUNS] [-N NIST_RUNS] [-r ROWS] [-b RNGAUDIT] [NIST_DIR] [BUILD-DIR]" >&2
	exit 2
}
while getopts n:N:r:b: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	N) nist_runs=$OPTARG ;;
	r) rows=$OPTARG ;;
	b) bin=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
is_nist() { [ -x "$1/ea_iid" ] || [ -x "$1/cpp/ea_iid" ]; }
# one argument that is not a NIST build: bench-all.sh's BUILD-DIR
if [ $# -eq 1 ] && ! is_nist "$1" && [ -x "$1/src/rngaudit" ]; then
	set -- "${NIST_DIR:-}" "$1"
fi
if [ $# -eq 0 ]; then
	set -- "${NIST_DIR:-}"
fi
if [ -z "$1" ]; then
	echo "bench-vs-nist: skipped (NIST_DIR is not set: point it at a build of NIST's SP800-90B_EntropyAssessment)"
	exit 0
fi
[ $# -le 2 ] || usage
nist=$1
[ -x "$nist/cpp/ea_iid" ] && nist=$nist/cpp
for t in ea_non_iid ea_iid ea_restart; do
	[ -x "$nist/$t" ] || { echo "$0: no $t in $1 (build NIST's tools with make in its cpp/ first)" >&2; exit 2; }
done
if [ $# -ge 2 ]; then
	bin=$2/src/rngaudit
fi
if [ -z "$bin" ]; then
	for c in "$here/src/rngaudit" "$here/../build/src/rngaudit"; do
		[ -x "$c" ] && { bin=$c; break; }
	done
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "$0: no rngaudit binary (use -b PATH or BUILD-DIR)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }
command -v bash >/dev/null || { echo "$0: needs bash (for its times builtin)" >&2; exit 2; }
# NIST's sample files: beside its cpp/, else rngaudit's copy
data=$nist/../bin
[ -f "$data/truerand_8bit.bin" ] || data=$here/tests/data/nist-90b/bin
[ -f "$data/truerand_8bit.bin" ] || { echo "$0: no truerand_8bit.bin in $nist/../bin" >&2; exit 2; }
export RNGAUDIT_NO_PROGRESS=1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-vs-nist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; print m}'; }

# once OUT CMD...: runs CMD once and appends "CPU WALL RSS_MB" to OUT.
# Exit statuses 0, 1 and 255 are verdicts (NIST's tools exit -1 when a
# restart test fails), anything else a failure to run.  GNU time gives the
# wall time and the peak RSS; the CPU time comes from bash's `times` (the
# user and system time of the command, to the millisecond), because GNU
# time prints it in hundredths: the 1-bit row's ~0.08 s moved by 12% a tick.
once() {
	out=$1; shift
	st=0
	/usr/bin/time -o "$tmp/t" -f '%e %M' \
		bash -c '"$@" >/dev/null 2>"$0"; st=$?; times >"$0.cpu"; exit $st' "$tmp/err" "$@" || st=$?
	case $st in
	0|1|255) ;;
	*) echo "$0: failed ($st): $*" >&2; sed 's/^/  /' "$tmp/err" >&2; return 1 ;;
	esac
	# times: the shell's own user and system time, then its children's
	cpu=$(sed -n 2p "$tmp/err.cpu" | awk '{
		t = 0
		for (f = 1; f <= 2; f++) {
			split($f, p, "m")
			t += p[1] * 60 + substr(p[2], 1, length(p[2]) - 1)
		}
		printf "%.3f", t
	}')
	tail -n 1 "$tmp/t" | awk -v cpu="$cpu" '{ printf "%.3f %.3f %.1f\n", cpu, $1, $2 / 1024 }' >>"$out"
}

# medians FILE: "CPU WALL RSS_MB", each the median of FILE's lines.
medians() {
	printf '%s %s %s\n' "$(cut -d' ' -f1 "$1" | median)" "$(cut -d' ' -f2 "$1" | median)" \
		"$(cut -d' ' -f3 "$1" | median)"
}

want() { case ",$rows," in *",$1,"*) return 0 ;; esac; return 1; }

echo "NIST:     $nist ($nist_runs runs a row)"
echo "rngaudit: $bin ($runs runs a row)"
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
fmt='| %-34s | %-28s | %-28s | %-15s |\n'
printf "$fmt" work "NIST CPU / wall, RSS" "rngaudit CPU / wall, RSS" "ratio CPU / wall"
printf "$fmt" "---" "---" "---" "---"

# row LABEL NIST-CMD... -- RNGAUDIT-CMD...: the two commands' runs taken in
# turn (NIST, rngaudit, NIST, ...; rngaudit's runs past NIST's at the end),
# so that the machine's drift over the minutes a row takes (10-20% on these
# VMs) moves both sides alike, then the medians of each.
row() {
	label=$1; shift
	: >"$tmp/ncmd"
	while [ "$1" != -- ]; do printf '%s\n' "$1" >>"$tmp/ncmd"; shift; done
	shift
	: >"$tmp/mr"
	: >"$tmp/mn"
	# the NIST command, one word a line (no word here holds a newline)
	set -- "$tmp/ncmd" "$@"
	i=0
	nfail=0
	rfail=0
	while [ "$i" -lt "$runs" ] || [ "$i" -lt "$nist_runs" ]; do
		if [ "$i" -lt "$nist_runs" ] && [ "$nfail" -eq 0 ]; then
			nist_once "$@" || nfail=1
		fi
		if [ "$i" -lt "$runs" ] && [ "$rfail" -eq 0 ]; then
			shift_once "$@" || rfail=1
		fi
		i=$((i + 1))
	done
	if [ "$rfail" -ne 0 ]; then printf "$fmt" "$label" "-" "(rngaudit failed)" "-"; return 0; fi
	if [ "$nfail" -ne 0 ]; then printf "$fmt" "$label" "(NIST failed)" "-" "-"; return 0; fi
	echo "$(medians "$tmp/mn") $(medians "$tmp/mr")" | awk -v label="$label" -v fmt="$fmt" '{
		n = sprintf("%.2f s / %.2f s, %.0f MB", $1, $2, $3)
		r = sprintf("%.2f s / %.2f s, %.0f MB", $4, $5, $6)
		q = sprintf("%.1fx / %.1fx", $4 > 0 ? $1 / $4 : 0, $5 > 0 ? $2 / $5 : 0)
		printf fmt, label, n, r, q
	}'
}
# nist_once NCMD-FILE RNGAUDIT-CMD...: one run of the command listed in NCMD-FILE
nist_once() {
	(
		f=$1
		set --
		while IFS= read -r w; do set -- "$@" "$w"; done <"$f"
		once "$tmp/mn" "$@"
	)
}
# shift_once NCMD-FILE RNGAUDIT-CMD...: one run of the rngaudit command
shift_once() {
	shift
	once "$tmp/mr" "$@"
}

t8=$data/truerand_8bit.bin
t1=$data/truerand_1bit.bin
if want assess8; then
	row "assess 8-bit, 1M (truerand_8bit)" "$nist/ea_non_iid" -a "$t8" 8 -- "$bin" assess -a "$t8" 8
fi
if want assess8-10m; then
	head -c 10000000 /dev/urandom >"$tmp/urandom-10M.bin"
	row "assess 8-bit, 10M (urandom)" "$nist/ea_non_iid" -a "$tmp/urandom-10M.bin" 8 -- \
		"$bin" assess -a "$tmp/urandom-10M.bin" 8
	rm -f "$tmp/urandom-10M.bin"
fi
if want assess1; then
	row "assess 1-bit, 1M (truerand_1bit)" "$nist/ea_non_iid" -a "$t1" 1 -- "$bin" assess -a "$t1" 1
fi
if want iid8; then
	row "iid 8-bit, 1M (truerand_8bit)" "$nist/ea_iid" -a "$t8" 8 -- "$bin" iid -a "$t8" 8
fi
if want iid8-rdrand; then
	if grep -qw rdrand /proc/cpuinfo &&
	   "$bin" collect --source rdrand --bits 8 -n 1000000 --no-health -o "$tmp/rdrand-1M.bin" >/dev/null 2>&1; then
		row "iid 8-bit, 1M (RDRAND capture)" "$nist/ea_iid" -a "$tmp/rdrand-1M.bin" 8 -- \
			"$bin" iid -a "$tmp/rdrand-1M.bin" 8
	else
		printf "$fmt" "iid 8-bit, 1M (RDRAND capture)" "(no RDRAND here)" "-" "-"
	fi
fi
if want restart8; then
	row "restart 8-bit (truerand_8bit, H_I 7)" "$nist/ea_restart" "$t8" 8 7 -- "$bin" restart "$t8" 8 7
fi
