#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# prom_check.sh - `promtool check metrics` passes both Prometheus textfiles
# the tool writes with no warning (issue 18): the audit's (--prom), with a
# passing raw source (entropy credit), a failing one, a failing CPU RNG
# stand-in on a trusting kernel (word checks, underflows, a recommendation)
# and an unavailable one, and health --follow's.  promtool comes with
# Debian's prometheus package (scripts/install-deps.sh); without it the
# test skips.  PROMTOOL= (empty) skips too, as configure leaves it.
. "${top_srcdir:-.}/tests/tap.sh"
PROMTOOL=${PROMTOOL-$(command -v promtool)}
if [ -z "$PROMTOOL" ]; then
	echo "1..0 # SKIP promtool not installed (Debian: apt-get install prometheus)"
	exit 0
fi
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"

# promtool check metrics FILE: exit 0 and not a line of output (a lint
# problem is a line naming the metric, with exit 3).
promcheck() {
	"$PROMTOOL" check metrics <"$1" >"$TMPD/lint" 2>&1 && test ! -s "$TMPD/lint"
}
families() { grep -c '^# TYPE ' "$1"; }

expect_exit 2 "audit: a passing, two failing and an unavailable source (exit 2: a device asked for is missing)" \
	ra audit --source 'sim:ideal,sim:biased,p=0.3,sim:amd-rdrand-ffffffff,as=rdrand,hwrng:device=/nonexistent' \
	-n 50000 --sysroot "$top_srcdir/tests/data/sysroot/zen5-rdseed" --prom "$TMPD/audit.prom"
check "audit textfile: promtool check metrics, no warning" promcheck "$TMPD/audit.prom"
sed 's/^/# /' "$TMPD/lint"
# every family is there, so promtool saw each name: 20 (rngaudit-audit(1))
check "audit textfile: all 20 families written" test "$(families "$TMPD/audit.prom")" -eq 20
check "audit textfile: rngaudit_build_info names the version and the policy file" \
	grep -q "^rngaudit_build_info{version=\"[^\"]*\",policy=\"[^\"]*policy.default\"} 1\$" "$TMPD/audit.prom"
check "audit textfile: the unavailable source is in it" \
	grep -q '^rngaudit_verdict{source="hwrng:device=/nonexistent",status="unavailable"} 1$' "$TMPD/audit.prom"
check "audit textfile: no empty label value" sh -c "! grep -q '=\"\"' '$TMPD/audit.prom'"
check "audit textfile: no negative zero" sh -c "! grep -Eq ' -0(\.0*)?$' '$TMPD/audit.prom'"

# health --follow: -n ends it after the samples (no signal, no timing); the
# last interval's file stays.  A word-checked source adds the words test.
expect_exit 0 "health --follow on sim:ideal with --prom" \
	ra health --source sim:ideal --follow --interval 0.01 -n 300000 --prom "$TMPD/follow.prom"
check "follow textfile: promtool check metrics, no warning" promcheck "$TMPD/follow.prom"
sed 's/^/# /' "$TMPD/lint"
check "follow textfile: all 9 families written" test "$(families "$TMPD/follow.prom")" -eq 9
check "follow textfile: rngaudit_build_info names the source, the version and the policy file" \
	grep -q '^rngaudit_build_info{source="sim:ideal",version="[^"]*",policy="[^"]*"} 1$' "$TMPD/follow.prom"
expect_exit 0 "health --follow on a 64-bit-word source with --prom" \
	ra health --source 'sim:repeat-words,p=0' --follow --interval 0.01 -n 100000 --prom "$TMPD/words.prom"
check "follow textfile with word checks: promtool check metrics, no warning" promcheck "$TMPD/words.prom"
sed 's/^/# /' "$TMPD/lint"
check "follow textfile: the words test is in it" grep -q '^rngaudit_health_failures_total{source="sim:repeat-words,p=0",test="words"} ' "$TMPD/words.prom"
tap_done
