# SPDX-License-Identifier: GPL-3.0-or-later
# rngaudit-plot.awk - turns an audit CSV or a merged fleet CSV into the
# tables plot.gp and plot-fleet.gp draw (run by rngaudit-plot.sh).
# usage: PLOT_MODE=audit|fleet PLOT_TMP=DIR PLOT_CSVNAME=NAME PLOT_FLOORS=FLOORS \
#          LC_ALL=C awk -f rngaudit-plot.awk CSV
# (names through the environment: awk -v would read backslashes in them as
# escapes; LC_ALL=C: length() counts bytes in every awk, see cells()).
# FLOORS: lines FAIL<TAB>WARN<TAB>SOURCE (policy floors per bit, may be
# empty).
#
# The layout is computed here, to the pixel, not by gnuplot: every mark and
# every text of a picture has its place in image pixels (origin bottom
# left, as gnuplot draws them on axes of [0:W] x [0:H]), so that the place
# of each text is known and can be checked (gnuplot reports no text
# extents).  The font is fixed and monospaced, DejaVu Sans Mono 9 pt, whose
# glyphs pngcairo draws CW = 7 pixels apart and within 7 pixels above and
# below the text's centre line (measured; TH = 8 leaves a pixel); a text of
# n characters is a box of n * CW by 2 * TH pixels.  Pictures P = me
# (min-entropy.png), h (health.png), f (fleet.png); tables, tab-separated:
#   P_lab.tsv, P_labb.tsv (bold): x y colour text x0 y0 x1 y1 role source
#       a text left-aligned at (x, y), y its centre line; (x0, y0)-(x1, y1)
#       the box it covers; role says what it is (title, row, value, line,
#       head, tick, axis, status), source the row's source;
#   P_rect.tsv: x0 x1 y0 y1 colour role source   (filled boxes: bars, chips)
#   P_seg.tsv:  x0 y0 x1 y1 style role value source   (lines; style 1 axis,
#       2 grid, 3 fail floor, 4 warn floor, 5 claim, 6 K, 7 median whisker)
#   P_pt.tsv:   x y role source   (the fleet's median diamonds)
# and layout.gp: P_W and P_H, each picture's size in pixels.
# tests/plot_layout.sh checks, for every picture of its fixtures, that
# every text box lies inside the image and that no two text boxes, and no
# text box and bar, overlap.
#
# Labels are data, never code: every text from the CSV (a source spec, a
# host name, a file name) goes only into a table column, which gnuplot
# reads as a string (with labels) and never evaluates.  layout.gp, which
# gnuplot loads as commands, holds numbers printed here with %d and
# nothing else: a string there would be a command line, where gnuplot runs
# `backquotes` and expands @macros.
# Columns are found by name in the CSV's header: later schemas may add or
# reorder columns.  Booleans are read in every spelling the CSVs have had
# (1/0, yes/no, on/off, true/false).  POSIX awk only (Debian's default awk
# is mawk).

# Colours: verdict bars, and darker shades of them for text on white.
function colour(st) { return st == "pass" ? 2924588 : st == "warn" ? 15903000 : st == "fail" ? 14034728 : 10132122 }
function tcolour(st) { return st == "pass" ? 1800731 : st == "warn" ? 11038976 : st == "fail" ? 12588570 : 6250335 }
#   2924588 = #2ca02c green, 15903000 = #f2a918 amber, 14034728 = #d62728 red,
#   10132122 = #9a9a9a grey; text: #1b7a1b, #a87000, #c0161a, #5f5f5f.

# One RFC 4180 record from the current line (and more lines while a quoted
# field is open) into f[1..n]; returns n.
function record(f,    n, i, c, q, v, line, L) {
	line = $0
	n = 0; v = ""; q = 0
	for (;;) {
		sub(/\r$/, "", line)
		L = length(line)
		for (i = 1; i <= L; i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr(line, i + 1, 1) == "\"") { v = v "\""; i++ } else q = 0
				} else v = v c
			} else if (c == "\"") q = 1
			else if (c == ",") { f[++n] = v; v = "" }
			else v = v c
		}
		if (!q || (getline line) <= 0)
			break
		v = v "\n"
	}
	f[++n] = v
	return n
}

