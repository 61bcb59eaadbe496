#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# junit_check.sh - `rngaudit audit --junit` as Jenkins and GitLab read it
# (rngaudit-audit(1), JUNIT REPORT): valid against rngaudit's own schema
# (tests/data/rngaudit-junit.xsd) and, where a copy is at hand, Jenkins'
# xunit schema junit-10.xsd; classnames "rngaudit." + the source with no
# dot; unique (classname, name) pairs; times with three decimals that add
# up; the properties; observed against expected health alarms; escaping.
# Covers passing, failing, unavailable, warning and oddly named sources.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"

if [ -z "${XMLLINT:-}" ]; then
	echo "1..0 # SKIP xmllint not installed (libxml2-utils)"
	exit 0
fi
OWN_XSD="$top_srcdir/tests/data/rngaudit-junit.xsd"
# Jenkins' schema: jenkinsci/xunit-plugin,
# src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd;
# not shipped here: point RNGAUDIT_JUNIT_XSD at a copy.
JENKINS_XSD=${RNGAUDIT_JUNIT_XSD:-$top_srcdir/tests/data/junit-10.xsd}

# xp FILE XPATH: the XPath's value (string, number or boolean) on stdout.
xp() { "$XMLLINT" --xpath "$2" "$1" 2>/dev/null; }
# valid XSD FILE: FILE validates against XSD; xmllint's complaint, if any,
# as TAP comments.
valid() {
	"$XMLLINT" --noout --schema "$1" "$2" 2>"$TMPD/xsd.err" && return 0
	sed 's/^/# /' "$TMPD/xsd.err" | head -5
	return 1
}

# The audits.  A spec with dots, quotes, an ampersand, angle brackets and
# an apostrophe in a file name (commas separate sources, so sim:biased's
# one comma stands for them).
weird="$TMPD/a.b\"c&d<e>'f.bin"
head -c 20000 /dev/urandom >"$weird"
head -c 20000 /dev/urandom >"$TMPD/x.bin"
cp "$TMPD/x.bin" "$TMPD/x_bin"
expect_exit 0 "audit of passing sources (sim:ideal, getrandom)" \
	ra audit --source sim:ideal,getrandom -n 20000 --junit "$TMPD/pass.xml"
expect_exit 1 "audit with sim:biased,p=0.1 fails" \
	ra audit --source "sim:ideal,sim:biased,p=0.1" -n 20000 --junit "$TMPD/fail.xml"
expect_exit 2 "audit of hwrng:device=/nonexistent: unavailable, exit 2" \
	ra audit --source hwrng:device=/nonexistent -n 20000 --junit "$TMPD/unavail.xml"
expect_exit 0 "audit of 5000 samples warns (exit 0)" \
	ra audit --source sim:ideal -n 5000 --junit "$TMPD/warn.xml"
expect_exit 1 "the same with --strict fails" \
	ra audit --source sim:ideal -n 5000 --strict --junit "$TMPD/strict.xml"
expect_exit 0 "audit of a file whose name has . \" & < > '" \
	ra audit --source "file:$weird" --junit "$TMPD/weird.xml"
# A newline and a byte that is not UTF-8 (0xff) in a file name: the report
# stays XML (U+FFFD for the byte), the newline survives in attributes.
raw="$TMPD/n
l$(printf '\377')x.bin"
head -c 20000 /dev/urandom >"$raw"
expect_exit 0 "audit of a file whose name has a newline and a 0xff byte" \
	ra audit --source "file:$raw" --junit "$TMPD/raw.xml"
expect_exit 0 "audit of file:x.bin and file:x_bin (one classname base)" \
	ra audit --source "file:$TMPD/x.bin,file:$TMPD/x_bin" --junit "$TMPD/twin.xml"
all="pass fail unavail warn strict weird raw twin"

for f in $all; do
	check "$f.xml: valid against rngaudit-junit.xsd" valid "$OWN_XSD" "$TMPD/$f.xml"
