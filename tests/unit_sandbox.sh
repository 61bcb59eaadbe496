#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# unit_sandbox.sh - the units' sandboxes against the sources they claim to
# support (issue 25 item 2).
#
# 1. What systemd makes of each unit with its drop-ins: the device list
#    (DeviceAllow=), netlink and the kernel log, read from
#    `systemd-analyze security --offline` on the unit files laid out as the
#    package installs them.
# 2. The device lists at work: each claimed source the machine has runs in a
#    devices cgroup (cgroup v1, what systemd's DevicePolicy=closed sets up)
#    that allows exactly the unit's list plus systemd's fixed set
#    (/dev/null, zero, full, random, urandom, tty, ptmx); a device outside
#    the list is refused with one line naming the device and the
#    DeviceAllow= it needs, exit 2, at journal priority err.  The audit's
#    kernel log: as an unprivileged user with the unit's one capability
#    (CAP_SYSLOG) it reads /dev/kmsg, without it not.
# Part 2 needs root and the v1 devices controller (it makes a cgroup under
# /sys/fs/cgroup/devices and removes it at the end); it skips elsewhere.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
gen="${top_builddir:-.}/data/systemd"
src="$top_srcdir/data/systemd"
SA=${SYSTEMD_ANALYZE:-}

# The units as installed: lib/systemd/system under a root directory.
root="$TMPD/root"
sys="$root/lib/systemd/system"
ck0='rngaudit-health@hwrng:device\x3d-dev-chaoskey0.service'
mkdir -p "$sys/$ck0.d" "$root/etc/systemd/system"
cp "$gen/rngaudit-health@.service" "$gen/rngaudit-audit.service" "$src/rngaudit-audit.timer" "$sys/"
cp "$src/health-chaoskey0.conf" "$sys/$ck0.d/chaoskey0.conf"
check "the ChaosKey drop-in's instance is systemd-escape's of hwrng:device=/dev/chaoskey0" \
	sh -c "! command -v systemd-escape >/dev/null || test \"rngaudit-health@\$(systemd-escape 'hwrng:device=/dev/chaoskey0').service\" = '$ck0'"

# security UNIT: systemd's offline review of the installed unit.
security() { (cd "$TMPD" && "$SA" security --offline=yes --root="$root" "$1") >"$TMPD/sec" 2>&1; }
# The device list as "PATH-OR-CLASS:MODE" words, sorted, one line.
devices() { sed -n 's/.*device ACL with some special devices: *//p' "$TMPD/sec" | tr ' ' '\n' | grep ':' | LC_ALL=C sort | tr '\n' ' '; }
netlink() { grep -q '✗ RestrictAddressFamilies=~AF_NETLINK' "$TMPD/sec"; }
syslogcap() { grep -q '✗ CapabilityBoundingSet=~CAP_SYSLOG' "$TMPD/sec"; }

# instance | the devices it must allow, exactly (char-rtc:r comes with
# ProtectClock=) | netlink | CAP_SYSLOG
# The health template's instances are the byte-stream sources; the audit
# runs the default list (rdrand, rdseed, hwrng, getrandom, jitter, chaoskey).
table="rngaudit-health@getrandom.service|/dev/hwrng:r char-rtc:r |no|no
rngaudit-health@rdrand.service|/dev/hwrng:r char-rtc:r |no|no
rngaudit-health@rdseed.service|/dev/hwrng:r char-rtc:r |no|no
rngaudit-health@hwrng.service|/dev/hwrng:r char-rtc:r |no|no
$ck0|/dev/chaoskey0:r /dev/hwrng:r char-rtc:r |no|no
rngaudit-audit.service|/dev/hwrng:r /dev/kmsg:r char-rtc:r char-usb_device:rw |yes|yes"
if [ -z "$SA" ] || ! [ -x "$SA" ] || ! "$SA" security --help 2>/dev/null | grep -q -- --offline; then
	skip "systemd-analyze security --offline not available: the units' device lists not read"
