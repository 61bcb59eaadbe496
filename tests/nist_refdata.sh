#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# nist_refdata.sh - `rngaudit assess -vv` against the output of NIST's
# ea_non_iid -vv (SP800-90B_EntropyAssessment v1.1.7) on NIST's own data sets
# (tests/data/nist-90b, see its README.md): every text line equal, every
# numeric line within 1e-6 absolute (NIST's selftest tolerance).  The
# "Opening file" line may name the path differently.
. "${top_srcdir:-.}/tests/tap.sh"

D="$top_srcdir/tests/data/nist-90b"

# compare GOT REF: prints the mismatches, exits 1 if any
compare() {
	awk -v tol=1e-6 '
	function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
	function split_kv(line, kv,   i) {
		# "KEY = VALUE" or "KEY: VALUE" with a numeric VALUE at the end
		i = match(line, /(=|:) [^ ]+$/)
		if (!i) return 0
		kv[1] = substr(line, 1, RSTART); kv[2] = substr(line, RSTART + 2)
		return num(kv[2])
	}
	NR == FNR { ref[FNR] = $0; nref = FNR; next }
	{
		ngot = FNR
		g = $0; r = ref[FNR]
		if (g == r) { if (split_kv(g, a)) nnum++; next }
		if (g ~ /^Opening file: / && r ~ /^Opening file: /) next
		if (split_kv(g, a) && split_kv(r, b) && a[1] == b[1]) {
			d = a[2] - b[2]; if (d < 0) d = -d
			if (d <= tol) { nnum++; next }
		}
		bad++
		if (bad <= 5) printf "# line %d\n#   got: %s\n#   ref: %s\n", FNR, g, r
	}
	END {
		if (ngot != nref) { printf "# %d lines, NIST has %d\n", ngot, nref; bad++ }
		printf "# %d numeric lines within %g\n", nnum, tol
		exit bad > 0
	}' "$2" "$1"
}

for ref in "$D"/refdata/*.res; do
	name=$(basename "$ref" .res)
	bin="$D/bin/$name.bin"
	if ! ra assess -vv "$bin" >"$TMPD/$name.raw" 2>"$TMPD/$name.err"; then
		ok 1 "assess -vv $name runs"
		echo "# $(head -c 300 "$TMPD/$name.err")"
		continue
	fi
	# these .res files are NIST's selftest data, written by an older build
	# of ea_non_iid: "H_original: x" where 68ed165 prints "H_original = x",
	# and no "H_bitstring Per Symbol" line (tests/nist_parity.sh holds
	# assess to 68ed165's own format); rngaudit's last line is its own
	sed -e '$d' -e '/^H_bitstring Per Symbol = /d' -e 's/^H_original = /H_original: /' \
		"$TMPD/$name.raw" >"$TMPD/$name.out"
	compare "$TMPD/$name.out" "$ref" >"$TMPD/$name.diag"
	st=$?
	ok $st "assess -vv $name matches NIST ea_non_iid v1.1.7 ($(grep -c . "$ref") lines, numbers within 1e-6)"
	cat "$TMPD/$name.diag"
done
tap_done
