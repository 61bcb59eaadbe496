#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# signals_cli.sh - interrupted or failed means non-zero, and nothing is lost
# silently (issue 24 item 5, DESIGN.md "Signals and exit codes"): SIGINT
# and SIGHUP end a bounded run keeping what it has (exit 2); --follow stops
# with exit 2, saying so once, when its log, stdout or textfile cannot be
# written or its source ends; outputs are checked before the run (two
# outputs one file, a directory that is missing); stdout carries one format;
# an empty file named as a source is an error in audit too.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1 RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"

# wait_size FILE BYTES: until FILE (or its temporary) holds BYTES, at most 30 s
wait_size() {
	t=0
	while [ $t -lt 600 ]; do
		for f in "$1" "$(dirname "$1")"/.$(basename "$1").rngaudit-tmp.*; do
			[ -f "$f" ] && [ "$(wc -c <"$f")" -ge "$2" ] && return 0
		done
		sleep 0.05
		t=$((t + 1))
	done
	return 1
}
# A collect fed through a FIFO this shell holds open: it waits for more
# input until signalled, with every sample so far written.
signal_collect() {   # signal_collect SIG NAME ARGS...: exit status in $st
	sig=$1 name=$2
	shift 2
	rm -f "$TMPD/in.$name"
	mkfifo "$TMPD/in.$name"
	"$RNGAUDIT" collect --source "file:$TMPD/in.$name$fmt" "$@" -o "$TMPD/$name" 2>"$TMPD/$name.err" &
	pid=$!
	exec 3>"$TMPD/in.$name"
	head -c 5000 "$TMPD/rand" >&3
	wait_size "$TMPD/$name" 5000
	kill -"$sig" $pid
	wait $pid
	st=$?
	exec 3>&-
}
head -c 5000 /dev/urandom >"$TMPD/rand"

fmt=,format=u16le
signal_collect INT wide.u16 --format u16le -n 100000
check "collect --format, SIGINT: exit 2 (it was 0)" test $st -eq 2
check "collect --format, SIGINT: the 2500 whole samples kept" test "$(wc -c <"$TMPD/wide.u16")" -eq 5000
check "collect --format, SIGINT: says it was stopped" grep -q "stopped by a signal" "$TMPD/wide.u16.err"
signal_collect HUP wide.hup --format u16le -n 100000
check "collect --format, SIGHUP: exit 2, as SIGINT" test $st -eq 2
check "collect --format, SIGHUP: the samples kept" test "$(wc -c <"$TMPD/wide.hup")" -eq 5000
fmt=
signal_collect HUP narrow.hup --no-health -n 100000
check "collect, SIGHUP: exit 2 and the 5000 samples kept (it discarded them)" \
	sh -c "test $st -eq 2 && test \$(wc -c <'$TMPD/narrow.hup') -eq 5000"

# health --follow: outputs that fail stop it, said once.
if mknod "$TMPD/full" c 1 7 2>/dev/null; then
	expect_exit 2 "health --follow --log FULL-DEVICE: exit 2 (it was 0)" \
		ra health --source sim:ideal --follow --interval 0.01 --log "$TMPD/full"
	check "--log on a full device: said once, on stderr" \
		test "$(grep -c 'write failed: No space left on device' "$TMPD/err")" -eq 1
	check "--log on a full device: the summary goes to stderr instead (nothing lost)" grep -q "^health: pass" "$TMPD/err"
	expect_exit 2 "--help to a full disk: exit 2 (it was 0)" sh -c "'$RNGAUDIT' --help >'$TMPD/full'"
	expect_exit 2 "--version to a full disk: exit 2" sh -c "'$RNGAUDIT' --version >'$TMPD/full'"
	expect_exit 2 "help collect to a full disk: exit 2" sh -c "'$RNGAUDIT' help collect >'$TMPD/full'"
	expect_exit 2 "collect --help to a full disk: exit 2" sh -c "'$RNGAUDIT' collect --help >'$TMPD/full'"
else
	for i in 1 2 3 4 5 6 7; do skip "mknod needs root: no private full device"; done
fi
mkfifo "$TMPD/log.fifo"
expect_exit 2 "health --follow --log FIFO with no reader: exit 2 within the bounded wait (it blocked forever)" \
	ra health --source sim:ideal --follow --log "$TMPD/log.fifo"
check "--log FIFO: one line, the FIFO has no reader" one_line_error "FIFO has no reader"
cat "$TMPD/log.fifo" >"$TMPD/log.read" &
cat_pid=$!
expect_exit 0 "health --follow --log FIFO with a reader: the lines go to it" \
	ra health --source sim:ideal --follow --interval 0.01 -n 100000 --log "$TMPD/log.fifo"
