#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# json_report.sh - the JSON documents (issue 26 item 2): `rngaudit sources
# --format json` and `rngaudit audit --json FILE`, loaded with Python's json
# and validated against their versioned schemas in data/ (JSON Schema draft
# 2020-12, with python3-jsonschema) by tests/json_validate.py; the audit's
# holding every fact of the CSV row of the same run; an interrupted run's
# still valid and marked partial.  The checker is shown to fail.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
AS="$top_srcdir/data/rngaudit-audit-1.schema.json"
SS="$top_srcdir/data/rngaudit-sources-1.schema.json"
V="$top_srcdir/tests/json_validate.py"

if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 not installed: the JSON checks need Python's json"
	tap_done
fi
# jv ARGS...: json_validate.py, its lines shown as diagnostics
jv() { python3 "$V" "$@" >"$TMPD/jv" 2>&1; jv_rc=$?; sed 's/^/# /' "$TMPD/jv" | head -12; return $jv_rc; }
python3 "$V" schema "$AS" >/dev/null 2>&1
if [ $? -eq 3 ]; then
	skip "python3-jsonschema not installed: the documents are not validated"
	HAVE_SCHEMA=
else
	HAVE_SCHEMA=1
	check "data/rngaudit-audit-1.schema.json is a valid JSON Schema (draft 2020-12)" jv schema "$AS"
	check "data/rngaudit-sources-1.schema.json is a valid JSON Schema (draft 2020-12)" jv schema "$SS"
fi
# valid NAME SCHEMA DOC: one check (skipped without jsonschema)
valid() {
	if [ -n "$HAVE_SCHEMA" ]; then check "$1" jv valid "$2" "$3"; else skip "$1: no jsonschema"; fi
}
# py DOC EXPR: prints EXPR evaluated with d = the loaded document
py() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2" 2>&1; }

# --- sources --------------------------------------------------------------
expect_exit 0 "sources --format json: exit 0" ra sources --format json
cp "$TMPD/out" "$TMPD/sources.json"
valid "sources --format json: valid against its schema" "$SS" "$TMPD/sources.json"
check "sources --format json: the real sources, in the text listing's order" \
	test "$(py "$TMPD/sources.json" '" ".join(s["name"] for s in d["sources"])')" = \
	"$(ra sources | awk '/^SOURCE /{p=1; next} p && NF == 0 {exit} p {printf "%s%s", n++ ? " " : "", $1}')"
check "sources --format json: typed (available a boolean, word_bits a number)" \
	test "$(py "$TMPD/sources.json" 'all(type(s["available"]) is bool and type(s["word_bits"]) is int for s in d["sources"])')" = True
expect_exit 0 "sources --format json --sysroot: exit 0" \
	ra sources --format json --sysroot "$top_srcdir/tests/data/sysroot/k419-config-n"
cp "$TMPD/out" "$TMPD/sr.json"
valid "sources --format json --sysroot: valid against its schema" "$SS" "$TMPD/sr.json"
check "sources --sysroot k419: not probed (sources null), trust_cpu off from its CONFIG default" \
	test "$(py "$TMPD/sr.json" '(d["sources"], d["kernel"]["trust_cpu"]["on"], d["kernel"]["sysroot"] is not None)')" = \
	"(None, False, True)"
expect_exit 2 "sources --format yaml: one line, exit 2" ra sources --format yaml
check "sources --format yaml: names the value" one_line_error "yaml"

# --- audit --json ------------------------------------------------------------
# a pass, a health-test failure, DRBG output, raw samples from a file and an
# unavailable device: every branch of the source object
SRCS="sim:ideal,sim:stuck,after=2000,sim:amd-rdrand-ffffffff,file:$top_srcdir/tests/data/nist-90b/bin/rand4_short.bin,hwrng:device=$TMPD/nonexistent"
ra audit --source "$SRCS" -n 20000 --csv "$TMPD/a.csv" --json "$TMPD/a.json" >"$TMPD/out" 2>"$TMPD/err"
check "audit --json: exit 2 (a named source cannot be used), the document still written" \
	sh -c "test $? -eq 2 && test -s '$TMPD/a.json'"
valid "audit --json: valid against rngaudit-audit-1.schema.json" "$AS" "$TMPD/a.json"
if [ -n "$HAVE_SCHEMA" ]; then
	check "audit --json: every column of the CSV row, the same facts" jv csv "$TMPD/a.json" "$TMPD/a.csv"
