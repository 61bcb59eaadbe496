#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz-run.sh - runs one libFuzzer target of `make fuzz` for a while, at low
# priority, on a scratch copy of its committed corpus, then merges what it
# found (minimized) back into tests/fuzz/corpus/NAME/.  Crashes, leaks and
# timeouts land in BUILD/fuzz/artifacts/NAME/ (HACKING.md, Fuzzing).
#
# usage: scripts/fuzz-run.sh BUILD-DIR NAME SECONDS [libFuzzer options...]
#   e.g. scripts/fuzz-run.sh ../build spec 600 -max_len=512
# Prints libFuzzer's log to BUILD/fuzz/NAME.log and its last status line.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 BUILD-DIR NAME SECONDS [libFuzzer options...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
name=$2
secs=$3
shift 3
bin=$build/fuzz/fuzz_$name
corpus=$top/tests/fuzz/corpus/$name
work=$build/fuzz/work/$name
art=$build/fuzz/artifacts/$name
[ -x "$bin" ] || { echo "$0: $bin: not built (make fuzz)" >&2; exit 2; }
mkdir -p "$work" "$art"
[ -d "$corpus" ] && cp -n "$corpus"/* "$work"/ 2>/dev/null || true
# -timeout: no parser input should take seconds; -rss_limit_mb: nor gigabytes.
nice -n 10 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$art/" "$@" "$work" >"$build/fuzz/$name.log" 2>&1 || true
grep -E '^#[0-9]+' "$build/fuzz/$name.log" | tail -n 1
grep -E 'stat::number_of_executed_units|ERROR|SUMMARY' "$build/fuzz/$name.log" || true
# Keep only inputs that add coverage (libFuzzer -merge=1 minimizes the set).
mkdir -p "$corpus"
tmp=$build/fuzz/merge.$name
rm -rf "$tmp" && mkdir -p "$tmp"
nice -n 10 "$bin" -merge=1 "$@" "$tmp" "$work" >"$build/fuzz/$name.merge.log" 2>&1
rm -f "$corpus"/* && cp "$tmp"/* "$corpus"/ && rm -rf "$tmp"
echo "corpus $name: $(ls "$corpus" | wc -l) files, $(du -sk "$corpus" | cut -f1) KB"