else
	while IFS='|' read -r unit want nl cap; do
		security "$unit"
		got=$(devices)
		test "$got" = "$want"
		ok $? "$unit: DeviceAllow= is exactly $want"
		[ "$got" = "$want" ] || echo "# got: $got"
		if [ "$nl" = yes ]; then netlink; else ! netlink; fi
		ok $? "$unit: netlink sockets $( [ "$nl" = yes ] && echo allowed || echo refused)"
		if [ "$cap" = yes ]; then syslogcap; else ! syslogcap; fi
		ok $? "$unit: CAP_SYSLOG $( [ "$cap" = yes ] && echo kept || echo dropped)"
	done <<EOF
$table
EOF
	security "$ck0"
	check "$ck0: runs only while the ChaosKey is plugged in (BindsTo=dev-chaoskey0.device)" \
		grep -qx 'BindsTo=dev-chaoskey0.device' "$sys/$ck0.d/chaoskey0.conf"
fi
check "udev: /dev/chaoskeyN tagged for systemd (dev-chaoskey0.device exists)" \
	grep -q 'KERNEL=="chaoskey\[0-9\]\*".*TAG+="systemd"' "$src/60-rngaudit.rules"

# --- 2. the device lists at work -------------------------------------------
cgv1=/sys/fs/cgroup/devices
if [ "$(id -u)" -ne 0 ] || [ ! -d "$cgv1" ]; then
	skip "not root or no cgroup v1 devices controller: the device lists not run"
	tap_done
