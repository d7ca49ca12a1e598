#!/bin/sh
# help-man.sh - --help and man/kleakscan.1 list the same options; --version
# names PCRE2 and the JIT state; usage errors exit 2 on stderr.

. "$(dirname "$0")/tap.sh"

MAN=$TOPSRC/man/kleakscan.1

# --help: stdout, exit 0, nothing on stderr.
run --help
is_status 0 "--help"
is "$ERR" "" "--help writes nothing on stderr"
like "$OUT" '^Usage: kleakscan ' "--help starts with the usage line"
cp "$TMP/out" "$TMP/help"

# Long options defined in --help (the option column, not the prose).
sed -n -E 's/^ +(-[^-], )?--([a-z0-9][a-z0-9-]*).*/\2/p' "$TMP/help" |
    sort -u >"$TMP/help.long"
# Long options defined in the man page's OPTIONS section.
sed -n '/^\.Sh OPTIONS/,/^\.Sh /p' "$MAN" | grep '^\.It Fl' |
    grep -oE 'Fl \\?-[a-z0-9][a-z0-9-]*' | sed -E 's/^Fl \\?-//' |
    sort -u >"$TMP/man.long"

n=$(wc -l <"$TMP/help.long")
ok "--help lists long options ($n)" test "$n" -ge 20
only_help=$(comm -23 "$TMP/help.long" "$TMP/man.long" | tr '\n' ' ')
only_man=$(comm -13 "$TMP/help.long" "$TMP/man.long" | tr '\n' ' ')
is "$only_help" "" "every long option in --help is in the man page"
is "$only_man" "" "every long option in the man page is in --help"

# Short and long option pairs agree.
sed -n -E 's/^  -(.), --([a-z0-9-]+).*/\1 \2/p' "$TMP/help" |
    sort >"$TMP/help.pairs"
sed -n '/^\.Sh OPTIONS/,/^\.Sh /p' "$MAN" |
    sed -n -E 's/^\.It Fl ([A-Za-z0-9]) .*Fl \\-([a-z0-9-]+).*/\1 \2/p' |
    sort >"$TMP/man.pairs"
is "$(cat "$TMP/man.pairs")" "$(cat "$TMP/help.pairs")" \
    "short options pair with the same long options in both"

# The SYNOPSIS names every option, short or long.
syn=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$MAN")
missing=
while read -r short long; do
	case $syn in
	*"Fl $short "* | *"Fl $short") ;;
	*)
		cluster=$(printf '%s\n' "$syn" |
		    sed -n 's/^\.Op Fl \([A-Za-z0-9]*\)$/\1/p')
		case $cluster in
		*"$short"*) ;;
		*) missing="$missing -$short" ;;
		esac
		;;
	esac
done <"$TMP/help.pairs"
for long in $(cat "$TMP/help.long"); do
	if ! grep -q " $long\$" "$TMP/help.pairs" &&
	    ! printf '%s\n' "$syn" | grep -q "Fl \\\\-$long\\( \\|\$\\)"; then
		missing="$missing --$long"
	fi
done
is "$missing" "" "the SYNOPSIS names every option"

# Every option in --help is accepted by the parser.
bad=
for long in $(cat "$TMP/help.long"); do
	case $long in
	arch) arg==auto ;;
	page-offset) arg==0xc0000000 ;;
	format) arg==text ;;
	binary-files) arg==text ;;
	engine) arg==pcre2 ;;
	files-from) arg==/dev/null ;;
	label) arg==x ;;
	read-size) arg==7 ;;
	jobs) arg==2 ;;
	color) arg==never ;;
	max-depth) arg==3 ;;
	max-member-size) arg==64M ;;
	max-ratio) arg==100 ;;
	max-total) arg==1G ;;
	output) arg==/dev/null ;;
	output-dir) arg==/tmp ;;
	restrict) arg==3 ;;
	redact-style) arg==hash ;;
	hash-key) arg==000102030405060708090a0b0c0d0e0f ;;
	receipt) arg==/dev/null ;;
	system-map) arg==/dev/null ;;
	system-map-dir) arg==/tmp ;;
	leak-sources) arg==/dev/null ;;
	kernel-source) arg==$TOPSRC/tests/srcdata/linux-6.1 ;;
	printk-index) arg==/dev/null ;;
	top) arg==3 ;;
	shard) arg==1/2 ;;
	baseline) arg==/dev/null ;;
	fix-dir) arg==/tmp ;;
	live-root) arg==/tmp ;;
	live-user) arg==nobody ;;
	live-timeout) arg==10 ;;
	completion) arg==bash ;;
	*) arg= ;;
	esac
	if grep -Eq -- "--$long=" "$TMP/help" && [ -z "$arg" ]; then
		bad="$bad --$long(no sample argument in this test)"
		continue
	fi
	"$KLEAKSCAN" "--$long$arg" --help >/dev/null 2>&1 </dev/null ||
	    bad="$bad --$long"
