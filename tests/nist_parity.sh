#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# nist_parity.sh - rngaudit's NIST-compatible commands against the outputs of
# NIST's own tools at commit 68ed165 (tests/data/nist-68ed165, see its
# README.md): the same lines in the same order, every word equal, every
# number within NIST's selftest rule (tests/nist_compare.sh: min(absolute,
# relative) difference below 1e-10; rngaudit computes in double where NIST
# uses long double or a different binary search, so the last digits may
# differ).  Lines that name the run (JSON commandline, dateTimeStamp) are
# skipped; rngaudit's own last line of `assess` is checked on its own.
. "${top_srcdir:-.}/tests/tap.sh"

D="$top_srcdir/tests/data/nist-68ed165"

. "$top_srcdir/tests/nist_compare.sh"

# assess_case NAME NISTFILE ARGS...: rngaudit assess ARGS NAME.bin, its text
# without the last line, then "exit=N", against NISTFILE
assess_case() {
	a_f=$1; a_ref=$2; shift 2
	(cd "$D/../nist-90b/bin" && ra assess "$@" "$a_f.bin") >"$TMPD/out" 2>&1
	st=$?
	sed '$d' "$TMPD/out" >"$TMPD/got"; echo "exit=$st" >>"$TMPD/got"
	same "$TMPD/got" "$D/$a_ref" >"$TMPD/diag"
	ok $? "assess $* $a_f: as ea_non_iid $* ($(wc -l <"$D/$a_ref") lines)"
	cat "$TMPD/diag"
	tail -n 1 "$TMPD/out" >"$TMPD/last"
	check "assess $* $a_f: last line is rngaudit's result" \
		grep -q '^assessed min-entropy: [0-9.e+-]* bits per sample$' "$TMPD/last"
}

for f in rand1_short rand4_short rand8_short; do
	assess_case $f $f.non_iid.txt
	assess_case $f $f.non_iid-v.txt -v
	assess_case $f $f.non_iid-vv.txt -vv
	assess_case $f $f.non_iid-q.txt -q
	(cd "$D/../nist-90b/bin" && ra assess -q -o "$TMPD/$f.json" $f.bin) >/dev/null 2>&1
	same "$TMPD/$f.json" "$D/$f.non_iid.json" >"$TMPD/diag"
	ok $? "assess -o $f: NIST's JSON, key for key ($(wc -l <"$D/$f.non_iid.json") lines)"
	cat "$TMPD/diag"
done
assess_case rand4_short rand4_short.non_iid-c-v.txt -c -v
assess_case rand4_short rand4_short.non_iid-v-l1,2500.txt -v -l 1,2500
(cd "$D/../nist-90b/bin" && ra assess -c -q -o "$TMPD/c.json" rand4_short.bin) >/dev/null 2>&1
same "$TMPD/c.json" "$D/rand4_short.non_iid-c.json" >"$TMPD/diag"
ok $? "assess -c -o rand4_short: NIST's JSON, key for key"
cat "$TMPD/diag"

# --- iid ------------------------------------------------------------------
# The permutation counters come from seeded shuffles (NIST seeds from
# /dev/urandom), so their values and the verdicts they give differ by
# design; their shape must not: each table row keeps its statistic, each
# JSON counter its key and type.  rngaudit's own lines after NIST's (the
# seed; statistics stopped early) are dropped; the exit status follows
# rngaudit's convention (1 when a test rejects), so it is not compared.
iid_case() {
	a_f=$1; a_ref=$2; shift 2
	(cd "$D/../nist-90b/bin" && ra iid "$@" "$a_f.bin") >"$TMPD/out" 2>&1
	perm_shape "$TMPD/out" | sed '/^exit=/d' >"$TMPD/got"
	perm_shape "$D/$a_ref" | sed '/^exit=/d' >"$TMPD/want"
	same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
	ok $? "iid $* $a_f: as ea_iid $*, permutation counts by shape ($(wc -l <"$TMPD/want") lines)"
	cat "$TMPD/diag"
}
for f in rand1_short rand8_short; do
	iid_case $f $f.iid.txt
	iid_case $f $f.iid-v.txt -v
	iid_case $f $f.iid-vv.txt -vv
	iid_case $f $f.iid-q.txt -q
	# NIST's ea_iid writes hAssessed right only with -vv: compare with that one
	(cd "$D/../nist-90b/bin" && ra iid -q -o "$TMPD/$f.json" $f.bin) >/dev/null 2>&1
	perm_shape "$TMPD/$f.json" >"$TMPD/got"; perm_shape "$D/$f.iid_vv.json" >"$TMPD/want"
	same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
	ok $? "iid -q -o $f: NIST's JSON (as its -vv run), counters by shape"
	cat "$TMPD/diag"
