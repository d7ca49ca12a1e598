#!/bin/sh
# completion.sh - the bash and zsh completions (--completion=SHELL): they
# offer exactly the options --help lists, the profiles --list-arches
# prints, the words the parser accepts, and file or directory names where
# --help says an option takes a FILE or a DIR.  The bash function is run
# with COMP_WORDS and COMP_CWORD; the zsh function is checked by zsh -n,
# by its _arguments specs and, with zsh/zpty, by real completions.

. "$(dirname "$0")/tap.sh"

# The completions the build wrote next to the program (make install
# copies those) must be what the program prints now.
run --completion=bash
is_status 0 "--completion=bash"
cp "$TMP/out" "$TMP/bash"
run --completion=zsh
is_status 0 "--completion=zsh"
cp "$TMP/out" "$TMP/zsh"
built=$(dirname "$KLEAKSCAN")/../completions
if [ -f "$built/kleakscan" ] && [ -f "$built/_kleakscan" ]; then
	ok "the built bash completion is current" cmp -s "$built/kleakscan" "$TMP/bash"
	ok "the built zsh completion is current" cmp -s "$built/_kleakscan" "$TMP/zsh"
else
	skip "the built bash completion is current" "not built (cross build?)"
	skip "the built zsh completion is current" "not built (cross build?)"
fi
run --completion=fish
is_status 2 "--completion=fish"
is "$ERR" "kleakscan: invalid argument 'fish' for --completion
Try 'kleakscan --help' for more information." "an unknown shell is named"

# What --help lists: long options, short letters, and the options whose
# argument is a FILE or a DIR (also when the name ends so: MAP_FILE).
"$KLEAKSCAN" --help >"$TMP/help"
sed -n -E 's/^ +(-[^-], )?--([a-z0-9][a-z0-9-]*).*/--\2/p' "$TMP/help" |
    sort -u >"$TMP/help.long"
sed -n -E 's/^  (-[^-]), --.*/\1/p' "$TMP/help" | sort -u >"$TMP/help.short"
sed -n -E 's/^ +(-[^-], )?--([a-z0-9-]+)=([A-Z_]*FILE|[A-Z_]*PATH) .*/--\2/p' \
    "$TMP/help" >"$TMP/help.file"
sed -n -E 's/^ +(-[^-], )?--([a-z0-9-]+)=[A-Z_]*DIR .*/--\2/p' \
    "$TMP/help" >"$TMP/help.dir"
"$KLEAKSCAN" --list-arches |
    sed -n 's/^\([a-z0-9][a-z0-9._-]*\) [0-9][0-9]*-bit .*/\1/p' |
    { echo auto; cat; } | sort >"$TMP/arches"

# A directory to complete names in: a file, a subdirectory.
mkdir "$TMP/d" "$TMP/d/sub.d"
: >"$TMP/d/kern.log"

