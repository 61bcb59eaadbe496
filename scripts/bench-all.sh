#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-all.sh - run every benchmark script (medians of $RUNS runs each) and
# print their figures (bench-degenerate.sh among them: issue 28's bad input).
# Usage: scripts/bench-all.sh [build-dir]
# Benchmarks are for a quiet machine: other load skews them.
dir=$(dirname "$0")
for b in "$dir"/bench-*.sh; do
	case $b in */bench-all.sh|*/bench-lib.sh) continue ;; esac
	echo "== $(basename "$b")"
	sh "$b" "$@" || echo "(failed: $b)"
done
