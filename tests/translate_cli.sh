#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# translate_cli.sh - wide raw samples end to end: `rngaudit translate` for
# each format and method, byte orders and text agreeing, bad input (one
# line, exit 2, nothing written), and `assess --format` (and iid) saying
# how it reduced the samples, assess keeping its result line last.
. "${top_srcdir:-.}/tests/tap.sh"

N=20000
# 6 uniform bits under 10 stuck ones: 0x1200 + u, u uniform below 64, so
# bits 0-5 change and no other; the same values in every format.
perl -e 'srand(19); print pack("v*", map { 0x1200 + int(rand(64)) } 1..'$N')' >"$TMPD/s.u16le"
perl -e 'srand(19); print pack("n*", map { 0x1200 + int(rand(64)) } 1..'$N')' >"$TMPD/s.u16be"
perl -e 'srand(19); print map { (0x1200 + int(rand(64))) . "\n" } 1..'$N >"$TMPD/s.dec"
perl -e 'srand(19); print map { sprintf("0x%x\r\n", 0x1200 + int(rand(64))) } 1..'$N >"$TMPD/s.hex"
perl -e 'srand(19); print pack("V*", map { 0x1200 + int(rand(64)) } 1..'$N')' >"$TMPD/s.u32le"

expect_exit 0 "u16le, bits-in-use" ra translate --format u16le "$TMPD/s.u16le" -o "$TMPD/le.bin"
check "bits-in-use: says 6 of 16 bits change (0-5)" grep -q "s.u16le: $N u16le samples -> 6-bit symbols: bits-in-use: 6 of 16 bits change (0-5)" "$TMPD/out"
check "one symbol per sample" test "$(wc -c <"$TMPD/le.bin")" -eq $N
check "symbols below 64" sh -c "od -An -tu1 -v '$TMPD/le.bin' | tr -s ' ' '\n' | awk 'NF && \$1 >= 64 { bad = 1 } END { exit bad }'"
expect_exit 0 "u16be" ra translate --format u16be "$TMPD/s.u16be" -o "$TMPD/be.bin"
check "u16be gives the same symbols as u16le" cmp -s "$TMPD/le.bin" "$TMPD/be.bin"
expect_exit 0 "dec text" ra translate --format dec "$TMPD/s.dec" -o "$TMPD/dec.bin"
check "dec gives the same symbols" cmp -s "$TMPD/le.bin" "$TMPD/dec.bin"
expect_exit 0 "hex text with 0x and CRLF" ra translate --format hex "$TMPD/s.hex" -o "$TMPD/hex.bin"
check "hex gives the same symbols" cmp -s "$TMPD/le.bin" "$TMPD/hex.bin"
expect_exit 0 "u32le, low:6" ra translate --format u32le --method low:6 "$TMPD/s.u32le" -o "$TMPD/low.bin"
check "low:6 gives the same symbols as bits-in-use here" cmp -s "$TMPD/le.bin" "$TMPD/low.bin"
expect_exit 0 "mod:64 to stdout" sh -c "'$RNGAUDIT' translate --format u16le --method mod:64 '$TMPD/s.u16le' -o - >'$TMPD/mod.bin' 2>'$TMPD/desc'"
check "mod:64 gives the same symbols (0x1200 is 0 mod 64)" cmp -s "$TMPD/le.bin" "$TMPD/mod.bin"
check "-o -: the description goes to stderr" grep -q "mod:64: each 16-bit sample modulo 64" "$TMPD/desc"
expect_exit 0 "u8 round trip with low:8" ra translate --format u8 --method low:8 "$TMPD/le.bin" -o "$TMPD/rt.bin"
check "u8 low:8 is the identity" cmp -s "$TMPD/le.bin" "$TMPD/rt.bin"
for m in select:4 group:3; do
	expect_exit 0 "method $m" ra translate --format u16le --method $m "$TMPD/s.u16le" -o "$TMPD/m.bin"
	check "method $m: a one-line description naming it" sh -c "test \$(wc -l <'$TMPD/out') -eq 1 && grep -q ': $m: ' '$TMPD/out'"
done

# the same file as an audit source: reduced at the engine's input, and said so
expect_exit 0 "audit --source file:PATH,format=u16le" ra audit --source "file:$TMPD/s.u16le,format=u16le"
check "audit: 6-bit symbols in the table" sh -c "grep '^file:' '$TMPD/out' | head -1 | grep -q ' $N  *6 '"
check "audit: the TRANSLATED reason" grep -q "info TRANSLATED: Wide raw samples reduced by bits-in-use: 6 of 16 bits change" "$TMPD/out"

