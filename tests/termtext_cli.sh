#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# termtext_cli.sh - every report on stdout escapes what could drive a
# terminal (issue 24 item 3): names from a bundle (a CPU vendor and model
# name with ESC, a C1 CSI and a byte that is not UTF-8) and from a file's
# name (a newline, an OSC title sequence) reach the audit table, the
# sources list, the fleet table and the health and translate summaries
# escaped, and a newline in a name never breaks a table's row.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"

if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 not installed: output is checked with Python"
	tap_done
fi
# safe FILE: FILE is UTF-8 with no C0 control but newline, no DEL, no C1 control
safe() {
	python3 - "$1" <<'PY'
import sys
t = open(sys.argv[1], 'rb').read().decode('utf-8')   # raises on invalid UTF-8
bad = [c for c in t if (ord(c) < 0x20 and c != '\n') or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)
PY
}

B=$TMPD/bundle
mkdir -p "$B/proc/sys/kernel"
printf '6.1.0\n' >"$B/proc/sys/kernel/osrelease"
printf 'processor\t: 0\nvendor_id\t: \033[31mEVIL\nmodel name\t: X\302\2332J\377Y\ncpu family\t: 6\nmodel\t\t: 1\nstepping\t: 1\n\n' \
	>"$B/proc/cpuinfo"
fname=$(printf 'a\nb\033]0;pwned\007.bin')
head -c 20000 /dev/urandom >"$TMPD/$fname"

expect_exit 0 "sources --sysroot with a hostile cpuinfo" "$RNGAUDIT" sources --sysroot "$B"
check "sources: stdout is terminal-safe (no C0, DEL, C1; valid UTF-8)" safe "$TMPD/out"
check "sources: the vendor's ESC is shown as \\x1b" grep -qF 'cpu: \x1b[31mEVIL family 6' "$TMPD/out"
check "sources: the model name's C1 CSI and bad byte are shown as \\xHH" grep -qF 'X\xc2\x9b2J\xffY' "$TMPD/out"

(cd "$TMPD" && "$RNGAUDIT" audit --sysroot "$B" --source "file:$fname,sim:ideal" -n 20000 --csv a.csv) \
	>"$TMPD/audit" 2>"$TMPD/err"
check "audit: the table is terminal-safe" safe "$TMPD/audit"
check "audit: stderr is terminal-safe too" safe "$TMPD/err"
check "audit: the file's row is one line, its name escaped" \
	grep -qF 'file:a\nb\x1b]0;pwned\x07.bin' "$TMPD/audit"
check "audit: the table has one row per source (2), the newline did not add one" \
	test "$(sed -n '/^SOURCE/,/^$/p' "$TMPD/audit" | grep -c -e '^file:' -e '^sim:')" -eq 2
check "audit: the header's CPU vendor escaped" grep -qF '(\x1b[31mEVIL, family 6' "$TMPD/audit"

expect_exit 0 "report merge --format text of that audit" "$RNGAUDIT" report merge "$TMPD/a.csv" --format text
check "fleet table: terminal-safe" safe "$TMPD/out"
check "fleet table: the vendor escaped, its row one line (2 groups, 2 rows)" \
	test "$(grep -c '^\\x1b\[31mEVIL ' "$TMPD/out")" -eq 2

expect_exit 0 "health on the file" "$RNGAUDIT" health "$TMPD/$fname"
check "health: the source line is terminal-safe, one line" \
	sh -c "safe() { python3 -c 'import sys; t=open(sys.argv[1],\"rb\").read().decode(); sys.exit(any(ord(c)<32 and c!=\"\\n\" or 127<=ord(c)<=159 for c in t))' \"\$1\"; }; safe '$TMPD/out' && grep -qF 'source: $TMPD/a\\nb\\x1b]0;pwned\\x07.bin' '$TMPD/out'"
expect_exit 0 "translate of the file" "$RNGAUDIT" translate "$TMPD/$fname" -o "$TMPD/sym.bin"
check "translate: the summary is terminal-safe" safe "$TMPD/out"
tap_done
