#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plot_layout.sh - pictures that never mislead (issue 26 item 5): every
# picture of the fixtures under tests/data/plot laid out by
# rngaudit-plot.awk, whose tables place every text in image pixels with a
# box from the fixed font's character width (gnuplot reports no text
# extents); tests/plot_layout.awk checks that no text box leaves the image
# and that no two texts, and no text and bar, overlap.  With gnuplot the
# pictures are drawn too: each PNG is the size the layout says, nothing is
# drawn at its edge, and a picture of the texts alone has no ink outside
# their boxes (the width and height estimates hold for the font drawn).
# And what each picture says: an all-pass health picture shows each test
# and that it passed; an unavailable source has no bar; the fleet's groups
# worst first, each with its own policy floors; booleans in any spelling.
. "${top_srcdir:-.}/tests/tap.sh"
fx=$top_srcdir/tests/data/plot
awkprog=$top_srcdir/scripts/rngaudit-plot.awk
GREEN=2924588

# tables MODE CSV DIR: the layout of CSV's pictures into DIR (no gnuplot)
tables() {
	mkdir -p "$3" && PLOT_MODE=$1 PLOT_TMP=$3 PLOT_CSVNAME=$(basename "$2") PLOT_FLOORS= \
		LC_ALL=C awk -f "$awkprog" "$2"
}
# layout_ok DIR P: plot_layout.awk finds nothing wrong with picture P
layout_ok() {
	awk -v P="$2" -f "$top_srcdir/tests/plot_layout.awk" "$1/layout.gp" "$1/$2_lab.tsv" "$1/$2_labb.tsv" \
		"$1/$2_rect.tsv" "$1/$2_pt.tsv" >"$TMPD/layout.out" || { sed 's/^/# /' "$TMPD/layout.out"; return 1; }
}
# col DIR TABLE ROLE FIELD: FIELD of the rows of TABLE whose role is ROLE
# (the role is field 9 of a text table, 6 of rect and seg, 3 of pt)
field_of() {
	case $2 in *_lab* ) rf=9 ;; *_pt*) rf=3 ;; *) rf=6 ;; esac
	awk -F '\t' -v r="$3" -v rf=$rf -v f="$4" '$rf == r { print $f }' "$1/$2.tsv"
}

# The checker finds what it is for: a text off the right edge, two texts
# on one another, a text over a bar.
bad=$TMPD/bad
mkdir -p "$bad"
printf 'me_W = 200\nme_H = 100\n' >"$bad/layout.gp"
printf '190\t50\t0\tcut off\t190\t42\t239\t58\trow\tx\n10\t20\t0\tone\t10\t12\t31\t28\trow\tx\n' >"$bad/me_lab.tsv"
printf '20\t24\t0\ttwo\t20\t16\t41\t32\trow\tx\n' >"$bad/me_labb.tsv"
printf '5\t15\t10\t30\t0\tbar\tx\n' >"$bad/me_rect.tsv"
: >"$bad/me_pt.tsv"
awk -v P=me -f "$top_srcdir/tests/plot_layout.awk" "$bad/layout.gp" "$bad/me_lab.tsv" "$bad/me_labb.tsv" \
	"$bad/me_rect.tsv" "$bad/me_pt.tsv" >"$TMPD/bad.out"
check "the layout check fails a text past the edge, an overlap and a text over a bar" \
	test "$(grep -c -e '^outside' -e '^overlap' -e '^over a bar' "$TMPD/bad.out")" -eq 3

# Every picture of every fixture.
for f in all-pass mixed crowded unavailable-only; do
	tables audit "$fx/$f.csv" "$TMPD/$f"
	check "$f: min-entropy.png: texts inside, none over another or a bar" layout_ok "$TMPD/$f" me
	check "$f: health.png: texts inside, none over another or a bar" layout_ok "$TMPD/$f" h
done
tables fleet "$fx/fleet.csv" "$TMPD/fleet"
check "fleet: fleet.png: texts inside, none over another or a bar or a marker" layout_ok "$TMPD/fleet" f

# All pass: each test that ran, a green square, "passed"; no bars and no
# log axis with nothing on it.
t=$TMPD/all-pass
check "all pass: a green square for each of the 3 tests" \
	test "$(field_of "$t" h_rect chip 5 | grep -cx "$GREEN")" -eq 3
check "all pass: each test named with its cutoff and 'passed'" \
	test "$(grep -c 'cutoff [0-9]*  ·  passed' "$t/h_lab.tsv")" -eq 3