if command -v bash >/dev/null 2>&1; then
	# comp_bash WORD...: what bash completes for the last WORD of
	# "kleakscan WORD...", one per line, sorted.
	comp_bash() {
		bash --norc --noprofile -c '
			. "$1" || exit 3
			shift
			COMP_WORDS=("$@")
			COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"
			COMP_POINT=${#COMP_LINE}
			_kleakscan || exit 4
			[ ${#COMPREPLY[@]} -eq 0 ] ||
			    printf "%s\n" "${COMPREPLY[@]}"' \
		    bash "$TMP/bash" kleakscan "$@" | LC_ALL=C sort
	}
	ok "bash -n accepts the bash completion" bash -n "$TMP/bash"
	is "$(bash --norc --noprofile -c '. "$1" && complete -p kleakscan' \
	    bash "$TMP/bash")" "complete -F _kleakscan kleakscan" \
	    "sourcing it registers _kleakscan for kleakscan"

	n=$(wc -l <"$TMP/help.long")
	ok "--help lists long options ($n)" test "$n" -ge 20
	is "$(comp_bash --)" "$(cat "$TMP/help.long")" \
	    "bash: -- completes every long option --help lists, no other"
	comp_bash - | grep -v '^--' >"$TMP/got.short"
	is "$(cat "$TMP/got.short")" "$(cat "$TMP/help.short")" \
	    "bash: - adds every short option --help lists"
	is "$(comp_bash --red)" "--redact
--redact-style" "bash: a prefix narrows the options"

	is "$(comp_bash --arch '')" "$(cat "$TMP/arches")" \
	    "bash: --arch ARG completes auto and the --list-arches profiles"
	is "$(comp_bash -a arm64-)" "$(grep '^arm64-' "$TMP/arches")" \
	    "bash: -a ARG completes profiles too"
	# COMP_WORDBREAKS has = by default: --arch=x86 is three words.
	is "$(comp_bash --arch = x86)" "x86_64
x86_64-5level" "bash: --arch=ARG (= a word of its own)"
	is "$(comp_bash --arch =)" "$(cat "$TMP/arches")" \
	    "bash: --arch= with nothing after it"
	# Without = in COMP_WORDBREAKS the reply keeps the option.
	is "$(comp_bash --arch=ppc64)" "--arch=ppc64
--arch=ppc64-book3e" "bash: --arch=ARG as one word"

	is "$(comp_bash --format '')" "auto
export
json
kmsg
text" "bash: --format completes the input formats"
	is "$(comp_bash --restrict '')" "2
3
4" "bash: --restrict completes the levels"
	is "$(comp_bash --redact-style = '')" "deslide
deslide,hash
hash
zero" "bash: --redact-style completes the styles"
	is "$(comp_bash --color = '')" "always
auto
never" "bash: --color= completes WHEN"
	is "$(comp_bash --color '')" "$(comp_bash '')" \
	    "bash: --color's argument is optional: the next word is an input"
	is "$(comp_bash --jobs '')" "" "bash: --jobs N completes nothing"

	# Every word completed is one the parser accepts, and only those.
	bad=
	for o in format engine restrict redact-style color; do
		for w in $(comp_bash "--$o" =); do
			"$KLEAKSCAN" "--$o=$w" --help >/dev/null 2>&1 ||
			    bad="$bad --$o=$w"
		done
		"$KLEAKSCAN" "--$o=no-such-word" --help >/dev/null 2>&1 &&
		    bad="$bad --$o=no-such-word(accepted)"
	done
	is "$bad" "" "bash: the completed words are the parser's words"

	# Every FILE option completes files and directories, every DIR
	# option directories only; read from --help, so new options count.
	nf=$(wc -l <"$TMP/help.file")
	nd=$(wc -l <"$TMP/help.dir")
	ok "--help has FILE ($nf) and DIR ($nd) options" \
	    test "$nf" -ge 4 -a "$nd" -ge 2
	bad=
	for o in $(cat "$TMP/help.file"); do
		[ "$(comp_bash "$o" "$TMP/d/")" = "$TMP/d/kern.log
$TMP/d/sub.d" ] || bad="$bad $o"
		[ "$(comp_bash "$o" = "$TMP/d/k")" = "$TMP/d/kern.log" ] ||
		    bad="$bad $o="
	done
	is "$bad" "" "bash: FILE options complete file names"
	bad=
	for o in $(cat "$TMP/help.dir"); do
		[ "$(comp_bash "$o" "$TMP/d/")" = "$TMP/d/sub.d" ] ||
		    bad="$bad $o"
	done
	is "$bad" "" "bash: DIR options complete directory names only"
	is "$(comp_bash -o "$TMP/d/k")" "$TMP/d/kern.log" \
	    "bash: -o FILE completes file names"
	is "$(comp_bash --json "$TMP/d/")" "$TMP/d/kern.log
$TMP/d/sub.d" "bash: inputs complete as file names"
	is "$(comp_bash -- -)" "" "bash: after --, - is an input name"
else
	skip "bash completion" "bash not installed"
fi

if command -v zsh >/dev/null 2>&1; then
	ok "zsh -n accepts the zsh completion" zsh -n "$TMP/zsh"
	ok "the zsh completion starts with #compdef kleakscan" \
	    test "$(sed -n 1p "$TMP/zsh")" = "#compdef kleakscan"
	# The _arguments specs, read by zsh itself (_arguments stubbed).
	zsh -f -c '
		_arguments() { print -rl -- "$@"; }
		compdef() { :; }
		. "$1"
		_kleakscan' zsh "$TMP/zsh" >"$TMP/specs"
	sed -n -E 's/^(\([^)]*\)|\*)?(--[a-z0-9-]+).*/\2/p' "$TMP/specs" |
	    sed 's/=.*//' | sort -u >"$TMP/zsh.long"
	is "$(cat "$TMP/zsh.long")" "$(cat "$TMP/help.long")" \
	    "zsh: the specs name every long option --help lists, no other"
	sed -n -E 's/^(\([^)]*\)|\*)?(-[^-])[+-]?\[.*/\2/p' "$TMP/specs" |
	    sort -u >"$TMP/zsh.short"
	is "$(cat "$TMP/zsh.short")" "$(cat "$TMP/help.short")" \
	    "zsh: the specs name every short option --help lists"
	got=$(sed -n 's/^\(([^)]*)\)\{0,1\}--arch=.*:(\(.*\))$/\2/p' \
	    "$TMP/specs" | tr ' ' '\n' | sort)
	is "$got" "$(cat "$TMP/arches")" "zsh: --arch offers the profiles"
	bad=
	for o in $(cat "$TMP/help.file"); do
		grep -q -- "^\\(([^)]*)\\|\\*\\)\\?$o=\\[.*:_files\$" \
		    "$TMP/specs" || bad="$bad $o"
	done
	for o in $(cat "$TMP/help.dir"); do
		grep -q -- "^\\(([^)]*)\\|\\*\\)\\?$o=\\[.*:_files -/\$" \
		    "$TMP/specs" || bad="$bad $o"
	done
	is "$bad" "" "zsh: FILE options complete files, DIR options dirs"

	# Real completions: an interactive zsh on a pseudo-terminal, compinit
	# with the file on fpath, compadd wrapped to print the matches.
	if zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
		mkdir "$TMP/fpath"
		cp "$TMP/zsh" "$TMP/fpath/_kleakscan"
		cat >"$TMP/capture.zsh" <<'EOF'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PROMPT="> "; fpath=("$CAPTURE_FPATH" $fpath)'
zpty -w z 'autoload -U compinit; compinit -u -D'
zpty -w z 'zstyle ":completion:*" insert-tab false'
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a h; builtin compadd -A h "$@"; (( $#h )) && print -rl -- "<"M">"${^h}"</"M">"; builtin compadd "$@"; }'
zpty -w z 'comppostfuncs=( capend ); capend() { print -r -- "<""END"">"; }'
zpty -w z 'bindkey "^I" complete-word'
zpty -w -n z "$1"$'\t'
out=
while zpty -r z line; do
	out+=$line
	[[ $line == *"<END>"* ]] && break
done
zpty -d z
print -r -- "$out" | tr -d '\r' | grep -ao '<M>[^<]*</M>' |
    sed 's,</*M>,,g' | LC_ALL=C sort -u
EOF
		# comp_zsh LINE: what zsh completes at the end of LINE.
		comp_zsh() {
			CAPTURE_FPATH=$TMP/fpath zsh -f "$TMP/capture.zsh" "$1"
		}
		is "$(comp_zsh 'kleakscan --redact-')" "--redact-style" \
		    "zsh: a long option by its prefix"
		is "$(comp_zsh 'kleakscan --arch=arm64-')" \
		    "$(grep '^arm64-' "$TMP/arches")" \
		    "zsh: --arch=ARG completes the profiles"
		is "$(comp_zsh 'kleakscan -a riscv')" \
		    "$(grep '^riscv' "$TMP/arches")" \
		    "zsh: -a ARG completes the profiles"
		is "$(comp_zsh 'kleakscan --format ')" "auto
export
json
kmsg
text" "zsh: --format completes the input formats"
		is "$(comp_zsh 'kleakscan --restrict ')" "2
3
4" "zsh: --restrict completes the levels"
		is "$(comp_zsh 'kleakscan --color=')" "always
auto
never" "zsh: --color= completes WHEN"
		is "$(comp_zsh "kleakscan --output-dir $TMP/d/")" "sub.d" \
		    "zsh: a DIR option completes directories"
		is "$(comp_zsh "kleakscan -o $TMP/d/k")" "kern.log" \
		    "zsh: -o FILE completes files"
	else
		skip "zsh: real completions" "no zsh/zpty module"
	fi
else
	skip "zsh completion" "zsh not installed"
fi

done_testing
