#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# rngaudit-plot.sh - draw PNGs from an `rngaudit audit` CSV or from a fleet
# CSV of `rngaudit report merge`, with gnuplot.
# usage: rngaudit-plot.sh [-f FAIL:WARN:SOURCE]... CSV OUTDIR
#
# The header says which CSV it is (columns are found by name, never by
# position, so columns added by later schemas are harmless):
#   audit CSV (source, verdict, h_assessed, ...): OUTDIR/min-entropy.png and
#     OUTDIR/health.png, drawn by plot.gp;
#   merged fleet CSV (hosts, h_assessed_min, h_assessed_median, ...):
#     OUTDIR/fleet.png, drawn by plot-fleet.gp.
# The policy's floors come from the CSV's policy_fail_below and
# policy_warn_below columns (schema 3).  -f FAIL:WARN:SOURCE gives them
# instead for the row whose source column is SOURCE: FAIL and WARN are the
# policy's fail_below and warn_below (min-entropy per bit), for CSVs of
# older schemas.  Rows without floors are drawn without floor lines.
# GNUPLOT names the gnuplot binary (default: gnuplot on PATH); the .gp and
# .awk files are looked for next to this script.  RNGAUDIT_PLOT_TABLES=DIR
# keeps a copy of the tables drawn (what each mark is, tests read them).
# Exit status: 0 done, 2 usage or error.
set -u
usage() {
	echo "usage: rngaudit-plot.sh [-f FAIL:WARN:SOURCE]... CSV OUTDIR" >&2
	exit 2
}
here=$(dirname "$0")
gpdir=$here
gnuplot=${GNUPLOT:-gnuplot}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rngaudit-plot.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/floors"
while getopts f: opt; do
	case $opt in
	f)
		# FAIL:WARN:SOURCE; SOURCE may hold colons and commas.
		fail=${OPTARG%%:*}; rest=${OPTARG#*:}
		warn=${rest%%:*}; src=${rest#*:}
		bad=0
		case $OPTARG in *:*:*) ;; *) bad=1 ;; esac
		case $fail in '' | *[!0-9.eE+-]*) bad=1 ;; esac
		case $warn in '' | *[!0-9.eE+-]*) bad=1 ;; esac
		if [ $bad -eq 1 ]; then
			echo "rngaudit-plot: -f $OPTARG: want FAIL:WARN:SOURCE (FAIL, WARN: min-entropy per bit)" >&2
			exit 2
		fi
		printf '%s\t%s\t%s\n' "$fail" "$warn" "$src" >>"$tmp/floors"
		;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
csv=$1
outdir=$2
if [ ! -r "$csv" ] || [ -d "$csv" ]; then
	echo "rngaudit-plot: cannot read $csv" >&2
	exit 2
fi
if ! command -v "$gnuplot" >/dev/null 2>&1; then
	echo "rngaudit-plot: gnuplot not found (set GNUPLOT or install gnuplot)" >&2
	exit 2
fi

# "./$csv": awk reads an operand like a=b.csv as an assignment, not a file.
case $csv in /*) csvarg=$csv ;; *) csvarg=./$csv ;; esac
# Which CSV: by the header's column names.
kind=$(awk 'NR == 1 {
	sub(/\r$/, ""); n = split($0, f, ",")
	for (i = 1; i <= n; i++) { gsub(/"/, "", f[i]); c[f[i]] = 1 }
	if (("hosts" in c) && ("h_assessed_min" in c) && ("h_assessed_median" in c) && ("source" in c))
		print "fleet"
	else if (("source" in c) && ("verdict" in c) && ("h_assessed" in c) && ("bits_per_sample" in c))
		print "audit"
	exit
}' "$csvarg")
case $kind in
audit) gp=$gpdir/plot.gp; pngs="min-entropy.png health.png" ;;
fleet) gp=$gpdir/plot-fleet.gp; pngs="fleet.png" ;;
*)
	echo "rngaudit-plot: $csv: neither an audit CSV (source, verdict, h_assessed, bits_per_sample)" \
		"nor a merged fleet CSV (source, hosts, h_assessed_min, h_assessed_median)" >&2
	exit 2
	;;
esac
if [ ! -r "$gp" ]; then
	echo "rngaudit-plot: cannot read $gp" >&2
	exit 2
fi
mkdir -p "$outdir" || exit 2

# The CSV becomes tab-separated tables that gnuplot reads without its CSV
# quirks (gnuplot 5.4 cuts a quoted string at a comma inside it): awk
# parses RFC 4180 (quoted fields, doubled quotes, CRLF, a newline inside
# quotes), picks the columns by name and computes what is drawn where.
# rngaudit-plot.awk writes $tmp/layout.gp (titles, ranges, sizes) and the
# tables $tmp/*.tsv; the .gp file draws them.
# Names go through the environment (awk -v would read a backslash in one as
# an escape).
PLOT_MODE=$kind PLOT_TMP=$tmp PLOT_CSVNAME=$csv PLOT_FLOORS=$tmp/floors \
	LC_ALL=C awk -f "$gpdir/rngaudit-plot.awk" "$csvarg" || exit 2
if [ -n "${RNGAUDIT_PLOT_TABLES:-}" ]; then
	mkdir -p "$RNGAUDIT_PLOT_TABLES" && cp "$tmp"/*.tsv "$tmp/layout.gp" "$RNGAUDIT_PLOT_TABLES" || exit 2
fi

# The directories are call arguments (ARG1, ARG2: strings gnuplot never
# evaluates), not a -e command line, where gnuplot would run `backquotes`
# in a directory's name.
# gnuplot warns about a table with no rows of one kind (no unavailable
# source, no floor lines): expected, so drop those warnings, keep the rest.
"$gnuplot" -c "$gp" "$tmp" "$outdir" 2>"$tmp/err"
rc=$?
grep -v -e 'no valid points' -e 'empty [xy] range' -e 'Skipping data file with no valid points' "$tmp/err" >&2
if [ $rc -ne 0 ]; then
	echo "rngaudit-plot: gnuplot failed on $csv" >&2
	exit 2
fi
for f in $pngs; do
	if [ ! -s "$outdir/$f" ]; then
		echo "rngaudit-plot: $outdir/$f was not written" >&2
		exit 2
	fi
done
exit 0
