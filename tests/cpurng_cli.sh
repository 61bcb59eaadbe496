#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cpurng_cli.sh - the CPU RNGs of arm64, POWER, s390x and RISC-V end to end
# (issue 27): listed by `sources` everywhere, refused in one line (exit 2,
# never SIGILL) where the architecture lacks them, the failure paths of the
# sim stand-ins through collect, and what each architecture's kernel seeds
# from, read from the sysroot fixtures.
. "${top_srcdir:-.}/tests/tap.sh"
SR="$top_srcdir/tests/data/sysroot"
machine=$(uname -m)

expect_exit 0 "sources: exit 0" ra sources
for s in rndr rndrrs darn trng seed; do
	check "sources lists $s" grep -Eq "^$s +(available|unavailable) +cpu" "$TMPD/out"
done
check "sources: rndrrs says what it is" grep -q 'reseeded from the entropy source on every read' "$TMPD/out"
check "sources: a cpu rng block names what the kernel seeds from" grep -q '^cpu rng (' "$TMPD/out"

# Bad input: a source of another architecture, named explicitly
case $machine in
aarch64) skip "rndr is this machine's own (aarch64)" ;;
*)
	expect_exit 2 "collect --source rndr on $machine: exit 2" ra collect --source rndr -n 10 -o -
	check "one line: 'rndr: not available on $machine'" one_line_error "rndr: not available on $machine"
	expect_exit 2 "audit --source rndr on $machine: exit 2" ra audit --source rndr -n 1000
	check "audit names it: 'rndr: not available on $machine'" grep -q "rndr: not available on $machine" "$TMPD/err" ;;
esac
case $machine in
s390x) skip "trng is this machine's own (s390x)" ;;
*)
	expect_exit 2 "collect --source trng:raw on $machine: exit 2" ra collect --source trng:raw -n 10 -o -
	check "one line: 'trng: not available on $machine'" one_line_error "trng: not available on $machine" ;;
esac
expect_exit 2 "darn:mode=3 is a usage error" ra collect --source darn:mode=3 -n 10 -o -
check "one line naming mode=3" one_line_error "mode=3"

# The failure paths through the stand-ins (the same decoders and loop)
ra collect --source sim:rndr,fail=0.5 -n 80000 -o - >"$TMPD/rndr.bin" 2>"$TMPD/err"
ok $? "collect sim:rndr,fail=0.5: exit 0 (failures are retried)"
check "80000 bytes written, none of the failed reads' zeros" test "$(wc -c <"$TMPD/rndr.bin")" -eq 80000
check "the summary counts the failed reads" grep -Eq 'underflows \(CF=0\) [1-9][0-9]*' "$TMPD/err"
check "no all-zero 64-bit word" grep -q '64-bit words all zeros: 0,' "$TMPD/err"
expect_exit 2 "collect sim:darn,mode=1,fail=1: exit 2" ra collect --source sim:darn,mode=1,fail=1 -n 100 -o -
check "one line: 10 consecutive failed reads, the all-ones error value" \
	one_line_error "10 consecutive failed reads of simulated darn (all-ones error value)"
expect_exit 1 "collect sim:darn,mode=0,ones=1: the valid 0xFFFFFFFF samples fail the word checks (exit 1)" \
	ra collect --source sim:darn,mode=0,ones=1 -n 4000 -o "$TMPD/ones.bin"
check "4000 bytes of 0xff written (valid L=0 samples are emitted)" \
	sh -c "[ \$(tr -d '\377' <'$TMPD/ones.bin' | wc -c) -eq 0 ] && [ \$(wc -c <'$TMPD/ones.bin') -eq 4000 ]"
expect_exit 2 "collect sim:trng,query=missing: exit 2" ra collect --source sim:trng,query=missing -n 10 -o -
check "one line: CPU lacks the TRNG function" one_line_error "CPU lacks the TRNG function (PRNO query: function 114"
expect_exit 2 "collect sim:seed,dead=10: exit 2 (DEAD)" ra collect --source sim:seed,dead=10 -n 1000 -o "$TMPD/seed.bin"
check "the error says the seed CSR is DEAD: an unrecoverable failure" \
	grep -q "^rngaudit collect: sim:seed,dead=10: simulated seed reports an unrecoverable failure$" "$TMPD/err"
check "what came before is kept: 10 words, 20 bytes" test "$(wc -c <"$TMPD/seed.bin")" -eq 20

# What each architecture's kernel seeds from (sysroot fixtures)
expect_exit 0 "sources --sysroot arm64-smccc-trust-off" ra sources --sysroot "$SR/arm64-smccc-trust-off"
check "arm64: seed from the SMCCC TRNG, then RNDRRS" \
	grep -q '^  seed  *SMCCC TRNG firmware call (rng_available lists smccc_trng), then RNDRRS' "$TMPD/out"
check "arm64: longs from RNDR" grep -q '^  longs  *RNDR$' "$TMPD/out"
check "arm64: trust_cpu off from its command line" grep -q 'trust_cpu  *off (command line: random.trust_cpu=off)' "$TMPD/out"
check "arm64: random.trust_cpu governs the boot credit" grep -q '^  boot credit  *governed by random.trust_cpu' "$TMPD/out"
expect_exit 0 "sources --sysroot ppc64le-pseries" ra sources --sysroot "$SR/ppc64le-pseries"
check "pseries: seed from H_RANDOM" grep -q '^  seed  *the H_RANDOM hypercall' "$TMPD/out"
expect_exit 0 "sources --sysroot ppc64le-powernv-p9" ra sources --sysroot "$SR/ppc64le-powernv-p9"
check "powernv POWER9: seed from darn L=1, audit with darn" \
	sh -c "grep -q '^  seed  *darn L=1' '$TMPD/out' && grep -q '^  audit with  *darn' '$TMPD/out'"
expect_exit 0 "sources --sysroot s390x-z15" ra sources --sysroot "$SR/s390x-z15"
check "s390x z15: seed from PRNO-TRNG" grep -q '^  seed  *PRNO-TRNG (CPACF function 114: machine type 8561)' "$TMPD/out"
expect_exit 0 "sources --sysroot riscv64-zkr" ra sources --sysroot "$SR/riscv64-zkr"
check "riscv64: seed CSR, out of user space's reach" \
	sh -c "grep -q '^  seed  *the seed CSR' '$TMPD/out' && grep -q '^  audit with  *nothing reachable' '$TMPD/out'"

# The trust decision: a failing stand-in for trng on a trusting s390x kernel
expect_exit 1 "audit sim darn standing in for trng on s390x-z15 (trust_cpu=1): exit 1" \
	ra audit --source sim:darn,mode=0,ones=0.5,as=trng -n 20000 --sysroot "$SR/s390x-z15"
check "recommends random.trust_cpu=off for PRNO-TRNG" \
	grep -q 'as=trng \[simulated trng\]: recommend random.trust_cpu=off\. The kernel seeds from the CPACF TRNG' "$TMPD/out"
check "and says PRNO-TRNG failed" grep -q 'PRNO-TRNG failed the audit' "$TMPD/out"
expect_exit 0 "audit a passing rndrrs stand-in on arm64 with trust_cpu off: exit 0" \
	ra audit --source sim:rndrrs,as=rndrrs -n 20000 --sysroot "$SR/arm64-smccc-trust-off"
check "no change, and the firmware TRNG is named" \
	grep -q 'as=rndrrs \[simulated rndrrs\]: no change\. The kernel prefers the firmware.s TRNG' "$TMPD/out"
tap_done