check "all pass: no bar" test -z "$(field_of "$t" h_rect bar 1)"
check "all pass: no log axis with nothing on it" test -z "$(field_of "$t" h_seg tick 1)"
# Unavailable: absent, not the longest bar.
t=$TMPD/mixed
nobar() { ! awk -F '\t' -v s="$2" '$7 == s' "$1" | grep -q .; }
check "unavailable: no bar in min-entropy.png" nobar "$t/me_rect.tsv" hwrng:device=/nonexistent
check "unavailable: no line across its row" sh -c "! awk -F '\t' '\$8 == \"hwrng:device=/nonexistent\"' '$t/me_seg.tsv' | grep -q ."
check "unavailable: says so where the bar would be" \
	sh -c "awk -F '\t' '\$9 == \"status\" && \$10 == \"hwrng:device=/nonexistent\"' '$t/me_lab.tsv' | grep -q 'unavailable: nothing measured'"
check "unavailable: no bar in health.png either" nobar "$t/h_rect.tsv" hwrng:device=/nonexistent
check "unavailable only: no bar at all" test ! -s "$TMPD/unavailable-only/me_rect.tsv"
# The crowded fixture: the labels that collided and the texts that were cut
# are there whole (and, above, inside and apart).
t=$TMPD/crowded
check "crowded: 'claim 0.333' and 'warn < 1' both drawn (apart: above)" \
	test "$(field_of "$t" me_lab line 4 | grep -cx -e 'claim 0.333' -e 'warn < 1')" -eq 2
check "crowded: '1,000,000 samples' whole in a heading" grep -q '1,000,000 samples' "$t/h_labb.tsv"
check "crowded: 'health tests failed' whole" test "$(field_of "$t" me_lab value 4 | grep -c 'health tests failed$')" -eq 1
check "crowded: the wider texts widen the image rather than being cut" \
	sh -c "grep -q '^h_W = ' '$t/layout.gp' && test \$(sed -n 's/^h_W = //p' '$t/layout.gp') -gt 1100"

# The fleet: worst first (the failing group's CPU first, each CPU's rows
# fail, warn, unavailable, pass), each group's floors on its own row.
t=$TMPD/fleet
check "fleet: rows worst first" test "$(field_of "$t" f_lab row 10 | tr '\n' ' ')" = \
	"rdrand sim:ideal,bits=4 rdseed hwrng getrandom jitter "
check "fleet: the CPUs in the order of their worst row" test "$(field_of "$t" f_labb head 4 | cut -c1-30 | tr '\n' '|')" = \
	"AuthenticAMD family 25 model 1|GenuineIntel family 6 model 85|GenuineIntel family 6 model 15|"
floor() { awk -F '\t' -v r="$2" -v s="$3" '$6 == r && $8 == s { print $7 }' "$1/f_seg.tsv"; }
check "fleet: the red 3.31 bar has its fail floor 3.6 (0.45 x 8) drawn" test "$(floor "$t" fail rdrand)" = 3.6
check "fleet: the green 2.77 bar its fail floor 1 (0.25 x 4)" test "$(floor "$t" fail sim:ideal,bits=4)" = 1
check "fleet: and the warn floors 4.8 and 2" \
	sh -c "test \"\$(awk -F '\t' '\$6 == \"warn\" && (\$8 == \"rdrand\" || \$8 == \"sim:ideal,bits=4\") { print \$7 }' '$t/f_seg.tsv' | tr '\n' ' ')\" = '4.8 2 '"
check "fleet: the floors are in the text too" grep -q 'min 3.31.*fail < 3.6, warn < 4.8' "$t/f_lab.tsv"
check "fleet: hosts whose floors differ: no floor drawn" test -z "$(floor "$t" fail getrandom)"
check "fleet: and the text says the floors are unknown" grep -q 'min 7.52.*floors unknown' "$t/f_lab.tsv"

# Booleans in every spelling the CSVs have had plot the same.
check "fleet: the fixture spells virtualized yes and no" test "$(grep -c -e '"yes"' -e '"no"' "$fx/fleet.csv")" -eq 6
for sp in true:false 1:0 on:off; do
	mkdir -p "$TMPD/in-$sp"
	sed "s/\"yes\"/\"${sp%:*}\"/g; s/\"no\"/\"${sp#*:}\"/g" "$fx/fleet.csv" >"$TMPD/in-$sp/fleet.csv"
	tables fleet "$TMPD/in-$sp/fleet.csv" "$TMPD/f-$sp"
	check "fleet: virtualized as $sp draws the same as yes:no" \
		sh -c "cmp -s '$t/f_labb.tsv' '$TMPD/f-$sp/f_labb.tsv' && cmp -s '$t/f_lab.tsv' '$TMPD/f-$sp/f_lab.tsv'"
done

# An interrupted run (partial, in any spelling) says so.
for sp in 1 true yes; do
	python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
i = rows[0].index("partial")
for r in rows[1:]:
    if r[rows[0].index("source")] == "sim:ideal": r[i] = sys.argv[3]
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\r\n").writerows(rows)' "$fx/mixed.csv" "$TMPD/partial-$sp.csv" "$sp"
	tables audit "$TMPD/partial-$sp.csv" "$TMPD/partial-$sp"
	check "partial $sp: the interrupted source says so, the others do not" \
		test "$(grep -c 'interrupted run' "$TMPD/partial-$sp/me_lab.tsv")$(field_of "$TMPD/partial-$sp" me_lab value 10 |
			sed -n 1p)$(grep -c 'sim:ideal:  PASS (interrupted run)' "$TMPD/partial-$sp/h_labb.tsv")" = "1sim:ideal1"
