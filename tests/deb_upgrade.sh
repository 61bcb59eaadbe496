#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# deb_upgrade.sh DEB - the package's maintainer scripts (ours and
# debhelper's snippets) across install, upgrade, removal and purge, as far
# as a machine whose init is not systemd allows (issue 25 item 1).  Run by
# .ci/run's package stage as root, on the .deb it built; TAP output.
#
# In a private mount namespace, /run is a fresh tmpfs holding
# /run/systemd/system (so the scripts take their systemd branch) and a udev
# control socket; systemctl, deb-systemd-invoke and udevadm are stand-ins
# that log their arguments and answer list-units from a file of "active"
# units.  Enablement is real: `systemctl --root=/` makes and reads the
# links in /etc/systemd/system, and debhelper's deb-systemd-helper keeps
# its state, as on a systemd machine.  The upgrade is to the same package
# repacked as version VERSION+upgrade1 (the maintainer scripts are what is
# tested, not the binary).
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
. "$top_srcdir/tests/tap.sh"
deb=${1:?usage: deb_upgrade.sh DEB}
case "$deb" in /*) ;; *) deb="$PWD/$deb" ;; esac
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	echo "1..0 # SKIP needs root and unshare"
	exit 0
fi
if dpkg-query -W -f='${Status}' rngaudit 2>/dev/null | grep -q 'ok installed'; then
	echo "1..0 # SKIP rngaudit is installed here: this test installs and purges it"
	exit 0
fi

# v2: the same files, a higher version
dpkg-deb -R "$deb" "$TMPD/v2"
v1=$(dpkg-deb -f "$deb" Version)
sed -i "s/^Version: .*/Version: $v1+upgrade1/" "$TMPD/v2/DEBIAN/control"
dpkg-deb -b "$TMPD/v2" "$TMPD/rngaudit-v2.deb" >/dev/null

