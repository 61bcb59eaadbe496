#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# spdx-headers.sh [--check] [DIR] - every source file of the tree at DIR
# (default: this script's tree) carries the line
#   SPDX-License-Identifier: GPL-3.0-or-later
# in a comment near its top (rngaudit is GPL-3.0-or-later: COPYING,
# debian/copyright).  Without --check, adds the line where it is missing,
# in the file's own comment syntax, after a #! line if there is one; run it
# again after adding files (it changes nothing twice).  With --check, lists
# the files without it and exits 1 if there are any (tests/spdx.sh).
#
# Source files: C, shell, Python, awk, gnuplot, automake and make
# fragments, configure.ac, YAML, man pages, the systemd/udev/sysusers/
# tmpfiles files and the Debian maintainer scripts and rules.  Not: data
# (tests/data/ but its scripts, the fuzz corpora, data/quirks.txt,
# data/policy.default), documents (README.md, NEWS, COPYING), files that
# autoreconf or a script generates (configure, Makefile.in, m4/,
# build-aux/, tests/fuzz/corpus.mk).
set -eu
ID='SPDX-License-Identifier: GPL-3.0-or-later'
check=no
if [ "${1:-}" = --check ]; then
	check=yes
	shift
fi
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$dir"

# The files, one path a line, relative to DIR.
list() {
	find . \( -path ./.git -o -path ./m4 -o -path ./build-aux -o -path ./autom4te.cache \
		-o -path ./tests/fuzz/corpus -o -path ./tests/fuzz/crashes -o -path './rngaudit-*' \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' -o -name '*.awk' \
		-o -name '*.gp' -o -name '*.mk' -o -name '*.make' -o -name Makefile.am -o -name configure.ac \
		-o -name '*.yml' -o -name '*.1' -o -name '*.in' -o -name '*.timer' -o -name '*.conf' \
		-o -name '*.rules' -o -name '*.sysusers' -o -name '*.tmpfiles' -o -name rngaudit-textfile \
		-o -path ./.ci/run -o -path ./debian/rules -o -path './debian/*.postinst' \
		-o -path './debian/*.prerm' -o -path './debian/*.postrm' \) -print |
		sed 's|^\./||' |
		grep -v -e '^tests/fuzz/corpus\.mk$' -e '^config\.h$' -e '^config\.h\.in$' -e '^Makefile\.in$' -e '/Makefile\.in$' |
		grep -v -e '^tests/data/' -e '^debian/rngaudit/' -e '^debian/\.debhelper/' |
		sort
	# tests/data holds data, and a few scripts of ours
	find tests/data -type f \( -name '*.py' -o -name '*.sh' \) 2>/dev/null | sort
}

# The comment that carries the line, by kind of file.
comment() {
	case "$1" in
	*.c | *.h) echo "/* $ID */" ;;
	*.1) echo ".\\\" $ID" ;;
	configure.ac) echo "dnl $ID" ;;
	*) echo "# $ID" ;;
	esac
}

missing=0
for f in $(list); do
	# in the first five lines, as SPDX tools look for it
	if head -n 5 "$f" | grep -q "$ID"; then
		continue
	fi
	if [ "$check" = yes ]; then
		echo "$f: no '$ID'"
		missing=$((missing + 1))
		continue
	fi
	line=$(comment "$f")
	tmp="$f.spdx.$$"
	if head -n 1 "$f" | grep -q '^#!'; then
		{ head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } >"$tmp"
	else
		{ echo "$line"; cat "$f"; } >"$tmp"
	fi
	# keep the mode (executable scripts stay executable)
	chmod "$(stat -c %a "$f")" "$tmp"
	mv "$tmp" "$f"
	echo "$f"
done
if [ "$check" = yes ] && [ "$missing" -gt 0 ]; then
	echo "spdx-headers.sh: $missing files without '$ID' (scripts/spdx-headers.sh adds it)" >&2
	exit 1
fi
exit 0