done
check "mixed: no source is interrupted" test "$(grep -c 'interrupted' "$TMPD/mixed/me_lab.tsv")" -eq 0

if [ -z "${GNUPLOT:-}" ]; then
	for i in $(seq 1 16); do skip "gnuplot not installed"; done
	tap_done
fi
export GNUPLOT
# png_size FILE: WxH from its IHDR
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
		$5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}
layout_size() { printf '%sx%s' "$(sed -n "s/^$2_W = //p" "$1/layout.gp")" "$(sed -n "s/^$2_H = //p" "$1/layout.gp")"; }
# The texts of picture P alone, drawn as plot.gp draws them.
cat >"$TMPD/labels.gp" <<'GP'
tmp = ARG1; P = ARG2
load tmp.'/layout.gp'
W = value(P.'_W'); H = value(P.'_H')
set terminal pngcairo size W,H noenhanced font "DejaVu Sans Mono,9"
set output ARG3
set datafile separator "\t"
unset key; unset border; unset tics
set lmargin at screen 0; set rmargin at screen 1; set bmargin at screen 0; set tmargin at screen 1
set xrange [0 : W]; set yrange [0 : H]
plot tmp.'/'.P.'_lab.tsv' using 1:2:4:3 with labels left tc rgb variable, \
     tmp.'/'.P.'_labb.tsv' using 1:2:4:3 with labels left font "DejaVu Sans Mono:Bold,9" tc rgb variable
GP
check "the texts are drawn in the font the layout measured (plot.gp, plot-fleet.gp)" \
	sh -c "grep -q 'font \"DejaVu Sans Mono,9\"' '$top_srcdir/scripts/plot.gp' && \
	       grep -q 'font \"DejaVu Sans Mono,9\"' '$top_srcdir/scripts/plot-fleet.gp'"
inkbox() {   # inkbox DIR P
	"$GNUPLOT" -c "$TMPD/labels.gp" "$1" "$2" "$1/$2-texts.png" 2>/dev/null &&
		python3 "$top_srcdir/tests/plot_ink.py" labels "$1/$2-texts.png" "$1/$2_lab.tsv" "$1/$2_labb.tsv" >"$TMPD/ink" ||
		{ sed 's/^/# /' "$TMPD/ink"; return 1; }
}
edge() { python3 "$top_srcdir/tests/plot_ink.py" edge "$1" >"$TMPD/edge" || { sed 's/^/# /' "$TMPD/edge"; return 1; }; }
# The ink check needs the font itself (fontconfig would draw another in
# its place, of other widths).
if command -v fc-list >/dev/null 2>&1 && fc-list 'DejaVu Sans Mono' family | grep -q .; then
	font=yes
else
	font=
fi
inkcheck() { if [ -n "$font" ]; then check "$1" inkbox "$2" "$3"; else skip "$1: DejaVu Sans Mono not installed"; fi; }
for f in mixed crowded; do
	RNGAUDIT_PLOT_TABLES="$TMPD/g-$f" sh "$top_srcdir/scripts/rngaudit-plot.sh" "$fx/$f.csv" "$TMPD/p-$f" 2>"$TMPD/err"
	check "$f: min-entropy.png is the size its layout says" \
		test "$(png_size "$TMPD/p-$f/min-entropy.png")" = "$(layout_size "$TMPD/g-$f" me)"
	check "$f: health.png is the size its layout says" \
		test "$(png_size "$TMPD/p-$f/health.png")" = "$(layout_size "$TMPD/g-$f" h)"
	check "$f: nothing drawn at the edge of min-entropy.png" edge "$TMPD/p-$f/min-entropy.png"
	check "$f: nothing drawn at the edge of health.png" edge "$TMPD/p-$f/health.png"
	inkcheck "$f: min-entropy.png's texts drawn lie in their boxes" "$TMPD/g-$f" me
	inkcheck "$f: health.png's texts drawn lie in their boxes" "$TMPD/g-$f" h
done
RNGAUDIT_PLOT_TABLES="$TMPD/g-fleet" sh "$top_srcdir/scripts/rngaudit-plot.sh" "$fx/fleet.csv" "$TMPD/p-fleet" 2>"$TMPD/err"
check "fleet: fleet.png is the size its layout says" \
	test "$(png_size "$TMPD/p-fleet/fleet.png")" = "$(layout_size "$TMPD/g-fleet" f)"
check "fleet: nothing drawn at the edge of fleet.png" edge "$TMPD/p-fleet/fleet.png"
inkcheck "fleet: fleet.png's texts drawn lie in their boxes" "$TMPD/g-fleet" f
tap_done
