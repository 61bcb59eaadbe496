#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ea_names.sh - rngaudit run by the names of NIST's tools (ea_non_iid,
# ea_iid, ea_restart, ea_conditioning; issue 26 item 1, ea_non_iid(1))
# against what NIST's own tools at commit 68ed165 printed and wrote on the
# same inputs (tests/data/nist-68ed165 and tests/data/nist-oracle, see
# their README.md): the whole standard output and the exit status at every
# level (tests/nist_compare.sh: the same words, the numbers within NIST's
# selftest rule, the random permutation counters by shape), the JSON key for
# key, NIST's usage text and error lines byte for byte, and the NIST-format
# scripts a lab runs on them (tail -1, grep, the JSON's keys).
. "${top_srcdir:-.}/tests/tap.sh"
. "$top_srcdir/tests/nist_compare.sh"

D="$top_srcdir/tests/data/nist-68ed165"
O="$top_srcdir/tests/data/nist-oracle"
case $RNGAUDIT in /*) ;; *) RNGAUDIT="$PWD/$RNGAUDIT" ;; esac

# The names, as `make install` links them, and the inputs under the names
# NIST's runs gave them (its outputs name the file as given).
mkdir "$TMPD/bin" "$TMPD/w" || exit 99
for n in ea_non_iid ea_iid ea_restart ea_conditioning; do
	ln -s "$RNGAUDIT" "$TMPD/bin/$n" || exit 99
done
for f in rand1_short rand4_short rand8_short; do
	cp "$top_srcdir/tests/data/nist-90b/bin/$f.bin" "$TMPD/w/" || exit 99
done
for f in restart2_ok restart2_fail restart2_periodic; do
	gzip -dc "$O/inputs/$f.bin.gz" >"$TMPD/w/$f.bin" || exit 99
done
cp "$O/inputs/period2_4bit_20k.bin" "$TMPD/w/" || exit 99
: >"$TMPD/w/empty.bin"
printf '\000\000\000' >"$TMPD/w/zeros3.bin"
head -c 999999 "$TMPD/w/restart2_ok.bin" >"$TMPD/w/r_short.bin"
chmod u+w "$TMPD/w"/*

# ea NAME ARGS...: rngaudit as NAME, in the inputs' directory; getopt's
# messages on stderr name the program as run, so the directory is cut
ea() {
	ea_n=$1; shift
	(cd "$TMPD/w" && ${RNGAUDIT_WRAP:-} "$TMPD/bin/$ea_n" "$@") 2>"$TMPD/ea.err"
	ea_rc=$?
	sed -i "s|$TMPD/bin/||" "$TMPD/ea.err"
	return $ea_rc
}
# run NAME ARGS...: stdout, then "exit=N", into $TMPD/got
run() { ea "$@" >"$TMPD/got"; echo "exit=$?" >>"$TMPD/got"; }
# no_progress FILE: without ea_iid -v's per-shuffle lines (NIST's recorded
# -v files have them removed)
no_progress() { grep -v '% of Permutation test rounds, ' "$1"; }
cut_x() { sed 's/X_cutoff: [0-9]*$/X_cutoff: SIMULATED/' "$1"; }

# --- ea_non_iid: every level, line for line, and the last line is NIST's --
for f in rand1_short rand4_short rand8_short; do
	for m in "" -v -vv -q; do
		# shellcheck disable=SC2086
		run ea_non_iid $m $f.bin
		same "$TMPD/got" "$D/$f.non_iid$m.txt" >"$TMPD/diag"
		ok $? "ea_non_iid $m $f: NIST's stdout and exit status ($(wc -l <"$D/$f.non_iid$m.txt") lines)"
		cat "$TMPD/diag"
	done
	ea ea_non_iid -q -o "$TMPD/$f.json" $f.bin >/dev/null
	same "$TMPD/$f.json" "$D/$f.non_iid.json" >"$TMPD/diag"
	ok $? "ea_non_iid -q -o $f: NIST's JSON, key for key"
	cat "$TMPD/diag"
done
run ea_non_iid -c -v rand4_short.bin
same "$TMPD/got" "$D/rand4_short.non_iid-c-v.txt" >"$TMPD/diag"
ok $? "ea_non_iid -c -v rand4_short: as NIST's"
cat "$TMPD/diag"
run ea_non_iid -v -l 1,2500 rand4_short.bin
same "$TMPD/got" "$D/rand4_short.non_iid-v-l1,2500.txt" >"$TMPD/diag"
ok $? "ea_non_iid -v -l 1,2500 rand4_short: as NIST's"
cat "$TMPD/diag"

# A lab's scripts (NIST's recorded output: the line before its exit=)
ea ea_non_iid rand8_short.bin 8 | tail -1 >"$TMPD/last"
sed -n '$!p' "$D/rand8_short.non_iid.txt" | tail -1 >"$TMPD/want"
check "ea_non_iid F 8 | tail -1: NIST's last line, min(H_original, 8 X H_bitstring): 5.860894" \
	cmp -s "$TMPD/last" "$TMPD/want"
ea ea_non_iid rand4_short.bin | grep 'min(H_original, 4 X H_bitstring)' >"$TMPD/last"
check "grep 'min(H_original, 4 X H_bitstring)' finds NIST's line (3.215488)" \
	grep -qx 'min(H_original, 4 X H_bitstring): 3.215488' "$TMPD/last"
ea ea_non_iid -vv rand8_short.bin | sed -n 's/^H_bitstring = //p' >"$TMPD/got"
sed -n 's/^H_bitstring = //p' "$D/rand8_short.non_iid-vv.txt" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "ea_non_iid -vv | sed 's/^H_bitstring = //': NIST's 0.73261171806065617 within 1e-10"
cat "$TMPD/diag"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
o = d["testCases"][-1]
print(d["errorLevel"], d["IID"], d["toolVersion"], o["testCaseDesc"], o["dataWordSize"], "%.6f" % o["hAssessed"])' \
		"$TMPD/rand8_short.json" >"$TMPD/got" 2>&1
	check "the JSON read by keys: errorLevel 0, IID false, 1.1.7, Overall, 8 bits, hAssessed 5.860894" \
		grep -qx '0 False 1.1.7 Overall 8.0 5.860894' "$TMPD/got"
else
	skip "the JSON read by keys: python3 not found"
fi

# --- ea_iid ---------------------------------------------------------------
for f in rand1_short rand8_short; do
	for m in "" -v -vv -q; do
		# shellcheck disable=SC2086
		run ea_iid $m $f.bin
		no_progress "$TMPD/got" | perm_shape /dev/stdin >"$TMPD/got.s"
		perm_shape "$D/$f.iid$m.txt" >"$TMPD/want.s"
		same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
		ok $? "ea_iid $m $f: NIST's stdout and exit status, counters by shape"
		cat "$TMPD/diag"
	done
	# NIST's -o without -vv: hAssessed is the bits per symbol
	ea ea_iid -q -o "$TMPD/$f.iid.json" $f.bin >/dev/null
	perm_shape "$TMPD/$f.iid.json" >"$TMPD/got.s"; perm_shape "$D/$f.iid.json" >"$TMPD/want.s"
	same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
	ok $? "ea_iid -q -o $f: NIST's JSON, hAssessed as NIST writes it, counters by shape"
	cat "$TMPD/diag"
done
ea ea_iid -vv -o "$TMPD/vv.json" rand8_short.bin >/dev/null
perm_shape "$TMPD/vv.json" >"$TMPD/got.s"; perm_shape "$D/rand8_short.iid_vv.json" >"$TMPD/want.s"
same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
ok $? "ea_iid -vv -o rand8_short: NIST's JSON with the assessed hAssessed (7.010454)"
cat "$TMPD/diag"

# -v: NIST's line after each shuffle, in its format; the percentage of
# rounds counts up by 0.01, the last line has every statistic decided
ea ea_iid -v rand8_short.bin >"$TMPD/v.out"
grep '% of Permutation test rounds, ' "$TMPD/v.out" >"$TMPD/prog"
check "ea_iid -v: progress lines in NIST's format (%6.02f%% ... (Core i/n, passed_count k))" \
	awk 'BEGIN { bad = 0 }
	!/^ *[0-9]+\.[0-9][0-9]% of Permutation test rounds, *[0-9]+\.[0-9][0-9]% of Permutation tests \(Core [0-9]+\/[0-9]+, passed_count [0-9]+\)$/ { bad = 1 }
	{ split($1, a, "%"); if (a[1] + 0 != NR / 100) bad = 1 }
	END { exit bad || NR == 0 }' "$TMPD/prog"
check "ea_iid -v: the last progress line has all 19 statistics decided (100.00%)" \
	sh -c "tail -1 '$TMPD/prog' | grep -q '100.00% of Permutation tests (Core [0-9]*/[0-9]*, passed_count 19)\$'"
