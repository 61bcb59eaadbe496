# SPDX-License-Identifier: GPL-3.0-or-later
# nist_compare.sh - comparing rngaudit's NIST-format output with NIST's
# (sourced by tests/nist_parity.sh and tests/ea_names.sh).

# same GOT REF: every line of GOT as the same line of REF: the same words,
# every number within NIST's selftest rule (cpp/selftest/compareresults.pl:
# min(absolute, relative) difference below 1e-10; SAME_TOL overrides) and
# as many lines.  rngaudit computes in double where NIST's tool keeps some
# figures in long double, so the last digits may differ (at most 3e-13 on
# NIST's own data, rngaudit-assess(1)).  JSON lines naming the run
# (commandline, dateTimeStamp) are skipped.  Prints the first mismatches
# and a summary; exits 1 on a mismatch.
same() {
	awk -v tol="${SAME_TOL:-1e-10}" '
	function toks(s, t,   n) {  # numbers and the text between them
		n = 0
		while (match(s, /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
			t[++n] = "T" substr(s, 1, RSTART - 1); t[++n] = "N" substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
		}
		t[++n] = "T" s
		return n
	}
	function abs(x) { return x < 0 ? -x : x }
	function alike(g, r,   a, b, na, nb, i, x, y, d, m) {
		if (g == r) return 1
		na = toks(g, a); nb = toks(r, b)
		if (na != nb) return 0
		for (i = 1; i <= na; i++) {
			if (a[i] == b[i]) continue
			if (substr(a[i], 1, 1) != "N" || substr(b[i], 1, 1) != "N") return 0
			x = substr(a[i], 2) + 0; y = substr(b[i], 2) + 0
			d = abs(x - y); m = abs(x) > abs(y) ? abs(x) : abs(y)
			if (m > 0 && d / m < d) d = d / m
			if (d >= tol) return 0
			if (d > maxd) maxd = d
			nnum++
		}
		return 1
	}
	/"(commandline|dateTimeStamp)" : / { next }
	NR == FNR { ref[++nref] = $0; next }
	{
		g = $0; r = ref[++ngot]
		if (!alike(g, r)) {
			bad++
			if (bad <= 5) printf "# line %d\n#   got: %s\n#   ref: %s\n", ngot, g, r
		}
	}
	END {
		if (ngot != nref) { printf "# %d lines, NIST has %d\n", ngot, nref; bad++ }
		printf "# %d lines, %d numbers not equal as text, the largest difference %g (< %g)\n",
			ngot, nnum, maxd, tol
		exit bad > 0
	}' "$2" "$1"
}

# perm_shape FILE: the permutation counters (random in NIST's tool: it
# seeds from /dev/urandom) and what they decide replaced by placeholders,
# each table row keeping its statistic and each JSON counter its key; ea_iid
# -v's per-shuffle progress lines dropped (their number depends on the
# counters); rngaudit's own lines after NIST's (the seed, statistics
# stopped early) dropped.
perm_shape() {
	sed -e '/^Permutation seed: /d' -e '/ not run to the end: /d' \
	    -e '/^ *[0-9][0-9.]*% of Permutation test rounds, *[0-9][0-9.]*% of Permutation tests (Core [0-9]*\/[0-9]*, passed_count [0-9]*)$/d' \
	    -e 's/^ *\([A-Za-z]*\(([0-9]*)\)\{0,1\}\)\*\{0,1\} *[0-9][0-9]* *[0-9][0-9]* *[0-9][0-9]*\(  stopped (--full runs it)\)\{0,1\}$/\1 COUNTS/' \
	    -e 's/^ *\([A-Za-z]*\)  not scored (--full scores it)$/\1 COUNTS/' \
	    -e 's/^\(\*\* \)\{0,1\}\(Passed\|Failed\) IID permutation tests$/IID permutation verdict/' \
	    -e 's/^IID permutation tests: \(Passed\|Failed\)$/IID permutation verdict/' \
	    -e 's/^\( *"[A-Za-z0-9]*" : \)[0-9]*\.0\(,\{0,1\}\)$/\1COUNT\2/' \
	    -e 's/^\( *"passedIidPermutationTests" : \)[a-z]*,$/\1VERDICT,/' "$1"
}
