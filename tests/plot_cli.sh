#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plot_cli.sh - the pictures: `rngaudit audit --plot`, `rngaudit report
# merge --plot` and scripts/rngaudit-plot.sh on its own.  Each PNG is
# checked to be a PNG of a sane size; what is drawn is checked in the
# tables the script draws from (RNGAUDIT_PLOT_TABLES keeps them; their
# columns: scripts/rngaudit-plot.awk): verdict colours, the log-scale
# counts, the policy's floors and the claim, the unavailable source drawn
# as absent, columns found by name.  The layout itself (no text outside
# the image or over another): plot_layout.sh.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
export RNGAUDIT_PLOT_SCRIPT="$top_srcdir/scripts/rngaudit-plot.sh"
plot="$top_srcdir/scripts/rngaudit-plot.sh"

# Colours in the tables (rngaudit-plot.awk): bars green and red.
GREEN=2924588 RED=14034728

# png_ok FILE: a PNG (signature, IHDR) 1100..4000 pixels wide (wider when
# a text needs it), 120..3000 high, over 5 kB (a blank or broken picture
# is smaller).
png_ok() {
	[ -s "$1" ] || return 1
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { echo "# $1: signature $sig"; return 1; }
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	size=$(wc -c <"$1")
	[ "$w" -ge 1100 ] && [ "$w" -le 4000 ] && [ "$h" -ge 120 ] && [ "$h" -le 3000 ] && [ "$size" -gt 5000 ] ||
		{ echo "# $1: ${w}x$h, $size bytes"; return 1; }
}
# png_height FILE
png_height() { od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'; }
# row TABLE FIELD VALUE: the lines of a table whose FIELD-th field is VALUE
row() { awk -F '\t' -v f="$2" -v v="$3" '$f == v' "$1"; }
# bars TABLE SOURCE: the colours of SOURCE's bars in a P_rect table
bars() { awk -F '\t' -v s="$2" '$6 == "bar" && $7 == s { print $5 }' "$1"; }
# lines TABLE ROLE: the distinct values (per sample) of the ROLE lines of
# a P_seg table (fail, warn, claim, K), in order
lines() { awk -F '\t' -v r="$2" '$6 == r { print $7 }' "$1" | sort -nu | tr '\n' ' '; }
# texts TABLE ROLE [SOURCE]: the texts of ROLE (of SOURCE) in a P_lab table
texts() { awk -F '\t' -v r="$2" -v s="${3-}" -v any="${3+x}" '$9 == r && (any == "" || $10 == s) { print $4 }' "$1"; }

# Without gnuplot the script says so and the audit fails with exit 2 (this
# needs no gnuplot).
expect_exit 2 "audit --plot without gnuplot: exit 2" env GNUPLOT=/nonexistent/gnuplot "$RNGAUDIT" audit \
	--source sim:ideal -n 20000 --plot "$TMPD/nognuplot"
check "without gnuplot: says gnuplot was not found" grep -q "gnuplot not found" "$TMPD/err"
expect_exit 2 "rngaudit-plot.sh: a bad -f is a usage error" sh "$plot" -f 0.25:x:sim "$TMPD/none.csv" "$TMPD/x"
check "rngaudit-plot.sh: the bad -f named in one line" one_line_error "want FAIL:WARN:SOURCE"

if [ -z "${GNUPLOT:-}" ]; then
	for i in $(seq 1 62); do skip "gnuplot not installed"; done
	tap_done
fi
export GNUPLOT

# An audit with a passing, a failing (biased), an unavailable and an
# all-ones source (64-bit words, every one all ones): exit 2 for the named
# source that could not be opened; the pictures are drawn all the same.
srcs='sim:ideal,sim:biased,p=0.1,hwrng:device=/nonexistent,sim:amd-rdrand-ffffffff'
expect_exit 2 "audit --plot with pass, fail, unavailable sources" \
	env RNGAUDIT_PLOT_TABLES="$TMPD/t" "$RNGAUDIT" audit --source "$srcs" -n 20000 \
	--csv "$TMPD/a.csv" --plot "$TMPD/p"
check "audit --plot: min-entropy.png is a PNG of a sane size" png_ok "$TMPD/p/min-entropy.png"
check "audit --plot: health.png is a PNG of a sane size" png_ok "$TMPD/p/health.png"
check "audit --plot: says where the pictures are" grep -q "pictures in $TMPD/p" "$TMPD/err"
t=$TMPD/t
# min-entropy.png: solid bars in verdict colours, the unavailable source
# absent: no bar, a text saying so.
check "min-entropy: sim:ideal's bar is green (pass)" test "$(bars "$t/me_rect.tsv" sim:ideal)" = "$GREEN"
check "min-entropy: sim:biased's bar is red (fail)" test "$(bars "$t/me_rect.tsv" sim:biased,p=0.1)" = "$RED"
check "min-entropy: the all-ones source (0 bits) still has a bar" \
	test "$(bars "$t/me_rect.tsv" sim:amd-rdrand-ffffffff)" = "$RED"
check "min-entropy: the unavailable source has no bar" test -z "$(bars "$t/me_rect.tsv" hwrng:device=/nonexistent)"
check "min-entropy: the unavailable source is labelled so" \
	test "$(texts "$t/me_lab.tsv" status hwrng:device=/nonexistent)" = "unavailable: nothing measured"
# The floors come from the policy through the audit (fail_below 0.25 and
# warn_below 0.5 per bit for sim sources, K = 8): lines at 2 and 4 bits.
check "min-entropy: fail floor line at 2 bits" test "$(lines "$t/me_seg.tsv" fail)" = "2 "
check "min-entropy: warn floor line at 4 bits" test "$(lines "$t/me_seg.tsv" warn)" = "4 "
check "min-entropy: claim lines at the CSV's h_claim (4 raw, 8 DRBG)" test "$(lines "$t/me_seg.tsv" claim)" = "4 8 "
check "min-entropy: the lines are labelled (fail <, warn < = claim)" \
	test "$(texts "$t/me_lab.tsv" line | grep -cx -e 'fail < 2' -e 'warn < 4 = claim')" -ge 2
says_health_failed() { texts "$t/me_lab.tsv" value "$1" | grep -q 'health tests failed'; }
check "min-entropy: a source failing its health tests says so" says_health_failed sim:biased,p=0.1
check "min-entropy: a passing source does not" eval '! says_health_failed sim:ideal'
check "min-entropy: a source spec with a comma is one label" \
	test "$(texts "$t/me_lab.tsv" row sim:biased,p=0.1)" = sim:biased,p=0.1
# health.png: counts on a log scale; the all-ones source's 2,500 all-ones
# words and its failures red, the biased source's zero RCT count marked 0.
ones=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ones_words") c = i }
	/amd-rdrand/ { print $c }' "$TMPD/a.csv")
# layout_ok DIR P: no text of picture P outside the image or over another
# (tests/plot_layout.awk; plot_layout.sh checks the fixtures)
layout_ok() {
	awk -v P="$2" -f "$top_srcdir/tests/plot_layout.awk" "$1/layout.gp" "$1/$2_lab.tsv" "$1/$2_labb.tsv" \
		"$1/$2_rect.tsv" "$1/$2_pt.tsv" >"$TMPD/layout.out" || { sed 's/^/# /' "$TMPD/layout.out"; return 1; }
}
check "audit --plot: min-entropy.png's texts inside the image, none over another" layout_ok "$t" me
check "audit --plot: health.png's texts inside the image, none over another" layout_ok "$t" h
# (the all-ones source: 1 RCT failure, 20 APT and 5 proportion windows,
# its all-ones and repeated words: five red bars; 0 all-zero words: none)
check "health: the all-ones source's counts are five red bars" \
	test "$(bars "$t/h_rect.tsv" sim:amd-rdrand-ffffffff | grep -cx "$RED")" -eq 5
ones_t=$(echo "$ones" | awk '{ s = sprintf("%d", $1); o = ""
	while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }; print s o }')
