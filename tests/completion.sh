#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# completion.sh - bash completion (data/bash-completion/rngaudit, issue 26
# item 6): commands, each command's options, source specs and option
# values, completed as bash would complete them (COMP_LINE, and the word
# split at ':' and '=' as COMP_WORDBREAKS splits it); the lists it keeps
# agree with what the program names.
. "${top_srcdir:-.}/tests/tap.sh"
C="$top_srcdir/data/bash-completion/rngaudit"
case $RNGAUDIT in /*) ;; *) RNGAUDIT="$PWD/$RNGAUDIT" ;; esac

if ! command -v bash >/dev/null 2>&1; then
	skip "bash not installed"
	tap_done
fi

# comp LINE: the completions of LINE (the cursor at its end), one a line,
# each as bash would put it in place of the word it holds as current
comp() {
	bash -c '
		. "$1" || exit 1
		COMP_LINE=$2; COMP_POINT=${#COMP_LINE}
		read -r -a COMP_WORDS <<<"$COMP_LINE"
		case $COMP_LINE in *" ") COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		last=${COMP_WORDS[COMP_CWORD]}
		case $last in
		*[:=]) last=${last: -1} ;;
		*[:=]*) last=${last##*[:=]} ;;
		esac
		COMP_WORDS[COMP_CWORD]=$last
		_rngaudit
		printf "%s\n" "${COMPREPLY[@]}"' _ "$C" "$1" | sort
}
# has LINE WORD...: every WORD among the completions of LINE
has() {
	h_line=$1; shift
	comp "$h_line" >"$TMPD/c"
	for w; do grep -qxF -- "$w" "$TMPD/c" || { echo "# '$h_line': no '$w' in: $(tr '\n' ' ' <"$TMPD/c")"; return 1; }; done
}
# is LINE WORDS: the completions of LINE are exactly WORDS (space-separated)
is() {
	got=$(comp "$1" | tr '\n' ' ' | sed 's/ $//')
	want=$(printf '%s\n' $2 | sort | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || { echo "# '$1': got '$got', want '$want'"; return 1; }
}

check "the completion file is valid bash" bash -n "$C"

# commands: every one `rngaudit --help` lists, and help
"$RNGAUDIT" --help | awk '/^Commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 }' >"$TMPD/cmds"
check "commands: the $(wc -l <"$TMPD/cmds") of rngaudit --help and help" \
	is "$RNGAUDIT " "$(cat "$TMPD/cmds") help"
check "commands: 'rngaudit au' completes to audit" is "$RNGAUDIT au" "audit"
check "help COMMAND: the commands" has "$RNGAUDIT help " sources audit resume-check
check "report: merge" is "$RNGAUDIT report " "merge"

# options: each command's, from its help
for c in $(cat "$TMPD/cmds"); do
	"$RNGAUDIT" help "$c" | sed -n 's/^  *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' >"$TMPD/opts"
	# shellcheck disable=SC2046
	check "$c --: its $(wc -l <"$TMPD/opts") described long options and --help" \
		has "$RNGAUDIT $c --" --help $(cat "$TMPD/opts")
done
check "audit --: --json, --csv, --junit, --prom" has "$RNGAUDIT audit --" --json --csv --junit --prom
check "audit --j: --json, --junit and --junit-host only" is "$RNGAUDIT audit --j" "--json --junit --junit-host"
check "assess -: its short options too (-v, -vv, -q, -l)" has "$RNGAUDIT assess -" -v -vv -q -l -o

# source specs
check "audit --source: every real source, file:, sim: and all" \
	is "$RNGAUDIT audit --source " "rdrand rdseed hwrng getrandom jitter chaoskey rndr rndrrs darn trng seed file: sim: all"
check "audit --source LIST,: the list's last item" \
	is "$RNGAUDIT audit --source rdrand,rd" "rdrand,rdrand rdrand,rdseed"
check "collect --source sim:: the sim models, the colon kept by bash" \
	is "$RNGAUDIT collect --source sim:" ":ideal :biased :stuck,after= :markov :amd-rdrand-ffffffff :rdseed-zero :repeat-words :rndr :rndrrs :darn :trng :seed"
check "collect --source sim:re: repeat-words" is "$RNGAUDIT collect --source sim:re" "repeat-words"
check "collect --source getrandom:: its flags" \
	is "$RNGAUDIT collect --source getrandom:fl" "flags=random flags=insecure flags=nonblock"
: >"$TMPD/samples.bin"
check "health --source file:PATH: file names" has "$RNGAUDIT health --source file:$TMPD/sam" "$TMPD/samples.bin"

# option values
check "sources --format: text json" is "$RNGAUDIT sources --format " "text json"
check "assess --format: text, csv and the wide sample formats" has "$RNGAUDIT assess --format " text csv u16le hex
check "conditioning -c: iid non_iid" is "$RNGAUDIT conditioning -c " "iid non_iid"
check "iid --seed: random" is "$RNGAUDIT iid --seed " "random"
check "audit --json FILE: file names" has "$RNGAUDIT audit --json $TMPD/sam" "$TMPD/samples.bin"
check "restart -n FILE: -n is a flag there, the file is completed" has "$RNGAUDIT restart -n $TMPD/sam" "$TMPD/samples.bin"

# The lists kept in the file are the program's: the sources and the sim
# models its messages name
"$RNGAUDIT" collect --source nosuch -n 1 -o - 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/file:PATH/file:/; s/sim:MODEL/sim:/; s/, / /g' >"$TMPD/names"
check "the source names are the program's ($(cat "$TMPD/names"))" \
	is "$RNGAUDIT audit --source " "$(cat "$TMPD/names") all"
"$RNGAUDIT" collect --source sim:nosuch -n 1 -o - 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/, / /g; s/\([^ ]*\)/:\1/g; s/:stuck/:stuck,after=/' >"$TMPD/sims"
check "the sim models are the program's ($(cat "$TMPD/sims"))" \
	is "$RNGAUDIT collect --source sim:" "$(cat "$TMPD/sims")"
tap_done
