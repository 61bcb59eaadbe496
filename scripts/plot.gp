# SPDX-License-Identifier: GPL-3.0-or-later
# plot.gp - pictures of an `rngaudit audit` CSV (gnuplot >= 5.2).
# Called by rngaudit-plot.sh, which has rngaudit-plot.awk read the CSV by
# column name into tables under TABLES (see there), as:
#   gnuplot -c plot.gp TABLES DIR
# (call arguments are plain strings: a directory name is never a command).
# Writes DIR/min-entropy.png: per source, the assessed min-entropy per
# sample (SP 800-90B 6.3) as a bar coloured by the source's verdict, with
# the policy's fail and warn floors, the entropy claimed for the health
# tests (90B 4.4) and K (all a K-bit sample can hold) as labelled lines;
# and DIR/health.png: per source, each health-test failure count and
# native-word count on a log scale, red where the verdict cites it.
# Both: one row per source, labelled on the left, no key (the colours and
# lines carry their own labels); unavailable sources are grey and hatched.
# Labels are data, never code: row labels come from *_tics.tsv through
# ytic(), the host line of the title from titles.tsv through strcol(), and
# layout.gp holds numbers only; nothing from the CSV reaches `eval`, `load`
# or a macro, where gnuplot would run `backquotes`.
tmp = ARG1; outdir = ARG2
load tmp.'/layout.gp'

pass = 0x2ca02c; warn = 0xf2a918; fail = 0xd62728; unav = 0x9a9a9a
set datafile separator "\t"
head = ""
stats tmp.'/titles.tsv' using (head = strcol(2), 0) nooutput
set terminal pngcairo size 1100,me_height noenhanced font "sans,10"
set border 3
set tics nomirror
set grid xtics lc rgb "#e6e6e6"
unset key
set clip two
set tmargin 5     # the three lines of label 1, the title

# ---- min-entropy.png ------------------------------------------------------
set output outdir.'/min-entropy.png'
set label 1 "Assessed min-entropy per sample (SP 800-90B 6.3), coloured by verdict\n".head.\
  "\nred and amber lines: the policy's fail and warn floors; dashed: the entropy claimed for the health tests; dotted: K, all a K-bit sample holds"\
  at screen 0.5, screen 1 offset 0,-1.2 center
set xlabel "bits of min-entropy per sample"
set xrange [0 : me_xmax * 1.9]
set xtics 0, (me_xmax > 4 ? 1 : me_xmax / 4.0), me_xmax
set yrange [0.4 : me_n + 0.9]
set ytics scale 0
set lmargin me_lmargin
set style fill solid 0.85 border lc rgb "#404040"
plot tmp.'/me_bar.tsv'   using 2:1:2:3:4:5:6 with boxxyerror fs solid 0.85 lc rgb variable, \
     tmp.'/me_hatch.tsv' using 2:1:2:3:4:5:6 with boxxyerror fs transparent pattern 4 lc rgb variable, \
     tmp.'/me_line.tsv'  using ($4 == 1 ? $1 : NaN):2:(0):($3 - $2) with vectors nohead lw 2.5 lc rgb fail, \
     tmp.'/me_line.tsv'  using ($4 == 2 ? $1 : NaN):2:(0):($3 - $2) with vectors nohead lw 2.5 lc rgb warn, \
     tmp.'/me_line.tsv'  using ($4 == 3 ? $1 : NaN):2:(0):($3 - $2) with vectors nohead lw 1.5 dt 2 lc rgb "black", \
     tmp.'/me_line.tsv'  using ($4 == 4 ? $1 : NaN):2:(0):($3 - $2) with vectors nohead lw 1.5 dt 3 lc rgb "#5f5f5f", \
     tmp.'/me_lab.tsv'   using 1:2:3:4 with labels left tc rgb variable, \
     tmp.'/me_flab.tsv'  using 1:2:3:5 with labels right offset -0.4,0 font ",9" tc rgb variable, \
     tmp.'/me_llab.tsv'  using 1:2:3:5 with labels left offset 0.4,0 font ",9" tc rgb variable, \
     tmp.'/me_tics.tsv'  using (NaN):1:ytic(2) notitle

# ---- health.png -------------------------------------------------------------
set terminal pngcairo size 1100,h_height noenhanced font "sans,10"
set output outdir.'/health.png'
set label 1 "Health tests (SP 800-90B 4.4) and native-word checks: counts in this run, log scale\n".head.\
  "\nred: a count the verdict fails on; green: within its limit" at screen 0.5, screen 1 offset 0,-1.2 center
set xlabel "count (log scale)"
set logscale x
set xrange [0.3 : h_top]
set format x "%.0f"
set xtics 10
set mxtics 10
set rmargin 7
set yrange [0.4 : h_n + 0.6]
set ytics ()
plot tmp.'/h_bar.tsv'   using 2:1:2:3:4:5:6 with boxxyerror fs solid 0.85 lc rgb variable, \
     tmp.'/h_hatch.tsv' using 2:1:2:3:4:5:6 with boxxyerror fs transparent pattern 4 lc rgb variable, \
     tmp.'/h_lab.tsv'   using 1:2:3:4 with labels left offset 0.5,0 tc rgb variable, \
     tmp.'/h_hlab.tsv'  using 1:2:3:4 with labels left tc rgb variable, \
     tmp.'/h_head.tsv'  using 1:2:3:4 with labels left offset 0.5,0 font "sans:Bold,10" tc rgb variable, \
     tmp.'/h_tics.tsv'  using (NaN):1:ytic(2) notitle
unset output
