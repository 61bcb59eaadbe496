#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-degenerate.sh - issue 28's "bad input" figures: `rngaudit assess -a`
# on degenerate 8-bit inputs against random data of the same length, at each
# size in $SIZES (default 1,000,000 and 10,000,000 samples).  Each input's
# median CPU time (user + sys, all threads), wall time and peak RSS over
# $RUNS rounds (each round runs every input once), and the median over the
# rounds of its CPU time as a ratio to the random input's in the same round;
# the target is a ratio of at most 1.5.
#
# Inputs (each exactly SIZE bytes, one sample a byte):
#   random        /dev/urandom
#   all-equal     zero bytes (one symbol: NIST awards no entropy, no estimator runs)
#   equal+2       zero bytes but the last two samples 1 and 2 (three symbols:
#                 every estimator runs, the bitstring too; repeats as long as the input)
#   period-2      0, 1, 0, 1, ...
#   counter       0, 1, ..., 255, 0, 1, ...
#   block-100k    one 100,000-byte random block repeated
#   bits-010      the bit pattern 010 repeated (bytes 73, 36, 146): a repeat
#                 at every bit offset, the suffix structures' worst case
#   equal+2@8     equal+2 assessed as 8-bit samples (`assess -a FILE 8`): a
#                 source stuck at 0 with a glitch; its bitstring is one run of
#                 8 x SIZE - 9 bits and the glitch (inferred: 2-bit samples)
#   ff+2@8        0xff bytes but the last two 1 and 2, at 8 bits: a source
#                 stuck at all ones (AMD's RDRAND after resume) with a glitch
#
# Usage: scripts/bench-degenerate.sh [build-dir]     (RUNS=3, SIZES="1000000 10000000")
# Needs GNU time (/usr/bin/time).  bench-all.sh runs it with the others.
set -e
. "$(dirname "$0")/bench-lib.sh"
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
: "${SIZES:=1000000 10000000}"
export RNGAUDIT_NO_PROGRESS=1
[ -x "$RNGAUDIT" ] || { echo "$0: no rngaudit at $RNGAUDIT (give the build directory)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-degenerate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# repeat_to UNIT SIZE OUT: UNIT's bytes repeated (by doubling) and cut to SIZE
repeat_to() {
	cp "$1" "$tmp/rep"
	while [ "$(wc -c <"$tmp/rep")" -lt "$2" ]; do
		cat "$tmp/rep" "$tmp/rep" >"$tmp/rep2"
		mv "$tmp/rep2" "$tmp/rep"
	done
	head -c "$2" "$tmp/rep" >"$3"
}

make_inputs() {
	size=$1
	head -c "$size" /dev/urandom >"$tmp/random"
	head -c "$size" /dev/zero >"$tmp/all-equal"
	{ head -c $((size - 2)) /dev/zero; printf '\001\002'; } >"$tmp/equal+2"
	printf '\000\001' >"$tmp/unit"
	repeat_to "$tmp/unit" "$size" "$tmp/period-2"
	LC_ALL=C awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' >"$tmp/unit"
	repeat_to "$tmp/unit" "$size" "$tmp/counter"
	head -c 100000 /dev/urandom >"$tmp/unit"
	repeat_to "$tmp/unit" "$size" "$tmp/block-100k"
	printf '\111\044\222' >"$tmp/unit"
	repeat_to "$tmp/unit" "$size" "$tmp/bits-010"
	cp "$tmp/equal+2" "$tmp/equal+2@8"
	{ head -c $((size - 2)) /dev/zero | tr '\000' '\377'; printf '\001\002'; } >"$tmp/ff+2@8"
}

# med FILE: the median of the numbers in FILE, one a line
med() {
	sort -g "$1" | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f\n", m }'
}

echo "rngaudit: $RNGAUDIT"
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $RUNS rounds, medians"
INPUTS="random all-equal equal+2 period-2 counter block-100k bits-010 equal+2@8 ff+2@8"
for size in $SIZES; do
	make_inputs "$size"
	printf '\n%s samples\n%-12s %9s %9s %9s %13s\n' "$size" input "CPU s" "wall s" "RSS MB" "CPU / random"
	for f in $INPUTS; do
		: >"$tmp/$f.cpu"; : >"$tmp/$f.wall"; : >"$tmp/$f.rss"; : >"$tmp/$f.ratio"
	done
	# round by round, every input once a round: the host's speed drifts by
	# tens of percent over minutes here, and a ratio of two runs a few
	# seconds apart drifts far less than one of two medians taken minutes
	# apart (the ratio printed is the median of the rounds' ratios)
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		for f in $INPUTS; do
			case $f in *@8) bits=8 ;; *) bits= ;; esac
			# shellcheck disable=SC2086   # bits: no word, or one
			/usr/bin/time -f '%U %S %e %M' -o "$tmp/tv" "$RNGAUDIT" assess -a "$tmp/$f" $bits >/dev/null 2>"$tmp/err" ||
				{ echo "$0: assess failed on $f ($size samples)" >&2; cat "$tmp/err" >&2; exit 1; }
			cpu=$(awk '{ print $1 + $2 }' "$tmp/tv")
			[ "$f" = random ] && base=$cpu
			echo "$cpu" >>"$tmp/$f.cpu"
			echo "$cpu $base" | awk '{ printf "%.4f\n", ($2 > 0 ? $1 / $2 : 0) }' >>"$tmp/$f.ratio"
			awk '{ print $3 }' "$tmp/tv" >>"$tmp/$f.wall"
			awk '{ printf "%.1f\n", $4 / 1024 }' "$tmp/tv" >>"$tmp/$f.rss"
		done
		i=$((i + 1))
	done
	for f in $INPUTS; do
		printf '%-12s %9s %9s %9s %13s\n' "$f" "$(med "$tmp/$f.cpu")" "$(med "$tmp/$f.wall")" \
			"$(med "$tmp/$f.rss")" "$(med "$tmp/$f.ratio" | awk '{ printf "%.2f", $1 }')"
	done
done
