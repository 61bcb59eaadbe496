#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bounded_cli.sh - every run bounded by the machine (issue 24 item 4): an
# audit asking for more samples than memory can keep for the estimators is
# refused up front, in one line, writing nothing; collect --format streams
# its wide samples to the output in memory of one block, however many.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1

expect_exit 2 "audit -n 1e12: refused" ra audit --source sim:ideal -n 1e12 --csv "$TMPD/a.csv"
check "audit -n 1e12: one line naming -n and the cap from memory" \
	one_line_error "-n 1000000000000: more samples than this machine can keep for the estimators: at most"
check "audit -n 1e12: no report written" test ! -e "$TMPD/a.csv"
# the bound is checked before the machine's facts are read: on a guest
# whose microcode is the hypervisor's, that note came first (two lines)
expect_exit 2 "audit -n 1e12 on a guest (sysroot): refused" ra audit --sysroot \
	"$top_srcdir/tests/data/sysroot/k510-fam15h-vm" --source sim:ideal -n 1e12 --csv "$TMPD/b.csv"
check "audit -n 1e12 on a guest: the one line, no note on the hypervisor's microcode before it" \
	one_line_error "-n 1000000000000: more samples than this machine can keep for the estimators: at most"
expect_exit 2 "audit -n 1e12 of the default sources: refused before collecting" ra audit -n 1e12
check "the default sources share the cap (the message counts them)" grep -q "per source with [0-9]* sources" "$TMPD/err"

# 2*10^7 wide samples are 160 MB raw; the old collect held them, then an
# encoded copy (over 320 MB).  Streaming keeps one block: far under 100 MB.
if [ -n "${RNGAUDIT_WRAP:-}" ] || [ ! -x /usr/bin/time ]; then
	skip "memory of collect --format is measured without a wrapper and with /usr/bin/time"
	skip "memory of collect --format is measured without a wrapper and with /usr/bin/time"
else
	/usr/bin/time -f '%M' -o "$TMPD/rss" "$RNGAUDIT" collect --source file:/dev/urandom,format=u64le \
		--format u64le -n 20000000 -o - 2>"$TMPD/err" | wc -c >"$TMPD/bytes"
	check "collect --format u64le -n 2e7: all 160000000 bytes written" test "$(cat "$TMPD/bytes")" -eq 160000000
	rss=$(tail -n 1 "$TMPD/rss")
	check "collect --format u64le -n 2e7 streams: peak RSS ${rss} KB, under 100 MB (not 320 MB)" \
		test "$rss" -lt 100000
fi
tap_done
