#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# jitter_cli.sh - the jitter source end to end: `sources` lists it as raw
# noise; `audit` reduces it by the default translation, says so, and keeps
# it out of the exit status unless the policy names it; collect writes its
# 64-bit deltas with --format (and refuses to slice them without it), which
# translate and assess read back.
. "${top_srcdir:-.}/tests/tap.sh"

expect_exit 0 "sources" ra sources
check "sources lists jitter as raw noise" grep -q "^jitter .*available .*raw noise" "$TMPD/out"

# A tiny block and loop keep this quick; the figure itself is not checked.
J="jitter:mem=65536,loops=16"
expect_exit 0 "audit --source jitter: exit 0 whatever its verdict" ra audit --source "$J" -n 20000
check "audit: the TRANSLATED line names bits-in-use" grep -q "info TRANSLATED: Wide raw samples reduced by bits-in-use" "$TMPD/out"
check "audit: marked information only" grep -q "info INFORMATION_ONLY" "$TMPD/out"
check "audit: a min-entropy figure in the table" sh -c "grep '^jitter' '$TMPD/out' | head -1 | grep -Eq ' [0-9]+\.[0-9]{4} '"
printf 'required = jitter\n' >"$TMPD/policy"
expect_exit 0 "audit with jitter required: runs" sh -c "'$RNGAUDIT' audit --source '$J' -n 20000 --policy '$TMPD/policy'; test \$? -le 1"
check "audit: required jitter is not information only" sh -c "! grep -q INFORMATION_ONLY '$TMPD/out'"

expect_exit 0 "collect --format u64le: 64-bit deltas" ra collect --source "$J" --format u64le -n 10000 -o "$TMPD/j.u64"
check "collect: 10000 samples of 8 bytes" test "$(wc -c <"$TMPD/j.u64")" -eq 80000
expect_exit 0 "translate the deltas" ra translate --format u64le "$TMPD/j.u64" -o "$TMPD/j.bin"
check "translate: 10000 symbols" test "$(wc -c <"$TMPD/j.bin")" -eq 10000
expect_exit 0 "assess --format u64le on the deltas" ra assess --format u64le "$TMPD/j.u64"
check "assess: result line last" sh -c "tail -n 1 '$TMPD/out' | grep -q '^assessed min-entropy: '"
expect_exit 2 "collect without --format: exit 2" ra collect --source "$J" -n 1000 -o "$TMPD/no.bin"
check "collect without --format: one line saying to reduce them" one_line_error "reduce them"
check "collect without --format: no output" test ! -e "$TMPD/no.bin"
expect_exit 2 "health on raw jitter: exit 2" ra health --source "$J" --entropy 1 -n 1000
expect_exit 2 "bad jitter option: exit 2" ra audit --source jitter:mem=1 -n 1000
check "bad jitter option: names it" grep -q "mem=1" "$TMPD/err"

tap_done