has_ones_label() { texts "$t/h_lab.tsv" value sim:amd-rdrand-ffffffff | grep -q "^$ones_t words.*FAILED (WORD_ONES)"; }
check "health: the all-ones word count labelled FAILED (WORD_ONES) ($ones_t words)" has_ones_label
zero_passed() {
	test "$(awk -F '\t' '$6 == "chip" && $7 == "sim:ideal" { print $5 }' "$t/h_rect.tsv" | sort -u)" = "$GREEN" &&
		test -z "$(bars "$t/h_rect.tsv" sim:ideal)" &&
		test "$(texts "$t/h_lab.tsv" value sim:ideal | grep -c '^0 .*passed$')" -eq 3
}
check "health: a count of 0: no bar, a green square, 'passed'" zero_passed
check "health: the unavailable source: no bar, no square" test -z "$(awk -F '\t' '$7 == "hwrng:device=/nonexistent"' "$t/h_rect.tsv")"
check "health: headers say each verdict" \
	sh -c "grep -q 'sim:ideal:  PASS' '$t/h_labb.tsv' && grep -q 'hwrng:device=/nonexistent:  UNAVAILABLE' '$t/h_labb.tsv'"

# Columns are read by name: the same CSV with its columns in reverse order
# and a column of a later schema added draws the same tables.
awk 'BEGIN { FS = OFS = "," } { sub(/\r$/, "") }
     NR == 1 { print "new_column," $0; next } { print "\"x\"," $0 }' "$TMPD/a.csv" >"$TMPD/extra.csv"