done

# --- conditioning ------------------------------------------------------------
# every case of conditioning.txt but n_out > n_in, which rngaudit refuses
# (rngaudit-conditioning(1))
drop_wider() { awk '/^\$ /{ skip = ($0 ~ / 64 256 64 64$/) } !skip' "$1"; }
for args in "-v 512 256 512 256" "-v 64 256 64 64" "-n 512 256 512 256 0.9" "-q -v 512 256 512 256"; do
	echo "\$ ea_conditioning $args"
	# shellcheck disable=SC2086
	ra conditioning $args 2>&1
	echo "exit=$?"
done >"$TMPD/cond.txt"
drop_wider "$TMPD/cond.txt" >"$TMPD/got"; drop_wider "$D/conditioning.txt" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "conditioning -v, -n, -q: as ea_conditioning ($(wc -l <"$TMPD/want") lines)"
cat "$TMPD/diag"
ra conditioning -o "$TMPD/cv.json" -v 512 256 512 256 >/dev/null 2>&1
same "$TMPD/cv.json" "$D/conditioning_v.json" >"$TMPD/diag"
ok $? "conditioning -v -o: NIST's JSON, key for key"
cat "$TMPD/diag"
ra conditioning -n 512 256 512 256 0.9 -o "$TMPD/cn.json" >/dev/null 2>&1
same "$TMPD/cn.json" "$D/conditioning_n.json" >"$TMPD/diag"
ok $? "conditioning -n ... -o (NIST's argument order): NIST's JSON, key for key"
cat "$TMPD/diag"

# --- restart ------------------------------------------------------------------
# X_cutoff comes from a Monte Carlo simulation (NIST seeds it from
# /dev/urandom): compared by shape
gzip -dc "$top_srcdir/tests/data/nist-oracle/inputs/restart2_ok.bin.gz" >"$TMPD/restart2_ok.bin"
(cd "$TMPD" && ra restart -n -v -o "$TMPD/r.json" restart2_ok.bin 2 1.0) >"$TMPD/out" 2>&1
echo "exit=$?" >>"$TMPD/out"
cut_x() { sed 's/X_cutoff: [0-9]*$/X_cutoff: SIMULATED/' "$1"; }
cut_x "$TMPD/out" >"$TMPD/got"; cut_x "$D/restart2_ok.n_v.txt" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "restart -n -v restart2_ok: as ea_restart -n -v, X_cutoff by shape ($(wc -l <"$TMPD/want") lines)"
cat "$TMPD/diag"
# -vv: against ../nist-oracle's ea_restart -n -vv output (a 1.1.7 build in
# 68ed165's format, see its README)
(cd "$TMPD" && ra restart -n -vv restart2_ok.bin 2 1.0) >"$TMPD/out" 2>&1
echo "exit=$?" >>"$TMPD/out"
cut_x "$TMPD/out" >"$TMPD/got"
cut_x "$top_srcdir/tests/data/nist-oracle/restart/restart2_ok.n_vv.txt" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "restart -n -vv restart2_ok: as ea_restart -n -vv, X_cutoff by shape ($(wc -l <"$TMPD/want") lines)"
cat "$TMPD/diag"
same "$TMPD/r.json" "$D/restart2_ok.n.json" >"$TMPD/diag"
ok $? "restart -n -o restart2_ok: NIST's JSON, key for key"
cat "$TMPD/diag"

# A failed restart says so in its JSON: errorLevel -1 and NIST's message,
# NIST's estimator cases of a failed validation kept (issue 26: rngaudit
# wrote errorLevel 0, which a JSON consumer reads as a pass)
for f in restart2_fail restart2_periodic; do
	gzip -dc "$top_srcdir/tests/data/nist-oracle/inputs/$f.bin.gz" >"$TMPD/$f.bin"
