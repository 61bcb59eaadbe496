#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cli_assess.sh - `rngaudit assess` end to end: input errors (one line,
# exit 2), the summary, -v, --format csv, -l, -t, -c and a constant file.
. "${top_srcdir:-.}/tests/tap.sh"

D="$top_srcdir/tests/data/nist-90b/bin"

: >"$TMPD/empty.bin"
expect_exit 2 "empty file: exit 2" ra assess "$TMPD/empty.bin"
check "empty file: one-line error" one_line_error "empty"
expect_exit 2 "missing file: exit 2" ra assess "$TMPD/nonexistent.bin"
check "missing file: one-line error naming it" one_line_error "nonexistent.bin"
expect_exit 2 "BITS 9: exit 2" ra assess "$D/rand1_short.bin" 9
check "BITS 9: one-line error" one_line_error "9"
expect_exit 2 "BITS 0: exit 2" ra assess "$D/rand1_short.bin" 0
expect_exit 2 "8-bit data read as 4-bit: exit 2" ra assess "$D/rand8_short.bin" 4
check "sample >= 2^K: one-line error naming the sample" one_line_error "does not fit in 4 bits"
expect_exit 2 "bad -l: exit 2" ra assess -l 5 "$D/rand1_short.bin"
expect_exit 2 "-l past the end: exit 2" ra assess -l 10,1000 "$D/rand1_short.bin"
expect_exit 2 "unknown option: exit 2" ra assess --bogus "$D/rand1_short.bin"
expect_exit 2 "bad --format: exit 2" ra assess --format xml "$D/rand1_short.bin"

expect_exit 0 "summary on rand4_short" ra assess "$D/rand4_short.bin"
# NIST rand4_short.res: H_original 3.5674729...(t-Tuple), H_bitstring 0.8038717... (Compression)
check "summary: NIST's H_original line" grep -q "^H_original: 3.567473$" "$TMPD/out"
check "summary: NIST's H_bitstring line" grep -q "^H_bitstring: 0.803872$" "$TMPD/out"
check "summary: NIST's min(H_original, 4 X H_bitstring) = 3.215488" grep -q "^min(H_original, 4 X H_bitstring): 3.215488$" "$TMPD/out"
check "summary: rngaudit's result line last, 4 x H_bitstring" sh -c "tail -n 1 '$TMPD/out' | grep -q '^assessed min-entropy: 3.21548826787[0-9]* bits per sample$'"

expect_exit 0 "-v lists each estimate" ra assess -v "$D/rand1_short.bin"
check "-v: ten literal estimates for binary data" test "$(grep -c '^	.* Estimate = .* / 1 bit(s)$' "$TMPD/out")" -eq 10

expect_exit 0 "--format csv" ra assess --format csv "$D/rand8_short.bin"
check "csv: header row" grep -q '^domain,id,estimator,applicable,reason,p,min_entropy,details' "$TMPD/out"
# 10 bitstring + 7 literal estimators + h_original, h_bitstring, h_assessed + header
check "csv: 21 rows" test "$(wc -l <"$TMPD/out")" -eq 21
check "csv: literal MCV row as NIST (h 7.0104540377360411), numbers bare" grep -q '^"literal","mcv","Most Common Value",1,"",[0-9.e-]*,7.0104540377360411,"' "$TMPD/out"
# every numeric column (applicable, p, min_entropy) parses as a number or is empty
check "csv: Python's csv module reads applicable, p and min_entropy as numbers" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 20
for r in rows:
    for k in ("applicable", "p", "min_entropy"):
        if r[k] != "":
            float(r[k])
' "$TMPD/out"

expect_exit 0 "-l 1,5000 -vv" ra assess -vv -l 1,5000 "$D/rand1_short.bin"
check "-l: NIST's 'reading block' line" grep -q "^Opening file: '.*rand1_short.bin' (SHA-256 hash [0-9a-f]*), reading block 1 of size 5000$" "$TMPD/out"
check "-l: 5000 samples loaded" grep -q "^Loaded 5000 samples of 2 distinct 1-bit-wide symbols$" "$TMPD/out"

expect_exit 0 "-t -vv on 1,000,000 8-bit samples" ra assess -t -vv "$D/truerand_8bit.bin"
check "-t: bitstring truncated to 1000000 bits" grep -q "^Number of Binary Symbols: 1000000$" "$TMPD/out"

expect_exit 0 "-c -vv" ra assess -c -vv "$D/rand4_short.bin"
check "-c: no literal estimates" test "$(grep -c '^Literal' "$TMPD/out")" -eq 0
check "-c: H_bitstring printed, H_original not" sh -c "grep -q '^H_bitstring = ' '$TMPD/out' && ! grep -q '^H_original' '$TMPD/out'"

head -c 3000 "$D/rand1_short.bin" >"$TMPD/short.bin"
expect_exit 0 "3000 bits -vv" ra assess -vv "$TMPD/short.bin"
check "3000 bits: compression skipped with NIST's warning (500 blocks <= d = 1000)" grep -q "not enough samples to run compression test (need more than 1000)" "$TMPD/out"

head -c 100000 /dev/zero | tr '\0' '\125' >"$TMPD/const.bin"
expect_exit 0 "constant file: exit 0" ra assess -vv "$TMPD/const.bin"
check "constant file: NIST's one-symbol message" grep -q "^Symbol alphabet consists of 1 symbol. No entropy awarded...$" "$TMPD/out"
tap_done
