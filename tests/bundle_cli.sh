#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bundle_cli.sh - `sources --save-sysroot DIR` writes only inside its bundle
# (issue 24 item 2): a new or empty DIR, never a symlink, never among
# another host's files; symlinks planted in DIR are never followed, nothing
# outside DIR changes, and no temporary is left beside it.
. "${top_srcdir:-.}/tests/tap.sh"

# A secret outside the bundle that a planted symlink points at.
mkdir -p "$TMPD/outside"
echo "secret" >"$TMPD/outside/secret"
secret_intact() { test "$(cat "$TMPD/outside/secret")" = secret; }
# no .NAME.rngaudit-tmp.* directory left in $TMPD
no_temp_left() { ! ls -a "$TMPD" | grep -q 'rngaudit-tmp'; }

expect_exit 0 "a new DIR: exit 0" ra sources --save-sysroot "$TMPD/b1"
check "a new DIR: the kernel command line and release saved" \
	test -s "$TMPD/b1/proc/cmdline" -a -s "$TMPD/b1/proc/sys/kernel/osrelease"
check "a new DIR: /proc/version saved (issue 23 reads the kernel's build from it)" \
	sh -c "test \"\$(cat /proc/version)\" = \"\$(cat '$TMPD/b1/proc/version')\""
if [ -r /proc/version_signature ]; then
	check "a new DIR: /proc/version_signature saved (Ubuntu)" \
		sh -c "test \"\$(cat /proc/version_signature)\" = \"\$(cat '$TMPD/b1/proc/version_signature')\""
else
	check "no /proc/version_signature here (not Ubuntu): none in the bundle" test ! -e "$TMPD/b1/proc/version_signature"
fi
check "a new DIR: the bundle reads back (--sysroot, exit 0)" sh -c "'$RNGAUDIT' sources --sysroot '$TMPD/b1' >/dev/null 2>&1"
check "a new DIR: no temporary left beside it" no_temp_left
check "a new DIR: the usual directory mode (0755 with umask 022)" \
	sh -c "test \"\$(umask 022; stat -c %a '$TMPD/b1')\" = 755"

mkdir "$TMPD/b2"
expect_exit 0 "an empty DIR: exit 0" ra sources --save-sysroot "$TMPD/b2"
check "an empty DIR: filled" test -s "$TMPD/b2/proc/cmdline"

# The attack of the issue: a symlink planted in DIR where the bundle writes.
mkdir -p "$TMPD/b3/proc"
ln -s ../../outside/secret "$TMPD/b3/proc/cmdline"
expect_exit 2 "DIR with a planted proc/cmdline symlink: exit 2" ra sources --save-sysroot "$TMPD/b3"
check "planted symlink: one line, DIR named as not empty" one_line_error "b3: exists and is not empty"
check "planted symlink: the file outside is unchanged" secret_intact
check "planted symlink: the symlink is left as it was" test "$(readlink "$TMPD/b3/proc/cmdline")" = ../../outside/secret

mkdir -p "$TMPD/b4"
ln -s ../outside "$TMPD/b4/proc"
expect_exit 2 "DIR with proc -> ../outside: exit 2" ra sources --save-sysroot "$TMPD/b4"
check "proc -> ../outside: nothing written outside" sh -c "test \"\$(ls '$TMPD/outside')\" = secret"

mkdir "$TMPD/emptytarget"
ln -s emptytarget "$TMPD/b5"
expect_exit 2 "DIR that is a symlink (to an empty directory): exit 2" ra sources --save-sysroot "$TMPD/b5"
check "DIR a symlink: one line saying so" one_line_error "b5: is a symlink"
check "DIR a symlink: its target stays empty" test -z "$(ls -A "$TMPD/emptytarget")"
expect_exit 2 "DIR a symlink, named with a trailing slash: exit 2" ra sources --save-sysroot "$TMPD/b5/"
check "DIR/ a symlink: its target stays empty" test -z "$(ls -A "$TMPD/emptytarget")"

# An earlier bundle (another host's stale sys/hypervisor/type) is never mixed into.
mkdir -p "$TMPD/b6/sys/hypervisor"
echo xen >"$TMPD/b6/sys/hypervisor/type"
expect_exit 2 "DIR holding another bundle: exit 2" ra sources --save-sysroot "$TMPD/b6"
check "DIR holding another bundle: left as it was (sys/hypervisor/type still xen, nothing added)" \
	sh -c "test \"\$(cat '$TMPD/b6/sys/hypervisor/type')\" = xen && test ! -e '$TMPD/b6/proc'"

echo data >"$TMPD/afile"
expect_exit 2 "DIR that is a file: exit 2" ra sources --save-sysroot "$TMPD/afile"
check "DIR a file: one line saying so" one_line_error "afile: not a directory"
expect_exit 2 "DIR whose parent is missing: exit 2" ra sources --save-sysroot "$TMPD/nope/b7"
check "parent missing: one line naming DIR" one_line_error "nope/b7"
check "after every refusal: no temporary left beside DIR" no_temp_left
tap_done
