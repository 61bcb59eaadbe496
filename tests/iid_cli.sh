#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# iid_cli.sh - end-to-end checks of `rngaudit iid`, `restart` and `conditioning`:
# exit codes, one-line errors on bad input, NIST-format output lines.
# Expected numbers: NIST SP800-90B_EntropyAssessment v1.1.7 (ea_iid -vv,
# ea_conditioning), see tests/data/iid/README.
. "${top_srcdir:-.}/tests/tap.sh"
D="$top_srcdir/tests/data/iid"

# --- iid ---------------------------------------------------------------
expect_exit 0 "iid accepts random 4-bit data" ra iid "$D/rand4_1000.bin" 4
check "iid prints H_original as NIST (3.307822)" grep -q "^H_original: 3.307822$" "$TMPD/out"
check "iid prints min(H_original, 4 X H_bitstring) as NIST" \
	grep -q "^min(H_original, 4 X H_bitstring): 3.307822$" "$TMPD/out"
check "iid prints the permutation seed" grep -q "^Permutation seed: 800090 " "$TMPD/out"
check "iid passes the three test groups" \
	test "$(grep -c '^\*\* Passed' "$TMPD/out")" -eq 3

expect_exit 0 "iid -vv runs" ra iid -vv "$D/rand4_1000.bin" 4
check "chi-square independence T as NIST (75.442376711865776)" \
	grep -q "^Chi square independence: T = 75.442376711865776$" "$TMPD/out"
check "LRS W as NIST (4)" grep -q "Longest Repeated Substring results: W = 4$" "$TMPD/out"
check "unpermuted compression as NIST (612)" \
	grep -q "^Permutation testing: Unpermuted result compression = 612$" "$TMPD/out"
check "unpermuted excursion as NIST (95.786000000000058)" \
	grep -q "Unpermuted result excursion = 95.78600000000005820766" "$TMPD/out"
check "literal MCV as NIST (p_u 0.10098253109783242)" \
	grep -q "^Literal Most Common Value Estimate: p_u = 0.10098253109783242$" "$TMPD/out"

ra iid --seed 12345 "$D/sparse3_1003.bin" 3 >"$TMPD/a" 2>&1
ra iid --seed 12345 --threads 1 "$D/sparse3_1003.bin" 3 >"$TMPD/b" 2>&1
check "same seed, 1 or 2 threads: same output" cmp -s "$TMPD/a" "$TMPD/b"
check "--seed S is printed" grep -q "^Permutation seed: 12345 " "$TMPD/a"
expect_exit 0 "--seed random runs" ra iid --seed random "$D/rand4_1000.bin" 4

# a ramp 0..15 (each value 8 times) is far from IID: rejected with exit 1
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%c", int(i / 8) % 16 }' >"$TMPD/ramp.bin" \
	2>/dev/null || skip "awk cannot write bytes"
if [ -s "$TMPD/ramp.bin" ] && [ "$(wc -c <"$TMPD/ramp.bin")" -eq 2000 ]; then
	expect_exit 1 "iid rejects a ramp (exit 1)" ra iid "$TMPD/ramp.bin" 4
	check "the ramp fails the permutation tests" \
		grep -q "^\*\* Failed IID permutation tests" "$TMPD/out"
	check "  ...and says which statistic decided and what --full adds" \
		grep -q "^[0-9]* statistics not run to the end: .* failed, so the permutation tests failed whatever they give (--full runs them)$" "$TMPD/out"
	# --full: NIST's complete table; every row run to its end is the same
	ra iid -vv "$TMPD/ramp.bin" 4 >"$TMPD/short" 2>&1
	check "the stopped rows say so" grep -q "stopped (--full runs it)$" "$TMPD/short"
	check "the compression row says it was not scored" \
		grep -q "^ *compression  not scored (--full scores it)$" "$TMPD/short"
	expect_exit 1 "iid --full rejects the ramp too" ra iid --full -vv "$TMPD/ramp.bin" 4
	check "--full scores compression on all 10,000 shuffles (the ramp compresses best)" \
		grep -q "^ *compression\* *10000 *0 *0$" "$TMPD/out"
	check "--full stops nothing" test "$(grep -c -e stopped -e 'not scored' -e 'not run' "$TMPD/out")" -eq 0
	grep -v -e stopped -e 'not scored' -e 'not run to the end' "$TMPD/short" >"$TMPD/s1"
	check "--full keeps every line of a row run to its end" \
		test -z "$(grep -vxFf "$TMPD/out" "$TMPD/s1")"