RNGAUDIT_PLOT_TABLES="$TMPD/t1" sh "$plot" -- "$TMPD/a.csv" "$TMPD/p1" 2>"$TMPD/e1"   # no -f
awk -v q='"' 'function rec(line, f,   n, i, c, v, inq) { n = 0; v = ""; inq = 0
		for (i = 1; i <= length(line); i++) { c = substr(line, i, 1)
			if (c == q) { inq = !inq; v = v c } else if (c == "," && !inq) { f[++n] = v; v = "" } else v = v c }
		f[++n] = v; return n }
	{ sub(/\r$/, ""); n = rec($0, f); out = f[n]; for (i = n - 1; i >= 1; i--) out = out "," f[i]; print out }' \
	"$TMPD/extra.csv" >"$TMPD/rev.csv"
RNGAUDIT_PLOT_TABLES="$TMPD/t2" sh "$plot" "$TMPD/rev.csv" "$TMPD/p2" 2>"$TMPD/e2"
check "by name: reversed columns plus a new one draw the same health bars" cmp -s "$TMPD/t1/h_rect.tsv" "$TMPD/t2/h_rect.tsv"
check "by name: and the same min-entropy bars" cmp -s "$TMPD/t1/me_rect.tsv" "$TMPD/t2/me_rect.tsv"
check "without -f: the floors from the CSV's policy_* columns (lines at 2 and 4 bits)" \
	test "$(lines "$TMPD/t1/me_seg.tsv" fail)$(lines "$TMPD/t1/me_seg.tsv" warn)" = "2 4 "
# A CSV of an older schema (schema 2: its first 70 columns, no policy_*
# columns), without -f: no floor lines, the claim still drawn.
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
w = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\r\n")
for r in rows: w.writerow(r[:70])' "$TMPD/a.csv" "$TMPD/old.csv"
RNGAUDIT_PLOT_TABLES="$TMPD/t4" sh "$plot" "$TMPD/old.csv" "$TMPD/p4" 2>"$TMPD/e4"
check "older CSV without -f: no floor lines, the claim still drawn" \
	sh -c "! grep -q policy_fail_below '$TMPD/old.csv' && ! cut -f6 '$TMPD/t4/me_seg.tsv' | grep -qx fail && cut -f6 '$TMPD/t4/me_seg.tsv' | grep -qx claim"

# A long source spec (a file path) is shortened in the row labels, keeping
# its start and end, and the left margin fits it.
long=file:/var/lib/rngaudit/samples/a-long-directory-name/chaoskey-raw-0001.bin
sed "s|\"sim:ideal\"|\"$long\"|" "$TMPD/a.csv" >"$TMPD/long.csv"
RNGAUDIT_PLOT_TABLES="$TMPD/t3" sh "$plot" "$TMPD/long.csv" "$TMPD/p3" 2>"$TMPD/e3"
check "a long source spec is shortened to its start and end in the row label" \
	test "$(texts "$TMPD/t3/me_lab.tsv" row "$long")" = "file:/var/lib/rn...ame/chaoskey-raw-0001.bin"
check "and it fits left of the bars (no text outside the image or over another)" \
	awk -v P=me -f "$top_srcdir/tests/plot_layout.awk" "$TMPD/t3/layout.gp" "$TMPD/t3/me_lab.tsv" \
	"$TMPD/t3/me_labb.tsv" "$TMPD/t3/me_rect.tsv" "$TMPD/t3/me_pt.tsv"

# More sources, more rows: the picture grows rather than squeezing them.
expect_exit 0 "audit --plot with one source" "$RNGAUDIT" audit --source sim:ideal -n 20000 --plot "$TMPD/one"
check "audit --plot without --csv keeps the CSV it drew from in DIR" test -s "$TMPD/one/audit.csv"
check "health.png of four sources is taller than of one" \
	test "$(png_height "$TMPD/p/health.png")" -gt "$(png_height "$TMPD/one/health.png")"

