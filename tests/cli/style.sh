#!/bin/sh
# style.sh - the sources keep the house layout (tests/check-knf.awk,
# the checker `make check-format` runs): the checker passes on lib/ and
# src/, and it catches each rule it claims on a hand-written bad file.

. "$(dirname "$0")/tap.sh"

KNF=$TOPSRC/tests/check-knf.awk
# The sources, without the generated leak-sources table.
set -- $(ls "$TOPSRC"/lib/*.[ch] "$TOPSRC"/src/*.[ch] |
    grep -v '/leak-sources-data\.c$')
ok "$# source files" test "$# " -ge 40
awk -f "$KNF" "$@" >"$TMP/knf.out" 2>&1
st=$?
is "$(cat "$TMP/knf.out")" "" "lib/ and src/ keep the layout"
is "$st" 0 "the checker exits 0 on them"

# One file breaking each rule once, between functions written as they
# should be.
{
	printf '/* Good. */\nint\ngood(void)\n{\n\treturn (0);\n}\n\n'
	printf 'static int bad_type(void)\n{\n\treturn (0);\n}\n\n'
	printf 'int\nno_comment(void)\n{\n        return (0);\n}\n\n'
	printf '/* Long. */\nint\nlong_line(void)\n{\n\treturn (0); /* %s */\n}\n' \
	    "0123456789012345678901234567890123456789012345678901234567890"
	printf '/* Ends. */\nint\nend_space(void) \n{\n \treturn (0);\n}\n'
} >"$TMP/bad.c"
awk -f "$KNF" "$TMP/bad.c" >"$TMP/bad.out"
st=$?
sed "s|^$TMP/||" "$TMP/bad.out" >"$TMP/bad.got"
cat >"$TMP/bad.want" <<'WANT'
bad.c:9: function name not at the start of a line after its type
bad.c:13: no comment above the function
bad.c:16: eight spaces of indentation where a tab goes
bad.c:23: longer than 80 columns
bad.c:27: white space at the end of the line
bad.c:29: a space before a tab in the indentation
WANT
is "$(cat "$TMP/bad.got")" "$(cat "$TMP/bad.want")" \
    "each rule is caught on its line"
is "$st" 1 "the checker exits 1 on a bad file"

done_testing