stubs="$TMPD/stubs"
mkdir -p "$stubs"
log="$TMPD/calls"
active="$TMPD/active"
: >"$log"
: >"$active"
cat >"$stubs/systemctl" <<EOF
#!/bin/sh
# stand-in: logs; list-units answers from $active; --root= is the real one
case "\$*" in
--root=*) exec /usr/bin/systemctl "\$@" ;;
esac
echo "systemctl \$*" >>"$log"
case "\$*" in
*list-units*) cat "$active" ;;
esac
exit 0
EOF
cat >"$stubs/deb-systemd-invoke" <<EOF
#!/bin/sh
echo "deb-systemd-invoke \$*" >>"$log"
EOF
cat >"$stubs/udevadm" <<EOF
#!/bin/sh
echo "udevadm \$*" >>"$log"
EOF
chmod +x "$stubs"/*

# run STEP COMMAND...: COMMAND in the namespace, its stand-in calls in
# $TMPD/STEP (and the exit status in $TMPD/STEP.rc)
cat >"$TMPD/ns.sh" <<'EOF'
set -e
mount -t tmpfs tmpfs /run
mkdir -p /run/systemd/system /run/udev /run/lock
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' /run/udev/control
exec "$@"
EOF
run() {
	step=$1; shift
	: >"$log"
	PATH="$stubs:$PATH" unshare -m --propagation private sh "$TMPD/ns.sh" "$@" >"$TMPD/$step.out" 2>&1
	echo $? >"$TMPD/$step.rc"
	cp "$log" "$TMPD/$step"
}
called() { grep -qxF -- "$2" "$TMPD/$1"; }
enabled() { /usr/bin/systemctl --root=/ is-enabled "$1" 2>/dev/null; }

# --- install ---
run install dpkg -i "$deb"
check "install: dpkg -i succeeds" test "$(cat "$TMPD/install.rc")" -eq 0
check "install: udev rules reloaded" called install "udevadm control --reload-rules"
check "install: /dev/hwrng re-triggered for the new rules" \
	called install "udevadm trigger --action=change --subsystem-match=misc --sysname-match=hw_random"
check "install: ChaosKey usbmisc nodes re-triggered" \
	called install "udevadm trigger --action=change --subsystem-match=usbmisc --sysname-match=chaoskey*"
check "install: ChaosKey USB devices re-triggered" \
	called install "udevadm trigger --action=change --subsystem-match=usb --attr-match=idVendor=1d50 --attr-match=idProduct=60c6"
check "install: nothing started or restarted" sh -c "! grep -q 'deb-systemd-invoke' '$TMPD/install'"
check "install: the timer is not enabled" test "$(enabled rngaudit-audit.timer)" != enabled
check "install: the rngaudit user exists" sh -c "getent passwd rngaudit >/dev/null"
check "install: /var/lib/rngaudit is the rngaudit user's" test "$(stat -c %U /var/lib/rngaudit 2>/dev/null)" = rngaudit
check "install: the ChaosKey drop-in is installed under its escaped instance name" \
	test -f '/lib/systemd/system/rngaudit-health@hwrng:device\x3d-dev-chaoskey0.service.d/chaoskey0.conf'
check "install: rngaudit-textfile is executable" test -x /usr/libexec/rngaudit/rngaudit-textfile

# --- the admin enables the timer and a health instance; both run ---
/usr/bin/systemctl --root=/ enable rngaudit-audit.timer >/dev/null 2>&1
/usr/bin/systemctl --root=/ enable rngaudit-health@getrandom.service >/dev/null 2>&1
check "admin: the timer is enabled" test "$(enabled rngaudit-audit.timer)" = enabled
check "admin: rngaudit-health@getrandom is enabled" test "$(enabled rngaudit-health@getrandom.service)" = enabled
printf '%s\n' "rngaudit-health@getrandom.service loaded active running rngaudit health tests on getrandom" >"$active"

# --- upgrade ---
run upgrade dpkg -i "$TMPD/rngaudit-v2.deb"
check "upgrade: dpkg -i of $v1+upgrade1 succeeds" test "$(cat "$TMPD/upgrade.rc")" -eq 0
check "upgrade: nothing is stopped (no preinst or prerm stop)" sh -c "! grep -q ' stop ' '$TMPD/upgrade'"
check "upgrade: systemd reloads the new unit files" called upgrade "systemctl --system daemon-reload"
check "upgrade: the timer and the running health instance try-restart on the new files" \
	called upgrade "deb-systemd-invoke try-restart rngaudit-audit.timer rngaudit-health@getrandom.service"
check "upgrade: the running audit (a oneshot) is left to finish" sh -c "! grep -q 'rngaudit-audit.service' '$TMPD/upgrade'"
check "upgrade: the timer is still enabled" test "$(enabled rngaudit-audit.timer)" = enabled
check "upgrade: the health instance is still enabled" test "$(enabled rngaudit-health@getrandom.service)" = enabled
check "upgrade: the new version is installed" test "$(dpkg-query -W -f='${Version}' rngaudit)" = "$v1+upgrade1"
sed 's/^/# upgrade: /' "$TMPD/upgrade"

# --- removal ---
run remove dpkg -r rngaudit
check "remove: dpkg -r succeeds" test "$(cat "$TMPD/remove.rc")" -eq 0
check "remove: the prerm stops the timer, the audit and the running health instance" \
	called remove "deb-systemd-invoke stop rngaudit-audit.timer rngaudit-audit.service rngaudit-health@getrandom.service"
sed 's/^/# remove: /' "$TMPD/remove"

# --- purge ---
run purge dpkg --purge rngaudit
check "purge: dpkg --purge succeeds" test "$(cat "$TMPD/purge.rc")" -eq 0
check "purge: the timer's enablement is gone" sh -c "! ls /etc/systemd/system/*.wants/rngaudit-audit.timer 2>/dev/null | grep -q ."
check "purge: the health instance's enablement is gone" sh -c "! ls /etc/systemd/system/*.wants/rngaudit-health@* 2>/dev/null | grep -q ."
for s in install upgrade remove purge; do
	[ "$(cat "$TMPD/$s.rc")" -eq 0 ] || sed "s/^/# $s: /" "$TMPD/$s.out"
done
tap_done
