#!/bin/sh
# cli_hardening.sh - hostile input and faults (issue 17): counts that would
# wrap, control characters echoed into messages, outputs that name special
# files, sources that end early or never start, signals, full disks.
. "${top_srcdir:-.}/tests/tap.sh"

# --- counts parse exactly, with a stated maximum ---
for cmd in collect health audit; do
	opt=--entropy=8; [ $cmd = audit ] && opt=--bits=8
	expect_exit 2 "$cmd -n 2^64 is refused, not wrapped to 0 (no limit)" \
		ra $cmd --source sim:ideal $opt -n 18446744073709551616
	check "$cmd -n 2^64: one line naming the value and the range" one_line_error "18446744073709551616.*10^15"
done
expect_exit 2 "collect -n 1.5 is refused" ra collect --source sim:ideal --no-health -n 1.5 -o -
expect_exit 2 "collect -n 1e16 (past 10^15) is refused" ra collect --source sim:ideal --no-health -n 1e16 -o -
ra collect --source sim:ideal --no-health -n 1e3 -o - >"$TMPD/s.bin" 2>/dev/null
check "collect -n 1e3 writes exactly 1000 samples" test "$(wc -c <"$TMPD/s.bin")" -eq 1000
expect_exit 2 "a spec value of 2^64 is refused" ra collect --source "sim:ideal,seed=18446744073709551616" --no-health -n 10 -o -
expect_exit 2 "a negative spec value is refused" ra collect --source "sim:ideal,seed=-1" --no-health -n 10 -o -

# --- messages stay one line: control characters are escaped ---
esc=$(printf 'sim:id\033[31meal\nsecond line')
expect_exit 2 "a spec with a newline and an escape code is refused" ra collect --source "$esc" -o -
check "its message is one line" one_line_error 'id\\x1b\[31meal\\nsecond line'
check "the message carries no raw escape byte" sh -c "! grep -q \"$(printf '\033')\" '$TMPD/err'"
expect_exit 2 "an unknown command with a newline gets one line" ra "$(printf 'frob\nnicate')"
check "unknown command: the newline is escaped" one_line_error 'frob\\nnicate'

tap_done
