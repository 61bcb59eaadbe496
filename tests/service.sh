#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# service.sh - the service files (data/systemd/): systemd-analyze verify on
# every unit where it exists, the system-sleep hook run as systemd runs it
# (post suspend), resume-check, and the sysusers/tmpfiles/udev entries.
. "${top_srcdir:-.}/tests/tap.sh"
export RNGAUDIT_NO_PROGRESS=1
gen="${top_builddir:-.}/data/systemd"
src="$top_srcdir/data/systemd"

# systemd-analyze verify: the only tolerated complaint is the not yet
# installed ExecStart binary.
for unit in "rngaudit-health@getrandom.service" rngaudit-audit.service rngaudit-audit.timer; do
	if [ -z "${SYSTEMD_ANALYZE:-}" ] || ! [ -x "$SYSTEMD_ANALYZE" ]; then
		skip "systemd-analyze not installed: $unit not verified"
		continue
	fi
	d="$TMPD/units"
	mkdir -p "$d"
	cp "$gen/rngaudit-health@.service" "$gen/rngaudit-audit.service" "$src/rngaudit-audit.timer" "$d/"
	(cd "$d" && SYSTEMD_LOG_LEVEL=warning "$SYSTEMD_ANALYZE" verify --man=no "./$unit") >"$TMPD/verify" 2>&1
	grep -v -e 'is not executable: No such file or directory' -e 'Command .*rngaudit is not executable' \
		-e "^$" "$TMPD/verify" >"$TMPD/verify.rest"
	check "systemd-analyze verify $unit: no complaint but the missing binary" test ! -s "$TMPD/verify.rest"
	[ -s "$TMPD/verify.rest" ] && sed 's/^/# /' "$TMPD/verify.rest"
done
check "health unit: the instance is the unescaped source spec" grep -q -- '--source %I --follow' "$gen/rngaudit-health@.service"
check "health unit: a textfile per instance" grep -q -- '--prom /var/lib/rngaudit/health-%i.prom' "$gen/rngaudit-health@.service"
for f in rngaudit-health@.service rngaudit-audit.service; do
	for key in User=rngaudit ProtectSystem=strict PrivateNetwork=yes NoNewPrivileges=yes DevicePolicy=closed; do
		check "$f: $key" grep -qx "$key" "$gen/$f"
	done
done
check "units name the configured binary, not @bindir@" sh -c "! grep -q '@bindir@' '$gen/rngaudit-health@.service' '$gen/rngaudit-audit.service' '$gen/rngaudit-resume'"
check "units name the configured rngaudit-textfile, not @pkglibexecdir@" sh -c "! grep -q '@pkglibexecdir@' '$gen/rngaudit-health@.service' '$gen/rngaudit-audit.service'"
check "timer: daily, persistent" sh -c "grep -qx 'OnCalendar=daily' '$src/rngaudit-audit.timer' && grep -qx 'Persistent=true' '$src/rngaudit-audit.timer'"
check "sysusers: the rngaudit user and group" grep -q '^u rngaudit ' "$src/rngaudit.sysusers"
check "tmpfiles: /var/lib/rngaudit owned by rngaudit" grep -q '^d /var/lib/rngaudit 0755 rngaudit rngaudit' "$src/rngaudit.tmpfiles"
check "udev: /dev/hwrng for the rngaudit group" grep -q 'KERNEL=="hw_random", GROUP="rngaudit", MODE="0640"' "$src/60-rngaudit.rules"
# every rule the file ships is the README's, word for word (issue 25: the
# ChaosKey's USB rule was documented and not shipped)
grep -v '^#' "$src/60-rngaudit.rules" | grep -v '^$' >"$TMPD/rules"
check "udev: three rules (hwrng, the ChaosKey's usbmisc node, its USB device)" test "$(wc -l <"$TMPD/rules")" -eq 3
while IFS= read -r rule; do
	check "udev rule in the README: $rule" grep -qxF "    $rule" "$top_srcdir/README.md"
