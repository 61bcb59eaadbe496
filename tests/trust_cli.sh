#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# trust_cli.sh - the kernel-trust recommendation end to end: a failing CPU
# RNG (simulated, as=rdrand) on a trusting kernel, a passing one on a
# distrusting kernel, and the reports that carry the decision.
. "${top_srcdir:-.}/tests/tap.sh"
SR="$top_srcdir/tests/data/sysroot"
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
BAD='sim:amd-rdrand-ffffffff,as=rdrand'

expect_exit 1 "failing as=rdrand on a trusting kernel: exit 1" \
	ra audit --source "$BAD" -n 20000 --sysroot "$SR/zen5-rdseed" --csv "$TMPD/bad.csv" \
	--prom "$TMPD/bad.prom" --junit "$TMPD/bad.xml"
check "text: a Kernel trust section" grep -q '^Kernel trust (sysroot ' "$TMPD/out"
check "text: recommends random.trust_cpu=off, marked simulated" \
	grep -q "^  $BAD \[simulated rdrand\]: recommend random.trust_cpu=off\. RDRAND failed" "$TMPD/out"
check "text: the bootloader seed is reported, not judged" grep -q 'bootloader seed: random.trust_bootloader on .*recommends nothing' "$TMPD/out"
check "CSV: the schema column after the kernel's" sh -c "head -1 '$TMPD/bad.csv' | grep -q ',recommendation,recommendation_reason,schema,credit_status,'"
check "CSV: bare kernel values and the recommendation" \
	grep -q '"6.18.2-arch1-1",true,"command line",true,"rdseed",false,1024,,"random.trust_cpu=off","RDRAND failed' "$TMPD/bad.csv"
check "CSV: schema 5 after the recommendation's reason, then credit_status" \
	sh -c "sed -n 2p '$TMPD/bad.csv' | grep -q 'RDRAND failed[^\"]*\",5,\"none\",'"
check "Prometheus: rngaudit_kernel_trust_cpu 1" grep -qx 'rngaudit_kernel_trust_cpu 1' "$TMPD/bad.prom"
check "Prometheus: hwrng quality 1024/1024 as a ratio" grep -qx 'rngaudit_kernel_hwrng_quality_ratio 1' "$TMPD/bad.prom"
check "Prometheus: recommendation change 1" \
	grep -q '^rngaudit_recommendation_change{source=".*as=rdrand",recommendation="random.trust_cpu=off"} 1$' "$TMPD/bad.prom"
check "JUnit: kernel-trust fails for the credited failed source" \
	sh -c "grep -A1 'name=\"kernel-trust\"' '$TMPD/bad.xml' | grep -q 'type=\"KERNEL_TRUST\"'"
if [ -n "${XMLLINT:-}" ]; then
	check "JUnit: well-formed" "$XMLLINT" --noout "$TMPD/bad.xml"
else
	skip "xmllint not installed"
fi

expect_exit 0 "passing as=rdrand on a distrusting kernel: exit 0" \
	ra audit --source sim:ideal,as=rdrand -n 20000 --sysroot "$SR/k510-trust-off" --csv "$TMPD/ok.csv" --prom "$TMPD/ok.prom"
check "text: nothing to change" grep -q '^  sim:ideal,as=rdrand \[simulated rdrand\]: no change\. RDRAND passed' "$TMPD/out"
check "CSV: empty recommendation" grep -q ',false,"command line",true,"",false,700,,"",' "$TMPD/ok.csv"
check "Prometheus: no change, trust_cpu 0" sh -c "grep -qx 'rngaudit_kernel_trust_cpu 0' '$TMPD/ok.prom' &&
	grep -q '^rngaudit_recommendation_change{source=\"sim:ideal,as=rdrand\",recommendation=\"none\"} 0\$' '$TMPD/ok.prom'"

printf 'trust_cpu_on_pass = recommend-off\n' >"$TMPD/distrust.policy"
expect_exit 0 "policy recommend-off: a pass on a trusting kernel still exits 0" \
	ra audit --source sim:ideal,as=rdrand -n 20000 --sysroot "$SR/current-default" --policy "$TMPD/distrust.policy"
