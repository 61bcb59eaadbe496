#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# health_cli.sh - `rngaudit health` end to end: cutoff lines, failures and
# exit status, NIST-format files, --follow, bad input.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1

# --per-window: cutoffs printed as 90B 4.4 gives them (CRIB table): H=8, alpha=2^-20: RCT 4, APT 18.
expect_exit 0 "ideal source at H=8 passes" ra health --source sim:ideal --entropy 8 -n 200000 --per-window
check "RCT cutoff: 4 (1 + ceil(20/8))" grep -qx "RCT cutoff: 4" "$TMPD/out"
check "APT cutoff: 18 (W=1024, H=8, alpha=2^-20)" grep -qx "APT cutoff: 18" "$TMPD/out"
check "no failure reported" grep -q "^RCT failures: 0," "$TMPD/out"
check "start-up test passed" grep -q "start-up test (first 1024 samples): passed" "$TMPD/out"
# Binary samples, alpha 2^-30: RCT 31, APT 325 (W=512).
expect_exit 0 "1-bit samples, --alpha 2^-30" ra health --source sim:ideal,bits=1 --bits 1 --entropy 1 --alpha '2^-30' -n 100000 --per-window
check "RCT cutoff: 31 (H=1, alpha=2^-30)" grep -qx "RCT cutoff: 31" "$TMPD/out"
check "APT cutoff: 325 (W=512, H=1, alpha=2^-30)" grep -qx "APT cutoff: 325" "$TMPD/out"
check "APT window: 512 for binary samples" grep -qx "APT window: 512" "$TMPD/out"
expect_exit 0 "decimal alpha" ra health --source sim:ideal --entropy 2 --alpha 1e-9 -n 10000 --per-window
check "RCT cutoff: 16 for H=2, alpha=1e-9 (1 + ceil(29.9/2))" grep -qx "RCT cutoff: 16" "$TMPD/out"

# Failures: exit 1 and the first failure.
expect_exit 1 "stuck source fails" ra health --source sim:stuck,after=5000,value=9 --entropy 8 -n 20000 --per-window
check "first failure at sample 5003 (N + cutoff - 1)" grep -qx "first failure at sample 5003" "$TMPD/out"
check "RCT failures: 1 (one run)" grep -q "^RCT failures: 1, first failure at sample 5003" "$TMPD/out"
expect_exit 1 "biased,p=0.1 at claimed H=8: APT fails" ra health --source sim:biased,p=0.1 --entropy 8 -n 1000000 --per-window
check "APT failures counted" sh -c "grep '^APT failures:' '$TMPD/out' | grep -qv '^APT failures: 0 '"
expect_exit 1 "amd-rdrand-ffffffff fails (DRBG: H defaults to K)" ra health --source sim:amd-rdrand-ffffffff -n 4096 --per-window
check "first failure at sample 3" grep -qx "first failure at sample 3" "$TMPD/out"
check "all-ones words excessive" grep -q "^all-ones words: 512 .*EXCESSIVE from word 0" "$TMPD/out"
expect_exit 1 "repeat-words fails" ra health --source sim:repeat-words,p=0.01 -n 400000 --per-window
check "repeated words excessive" grep -q "^words repeated within 1024: .*EXCESSIVE" "$TMPD/out"

# NIST-format files: one sample per byte in the low K bits.
ra collect --source sim:ideal,bits=1 --bits 1 --entropy 1 -n 50000 -o "$TMPD/bits.bin" 2>/dev/null
expect_exit 0 "NIST-format 1-bit file passes" ra health --bits 1 --entropy 1 "$TMPD/bits.bin"
check "the file's 50000 samples were tested" grep -q "^health tests (SP 800-90B 4.4): 50000 samples of 1 bit," "$TMPD/out"
expect_exit 0 "-n limits the samples read from a file" ra health --bits 1 --entropy 1 -n 1000 "$TMPD/bits.bin"
check "1000 samples tested" grep -q ": 1000 samples of 1 bit," "$TMPD/out"
printf '\000\001\001\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\001' >"$TMPD/run.bin"
expect_exit 1 "a 1-bit file with a run of 24 zeros fails the RCT at H=1 (cutoff 21)" ra health --bits 1 --entropy 1 --per-window "$TMPD/run.bin"
check "first failure at sample 23 (the 21st zero)" grep -qx "first failure at sample 23" "$TMPD/out"

# --follow: each failure as it happens, one line; status lines; stops on a signal.
expect_exit 1 "--follow prints failures as they happen" ra health --source sim:stuck,after=3000 --entropy 8 --follow --interval 0.001 -n 100000 --per-window
check "failure line for the RCT" grep -q "^FAILURE rct at sample 3003: run of 4 identical samples (cutoff 4; 1 failure so far, " "$TMPD/out"
check "failure lines for the APT" grep -q "^FAILURE apt at sample [0-9]*: 18 samples" "$TMPD/out"
check "status lines" grep -q "^status: [0-9]* samples in" "$TMPD/out"
check "failure lines are limited per interval" test "$(grep -c '^FAILURE' "$TMPD/out")" -lt 100
# One signal (timeout(1) would send two: to the process and to its group).
"$RNGAUDIT" health --source sim:ideal --entropy 8 --alpha '2^-60' --follow --interval 0.2 \
	>"$TMPD/out" 2>"$TMPD/err" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