# bad input: one line, exit 2, no output file
head -c 3 "$TMPD/s.u16le" >"$TMPD/odd"
expect_exit 2 "odd byte count for u16le: exit 2" ra translate --format u16le "$TMPD/odd" -o "$TMPD/no1.bin"
check "odd byte count: one-line error" one_line_error "3 bytes is not a whole number of 2-byte u16le samples (1 byte left over)"
check "odd byte count: no output" test ! -e "$TMPD/no1.bin"
printf '12\n34\n5x6\n' >"$TMPD/junk.dec"
expect_exit 2 "junk in dec text: exit 2" ra translate --format dec "$TMPD/junk.dec" -o "$TMPD/no2.bin"
check "junk: one-line error naming line 3 and the character" one_line_error "junk.dec: line 3: unexpected 'x'"
check "junk: no output" test ! -e "$TMPD/no2.bin"
expect_exit 2 "bad method: exit 2" ra translate --method low:9 "$TMPD/s.u16le" -o "$TMPD/no3.bin"
check "bad method: one-line error" one_line_error "low needs an integer from 1 to 8"
expect_exit 2 "bad format: exit 2" ra translate --format u24 "$TMPD/s.u16le" -o "$TMPD/no3.bin"
check "bad format: one-line error listing the formats" one_line_error "u8|u16le"
expect_exit 2 "no -o: exit 2" ra translate "$TMPD/s.u16le"
expect_exit 2 "select:9: exit 2" ra translate --format u8 --method select:9 "$TMPD/le.bin" -o "$TMPD/no4.bin"

# assess --format: translated first, said so, result line last
expect_exit 0 "assess -v --format u16le" ra assess -v --format u16le "$TMPD/s.u16le"
check "assess: the translation line" grep -q "^translated u16le samples: bits-in-use: 6 of 16 bits change (0-5)" "$TMPD/out"
check "assess: says the figure is a lower bound (90B 6.4)" grep -q "lower bound for the raw samples (SP 800-90B 6.4)" "$TMPD/out"
check "assess: the result line is still last" sh -c "tail -n 1 '$TMPD/out' | grep -q '^assessed min-entropy: '"
check "assess: 6-bit symbols" grep -q "^Loaded $N samples of 64 distinct 6-bit-wide symbols" "$TMPD/out"
h=$(tail -n 1 "$TMPD/out" | awk '{ print $3 }')
check "assess: figure $h <= the true 6 bits and >= 3" awk -v h="$h" 'BEGIN { exit !(h <= 6 && h >= 3) }'
expect_exit 0 "assess --format dec --method mod:64" ra assess --format dec --method mod:64 "$TMPD/s.dec"
check "assess --method: named in the translation line" grep -q "^translated dec samples: mod:64" "$TMPD/out"
expect_exit 0 "assess --format with --max-samples 5000" ra assess -v --format u16le --max-samples 5000 "$TMPD/s.u16le"
check "assess --max-samples: 5000 samples assessed" grep -q "^Loaded 5000 samples of 64 distinct 6-bit-wide symbols" "$TMPD/out"
check "assess --max-samples: says it read only the first ones" grep -q "read the first 5000 samples only" "$TMPD/err"
expect_exit 0 "iid --format u16le (uniform 6 bits: IID)" ra iid --format u16le "$TMPD/s.u16le"
check "iid: the translation line first" sh -c "head -n 1 '$TMPD/out' | grep -q '^translated u16le samples: bits-in-use: 6 of 16 bits change'"
expect_exit 2 "iid: --method without --format: exit 2" ra iid --method low:4 "$TMPD/le.bin"
expect_exit 2 "assess: BITS with --format: exit 2" ra assess --format u16le "$TMPD/s.u16le" 8
check "assess: BITS with --format: one-line error" one_line_error "translation decides"
expect_exit 2 "assess: --method without --format: exit 2" ra assess --method low:4 "$TMPD/le.bin"
expect_exit 2 "assess: odd bytes: exit 2" ra assess --format u16le "$TMPD/odd"
check "assess: odd bytes: one-line error" one_line_error "left over"

if [ -n "${MANDOC:-}" ]; then
	check "man/rngaudit-translate.1 is mandoc -Tlint clean" "$MANDOC" -Tlint -Wwarning "$top_srcdir/man/rngaudit-translate.1"
else
	skip "mandoc not installed"
fi

tap_done
