#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz_replay.sh - every fuzz target (tests/fuzz/fuzz_NAME.c) runs, in the
# normal build, over its corpus (tests/fuzz/corpus/NAME/) and its past crashes
# (tests/fuzz/crashes/NAME/, each named after the defect it found): none may
# crash or fail a property check.  `make check-asan` runs this under ASan.
. "${top_srcdir:-.}/tests/tap.sh"

fz=$top_srcdir/tests/fuzz
for src in "$fz"/fuzz_*.c; do
	t=${src##*/fuzz_}
	t=${t%.c}
	prog=$top_builddir/tests/fuzz/replay_$t
	check "$t: the target has a replay program (tests/fuzz/fuzz.mk)" test -x "$prog"
	check "$t: the target has a seed corpus" test -d "$fz/corpus/$t"
	for kind in corpus crashes; do
		d=$fz/$kind/$t
		if [ ! -d "$d" ]; then
			skip "$t: no $kind"
			continue
		fi
		${RNGAUDIT_WRAP:-} "$prog" "$d" >"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		ok $rc "$t: every $kind input runs cleanly ($(cat "$TMPD/out") inputs)"
		[ $rc -eq 0 ] || echo "# exit $rc: $(tail -c 600 "$TMPD/err")"
	done
done
# A tree whose corpus.mk misses a file would not replay it after distcheck.
check "corpus.mk lists every corpus and crash file" sh "$top_srcdir/scripts/fuzz-corpus-list.sh" --check
tap_done
