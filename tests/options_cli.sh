#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# options_cli.sh - small bad inputs, refused up front in one line
# (issue 24 item 7): a spec key given twice, a --rate or --horizon out of
# range, an alpha too small to split over a run, and figures printed as
# they were given.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1

head -c 4000 /dev/urandom >"$TMPD/w.bin"
expect_exit 2 "file:P,format=u8,format=u16le: refused" \
	ra collect --source "file:$TMPD/w.bin,format=u8,format=u16le" --format u16le -n 10 -o "$TMPD/o"
check "file: format given twice, said in one line" one_line_error "option 'format' given twice"
check "and nothing written" test ! -e "$TMPD/o"
expect_exit 2 "audit of file:P,format=u8,format=u16le: refused" \
	ra audit --source "file:$TMPD/w.bin,format=u8,format=u16le"
check "audit: format given twice named" grep -q "option 'format' given twice" "$TMPD/err"
expect_exit 0 "file:P,format=u16le (once) is fine" \
	ra collect --source "file:$TMPD/w.bin,format=u16le" --format u16le -n 10 -o "$TMPD/o"

expect_exit 2 "health --follow --rate 1e-300: refused" ra health --source sim:ideal --follow --rate 1e-300
check "--rate 1e-300: one line with the range" one_line_error "--rate 1e-300: must be 0 (flat out) or bytes per second from 1 to 1e12"
expect_exit 2 "health --follow --rate 1e13: refused" ra health --source sim:ideal --follow --rate 1e13
expect_exit 2 "health --follow --horizon 0.5: refused" ra health --source sim:ideal --follow --horizon 0.5
check "--horizon 0.5: one line with the range" one_line_error "from 1 s to 1000y"
expect_exit 0 "health --follow --rate 0 (flat out) still runs (-n ends it)" \
	ra health --source sim:ideal --follow --rate 0 -n 100000 --interval 1000

for cmd in health collect; do
	out=; [ $cmd = collect ] && out="-o $TMPD/c.bin"
	expect_exit 2 "$cmd --alpha 2^-1074 (the smallest double): refused" ra $cmd --source sim:ideal -n 1000 $out --alpha 2^-1074
	check "$cmd --alpha 2^-1074: one line naming the range, not 'alpha 0'" one_line_error "--alpha 2^-1074: must be in \[2^-1000, 1)"
	expect_exit 2 "$cmd --entropy 8.0000001 with 8-bit samples: refused" ra $cmd --source sim:ideal -n 1000 $out --entropy 8.0000001
	check "$cmd --entropy 8.0000001: the message says 8.0000001, not 8" one_line_error "--entropy 8.0000001:"
done
expect_exit 0 "health --entropy 7.99999999999" ra health --source sim:ideal -n 1000 --entropy 7.99999999999
check "the claim is printed as given (7.99999999999), not rounded to 8" grep -q "claimed entropy 7.99999999999 bits" "$TMPD/out"
printf 'alpha = 2^-1074\n' >"$TMPD/p.policy"
expect_exit 2 "a policy with alpha = 2^-1074: refused" ra audit --source sim:ideal -n 1000 --policy "$TMPD/p.policy"
check "the policy's alpha named with its range" grep -q "alpha: '2^-1074' is not 2^-N or a number in \[2^-1000, 1)" "$TMPD/err"
tap_done
