#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cli_collect.sh - `rngaudit collect` end to end: output format, sources, bad input, signals.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1

# Output: N samples, one per byte, the low K bits.
expect_exit 0 "collect sim:ideal 1000 8-bit samples" ra collect --source sim:ideal --no-health -n 1000 -o "$TMPD/a.bin"
check "1000 bytes written" test "$(wc -c <"$TMPD/a.bin")" -eq 1000
check "summary names the sample count" grep -q "1000 samples of 8 bits" "$TMPD/err"
expect_exit 0 "collect 3-bit samples" ra collect --source sim:ideal --entropy 3 -n 5000 --bits 3 -o "$TMPD/b.bin"
check "3-bit samples are all < 8" sh -c "od -An -v -tu1 '$TMPD/b.bin' | tr -s ' ' '\n' | awk 'NF && \$1 > 7 {bad=1} END {exit bad}'"
check "3-bit file has 5000 samples" test "$(wc -c <"$TMPD/b.bin")" -eq 5000

# Slicing MSB first: file bytes 0xA5 0x3C 0xF0 as 3-bit samples are 5 1 2 3 6 3 6 0.
printf '\245\074\360' >"$TMPD/raw"
expect_exit 0 "collect from file: with --bits 3" ra collect --source "file:$TMPD/raw" -n 8 --bits 3 --no-health -o "$TMPD/c.bin"
check "file bytes sliced MSB first" test "$(od -An -v -tu1 "$TMPD/c.bin" | tr -s ' ' | sed 's/^ //')" = "5 1 2 3 6 3 6 0"
expect_exit 0 "collect to stdout with -o -" ra collect --source sim:ideal --entropy 8 -n 77 -o -
check "stdout holds 77 bytes" test "$(wc -c <"$TMPD/out")" -eq 77
expect_exit 0 "collect from stdin (file:-)" sh -c "printf 'abcdef' | '$RNGAUDIT' collect --source file:- --no-health -n 100 -o '$TMPD/d.bin'"
check "stdin: end of input keeps the 6 samples" test "$(wc -c <"$TMPD/d.bin")" -eq 6
check "end of input is reported" grep -q "end of input" "$TMPD/err"
expect_exit 0 "collect getrandom" ra collect --source getrandom -n 100000 -o "$TMPD/g.bin"
check "getrandom: 100000 samples" test "$(wc -c <"$TMPD/g.bin")" -eq 100000
if grep -qw rdrand /proc/cpuinfo; then
	expect_exit 0 "collect rdrand:width=16" ra collect --source rdrand:width=16 -n 4097 --bits 1 -o "$TMPD/r.bin"
	check "rdrand: 4097 1-bit samples" test "$(wc -c <"$TMPD/r.bin")" -eq 4097
	check "summary shows the underflow counter" grep -q "underflows (CF=0)" "$TMPD/err"
else
	skip "no RDRAND"; skip "no RDRAND"; skip "no RDRAND"
fi

# Bad input: one line naming the input, exit 2, no output file.
bad() {  # bad NAME NEEDLE ARGS...
	name=$1; needle=$2; shift 2
	rm -f "$TMPD/bad.bin"
	expect_exit 2 "$name exits 2" ra collect "$@"
	check "$name: one-line error naming '$needle'" one_line_error "$needle"
	check "$name: no output file" test ! -e "$TMPD/bad.bin"
}
bad "unknown source" "nosuch" --source nosuch -o "$TMPD/bad.bin"
bad "unknown option" "--frob" --source sim:ideal --frob -o "$TMPD/bad.bin"
bad "N zero" "-n 0" --source sim:ideal -n 0 -o "$TMPD/bad.bin"
bad "N negative" "-n -5" --source sim:ideal -n -5 -o "$TMPD/bad.bin"
bad "N not a number" "-n ten" --source sim:ideal -n ten -o "$TMPD/bad.bin"
bad "K zero" "bits" --source sim:ideal --bits 0 -o "$TMPD/bad.bin"
bad "K nine" "bits" --source sim:ideal --bits 9 -o "$TMPD/bad.bin"
bad "entropy above K" "--entropy 9" --source sim:ideal --entropy 9 -o "$TMPD/bad.bin"
bad "entropy zero" "--entropy 0" --source sim:ideal --entropy 0 -o "$TMPD/bad.bin"
bad "alpha outside (0,1)" "--alpha 2" --source sim:ideal --entropy 8 --alpha 2 -o "$TMPD/bad.bin"
bad "--entropy with --no-health" "--no-health" --source sim:ideal --no-health --entropy 8 -o "$TMPD/bad.bin"
bad "missing device" "/nonexistent/hwrng" --source hwrng:device=/nonexistent/hwrng -o "$TMPD/bad.bin"
bad "missing --source" "--source" -o "$TMPD/bad.bin"
bad "bad source option" "width=12" --source rdrand:width=12 -o "$TMPD/bad.bin"
# EACCES: an unprivileged user reading the root-only /dev/hwrng.
if [ "$(id -u)" -eq 0 ] && [ -c /dev/hwrng ] && command -v runuser >/dev/null &&
   runuser -u nobody -- test -x "$RNGAUDIT" 2>/dev/null && ! runuser -u nobody -- test -r /dev/hwrng; then
	expect_exit 2 "hwrng without permission exits 2" runuser -u nobody -- "$RNGAUDIT" collect --source hwrng -n 1 -o -
	check "hwrng without permission: one line naming the device" one_line_error "/dev/hwrng: Permission denied"
