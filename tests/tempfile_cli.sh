#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tempfile_cli.sh - a live run's temporary is never removed by another run
# (issue 24 item 6): a collect still writing (its temporary made to look
# two hours old) survives another command writing into the same
# directory, and still ends with its whole file; a temporary whose writer
# is gone (no lock) is cleaned up.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1

mkfifo "$TMPD/in"
mkdir "$TMPD/d"
# The first collect reads the FIFO, which this shell holds open for
# writing: it waits for more input for as long as the test likes.
"$RNGAUDIT" collect --source "file:$TMPD/in" --no-health -n 1000 -o "$TMPD/d/long.bin" \
	>"$TMPD/long.out" 2>"$TMPD/long.err" &
pid=$!
exec 3>"$TMPD/in"
printf 'abcdefgh' >&3
# its temporary appears as soon as it has opened its output
tries=0
while [ -z "$(ls -A "$TMPD/d")" ] && [ $tries -lt 600 ]; do sleep 0.05; tries=$((tries + 1)); done
tmpname=$(ls -A "$TMPD/d" | grep rngaudit-tmp)
check "the running collect writes into a temporary" test -n "$tmpname"
touch -d '2 hours ago' "$TMPD/d/$tmpname"
# an orphan: a temporary with no writer, as SIGKILL leaves one
printf 'junk' >"$TMPD/d/.dead.bin.rngaudit-tmp.XXXXXX"
touch -d '2 hours ago' "$TMPD/d/.dead.bin.rngaudit-tmp.XXXXXX"
expect_exit 0 "another collect into the same directory" \
	"$RNGAUDIT" collect --source sim:ideal --no-health -n 1000 -o "$TMPD/d/other.bin"
check "the live run's temporary survives (it is locked, however old)" test -e "$TMPD/d/$tmpname"
check "the orphan (no lock) is removed" test ! -e "$TMPD/d/.dead.bin.rngaudit-tmp.XXXXXX"
printf 'ijkl' >&3
exec 3>&-
wait $pid
rc=$?
ok $([ $rc -eq 0 ] && echo 0 || echo 1) "the long collect ends normally when its input ends (exit $rc)"
check "and keeps everything it read (12 samples)" test "$(wc -c <"$TMPD/d/long.bin")" -eq 12
check "no temporary is left" sh -c "! ls -A '$TMPD/d' | grep -q rngaudit-tmp"
tap_done
