#!/bin/sh
# rngaudit-plot.sh - draw PNGs from an `rngaudit audit` CSV with gnuplot.
# usage: rngaudit-plot.sh AUDIT.csv OUTDIR
# Writes OUTDIR/min-entropy.png and OUTDIR/health.png (see plot.gp).
# GNUPLOT names the gnuplot binary (default: gnuplot on PATH); plot.gp is
# looked for next to this script (or RNGAUDIT_PLOT_GP).
# Exit status: 0 done, 2 usage or error.
set -u
if [ $# -ne 2 ]; then
	echo "usage: rngaudit-plot.sh AUDIT.csv OUTDIR" >&2
	exit 2
fi
csv=$1
outdir=$2
here=$(dirname "$0")
gp=${RNGAUDIT_PLOT_GP:-$here/plot.gp}
gnuplot=${GNUPLOT:-gnuplot}
if [ ! -r "$csv" ]; then
	echo "rngaudit-plot: cannot read $csv" >&2
	exit 2
fi
if [ ! -r "$gp" ]; then
	echo "rngaudit-plot: cannot read $gp" >&2
	exit 2
fi
if ! command -v "$gnuplot" >/dev/null 2>&1; then
	echo "rngaudit-plot: gnuplot not found (set GNUPLOT or install gnuplot)" >&2
	exit 2
fi
mkdir -p "$outdir" || exit 2
tmp=$(mktemp "${TMPDIR:-/tmp}/rngaudit-plot.XXXXXX") || exit 2
trap 'rm -f "$tmp" "$tmp.err"' EXIT
# gnuplot 5.4 splits quoted fields correctly but cuts a string value at a
# comma inside quotes ("sim:biased,p=0.5" labels as "sim:biased"): give it
# a copy with such commas turned into spaces.
awk '{
	out = ""; q = 0
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		if (c == "\"") q = !q
		else if (c == "," && q) c = " "
		out = out c
	}
	print out
}' "$csv" > "$tmp" || exit 2
# Quote for gnuplot's single-quoted strings: '' stands for one quote.
q() { printf "%s" "$1" | sed "s/'/''/g"; }
# gnuplot warns about columns empty throughout (no word checks on byte
# sources) and about an all-zero y range (no failures): expected, so drop
# those warnings and keep the rest of stderr.
"$gnuplot" -e "csv='$(q "$tmp")'; outdir='$(q "$outdir")'" "$gp" 2>"$tmp.err"
rc=$?
grep -v -e 'no valid points' -e 'empty y range' "$tmp.err" >&2
if [ $rc -ne 0 ]; then
	echo "rngaudit-plot: gnuplot failed on $csv" >&2
	exit 2
fi
for f in min-entropy.png health.png; do
	if [ ! -s "$outdir/$f" ]; then
		echo "rngaudit-plot: $outdir/$f was not written" >&2
		exit 2
	fi
done
exit 0
