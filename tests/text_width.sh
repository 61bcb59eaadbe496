#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# text_width.sh - the text reports fit their width (issue 26 item 4): the
# audit's report over every sysroot fixture (tests/data/sysroot) with
# stand-in sources and a long jitter spec, and the sources listing, keep
# every line within 80 columns off a terminal and within COLUMNS when set;
# no source spec is ever cut (the jitter spec the old table cut to
# "jitter:mem=33554432,loops=" appears whole); under 40 columns the table
# lists every source's name whole, one per line.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
unset COLUMNS
# relative sysroot paths: the report names its sysroot, and the build
# directory's path is no part of what is tested
cd "$top_srcdir/tests/data/sysroot" || exit 99
SRC='sim:amd-rdrand-ffffffff,as=rdrand,sim:ideal,as=hwrng,jitter:mem=33554432,loops=4,sim:stuck,after=2000'
SPECS='sim:amd-rdrand-ffffffff,as=rdrand
sim:ideal,as=hwrng
jitter:mem=33554432,loops=4
sim:stuck,after=2000'

# over WIDTH FILE: the lines of FILE longer than WIDTH columns (none: empty);
# with "word", not those that hold one word alone after their indent (a
# word longer than the room is never cut: rngaudit-audit(1), COLUMNS)
over() {
	LC_ALL=C awk -v w="$1" -v word="${3:-}" 'length($0) > w && (word == "" || $0 ~ /[^ ] +[^ ]/) {
		print FILENAME ":" FNR ": " length($0) " columns" }' "$2"
}
# fits WIDTH [word] FILE...: every line of every FILE within WIDTH
fits() {
	w=$1; shift
	word=
	if [ "$1" = word ]; then word=1; shift; fi
	: >"$TMPD/over"
	for f in "$@"; do over "$w" "$f" $word >>"$TMPD/over"; done
	if [ -s "$TMPD/over" ]; then sed 's/^/# /' "$TMPD/over" | head -5; return 1; fi
}
# whole FILE: each spec starts a line (in the table, or alone above its
# figures); a spec cut short does not
whole() {
	echo "$SPECS" | while read -r s; do
		grep -q "^$s\( \|,timer=\|\$\)" "$1" || { echo "# $s cut in $1"; return 1; }
	done
}

: >"$TMPD/list"
for d in */; do
	d=${d%/}
	ra audit --sysroot "$d" --source "$SRC" -n 2000 >"$TMPD/a80.$d" 2>/dev/null
	ra sources --sysroot "$d" >"$TMPD/s80.$d" 2>/dev/null
	echo "$TMPD/a80.$d" >>"$TMPD/list"
done
check "the audit's report of every sysroot fixture was written" test "$(wc -l <"$TMPD/list")" -gt 30
check "audit, every sysroot, off a terminal: every line within 80 columns" fits 80 "$TMPD"/a80.* "$TMPD"/s80.*
ok=0
for f in "$TMPD"/a80.*; do whole "$f" || ok=1; done
ok $ok "audit, every sysroot: no source spec cut in the table"
check "audit: the long jitter spec alone on its line, its figures below" \
	sh -c "grep -A1 '^jitter:mem=33554432,loops=4,timer=[a-z]*\$' '$TMPD/a80.current-default' | tail -n 1 | grep -Eq '^ +(pass|fail|warn)'"
check "audit: the kernel trust and the reasons wrapped at spaces, hanging" \
	sh -c "grep -q '^    [a-z(]' '$TMPD/a80.current-default' && grep -q '^       [a-zA-Z0-9(]' '$TMPD/a80.current-default'"

# a given width: 72 (the table), 52 (one block per source) and 30
for d in current-default arm64-cortex-a72 k510-fam15h-vm s390x-z15; do
	for w in 72 52 30; do
		COLUMNS=$w ra audit --sysroot "$d" --source "$SRC" -n 2000 >"$TMPD/a$w.$d" 2>/dev/null
		COLUMNS=$w ra sources --sysroot "$d" >"$TMPD/s$w.$d" 2>/dev/null
	done
done
check "COLUMNS=72: every line of the audit and sources within 72 columns" fits 72 "$TMPD"/a72.* "$TMPD"/s72.*
check "COLUMNS=72: the audit's table, with its heading" grep -q '^SOURCE  *VERDICT  *CREDIBILITY' "$TMPD/a72.current-default"
check "COLUMNS=52: every line within 52 columns but a single word longer than the room" \
	fits 52 word "$TMPD"/a52.* "$TMPD"/s52.*
ok=0
for f in "$TMPD"/a72.* "$TMPD"/a52.* "$TMPD"/a30.*; do whole "$f" || ok=1; done
ok $ok "COLUMNS=72, 52 and 30: no source spec cut"
ra sources >"$TMPD/sources80" 2>/dev/null
COLUMNS=72 ra sources >"$TMPD/sources72" 2>/dev/null
COLUMNS=52 ra sources >"$TMPD/sources52" 2>/dev/null
check "sources on this machine: within 80 columns" fits 80 "$TMPD/sources80"
check "sources on this machine: within COLUMNS=72" fits 72 "$TMPD/sources72"
check "sources on this machine: within COLUMNS=52 but a single word longer than the room" \
	fits 52 word "$TMPD/sources52"
check "sources at 72: every real source named in the table" \
	sh -c "test \$(sed -n '/^SOURCE /,/^\$/p' '$TMPD/sources72' | grep -c '^[a-z]') -ge 6"

# under 40 columns: every name whole, one per line
ok=0
for f in "$TMPD"/a30.*; do
	echo "$SPECS" | while read -r s; do
		grep -Eq "^$s(,timer=[a-z]*)?\$" "$f" || { echo "# $s not alone on a line in $f"; exit 1; }
	done || ok=1
done
ok $ok "COLUMNS=30: every source spec whole, one per line"
check "COLUMNS=30: each source's figures labelled below its name" \
	sh -c "grep -A2 '^sim:ideal,as=hwrng\$' '$TMPD/a30.current-default' | grep -q '^  verdict '"
# only a single word longer than the room may pass the width (never cut)
LC_ALL=C awk 'length($0) > 30 && $0 ~ /[^ ] +[^ ]/ { print FILENAME ":" FNR ": " $0 }' "$TMPD"/a30.* >"$TMPD/long30"
check "COLUMNS=30: a line past 30 columns is one word alone" test ! -s "$TMPD/long30"
COLUMNS=30 ra sources >"$TMPD/sources30" 2>/dev/null
check "sources at COLUMNS=30: every real source's name alone on a line" \
	sh -c "for s in rdrand rdseed hwrng getrandom jitter chaoskey; do grep -qx \"\$s\" '$TMPD/sources30' || exit 1; done"
tap_done
