#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
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

# --- outputs never replace special files ---
is_root=0; [ "$(id -u)" -eq 0 ] && is_root=1
if [ $is_root -eq 1 ] && mknod "$TMPD/null" c 1 3 2>/dev/null; then
	# a private copy of /dev/null: never the real one
	expect_exit 0 "collect -o a character device writes in place" \
		ra collect --source sim:ideal --no-health -n 1000 -o "$TMPD/null"
	check "collect: the device node is still a character device" test -c "$TMPD/null"
	expect_exit 0 "audit --csv/--junit/--prom to a character device" \
		ra audit --source sim:ideal -n 20000 --csv "$TMPD/null" --junit "$TMPD/null" --prom "$TMPD/null"
	check "audit: the device node is still a character device" test -c "$TMPD/null"
	ra audit --source sim:ideal -n 20000 --csv "$TMPD/one.csv" >/dev/null 2>&1
	expect_exit 0 "report merge -o a character device" ra report merge -o "$TMPD/null" "$TMPD/one.csv"
	check "merge: the device node is still a character device" test -c "$TMPD/null"
	check "no temporary beside the device" sh -c "! ls -a '$TMPD' | grep -q rngaudit-tmp"
	rm -f "$TMPD/null"
else
	for i in 1 2 3 4 5 6 7; do skip "mknod not permitted (not root)"; done
fi

mkfifo "$TMPD/out.fifo"
cat "$TMPD/out.fifo" >"$TMPD/fifo.data" &
expect_exit 0 "collect -o a FIFO with a reader writes in place" \
	ra collect --source sim:ideal --no-health -n 5000 -o "$TMPD/out.fifo"
wait
check "the FIFO is still a FIFO" test -p "$TMPD/out.fifo"
check "the reader got all 5000 samples" test "$(wc -c <"$TMPD/fifo.data")" -eq 5000

ra collect --source sim:ideal --no-health -n 10 -o "$TMPD/real.bin" 2>/dev/null
ln -s real.bin "$TMPD/link.bin"
expect_exit 0 "collect -o a symlink follows it" ra collect --source sim:ideal --no-health -n 300 -o "$TMPD/link.bin"
check "the symlink is still a symlink" test -L "$TMPD/link.bin"
check "its target was replaced whole (300 samples)" test "$(wc -c <"$TMPD/real.bin")" -eq 300
ln -s nowhere/x.bin "$TMPD/dangling.bin"
expect_exit 2 "collect -o a dangling symlink is refused" ra collect --source sim:ideal --no-health -n 10 -o "$TMPD/dangling.bin"
check "dangling symlink: one line naming it" one_line_error "dangling.bin.*dangling symlink"

# --- full disks and unwritable places: one line, nothing left ---
if [ $is_root -eq 1 ] && mknod "$TMPD/full" c 1 7 2>/dev/null; then
	expect_exit 2 "collect -o a device that is full exits 2" ra collect --source sim:ideal --no-health -n 100000 -o "$TMPD/full"
	check "full device: one line with the reason and the whole samples written" one_line_error "No space left.*0 samples written whole"
	rm -f "$TMPD/full"
else
	skip "mknod not permitted (not root)"; skip "mknod not permitted (not root)"
fi
mkdir "$TMPD/small"
if [ $is_root -eq 1 ] && mount -t tmpfs -o size=64k tmpfs "$TMPD/small" 2>/dev/null; then
	expect_exit 2 "collect onto a full file system exits 2" ra collect --source sim:ideal --no-health -n 1000000 -o "$TMPD/small/s.bin"
	check "full file system: the error is said once, in one line" one_line_error "No space left on device"
	check "full file system: no file and no temporary left" test -z "$(ls -A "$TMPD/small")"
	expect_exit 2 "audit --csv onto a full file system exits 2" sh -c "head -c 65000 /dev/zero >'$TMPD/small/fill' 2>/dev/null; '$RNGAUDIT' audit --source sim:ideal -n 20000 --csv '$TMPD/small/r.csv'"
	check "audit onto a full file system: no report and no temporary left" test "$(ls -A "$TMPD/small")" = fill
	umount "$TMPD/small"
	mount -t tmpfs -o ro tmpfs "$TMPD/small"
	expect_exit 2 "collect into a read-only directory exits 2" ra collect --source sim:ideal --no-health -n 100 -o "$TMPD/small/s.bin"
	check "read-only directory: one line naming the file, before the run" \
		one_line_error "small/s.bin: cannot write in .*small: Read-only file system"
	umount "$TMPD/small"
