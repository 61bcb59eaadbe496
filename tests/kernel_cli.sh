#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# kernel_cli.sh - `rngaudit sources` kernel block: fixture sysroots, bad
# sysroots, symlinks out of a sysroot, and --save-sysroot then --sysroot.
. "${top_srcdir:-.}/tests/tap.sh"
SR="$top_srcdir/tests/data/sysroot"
export RNGAUDIT_QUIRKS="$top_srcdir/data/quirks.txt"

expect_exit 0 "sysroot k419: exit 0" ra sources --sysroot "$SR/k419-config-n"
check "sysroot k419: trust_cpu off by CONFIG default" grep -q 'trust_cpu  *off (CONFIG default (CONFIG_RANDOM_TRUST_CPU=n))' "$TMPD/out"
check "sysroot: the sources are not probed" grep -q 'not probed from a sysroot' "$TMPD/out"
expect_exit 0 "sysroot zen5: exit 0" ra sources --sysroot "$SR/zen5-rdseed"
check "sysroot zen5: rdseed cleared, the kernel log quoted" grep -q 'rdseed cleared (kernel log: "RDSEED32 is broken' "$TMPD/out"
check "sysroot zen5: the CPU from its cpuinfo" grep -q 'family 26 (0x1a) model 2 (0x2) stepping 1, microcode 0xb002147' "$TMPD/out"
RNGAUDIT_SYSROOT="$SR/k510-trust-off" ra sources >"$TMPD/out" 2>&1
check "RNGAUDIT_SYSROOT: read like --sysroot" grep -q 'trust_cpu  *off (command line: random.trust_cpu=off)' "$TMPD/out"
expect_exit 0 "sysroot empty: exit 0, nothing fails" ra sources --sysroot "$SR/empty"
check "sysroot empty: trust unknown" grep -q 'trust_cpu  *unknown' "$TMPD/out"
expect_exit 0 "sysroot malformed: exit 0, nothing fails" ra sources --sysroot "$SR/malformed"
check "sysroot malformed: quality 'abc' named" grep -q "not a number: 'abc'" "$TMPD/out"

# Without the kernel log, the quirk table explains the missing RDSEED.
cp -R "$SR/zen5-rdseed" "$TMPD/zen5-nolog"
chmod -R u+w "$TMPD/zen5-nolog"
rm -f "$TMPD/zen5-nolog/dmesg.txt"
expect_exit 0 "zen5 without dmesg.txt: exit 0" ra sources --sysroot "$TMPD/zen5-nolog"
check "zen5 without dmesg.txt: rdseed cleared, the quirk named" \
	grep -q 'rdseed cleared (quirk amd-zen5-rdseed matches this CPU and microcode)' "$TMPD/out"

expect_exit 2 "missing sysroot: exit 2" ra sources --sysroot "$TMPD/nope"
check "missing sysroot: one line naming it" one_line_error "$TMPD/nope"
: >"$TMPD/file"
expect_exit 2 "sysroot not a directory: exit 2" ra sources --sysroot "$TMPD/file"
check "sysroot not a directory: one line saying so" one_line_error "not a directory"

# Symlinks that leave the sysroot are refused, never followed.
cp -R "$SR/current-default" "$TMPD/esc"
chmod -R u+w "$TMPD/esc"
rm -f "$TMPD/esc/sys/class/misc/hw_random/rng_quality"
ln -s /proc/sys/kernel/random/poolsize "$TMPD/esc/sys/class/misc/hw_random/rng_quality"
ln -s ../../../../../../../../etc/passwd "$TMPD/esc/dmesg.txt"
expect_exit 0 "escaping symlinks: exit 0" ra sources --sysroot "$TMPD/esc"
check "escaping symlink: the kernel log is refused" grep -q "dmesg.txt: a symlink or '..' that leaves the sysroot" "$TMPD/out"
check "escaping symlink: rng_quality not read from outside" grep -q "rng_quality: a symlink or '..' that leaves the sysroot" "$TMPD/out"

# --save-sysroot then --sysroot gives the live kernel block back, except
# the live-only items (CRNG probe, CPUID evidence, the varying entropy count).
block() { sed -n '/^kernel rng/,/^$/p' | grep -v -e '^kernel rng' -e 'crng initialised' -e 'entropy_avail' -e '^$' |
	sed -e 's/; CPUID hypervisor[^)]*)/)/' -e '/hidden (kernel or hypervisor: CPUID/d'; }
expect_exit 0 "save-sysroot: exit 0" ra sources --save-sysroot "$TMPD/bundle"
check "save-sysroot: the bundle has the command line and osrelease" test -s "$TMPD/bundle/proc/cmdline" -a -s "$TMPD/bundle/proc/sys/kernel/osrelease"
ra sources | block >"$TMPD/live"
ra sources --sysroot "$TMPD/bundle" | block >"$TMPD/saved"
if grep -q 'kernel log unreadable' "$TMPD/live"; then
	grep -v 'cpu rng flags' "$TMPD/live" >"$TMPD/l2"; grep -v 'cpu rng flags' "$TMPD/saved" >"$TMPD/s2"
	mv "$TMPD/l2" "$TMPD/live"; mv "$TMPD/s2" "$TMPD/saved"
fi
check "save-sysroot then --sysroot: the same kernel block" cmp -s "$TMPD/live" "$TMPD/saved"
cmp -s "$TMPD/live" "$TMPD/saved" || diff "$TMPD/live" "$TMPD/saved" | sed 's/^/# /'
expect_exit 2 "--save-sysroot with --sysroot: usage error" ra sources --save-sysroot "$TMPD/b2" --sysroot "$SR/empty"
tap_done
