#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# kfacts_cli.sh - issue 23: every statement the audit makes about a kernel is
# true for that kernel's version.  One fixture sysroot per fact (real kernel
# log lines and command lines; tests/data/sysroot/), audited end to end with
# simulated stand-ins for the CPU RNG and the hwrng (as=): a failing CPU RNG
# on every kernel that still credits it gets random.trust_cpu=off and exit 1;
# a kernel that already cleared the flag gets "nothing to change in the
# kernel" and still exit 1 (the hardware is faulty).
. "${top_srcdir:-.}/tests/tap.sh"
SR="$top_srcdir/tests/data/sysroot"
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"
BAD='sim:amd-rdrand-ffffffff,as=rdrand'
BADSEED='sim:rdseed-zero,p=0.1,as=rdseed'

# field CSV ROW COLUMN: one field of an audit CSV by column name
field() { python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
print(r[int(sys.argv[2]) - 1][sys.argv[3]])' "$@"; }

# audit_fix FIXTURE SOURCE: audits SOURCE against the fixture's kernel
# into $TMPD/FIXTURE.csv (text in $TMPD/out); returns the exit status
audit_fix() { ra audit --sysroot "$SR/$1" --source "$2" -n 20000 --csv "$TMPD/$1.csv"; }
# has_reason FIXTURE ROW CODE: the row's reasons name CODE
has_reason() { field "$TMPD/$1.csv" "$2" reasons | grep -q "$3"; }

# --- RDRAND warned, not cleared (7879fc4bdc75, 5.5-5.19) on Debian 11 ---
expect_exit 1 "5.10 funky-smelling warning, failing RDRAND: exit 1" audit_fix k510-rdrand-funky "$BAD"
check "5.10 warning: recommend random.trust_cpu=off nordrand (nordrand until 6.0)" \
	grep -q 'recommend random.trust_cpu=off nordrand\. .*warned about RDRAND, but a warning leaves it in use and credited' "$TMPD/out"
check "5.10 warning: CSV says warned, not cleared" \
	test "$(field "$TMPD/k510-rdrand-funky.csv" 1 kernel_cpu_flags_warned)/$(field "$TMPD/k510-rdrand-funky.csv" 1 kernel_cpu_flags_cleared)" = "rdrand/"
check "5.10 warning: the kernel still credits RDRAND" test "$(field "$TMPD/k510-rdrand-funky.csv" 1 kernel_credits)" = true
check "5.10.209: the sublevel from /proc/version's Debian package version" \
	test "$(field "$TMPD/k510-rdrand-funky.csv" 1 kernel_version)" = 5.10.209
check "5.10.209: where it came from" grep -q 'Debian 5.10.209-2' "$TMPD/k510-rdrand-funky.csv"

# --- the 6.0 self-test cleared RDRAND and RDSEED (049f9ae93d03) ---
for f in k61-rdrand-disabled k612-rdrand-disabled; do
	expect_exit 1 "$f: failing RDRAND the kernel cleared: still exit 1 (faulty hardware)" audit_fix $f "$BAD"
	check "$f: nothing to change in the kernel" grep -q 'no change\. The kernel cleared RDRAND .*nothing to change in the kernel for RDRAND\. RDRAND failed its audit all the same' "$TMPD/out"
	check "$f: CSV: cleared rdrand rdseed, not credited, no recommendation" \
		test "$(field "$TMPD/$f.csv" 1 kernel_cpu_flags_cleared)/$(field "$TMPD/$f.csv" 1 kernel_credits)/$(field "$TMPD/$f.csv" 1 recommendation)" = "rdrand rdseed/false/"
done

# --- AMD Cyan Skillfish (5b937a1ed64e, 6.16): RDSEED cleared, RDRAND stands alone ---
expect_exit 1 "Cyan Skillfish: failing RDSEED: exit 1" audit_fix k616-cyan-skillfish "$BADSEED,sim:ideal,as=rdrand"
check "Cyan Skillfish: the quirk table names the part (stand-in through the quirk table)" \
	has_reason k616-cyan-skillfish 1 'QUIRK:amd-cyan-skillfish-rdseed'
check "Cyan Skillfish: RDSEED cleared, nothing to change in the kernel" \
	grep -q 'as=rdseed \[simulated rdseed\]: no change\. The kernel cleared RDSEED (rdseed cleared (kernel log: "RDSEED is not reliable on this platform; disabling\.", 5b937a1ed64e' "$TMPD/out"
check "Cyan Skillfish: RDRAND is still credited at boot (its decision stands on its own)" \
	test "$(field "$TMPD/k616-cyan-skillfish.csv" 2 kernel_credits)" = true

# --- AMD 15h/16h after-suspend check (c49a0a80137c, 5.3) ---
expect_exit 1 "15h hidden: failing RDRAND: exit 1" audit_fix k510-fam15h-hidden "$BAD"
check "15h hidden: RDRAND cleared and hidden from user CPUID: nothing to change" \
	grep -q 'The kernel cleared RDRAND (.*also hidden from user CPUID on bare metal.*nothing to change in the kernel' "$TMPD/out"
check "15h hidden: the quirk advisory" has_reason k510-fam15h-hidden 1 'QUIRK:amd-fam15h16h-rdrand-resume'
expect_exit 1 "15h in a VM that ignores the MSR: exit 1" audit_fix k510-fam15h-vm "$BAD"
check "15h in a VM: a warning, RDRAND stays credited: trust_cpu=off nordrand" \
	grep -q 'recommend random.trust_cpu=off nordrand\.' "$TMPD/out"

# --- clearcpuid=rdrand: a name ignored before 5.19 (1625c833db93) ---
expect_exit 1 "5.10 clearcpuid=rdrand: exit 1" audit_fix k510-clearcpuid-name "$BAD"
check "5.10 clearcpuid=rdrand (a name, not read): RDRAND credited, recommend off" \
	grep -q 'recommend random.trust_cpu=off nordrand\.' "$TMPD/out"
expect_exit 1 "6.1 clearcpuid=rdrand: exit 1" audit_fix k61-clearcpuid-name "$BAD"
check "6.1 clearcpuid=rdrand: cleared by the command line, nothing to change" \
	grep -q 'The kernel cleared RDRAND (rdrand cleared (command line clearcpuid=rdrand; user CPUID keeps it)).*nothing to change in the kernel' "$TMPD/out"

# --- booleans by version: t/f since 5.19, e/d since 6.16 ---
expect_exit 1 "6.12 random.trust_cpu=false: exit 1" audit_fix k612-trust-false "$BAD"
check "6.12 random.trust_cpu=false: trust off, keep it so" \
	grep -q 'the kernel already does not credit the CPU RNG (trust_cpu off: command line: random.trust_cpu=false)' "$TMPD/out"
expect_exit 1 "5.15 random.trust_cpu=false: exit 1" audit_fix k515-trust-false "$BAD"
check "5.15 random.trust_cpu=false is ignored: the CONFIG default credits RDRAND: recommend off" \
	grep -q 'recommend random.trust_cpu=off nordrand\..*CONFIG_RANDOM_TRUST_CPU=y); random.trust_cpu=false is not a boolean this kernel accepts' "$TMPD/out"
check "5.15.131 from Ubuntu's version_signature" test "$(field "$TMPD/k515-trust-false.csv" 1 kernel_version)" = 5.15.131
ra sources --sysroot "$SR/k612-bootloader-disabled" >"$TMPD/out" 2>&1
check "6.12 random.trust_bootloader=disabled: ignored, on by default" \
	grep -q '^  trust_bootloader  on (kernel default since 6.2 (b9b01a5625b5); random.trust_bootloader=disabled is not a boolean this kernel accepts' "$TMPD/out"
ra sources --sysroot "$SR/k616-bootloader-disabled" >"$TMPD/out" 2>&1
check "6.16 random.trust_bootloader=disabled: off" grep -q '^  trust_bootloader  off (command line: random.trust_bootloader=disabled)' "$TMPD/out"
ra sources --sysroot "$SR/k612-trust-off-disabled" >"$TMPD/out" 2>&1
check "6.12 trust_cpu=off then =disabled: the last accepted (off) stays" \
	grep -q '^  trust_cpu         off (command line: random.trust_cpu=off (a later disabled is not a boolean' "$TMPD/out"

# --- after "--": init's, not the kernel's ---
expect_exit 1 "6.12 -- random.trust_cpu=off: exit 1" audit_fix k612-after-dashes "$BAD"
check "-- random.trust_cpu=off is init's: trust stays on, recommend off" \
	grep -q 'recommend random.trust_cpu=off\. .*kernel default since 6.2 (b9b01a5625b5); random.trust_cpu after "--" goes to init' "$TMPD/out"

# --- the 2022 stable backport, by sublevel ---
ra sources --sysroot "$SR/k510-209-bootloader-off" >"$TMPD/out" 2>&1
check "5.10.209 reads random.trust_bootloader= (5.10.119 backport)" grep -q '^  trust_bootloader  off (command line' "$TMPD/out"
check "5.10.209: entropy_avail fixed at 256 once seeded" grep -q '^  entropy_avail     256 (fixed at 256 once the CRNG is seeded' "$TMPD/out"
ra sources --sysroot "$SR/k510-84-bootloader-off" >"$TMPD/out" 2>&1
check "5.10.84 ignores it" grep -q '^  trust_bootloader  on (CONFIG default .*random.trust_bootloader= is ignored by 5.10' "$TMPD/out"
check "5.10.84: entropy_avail is still an estimate" grep -q '^  entropy_avail     3812 (the input pool.s entropy estimate' "$TMPD/out"
ra sources --sysroot "$SR/k514-rhel" >"$TMPD/out" 2>&1
check "RHEL 5.14 (.el9_3): the sublevel cannot be known" grep -q '^  version           5.14 (the release 5.14.0-362.8.1.el9_3.x86_64 (its sublevel is not in it' "$TMPD/out"
check "RHEL 5.14: random.trust_bootloader= is unknown, not guessed" grep -q '^  trust_bootloader  unknown' "$TMPD/out"

# --- hwrng before 5.18: current_quality, drivers' own qualities ---
ra sources --sysroot "$SR/k510-hwrng-default-only" >"$TMPD/out" 2>&1
check "5.10 virtio-rng, only default_quality 0 readable: its own 1000, not 0" \
	grep -q '^  hwrng             virtio_rng.0, credit 1000/1024 (the driver.s own' "$TMPD/out"
audit_fix k510-trng-pre518 'sim:biased,p=0.2,as=hwrng' >"$TMPD/out" 2>"$TMPD/err"
check "5.10 raw hwrng credited 1024, assessed lower: current_quality (a sysfs knob before 5.18)" \
	grep -q 'recommend current_quality=[0-9]*\. .*current_quality is a sysfs knob, not a boot parameter' "$TMPD/out"
check "5.10 hwrng: says the credit counts only until the CRNG is seeded (e85c0fc1d94c)" \
	grep -q 'counts only until the CRNG is first seeded (e85c0fc1d94c)' "$TMPD/out"

# --- an honest hwrng is not cut for the estimators' bias (item 3) ---
# sim:ideal reads about 7.0-7.4 bits at 10^6 8-bit samples; 0.1.0 recommended
# rng_core.default_quality=903 for it on a kernel crediting 1024/1024
ra audit --sysroot "$SR/k618-trng" --source 'sim:ideal,as=hwrng' -n 1000000 --csv "$TMPD/ideal.csv" >"$TMPD/out" 2>"$TMPD/err"
ok $? "ideal 8-bit hwrng at 10^6 samples, credited 1024/1024: the audit passes"
check "ideal hwrng: no recommendation, the bias named, an ideal source's figure beside this one's" \
	grep -q 'as=hwrng \[simulated hwrng\]: no change\. .*the gap is the estimators. bias, not evidence: nothing to change\. An ideal 8-bit source of 1000000 samples scores at least' "$TMPD/out"
check "ideal hwrng: CSV: no recommendation, ideal_h_low below h_assessed" \
	awk -v r="$(field "$TMPD/ideal.csv" 1 recommendation)" -v lo="$(field "$TMPD/ideal.csv" 1 ideal_h_low)" \
	-v h="$(field "$TMPD/ideal.csv" 1 h_assessed)" 'BEGIN { exit !(r == "" && lo > 5 && lo < h) }'
check "ideal hwrng: the IDEAL_BASELINE reason" has_reason ideal 1 IDEAL_BASELINE
audit_fix k618-trng 'sim:biased,p=0.05,as=hwrng' >"$TMPD/out" 2>"$TMPD/err"
check "a biased hwrng (below an ideal source): the cut, 6.18's rng_core.default_quality" \
	grep -q 'recommend rng_core.default_quality=[0-9]*\. .*scores below what an ideal one does' "$TMPD/out"

# --- Zen 6 is not Zen 5 ---
audit_fix k618-zen6 'sim:rdseed-zero,p=0.0001,as=rdseed' >"$TMPD/out" 2>"$TMPD/err"
check "Zen 6 (family 1Ah model 50h): no Zen 5 RDSEED advisory" test -z "$(field "$TMPD/k618-zen6.csv" 1 reasons | grep 'QUIRK:amd-zen5')"
audit_fix zen5-rdseed 'sim:rdseed-zero,p=0.0001,as=rdseed' >"$TMPD/out" 2>"$TMPD/err"
check "Zen 5 below the fixed microcode: the stand-in meets the quirk table as rdseed" has_reason zen5-rdseed 1 'QUIRK:amd-zen5-rdseed'

# --- odd release strings: never a crash, never a confident wrong answer ---
for rel in 5.15.0-91-generic 6.12.9+deb13-amd64 5.14.0-427.13.1.el9_4.x86_64 6.6.7-arch1-1 'linux' '' '6.' 99999999.1; do
	d="$TMPD/rel"; rm -rf "$d"; mkdir -p "$d/proc/sys/kernel"; printf '%s\n' "$rel" >"$d/proc/sys/kernel/osrelease"
	printf 'ro random.trust_bootloader=true\n' >"$d/proc/cmdline"
	expect_exit 0 "release '$rel': sources exits 0" ra sources --sysroot "$d"
done
check "an unparsable release: trust_bootloader unknown" grep -q '^  trust_bootloader  unknown' "$TMPD/out"
tap_done