else
	skip "needs root, runuser and a root-only /dev/hwrng"; skip "needs root and /dev/hwrng"
fi
expect_exit 2 "unwritable output exits 2" ra collect --source sim:ideal --no-health -n 10 -o /nonexistent/dir/x.bin
check "unwritable output: one line naming it" one_line_error "/nonexistent/dir/x.bin"
check "no temporary files left behind" sh -c "! ls -a '$TMPD' | grep -q '\.tmp\.'"

# A raw source without --entropy: the policy's claim (0.5 bit per bit), said in the summary.
expect_exit 0 "raw source without --entropy: the policy's claim" ra collect --source sim:ideal -n 100000 -o "$TMPD/raw.bin"
check "the claim and where it came from are shown" grep -q "claimed entropy 4 bits/sample (raw or unknown source: the policy's claim" "$TMPD/err"
check "alpha covers the run" grep -q "alpha 2^-20 over 100000 samples" "$TMPD/err"

# Online health tests: on by default, exit 1 on a failure, the file still whole.
expect_exit 1 "stuck source fails the health tests (exit 1)" ra collect --source sim:stuck,after=5000 --entropy 8 -n 20000 --per-window -o "$TMPD/h.bin"
check "the file is still written whole" test "$(wc -c <"$TMPD/h.bin")" -eq 20000
check "summary gives the RCT cutoff" grep -q "RCT cutoff: 4" "$TMPD/err"
check "summary gives the first failure" grep -q "first failure at sample 5003" "$TMPD/err"
expect_exit 0 "--no-health: no tests, exit 0" ra collect --source sim:stuck,after=5000 --no-health -n 20000 -o "$TMPD/h.bin"
check "--no-health is said in the summary" grep -q "health tests: off" "$TMPD/err"
expect_exit 1 "--stop-on-failure stops early" ra collect --source sim:stuck,after=5000 --entropy 8 --stop-on-failure -n 1000000 -o "$TMPD/h.bin"
check "--stop-on-failure keeps fewer samples" test "$(wc -c <"$TMPD/h.bin")" -lt 1000000
expect_exit 0 "ideal source passes (exit 0)" ra collect --source sim:ideal --entropy 8 -n 200000 -o "$TMPD/h.bin"
expect_exit 1 "amd-rdrand-ffffffff fails at once (DRBG: H defaults to K)" ra collect --source sim:amd-rdrand-ffffffff -n 1000 --per-window -o "$TMPD/h.bin"
check "amd-rdrand-ffffffff: first failure within 4 samples" grep -q "first failure at sample [0-3]$" "$TMPD/err"

# SIGINT: the samples so far are kept, whole, and the summary says partial.
# A slow producer (3 bytes, then silence) keeps collect blocked in read().
(printf 'abc'; sleep 3) | "$RNGAUDIT" collect --source file:- --no-health -n 1000 -o "$TMPD/int.bin" 2>"$TMPD/int.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; st=$?
test "$st" -eq 2; ok $? "interrupted collect exits 2 (a bounded run cut short; DESIGN: Signals and exit codes)"
check "interrupted collect keeps a file" test -s "$TMPD/int.bin"
check "summary says partial" grep -q "interrupted: partial" "$TMPD/int.err"
n=$(wc -c <"$TMPD/int.bin")
check "summary count equals the file size ($n)" grep -q "kept the $n whole samples" "$TMPD/int.err"
tap_done