else
	for i in 1 2 3 4 5 6 7; do skip "cannot mount a small tmpfs here (not root)"; done
fi

# --- stdout that goes away: exit 2, say how much was written whole ---
( ra collect --source sim:ideal --no-health -n 10000000 -o - 2>"$TMPD/pipe.err"; echo $? >"$TMPD/pipe.rc" ) | head -c 100 >/dev/null
check "collect -o - | head exits 2 (EPIPE)" test "$(cat "$TMPD/pipe.rc")" -eq 2
check "EPIPE: one line saying how many samples were written whole" sh -c "test \$(wc -l <'$TMPD/pipe.err') -eq 1 && grep -q 'closed by its reader after [0-9]* samples written whole' '$TMPD/pipe.err'"

# --- sources that end early, never start, or yield nothing ---
expect_exit 2 "collect from an empty file exits 2" ra collect --source file:/dev/null --no-health -o "$TMPD/empty.bin"
check "empty input: one line, and no output file" sh -c "test ! -e '$TMPD/empty.bin' && test \$(wc -l <'$TMPD/err') -eq 1"
expect_exit 2 "health on an empty source exits 2 (no use after free)" ra health --source file:/dev/null --entropy 1
check "health empty input: one line naming it" one_line_error "file:/dev/null: no samples"
head -c 300 /dev/urandom >"$TMPD/short.bin"
expect_exit 0 "a file: source that ends before -n is normal" ra collect --source "file:$TMPD/short.bin" --no-health -n 1000 -o "$TMPD/short.out"
check "it says how many samples were read" grep -q "ended after 300 of the 1000" "$TMPD/err"
mkfifo "$TMPD/dev.fifo"
( head -c 500 /dev/urandom >"$TMPD/dev.fifo" ) &
expect_exit 2 "a device that ends early (FIFO writer closes) exits 2" ra collect --source "hwrng:device=$TMPD/dev.fifo" --no-health -n 100000 -o "$TMPD/dev.out"
wait
check "the device's samples before the end are kept whole" test "$(wc -c <"$TMPD/dev.out")" -eq 500
mkfifo "$TMPD/silent.fifo" "$TMPD/silent2.fifo" "$TMPD/silent3.fifo" "$TMPD/noreader.fifo"
# Each waits its bounded 10 s; run them side by side.
"$RNGAUDIT" collect --source "hwrng:device=$TMPD/silent2.fifo" --no-health -n 10 -o - >/dev/null 2>"$TMPD/hw.err" &
p1=$!
"$RNGAUDIT" assess "$TMPD/silent3.fifo" >/dev/null 2>"$TMPD/as.err" &
p2=$!
"$RNGAUDIT" collect --source sim:ideal --no-health -n 10 -o "$TMPD/noreader.fifo" 2>"$TMPD/nr.err" &
p3=$!
mkfifo "$TMPD/silent4.fifo"
"$RNGAUDIT" report merge "$TMPD/silent4.fifo" >/dev/null 2>"$TMPD/mg.err" &
p4=$!
expect_exit 2 "a FIFO with no writer does not hang: exit 2 after a bounded wait" ra collect --source "file:$TMPD/silent.fifo" --no-health -n 10 -o "$TMPD/silent.out"
check "no writer: one line saying so" one_line_error "silent.fifo: no data within"
# one_line_in FILE PATTERN: FILE holds exactly one line, matching PATTERN
one_line_in() { test "$(wc -l <"$1")" -eq 1 && grep -q -- "$2" "$1"; }
wait $p1; st=$?; test $st -eq 2; ok $? "hwrng:device=FIFO with no writer exits 2 after a bounded wait"
check "hwrng FIFO with no writer: one line saying so" one_line_in "$TMPD/hw.err" "silent2.fifo: no data within"
wait $p2; st=$?; test $st -eq 2; ok $? "assess of a FIFO with no writer exits 2 after a bounded wait"
check "assess FIFO with no writer: one line saying so" one_line_in "$TMPD/as.err" "silent3.fifo: no data within"
wait $p3; st=$?; test $st -eq 2; ok $? "collect -o a FIFO with no reader exits 2 after a bounded wait"
check "FIFO with no reader: one line saying so" one_line_in "$TMPD/nr.err" "noreader.fifo: FIFO has no reader"
wait $p4; st=$?; test $st -eq 2; ok $? "report merge of a FIFO with no writer exits 2 after a bounded wait"
check "merge FIFO with no writer: one line saying so" one_line_in "$TMPD/mg.err" "silent4.fifo: no data within"
expect_exit 2 "a policy file that never ends (/dev/zero) is refused, not read forever" ra audit --policy /dev/zero --source sim:ideal -n 1000
check "endless policy: one line naming it and the limit" one_line_error "policy /dev/zero: larger than"
expect_exit 2 "a probability in hex is refused" ra collect --source "sim:biased,p=0x0.8" --no-health -n 1 -o -