# Text safe in a tab-separated gnuplot table: no tabs, newlines or double
# quotes (gnuplot reads "..." in data as a quoted string).
function cell(s) { gsub(/[\t\n\r]/, " ", s); gsub(/"/, "'", s); return s }
function get(name) { return (name in col) ? F[col[name]] : "" }
# A boolean column in any spelling: 1, 0, or -1 (empty, unknown, other).
function truth(s) {
	s = tolower(s)
	return s == "1" || s == "yes" || s == "on" || s == "true" ? 1 : \
	       s == "0" || s == "no" || s == "off" || s == "false" ? 0 : -1
}
# 12500 -> "12,500"
function thousands(n,    s, out) {
	s = sprintf("%.0f", n); out = ""
	while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
	return s out
}
function base(p) { sub(/.*\//, "", p); return p }
# A row label: a long source spec (a file path) keeps its start and end.
function short(s) { return length(s) <= 44 ? s : substr(s, 1, 16) "..." substr(s, length(s) - 24) }
# The same at most n long (a heading has more room).
function shortn(s, n,    a) { a = int((n - 3) / 3); return length(s) <= n ? s : substr(s, 1, a) "..." substr(s, length(s) - (n - 3 - a) + 1) }
function fmt(x) { return sprintf("%.2f", x) }
# A number from a CSV field (0 for text): numeric columns of the tables hold nothing else.
function num(s) { return s + 0 }
function maxf(a, b) { return a > b ? a : b }
function minf(a, b) { return a < b ? a : b }
function log10(x) { return log(x) / log(10) }
function plural(n, w) { return thousands(n) " " w (n == 1 ? "" : "s") }

# ---- the layout: pixels, boxes, tables ------------------------------------
# Character cells of a text: bytes (LC_ALL=C) less UTF-8 continuation
# bytes, plus one for each 3- or 4-byte character (wide in most fonts).
function cells(s,    t, c, l) {
	t = s; c = gsub(/[\200-\277]/, "", t)
	t = s; l = gsub(/[\340-\367]/, "", t)
	return length(s) - c + l
}
function textw(s) { return cells(s) * CW }
# Starts a picture: forgets the last one's marks.
function pic_start() { nL = nR = nS = nP = nG = 0 }
# A text, left-aligned at x, centre line y (pixels from the top while the
# picture is laid out; flipped when written).  Returns its index.
function lab(x, y, c, t, role, src, bold) {
	nL++; t = cell(t)
	Lx[nL] = x; Ly[nL] = y; Lc[nL] = c; Lt[nL] = t; Lw[nL] = textw(t)
	Lr[nL] = role; Ls[nL] = cell(src); Lb[nL] = bold; Lctr[nL] = 0
	return nL
}
# A text ending at x (right-aligned), or centred on x.
function labr(x, y, c, t, role, src, bold,    k) { k = lab(x, y, c, t, role, src, bold); Lx[k] -= Lw[k]; return k }
function labc(x, y, c, t, role, src, bold,    k) { k = lab(x, y, c, t, role, src, bold); Lx[k] -= Lw[k] / 2; return k }
function rect(x0, x1, y0, y1, c, role, src) {
	nR++; Rx0[nR] = x0; Rx1[nR] = x1; Ry0[nR] = y0; Ry1[nR] = y1; Rc[nR] = c; Rr[nR] = role; Rs[nR] = cell(src)
}
function seg(x0, y0, x1, y1, style, role, value, src) {
	nS++; Sx0[nS] = x0; Sy0[nS] = y0; Sx1[nS] = x1; Sy1[nS] = y1; Sst[nS] = style
	Sr[nS] = role; Sv[nS] = value; Ss[nS] = cell(src)
}
function pt(x, y, role, src) { nP++; Px[nP] = x; Py[nP] = y; Pr[nP] = role; Ps[nP] = cell(src) }
# Does a text box [x, x + w] at line y overlap any text placed so far?
function lab_free(x, w, y,    k) {
	for (k = 1; k <= nL; k++)
		if (x < Lx[k] + Lw[k] + GAP && Lx[k] < x + w + GAP && y - TH < Ly[k] + TH && Ly[k] - TH < y + TH)
			return 0
	return 1
}
function r1(x) { return sprintf("%.1f", x) }
# Writes picture P's tables and size: the image is as wide as its widest
# content (at least MINW) and H high; titles (Lctr) are centred on it.
function pic_write(P, H,    W, k, y, f) {
	W = MINW
	for (k = 1; k <= nL; k++) W = maxf(W, Lctr[k] ? Lw[k] + 2 * PAD : Lx[k] + Lw[k] + PAD)
	for (k = 1; k <= nR; k++) W = maxf(W, Rx1[k] + PAD)
	W = int(W + 0.999)
	for (k = 1; k <= nL; k++) {
		if (Lctr[k]) Lx[k] = (W - Lw[k]) / 2
		y = H - Ly[k]
		f = tmp "/" P (Lb[k] ? "_labb" : "_lab") ".tsv"
		printf "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r1(Lx[k]), r1(y), Lc[k], Lt[k],
			r1(Lx[k]), r1(y - TH), r1(Lx[k] + Lw[k]), r1(y + TH), Lr[k], Ls[k] > f
	}
	for (k = 1; k <= nR; k++)
		printf "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r1(Rx0[k]), r1(Rx1[k]), r1(H - Ry1[k]), r1(H - Ry0[k]),
			Rc[k], Rr[k], Rs[k] > (tmp "/" P "_rect.tsv")
	for (k = 1; k <= nS; k++)
		printf "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", r1(Sx0[k]), r1(H - Sy0[k]), r1(Sx1[k]), r1(H - Sy1[k]),
			Sst[k], Sr[k], Sv[k], Ss[k] > (tmp "/" P "_seg.tsv")
	for (k = 1; k <= nP; k++)
		printf "%s\t%s\t%s\t%s\n", r1(Px[k]), r1(H - Py[k]), Pr[k], Ps[k] > (tmp "/" P "_pt.tsv")
	printf "%s_W = %d\n%s_H = %d\n", P, W, P, int(H + 0.5) > (tmp "/layout.gp")
}
# Title lines centred at the top from y; returns the y below them.
function titles(y, n, t,    k) {
	for (k = 1; k <= n; k++) { Lctr[lab(0, y, 0, t[k], "title", "", k == 1)] = 1; y += LH }
	return y
}
# The x axis of a linear scale [0, xmax] over pixels [x0, x0 + dw] at y:
# the axis line, a tick and a number every step, the grid over the bands
# grid_add() listed (rows only: a grid line would cross a heading), and
# the axis title centred below.
function xaxis_lin(x0, dw, xmax, step, y, title,    v, px) {
	seg(x0, y, x0 + dw, y, 1, "axis", "", "")
	for (v = 0; v <= xmax + 1e-9; v += step) {
		px = x0 + dw * v / xmax
		seg(px, y, px, y + 4, 1, "tick", v, "")
		if (v > 0) grid_at(px, v)
		labc(px, y + 13, 0, sprintf("%g", v), "tick", "", 0)
	}
	labc(x0 + dw / 2, y + 13 + LH, 0, title, "axis", "", 0)
}
# The bands of rows the grid runs through, from y0 down to y1.
function grid_add(y0, y1) { nG++; Gy0[nG] = y0; Gy1[nG] = y1 }
function grid_at(px, v,    k) { for (k = 1; k <= nG; k++) seg(px, Gy0[k], px, Gy1[k], 2, "grid", v, "") }
BEGIN {
	mode = ENVIRON["PLOT_MODE"]; tmp = ENVIRON["PLOT_TMP"]
	csvname = ENVIRON["PLOT_CSVNAME"]; floors = ENVIRON["PLOT_FLOORS"]
	CW = 7; TH = 8; LH = 16; GAP = 6; PAD = 12; MINW = 1100
	# Every table exists, if empty: gnuplot skips an empty one (the
	# script drops its warning).
	nt = split("me_lab me_labb me_rect me_seg me_pt h_lab h_labb h_rect h_seg h_pt " \
		   "f_lab f_labb f_rect f_seg f_pt", tables, " ")
	for (t = 1; t <= nt; t++) { printf "" > (tmp "/" tables[t] ".tsv"); close(tmp "/" tables[t] ".tsv") }
	printf "" > (tmp "/layout.gp")
	# The floors file (read here: an empty first file would confuse FNR == NR).
	while (floors != "" && (getline fline < floors) > 0) {
		split(fline, fl, "\t")
		fsrc = fline; sub(/^[^\t]*\t[^\t]*\t/, "", fsrc)
		ffail[fsrc] = fl[1]; fwarn[fsrc] = fl[2]
	}
}
FNR == 1 {
	nh = record(F)
	for (i = 1; i <= nh; i++) col[F[i]] = i
	next
}
{
	if ($0 == "" || $0 == "\r") next
	record(F)
	rows++
	if (mode == "audit") audit_row(rows); else fleet_row(rows)
}
END {
	if (mode == "audit") audit_end(); else fleet_end()
}

# ---- audit CSV ------------------------------------------------------------
function audit_row(i,    v, c) {
	src[i] = get("source")
	v = get("verdict")
	verdict[i] = (v == "pass" || v == "warn" || v == "fail") ? v : "unavailable"
	h[i] = get("h_assessed")
	# K: bits per sample, 8 unless the CSV gives 1..64 (the scale depends on it)
	v = num(get("bits_per_sample"))
	K[i] = v >= 1 && v <= 64 && v == int(v) ? v : 8
	claim[i] = get("h_claim") == "" ? "" : num(get("h_claim"))
	kind[i] = get("kind")
	reasons[i] = ";" get("reasons") ";"
	samples[i] = get("samples")
	partial[i] = truth(get("partial")) == 1   # an interrupted run: its figures are of part of it
	wbits[i] = get("word_bits")
	nc = split("rct_failures apt_failures prop_failures zero_words ones_words word_repeats", cname, " ")
	split("rct_cutoff apt_cutoff prop_cutoff", cutname, " ")
	for (c = 1; c <= nc; c++) cnt[i, c] = get(cname[c])
	for (c = 1; c <= 3; c++) cut[i, c] = get(cutname[c])
	alarms[i] = get("alarms") == "" ? "" : num(get("alarms")); alarms_exp[i] = get("alarms_expected")
	# The policy's floors from the CSV (schema 3), unless -f gave them.
	if (!(src[i] in ffail) && get("policy_fail_below") != "" && get("policy_warn_below") != "") {
		ffail[src[i]] = num(get("policy_fail_below")); fwarn[src[i]] = num(get("policy_warn_below"))
	}
	if (head == "" && get("host") != "")   # one audit: one host, one time
		head = "host " get("host") " · " get("cpu_vendor") " family " get("cpu_family") \
		       " model " get("cpu_model") " · " get("timestamp")
}
function anycount(i,    c) { for (c = 1; c <= nc; c++) if (cnt[i, c] != "") return 1; return 0 }
function ntests(i,    c, n) { n = 0; for (c = 1; c <= nc; c++) if (cnt[i, c] != "") n++; return n }

# The labelled vertical lines of the min-entropy plot (policy floors, the
# claim, K), one segment per row that has a bar, labelled once per run of
# consecutive rows with the same value, in the gap above the run's top row;
# labels at the same place join ("warn < 4 = claim").
function line_runs(kindno, name, vals,    i, j, key) {
	for (i = 1; i <= rows; i++)
		if (vals[i] != "")
			seg(MX0 + MDW * vals[i] / xmax, yc[i] - BH - 2, MX0 + MDW * vals[i] / xmax, yc[i] + BH + 2,
			    kindno + 2, kindno == 1 ? "fail" : kindno == 2 ? "warn" : kindno == 3 ? "claim" : "K",
			    vals[i], src[i])
	i = 1
	while (i <= rows) {
		if (vals[i] == "") { i++; continue }
		j = i
		while (j < rows && vals[j + 1] == vals[i]) j++
		key = vals[i] SUBSEP i
		if (key in glab) glab[key] = glab[key] " = " name
		else { glab[key] = name " " sprintf("%.3g", vals[i]); glk[++ngl] = key; glkind[key] = kindno }
		i = j + 1
	}
}

# A line's label in the gap above row i: beside its line (the fail
# floor's on the left of it, the others on the right), else on the other
# side, else moved right until it meets no other text.
function line_label(key,    kk, x, y, t, w, c, kn, a) {
	split(key, kk, SUBSEP)
	kn = glkind[key]; t = glab[key]; w = textw(t)
	a = MX0 + MDW * kk[1] / xmax
	y = yc[kk[2]] - PITCH / 2
	c = kn == 1 ? tcolour("fail") : kn == 2 ? tcolour("warn") : kn == 3 ? 0 : 6250335
	x = kn == 1 ? a - 4 - w : a + 4
	if (x < PAD || !lab_free(x, w, y)) {
		x = kn == 1 ? a + 4 : a - 4 - w
		if (x < PAD || !lab_free(x, w, y))
			for (x = a + 4; !lab_free(x, w, y) && x < a + 400 * CW; ) x += CW
	}
	lab(x, y, c, t, "line", "")
}

function audit_end(    i, c, k, y, n, x, hi, st, t, fv, wv, cv, kv, cmax, line, cited, extra, pl, w, vt,
		     tt, step, yaxis, top, dec, X0, D, px, txt, unit) {
	if (rows == 0) { print "rngaudit-plot: " csvname ": no rows" > "/dev/stderr"; exit 2 }
	xmax = 0
	for (i = 1; i <= rows; i++) xmax = maxf(xmax, K[i])

	# ---- min-entropy.png: one row per source, the first at the top.
	pic_start()
	PITCH = 48; BH = 13
	n = 0
	tt[++n] = "Assessed min-entropy per sample (SP 800-90B 6.3), coloured by verdict"
	if (head != "") tt[++n] = head
	tt[++n] = "red and amber lines: the policy's fail and warn floors; dashed: the entropy claimed for the health tests;"
	tt[++n] = "dotted: K, all a K-bit sample holds; a source with no bar was not measured"
	y = titles(PAD + TH, n, tt)
	w = 0
	for (i = 1; i <= rows; i++) w = maxf(w, textw(short(src[i])))
	pl = MX0 = maxf(PAD + w + 10, 120)
	# The texts right of the scale first: the scale takes what they leave
	# of the usual width (360 to 640 pixels; the image widens if need be).
	w = 0
	for (i = 1; i <= rows; i++) {
		st = verdict[i]
		extra = kind[i] == "drbg" ? "  DRBG: check only" : \
			kind[i] == "conditioned" ? "  conditioned: check only" : ""
		# A source can fail above the floors: say so when its health tests
		# failed (every HEALTH_ and WORD_ code is a failure, verdict.c).
		if (st == "fail" && reasons[i] ~ /;(HEALTH_(RCT|APT|PROP|STARTUP)|WORD_[A-Z]+);/)
			extra = extra "  · health tests failed"
		if (partial[i])
			extra = extra "  · interrupted run"
		vt[i] = st == "unavailable" ? "unavailable: nothing measured" : h[i] == "" ? st ": not assessed" extra : \
			st "  " fmt(h[i]) " (" sprintf("%.3f", num(h[i]) / K[i]) "/bit)" extra
		if (st != "unavailable" && h[i] != "") w = maxf(w, textw(vt[i]))
	}
	MDW = minf(640, maxf(360, MINW - PAD - pl - 14 - w))
	for (i = 1; i <= rows; i++) yc[i] = y + 4 + TH + PITCH / 2 + (i - 1) * PITCH
	for (i = 1; i <= rows; i++) {
		st = verdict[i]
		labr(pl - 10, yc[i], 0, short(src[i]), "row", src[i])
		fv[i] = wv[i] = cv[i] = kv[i] = ""
		if (st == "unavailable" || h[i] == "") {
			# nothing measured: no bar, no lines, the reason where the bar would be
			lab(pl + 6, yc[i], tcolour(st), vt[i], "status", src[i])
			continue
		}
		hi = num(h[i])
		rect(pl, pl + maxf(MDW * hi / xmax, 3), yc[i] - BH, yc[i] + BH, colour(st), "bar", src[i])
		lab(pl + MDW + 14, yc[i], tcolour(st), vt[i], "value", src[i])
		if (src[i] in ffail) { fv[i] = ffail[src[i]] * K[i]; wv[i] = fwarn[src[i]] * K[i] }
		cv[i] = claim[i]
		kv[i] = K[i]
	}
	ngl = 0
	line_runs(1, "fail <", fv)
	line_runs(2, "warn <", wv)
	line_runs(3, "claim", cv)
	line_runs(4, "K", kv)
	for (k = 1; k <= ngl; k++) line_label(glk[k])
	step = xmax >= 4 ? 1 : xmax / 4
	while (MDW * step / xmax < 40) step *= 2
	yaxis = yc[rows] + PITCH / 2
	grid_add(yc[1] - PITCH / 2, yaxis)
	xaxis_lin(pl, MDW, xmax, step, yaxis, "bits of min-entropy per sample")
	pic_write("me", yaxis + 13 + LH + TH + PAD)

	# ---- health.png: per source a heading (source, verdict, alarms) and a
	# row per test that ran; an unavailable source one row saying so.
	pic_start()
	PITCH = 26; BH = 8
	split("repetition count|adaptive proportion|proportion (every value)|all-zero words|all-ones words|repeated words",
	      clabel, "|")
	split("HEALTH_RCT HEALTH_APT HEALTH_PROP WORD_ZEROS WORD_ONES WORD_REPEATS", ccode, " ")
	n = 0
	tt[++n] = "Health tests (SP 800-90B 4.4) and native-word checks: what ran in this run and how it ended"
	if (head != "") tt[++n] = head
	tt[++n] = "square: a test that ran, green passed, red failed (a count the verdict fails on);"
	tt[++n] = "bar: a count above 0 (failures or suspect words), on a log scale; a count of 0 has no bar"
	y = titles(PAD + TH, n, tt)
	w = 0; cmax = 0
	for (c = 1; c <= nc; c++) w = maxf(w, textw(clabel[c]))
	pl = PAD + w + 10
	for (i = 1; i <= rows; i++) for (c = 1; c <= nc; c++) if (cnt[i, c] != "") cmax = maxf(cmax, num(cnt[i, c]))
	# Counts of 1 and more on a log scale from X0: 1 half a decade right
	# of it, D pixels a decade, the top a decade right of the largest.
	X0 = pl + 22
	dec = 0; top = 1; while (top <= cmax) { top *= 10; dec++ }
	D = minf(110, 560 / (dec + 0.5))
	y += 4 + TH
	for (i = 1; i <= rows; i++) {
		st = verdict[i]
		if (i > 1) y += 10
		line = shortn(src[i], 80) ":  " toupper(st) (partial[i] ? " (interrupted run)" : "")
		if ((st == "fail" || st == "warn") && anycount(i)) {
			cited = 0
			for (c = 1; c <= nc; c++) if (cnt[i, c] != "" && index(reasons[i], ";" ccode[c] ";")) cited = 1
			if (!cited) line = line " (not for these tests)"
		}
		if (alarms[i] != "")
			line = line "  ·  health alarms " alarms[i] ", " sprintf("%.3g", num(alarms_exp[i])) " expected"
		if (samples[i] != "" && st != "unavailable")
			line = line "  ·  " thousands(samples[i]) " samples"
		if (claim[i] != "" && st != "unavailable")
			line = line "  ·  tested at H = " sprintf("%.3g", claim[i])
		lab(PAD, y, tcolour(st), line, "head", src[i], 1)
		y += PITCH
		if (st != "unavailable" && anycount(i)) grid_add(y - PITCH / 2 + 2, y + (ntests(i) - 0.5) * PITCH)
		if (st == "unavailable" || !anycount(i)) {
			lab(pl + 6, y, tcolour(st), st == "unavailable" ? "unavailable: nothing measured" : \
			    "no health test ran", "status", src[i])
			y += PITCH
			continue
		}
		for (c = 1; c <= nc; c++) {
			if (cnt[i, c] == "") continue
			cited = index(reasons[i], ";" ccode[c] ";") > 0
			x = num(cnt[i, c])
			labr(pl - 10, y, 0, clabel[c], "row", src[i])
			rect(pl + 4, pl + 14, y - 5, y + 5, colour(cited ? "fail" : "pass"), "chip", src[i])
			px = X0
			if (x >= 1) {
				px = X0 + D * (log10(x) + 0.5)
				rect(X0, px, y - BH, y + BH, colour(cited ? "fail" : "pass"), "bar", src[i])
			}
			unit = c == 1 ? plural(x, "failure") : c <= 3 ? plural(x, "failed window") : \
			       plural(x, "word") (wbits[i] != "" ? " (" wbits[i] "-bit)" : "")
			txt = unit (c <= 3 && cut[i, c] != "" ? ", cutoff " cut[i, c] : "")
			txt = txt (cited ? "  ·  FAILED (" ccode[c] ")" : x == 0 ? "  ·  passed" : "  ·  not failed on")
			lab(px + 8, y, tcolour(cited ? "fail" : "pass"), txt, "value", src[i])
			y += PITCH
		}
	}
	if (cmax >= 1) {
		yaxis = y - PITCH / 2 + 4
		split("1 10 100 1k 10k 100k 1M 10M 100M 1G 10G", tick, " ")
		seg(X0, yaxis, X0 + D * (dec + 0.5), yaxis, 1, "axis", "", "")
		for (k = 0; k <= dec; k++) {
			px = X0 + D * (k + 0.5)
			seg(px, yaxis, px, yaxis + 4, 1, "tick", 10 ^ k, "")
			grid_at(px, 10 ^ k)
			labc(px, yaxis + 13, 0, k < 11 ? tick[k + 1] : sprintf("%g", 10 ^ k), "tick", "", 0)
		}
		labc(X0 + D * (dec + 0.5) / 2, yaxis + 13 + LH, 0, "count in this run (log scale)", "axis", "", 0)
		y = yaxis + 13 + LH + TH + PAD
	} else
		y = y - PITCH / 2 + PAD
	pic_write("h", y)
}

# ---- merged fleet CSV -----------------------------------------------------
function fleet_row(i,    v, key, k) {
	key = get("cpu_vendor") " family " get("cpu_family") " model " get("cpu_model")
	if (get("microcode") != "") key = key " · microcode " get("microcode")
	v = truth(get("virtualized"))
	key = key (v == 1 ? " · guest" : v == 0 ? " · bare metal" : "")
	if (get("kernel_release") != "") key = key " · kernel " get("kernel_release")
	if (!(key in cpuno)) { ncpu++; cpuno[key] = ncpu; cpukey[ncpu] = key }
	gcpu[i] = cpuno[key]
	gsrc[i] = get("source")
	ghosts[i] = num(get("hosts"))
	gpass[i] = num(get("pass")); gwarn[i] = num(get("warn"))
	gfail[i] = num(get("fail")); gun[i] = num(get("unavailable"))
	gmin[i] = get("h_assessed_min") == "" ? "" : num(get("h_assessed_min"))
	gmed[i] = get("h_assessed_median") == "" ? "" : num(get("h_assessed_median"))
	# The group's policy floors, per sample: per bit times K (empty when
	# its hosts' policies differ or the CSVs predate them); -f for older
	# merged CSVs.
	k = num(get("bits_per_sample"))
	gK[i] = k >= 1 && k <= 64 && k == int(k) ? k : ""
	gfl[i] = gwl[i] = ""
	if (gK[i] != "" && get("policy_fail_below") != "" && get("policy_warn_below") != "") {
		gfl[i] = num(get("policy_fail_below")) * gK[i]; gwl[i] = num(get("policy_warn_below")) * gK[i]
	} else if (gK[i] != "" && (gsrc[i] in ffail)) {
		gfl[i] = ffail[gsrc[i]] * gK[i]; gwl[i] = fwarn[gsrc[i]] * gK[i]
	}
	gst[i] = gfail[i] ? "fail" : gwarn[i] ? "warn" : gpass[i] ? "pass" : "unavailable"
	# worst first: fail, warn, nothing assessed, pass; then the least margin
	# above the fail floor (or the lowest min), then the order of the CSV
	grank[i] = gst[i] == "fail" ? 0 : gst[i] == "warn" ? 1 : gmin[i] == "" ? 2 : 3
	gmargin[i] = gmin[i] == "" ? 1e9 : gmin[i] - (gfl[i] == "" ? 0 : gfl[i])
}
# Is group a worse than group b (drawn above it)?
function worse(a, b) {
	if (grank[a] != grank[b]) return grank[a] < grank[b]
	if (gmargin[a] != gmargin[b]) return gmargin[a] < gmargin[b]
	return a < b
}

function fleet_end(    i, j, c, y, n, st, hmax, s, t, hosts, ord, cord, tmpv, w, pl, tt, yaxis, step, k, x, fl, vt,
		       gy0) {
	if (rows == 0) { print "rngaudit-plot: " csvname ": no rows" > "/dev/stderr"; exit 2 }
	hmax = 0
	for (i = 1; i <= rows; i++) {
		if (gmin[i] != "") hmax = maxf(hmax, num(gmin[i]))
		if (gmed[i] != "") hmax = maxf(hmax, num(gmed[i]))
		if (gK[i] != "") hmax = maxf(hmax, gK[i])
		if (gwl[i] != "") hmax = maxf(hmax, gwl[i])
	}
	s = 1; while (s < hmax) s *= 2       # K is 1..64 bits: the scale's end
	# The rows worst first (insertion sort: stable, a fleet has few groups),
	# each CPU's rows together, the CPUs in the order of their worst row.
	for (i = 1; i <= rows; i++) {
		ord[i] = i
		for (j = i; j > 1 && worse(ord[j], ord[j - 1]); j--) { tmpv = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = tmpv }
	}
	n = 0
	for (i = 1; i <= rows; i++) if (!(gcpu[ord[i]] in cseen)) { cseen[gcpu[ord[i]]] = 1; cord[++n] = gcpu[ord[i]] }

	pic_start()
	PITCH = 30; BH = 9
	tt[1] = "Fleet: assessed min-entropy per sample by CPU and source, worst first (" rows " groups, from " \
		shortn(base(csvname), 60) ")"
	tt[2] = "bar: the lowest host (min), coloured by the group's worst verdict: green pass, amber warn, red fail;"
	tt[3] = "black diamond on a line from the bar: the median host; red and amber ticks: the group's policy floors"
	tt[4] = "(fail and warn) on its own row; no bar: no host assessed"
	y = titles(PAD + TH, 4, tt)
	w = 0
	for (i = 1; i <= rows; i++) w = maxf(w, textw(short(gsrc[i])))
	pl = maxf(PAD + w + 10, 120)
	# the texts right of the scale, first: the scale takes what they leave
	w = 0
	for (i = 1; i <= rows; i++) {
		t = ""
		if (gpass[i]) t = t ", " gpass[i] " pass"
		if (gwarn[i]) t = t ", " gwarn[i] " warn"
		if (gfail[i]) t = t ", " gfail[i] " fail"
		if (gun[i]) t = t ", " gun[i] " unavailable"
		hosts = plural(ghosts[i], "host") " (" substr(t, 3) ")"
		fl = gfl[i] != "" ? "  ·  fail < " sprintf("%.3g", gfl[i]) ", warn < " sprintf("%.3g", gwl[i]) : \
		     "  ·  floors unknown"
		vt[i] = gmin[i] == "" ? (gst[i] == "unavailable" ? "unavailable" : gst[i] ": not assessed") "  ·  " hosts : \
			"min " fmt(gmin[i]) (gmed[i] != "" ? ", median " fmt(gmed[i]) : "") fl "  ·  " hosts
		if (gmin[i] != "") w = maxf(w, textw(vt[i]))
	}
	MDW = minf(600, maxf(360, MINW - PAD - pl - 14 - w))
	y += 4 + TH
	for (c = 1; c <= ncpu; c++) {
		lab(PAD, y, 0, cpukey[cord[c]], "head", "", 1)
		y += PITCH
		gy0 = y - PITCH / 2 + 2
		for (k = 1; k <= rows; k++) {
			i = ord[k]
			if (gcpu[i] != cord[c]) continue
			st = gst[i]
			labr(pl - 10, y, 0, short(gsrc[i]), "row", gsrc[i])
			if (gmin[i] == "") {
				lab(pl + 6, y, tcolour(st), vt[i], "status", gsrc[i])
			} else {
				x = pl + maxf(MDW * gmin[i] / s, 3)
				rect(pl, x, y - BH, y + BH, colour(st), "bar", gsrc[i])
				if (gmed[i] != "") {
					seg(x, y, pl + MDW * gmed[i] / s, y, 7, "median", gmed[i], gsrc[i])
					pt(pl + MDW * gmed[i] / s, y, "median", gsrc[i])
				}
				if (gfl[i] != "") {
					seg(pl + MDW * gfl[i] / s, y - BH - 3, pl + MDW * gfl[i] / s, y + BH + 3, 3, "fail",
					    gfl[i], gsrc[i])
					seg(pl + MDW * gwl[i] / s, y - BH - 3, pl + MDW * gwl[i] / s, y + BH + 3, 4, "warn",
					    gwl[i], gsrc[i])
				}
				lab(pl + MDW + 14, y, tcolour(st), vt[i], "value", gsrc[i])
			}
			y += PITCH
		}
		grid_add(gy0, y - PITCH / 2)
	}
	yaxis = y - PITCH / 2
	step = s >= 4 ? 1 : s / 4
	while (MDW * step / s < 40) step *= 2
	xaxis_lin(pl, MDW, s, step, yaxis, "assessed min-entropy per sample, bits (h_assessed)")
	pic_write("f", yaxis + 13 + LH + TH + PAD)
}
