#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cli_main.sh - the command table: --help, --version, help CMD, CMD --help, unknown commands.
. "${top_srcdir:-.}/tests/tap.sh"

expect_exit 0 "--help exits 0" ra --help
check "--help lists the commands" grep -q "collect" "$TMPD/out"
expect_exit 0 "--version exits 0" ra --version
check "--version prints the package version" grep -q "^rngaudit [0-9]" "$TMPD/out"
for c in sources collect health assess iid restart conditioning audit report; do
	expect_exit 0 "help $c exits 0" ra help "$c"
	check "help $c shows its usage" grep -q "usage: rngaudit $c" "$TMPD/out"
	expect_exit 0 "$c --help exits 0" ra "$c" --help
	# every option of the synopsis is described on a line of its own
	sed -n '/^usage:/,/^$/p' "$TMPD/out" | grep -o -- '[[ |(]-[-a-zA-Z]*' | sed 's/^.//' |
		sort -u >"$TMPD/opts"
	grep '^  ' "$TMPD/out" >"$TMPD/desc"
	missing=$(while read -r o; do grep -qF -- "$o" "$TMPD/desc" || printf '%s ' "$o"; done <"$TMPD/opts")
	check "help $c describes every option (${missing:-all described})" test -z "$missing"
done
expect_exit 2 "unknown command exits 2" ra frobnicate
check "unknown command: one line naming it" one_line_error "frobnicate"
expect_exit 2 "help of an unknown command exits 2" ra help frobnicate
expect_exit 2 "no command exits 2" ra
expect_exit 0 "sources exits 0" ra sources
check "sources lists rdrand" grep -q "^rdrand " "$TMPD/out"
check "sources lists hwrng" grep -q "^hwrng " "$TMPD/out"
check "sources lists getrandom as DRBG output" grep -q "^getrandom .*DRBG output" "$TMPD/out"
check "sources shows the CPU" grep -q "^cpu: .*family .*model .*microcode" "$TMPD/out"
check "sources: microcode a revision or 'unknown', never 'unknown 0'" \
	sh -c "! grep -q 'microcode unknown [0-9]' '$TMPD/out'"
ra audit --source sim:ideal -n 20000 >"$TMPD/audit.txt" 2>&1
check "audit header: microcode a revision or 'unknown', never 'unknown 0'" \
	sh -c "grep -q 'microcode \(0x[0-9a-f]*\|unknown\))' '$TMPD/audit.txt' && ! grep -q 'microcode unknown [0-9]' '$TMPD/audit.txt'"
check "sources shows the kernel" grep -q "^kernel: " "$TMPD/out"
expect_exit 2 "sources with an argument exits 2" ra sources extra
tap_done
