#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# builddeps.sh - every header, library, pkg-config module and autoconf macro
# that configure.ac checks for comes from a package debian/control declares
# in Build-Depends (or from build-essential, which Debian's build
# environment always has).  A clean chroot proves the same thing
# (scripts/deb-clean-build.sh) but costs ~11 minutes, too much for CI; this
# maps each check to the Debian package that owns the file the compiler,
# the linker, pkg-config or aclocal would use on this machine (dpkg -S), so
# a check added to configure.ac without its Build-Depends fails here
# (issue 25 item 1).  Optional programs found with AC_PATH_PROG
# (mandoc, xmllint, gnuplot, promtool, systemd-analyze) are not build
# dependencies: the tests that need them skip without them.
. "${top_srcdir:-.}/tests/tap.sh"
control="$top_srcdir/debian/control"
ac="$top_srcdir/configure.ac"
CC=${CC:-cc}
if [ ! -f "$control" ]; then
	echo "1..0 # SKIP no debian/control (a release tarball has no debian/)"
	exit 0
fi
if ! command -v dpkg-query >/dev/null 2>&1 || ! dpkg-query -W build-essential >/dev/null 2>&1; then
	echo "1..0 # SKIP not a Debian system with build-essential: no package to map files to"
	exit 0
fi

# The declared Build-Depends, one name a line (versions, profiles and
# architecture qualifiers dropped).
sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$control" | sed '$d' |
	sed -e 's/^Build-Depends://' | tr ',' '\n' |
	sed -e 's/[<[(].*//' -e 's/|.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' |
	grep -v '^$' | sed 's/:any$//' | sort -u >"$TMPD/declared"
# debhelper-compat (= 13) is debhelper
sed -i 's/^debhelper-compat$/debhelper/' "$TMPD/declared"

# build-essential and what it depends on, recursively (installed packages):
# Debian's build environment always has them (Policy 4.2); Essential: yes
# packages (coreutils, dpkg, ...) too; and what the declared ones pull in
# (debhelper brings autoconf, automake and libtool through dh-autoreconf,
# libmpfr-dev brings libgmp-dev).  One dpkg-query for every installed
# package, then the closure in awk.
dpkg-query -W -f='${Package}\t${Essential}\t${Depends},${Pre-Depends}\n' >"$TMPD/installed"
{ echo build-essential; cat "$TMPD/declared"; } | awk -F '\t' '
	NR == FNR { dep[$1] = $3; if ($2 == "yes") want[$1] = 1; next }
	{ want[$1] = 1 }
	END {
		do {
			grew = 0
			for (p in want) {
				if (done[p]++) continue
				n = split(dep[p], d, /[,|]/)
				for (i = 1; i <= n; i++) {
					q = d[i]; sub(/\(.*/, "", q); sub(/:any/, "", q); gsub(/[ \t]/, "", q)
					if (q != "" && !(q in want)) { want[q] = 1; grew = 1 }
				}
			}
		} while (grew)
		for (p in want) print p
	}' "$TMPD/installed" - | sort -u >"$TMPD/provided"

# Each check is a line "WHAT<tab>FILE" in $TMPD/checks; one dpkg-query -S
# for all the files afterwards (it reads every package's file list).
want() { printf '%s\t%s\n' "$1" "$2" >>"$TMPD/checks"; }
: >"$TMPD/checks"

# The checks configure.ac makes, as its own text says them.
m4args() { sed -n "s/.*$1(\[\([^]]*\)\].*/\1/p" "$ac"; }
headers=$( (m4args AC_CHECK_HEADER; m4args AC_CHECK_HEADERS) | tr ' ' '\n' | grep -v '^$' | sort -u)
libs=$(m4args AC_CHECK_LIB | sort -u)
mods=$(sed -n 's/.*PKG_CHECK_MODULES(\[[A-Z_]*\], *\[\([^],]*\)\].*/\1/p' "$ac" | awk '{print $1}' | sort -u)
macros=$(grep -o 'AX_[A-Z_]*' "$ac" | sort -u)

check "configure.ac checks headers" test -n "$headers"
check "configure.ac checks libraries" test -n "$libs"
for h in $headers; do
	# the file the preprocessor includes (its first line marker naming it)
	f=$(printf '#include <%s>\n' "$h" | $CC -E -x c - 2>/dev/null |
		sed -n "s|^# [0-9]* \"\\(/[^\"]*/$h\\)\".*|\\1|p" | head -n 1)
	want "header $h" "$f"
done
for l in $libs; do
	# the linker's path, normalised but not resolved (the .so symlink is
	# the -dev package's)
	f=$($CC -print-file-name="lib$l.so")
	case $f in /*) f=$(realpath -s "$f") ;; *) f= ;; esac
	want "library -l$l" "$f"
done
for m in $mods; do
	f=$(pkg-config --path "$m" 2>/dev/null)
	want "pkg-config module $m" "$f"
done
for m in $macros; do
	f=$(ls /usr/share/aclocal/"$(echo "$m" | tr 'A-Z' 'a-z')".m4 2>/dev/null | head -n 1)
	want "autoconf macro $m" "$f"
done
# PKG_CHECK_MODULES and PKG_PROG_PKG_CONFIG: pkg.m4, needed by autoreconf
want "autoconf macro PKG_CHECK_MODULES" "$(ls /usr/share/aclocal/pkg.m4 2>/dev/null)"
# owner of each file: "pkg[:arch][, pkg2]: /path" lines
cut -f 2 "$TMPD/checks" | grep -v '^$' | sort -u | xargs dpkg-query -S >"$TMPD/owners" 2>/dev/null
while IFS='	' read -r what file; do
	if [ -z "$file" ]; then
		ok 1 "$what: not found on this machine (configure would fail here too)"
		continue
	fi
	p=$(grep -F ": $file" "$TMPD/owners" | awk -v f="$file" '{ i = index($0, ": "); if (substr($0, i + 2) == f) { print substr($0, 1, i - 1); exit } }' |
		sed 's/:[a-z0-9]*//g; s/,.*//')
	if [ -z "$p" ]; then
		ok 1 "$what: $file belongs to no installed package"
	elif grep -qx "$p" "$TMPD/provided"; then
		ok 0 "$what: $file from $p (Build-Depends or build-essential)"
	else
		ok 1 "$what: $file from $p, which debian/control does not declare in Build-Depends"
	fi
done <"$TMPD/checks"
# The issue's two: configure stops without zlib, and without libusb-1.0 the
# chaoskey source would silently disappear (debian/rules says --with-libusb
# so that it cannot).
check "Build-Depends: zlib1g-dev" grep -qx zlib1g-dev "$TMPD/declared"
check "Build-Depends: libusb-1.0-0-dev" grep -qx libusb-1.0-0-dev "$TMPD/declared"
check "debian/rules: configure --with-libusb (a missing libusb fails the build)" \
	grep -q -- '--with-libusb\b' "$top_srcdir/debian/rules"
tap_done