fi

expect_exit 2 "iid: missing file is an error" ra iid "$TMPD/nonexistent.bin"
check "  ...with one line on stderr" one_line_error "nonexistent"
expect_exit 2 "iid: bits out of range" ra iid "$D/rand4_1000.bin" 9
check "  ...with one line on stderr" one_line_error "rngaudit iid"
expect_exit 2 "iid: data wider than BITS" ra iid "$D/rand4_1000.bin" 2
check "  ...with one line on stderr" one_line_error "bits"
expect_exit 2 "iid: non-numeric seed" ra iid --seed abc "$D/rand4_1000.bin" 4
check "  ...with one line on stderr" one_line_error "seed"

# --- conditioning --------------------------------------------------------
expect_exit 0 "conditioning vetted 512 256 256 300" ra conditioning 512 256 256 300
check_ld "Output_Entropy as NIST (255.9999999999999179961)" \
	grep -q "^Output_Entropy(\*) = 255.9999999999999179961$" "$TMPD/out"
check_ld "epsilon line as NIST" grep -q "^epsilon = 2^(-51.47123362705514338852)$" "$TMPD/out"
expect_exit 0 "conditioning non-vetted 100 80 90 79.5 0.99" ra conditioning -n 100 80 90 79.5 0.99
check_ld "h' * n_out as NIST (79.19999999999999999028)" \
	grep -q "^h' \* n_out = 79.19999999999999999028$" "$TMPD/out"
check_ld "non-vetted h_out as NIST (78.72844669683638802598)" \
	grep -q "^(Non-vetted) h_out = 78.72844669683638802598$" "$TMPD/out"
expect_exit 2 "conditioning: n_out > n_in" ra conditioning 100 200 100 50
check "  ...with one line on stderr" one_line_error "n_out"
expect_exit 2 "conditioning: non-numeric argument" ra conditioning 512 x 256 300
check "  ...with one line on stderr" one_line_error "n_out"
expect_exit 2 "conditioning: h_in > n_in" ra conditioning 64 32 32 65
check "  ...with one line on stderr" one_line_error "h_in"
expect_exit 2 "conditioning -n without h'" ra conditioning -n 64 32 32 10
check "  ...with one line on stderr" one_line_error "rngaudit conditioning"

# --- restart (bad input only; the matrix checks live in test_restart) ----
expect_exit 2 "restart: wrong-size file" ra restart "$D/rand4_1000.bin" 4 2
check "  ...with one line on stderr" one_line_error "1000000"
expect_exit 2 "restart: H_I above the bits per sample" ra restart "$D/rand4_1000.bin" 4 5
check "  ...with one line on stderr" one_line_error "H_I"
expect_exit 2 "restart: non-numeric H_I" ra restart "$D/rand4_1000.bin" 4 abc
check "  ...with one line on stderr" one_line_error "H_I"
expect_exit 2 "restart -i --full: accepted (the file's size is what is wrong)" \
	ra restart -i --full "$D/rand4_1000.bin" 4 2
check "  ...the size named, not the option" one_line_error "1000000"
expect_exit 2 "restart --fool: an unknown option" ra restart --fool "$D/rand4_1000.bin" 4 2
check "  ...named on one line" one_line_error "unknown option '--fool'"
tap_done