# --- bounded work from one-line inputs ---
expect_exit 2 "conditioning with n_in 10^9 is refused at once" ra conditioning -q 1000000000 256 256 400
check "conditioning cap: one line naming n_in and the cap" one_line_error "n_in (1000000000).*262144"
expect_exit 0 "assess /dev/zero stops at --max-samples" ra assess --max-samples 2000 /dev/zero 1
check "assess says it read the first 2000 samples only" grep -q "first 2000 samples only" "$TMPD/err"
expect_exit 1 "iid /dev/zero stops at --max-samples (and rejects constant data)" ra iid --max-samples 2000 /dev/zero 1
check "iid says it read the first 2000 samples only" grep -q "first 2000 samples only" "$TMPD/err"
expect_exit 2 "restart /dev/zero reads one matrix and stops" ra restart /dev/zero 1 0.5
check "restart: more than a matrix is one line" one_line_error "more than 1000000 samples"
expect_exit 2 "--max-samples 0 is refused" ra assess --max-samples 0 /dev/zero

# --- signals: whole samples kept, temporaries removed ---
# A slow producer (some bytes, then silence) keeps the run blocked in read();
# the tool is the pipeline's last command, so $! is its PID.
(head -c 5000 /dev/urandom; sleep 4) | "$RNGAUDIT" collect --source file:- --no-health -n 100000 -o "$TMPD/term.bin" 2>"$TMPD/term.err" &
pid=$!
sleep 1
kill -TERM $pid; wait $pid; st=$?
check "SIGTERM mid-collect exits 2" test $st -eq 2
check "SIGTERM mid-collect keeps the 5000 whole samples" test "$(wc -c <"$TMPD/term.bin")" -eq 5000
check "SIGTERM mid-collect: no temporary left" sh -c "! ls -a '$TMPD' | grep -q rngaudit-tmp"
(head -c 5000 /dev/urandom; sleep 4) | "$RNGAUDIT" collect --source file:- --no-health -n 100000 -o "$TMPD/hup.bin" 2>/dev/null &
pid=$!
sleep 1
kill -HUP $pid; wait $pid; st=$?
# DESIGN.md: SIGHUP ends a bounded run as SIGINT and SIGTERM do (issue 24
# item 5; it used to discard the samples)
check "SIGHUP mid-collect exits 2, as SIGTERM" test $st -eq 2
check "SIGHUP mid-collect keeps the 5000 whole samples" test "$(wc -c <"$TMPD/hup.bin")" -eq 5000
check "SIGHUP mid-collect: no temporary left" sh -c "! ls -a '$TMPD' | grep -q 'hup.bin.rngaudit-tmp'"
(head -c 5000 /dev/urandom; sleep 4) | "$RNGAUDIT" collect --source file:- --no-health -n 100000 -o "$TMPD/killed.bin" 2>/dev/null &
pid=$!
sleep 1
kill -KILL $pid; wait $pid 2>/dev/null
tmpf=$(ls -a "$TMPD" | grep 'killed.bin.rngaudit-tmp' | head -n 1)
check "SIGKILL leaves its temporary (nothing can remove it)" test -n "$tmpf"
touch -d '2 hours ago' "$TMPD/$tmpf"
ra collect --source sim:ideal --no-health -n 10 -o "$TMPD/next.bin" 2>/dev/null
check "the next run removes a stale temporary of its own pattern" test ! -e "$TMPD/$tmpf"
(head -c 50000 /dev/urandom; sleep 4) | "$RNGAUDIT" audit --source file:- -n 1000000 --csv "$TMPD/int.csv" >/dev/null 2>"$TMPD/int.err" &
pid=$!
sleep 1
kill -INT $pid; wait $pid; st=$?
check "SIGINT mid-audit exits 2" test $st -eq 2
check "SIGINT mid-audit: the CSV is written whole and marked partial" sh -c "awk -F, 'NR==1{for(i=1;i<=NF;i++) if(\$i==\"partial\") c=i} NR==2{p=\$c} END{exit !(c && p==\"true\" && NR==2)}' '$TMPD/int.csv'"

tap_done