ok $? "--follow runs until SIGTERM, then summarises (exit 0: no failure)"
check "summary after the signal" grep -q "stopped by a signal" "$TMPD/out"
check "status line every interval" test "$(grep -c '^status: ' "$TMPD/out")" -ge 2

# Alarms scaled to the run (the default): alpha covers all -n samples.
expect_exit 0 "run scope: ideal source passes at the default claim" ra health --source sim:ideal -n 1000000
check "raw source: the policy's claim, 4 bits per 8-bit sample" grep -q "claimed entropy 4 bits/sample (raw or unknown source: the policy's claim, 0.5 bit per bit)" "$TMPD/out"
check "alpha over the run" grep -q "alpha 2^-20 over 1000000 samples (union bound over 3 tests)" "$TMPD/out"
check "RCT cutoff 12 at H=4 over 10^6 samples (1 + ceil(41.5/4)), alarm at 7" grep -qx "RCT cutoff: 12 (alarm at 7)" "$TMPD/out"
check "alarms observed against expected" grep -q "^alarms: [0-9]* observed, .* expected at H" "$TMPD/out"
expect_exit 0 "DRBG source: full entropy" ra health --source sim:repeat-words,p=0 -n 10000
check "DRBG output: full entropy, shown" grep -q "claimed entropy 8 bits/sample (DRBG output: full entropy)" "$TMPD/out"
expect_exit 1 "stuck source fails in run scope within the RCT cutoff" ra health --source sim:stuck,after=5000 -n 1000000
check "first failure at 5011 (cutoff 12)" grep -qx "first failure at sample 5011" "$TMPD/out"
expect_exit 0 "--follow in run scope: the horizon is a year at --rate" ra health --source sim:ideal --follow --rate 0 --interval 0.001 -n 20000
check "status lines show alarms against expected" grep -q "^status: .*; alarms [0-9]* (.* expected)" "$TMPD/out"

# One rule for defaults in collect, health and audit: the same alpha (2^-20
# over the run) and the same claimed entropy, shown in each output.
for spec in sim:ideal sim:repeat-words,p=0; do
	case $spec in
	sim:ideal) want="4 bits/sample (raw or unknown source: the policy's claim"; wantv="H = 4 bits per sample (raw or unknown source: the policy's claim" ;;
	*) want="8 bits/sample (DRBG output: full entropy)"; wantv="H = 8 bits per sample (DRBG output: full entropy)" ;;
	esac
	ra collect --source "$spec" -n 20000 -o - >"$TMPD/c.bin" 2>"$TMPD/c.err"
	check "collect $spec: claim by the rule" grep -q "claimed entropy $want" "$TMPD/c.err"
	check "collect $spec: alpha 2^-20 over the run" grep -q "alpha 2^-20 over 20000 samples" "$TMPD/c.err"
	ra health --source "$spec" -n 20000 >"$TMPD/h.out" 2>&1
	check "health $spec: the same claim" grep -q "claimed entropy $want" "$TMPD/h.out"
	check "health $spec: the same alpha" grep -q "alpha 2^-20 over 20000 samples" "$TMPD/h.out"
	ra audit --source "$spec" -n 20000 >"$TMPD/a.out" 2>&1
	check "audit $spec: the same claim" grep -qF "$wantv" "$TMPD/a.out"
	check "audit $spec: the same alpha" grep -q "alpha = 2^-20 over the run" "$TMPD/a.out"
done

# --follow as a service: journald prefixes, the textfile, SIGHUP, SIGINT.
: >"$TMPD/journal.out"
JOURNAL_STREAM=$(stat -c '%d:%i' "$TMPD/journal.out") "$RNGAUDIT" health --source sim:stuck,after=3000 \
	--entropy 8 --follow --interval 0.001 -n 20000 >>"$TMPD/journal.out" 2>&1
test $? -eq 1
ok $? "--follow on a stuck source exits 1"
check "journal: failures at priority err (<3>)" grep -q "^<3>FAILURE rct at sample" "$TMPD/journal.out"
check "journal: status lines at priority info (<6>)" grep -q "^<6>status: " "$TMPD/journal.out"
check "journal: every line has a priority prefix" sh -c "! grep -qv '^<[0-7]>' '$TMPD/journal.out'"
JOURNAL_STREAM=1:1 ra health --source sim:ideal --follow --interval 0.001 -n 2000
check "JOURNAL_STREAM naming another file: no prefixes" sh -c "! grep -q '^<' '$TMPD/out'"
"$RNGAUDIT" health --source sim:ideal --follow --rate 200000 --interval 0.1 --log "$TMPD/f.log" \
	--prom "$TMPD/f.prom" >"$TMPD/out" 2>"$TMPD/err" &