done
if [ -r "$JENKINS_XSD" ]; then
	for f in $all; do
		check "$f.xml: valid against Jenkins' junit-10.xsd" valid "$JENKINS_XSD" "$TMPD/$f.xml"
	done
else
	for f in $all; do skip "$f.xml: Jenkins' junit-10.xsd not here (RNGAUDIT_JUNIT_XSD)"; done
fi
# The schema can fail: dots in a source's classname (two: one may follow
# a host), a time with four decimals, a suite without properties, `skipped`
# on the root.
sed '0,/classname="rngaudit\.sim:ideal"/s//classname="rngaudit.sim.ide.al"/' "$TMPD/fail.xml" >"$TMPD/m1.xml"
sed '0,/ time="\([0-9]*\.[0-9]*\)"/s// time="\10"/' "$TMPD/fail.xml" >"$TMPD/m2.xml"
sed '/<properties>/,/<\/properties>/d' "$TMPD/pass.xml" >"$TMPD/m3.xml"
sed 's/<testsuites name="rngaudit"/& skipped="0"/' "$TMPD/pass.xml" >"$TMPD/m4.xml"
for m in m1 m2 m3 m4; do
	check "rngaudit-junit.xsd rejects the broken copy $m.xml" sh -c \
		"! '$XMLLINT' --noout --schema '$OWN_XSD' '$TMPD/$m.xml' 2>/dev/null"
done
check "the broken copies differ from their originals" sh -c "
	! cmp -s '$TMPD/m1.xml' '$TMPD/fail.xml' && ! cmp -s '$TMPD/m2.xml' '$TMPD/fail.xml' &&
	! cmp -s '$TMPD/m3.xml' '$TMPD/pass.xml' && ! cmp -s '$TMPD/m4.xml' '$TMPD/pass.xml'"

# Classnames: package "rngaudit", no further dot.
for f in $all; do
	check "$f.xml: every classname is rngaudit.<no dot>" sh -c "
		grep -o 'classname=\"[^\"]*\"' '$TMPD/$f.xml' >'$TMPD/cn' && test -s '$TMPD/cn' &&
		! grep -Evq '^classname=\"rngaudit\\.[^.\"]+\"\$' '$TMPD/cn'"
	check "$f.xml: (classname, name) pairs are unique" sh -c "
		grep -o 'classname=\"[^\"]*\" name=\"[^\"]*\"' '$TMPD/$f.xml' | sort | uniq -d | grep -q . && exit 1
		exit 0"
done
check "sim:biased,p=0.1: classname rngaudit.sim:biased,p=0_1, suite name exact" \
	test "$(xp "$TMPD/fail.xml" 'string(//testsuite[@name="sim:biased,p=0.1"]/testcase[1]/@classname)')" = \
	"rngaudit.sim:biased,p=0_1"
check "x.bin and x_bin: the second classname gets ~2" \
	test "$(xp "$TMPD/twin.xml" 'string(//testsuite[2]/testcase[1]/@classname)')" = \
	"$(xp "$TMPD/twin.xml" 'string(//testsuite[1]/testcase[1]/@classname)')~2"

# Escaping: what a parser reads back is the spec as given.
check "weird name: testsuite name reads back as the spec" \
	test "$(xp "$TMPD/weird.xml" 'string(//testsuite/@name)')" = "file:$weird"
check "weird name: source property reads back as the spec" \
	test "$(xp "$TMPD/weird.xml" 'string(//property[@name="source"]/@value)')" = "file:$weird"
check "weird name: classname is the spec with '.' as '_'" \
	test "$(xp "$TMPD/weird.xml" 'string(//testcase[1]/@classname)')" = \
	"rngaudit.$(printf '%s' "file:$weird" | tr . _)"

check "newline and 0xff: the name reads back with the newline and U+FFFD" \
	test "$(xp "$TMPD/raw.xml" 'string(//testsuite/@name)')" = \
	"file:$TMPD/n
l$(printf '\357\277\275')x.bin"

