#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-predictors.sh - speed of the four prediction estimators (SP 800-90B
# 6.3.7-6.3.10) alone, medians of $RUNS runs each, on a 1,000,000-sample 8-bit
# file (sim:ideal, or FILE) and on its 8,000,000-bit bitstring, the way
# `rngaudit assess -a` runs them (one thread each).  Also the peak RSS of the
# whole run.  Target (issue 4): each well under 0.15 s.
# Usage: scripts/bench-predictors.sh [build-dir] [FILE]
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/bench-lib.sh"
build=${1:-$dir/..}
[ -n "$1" ] && RNGAUDIT="$1/src/rngaudit"
export RNGAUDIT_NO_PROGRESS=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-pred.XXXXXX"); trap 'rm -rf "$tmp"' EXIT

file=$2
if [ -z "$file" ]; then
	file=$tmp/s8.bin
	"$RNGAUDIT" collect --source sim:ideal -n 1000000 --no-health -o "$file" 2>/dev/null ||
		{ echo "bench-predictors: could not make a sample file with $RNGAUDIT" >&2; exit 2; }
fi
if ! cc -O2 -I"$dir/../src" -o "$tmp/bench-predictors" "$dir/bench-predictors.c" \
	"$build/src/librngaudit.a" $(pkg-config --libs gsl) -lm 2>"$tmp/cc.err"; then
	echo "bench-predictors: could not build scripts/bench-predictors.c: $(head -n 1 "$tmp/cc.err")" >&2
	exit 2
fi
"$tmp/bench-predictors" "$file" "$RUNS"
echo "peak RSS of the run above (KiB): $(peak_rss_kb "$tmp/bench-predictors" "$file" 1)"
