#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# csv_pandas.sh - the audit CSV loads typed in pandas by its table schemas
# (issue 26 item 3): a fleet of four schema versions (this version's 5,
# written here, and the fixtures of 4, 2 and 1 from hosts not yet upgraded),
# each file read with data/rngaudit-audit-csv-N.tableschema.json for its
# version and concatenated, has no column of mixed types: integers, numbers,
# booleans (true/false now, 0/1, yes/no and on/off before), strings (the
# microcode and recommendation that look numeric when empty) and times.
# Read by pandas without the schemas, the same fleet does mix types; the
# checker fails a schema-4 spelling in a schema-5 file; the fleet CSV loads
# by its own schema; the shipped schemas are what scripts/csv-tableschema.py
# writes.  Skips when pandas is missing (python3-pandas: install-deps.sh).
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
M="$top_srcdir/tests/data/merge"
DATA="$top_srcdir/data"
SR="$top_srcdir/tests/data/sysroot"

# Debian's pandas is its python3's: the first python3 on PATH may be another
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import pandas' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "1..0 # SKIP pandas not installed (python3-pandas; scripts/install-deps.sh installs it)"
	exit 0
fi
pd() { "$PY" "$top_srcdir/tests/csv_pandas.py" "$@" >"$TMPD/pd" 2>&1 || { sed 's/^/# /' "$TMPD/pd" | head -20; return 1; }; }

# this version's CSVs: raw, DRBG stand-ins and a failing source on a
# sysroot's kernel (hwrng credited), and an unavailable device
ra audit --sysroot "$SR/k510-hwrng-default-only" --source 'sim:ideal,as=rdrand,sim:biased,p=0.3,as=hwrng,sim:ideal,sim:stuck,after=2000' \
	-n 20000 --csv "$TMPD/v5.csv" >/dev/null 2>&1
ra audit --source "hwrng:device=$TMPD/nonesuch" -n 1000 --csv "$TMPD/v5u.csv" >/dev/null 2>&1
check "audit writes schema 5" sh -c "sed -n 2p '$TMPD/v5.csv' | grep -q ',\"[^\"]*\",5,\"'"
check "fleet of schemas 5, 4, 2 and 1: loaded by the table schemas, no column of mixed types" \
	pd typed "$DATA" "$TMPD/v5.csv" "$TMPD/v5u.csv" "$M/v4-host.csv" "$M/v2-host.csv" "$M/v1-host.csv"
check "  ... 4 schema versions, 87 columns" grep -q '^[0-9]* rows, 87 columns, 4 schema versions$' "$TMPD/pd"
check "fleet of schemas 5, 4 and 2 (three versions): no column of mixed types" \
	pd typed "$DATA" "$TMPD/v5.csv" "$M/v4-host.csv" "$M/v2-host.csv"

# without the schemas pandas guesses, and the versions' spellings mix
"$PY" "$top_srcdir/tests/csv_pandas.py" naive "$TMPD/v5.csv" "$M/v4-host.csv" "$M/v2-host.csv" >"$TMPD/naive" 2>&1
check "without the schemas the same fleet mixes types (virtualized: bool and str)" \
	grep -q '^virtualized: mixed (bool, str)$' "$TMPD/naive"
check "one schema-5 file alone: booleans load as bool, no mixed column" \
	sh -c "'$PY' '$top_srcdir/tests/csv_pandas.py' naive '$TMPD/v5.csv' >'$TMPD/n5' 2>&1 && test ! -s '$TMPD/n5'"

# the checker fails
sed '2s/,false,/,"no",/' "$TMPD/v5.csv" >"$TMPD/bad.csv"
check "checker fails a schema-4 spelling (\"no\") in a schema-5 file" sh -c \
	"! '$PY' '$top_srcdir/tests/csv_pandas.py' typed '$DATA' '$TMPD/bad.csv' >'$TMPD/o' 2>&1 && grep -q \"'no' is not one of\" '$TMPD/o'"
sed '2s/^\("[^"]*","[^"]*","[^"]*",\)[0-9]*/\1"six"/' "$TMPD/v5.csv" >"$TMPD/bad2.csv"
check "checker fails a word in an integer column" sh -c \
	"! '$PY' '$top_srcdir/tests/csv_pandas.py' typed '$DATA' '$TMPD/bad2.csv' >'$TMPD/o' 2>&1 && grep -q \"cpu_family: 'six' is not a number\" '$TMPD/o'"

# the fleet CSV by its own schema
ra report merge "$TMPD/v5.csv" "$TMPD/v5u.csv" "$M/v4-host.csv" "$M/v2-host.csv" "$M/v1-host.csv" -o "$TMPD/fleet.csv" 2>/dev/null
check "the fleet CSV loads typed by rngaudit-merge-csv.tableschema.json" pd merge "$DATA" "$TMPD/fleet.csv"

# the schemas: each version's fields begin with the one before's; shipped as generated
check "schema N's fields are the first 59, 70, 79, 87, 87 of schema 5's, in order" "$PY" -c '
import json, sys
f = lambda v: [x["name"] for x in json.load(open("%s/rngaudit-audit-csv-%d.tableschema.json" % (sys.argv[1], v)))["fields"]]
five = f(5)
sys.exit(0 if all(f(v) == five[:n] for v, n in ((1, 59), (2, 70), (3, 79), (4, 87))) else 1)' "$DATA"
check "the table schemas name this version's columns (header of audit --csv)" "$PY" -c '
import json, sys
names = [x["name"] for x in json.load(open(sys.argv[1] + "/rngaudit-audit-csv-5.tableschema.json"))["fields"]]
header = open(sys.argv[2]).readline().strip().split(",")
sys.exit(0 if names == header else 1)' "$DATA" "$TMPD/v5.csv"
mkdir "$TMPD/gen"
"$PY" "$top_srcdir/scripts/csv-tableschema.py" "$TMPD/gen"
ok=0
for f in "$TMPD"/gen/*.json; do cmp -s "$f" "$DATA/$(basename "$f")" || { echo "# $(basename "$f") differs"; ok=1; }; done
ok $ok "data/*.tableschema.json are what scripts/csv-tableschema.py writes"
check "rngaudit-audit(1) names the table schemas" grep -q 'rngaudit-audit-csv-N.tableschema.json' "$top_srcdir/man/rngaudit-audit.1"
tap_done