done
(cd "$TMPD" && ra restart -n -o "$TMPD/rf.json" restart2_fail.bin 2 1.0) >/dev/null 2>&1
same "$TMPD/rf.json" "$D/restart2_fail.n.json" >"$TMPD/diag"
ok $? "restart -o, sanity check failed: NIST's JSON (errorLevel -1, its message, no cases)"
cat "$TMPD/diag"
(cd "$TMPD" && ra restart -i -o "$TMPD/rfi.json" restart2_fail.bin 2 1.0) >/dev/null 2>&1
same "$TMPD/rfi.json" "$D/restart2_fail.i.json" >"$TMPD/diag"
ok $? "restart -i -o, sanity check failed: NIST's JSON (IID, errorLevel -1)"
cat "$TMPD/diag"
(cd "$TMPD" && ra restart -n -o "$TMPD/rp.json" restart2_periodic.bin 2 2.0) >"$TMPD/out" 2>&1
echo "exit=$?" >>"$TMPD/out"
same "$TMPD/rp.json" "$D/restart2_periodic.n.json" >"$TMPD/diag"
ok $? "restart -o, validation failed: NIST's JSON (errorLevel -1, its message, the estimators' cases)"
cat "$TMPD/diag"
sed 's/^exit=1$/exit=255/' "$TMPD/out" >"$TMPD/out255"
cut_x "$TMPD/out255" >"$TMPD/got"; cut_x "$D/restart2_periodic.n.txt" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "restart, validation failed: as ea_restart, exit 1 where NIST's is 255"
cat "$TMPD/diag"

# -i: the IID track in full (chi-square, the LRS test's figures, permutation
# tests and their verdict), and one IID "Overall" case in the JSON with
# the counters of both runs: rows, then (unlike NIST's tool, which gives
# its second run the rows again) columns
(cd "$TMPD" && ra restart -i -o "$TMPD/ri.json" restart2_ok.bin 2 1.0) >"$TMPD/out" 2>&1
echo "exit=$?" >>"$TMPD/out"
cut_x "$TMPD/out" >"$TMPD/got"; cut_x "$D/restart2_ok.i.txt" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "restart -i restart2_ok: as ea_restart -i ($(wc -l <"$TMPD/want") lines)"
cat "$TMPD/diag"
perm_shape "$TMPD/ri.json" >"$TMPD/got"; perm_shape "$D/restart2_ok.i.json" >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "restart -i -o restart2_ok: NIST's IID JSON, six counter sets by shape"
cat "$TMPD/diag"
(cd "$TMPD" && ra restart -i -v restart2_ok.bin 2 1.0) >"$TMPD/out" 2>&1
echo "exit=$?" >>"$TMPD/out"
# the second run's statistics are the columns' (NIST's repeat the rows')
awk '/^Initial test results$/ { n++ } n == 2 && /^ *[A-Za-z]+(\([0-9]+\))?: / { print }' "$TMPD/out" >"$TMPD/colstats"
cut_x "$TMPD/out" | awk '/^Initial test results$/ { n++ } n != 2 || !/^ *[A-Za-z]+(\([0-9]+\))?: /' |
	perm_shape /dev/stdin >"$TMPD/got"
cut_x "$D/restart2_ok.i-v.txt" | awk '/^Initial test results$/ { n++ } n != 2 || !/^ *[A-Za-z]+(\([0-9]+\))?: /' |
	perm_shape /dev/stdin >"$TMPD/want"
same "$TMPD/got" "$TMPD/want" >"$TMPD/diag"
ok $? "restart -i -v restart2_ok: as ea_restart -i -v but the columns' statistics, counters by shape"
cat "$TMPD/diag"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(bytes(d[i * 1000 + j] for j in range(1000) for i in range(1000)))' \
		"$TMPD/restart2_ok.bin" "$TMPD/cols.bin"
	ra iid -v "$TMPD/cols.bin" 2 | awk '/^Initial test results$/ { n++ }
		n == 1 && /^ *[A-Za-z]+(\([0-9]+\))?: / { print }' >"$TMPD/want"
	[ "$(wc -l <"$TMPD/colstats")" -eq 19 ] && cmp -s "$TMPD/colstats" "$TMPD/want"
	ok $? "restart -i: the second permutation run's 19 statistics are the column dataset's (iid -v of the transposed matrix)"
else
	skip "restart -i columns: python3 not found to transpose the matrix"
fi

# -o is written whole or not at all: a bad input leaves no file
printf 'x' >"$TMPD/one.bin"
expect_exit 2 "assess -o with a sample FILE missing: exit 2" ra assess -o "$TMPD/none.json" "$TMPD/missing.bin"
check "assess -o: nothing written on an error" test ! -e "$TMPD/none.json"
expect_exit 0 "assess --version" ra assess --version
check "assess --version names NIST's version" grep -q 'noniid 1.1.7' "$TMPD/out"
expect_exit 0 "iid --version" ra iid --version
check "iid --version names NIST's version" grep -q 'iid 1.1.7' "$TMPD/out"
tap_done