fi
cg="$cgv1/rngaudit-test-$$"
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$TMPD"' EXIT
# "MAJOR:MINOR" of a character device node
majmin() { echo "$(($(stat -L -c '0x%t' "$1"))):$(($(stat -L -c '0x%T' "$1")))"; }
# A cgroup allowing the listed devices (PATH:MODE or char-CLASS:MODE) and
# systemd's fixed set for DevicePolicy=closed (src/core/cgroup.c).
cgroup_for() {
	rmdir "$cg" 2>/dev/null
	mkdir "$cg" && echo a >"$cg/devices.deny" || return 1
	for d in /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty /dev/ptmx; do
		[ -c "$d" ] && echo "c $(majmin "$d") rwm" >"$cg/devices.allow"
	done
	for entry in $1; do
		node=${entry%:*}; mode=${entry##*:}
		case "$node" in
		char-*)
			maj=$(awk -v n="${node#char-}" '/^Block/ {exit} $2 == n {print $1}' /proc/devices)
			[ -n "$maj" ] && echo "c $maj:* $mode" >"$cg/devices.allow" ;;
		/*)
			[ -c "$node" ] && echo "c $(majmin "$node") $mode" >"$cg/devices.allow" ;;
		esac
	done
	return 0
}
# in_cgroup COMMAND...: runs COMMAND in the cgroup
in_cgroup() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }

if ! cgroup_for "/dev/hwrng:r char-rtc:r"; then
	skip "cannot make a devices cgroup here: the device lists not run"
	tap_done
fi
check "devices cgroup: the unit's list and systemd's fixed set" grep -q '^c 1:3 rwm$' "$cg/devices.list"
# the health template's sources that need no device, and hwrng: run where
# the machine has them (sources says available)
"$RNGAUDIT" sources >"$TMPD/sources" 2>&1
for s in getrandom rdrand rdseed hwrng; do
	if ! grep -q "^$s  *available" "$TMPD/sources"; then
		skip "rngaudit-health@$s: $s not available on this machine"
		continue
	fi
	n=20000; [ "$s" = hwrng ] && n=2000    # virtio-rng reads ~10 KB/s
	in_cgroup "$RNGAUDIT" health --source "$s" -n "$n" >"$TMPD/h.out" 2>"$TMPD/h.err"
	rc=$?
	test "$rc" -le 1 && ! grep -q 'not permitted' "$TMPD/h.err"
	ok $? "rngaudit-health@$s: the source runs inside the unit's device list (exit $rc)"
	[ "$rc" -le 1 ] || sed 's/^/# /' "$TMPD/h.err"
done

# The wide raw sources are the audit's: health refuses them in one line.
expect_exit 2 "rngaudit-health@jitter: refused (not a byte stream), exit 2, not a loop" in_cgroup "$RNGAUDIT" health --source jitter -n 1000
check "rngaudit-health@jitter: one line saying so" one_line_error 'not a byte stream'
# The audit's default list inside its own device list (where a source is
# missing, as the ChaosKey is here, it is probed and reported unavailable).
cgroup_for "/dev/hwrng:r /dev/kmsg:r char-rtc:r char-usb_device:rw"
in_cgroup "$RNGAUDIT" audit -n 20000 >"$TMPD/a.out" 2>"$TMPD/a.err"
rc=$?
test "$rc" -le 1 && ! grep -qi 'not permitted' "$TMPD/a.err" "$TMPD/a.out"
ok $? "rngaudit-audit: the default sources inside the unit's device list (exit $rc)"
[ "$rc" -le 1 ] || sed 's/^/# /' "$TMPD/a.err"
cgroup_for "/dev/hwrng:r char-rtc:r"

# Bad input: a unit started for a device its list does not allow (a
# private node of an hwrng-like misc device the list lacks).
mknod "$TMPD/rng1" c 10 184 && chmod 600 "$TMPD/rng1"
: >"$TMPD/journal"
JOURNAL_STREAM=$(stat -c '%d:%i' "$TMPD/journal") in_cgroup "$RNGAUDIT" health --source "hwrng:device=$TMPD/rng1" \
	--follow --interval 60 >>"$TMPD/journal" 2>&1
rc=$?
test "$rc" -eq 2
ok $? "a device outside the list: exit 2 (not a crash, nothing to restart)"
check "a device outside the list: one journal line" test "$(wc -l <"$TMPD/journal")" -eq 1
check "... at priority err, naming the device and the DeviceAllow= it needs" \
	grep -q "^<3>rngaudit health: hwrng: $TMPD/rng1: Operation not permitted (.*DeviceAllow=$TMPD/rng1 r)\$" "$TMPD/journal"
sed 's/^/# /' "$TMPD/journal"
check "health unit: exit 1 and 2 do not restart it (Restart=on-abnormal)" grep -qx 'Restart=on-abnormal' "$sys/rngaudit-health@.service"
check "health unit: crashes restart it at most 3 times an hour" \
	sh -c "grep -qx 'StartLimitIntervalSec=1h' '$sys/rngaudit-health@.service' && grep -qx 'StartLimitBurst=3' '$sys/rngaudit-health@.service'"

# The audit: /dev/kmsg allowed; as a user without privileges, CAP_SYSLOG is
# what lets it read the kernel log under kernel.dmesg_restrict=1.
if [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" != 1 ] || ! command -v setpriv >/dev/null; then
	skip "kernel.dmesg_restrict is not 1 (or no setpriv): anyone reads the kernel log here"
else
	cgroup_for "/dev/hwrng:r /dev/kmsg:r char-rtc:r"
	nobody="--reuid=65534 --regid=65534 --clear-groups"
	# shellcheck disable=SC2086
	in_cgroup setpriv $nobody --inh-caps=-all --bounding-set=-all -- "$RNGAUDIT" sources >"$TMPD/k0" 2>&1
	check "audit unit without CAP_SYSLOG: the kernel log is unreadable" grep -q 'kernel log unreadable' "$TMPD/k0"
	# shellcheck disable=SC2086
	in_cgroup setpriv $nobody --inh-caps=+syslog --ambient-caps=+syslog --bounding-set=-all,+syslog -- \
		"$RNGAUDIT" sources >"$TMPD/k1" 2>&1
	check "audit unit with CAP_SYSLOG and /dev/kmsg r: the kernel log is read" \
		sh -c "grep -q 'cpu rng flags' '$TMPD/k1' && ! grep -q 'kernel log unreadable' '$TMPD/k1'"
	grep 'cpu rng flags' "$TMPD/k1" | sed 's/^/# /'
fi
tap_done
