#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ideal-baseline.sh - regenerates src/audit/baseline_table.c: what an ideal
# source (sim:ideal) scores in the 90B estimators at each width (1..8 bits)
# and sample count of the grid, 100 seeded runs per cell (see
# src/audit/baseline.h).  Takes about 10-15 minutes of CPU on two cores.
# Usage: scripts/ideal-baseline.sh BUILD-DIR
set -e
dir=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: scripts/ideal-baseline.sh BUILD-DIR}
make -C "$build" tests/test_baseline >/dev/null
out=$dir/../src/audit/baseline_table.c
"$build/tests/test_baseline" --generate >"$out.tmp"
mv "$out.tmp" "$out"
echo "ideal-baseline: wrote $out" >&2