else
	skip "audit --json against the CSV: no jsonschema"
fi
check "audit --json: five sources, counted by verdict, not partial" \
	test "$(py "$TMPD/a.json" '(len(d["sources"]), d["counts"]["pass"] + d["counts"]["fail"] + d["counts"]["warn"] + d["counts"]["unavailable"], d["partial"])')" = "(5, 5, False)"
check "audit --json: the verdicts are the text table's" sh -c "
	for s in \$(python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))[\"sources\"]: print(s[\"verdict\"][\"status\"])' '$TMPD/a.json'); do
		grep -q \" \$s \" '$TMPD/out' || exit 1
	done"
check "audit --json: reasons a list of {code, level, text}; the unavailable one says why" \
	test "$(py "$TMPD/a.json" '[r["code"] for r in d["sources"][4]["verdict"]["reasons"]] == ["UNAVAILABLE"] and d["sources"][4]["estimates"] is None and d["sources"][4]["counters"] is None')" = True
check "audit --json: each estimator's figures and NIST's intermediates (rand4_short: MCV p-hat 0.0659, NIST's)" \
	test "$(py "$TMPD/a.json" '[x["value"] for x in d["sources"][3]["estimates"]["literal"][0]["details"] if x["key"] == "p-hat"]')" = "[0.0659]"
check "audit --json: the kernel context an object (trust_cpu.on a boolean or null)" \
	test "$(py "$TMPD/a.json" 'd["kernel"]["trust_cpu"]["on"] in (True, False, None) and type(d["kernel"]["hwrng"]) is dict')" = True

# The checker fails: a changed fact, a number written as text
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["sources"][0]["samples"] += 1
json.dump(d, open(sys.argv[2], "w"))
d["sources"][0]["samples"] = str(d["sources"][0]["samples"]); json.dump(d, open(sys.argv[3], "w"))' \
	"$TMPD/a.json" "$TMPD/changed.json" "$TMPD/typed.json"
if [ -n "$HAVE_SCHEMA" ]; then
	check "checker fails a fact that differs from the CSV's (samples + 1)" sh -c "! python3 '$V' csv '$TMPD/changed.json' '$TMPD/a.csv' >/dev/null"
	check "checker fails a number written as text (samples \"20001\")" sh -c "! python3 '$V' valid '$AS' '$TMPD/typed.json' >/dev/null"
else
	skip "checker: no jsonschema"; skip "checker: no jsonschema"
fi

# --json -: the document alone on stdout, the table on stderr
ra audit --source sim:ideal -n 20000 --json - >"$TMPD/out" 2>"$TMPD/err"
check "audit --json -: exit 0, stdout one JSON document" sh -c "test $? -eq 0 && python3 -c 'import json, sys; json.load(open(sys.argv[1]))' '$TMPD/out'"
check "audit --json -: the table goes to stderr" grep -Eq "^sim:ideal +pass" "$TMPD/err"

# An interrupted run: the document is whole, valid and marked partial (a
# slow producer keeps the audit collecting until SIGINT)
( i=0; while [ $i -lt 600 ]; do head -c 2000 /dev/urandom || break; sleep 0.05; i=$((i + 1)); done ) 2>/dev/null |
	${RNGAUDIT_WRAP:-} "$RNGAUDIT" audit --source file:- -n 50000000 \
	--json "$TMPD/int.json" >"$TMPD/int.out" 2>"$TMPD/int.err" &
pid=$!
i=0
while [ $i -lt 100 ] && ! grep -q "samples of 8 bits" "$TMPD/int.err" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -INT $pid 2>/dev/null
wait $pid; rc=$?
check "interrupted audit --json: exits 2" test "$rc" -eq 2
valid "interrupted audit --json: valid against the schema" "$AS" "$TMPD/int.json"
check "interrupted audit --json: marked partial, the run and the source" \
	test "$(py "$TMPD/int.json" '(d["partial"], d["sources"][0]["partial"], d["sources"][0]["credit_status"])')" = \
	"(True, True, 'not_assessed')"

check "rngaudit-audit(1) documents the JSON report and its schema" grep -q 'rngaudit-audit-1.schema.json' "$top_srcdir/man/rngaudit-audit.1"
check "rngaudit-sources(1) documents --format json and its schema" grep -q 'rngaudit-sources-1.schema.json' "$top_srcdir/man/rngaudit-sources.1"
tap_done
