# plot.gp - pictures of an `rngaudit audit` CSV (gnuplot >= 5.2).
# Called by rngaudit-plot.sh as:
#   gnuplot -e "csv='audit.csv'; outdir='DIR'" plot.gp
# Writes DIR/min-entropy.png (assessed min-entropy per sample of each source
# against the entropy claimed for its health tests, and the most a K-bit
# sample can hold) and DIR/health.png (health-test and native-word failures
# and counts per source).  Columns are read by name (rngaudit-audit(1),
# CSV COLUMNS); an empty field (not measured) plots as nothing.
if (!exists("csv")) csv = 'audit.csv'
if (!exists("outdir")) outdir = '.'

set datafile separator comma
set datafile columnheaders
set datafile missing ''
set terminal pngcairo size 1000,600 noenhanced font ",10"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key outside right top
set xtics rotate by -30 left
set yrange [0:*]

set output outdir.'/min-entropy.png'
set title 'Assessed min-entropy per sample (SP 800-90B 6.3) vs claim; for DRBG output a check, not a credit'
set ylabel 'bits per sample'
plot csv using (column('h_assessed')):xtic(stringcolumn('source')) title 'assessed (h_assessed)', \
     ''  using (column('h_claim')) title 'claimed for the health tests (h_claim)', \
     ''  using (column('bits_per_sample')) title 'bits per sample (K)'

set output outdir.'/health.png'
set title 'Health tests (SP 800-90B 4.4) and native-word checks per source'
set ylabel 'count in this audit run'
plot csv using (column('rct_failures')):xtic(stringcolumn('source')) title 'RCT failures', \
     ''  using (column('apt_failures')) title 'APT failures', \
     ''  using (column('zero_words')) title 'all-zero words', \
     ''  using (column('ones_words')) title 'all-ones words', \
     ''  using (column('word_repeats')) title 'repeated words'
unset output
