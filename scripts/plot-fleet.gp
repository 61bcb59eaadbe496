# SPDX-License-Identifier: GPL-3.0-or-later
# plot-fleet.gp - the picture of a fleet CSV from `rngaudit report merge`
# (gnuplot >= 5.2).  Called by rngaudit-plot.sh, which has
# rngaudit-plot.awk read the CSV by column name and lay the picture out to
# the pixel into tables under TABLES, as:
#   gnuplot -c plot-fleet.gp TABLES DIR
# (call arguments are plain strings: a directory name is never a command).
# Writes DIR/fleet.png: per CPU (vendor, family, model, microcode, guest or
# not, kernel; a bold heading) one row per source, worst first: a bar to
# the lowest assessed min-entropy of its hosts, coloured by the worst
# verdict among them, a black diamond at the median joined to the bar by a
# thin line, the group's own policy floors (fail red, warn amber) as ticks
# across its row, and the figures, floors and hosts per verdict as text.
# A group no host could assess has no bar, only a text saying so.
# As in plot.gp the axes are pixels, the layout is the awk program's
# (checked by tests/plot_layout.sh), and labels are data, never code.
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
pass = 0x2ca02c; warn = 0xf2a918; fail = 0xd62728
set terminal pngcairo size f_W,f_H noenhanced font "DejaVu Sans Mono,9"
set output outdir.'/fleet.png'
set xrange [0 : f_W]
set yrange [0 : f_H]
plot tmp.'/f_seg.tsv'  using ($5 == 2 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1 lc rgb "#e6e6e6", \
     tmp.'/f_rect.tsv' using (($1 + $2) / 2):(($3 + $4) / 2):1:2:3:4:5 with boxxyerror \
         fs solid 0.85 border lc rgb "#404040" lc rgb variable, \
     tmp.'/f_seg.tsv'  using ($5 == 1 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1 lc rgb "black", \
     tmp.'/f_seg.tsv'  using ($5 == 3 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 2.5 lc rgb fail, \
     tmp.'/f_seg.tsv'  using ($5 == 4 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 2.5 lc rgb warn, \
     tmp.'/f_seg.tsv'  using ($5 == 7 ? $1 : NaN):2:($3 - $1):($4 - $2) with vectors nohead lw 1.2 lc rgb "#404040", \
     tmp.'/f_pt.tsv'   using 1:2 with points pt 13 ps 1.6 lc rgb "black", \
     tmp.'/f_lab.tsv'  using 1:2:4:3 with labels left tc rgb variable, \
     tmp.'/f_labb.tsv' using 1:2:4:3 with labels left font "DejaVu Sans Mono:Bold,9" tc rgb variable
unset output
