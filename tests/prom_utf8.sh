#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# prom_utf8.sh - a source named with bytes that are not UTF-8 still gives
# textfiles promtool accepts (issue 24 item 3): the audit's --prom and
# health --follow's, whose label values carry the file's name.
. "${top_srcdir:-.}/tests/tap.sh"
PROMTOOL=${PROMTOOL-$(command -v promtool)}
if [ -z "$PROMTOOL" ]; then
	echo "1..0 # SKIP promtool not installed (Debian: apt-get install prometheus)"
	exit 0
fi
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt" RNGAUDIT_NO_PROGRESS=1
promcheck() {
	"$PROMTOOL" check metrics <"$1" >"$TMPD/lint" 2>&1 && test ! -s "$TMPD/lint"
}
f=$TMPD/$(printf 'x\377\302\233"\\y.bin')
head -c 20000 /dev/urandom >"$f"
expect_exit 0 "audit of a file whose name is not UTF-8, with --prom" \
	ra audit --source "file:$f" --prom "$TMPD/audit.prom"
check "audit textfile: promtool check metrics passes" promcheck "$TMPD/audit.prom"
sed 's/^/# /' "$TMPD/lint"
check "audit textfile: the bad bytes are spelled out in the label" grep -qF 'x\\xff\\xc2\\x9b\"\\y.bin"' "$TMPD/audit.prom"
expect_exit 0 "health --follow on that file with --prom (the file ends: -n stops first)" \
	ra health "$f" --follow --interval 0.01 -n 10000 --prom "$TMPD/follow.prom"
check "follow textfile: promtool check metrics passes" promcheck "$TMPD/follow.prom"
tap_done
