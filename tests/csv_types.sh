#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# csv_types.sh - every CSV the tool writes loads as types (issue 18, CSV):
# the audit CSV (passing, failing, DRBG and unavailable sources), assess
# --format csv (bytes, bits and translated wide samples) and the merged
# fleet CSV, each read with Python's csv module by tests/csv_types.py:
# numeric columns hold numbers or nothing, bare; text always quoted; the
# fields always known never blank.  The checker is shown to fail on the old
# shapes (a word in a numeric column, a quoted number).
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
types() { python3 "$top_srcdir/tests/csv_types.py" "$@" >"$TMPD/types" 2>&1 || { sed 's/^/# /' "$TMPD/types" | head -20; return 1; }; }
D="$top_srcdir/tests/data/nist-90b/bin"

if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 not installed: the typed-CSV checks need Python's csv module"
	tap_done
fi

# The checker itself: the old audit shape fails it.
printf 'timestamp,host,h_assessed,entropy_credit\r\n"t","h",3.5,"none"\r\n' >"$TMPD/old.csv"
check "checker fails a word in a numeric column (schema 2's entropy_credit none)" sh -c \
	"! python3 '$top_srcdir/tests/csv_types.py' audit '$TMPD/old.csv' >'$TMPD/o' && grep -q \"entropy_credit: 'none' is not a number\" '$TMPD/o'"
printf 'domain,id,estimator,applicable,reason,p,min_entropy,details\r\n"literal","mcv","Most Common Value","1","",0.5,1,""\r\n' >"$TMPD/q.csv"
check "checker fails a quoted number" sh -c \
	"! python3 '$top_srcdir/tests/csv_types.py' assess '$TMPD/q.csv' >'$TMPD/o' && grep -q \"applicable: number '1' quoted\" '$TMPD/o'"
printf 'domain,id,estimator,applicable,reason,p,min_entropy,details\r\n"literal","",Most,1,"",0.5,-0,""\r\n' >"$TMPD/b.csv"
check "checker fails blank known fields, bare text and negative zero" sh -c \
	"! python3 '$top_srcdir/tests/csv_types.py' assess '$TMPD/b.csv' >'$TMPD/o' && test \$(wc -l <'$TMPD/o') -eq 3"

printf 'timestamp,host,conditioned,virtualized,partial\r\n"t","h",1,"yes",true\r\n' >"$TMPD/oldbool.csv"
check "checker fails schema 4's booleans (1, \"yes\"): one form, true or false, bare" sh -c \
	"! python3 '$top_srcdir/tests/csv_types.py' audit '$TMPD/oldbool.csv' >'$TMPD/o' && test \$(grep -c 'not bare true, false or empty' '$TMPD/o') -eq 2"

# The audit CSV: a passing raw source, a failing one, DRBG output, a
# conditioned simulation; then an unavailable device, whose kind is known.
expect_exit 1 "audit of four simulated sources (one fails)" ra audit \
	--source 'sim:ideal,sim:stuck,after=2000,sim:amd-rdrand-ffffffff,sim:rdseed-zero,p=0.01' -n 20000 \
	--csv "$TMPD/audit.csv"
check "audit CSV: numbers or empty, text quoted, known fields filled" types audit "$TMPD/audit.csv"
expect_exit 2 "audit of a missing hwrng device (named: exit 2, report written)" ra audit \
	--source "hwrng:device=$TMPD/nonesuch" -n 1000 --csv "$TMPD/unavail.csv"
check "unavailable row: typed, its kind (raw) and word size known" types audit "$TMPD/unavail.csv"
check "unavailable row: kind raw, device named, status not_assessed" \
	sh -c "tail -n 1 '$TMPD/unavail.csv' | grep -q ',\"$TMPD/nonesuch\",false,\"raw\",0,8,8,' && tail -n 1 '$TMPD/unavail.csv' | grep -q '\"not_assessed\"'"
# The machine's sources (the default list): one this machine lacks is
# reported unavailable with the kind, device and word size its probe knows.
ra audit -n 2000 --csv "$TMPD/default.csv" >/dev/null 2>&1
check "default audit CSV: typed, every row's kind known" types audit "$TMPD/default.csv"
if grep -q '^"[^"]*","[^"]*","[^"]*",[0-9]*,[0-9]*,[0-9]*,"[^"]*","[^"]*","[^"]*","chaoskey","usb 1d50:60c6",false,"raw",0,8,16,.*"unavailable"' "$TMPD/default.csv"; then
	ok 0 "a ChaosKey that is not plugged in: unavailable, raw, 16-bit words, its USB id"
elif grep -q '"chaoskey"' "$TMPD/default.csv" && ! grep -q '"chaoskey".*"unavailable"' "$TMPD/default.csv"; then
	skip "a ChaosKey is plugged in"
else
	ok 1 "a ChaosKey that is not plugged in: unavailable, raw, 16-bit words, its USB id"
fi
if grep -qw rdrand /proc/cpuinfo 2>/dev/null; then
	expect_exit 0 "audit of rdrand" ra audit --source rdrand -n 20000 --csv "$TMPD/rdrand.csv"
	check "rdrand row: typed" types audit "$TMPD/rdrand.csv"
else
	skip "no RDRAND on this CPU"
	skip "no RDRAND on this CPU"
fi

# assess --format csv: bytes, bits, translated wide samples.
expect_exit 0 "assess --format csv of 8-bit samples" sh -c "'$RNGAUDIT' assess --format csv '$D/rand8_short.bin' >'$TMPD/a8.csv'"
check "assess CSV (8-bit): typed" types assess "$TMPD/a8.csv"
expect_exit 0 "assess --format csv of 1-bit samples" sh -c "'$RNGAUDIT' assess --format csv '$D/rand1_short.bin' >'$TMPD/a1.csv'"
check "assess CSV (1-bit): typed" types assess "$TMPD/a1.csv"
python3 -c '
import random, struct, sys
r = random.Random(5)
sys.stdout.buffer.write(b"".join(struct.pack("<H", r.getrandbits(6) | 0x100) for _ in range(20000)))' >"$TMPD/s.u16le"
expect_exit 0 "assess --format csv of translated u16le samples" sh -c \
	"'$RNGAUDIT' assess --format u16le --format csv '$TMPD/s.u16le' >'$TMPD/aw.csv'"
check "assess CSV (translated): typed, with its translation row" sh -c \
	"python3 '$top_srcdir/tests/csv_types.py' assess '$TMPD/aw.csv' && grep -q '^\"input\",\"translation\"' '$TMPD/aw.csv'"

# The merged fleet CSV.
expect_exit 0 "report merge of the audit CSVs" ra report merge "$TMPD/audit.csv" "$TMPD/unavail.csv" -o "$TMPD/merged.csv"
check "merged CSV: typed" types merge "$TMPD/merged.csv"
check "merged CSV: the unavailable group has empty h_assessed_min/median" \
	grep -q ',0,0,0,1,,,' "$TMPD/merged.csv"

tap_done
