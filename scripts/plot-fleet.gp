# SPDX-License-Identifier: GPL-3.0-or-later
# plot-fleet.gp - the picture of a fleet CSV from `rngaudit report merge`
# (gnuplot >= 5.2).  Called by rngaudit-plot.sh, which has
# rngaudit-plot.awk read the CSV by column name into tables under TABLES, as:
#   gnuplot -c plot-fleet.gp TABLES DIR
# (call arguments are plain strings: a directory name is never a command).
# Writes DIR/fleet.png: per CPU (vendor, family, model, microcode, guest or
# not, kernel; a bold heading) one row per source: a bar to the lowest
# assessed min-entropy of its hosts, coloured by the worst verdict among
# them, a black diamond at the median joined to the bar by a thin line,
# and the hosts per verdict as text.
# Groups no host could assess are grey (all unavailable) or hatched in
# their verdict's colour.
# Labels are data, never code (as in plot.gp): row labels through ytic()
# from f_tics.tsv, the title through strcol() from titles.tsv, numbers
# only in layout.gp.
tmp = ARG1; outdir = ARG2
load tmp.'/layout.gp'

pass = 0x2ca02c; warn = 0xf2a918; fail = 0xd62728; unav = 0x9a9a9a
set datafile separator "\t"
f_title = ""
stats tmp.'/titles.tsv' using (f_title = strcol(2), 0) nooutput
set terminal pngcairo size 1100,f_height noenhanced font "sans,10"
set output outdir.'/fleet.png'
set border 3
set tics nomirror
set grid xtics lc rgb "#e6e6e6"
set clip two
# The title as a label centred on the image (a wide left margin would push
# a title off it).
set label 1 f_title."\nbar: the lowest host (min), coloured by the group's worst verdict: green pass, amber warn, red fail;\n".\
  "hatched: no host assessed (grey: all unavailable); black diamond on a line from the bar: the median host"\
  at screen 0.5, screen 1 offset 0,-1.2 center
set tmargin 5
set xlabel "assessed min-entropy per sample, bits (h_assessed)"
set xrange [0 : f_scale * 1.9]
set xtics 0, (f_scale > 4 ? 1 : f_scale / 4.0), f_scale
set yrange [0.4 : f_n + 0.6]
set ytics scale 0
set lmargin f_lmargin
unset key
plot tmp.'/f_bar.tsv'   using 2:1:2:3:4:5:6 with boxxyerror fs solid 0.85 border lc rgb "#404040" lc rgb variable, \
     tmp.'/f_hatch.tsv' using 2:1:2:3:4:5:6 with boxxyerror fs transparent pattern 4 lc rgb variable, \
     tmp.'/f_med.tsv'   using 3:2:($1 - $3):(0) with vectors nohead lw 1.2 lc rgb "#404040", \
     tmp.'/f_med.tsv'   using 1:2 with points pt 13 ps 1.6 lc rgb "black", \
     tmp.'/f_lab.tsv'   using 1:2:3:4 with labels left offset 1,0 tc rgb variable, \
     tmp.'/f_head.tsv'  using 1:2:3 with labels left offset 0.5,0 font "sans:Bold,10" tc rgb "black", \
     tmp.'/f_tics.tsv'  using (NaN):1:ytic(2) notitle
unset output
