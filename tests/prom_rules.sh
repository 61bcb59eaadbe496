#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# prom_rules.sh - the Prometheus alerting rules (data/prometheus/, issue 25
# item 3): promtool checks them and runs their unit tests
# (rngaudit.rules.test.yml: each alert fires on its case and not on its near
# miss); every metric an alert reads is one the tool writes (a renamed
# metric would silence an alert); and the unit tests do fail when a rule is
# broken.  promtool comes with Debian's prometheus package
# (scripts/install-deps.sh); without it the test skips.
. "${top_srcdir:-.}/tests/tap.sh"
PROMTOOL=${PROMTOOL-$(command -v promtool)}
if [ -z "$PROMTOOL" ]; then
	echo "1..0 # SKIP promtool not installed (Debian: apt-get install prometheus)"
	exit 0
fi
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt" RNGAUDIT_NO_PROGRESS=1
rules="$top_srcdir/data/prometheus/rngaudit.rules.yml"
tests="$top_srcdir/data/prometheus/rngaudit.rules.test.yml"

check "promtool check rules" sh -c "'$PROMTOOL' check rules '$rules' >'$TMPD/c' 2>&1"
sed 's/^/# /' "$TMPD/c"
check "promtool test rules: every alert's unit tests pass" sh -c "'$PROMTOOL' test rules '$tests' >'$TMPD/t' 2>&1"
sed 's/^/# /' "$TMPD/t"
for a in RngauditHealthFailure RngauditAuditHealthFailure RngauditVerdictFail RngauditHealthAlarmsHigh \
	RngauditAuditAlarmsHigh RngauditRecommendationChange RngauditAuditStale RngauditHealthMonitorStale; do
	check "alert $a has unit tests" grep -q "alertname: $a\$" "$tests"
done

# The metrics the rules read, against the textfiles the tool writes.
ra audit --source 'sim:ideal,sim:amd-rdrand-ffffffff,as=rdrand' -n 50000 \
	--sysroot "$top_srcdir/tests/data/sysroot/zen5-rdseed" --prom "$TMPD/audit.prom" >/dev/null 2>&1
ra health --source sim:ideal --follow --interval 0.01 -n 100000 --prom "$TMPD/follow.prom" >/dev/null 2>&1
cat "$TMPD/audit.prom" "$TMPD/follow.prom" | sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' | sort -u >"$TMPD/written"
grep -o 'rngaudit_[a-z_]*' "$rules" | sort -u >"$TMPD/read"
check "the rules read some metrics" test -s "$TMPD/read"
while read -r m; do
	check "alerts read $m, which a textfile has" grep -qx "$m" "$TMPD/written"
done <"$TMPD/read"

# A broken rule fails its test: the monitor's staleness at 6000 s, not 600.
mkdir "$TMPD/broken"
sed 's/rngaudit_health_last_update_timestamp_seconds > 600/rngaudit_health_last_update_timestamp_seconds > 6000/' \
	"$rules" >"$TMPD/broken/rngaudit.rules.yml"
cp "$tests" "$TMPD/broken/"
check "the rule changed for the broken copy" sh -c "! cmp -s '$rules' '$TMPD/broken/rngaudit.rules.yml'"
check "promtool test rules fails on a broken rule" sh -c "! '$PROMTOOL' test rules '$TMPD/broken/rngaudit.rules.test.yml' >/dev/null 2>&1"
tap_done