# The fleet: two hosts' CSVs merged; report merge --plot draws fleet.png.
sed 's/^\("[^"]*"\),"[^"]*"/\1,"otherhost"/' "$TMPD/a.csv" >"$TMPD/b.csv"
expect_exit 0 "report merge --plot DIR" \
	env RNGAUDIT_PLOT_TABLES="$TMPD/tf" "$RNGAUDIT" report merge "$TMPD/a.csv" "$TMPD/b.csv" \
	-o "$TMPD/fleet.csv" --plot "$TMPD/f"
check "report merge --plot: fleet.png is a PNG of a sane size" png_ok "$TMPD/f/fleet.png"
check "report merge --plot: fleet.png's texts inside the image, none over another" layout_ok "$TMPD/tf" f
check "fleet: two hosts per group, labelled" test "$(grep -c '2 hosts' "$TMPD/tf/f_lab.tsv")" -eq 4
check "fleet: the failing groups' bars are red, the passing one green" \
	test "$(awk -F '\t' '$6 == "bar" { print $5 }' "$TMPD/tf/f_rect.tsv" | sort | tr '\n' ' ')" = "$RED $RED $GREEN "
check "fleet: the median of each assessed group is marked" test "$(wc -l <"$TMPD/tf/f_pt.tsv")" -eq 3
unavailable_group() {
	test -z "$(bars "$TMPD/tf/f_rect.tsv" hwrng:device=/nonexistent)" &&
		texts "$TMPD/tf/f_lab.tsv" status hwrng:device=/nonexistent | grep -q '^unavailable  ·  2 hosts'
}
check "fleet: the group no host could open has no bar, and says unavailable" unavailable_group
check "fleet: the floors of each group drawn (from the merged CSV's policy columns)" \
	test "$(lines "$TMPD/tf/f_seg.tsv" fail)" = "2 "
expect_exit 0 "report merge to stdout --plot DIR" "$RNGAUDIT" report merge "$TMPD/a.csv" --plot "$TMPD/f3"
check "report merge to stdout --plot: the fleet CSV drawn is kept in DIR" \
	sh -c "cmp -s '$TMPD/out' '$TMPD/f3/fleet.csv' && test -s '$TMPD/f3/fleet.png'"
check "fleet: rngaudit-plot.sh knows a merged CSV by its header" \
	sh -c "sh '$plot' '$TMPD/fleet.csv' '$TMPD/f2' && test -s '$TMPD/f2/fleet.png' && test ! -e '$TMPD/f2/health.png'"
expect_exit 2 "rngaudit-plot.sh: a CSV of neither kind is refused" sh "$plot" "$top_srcdir/data/policy.default" "$TMPD/x"

# Labels are data, never code (issue 24 item 1): gnuplot runs `backquotes`
# (and expands @macros) on every command line it reads, so no text from a
# CSV, a file name or a directory name may reach one.  Each payload would
# touch a file under $pwn, named after the field it came through.
pwn=$TMPD/pwn
mkdir -p "$pwn"
# hostile CSV: the header of CSV, every data field replaced by a payload
# naming its column (backquotes, $(...), both quotes, a newline, a tab, @).
hostile() {
	awk -v pwn="$pwn" -v q='"' 'BEGIN { FS = "," }
		NR == 1 { sub(/\r$/, ""); print; n = NF; for (i = 1; i <= n; i++) { c[i] = $i; gsub(q, "", c[i]) }; next }
		NR == 2 { line = ""
			for (i = 1; i <= n; i++) {
				v = "x`touch " pwn "/bq-" c[i] "`y$(touch " pwn "/ds-" c[i] ")" q q "@" c[i] "\047\n\tz"
				line = line (i > 1 ? "," : "") q v q
			}
			printf "%s\r\n", line }' "$1"
}
hostile "$TMPD/a.csv" >"$TMPD/hostile-audit.csv"
RNGAUDIT_PLOT_TABLES="$TMPD/th" sh "$plot" "$TMPD/hostile-audit.csv" "$TMPD/ph" 2>"$TMPD/eh"
check "hostile audit CSV (every field a payload): both pictures drawn" \
	sh -c "test -s '$TMPD/ph/min-entropy.png' && test -s '$TMPD/ph/health.png'"
check "hostile audit CSV: no payload ran (nothing in \$pwn)" test -z "$(ls -A "$pwn")"
check "hostile audit CSV: the source is a row label, as data (quotes and all)" \
	sh -c "awk -F '\t' '\$9 == \"row\"' '$TMPD/th/me_lab.tsv' | grep -qF 'x\`touch '"
