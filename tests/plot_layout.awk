# SPDX-License-Identifier: GPL-3.0-or-later
# plot_layout.awk - checks a picture's layout as rngaudit-plot.awk wrote
# it (the boxes of its texts, bars and markers, in image pixels; see the
# comment at the top of scripts/rngaudit-plot.awk).
# usage: awk -v P=me|h|f -f plot_layout.awk DIR/layout.gp DIR/P_lab.tsv DIR/P_labb.tsv \
#          DIR/P_rect.tsv DIR/P_pt.tsv
# Prints one line per problem (a text outside the image or closer than 2
# pixels to its edge, two texts that overlap, a text over a bar or a
# marker) and exits 1 if any, else prints nothing and exits 0.
BEGIN { FS = "\t"; M = 2 }
FILENAME ~ /layout\.gp$/ {
	split($0, a, " = ")
	if (a[1] == P "_W") W = a[2] + 0
	if (a[1] == P "_H") H = a[2] + 0
	next
}
FILENAME ~ /_labb?\.tsv$/ { n++; t[n] = $4; x0[n] = $5; y0[n] = $6; x1[n] = $7; y1[n] = $8; next }
FILENAME ~ /_rect\.tsv$/ { m++; rx0[m] = $1; rx1[m] = $2; ry0[m] = $3; ry1[m] = $4; rw[m] = $6 " of " $7; next }
# the diamond (pt 13, ps 1.6) reaches 8 pixels from its centre
FILENAME ~ /_pt\.tsv$/ { m++; rx0[m] = $1 - 8; rx1[m] = $1 + 8; ry0[m] = $2 - 8; ry1[m] = $2 + 8; rw[m] = $3 " marker"; next }
function over(a0, a1, b0, b1, c0, c1, d0, d1) { return a0 < a1 + 0 && b0 < b1 + 0 && c0 < c1 + 0 && d0 < d1 + 0 }
END {
	if (!W || !H) { print "no size for picture " P " in layout.gp"; exit 1 }
	for (i = 1; i <= n; i++) {
		if (x0[i] < M || y0[i] < M || x1[i] > W - M || y1[i] > H - M) {
			print "outside the " W "x" H " image: '" t[i] "' at " x0[i] "," y0[i] "-" x1[i] "," y1[i]; bad++
		}
		for (j = i + 1; j <= n; j++)
			if (x0[i] < x1[j] && x0[j] < x1[i] && y0[i] < y1[j] && y0[j] < y1[i]) {
				print "overlap: '" t[i] "' and '" t[j] "'"; bad++
			}
		for (k = 1; k <= m; k++)
			if (x0[i] < rx1[k] && rx0[k] < x1[i] && y0[i] < ry1[k] && ry0[k] < y1[i]) {
				print "over a " rw[k] ": '" t[i] "'"; bad++
			}
	}
	if (bad) exit 1
}
