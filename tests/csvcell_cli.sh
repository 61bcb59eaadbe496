#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# csvcell_cli.sh - the CSVs neutralise what spreadsheets execute (issue 24
# item 3): a host name, CPU vendor or file name starting with =, +, -, @,
# TAB or CR (here from a crafted sysroot bundle and a file's name) is
# written with a leading apostrophe in the audit CSV and the fleet CSV;
# numbers stay bare; report merge reads its own prefix back, so the fleet
# CSV carries one apostrophe however often the rows are merged.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"

if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 not installed: the cells are read back with Python's csv module"
	tap_done
fi
# cells CSV: every cell of CSV read by Python's csv module (strict), one
# "column=value" a line (control characters escaped), and "BAD column=value"
# for a cell that starts with a trigger and is not a number.
cells() {
	python3 - "$1" <<'PY'
import csv, sys
with open(sys.argv[1], newline='') as f:
    rows = list(csv.reader(f, strict=True))
head = rows[0]
for r in rows[1:]:
    for name, v in zip(head, r):
        if v[:1] in ('=', '+', '-', '@', '\t', '\r'):
            try:
                float(v)
            except ValueError:
                print("BAD " + name + "=" + v.encode('unicode_escape').decode())
        print(name + "=" + v.encode('unicode_escape').decode())
PY
}

B=$TMPD/bundle
mkdir -p "$B/proc/sys/kernel"
printf '=HYPERLINK("http://evil/","x")\n' >"$B/proc/sys/kernel/hostname"
printf '6.1.0\n' >"$B/proc/sys/kernel/osrelease"
printf 'processor\t: 0\nvendor_id\t: @SUM(1+1)\ncpu family\t: 6\nmodel\t\t: 1\nstepping\t: 1\nmicrocode\t: 0x1\n\n' \
	>"$B/proc/cpuinfo"
# a file source named like a formula (its device column is the path)
head -c 20000 /dev/urandom >"$TMPD/-2+3.bin"
(cd "$TMPD" && "$RNGAUDIT" audit --sysroot "$B" --source "file:-2+3.bin,sim:ideal" -n 20000 --csv a.csv) \
	>"$TMPD/out" 2>"$TMPD/err"
check "audit from the crafted bundle wrote its CSV" test -s "$TMPD/a.csv"
cells "$TMPD/a.csv" >"$TMPD/cells"
check "audit CSV: no text cell starts with = + - @ TAB or CR" sh -c "! grep -q '^BAD' '$TMPD/cells'"
check "audit CSV: the host name is written with one apostrophe" \
	grep -qxF "host='=HYPERLINK(\"http://evil/\",\"x\")" "$TMPD/cells"
check "audit CSV: the CPU vendor too" grep -qxF "cpu_vendor='@SUM(1+1)" "$TMPD/cells"
check "audit CSV: the file's path in the device column too" grep -qxF "device='-2+3.bin" "$TMPD/cells"
check "audit CSV: a number gets no apostrophe (cpu_family 6)" grep -qxF "cpu_family=6" "$TMPD/cells"

expect_exit 0 "report merge of the audit CSV" "$RNGAUDIT" report merge "$TMPD/a.csv" -o "$TMPD/f1.csv"
cells "$TMPD/f1.csv" >"$TMPD/fcells"
check "fleet CSV: no text cell starts with a trigger" sh -c "! grep -q '^BAD' '$TMPD/fcells'"
check "fleet CSV: the vendor read back and written with one apostrophe, not two" \
	grep -qxF "cpu_vendor='@SUM(1+1)" "$TMPD/fcells"
# The same rows merged again (the file twice, and a copy): still one apostrophe.
cp "$TMPD/a.csv" "$TMPD/b.csv"
expect_exit 0 "report merge of the rows again" "$RNGAUDIT" report merge "$TMPD/a.csv" "$TMPD/b.csv" "$TMPD/a.csv" \
	-o "$TMPD/f2.csv"
check "merging again: the same fleet CSV, prefixes not stacked" cmp -s "$TMPD/f1.csv" "$TMPD/f2.csv"
expect_exit 0 "report merge --format text" "$RNGAUDIT" report merge "$TMPD/a.csv" --format text
check "the text table shows the vendor as read, without the CSV's apostrophe" grep -q "^@SUM(1+1) " "$TMPD/out"
tap_done