check "policy recommend-off: recommends random.trust_cpu=off on a pass" \
	grep -q 'as=rdrand \[simulated rdrand\]: recommend random.trust_cpu=off\. .*distrusts the CPU RNG on principle' "$TMPD/out"
check "guest: the host is named" grep -q 'This is a guest: RDRAND belongs to the host' "$TMPD/out"
printf 'trust_cpu_on_pass = sometimes\n' >"$TMPD/bad.policy"
expect_exit 2 "policy: a bad trust_cpu_on_pass is a usage error" ra audit --source sim:ideal -n 2000 --policy "$TMPD/bad.policy"
check "policy: one line naming the value" one_line_error "trust_cpu_on_pass: 'sometimes'"

# The fleet: this version's CSV beside a schema-1 CSV (59 columns) from a
# host not yet upgraded.
V1="$top_srcdir/tests/data/merge/v1-host.csv"
expect_exit 0 "report merge: schema 2 and schema 1 together" ra report merge "$TMPD/bad.csv" "$TMPD/ok.csv" "$V1" -o "$TMPD/fleet.csv"
check "merge: header with the kernel key and decisions" \
	grep -q '^cpu_vendor,cpu_family,cpu_model,microcode,virtualized,kernel_release,source,hosts,.*,trust_cpu_hosts,trust_cpu_failed,recommendation' "$TMPD/fleet.csv"
check "merge: the failing group trusts, failed, and keeps its recommendation" \
	grep -q ',false,"6.18.2-arch1-1","sim:amd-rdrand-ffffffff,as=rdrand",1,1,0,0,1,0,0,0,1,1,"random.trust_cpu=off"' "$TMPD/fleet.csv"
check "merge: the distrusting kernel's group: no host trusts, nothing to change" \
	grep -q ',false,"5.10.0-28-amd64","sim:ideal,as=rdrand",1,1,1,0,0,0,.*,0,0,""' "$TMPD/fleet.csv"
check "merge: the schema-1 host is its own group, guest unknown (empty)" grep -q '",,"6.18.44-fc-v1252","sim:ideal,as=rdrand",1,1,1' "$TMPD/fleet.csv"
# A schema-2 CSV (70 columns, "none" in entropy_credit) from a host one release behind.
V2="$top_srcdir/tests/data/merge/v2-host.csv"
expect_exit 0 "report merge: schemas 3, 2 and 1 together" ra report merge "$TMPD/ok.csv" "$V2" "$V1" -o "$TMPD/fleet3.csv"
check "merge: the schema-2 host's failed source is a group of its own" \
	grep -q ',true,"6.18.44-fc-v1252","sim:biased,p=0.3,as=rdseed",1,1,0,0,1,0,1.594' "$TMPD/fleet3.csv"
expect_exit 0 "report merge --format text" ra report merge --format text "$TMPD/bad.csv" "$TMPD/ok.csv" "$V1"
check "merge text: one line per group, the recommendation last" \
	grep -q '^AuthenticAMD .*sim:amd-rdrand-ffffffff,as=rdrand *1 *0 *0 *1 *0 *1 *1  random.trust_cpu=off$' "$TMPD/out"
check "merge text: says what CREDITED and FAILED count" grep -q '^CREDITED: hosts whose kernel credits this source as entropy' "$TMPD/out"
expect_exit 2 "report merge --format xml: usage error" ra report merge --format xml "$V1"

expect_exit 2 "sim as=bogus: exit 2" ra audit --source sim:ideal,as=bogus -n 2000
check "sim as=bogus: the error names it" grep -q "as=bogus is not rdrand, rdseed, hwrng, rndr, rndrrs, darn, trng or seed" "$TMPD/err"
expect_exit 2 "audit --sysroot missing: exit 2" ra audit --source sim:ideal -n 2000 --sysroot "$TMPD/none"
check "audit --sysroot missing: one line naming it" one_line_error "$TMPD/none"
tap_done