check "ea_iid -v: the progress lines come between NIST's 'Beginning permutation tests' and the table" \
	sh -c "sed -n '/^Beginning permutation tests/,/^  *statistic  C/p' '$TMPD/v.out' | grep -c 'Permutation test rounds' | grep -qx $(wc -l <"$TMPD/prog")"

# The complete table: every failing statistic counted on all 10000 shuffles,
# so the JSON counts as many failed statistics as NIST's table has starred
# rows (14 for period2_4bit_20k; rngaudit iid stops early and counts 1)
run ea_iid -vv -o "$TMPD/p2.json" period2_4bit_20k.bin
grep -v '^igamc: UNDERFLOW$' "$O/iid/period2_4bit_20k.iid_vv.txt" | perm_shape /dev/stdin >"$TMPD/want.s"
perm_shape "$TMPD/got" >"$TMPD/got.s"
same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
ok $? "ea_iid -vv period2_4bit_20k (not IID): NIST's output, counters by shape"
cat "$TMPD/diag"
check "ea_iid: not IID still exits 0, as NIST's tool does" grep -qx 'exit=0' "$TMPD/got"
check "ea_iid -vv: the 14 statistics NIST's table stars are starred" \
	sh -c "test \"\$(grep -c '^ *[A-Za-z0-9()]*\\*  ' '$TMPD/got')\" -eq 14"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["testCases"][0]["permutationTestResults"]