pid=$!
sleep 1
mv "$TMPD/f.log" "$TMPD/f.log.1"
kill -HUP "$pid"
sleep 1
kill -INT "$pid"
wait "$pid"
ok $? "--follow: SIGINT ends it with exit 0 (no failure)"
check "the log before SIGHUP has status lines" grep -q "^status: " "$TMPD/f.log.1"
check "SIGHUP reopened the log at its name" grep -q "^status: " "$TMPD/f.log"
check "the summary goes to the reopened log" grep -q "stopped by a signal" "$TMPD/f.log"
check "nothing on stdout with --log" test ! -s "$TMPD/out"
check "textfile: samples counter" grep -q '^rngaudit_health_samples_total{source="sim:ideal"} [1-9]' "$TMPD/f.prom"
check "textfile: alarms against expected" sh -c "grep -q '^rngaudit_health_alarms_total{source=\"sim:ideal\",test=\"rct\"} ' '$TMPD/f.prom' &&
	grep -q '^rngaudit_health_expected_alarms_total{source=\"sim:ideal\",test=\"rct\"} ' '$TMPD/f.prom'"
check "textfile: TYPE lines" grep -q '^# TYPE rngaudit_health_failures_total counter' "$TMPD/f.prom"
check "textfile: no temporary left" sh -c "! ls '$TMPD' | grep -q 'f.prom.'"

# Progress on a terminal (script(1) gives one): collect, health and audit
# show samples and a rate in units that fit it; audit names the source.
if command -v script >/dev/null 2>&1 && script -qc true /dev/null >/dev/null 2>&1; then
	# the first report shows at once (after the first block), then four a second
	env -u RNGAUDIT_NO_PROGRESS script -qc "'$RNGAUDIT' health --source sim:ideal -n 1000000" "$TMPD/tty" >/dev/null 2>&1
	check "health: a progress line with samples and a rate" grep -Eq "health: [0-9]+ / 1000000 samples \([0-9]+%\), [0-9.]+ (KB|MB|GB)/s" "$TMPD/tty"
	env -u RNGAUDIT_NO_PROGRESS script -qc "'$RNGAUDIT' collect --source sim:ideal -n 1000000 --no-health -o - | wc -c" "$TMPD/tty" >/dev/null 2>&1
	check "collect: a progress line" grep -Eq "collect: [0-9]+ / 1000000 samples" "$TMPD/tty"
	env -u RNGAUDIT_NO_PROGRESS script -qc "'$RNGAUDIT' audit --source sim:ideal -n 100000" "$TMPD/tty" >/dev/null 2>&1
	check "audit: the progress line names the source and its state" grep -Eq "audit: sim:ideal ([0-9]+/100000 \(|assessing)" "$TMPD/tty"
else
	skip "no script(1): no terminal for the progress lines"
	skip "no script(1)"
	skip "no script(1)"
fi

# The build-tree binary finds its data (quirks, policy) with no warning.
(unset RNGAUDIT_QUIRKS; "$RNGAUDIT" audit --source sim:ideal -n 20000 >"$TMPD/out" 2>"$TMPD/err")
check "build tree: no warning from audit" sh -c "! grep -q warning '$TMPD/err'"
check "build tree: the policy is the source tree's data/policy.default" grep -q "^policy: .*/data/policy.default (alpha 2^-20)" "$TMPD/out"

# Bad input: one line, exit 2.
bad() {  # bad NAME NEEDLE ARGS...
	name=$1; needle=$2; shift 2
	expect_exit 2 "$name exits 2" ra health "$@"
	check "$name: one-line error naming '$needle'" one_line_error "$needle"
}
bad "H = 0" "--entropy 0" --source sim:ideal --entropy 0
bad "H < 0" "--entropy -1" --source sim:ideal --entropy -1
bad "H > K" "--entropy 5" --source sim:ideal --bits 4 --entropy 5
bad "alpha = 1" "--alpha 1" --source sim:ideal --entropy 8 --alpha 1
bad "alpha = 0" "--alpha 0" --source sim:ideal --entropy 8 --alpha 0
bad "alpha = 2^1" "--alpha 2^1" --source sim:ideal --entropy 8 --alpha '2^1'
bad "missing file" "$TMPD/none.bin" --entropy 1 "$TMPD/none.bin"
printf '\000\001\002\001' >"$TMPD/big.bin"
bad "sample >= 2^K" "sample 2 is 2, not below 2^1" --bits 1 --entropy 1 "$TMPD/big.bin"
: >"$TMPD/empty.bin"
bad "empty file" "no samples" --entropy 1 "$TMPD/empty.bin"
bad "no input" "either --source" --entropy 1
bad "source and file" "either --source" --source sim:ideal --entropy 8 "$TMPD/bits.bin"
bad "unknown option" "--bogus" --source sim:ideal --entropy 8 --bogus
bad "bad interval" "--interval 0" --source sim:ideal --entropy 8 --follow --interval 0
bad "bad horizon" "--horizon 0d" --source sim:ideal --follow --horizon 0d
bad "bad rate" "--rate -1" --source sim:ideal --follow --rate -1
bad "--prom without --follow" "--prom" --source sim:ideal --prom "$TMPD/x.prom"
bad "unwritable --log" "$TMPD/none/x.log" --source sim:ideal --follow --log "$TMPD/none/x.log"
tap_done
