#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# spdx.sh - every source file carries SPDX-License-Identifier:
# GPL-3.0-or-later (scripts/spdx-headers.sh --check lists those that do
# not), and the script adds the line in each file's comment syntax, after a
# #! line, keeping the mode, and only once.
. "${top_srcdir:-.}/tests/tap.sh"
spdx="$top_srcdir/scripts/spdx-headers.sh"
ID='SPDX-License-Identifier: GPL-3.0-or-later'

sh "$spdx" --check "$top_srcdir" >"$TMPD/missing" 2>&1
ok $? "every source file carries '$ID'"
head -n 20 "$TMPD/missing" | sed 's/^/# /'

# the script on a small tree of each kind
t="$TMPD/tree"
mkdir -p "$t/src" "$t/man" "$t/tests/data/x" "$t/tests/fuzz/corpus/p"
printf '/* a.c - a file */\nint a;\n' >"$t/src/a.c"
printf '#!/bin/sh\necho hi\n' >"$t/tests/b.sh"
chmod 755 "$t/tests/b.sh"
printf '.Dd December 4, 2026\n' >"$t/man/c.1"
printf 'AC_INIT([x], [1])\n' >"$t/configure.ac"
printf 'groups: []\n' >"$t/d.yml"
printf 'data\n' >"$t/tests/data/x/e.txt"
printf 'corpus\n' >"$t/tests/fuzz/corpus/p/f.c"
check "--check on a tree without the line fails" sh -c "! sh '$spdx' --check '$t' >/dev/null 2>&1"
sh "$spdx" "$t" >"$TMPD/added"
check "five files get the line" test "$(wc -l <"$TMPD/added")" -eq 5
check "C: a comment on the first line" test "$(head -n 1 "$t/src/a.c")" = "/* $ID */"
check "C: the file follows unchanged" test "$(sed -n 2p "$t/src/a.c")" = "/* a.c - a file */"
check "shell: after the #! line" test "$(sed -n 2p "$t/tests/b.sh")" = "# $ID" -a "$(head -n 1 "$t/tests/b.sh")" = '#!/bin/sh'
check "shell: still executable" test -x "$t/tests/b.sh"
check "man page: a roff comment" test "$(head -n 1 "$t/man/c.1")" = ".\\\" $ID"
check "configure.ac: a dnl comment" test "$(head -n 1 "$t/configure.ac")" = "dnl $ID"
check "YAML: a # comment" test "$(head -n 1 "$t/d.yml")" = "# $ID"
check "data and fuzz corpora are left alone" test "$(cat "$t/tests/data/x/e.txt")" = data -a "$(cat "$t/tests/fuzz/corpus/p/f.c")" = corpus
sh "$spdx" "$t" >"$TMPD/again"
check "a second run changes nothing" test ! -s "$TMPD/again"
check "--check passes on the result" sh "$spdx" --check "$t"
tap_done