done
is "$bad" "" "every option in --help is accepted"

# The man page has the sections the project promises.
secs=
for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT "EXIT STATUS" \
    ENVIRONMENT EXAMPLES "SEE ALSO"; do
	grep -q "^\\.Sh $s\$" "$MAN" || secs="$secs [$s]"
done
is "$secs" "" "the man page has every section"
ok "the man page documents NO_COLOR" grep -q '^\.It Ev NO_COLOR' "$MAN"

# The man page lints clean and renders.
if command -v mandoc >/dev/null 2>&1; then
	mandoc -Tlint -Wwarning "$MAN" >"$TMP/lint" 2>&1
	grep -v 'mandoc\.db' "$TMP/lint" >"$TMP/lint2"
	is "$(cat "$TMP/lint2")" "" "mandoc -Tlint finds no warnings"
	mandoc -Tmarkdown "$MAN" >"$TMP/rendered" 2>/dev/null
	ok "the man page renders" grep -q 'EXIT STATUS' "$TMP/rendered"
else
	skip "mandoc -Tlint finds no warnings" "mandoc not installed"
	skip "the man page renders" "mandoc not installed"
fi

# Every architecture profile from --list-arches is named in the page.
run --list-arches
is_status 0 "--list-arches"
names=$(printf '%s\n' "$OUT" | sed -n 's/^\([a-z0-9][a-z0-9._-]*\) [0-9][0-9]*-bit .*/\1/p')
n=$(printf '%s\n' "$names" | grep -c .)
is "$n" 23 "--list-arches lists 23 profiles"
absent=
for a in $names; do
	grep -q "^\\.Cm $a\\( \\|\$\\)" "$MAN" || absent="$absent $a"
done
is "$absent" "" "the man page names every profile"

# --version: the version, PCRE2 and JIT.
run --version
is_status 0 "--version"
ver=$(sed -n 's/^AC_INIT(\[kleakscan\], \[\([^]]*\)\].*/\1/p' \
    "$TOPSRC/configure.ac")
is "$(printf '%s\n' "$OUT" | sed -n 1p)" "kleakscan $ver" \
    "--version prints the package version"
like "$OUT" 'PCRE2 [0-9]+\.[0-9]+' "--version names the PCRE2 version"
like "$OUT" 'JIT (on|off)' "--version says whether JIT is on"
like "$OUT" '^gzip: (ISA-L$|zlib )' "--version says what inflates gzip"
version_out=$OUT
run -V
is "$OUT" "$version_out" "-V is --version"

# Usage errors: exit 2, nothing on stdout, a hint on stderr.
run --no-such-option
is_status 2 "an unknown option"
is "$OUT" "" "an unknown option writes nothing on stdout"
is "$ERR" "kleakscan: unknown option '--no-such-option'
Try 'kleakscan --help' for more information." \
    "an unknown option is named on stderr"
run -Z
is "$(printf '%s\n' "$ERR" | sed -n 1p)" "kleakscan: unknown option '-Z'" \
    "an unknown short option is named"
run --label
is_status 2 "a missing argument"
is "$(printf '%s\n' "$ERR" | sed -n 1p)" \
    "kleakscan: option '--label' needs an argument" \
    "a missing argument is named"

done_testing
