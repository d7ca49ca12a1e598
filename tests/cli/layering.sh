#!/bin/sh
# layering.sh - the files of src/ and of lib/ call down, never back up.
#
# From the objects of the build tree (nm): for each global name a file
# defines, which other files use it.  No two files of src/ may use each
# other's names (calls or globals), nor two files of lib/, and no file
# of lib/ may use a name defined in src/ (the library knows nothing of
# the program).  Files are told apart by their directory and their
# source name (src/kleakscan-run.o is src:run, lib/libkleak_a-live.o is
# lib:live).

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

SRCDIR=$(dirname "$KLEAKSCAN")
LIBDIR=$SRCDIR/../lib

if ! command -v nm >/dev/null 2>&1; then
	echo "1..0 # SKIP nm is not installed"
	exit 0
fi
set -- "$SRCDIR"/*.o
if [ ! -f "$1" ]; then
	echo "1..0 # SKIP no objects in $SRCDIR (not a build tree)"
	exit 0
fi

# uses DIR TAG: "D NAME TAG:FILE" for each name a file defines, "U NAME
# TAG:FILE" for each it uses (an object whose source is gone is stale).
uses() {
	for o in "$1"/*.o; do
		[ -f "$o" ] || continue
		f=$(basename "$o" .o)
		f=${f#*-}
		[ -f "$TOPSRC/$2/$f.c" ] || [ -f "$1/$f.c" ] || continue
		f=$2:$f
		nm -g --defined-only "$o" | awk -v f="$f" \
		    'NF == 3 && $2 ~ /[TDBRCVW]/ { print "D", $3, f }'
		nm -u "$o" | awk -v f="$f" '{ print "U", $2, f }'
	done
}

# "USER DEFINER NAME" for each global name a file uses from another.
{ uses "$SRCDIR" src; uses "$LIBDIR" lib; } >"$TMP/names"
awk '$1 == "D" { def[$2] = $3; next } { use[NR] = $2 " " $3 }
    END { for (i in use) { split(use[i], a, " ");
	if (a[1] in def && def[a[1]] != a[2]) print a[2], def[a[1]], a[1] } }' \
    "$TMP/names" | sort -u >"$TMP/uses"

nsrc=$(grep -c '^D .* src:' "$TMP/names")
nlib=$(grep -c '^D .* lib:' "$TMP/names")
ok "src objects define names ($nsrc)" [ "$nsrc" -gt 100 ]
ok "lib objects define names ($nlib)" [ "$nlib" -gt 100 ]
like "$(cat "$TMP/uses")" '^src:[^ ]+ lib:[^ ]+ kl_' \
    "the table sees the program using the library"

# pairs PATTERN: the files A->B (both matching) where B->A too.
pairs() {
	awk -v re="$1" '$1 ~ re && $2 ~ re { p[$1 " " $2] = p[$1 " " $2] " " $3 }
	    END { for (k in p) { split(k, a, " ");
		if ((a[2] " " a[1]) in p) print k ":" p[k] } }' "$TMP/uses" |
	    sort
}

is "$(pairs '^src:')" "" "no two files of src/ use each other's names"
is "$(pairs '^lib:')" "" "no two files of lib/ use each other's names"
is "$(awk '$1 ~ /^lib:/ && $2 ~ /^src:/' "$TMP/uses")" "" \
    "no file of lib/ uses a name defined in src/"

# No longer cycle either: the uses sort topologically (tsort says "loop").
if command -v tsort >/dev/null 2>&1; then
	awk '{ print $1, $2 }' "$TMP/uses" | sort -u | tsort >/dev/null \
	    2>"$TMP/tsort"
	is "$(grep -v '^tsort: -: input contains a loop:$' "$TMP/tsort" |
	    sed 's/^tsort: //' | tr '\n' ' ')" "" \
	    "the files' uses have no cycle (the files of one are listed)"
else
	skip "the files' uses have no cycle" "tsort is not installed"
fi

done_testing
