# SPDX-License-Identifier: GPL-3.0-or-later
# rngaudit-plot.awk - turns an audit CSV or a merged fleet CSV into the
# tables plot.gp and plot-fleet.gp draw (run by rngaudit-plot.sh).
# usage: PLOT_MODE=audit|fleet PLOT_TMP=DIR PLOT_CSVNAME=NAME PLOT_FLOORS=FLOORS \
#          awk -f rngaudit-plot.awk CSV
# (names through the environment: awk -v would read backslashes in them as
# escapes).  FLOORS: lines FAIL<TAB>WARN<TAB>SOURCE (policy floors per bit,
# may be empty).
# Writes DIR/layout.gp (numbers only: ranges, margins, image heights) and
# tab-separated tables DIR/*.tsv, one per kind of mark, the row labels
# (*_tics.tsv) and the titles (titles.tsv).
#
# Labels are data, never code: every text from the CSV (a source spec, a
# host name, a file name) goes only into a table column, which gnuplot
# reads as a string (ytic(), with labels, strcol()) and never evaluates.
# layout.gp, which gnuplot loads as commands, holds numbers printed here
# with %d and %.6g and nothing else: a string there would be a command line,
# where gnuplot runs `backquotes` and expands @macros.
# Columns are found by name in the CSV's header: later schemas may add or
# reorder columns.  POSIX awk only (Debian's default awk is mawk).

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
function has(name) { return (name in col) }
# 12500 -> "12,500"
function thousands(n,    s, out) {
	s = sprintf("%.0f", n); out = ""
	while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
	return s out
}
function base(p) { sub(/.*\//, "", p); return p }
# A row label: a long source spec (a file path) keeps its start and end.
function short(s) { return length(s) <= 44 ? s : substr(s, 1, 16) "..." substr(s, length(s) - 24) }
# Room left of the plot for the longest row label, in characters.
function lmargin(names, n,    i, m) {
	m = 10
	for (i = 1; i <= n; i++) if (length(short(names[i])) > m) m = length(short(names[i]))
	return m + 3
}
function fmt(x) { return sprintf("%.2f", x) }
# A number from a CSV field (0 for text): numeric columns of the tables hold nothing else.
function num(s) { return s + 0 }
# A number as layout.gp and the tables print it (never text).
function g(x) { return sprintf("%.6g", x) }
function maxf(a, b) { return a > b ? a : b }

BEGIN {
	mode = ENVIRON["PLOT_MODE"]; tmp = ENVIRON["PLOT_TMP"]
	csvname = ENVIRON["PLOT_CSVNAME"]; floors = ENVIRON["PLOT_FLOORS"]
	# Every table exists, if empty: gnuplot skips an empty one quietly.
	nt = split("me_bar me_hatch me_line me_flab me_llab me_lab me_tics h_bar h_hatch h_lab h_hlab h_head h_tics " \
		   "f_bar f_hatch f_med f_lab f_head f_tics titles", tables, " ")
	for (t = 1; t <= nt; t++) { printf "" > (tmp "/" tables[t] ".tsv"); close(tmp "/" tables[t] ".tsv") }
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
function audit_row(i,    v) {
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
	nc = split("rct_failures apt_failures prop_failures zero_words ones_words word_repeats", cname, " ")
	for (c = 1; c <= nc; c++) cnt[i, c] = get(cname[c])
	alarms[i] = get("alarms") == "" ? "" : num(get("alarms")); alarms_exp[i] = get("alarms_expected")
	# The policy's floors from the CSV (schema 3), unless -f gave them.
	if (!(src[i] in ffail) && get("policy_fail_below") != "" && get("policy_warn_below") != "") {
		ffail[src[i]] = num(get("policy_fail_below")); fwarn[src[i]] = num(get("policy_warn_below"))
	}
	if (head == "" && get("host") != "")   # one audit: one host, one time
		head = "host " get("host") " · " get("cpu_vendor") " family " get("cpu_family") \
		       " model " get("cpu_model") " · " get("timestamp")
}

# The labelled vertical lines of the min-entropy plot (policy floors, the
# claim, K): one segment per run of consecutive rows with the same value,
# labelled once in the gap above the run's top row; labels at the same
# place join ("warn < 4 = claim").  Fail labels end at their line, the others
# start at theirs: the fail floor is under the warn floor, so they never meet.
function line_runs(kindno, name, vals,    i, j, y0, y1, key) {
	i = 1
	while (i <= rows) {
		if (vals[i] == "") { i++; continue }
		j = i
		while (j < rows && vals[j + 1] == vals[i]) j++
		y0 = rows - j + 1 - 0.36; y1 = rows - i + 1 + 0.36
		printf "%s\t%s\t%s\t%d\n", g(vals[i]), y0, y1, kindno > (tmp "/me_line.tsv")
		key = vals[i] SUBSEP (rows - i + 1.5)
		if (key in lab) lab[key] = lab[key] " = " name
		else { lab[key] = name " " sprintf("%.3g", vals[i]); labk[++nl] = key; labn[key] = kindno }
		i = j + 1
	}
}

function audit_end(    i, c, k, kk, y, n, x, hi, top, hend, xmax, st, t, fv, wv, cv, kv, cmax, line,
		     cited, extra) {
	if (rows == 0) { print "rngaudit-plot: " csvname ": no rows" > "/dev/stderr"; exit 2 }
	xmax = 0
	for (i = 1; i <= rows; i++) xmax = maxf(xmax, K[i])

	# min-entropy.png: one row per source, the first at the top.
	for (i = 1; i <= rows; i++) {
		y = rows - i + 1
		st = verdict[i]
		printf "%d\t%s\n", y, cell(short(src[i])) > (tmp "/me_tics.tsv")
		extra = kind[i] == "drbg" ? "  DRBG: check only" : \
			kind[i] == "conditioned" ? "  conditioned: check only" : ""
		# A source can fail above the floors: say so when its health tests
		# failed (every HEALTH_ and WORD_ code is a failure, verdict.c).
		if (st == "fail" && reasons[i] ~ /;(HEALTH_(RCT|APT|PROP|STARTUP)|WORD_[A-Z]+);/)
			extra = extra "  · health tests failed"
		if (st == "unavailable") {
			printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0, K[i], y - 0.3, y + 0.3, colour(st) > (tmp "/me_hatch.tsv")
			printf "%s\t%s\t%s\t%d\n", xmax * 1.03, y, "unavailable: nothing measured", tcolour(st) > (tmp "/me_lab.tsv")
		} else if (h[i] == "") {
			printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0, K[i], y - 0.3, y + 0.3, colour(st) > (tmp "/me_hatch.tsv")
			printf "%s\t%s\t%s\t%d\n", xmax * 1.03, y, st ": not assessed", tcolour(st) > (tmp "/me_lab.tsv")
		} else {
			hi = num(h[i]); if (hi < xmax * 0.006) hi = xmax * 0.006   # 0 bits: a visible stub
			printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0, hi, y - 0.3, y + 0.3, colour(st) > (tmp "/me_bar.tsv")
			printf "%s\t%s\t%s\t%d\n", xmax * 1.03, y,
				st "  " fmt(h[i]) " (" sprintf("%.3f", num(h[i]) / K[i]) "/bit)" extra,
				tcolour(st) > (tmp "/me_lab.tsv")
		}
		fv[i] = wv[i] = ""
		if (src[i] in ffail) { fv[i] = ffail[src[i]] * K[i]; wv[i] = fwarn[src[i]] * K[i] }
		cv[i] = st == "unavailable" ? "" : claim[i]
		kv[i] = K[i]
	}
	line_runs(1, "fail <", fv)
	line_runs(2, "warn <", wv)
	line_runs(3, "claim", cv)
	line_runs(4, "K", kv)
	# The fail floor's labels (right of their line) in a table of their own:
	# gnuplot 5.4.4 crashes in the next plot after a `with labels` whose
	# every row was filtered out as NaN (an audit with no fail floor drawn).
	for (k = 1; k <= nl; k++) {
		split(labk[k], kk, SUBSEP)
		printf "%s\t%s\t%s\t%d\t%d\n", g(kk[1]), kk[2], cell(lab[labk[k]]), labn[labk[k]],
			labn[labk[k]] == 1 ? tcolour("fail") : labn[labk[k]] == 2 ? tcolour("warn") : \
			labn[labk[k]] == 3 ? 0 : 6250335 > (tmp (labn[labk[k]] == 1 ? "/me_flab.tsv" : "/me_llab.tsv"))
	}
	printf "me_n = %d\nme_xmax = %s\n", rows, g(xmax) > (tmp "/layout.gp")
	printf "me_lmargin = %d\n", lmargin(src, rows) > (tmp "/layout.gp")
	printf "me_height = %d\n", 190 + 46 * rows > (tmp "/layout.gp")
	# the title's host line, read by plot.gp with strcol() (never a command)
	printf "head\t%s\n", cell(head) > (tmp "/titles.tsv")

	# health.png: per source a header row (source, verdict, alarms) and a
	# row per count it measured; unavailable sources one hatched row.
	n = 0
	for (i = 1; i <= rows; i++) {
		n++
		if (verdict[i] != "unavailable")
			for (c = 1; c <= nc; c++) if (cnt[i, c] != "") n++
		if (verdict[i] == "unavailable" || !anycount(i)) n++
		if (i > 1) n += 0.5
	}
	cmax = 1
	for (i = 1; i <= rows; i++) for (c = 1; c <= nc; c++) if (cnt[i, c] != "") cmax = maxf(cmax, num(cnt[i, c]))
	# decades: room right of the longest bar for its label
	top = 1; while (top <= cmax) top *= 10; top *= 10
	hend = 0.3 * exp(0.4 * log(top / 0.3))   # hatched rows: 40% of the axis
	y = n
	split("RCT failures|APT failures|proportion-test failures|all-zero words|all-ones words|repeated words", clabel, "|")
	split("HEALTH_RCT HEALTH_APT HEALTH_PROP WORD_ZEROS WORD_ONES WORD_REPEATS", ccode, " ")
	for (i = 1; i <= rows; i++) {
		st = verdict[i]
		if (i > 1) y -= 0.5
		line = src[i] ":  " toupper(st)
		if ((st == "fail" || st == "warn") && anycount(i)) {
			cited = 0
			for (c = 1; c <= nc; c++) if (cnt[i, c] != "" && index(reasons[i], ";" ccode[c] ";")) cited = 1
			if (!cited) line = line " (not for these counts)"
		}
		if (alarms[i] != "")
			line = line "   ·   health alarms " alarms[i] ", " sprintf("%.3g", num(alarms_exp[i])) " expected"
		if (samples[i] != "" && st != "unavailable")
			line = line "   ·   " thousands(samples[i]) " samples"
		printf "%s\t%s\t%s\t%d\n", 0.3, y, cell(line), tcolour(st) > (tmp "/h_head.tsv")
		y--
		if (st == "unavailable" || !anycount(i)) {
			printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0.3, hend, y - 0.32, y + 0.32, colour(st) > (tmp "/h_hatch.tsv")
			t = st == "unavailable" ? "unavailable: nothing measured" : "health tests did not run"
			printf "%s\t%s\t%s\t%d\n", hend * 1.1, y, t, tcolour(st) > (tmp "/h_hlab.tsv")
			y--
			continue
		}
		for (c = 1; c <= nc; c++) {
			if (cnt[i, c] == "") continue
			cited = index(reasons[i], ";" ccode[c] ";") > 0
			x = num(cnt[i, c])
			# 0 has no place on a log axis: a "0" at the floor, no bar
			hi = x < 1 ? 0.3 : x
			if (x >= 1)
				printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0.3, hi, y - 0.32, y + 0.32,
					colour(cited ? "fail" : "pass") > (tmp "/h_bar.tsv")
			printf "%s\t%s\t%s\t%d\n", hi * 1.1, y, thousands(x) (cited ? "   failed (" ccode[c] ")" : ""),
				tcolour(cited ? "fail" : "pass") > (tmp "/h_lab.tsv")
			printf "%s\t%s\n", y, clabel[c] > (tmp "/h_tics.tsv")
			y--
		}
	}
	printf "h_n = %s\nh_top = %s\nh_height = %d\n", g(n), g(top), 150 + 24 * n > (tmp "/layout.gp")
}
function anycount(i,    c) { for (c = 1; c <= nc; c++) if (cnt[i, c] != "") return 1; return 0 }

# ---- merged fleet CSV -----------------------------------------------------
function fleet_row(i,    v, key) {
	key = get("cpu_vendor") " family " get("cpu_family") " model " get("cpu_model")
	if (get("microcode") != "") key = key " · microcode " get("microcode")
	v = get("virtualized")
	key = key (v == "yes" ? " · guest" : v == "no" ? " · bare metal" : "")
	if (get("kernel_release") != "") key = key " · kernel " get("kernel_release")
	if (!(key in cpuno)) { ncpu++; cpuno[key] = ncpu; cpukey[ncpu] = key }
	gcpu[i] = cpuno[key]
	gsrc[i] = get("source")
	ghosts[i] = num(get("hosts"))
	gpass[i] = num(get("pass")); gwarn[i] = num(get("warn"))
	gfail[i] = num(get("fail")); gun[i] = num(get("unavailable"))
	gmin[i] = get("h_assessed_min") == "" ? "" : num(get("h_assessed_min"))
	gmed[i] = get("h_assessed_median") == "" ? "" : num(get("h_assessed_median"))
}

function fleet_end(    i, c, y, n, st, hmax, s, t, hosts) {
	if (rows == 0) { print "rngaudit-plot: " csvname ": no rows" > "/dev/stderr"; exit 2 }
	hmax = 0
	for (i = 1; i <= rows; i++) {
		if (gmin[i] != "") hmax = maxf(hmax, num(gmin[i]))
		if (gmed[i] != "") hmax = maxf(hmax, num(gmed[i]))
	}
	s = 1; while (s < hmax) s *= 2       # K is 1..8 bits: the scale's end
	n = ncpu + rows
	y = n
	for (c = 1; c <= ncpu; c++) {
		printf "%s\t%s\t%s\n", 0, y, cell(cpukey[c]) > (tmp "/f_head.tsv")
		y--
		for (i = 1; i <= rows; i++) {
			if (gcpu[i] != c) continue
			st = gfail[i] ? "fail" : gwarn[i] ? "warn" : gpass[i] ? "pass" : "unavailable"
			hosts = ghosts[i] " host" (ghosts[i] == 1 ? "" : "s")
			t = ""
			if (gpass[i]) t = t ", " gpass[i] " pass"
			if (gwarn[i]) t = t ", " gwarn[i] " warn"
			if (gfail[i]) t = t ", " gfail[i] " fail"
			if (gun[i]) t = t ", " gun[i] " unavailable"
			hosts = hosts " (" substr(t, 3) ")"
			printf "%d\t%s\n", y, cell(short(gsrc[i])) > (tmp "/f_tics.tsv")
			if (gmin[i] == "") {
				printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0, s, y - 0.3, y + 0.3, colour(st) > (tmp "/f_hatch.tsv")
				printf "%s\t%s\t%s\t%d\n", s * 1.01, y, (st == "unavailable" ? "unavailable" : "not assessed") \
					"  ·  " hosts, tcolour(st) > (tmp "/f_lab.tsv")
			} else {
				printf "%s\t%s\t%s\t%s\t%s\t%d\n", y, 0, maxf(num(gmin[i]), s * 0.006), y - 0.3, y + 0.3,
					colour(st) > (tmp "/f_bar.tsv")
				if (gmed[i] != "")
					printf "%s\t%s\t%s\n", g(gmed[i]), y, g(gmin[i]) > (tmp "/f_med.tsv")
				printf "%s\t%s\t%s\t%d\n", s * 1.01, y,
					"min " fmt(gmin[i]) (gmed[i] != "" ? ", median " fmt(gmed[i]) : "") "  ·  " hosts,
					tcolour(st) > (tmp "/f_lab.tsv")
			}
			y--
		}
	}
	printf "f_n = %d\nf_scale = %s\nf_height = %d\n", n, g(s), 170 + 26 * n > (tmp "/layout.gp")
	printf "f_lmargin = %d\n", lmargin(gsrc, rows) > (tmp "/layout.gp")
	printf "f_title\t%s\n", cell("Fleet: assessed min-entropy per sample by CPU and source (" rows " groups, from " base(csvname) ")") > (tmp "/titles.tsv")
}