keys = [k for k in t[0] if k != "iteration"]
print(sum(1 for k in keys if t[0][k] + t[1][k] <= 5 or t[1][k] + t[2][k] <= 5),
      sum(1 for k in keys if t[0][k] + t[1][k] + t[2][k] == 10000 and
          (t[0][k] + t[1][k] <= 5 or t[1][k] + t[2][k] <= 5)))' "$TMPD/p2.json" >"$TMPD/got" 2>&1
	check "ea_iid -o: the JSON's counters give 14 failed statistics, each counted on 10000 shuffles" \
		grep -qx '14 14' "$TMPD/got"
else
	skip "ea_iid -o counters: python3 not found"
fi

# --- ea_restart -------------------------------------------------------------
# X_cutoff: NIST's is simulated (571 to 573 seen for H_I = 1, four
# symbols), rngaudit's the exact quantile (572): equal within 3
xcut() { sed -n 's/.*X_cutoff: \([0-9]*\)$/\1/p' "$1"; }
run ea_restart -n -v restart2_ok.bin 2 1.0
cut_x "$TMPD/got" >"$TMPD/got.s"; cut_x "$D/restart2_ok.n_v.txt" >"$TMPD/want.s"
same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
ok $? "ea_restart -n -v restart2_ok: NIST's stdout and exit status ($(wc -l <"$TMPD/want.s") lines)"
cat "$TMPD/diag"
g=$(xcut "$TMPD/got"); w=$(xcut "$D/restart2_ok.n_v.txt")
check "ea_restart: X_cutoff $g within 3 of NIST's simulated $w" \
	test "$g" -ge $((w - 3)) -a "$g" -le $((w + 3))
run ea_restart -n -vv restart2_ok.bin 2 1.0
cut_x "$TMPD/got" >"$TMPD/got.s"; cut_x "$O/restart/restart2_ok.n_vv.txt" >"$TMPD/want.s"
same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
ok $? "ea_restart -n -vv restart2_ok: NIST's stdout and exit status"
cat "$TMPD/diag"
# (the default run writes the JSON too: each -i run shuffles 10^6 samples
# a few thousand times, twice)
for m in "" -v -q; do
	o=; [ -n "$m" ] || o="-o $TMPD/ri.json"
	# shellcheck disable=SC2086
	run ea_restart -i $m $o restart2_ok.bin 2 1.0
	no_progress "$TMPD/got" | cut_x /dev/stdin | perm_shape /dev/stdin >"$TMPD/got.s"
	cut_x "$D/restart2_ok.i$m.txt" | perm_shape /dev/stdin >"$TMPD/want.s"
	same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
	ok $? "ea_restart -i $m restart2_ok: NIST's IID track, both permutation runs on the rows"
	cat "$TMPD/diag"
done
run ea_restart -i -vv restart2_ok.bin 2 1.0
cut_x "$TMPD/got" | perm_shape /dev/stdin >"$TMPD/got.s"
cut_x "$O/restart/restart2_ok.i_vv.txt" | perm_shape /dev/stdin >"$TMPD/want.s"
same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
ok $? "ea_restart -i -vv restart2_ok: NIST's, the rows' 19 statistics twice"
cat "$TMPD/diag"
perm_shape "$TMPD/ri.json" >"$TMPD/got.s"; perm_shape "$D/restart2_ok.i.json" >"$TMPD/want.s"
same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
ok $? "ea_restart -i -o restart2_ok: NIST's IID JSON, six counter sets by shape"
cat "$TMPD/diag"
for c in "restart2_fail n 1.0" "restart2_periodic n 2.0"; do
	set -- $c
	run ea_restart -$2 -o "$TMPD/$1.json" $1.bin 2 $3
	cut_x "$TMPD/got" >"$TMPD/got.s"; cut_x "$D/$1.n.txt" >"$TMPD/want.s"
	same "$TMPD/got.s" "$TMPD/want.s" >"$TMPD/diag"
	ok $? "ea_restart $1: NIST's stdout and its exit status 255"
	cat "$TMPD/diag"
	same "$TMPD/$1.json" "$D/$1.n.json" >"$TMPD/diag"
	ok $? "ea_restart -o $1: errorLevel -1 and NIST's errorMessage"
	cat "$TMPD/diag"