done <"$TMPD/rules"
check "udev: the ChaosKey's USB device for the rngaudit group, read-write" \
	grep -qx 'SUBSYSTEM=="usb", ATTR{idVendor}=="1d50", ATTR{idProduct}=="60c6", GROUP="rngaudit", MODE="0660"' "$src/60-rngaudit.rules"

# resume-check: one line per instruction; faulty only on faulty hardware.
"$RNGAUDIT" resume-check >"$TMPD/rc.out" 2>&1
rc=$?
test "$rc" -le 1
ok $? "resume-check runs (exit $rc)"
check "resume-check: a line for rdrand" grep -Eq '^rdrand: (ok|absent|hidden by the kernel|starved|FAULTY): ' "$TMPD/rc.out"
check "resume-check: a line for rdseed" grep -Eq '^rdseed: (ok|absent|hidden by the kernel|starved|FAULTY): ' "$TMPD/rc.out"
: >"$TMPD/journal"
JOURNAL_STREAM=$(stat -c '%d:%i' "$TMPD/journal") "$RNGAUDIT" resume-check >>"$TMPD/journal" 2>&1
check "resume-check: priority prefixes in the journal" sh -c "! grep -qv '^<[36]>' '$TMPD/journal'"
if [ -n "${MANDOC:-}" ]; then
	check "rngaudit-resume-check(1): mandoc -Tlint clean" sh -c "'$MANDOC' -Tlint -Wwarning '$top_srcdir/man/rngaudit-resume-check.1' >'$TMPD/lint' 2>&1"
	sed 's/^/# /' "$TMPD/lint"
else
	skip "mandoc not installed: rngaudit-resume-check(1) not linted"
fi
expect_exit 2 "resume-check --words 0" ra resume-check --words 0
check "resume-check --words 0: one-line error" one_line_error "--words 0"

# The sleep hook as systemd runs it.
hook="$gen/rngaudit-resume"
RNGAUDIT="$RNGAUDIT" sh "$hook" pre suspend >"$TMPD/h.out" 2>"$TMPD/h.err"
ok $? "hook: pre suspend does nothing (exit 0)"
check "hook: pre suspend prints nothing" test ! -s "$TMPD/h.err"
RNGAUDIT="$RNGAUDIT" sh "$hook" post suspend >"$TMPD/h.out" 2>"$TMPD/h.err"
test $? -eq "$rc"
ok $? "hook: post suspend runs resume-check (its exit status, $rc)"
check "hook: post suspend logs each instruction with a priority" grep -Eq '^<[346]>rngaudit-resume \(after suspend\): rdrand: ' "$TMPD/h.err"
cat >"$TMPD/fake" <<'FAKE'
#!/bin/sh
echo "rdrand: FAULTY: 64 of 64 words with CF=1 were all ones, 0 all zeros, 63 repeats (first 0xffffffffffffffff); hidden by the kernel"
echo "rdseed: absent: not offered by the CPU (raises #UD)"
exit 1
FAKE
chmod +x "$TMPD/fake"
RNGAUDIT="$TMPD/fake" sh "$hook" post hibernate >"$TMPD/h.out" 2>"$TMPD/h.err"
test $? -eq 1
ok $? "hook: a faulty instruction after resume exits 1"
check "hook: the fault logged at priority err" grep -q '^<3>rngaudit-resume (after hibernate): rdrand: FAULTY: .*hidden by the kernel' "$TMPD/h.err"
check "hook: the absent one at info" grep -q '^<6>rngaudit-resume (after hibernate): rdseed: absent' "$TMPD/h.err"
RNGAUDIT="$TMPD/none" sh "$hook" post suspend >"$TMPD/h.out" 2>"$TMPD/h.err"
ok $? "hook: a missing binary does not fail the resume"
tap_done
