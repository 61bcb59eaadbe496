# SPDX-License-Identifier: GPL-3.0-or-later
# tap.sh - TAP helpers for the shell end-to-end tests (sourced).
# Each check prints one ok/not ok line; call tap_done at the end.
: "${RNGAUDIT:=${top_builddir:-.}/src/rngaudit}"
: "${top_srcdir:=.}"
# absolute, so that a test may cd (automake passes it relative: '.' in tree)
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
tap_n=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/rngaudit-test.XXXXXX") || exit 99
trap 'rm -rf "$TMPD"' EXIT
# The text reports fit their width (report/textwrap.h): checks of what they
# say read them with lines unbroken; tests/text_width.sh checks the layout.
COLUMNS=1000; export COLUMNS

# Run the tool (under $RNGAUDIT_WRAP, e.g. valgrind, when set).
ra() { ${RNGAUDIT_WRAP:-} "$RNGAUDIT" "$@"; }

ok() {   # ok CONDITION-STATUS NAME
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else echo "not ok $tap_n - $2"; fi
}
check() {  # check NAME COMMAND...: passes when COMMAND succeeds
	name=$1; shift
	if "$@"; then ok 0 "$name"; else ok 1 "$name"; fi
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }
# Checks on the last digits of long double arithmetic (NIST prints some
# figures with %.22Lg): valgrind computes x87 long doubles in double
# precision, so under it (RNGAUDIT_WRAP, make check-valgrind) these are
# skipped, saying why; everything else still runs under valgrind.
LD_SKIP="valgrind computes long double in double precision"
check_ld() { if [ -n "${RNGAUDIT_WRAP:-}" ]; then skip "$1: $LD_SKIP"; else check "$@"; fi; }
ok_ld() { if [ -n "${RNGAUDIT_WRAP:-}" ]; then skip "$2: $LD_SKIP"; else ok "$@"; fi; }
# expect_exit WANT NAME COMMAND...: passes when COMMAND exits with WANT;
# its stdout/stderr are kept in $TMPD/out and $TMPD/err.
expect_exit() {
	want=$1; name=$2; shift 2
	"$@" >"$TMPD/out" 2>"$TMPD/err"; got=$?
	if [ "$got" -eq "$want" ]; then ok 0 "$name"; else
		ok 1 "$name"; echo "# exit $got, want $want; stderr: $(head -c 400 "$TMPD/err")"; fi
}
# one_line_error: stderr of the last expect_exit is exactly one line containing $1
one_line_error() {
	n=$(wc -l <"$TMPD/err"); grep -q -- "$1" "$TMPD/err" && [ "$n" -eq 1 ]
}
tap_done() { echo "1..$tap_n"; exit 0; }