done
ea ea_restart -i -o "$TMPD/fi.json" restart2_fail.bin 2 1.0 >/dev/null
same "$TMPD/fi.json" "$D/restart2_fail.i.json" >"$TMPD/diag"
ok $? "ea_restart -i -o restart2_fail: errorLevel -1, IID true"
cat "$TMPD/diag"
ea ea_restart -s 5000000 restart2_ok.bin 2 3 >"$TMPD/out"
check "ea_restart -s 5000000: accepted, as NIST accepts it (its next check speaks)" \
	grep -qx "H_I (3.000000) must be at most 'bits_per_symbol' (2)." "$TMPD/out"

# --- ea_conditioning ---------------------------------------------------------
# every case of NIST's conditioning.txt, n_out > n_in too
grep '^\$ ' "$D/conditioning.txt" | while read -r dollar name args; do
	echo "$dollar $name $args"
	# shellcheck disable=SC2086
	ea ea_conditioning $args
	echo "exit=$?"
done >"$TMPD/got"
same "$TMPD/got" "$D/conditioning.txt" >"$TMPD/diag"
ok $? "ea_conditioning -v, -n, -q, n_out > n_in: NIST's stdout and exit status ($(wc -l <"$D/conditioning.txt") lines)"
cat "$TMPD/diag"
ea ea_conditioning -o "$TMPD/cv.json" -v 512 256 512 256 >/dev/null
same "$TMPD/cv.json" "$D/conditioning_v.json" >"$TMPD/diag"
ok $? "ea_conditioning -v -o: NIST's JSON"
cat "$TMPD/diag"
ea ea_conditioning -n 512 256 512 256 0.9 -o "$TMPD/cn.json" >/dev/null
same "$TMPD/cn.json" "$D/conditioning_n.json" >"$TMPD/diag"
ok $? "ea_conditioning -n ... -o: NIST's JSON"
cat "$TMPD/diag"
ea ea_conditioning -o "$TMPD/ci.json" -i rand8_short.bin -v 64 32 64 60 >/dev/null
same "$TMPD/ci.json" "$D/conditioning_i.json" >"$TMPD/diag"
ok $? "ea_conditioning -i FILE -o: NIST's JSON with filename and sha256"
cat "$TMPD/diag"

# --- usage, errors and their exit status, byte for byte ------------------------
# errors.txt: each "$ COMMAND" of NIST's tools run by bare name, its stdout,
# its stderr lines as "stderr: ...", "exit=N"
grep '^\$ ' "$D/errors.txt" | while read -r dollar name args; do
	echo "$dollar $name${args:+ $args}"
	# shellcheck disable=SC2086
	ea "$name" $args >"$TMPD/eo"
	rc=$?
	cat "$TMPD/eo"; sed 's/^/stderr: /' "$TMPD/ea.err"; echo "exit=$rc"
done >"$TMPD/got"
cmp -s "$TMPD/got" "$D/errors.txt"
ok $? "usage text, error lines and exit 255 as NIST's, byte for byte ($(grep -c '^\$ ' "$D/errors.txt") cases)"
diff "$D/errors.txt" "$TMPD/got" | head -10 | sed 's/^/# /'

ea ea_non_iid --version >"$TMPD/out"
check "ea_non_iid --version: NIST's first line, noniid 1.1.7" sh -c "head -1 '$TMPD/out' | grep -qx 'noniid 1.1.7'"
ea ea_iid rand1_short.bin --version >"$TMPD/out"
check "ea_iid FILE --version: the version wherever --version is, iid 1.1.7" \
	sh -c "head -1 '$TMPD/out' | grep -qx 'iid 1.1.7'"

# An output that cannot be written: an error on stderr, exit 255, not a
# silent loss as NIST's tool has it
ea ea_non_iid -q -o "$TMPD/nodir/x.json" rand1_short.bin >/dev/null
check "ea_non_iid -o into a missing directory: exit 255" test $? -eq 255
check "ea_non_iid -o into a missing directory: one line on stderr naming it" \
	sh -c "test \$(wc -l <'$TMPD/ea.err') -eq 1 && grep -q nodir '$TMPD/ea.err'"

if [ -n "${MANDOC:-}" ]; then
	check "man/ea_non_iid.1 is mandoc -Tlint clean" "$MANDOC" -Tlint -Wwarning "$top_srcdir/man/ea_non_iid.1"
else
	skip "mandoc not installed"
fi
tap_done
