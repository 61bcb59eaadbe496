#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# report_cli.sh - `rngaudit audit` and `rngaudit report merge` end to end:
# verdicts and exit codes with simulated sources, the CSV, JUnit and
# Prometheus reports, the CSV round trip through merge, malformed input,
# the policy file, an interrupted audit and the man pages (the pictures:
# plot_cli.sh).
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
export RNGAUDIT_PLOT_SCRIPT="$top_srcdir/scripts/rngaudit-plot.sh"

# field CSV ROW COLUMN: one field of a data row (ROW 1 = first data row) by
# column name.  Commas inside quoted fields (the source spec
# "sim:stuck,after=2000") become spaces first; our CSVs have no newlines
# inside fields.
field() {
	awk -v row="$2" -v col="$3" '{
		out = ""; q = 0
		for (i = 1; i <= length($0); i++) {
			ch = substr($0, i, 1)
			if (ch == "\"") q = !q; else if (ch == "," && q) ch = " "
			out = out ch
		}
		sub(/\r$/, "", out); n = split(out, f, ",")
		if (NR == 1) { for (i = 1; i <= n; i++) if (f[i] == col) c = i; next }
		if (NR == row + 1) { v = f[c]; gsub(/"/, "", v); print v }
	}' "$1"
}

# A passing source: exit 0, a pass row.
expect_exit 0 "audit sim:ideal passes (exit 0)" ra audit --source sim:ideal -n 20000 \
	--csv "$TMPD/ok.csv" --junit "$TMPD/ok.xml" --prom "$TMPD/ok.prom"
check "stderr says how many samples were used" grep -q "sim:ideal: 20000 samples of 8 bits" "$TMPD/err"
check "text table has the source and its verdict" grep -Eq "^sim:ideal +pass" "$TMPD/out"
check "CSV: header plus one row" test "$(wc -l <"$TMPD/ok.csv")" -eq 2
check "CSV row verdict is pass" test "$(field "$TMPD/ok.csv" 1 verdict)" = pass
check "CSV row has 20000 samples" test "$(field "$TMPD/ok.csv" 1 samples)" = 20000
check "CSV: raw source gets its estimate as entropy credit" \
	test "$(field "$TMPD/ok.csv" 1 entropy_credit)" = "$(field "$TMPD/ok.csv" 1 h_assessed)"
check "CSV: raw source that passed: credit_status credited" \
	test "$(field "$TMPD/ok.csv" 1 credit_status)" = credited
check "CSV: 87 columns in the header, schema 4 (rngaudit-audit(1))" \
	test "$(head -1 "$TMPD/ok.csv" | tr ',' '\n' | wc -l)" -eq 87
check "CSV: the policy's floors per bit (sim: 0.25 fail, 0.5 warn by default)" \
	test "$(field "$TMPD/ok.csv" 1 policy_fail_below)/$(field "$TMPD/ok.csv" 1 policy_warn_below)" = 0.25/0.5
check "CSV: schema column says 5" test "$(field "$TMPD/ok.csv" 1 schema)" = 5
check "CSV: observed alarms 0 beside a positive expected count" \
	awk -v a="$(field "$TMPD/ok.csv" 1 alarms)" -v x="$(field "$TMPD/ok.csv" 1 alarms_expected)" 'BEGIN { exit !(a == "0" && x > 0 && x < 1) }'
check "CSV: the claim's rule is named" test "$(field "$TMPD/ok.csv" 1 h_claim_rule)" = "raw or unknown source: the policy's claim  0.5 bit per bit"

# A failing source makes the audit exit 1 and its row says fail, with why.
expect_exit 1 "audit with sim:stuck exits 1" ra audit --source "sim:ideal,sim:stuck,after=2000" -n 20000 \
	--csv "$TMPD/fail.csv" --junit "$TMPD/fail.xml" --prom "$TMPD/fail.prom"
check "CSV: two rows, in the order named" test "$(awk -F, 'NR > 1 {print $10}' "$TMPD/fail.csv" | tr -d '"' | tr '\n' ' ')" = "sim:ideal sim:stuck "
check "stuck row verdict is fail" test "$(field "$TMPD/fail.csv" 2 verdict)" = fail
check "stuck row reasons include HEALTH_RCT" sh -c "tail -1 '$TMPD/fail.csv' | grep -q 'HEALTH_RCT'"
check "stuck row reasons include HEALTH_APT" sh -c "tail -1 '$TMPD/fail.csv' | grep -q 'HEALTH_APT'"
check "stuck row has no entropy credit: empty, status none" \
	test "$(field "$TMPD/fail.csv" 2 entropy_credit)/$(field "$TMPD/fail.csv" 2 credit_status)" = /none
check "stuck row: alarms counted (RCT + APT + proportion)" test "$(field "$TMPD/fail.csv" 2 alarms)" -gt 0
check "text report gives the reason in words" grep -q "Repetition count test (90B 4.4.1)" "$TMPD/out"

# The audit's estimates are NIST's: a file of 8-bit samples audited at K = 8
# (bytes = samples) gives ea_non_iid's figures for it (tests/data/nist-90b,
# refdata/rand8_short.res: H_original 6.6364412870839109, assessed
# 5.8608937444852494).
expect_exit 0 "audit of NIST's rand8_short.bin passes" ra audit \
	--source "file:$top_srcdir/tests/data/nist-90b/bin/rand8_short.bin" --csv "$TMPD/nist.csv"
check "rand8_short: h_original = NIST's 6.6364412870839109 (1e-9)" \
	awk -v h="$(field "$TMPD/nist.csv" 1 h_original)" 'BEGIN { d = h - 6.6364412870839109; exit !(d < 1e-9 && d > -1e-9) }'
check "rand8_short: h_assessed = NIST's 5.8608937444852494 (1e-9)" \
	awk -v h="$(field "$TMPD/nist.csv" 1 h_assessed)" 'BEGIN { d = h - 5.8608937444852494; exit !(d < 1e-9 && d > -1e-9) }'
check "rand8_short: the whole file, 10000 samples" test "$(field "$TMPD/nist.csv" 1 samples)" = 10000

# Known failures, caught by the native-word checks.
expect_exit 1 "AMD all-ones RDRAND simulation fails" ra audit --source sim:amd-rdrand-ffffffff -n 20000 --csv "$TMPD/amd.csv"
check "all-ones words: WORD_ONES" grep -q WORD_ONES "$TMPD/amd.csv"
check "DRBG output: no entropy credit (empty, status none)" \
	test "$(field "$TMPD/amd.csv" 1 entropy_credit)/$(field "$TMPD/amd.csv" 1 credit_status)" = /none
check "DRBG note printed in words" grep -q "cannot exclude a keyed backdoor" "$TMPD/out"
expect_exit 1 "Zen 5 zero-RDSEED simulation fails" ra audit --source "sim:rdseed-zero,p=0.01" -n 40000 --csv "$TMPD/z.csv"
check "zero words: WORD_ZEROS" grep -q WORD_ZEROS "$TMPD/z.csv"

# JUnit: well-formed, one testsuite per source, the failure where it belongs.
if [ -n "${XMLLINT:-}" ]; then
	check "JUnit (pass) is well-formed XML" "$XMLLINT" --noout "$TMPD/ok.xml"
	check "JUnit (fail) is well-formed XML" "$XMLLINT" --noout "$TMPD/fail.xml"
else
	skip "xmllint not installed"; skip "xmllint not installed"
fi
check "JUnit: one testsuite per source" test "$(grep -c '<testsuite ' "$TMPD/fail.xml")" -eq 2
check "JUnit: the pass report has failures=\"0\"" grep -q '<testsuites name="rngaudit" tests="[0-9]*" failures="0"' "$TMPD/ok.xml"
check "JUnit: health_rct testcase of sim:stuck has a failure" \
	sh -c "grep -A1 'classname=\"rngaudit.sim:stuck,after=2000\" name=\"health_rct\"' '$TMPD/fail.xml' | grep -q '<failure'"

# Prometheus: every line a comment or NAME{LABELS} VALUE, no timestamps.
promline='^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [-+0-9.eE]+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? (NaN|[+-]Inf))$'
check "Prometheus (pass): every line well-formed" sh -c "! grep -Evq '$promline' '$TMPD/ok.prom'"
check "Prometheus (fail): every line well-formed" sh -c "! grep -Evq '$promline' '$TMPD/fail.prom'"
check "Prometheus: no sample has a timestamp (two fields per sample)" \
	sh -c "grep -v '^#' '$TMPD/fail.prom' | sed 's/{.*}//' | awk 'NF != 2 {bad=1} END {exit bad}'"
check "Prometheus: _timestamp_seconds gauge present" grep -q '^rngaudit_last_run_timestamp_seconds [0-9]' "$TMPD/ok.prom"
check "Prometheus: stuck source has verdict fail = 1" grep -q '^rngaudit_verdict{source="sim:stuck,after=2000",status="fail"} 1$' "$TMPD/fail.prom"
check "Prometheus: file ends with a newline" test "$(tail -c 1 "$TMPD/ok.prom" | od -An -c | tr -d ' ')" = '\n'

# --strict: a warning (too few samples) fails.
expect_exit 0 "5000 samples warns, exit 0 without --strict" ra audit --source sim:ideal -n 5000
check "warn verdict shown" grep -Eq "^sim:ideal +warn" "$TMPD/out"
expect_exit 1 "the same with --strict exits 1" ra audit --source sim:ideal -n 5000 --strict

# Policy file: applied, and strict about errors.
printf 'warn_below.sim = 0.99\nfail_below.sim = 0.98\n' >"$TMPD/p.policy"
expect_exit 1 "a policy floor of 0.98 bits per bit fails sim:ideal" ra audit --source sim:ideal -n 20000 --policy "$TMPD/p.policy"
check "reason ENTROPY_LOW" grep -q "ENTROPY_LOW" "$TMPD/out"
printf 'alpha = 2^-30\nalhpa = 2^-20\n' >"$TMPD/bad.policy"
expect_exit 2 "bad policy key exits 2" ra audit --source sim:ideal -n 1000 --policy "$TMPD/bad.policy"
check "policy error is one line naming FILE:2" one_line_error "bad.policy:2: unknown key 'alhpa'"
expect_exit 0 "data/policy.default is accepted" ra audit --source sim:ideal -n 20000 --policy "$top_srcdir/data/policy.default"

# Usage errors.
expect_exit 2 "unknown option exits 2" ra audit --frobnicate
expect_exit 2 "unknown sim model exits 2" ra audit --source sim:nonesuch -n 100
check "unknown model named on stderr" grep -q "nonesuch" "$TMPD/err"
expect_exit 2 "unwritable CSV path exits 2" ra audit --source sim:ideal -n 1000 --csv /nonexistent/dir/a.csv

# The CSV round trip through report merge: two hosts, three runs.
# Rows are keyed by (host, timestamp, source), and timestamps are to the
# second: fail.csv, audited on this host maybe within the second of ok.csv,
# gets a time of its own so that its sim:ideal row is a run of its own.
sed '2s/"vm"/"hostB"/; 2s/^"[^"]*","[^"]*"/"2026-01-01T00:00:00Z","hostB"/' "$TMPD/ok.csv" >"$TMPD/hostB.csv"
sed '2,$s/^"[^"]*"/"2026-01-02T00:00:00Z"/' "$TMPD/fail.csv" >"$TMPD/fail2.csv"
expect_exit 0 "report merge of three CSVs" ra report merge "$TMPD/ok.csv" "$TMPD/hostB.csv" "$TMPD/fail2.csv" -o "$TMPD/merged.csv"
check "merged: header + 2 groups (sim:ideal, sim:stuck)" test "$(wc -l <"$TMPD/merged.csv")" -eq 3
ideal=$(grep '"sim:ideal"' "$TMPD/merged.csv" | tr -d '\r')
check "sim:ideal group: 2 hosts, 3 runs, 3 pass" sh -c "echo '$ideal' | awk -F, '{exit !(\$8 == 2 && \$9 == 3 && \$10 == 3 && \$11 == 0 && \$12 == 0)}'"
h1=$(field "$TMPD/ok.csv" 1 h_assessed); h2=$(field "$TMPD/fail.csv" 1 h_assessed)
hmin=$(printf '%s\n%s\n' "$h1" "$h2" | sort -g | head -1)
check "sim:ideal min h_assessed is the smaller input value" sh -c "echo '$ideal' | awk -F, -v m='$hmin' '{exit !(\$14 == m)}'"
check "sim:ideal median of (h1, h1, h2) is h1" sh -c "echo '$ideal' | awk -F, -v m='$h1' '{exit !(\$15 == m)}'"
stuck=$(grep '"sim:stuck,after=2000"' "$TMPD/merged.csv" | tr -d '\r')
check "sim:stuck group: 1 run, 1 fail, 0 pass" sh -c "echo '$stuck' | awk -F, '{exit !(\$(NF-11) == 1 && \$(NF-14) == 1 && \$(NF-13) == 0)}'"
expect_exit 0 "merge writes to stdout without -o" ra report merge "$TMPD/ok.csv"
check "stdout merge has the header" grep -q '^cpu_vendor,cpu_family,cpu_model,microcode,virtualized,kernel_release,source,hosts,runs' "$TMPD/out"

# Malformed input: file and line named, exit 2, nothing written.
# cut inside the last row's quoted source field: a quote left open
sed '$s/"sim:stuck.*/"sim:stu/' "$TMPD/fail.csv" >"$TMPD/trunc.csv"
rm -f "$TMPD/m2.csv"
expect_exit 2 "merge of a truncated CSV exits 2" ra report merge "$TMPD/ok.csv" "$TMPD/trunc.csv" -o "$TMPD/m2.csv"
check "error names trunc.csv:3" one_line_error "trunc.csv:3:"
check "nothing written" test ! -e "$TMPD/m2.csv"
printf 'a,b,c\r\n1,2,3\r\n' >"$TMPD/other.csv"
expect_exit 2 "merge of a foreign CSV exits 2" ra report merge "$TMPD/other.csv" -o "$TMPD/m2.csv"
check "error names other.csv:1 and the header" one_line_error "other.csv:1: header field 1"
{ head -1 "$TMPD/ok.csv"; sed -n 2p "$TMPD/ok.csv" | sed 's/"pass"/"great"/'; } >"$TMPD/verdict.csv"
expect_exit 2 "merge rejects an unknown verdict" ra report merge "$TMPD/verdict.csv" -o "$TMPD/m2.csv"
check "error names verdict.csv:2" one_line_error "verdict.csv:2: verdict 'great'"
{ head -1 "$TMPD/ok.csv"; sed -n 2p "$TMPD/ok.csv" | sed 's/,"pass"/,"pa"ss"/'; } >"$TMPD/quote.csv"
expect_exit 2 "merge rejects a stray quote (libcsv strict)" ra report merge "$TMPD/quote.csv" -o "$TMPD/m2.csv"
check "error names quote.csv:2" one_line_error "quote.csv:2:"
check "still nothing written" test ! -e "$TMPD/m2.csv"
expect_exit 2 "merge of a missing file exits 2" ra report merge "$TMPD/nonesuch.csv"
check "libcsv's own messages never reach the user" sh -c "! grep -q 'error parsing data' '$TMPD/err'"

# Rows are keyed by (host, timestamp, source): the same file twice, or a
# row repeated, counts once (issue 17).
ra report merge "$TMPD/ok.csv" -o "$TMPD/single.csv" 2>"$TMPD/err"
expect_exit 0 "merge of the same file given twice" ra report merge "$TMPD/ok.csv" "$TMPD/ok.csv" -o "$TMPD/twice.csv"
check "same file twice: 1 host, 1 run" sh -c "grep '\"sim:ideal\"' '$TMPD/twice.csv' | awk -F, '{exit !(\$8 == 1 && \$9 == 1 && \$10 == 1)}'"
check "same file twice: merged as the file once" cmp -s "$TMPD/twice.csv" "$TMPD/single.csv"
{ cat "$TMPD/ok.csv"; sed -n 2p "$TMPD/ok.csv"; } >"$TMPD/dup.csv"
expect_exit 0 "merge of a file with its row repeated" ra report merge "$TMPD/dup.csv" -o "$TMPD/dupm.csv"
check "row repeated: merged as the file without the repeat" cmp -s "$TMPD/dupm.csv" "$TMPD/single.csv"
sed '2s/^"[^"]*"/"2026-01-02T00:00:00Z"/' "$TMPD/ok.csv" >"$TMPD/later.csv"
expect_exit 0 "merge of two runs of one host" ra report merge "$TMPD/ok.csv" "$TMPD/later.csv" -o "$TMPD/runs.csv"
check "another timestamp is another run: 1 host, 2 runs" sh -c "grep '\"sim:ideal\"' '$TMPD/runs.csv' | awk -F, '{exit !(\$8 == 1 && \$9 == 2)}'"

# A header and no rows (qsort was called with NULL: UBSan).
head -1 "$TMPD/ok.csv" >"$TMPD/header.csv"
expect_exit 0 "merge of a CSV with a header and no rows" ra report merge "$TMPD/header.csv" -o "$TMPD/hm.csv"
check "header and no rows: the merged header alone" test "$(wc -l <"$TMPD/hm.csv")" -eq 1

# Not a CSV: one line naming FILE:LINE, exit 2.
head -c 4096 "$RNGAUDIT" >"$TMPD/binary.csv"
expect_exit 2 "merge of binary junk exits 2" ra report merge "$TMPD/binary.csv"
check "binary junk: one line naming binary.csv:1" one_line_error "binary.csv:1: "
sed -n 2p "$TMPD/ok.csv" >"$TMPD/nohead.csv"
expect_exit 2 "merge of a CSV with no header exits 2" ra report merge "$TMPD/nohead.csv"
check "no header: one line naming nohead.csv:1" one_line_error "nohead.csv:1: header field 1"
check "truncated quoted field: one line (trunc.csv above), in our words" sh -c "
	'$RNGAUDIT' report merge '$TMPD/trunc.csv' 2>&1 >'$TMPD/tq.out' | grep -q 'trunc.csv:3: not a CSV: a quoted field'"

# Text echoed from the input is escaped: messages stay one line.
{ head -1 "$TMPD/ok.csv"; sed -n 2p "$TMPD/ok.csv" | awk '{ sub(/"pass"/, "\"pa\033[2J\nss\""); printf "%s", $0 }'; } \
	>"$TMPD/ctl.csv"
expect_exit 2 "merge rejects a verdict with ESC and a newline" ra report merge "$TMPD/ctl.csv"
check "control characters escaped: one line, ESC and newline as C escapes" sh -c "
	test \$(wc -l <'$TMPD/err') -eq 1 && grep -qF \"verdict 'pa\\x1b[2J\\nss'\" '$TMPD/err'"
check "no raw ESC on stderr" sh -c "! grep -q \"\$(printf '\033')\" '$TMPD/err'"
expect_exit 2 "merge of a missing file whose name has a newline" ra report merge "$TMPD/new
line.csv"
check "the file name is escaped: one line" one_line_error 'new\\nline.csv: cannot open: No such file'

# -o is written whole or not at all: a failed merge leaves the old output.
cp "$TMPD/twice.csv" "$TMPD/keep.csv"
expect_exit 2 "a failing merge with -o an existing file exits 2" ra report merge "$TMPD/ok.csv" "$TMPD/binary.csv" -o "$TMPD/keep.csv"
check "the existing output is left as it was" cmp -s "$TMPD/keep.csv" "$TMPD/twice.csv"
expect_exit 2 "report without a subcommand exits 2" ra report

# interrupt_after PID NOTE ERRFILE SECONDS: once the audit PID has written
# NOTE to ERRFILE (its stop handlers are in place; at most 10 s), waits
# SECONDS more, sends SIGINT and waits for it; its exit status in $rc.
interrupt_after() {
	i=0
	while [ $i -lt 100 ] && ! grep -q "$2" "$3" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	sleep "$4"
	kill -INT "$1" 2>/dev/null
	wait "$1"; rc=$?
}

# SIGINT: reports still written whole, marked partial; exit 2.  A slow
# producer (2000 bytes every 50 ms; it stops when the audit has gone, or
# after 30 s) keeps the audit collecting; the signal is sent once the audit
# has said what it collects (its stop handlers are in place by then).
( i=0; while [ $i -lt 600 ]; do head -c 2000 /dev/urandom || break; sleep 0.05; i=$((i + 1)); done ) 2>/dev/null |
	${RNGAUDIT_WRAP:-} "$RNGAUDIT" audit --source file:- -n 50000000 \
	--csv "$TMPD/int.csv" --prom "$TMPD/int.prom" >"$TMPD/int.out" 2>"$TMPD/int.err" &
interrupt_after $! "samples of 8 bits" "$TMPD/int.err" 0.5
check "interrupted audit exits 2" test "$rc" -eq 2
check "interrupted: CSV row marked partial" test "$(field "$TMPD/int.csv" 1 partial)" = true
check "interrupted: reason PARTIAL and estimators skipped" sh -c "grep -q PARTIAL '$TMPD/int.csv' && grep -q ESTIMATORS_SKIPPED '$TMPD/int.csv'"
check "interrupted: Prometheus says rngaudit_partial 1" grep -q '^rngaudit_partial 1$' "$TMPD/int.prom"

# SIGINT during the estimators (a 4 MB file is read at once; its ten
# estimators take seconds): they stop after the running one, and the
# reports are partial, with every sample collected and no figure.
head -c 4000000 /dev/urandom >"$TMPD/4m.bin"
${RNGAUDIT_WRAP:-} "$RNGAUDIT" audit --source "file:$TMPD/4m.bin" --csv "$TMPD/est.csv" >/dev/null 2>"$TMPD/est.err" &
interrupt_after $! "the whole file, 8 bits per sample" "$TMPD/est.err" 1
check "interrupted in the estimators: exits 2" test "$rc" -eq 2
check "interrupted in the estimators: all 4000000 samples collected, row partial" \
	test "$(field "$TMPD/est.csv" 1 samples)/$(field "$TMPD/est.csv" 1 partial)" = 4000000/true
check "interrupted in the estimators: no figure (ESTIMATORS_SKIPPED, not_assessed)" \
	sh -c "grep -q ESTIMATORS_SKIPPED '$TMPD/est.csv' && grep -q '\"not_assessed\"' '$TMPD/est.csv'"

# Man pages: mandoc -Tlint clean.
if [ -n "${MANDOC:-}" ]; then
	for page in rngaudit rngaudit-sources rngaudit-collect rngaudit-health rngaudit-assess rngaudit-iid \
		rngaudit-restart rngaudit-conditioning rngaudit-audit rngaudit-report; do
		check "man/$page.1 is mandoc -Tlint clean" "$MANDOC" -Tlint -Wwarning "$top_srcdir/man/$page.1"
	done
	check "rngaudit-audit(1) documents every CSV column" sh -c "
		for c in \$(head -1 '$TMPD/ok.csv' | tr -d '\r' | tr ',' ' '); do
			case \$c in lit_*|bit_*) c=\${c%%_*}_mcv ;; esac
			grep -q \"\$c\" '$top_srcdir/man/rngaudit-audit.1' || { echo \"# missing \$c\"; exit 1; }
		done"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11; do skip "mandoc not installed"; done
fi

tap_done