# Times: three decimals; a suite is the sum of its cases, the root at
# least the longest suite; collection and min_entropy carry the phases.
for f in $all; do
	check "$f.xml: every time is seconds with three decimals" sh -c "
		grep -o ' time=\"[^\"]*\"' '$TMPD/$f.xml' >'$TMPD/t' && test -s '$TMPD/t' &&
		! grep -Evq '^ time=\"[0-9]+\\.[0-9]{3}\"\$' '$TMPD/t'"
	n=$(xp "$TMPD/$f.xml" 'count(//testsuite)')
	bad=0 i=1
	while [ "$i" -le "$n" ]; do
		st=$(xp "$TMPD/$f.xml" "string(//testsuite[$i]/@time)")
		sum=$(xp "$TMPD/$f.xml" "sum(//testsuite[$i]/testcase/@time)")
		awk -v a="$st" -v b="$sum" 'BEGIN { d = a - b; exit !(d < 0.0005 && d > -0.0005) }' || bad=1
		i=$((i + 1))
	done
	check "$f.xml: each suite's time is the sum of its cases' ($n suites)" test "$bad" -eq 0
	check "$f.xml: the root's time is at least every suite's" test \
		"$(xp "$TMPD/$f.xml" 'count(//testsuite[number(@time) > number(/testsuites/@time)])')" -eq 0
	check "$f.xml: counts add up (tests, failures, skipped)" test \
		"$(xp "$TMPD/$f.xml" 'number(/testsuites/@tests) = count(//testcase) and
			number(/testsuites/@failures) = count(//testcase[failure]) and
			sum(//testsuite/@tests) = count(//testcase) and
			sum(//testsuite/@skipped) = count(//testcase[skipped])')" = true
done
check "only collection and min_entropy carry time" test \
	"$(xp "$TMPD/fail.xml" 'count(//testcase[@name != "collection" and @name != "min_entropy" and number(@time) != 0])')" -eq 0

# Properties: the machine, the tool, the policy, the claim and alpha.
for p in host cpu_vendor cpu_family cpu_model cpu_stepping kernel virtualized tool_version \
	policy alpha policy_min_samples policy_claim_per_bit policy_warn_below_per_bit \
	policy_fail_below_per_bit source; do
	check "every suite has property $p" test \
		"$(xp "$TMPD/fail.xml" "count(//testsuite[not(properties/property[@name='$p'])])")" -eq 0
done
check "unavailable source: machine and policy properties, its kind (raw)" test \
	"$(xp "$TMPD/unavail.xml" 'count(//properties/property[@name="host" or @name="policy" or @name="alpha"
		or (@name="kind" and @value="raw")])')" -eq 4
check "tool_version is the package's" grep -q '<property name="tool_version" value="[0-9][^"]*"/>' "$TMPD/pass.xml"
check "sim:ideal's claim: h_claim 4 (policy's 0.5 per bit at K = 8), health_alpha 2^-20" \
	test "$(xp "$TMPD/fail.xml" 'concat(//testsuite[@name="sim:ideal"]//property[@name="h_claim"]/@value, " ",
		//testsuite[@name="sim:ideal"]//property[@name="health_alpha"]/@value)')" = "4 2^-20"

# Issue 16: observed against expected alarms.
bsuite='//testsuite[@name="sim:biased,p=0.1"]'
alarms=$(xp "$TMPD/fail.xml" "string($bsuite//property[@name='alarms']/@value)")
expected=$(xp "$TMPD/fail.xml" "string($bsuite//property[@name='alarms_expected']/@value)")
check "sim:biased: alarms is a count above 0 (got '$alarms')" sh -c "echo '$alarms' | grep -Eq '^[1-9][0-9]*\$'"
check "sim:biased: alarms_expected is a number below 1 (got '$expected')" \
	awk -v e="$expected" 'BEGIN { exit !(e ~ /^[0-9.e+-]+$/ && e + 0 > 0 && e + 0 < 1) }'
check "sim:biased: health_apt's system-out says 'alarms $alarms, ... expected'" sh -c "
	'$XMLLINT' --xpath 'string($bsuite/testcase[@name=\"health_apt\"]/system-out)' '$TMPD/fail.xml' |
	grep -Eq '^alarms $alarms, [0-9.e+-]+ expected'"
check "sim:biased: health_apt fails (HEALTH_PROP), its figures beside the failure" test \
	"$(xp "$TMPD/fail.xml" "count($bsuite/testcase[@name='health_apt'][failure[@type='HEALTH_PROP']][contains(system-out, 'proportion: failures')])")" -eq 1
check "sim:biased: health_rct's system-out has the RCT line" \
	sh -c "'$XMLLINT' --xpath 'string($bsuite/testcase[@name=\"health_rct\"]/system-out)' '$TMPD/fail.xml' | grep -q '^RCT: failures 0, alarms '"

# Outcomes: failure, skip, warning.
check "fail.xml: one failing suite, failures=\"1\" on the root" test \
	"$(xp "$TMPD/fail.xml" 'concat(count(//testsuite[@failures > 0]), " ", /testsuites/@failures)')" = "1 1"
check "unavail.xml: one skipped testcase 'available' with the reason" test \
	"$(xp "$TMPD/unavail.xml" 'count(//testcase[@name="available"]/skipped[contains(@message, "/nonexistent")])')" -eq 1
check "warn.xml: no failure; SAMPLES_FEW as a warn line in sample_count" test \
	"$(xp "$TMPD/warn.xml" 'count(//failure) = 0 and contains(//testcase[@name="sample_count"]/system-out, "warn SAMPLES_FEW")')" = true
check "strict.xml: the warning is a failure of type SAMPLES_FEW" test \
	"$(xp "$TMPD/strict.xml" 'count(//testcase[@name="sample_count"]/failure[@type="SAMPLES_FEW"])')" -eq 1

# --junit-host (issue 26 item 6): the host between "rngaudit." and the
# source, its dots as '_', so two hosts' reports merged keep their rows
# apart.  The host names come from sysroot copies.
for h in web01.example.com web02.example.com; do
	cp -R "$top_srcdir/tests/data/sysroot/k419-config-n" "$TMPD/sr-$h" && chmod -R u+w "$TMPD/sr-$h" &&
		echo "$h" >"$TMPD/sr-$h/proc/sys/kernel/hostname"
	${RNGAUDIT_WRAP:-} "$RNGAUDIT" audit --source sim:ideal,sim:biased,p=0.1 -n 20000 --sysroot "$TMPD/sr-$h" \
		--junit-host --junit "$TMPD/host-$h.xml" >/dev/null 2>&1
done
check "--junit-host: valid against rngaudit's schema" valid "$OWN_XSD" "$TMPD/host-web01.example.com.xml"
check "--junit-host: classname rngaudit.web01_example_com.sim:biased,p=0_1" \
	test "$(xp "$TMPD/host-web01.example.com.xml" 'string(//testsuite[@name="sim:biased,p=0.1"]/testcase[1]/@classname)')" = \
	"rngaudit.web01_example_com.sim:biased,p=0_1"
check "--junit-host: every classname is rngaudit.<host>.<source>, no other dot" sh -c "
	grep -ho 'classname=\"[^\"]*\"' '$TMPD/host-web01.example.com.xml' >'$TMPD/hcn' && test -s '$TMPD/hcn' &&
	! grep -Evq '^classname=\"rngaudit\.web01_example_com\.[^.\"]+\"\$' '$TMPD/hcn'"
check "--junit-host: two hosts' reports merged keep distinct (classname, name) pairs" sh -c "
	cat '$TMPD/host-web01.example.com.xml' '$TMPD/host-web02.example.com.xml' |
		grep -o 'classname=\"[^\"]*\" name=\"[^\"]*\"' >'$TMPD/pairs' && test \$(wc -l <'$TMPD/pairs') -gt 10 &&
		! sort '$TMPD/pairs' | uniq -d | grep -q ."

tap_done