check "hostile audit CSV: the host line of the title is data (a text table)" \
	sh -c "awk -F '\t' '\$9 == \"title\"' '$TMPD/th/me_lab.tsv' | grep -qF '\$(touch '"
hostile "$TMPD/fleet.csv" >"$TMPD/hostile-fleet.csv"
RNGAUDIT_PLOT_TABLES="$TMPD/thf" sh "$plot" "$TMPD/hostile-fleet.csv" "$TMPD/phf" 2>"$TMPD/ehf"
check "hostile fleet CSV: fleet.png drawn" test -s "$TMPD/phf/fleet.png"
check "hostile fleet CSV: no payload ran" test -z "$(ls -A "$pwn")"
check "hostile CSVs: their texts laid out like any other" \
	sh -c 'for p in me h; do awk -v P=$p -f "$1/tests/plot_layout.awk" "$2/layout.gp" "$2/${p}_lab.tsv" "$2/${p}_labb.tsv" \
		"$2/${p}_rect.tsv" "$2/${p}_pt.tsv" || exit 1; done; awk -v P=f -f "$1/tests/plot_layout.awk" "$3/layout.gp" \
		"$3/f_lab.tsv" "$3/f_labb.tsv" "$3/f_rect.tsv" "$3/f_pt.tsv"' sh "$top_srcdir" "$TMPD/th" "$TMPD/thf"
# layout.gp is the one file gnuplot loads as commands: numbers only.
numbers_only() { ! grep -qvE '^[A-Za-z_]+ = -?[0-9.]+(e[-+]?[0-9]+)?$' "$1"; }
check "layout.gp of the hostile audit CSV holds numbers only" numbers_only "$TMPD/th/layout.gp"
check "layout.gp of the hostile fleet CSV holds numbers only" numbers_only "$TMPD/thf/layout.gp"
check "the plot scripts evaluate nothing built from data (no eval, no @macro, no -e)" \
	sh -c "! grep -nE '^[[:space:]]*eval|@[a-z_]' '$top_srcdir/scripts/plot.gp' '$top_srcdir/scripts/plot-fleet.gp' && \
	       ! grep -n 'gnuplot\" -e' '$top_srcdir/scripts/rngaudit-plot.sh'"
# The issue's case, through the tool: report merge --plot on a CSV whose
# source holds a backquoted command; and audit --plot through a file name,
# into a directory whose name is a payload too.
sed 's/"sim:ideal"/"sim:ideal`touch '"$(printf %s "$pwn" | sed 's/[\/&]/\\&/g')"'\/merge-source`"/' "$TMPD/a.csv" >"$TMPD/bq.csv"
expect_exit 0 "report merge --plot: a source holding \`touch ...\` is merged and drawn" \
	"$RNGAUDIT" report merge "$TMPD/bq.csv" -o "$TMPD/bqfleet.csv" --plot "$TMPD/pbq"
check "report merge --plot: the backquoted command did not run" test ! -e "$pwn/merge-source"
check "report merge --plot: fleet.png drawn" test -s "$TMPD/pbq/fleet.png"
# (a name's payload cannot hold a slash: it runs in $pwn)
bqname="$TMPD/\`touch file-name\`\$(touch file-name2)'x\".bin"
head -c 20000 /dev/urandom >"$bqname"
bqdir="$TMPD/\`touch plot-dir\`'dir\"\$(touch plot-dir2)"
expect_exit 0 "audit --plot: a file name and --plot DIR holding payloads" \
	sh -c 'cd "$1" && shift && exec "$@"' sh "$pwn" "$RNGAUDIT" audit --source "file:$bqname" --plot "$bqdir"
check "audit --plot: the pictures are in DIR" sh -c 'test -s "$1/min-entropy.png" && test -s "$1/health.png"' sh "$bqdir"
# gnuplot 5.4.4 crashed (SIGSEGV) drawing an audit whose only source was
# unavailable (no fail floor: a `with labels` of NaN rows only)
expect_exit 2 "audit --plot of an unavailable source only: exit 2 for the source, not the plot" \
	"$RNGAUDIT" audit --source "file:$TMPD/missing.bin" --plot "$TMPD/punav"
check "audit --plot of an unavailable source only: both pictures drawn" \
	sh -c "test -s '$TMPD/punav/min-entropy.png' && test -s '$TMPD/punav/health.png' && ! grep -q -e 'plot script' -e Segmentation '$TMPD/err'"
check "audit --plot: no payload of the file or directory name ran" test -z "$(ls -A "$pwn")"
tap_done
