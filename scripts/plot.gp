# SPDX-License-Identifier: GPL-3.0-or-later
# plot.gp - pictures of an `rngaudit audit` CSV (gnuplot >= 5.2).
# Called by rngaudit-plot.sh, which has rngaudit-plot.awk read the CSV by
# column name and lay both pictures out to the pixel into tables under
# TABLES (see there), as:
#   gnuplot -c plot.gp TABLES DIR
# (call arguments are plain strings: a directory name is never a command).
# Writes DIR/min-entropy.png: per source, the assessed min-entropy per
# sample (SP 800-90B 6.3) as a bar coloured by the source's verdict, with
# the policy's fail and warn floors, the entropy claimed for the health
# tests (90B 4.4) and K (all a K-bit sample can hold) as labelled lines; a
# source nothing was measured of has no bar, only a text saying so;
# and DIR/health.png: per source, each health test and native-word check
# that ran, a green or red square (passed, or a count the verdict fails
# on), its count and cutoff, and a bar on a log scale for a count above 0.
# The axes are pixels ([0:W] x [0:H], the whole image): the awk program
# placed every mark and text, and tests/plot_layout.sh checks that no text
# leaves the image or overlaps another; gnuplot only draws.  The font is
# the one the awk program measured (DejaVu Sans Mono 9 pt, 7 pixels a
# character).
# Labels are data, never code: every text comes from a *_lab*.tsv table
# through `with labels`, and layout.gp holds numbers only; nothing from
# the CSV reaches `eval`, `load` or a macro, where gnuplot would run
# `backquotes`.
tmp = ARG1; outdir = ARG2
load tmp.'/layout.gp'

set datafile separator "\t"
unset key
unset border
unset tics
set lmargin at screen 0
set rmargin at screen 1
set bmargin at screen 0
set tmargin at screen 1
set clip two

# draw(P): the picture P's tables (P_rect, P_seg, P_lab, P_labb), in that
# order: bars, lines, then texts over them.  seg styles (rngaudit-plot.awk):
# 1 axis, 2 grid, 3 fail floor, 4 warn floor, 5 claim, 6 K, 7 median line.
pass = 0x2ca02c; warn = 0xf2a918; fail = 0xd62728
do for [P in "me h"] {
	W = value(P.'_W'); H = value(P.'_H')
	set terminal pngcairo size W,H noenhanced font "DejaVu Sans Mono,9"
	set output outdir.(P eq "me" ? '/min-entropy.png' : '/health.png')
	set xrange [0 : W]
	set yrange [0 : H]
	plot tmp.'/'.P.'_seg.tsv'  using ($5 == 2 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1 lc rgb "#e6e6e6", \
	     tmp.'/'.P.'_rect.tsv' using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4:5 with boxxyerror \
	         fs solid 0.85 border lc rgb "#404040" lc rgb variable, \
	     tmp.'/'.P.'_seg.tsv'  using ($5 == 1 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1 lc rgb "black", \
	     tmp.'/'.P.'_seg.tsv'  using ($5 == 3 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 2.5 lc rgb fail, \
	     tmp.'/'.P.'_seg.tsv'  using ($5 == 4 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 2.5 lc rgb warn, \
	     tmp.'/'.P.'_seg.tsv'  using ($5 == 5 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1.5 dt 2 lc rgb "black", \
	     tmp.'/'.P.'_seg.tsv'  using ($5 == 6 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1.5 dt 3 lc rgb "#5f5f5f", \
	     tmp.'/'.P.'_lab.tsv'  using 1:2:4:3 with labels left tc rgb variable, \
	     tmp.'/'.P.'_labb.tsv' using 1:2:4:3 with labels left font "DejaVu Sans Mono:Bold,9" tc rgb variable
	unset output
}