wait $cat_pid
check "--log FIFO: the reader got the summary" grep -q "^health: pass" "$TMPD/log.read"
mkfifo "$TMPD/metrics.prom"
expect_exit 2 "health --follow --prom FIFO: refused up front (it stalled each interval)" \
	ra health --source sim:ideal --follow --prom "$TMPD/metrics.prom"
check "--prom FIFO: one line, a textfile is a regular file" one_line_error "is a FIFO: this output must be a regular file"
expect_exit 2 "health --follow with --log and --prom the same file: refused" \
	ra health --source sim:ideal --follow --log "$TMPD/same.prom" --prom "$TMPD/same.prom"
check "--log X --prom X: one line naming both" one_line_error "--prom .*same.prom and --log .*same.prom are the same file"
{ "$RNGAUDIT" health --source sim:ideal --follow --interval 0.001 --rate 0 2>"$TMPD/pipe.err"; echo $? >"$TMPD/pipe.rc"; } |
	head -n 2 >"$TMPD/pipe.out"
check "health --follow | head ends (EPIPE): exit 2 (it ran forever)" test "$(cat "$TMPD/pipe.rc")" -eq 2
check "health --follow | head: said once" \
	test "$(grep -c 'stdout write failed: closed by its reader' "$TMPD/pipe.err")" -eq 1
expect_exit 2 "health --follow on a file that ends: exit 2 (it was 0, pass)" ra health --follow "$TMPD/rand"
check "a followed source that ends: one line saying after how many samples" \
	grep -q "the followed source ended after 5000 samples" "$TMPD/err"
expect_exit 0 "health --follow -n within the file: a normal end" ra health --follow -n 4000 "$TMPD/rand"

# audit: an empty file named as a source is an error (exit 2), reports kept
: >"$TMPD/empty.bin"
expect_exit 2 "audit --source file:EMPTY: exit 2 (it was 0)" ra audit --source "file:$TMPD/empty.bin" --csv "$TMPD/e.csv"
check "audit of an empty file: one line naming it" grep -q "empty.bin: no samples (empty input)" "$TMPD/err"
check "audit of an empty file: the report is still written" test -s "$TMPD/e.csv"

# outputs checked before the run
expect_exit 2 "audit --csv X --junit X: refused (a report was lost, exit 0)" \
	ra audit --source sim:ideal -n 20000 --csv "$TMPD/x" --junit "$TMPD/x"
check "--csv X --junit X: one line, before anything ran" one_line_error "--csv .*/x and --junit .*/x are the same file"
check "--csv X --junit X: nothing written" test ! -e "$TMPD/x"
expect_exit 2 "audit --csv X --prom ./X (a new X, spelt two ways): refused" \
	ra audit --source sim:ideal -n 20000 --csv "$TMPD/x" --prom "$TMPD/./x"
# expect_exit sends stdout to $TMPD/out: --junit naming that file is stdout
# by another name (what /dev/stdout would be), and no device is named
expect_exit 2 "audit --csv - --junit STDOUT-FILE: both stdout, refused" \
	ra audit --source sim:ideal -n 20000 --csv - --junit "$TMPD/out"
expect_exit 2 "audit --csv in a missing directory: refused before the run" \
	ra audit --source sim:ideal -n 20000 --csv "$TMPD/nodir/r.csv"
check "missing directory: one line, no source collected" one_line_error "nodir/r.csv: directory .*nodir: No such file"
expect_exit 2 "iid -o in a missing directory: refused before the tests run" \
	ra iid -o "$TMPD/nodir/r.json" "$TMPD/rand"
check "iid -o missing directory: one line" one_line_error "nodir/r.json"

# stdout carries one format
D=$top_srcdir/tests/data/nist-90b/bin
expect_exit 0 "assess -o -: exit 0" ra assess -o - "$D/rand8_short.bin"
check "assess -o -: stdout is the JSON document alone" \
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMPD/out"
check "assess -o -: the text went to stderr" grep -q "min-entropy" "$TMPD/err"
for o in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
	expect_exit 0 "translate -o $o: exit 0" ra translate "$TMPD/rand" -o "$o"
	check "translate -o $o: stdout is the 5000 symbols alone, the summary on stderr" \
		sh -c "test \$(wc -c <'$TMPD/out') -eq 5000 && grep -q '5000 u8 samples' '$TMPD/err'"
done
"$RNGAUDIT" translate "$TMPD/rand" -o "$TMPD/same.bin" >"$TMPD/same.bin" 2>"$TMPD/same.err"
check "translate -o F > F: F is the 5000 symbols, not symbols and summary" test "$(wc -c <"$TMPD/same.bin")" -eq 5000
tap_done
