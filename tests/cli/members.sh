#!/bin/sh
# members.sh - -j N on one archive: its members go to the workers
# (src/members.c), and stdout, stderr (and 2>&1) and the exit status are
# the bytes of -j 1, for archives of ../shared/corpus (or of the logs of
# tests/data laid out the same way when it is absent) built here (tar,
# and of a part of it gzip, zstd -T0, xz -T0, zip), damaged ones, nested
# archives with a binary member, the limits, -q, -l, -L, --report, long
# members scanned by the parent, a closed pipe and --redact.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
# Without it, the same archives of the project's own logs in its layout.
if [ ! -d "$CORPUS" ]; then
	diag "no corpus at $CORPUS: the logs of tests/data in its layout"
	CORPUS=$(own_corpus "$TMP/own") || exit 99
fi
if ! command -v tar >/dev/null 2>&1 || ! command -v gzip >/dev/null 2>&1
then
	echo "1..0 # SKIP tar or gzip missing"
	exit 0
fi

# same DESC ARGS...: -j 1 and -j 2 (and -j 3 when J3=1) write the same
# stdout, the same stderr and exit the same; ALSO_MERGED=1 also compares
# 2>&1.  Leaves -j 1's stdout in $TMP/j1.out and its status in J1_STATUS.
same() {
	desc=$1
	shift
	"$KLEAKSCAN" -j1 "$@" >"$TMP/j1.out" 2>"$TMP/j1.err" </dev/null
	J1_STATUS=$?
	if [ -n "${ALSO_MERGED:-}" ]; then
		"$KLEAKSCAN" -j1 "$@" >"$TMP/j1.all" 2>&1 </dev/null
	fi
	bad=
	for j in 2 ${J3:+3}; do
		"$KLEAKSCAN" -j$j "$@" >"$TMP/jn.out" 2>"$TMP/jn.err" </dev/null
		st=$?
		cmp -s "$TMP/j1.out" "$TMP/jn.out" || bad="$bad -j$j:stdout"
		cmp -s "$TMP/j1.err" "$TMP/jn.err" || bad="$bad -j$j:stderr"
		[ "$st" = "$J1_STATUS" ] || bad="$bad -j$j:status=$st"
		if [ -n "${ALSO_MERGED:-}" ]; then
			"$KLEAKSCAN" -j$j "$@" >"$TMP/jn.all" 2>&1 </dev/null
			cmp -s "$TMP/j1.all" "$TMP/jn.all" ||
			    bad="$bad -j$j:2>&1"
		fi
	done
	is "$bad" "" "$desc"
}

# The whole corpus as a tarball; each compressed form of a part of it.
members=$(find "$CORPUS" -type f | wc -l)
members=$((members + 0))
(cd "$CORPUS/.." && tar -cf "$TMP/c.tar" corpus)
(cd "$CORPUS/.." && tar -cf "$TMP/p.tar" corpus/boot corpus/qemu corpus/mail \
    corpus/loghub)
part=$(tar -tf "$TMP/p.tar" | grep -vc '/$')
gzip -c "$TMP/p.tar" >"$TMP/p.tar.gz"
set -- "$TMP/p.tar.gz"
if command -v zstd >/dev/null 2>&1; then
	zstd -q -T0 -c "$TMP/p.tar" >"$TMP/p.tar.zst"
	set -- "$@" "$TMP/p.tar.zst"
else
	skip "zstd tarball" "zstd missing"
fi
if command -v xz >/dev/null 2>&1; then
	xz -T0 -c "$TMP/p.tar" >"$TMP/p.tar.xz"
	set -- "$@" "$TMP/p.tar.xz"
else
	skip "xz tarball" "xz missing"
fi
if command -v zip >/dev/null 2>&1; then
	(cd "$CORPUS/.." && zip -qr "$TMP/p.zip" corpus/boot corpus/qemu \
	    corpus/mail corpus/loghub)
	set -- "$@" "$TMP/p.zip"
else
	skip "zip archive" "zip missing"
fi

a=$TMP/c.tar
J3=1 ALSO_MERGED=1 same "c.tar: text" "$a"
is "$J1_STATUS" 1 "c.tar: leaks (exit status)"
same "c.tar: --json" --json "$a"
is "$(grep -c '"type":"begin"' "$TMP/j1.out")" "$members" \
    "c.tar: --json: a begin event per member"
same "c.tar: -c" -c "$a"
same "c.tar: --report --json" --report --json "$a"
for a in "$@"; do
	n=${a##*/}
	same "$n: text" "$a"
	is "$J1_STATUS" 1 "$n: leaks (exit status)"
	same "$n: --json" --json "$a"
	is "$(grep -c '"type":"begin"' "$TMP/j1.out")" "$part" \
	    "$n: --json: a begin event per member"
	same "$n: --report --json" --report --json "$a"
done
a=$TMP/p.tar.gz
same "p.tar.gz: -c" -c "$a"
same "p.tar.gz: -l" -l "$a"
same "p.tar.gz: -L" -L "$a"
same "p.tar.gz: --stats -b --show-suppressed" --stats -b --show-suppressed "$a"
same "p.tar.gz: --json --stats --verdict" --json --stats --verdict "$a"
same "p.tar.gz: --report" --report "$a"
same "p.tar.gz: -q" -q "$a"
is "$J1_STATUS" 1 "p.tar.gz: -q (exit status)"

# The members really went to the workers: a unit file each.
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -e trace=memfd_create -o "$TMP/strace" \
	    "$KLEAKSCAN" -j2 -c "$a" >/dev/null 2>&1
	is "$(grep -c 'memfd_create("kleakscan-unit"' "$TMP/strace")" \
	    "$part" "p.tar.gz: one unit file a member"
else
	skip "p.tar.gz: one unit file a member" "strace missing"
fi

# Damage: a cut tarball and a cut .tar.gz, errors in their place.
size=$(wc -c <"$TMP/c.tar" | tr -d ' ')
head -c $((size / 2)) "$TMP/c.tar" >"$TMP/cut.tar"
size=$(wc -c <"$TMP/p.tar.gz" | tr -d ' ')
head -c $((size / 3)) "$TMP/p.tar.gz" >"$TMP/cut.tar.gz"
for a in "$TMP/cut.tar" "$TMP/cut.tar.gz"; do
	n=${a##*/}
	ALSO_MERGED=1 same "$n: text" "$a"
	is "$J1_STATUS" 2 "$n: an error (exit status)"
	same "$n: --json" --json "$a"
	same "$n: --max-member-size=100000 -c" --max-member-size=100000 -c "$a"
	same "$n: --max-total=3000000 --json" --max-total=3000000 --json "$a"
done

# Nested: a tarball in a tarball, a binary member, a member with a NUL.
mkdir "$TMP/nest"
cp "$TMP/p.tar.gz" "$TMP/nest/inner.tgz"
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0' >"$TMP/nest/bin"
printf 'text\0with a NUL\n' >"$TMP/nest/nul"
cp "$WRITTEN/x86_64-oops.dmesg" "$TMP/nest/oops.dmesg"
(cd "$TMP" && tar -cf "$TMP/nest.tar" nest)
a=$TMP/nest.tar
ALSO_MERGED=1 same "nest.tar: text" "$a"
like "$(cat "$TMP/j1.err")" "skipped: binary file" "nest.tar: the binary named"
same "nest.tar: --json" --json "$a"
same "nest.tar: --max-depth=1" --max-depth=1 "$a"
same "nest.tar: --format=text -c" --format=text -c "$a"
same "nest.tar: --binary-files=text -c" --binary-files=text -c "$a"
same "nest.tar: -q" -q "$a"

# Members longer than KLEAKSCAN_UNIT_MAX are scanned by the parent
# itself once the ones before them are out, the others by the workers.
export KLEAKSCAN_UNIT_MAX=100000
ALSO_MERGED=1 same "long members, scanned in the parent: text" "$TMP/c.tar"
same "long members: --json" --json "$TMP/p.tar.gz"
same "long members: --report --json" --report --json "$TMP/p.tar.gz"
ALSO_MERGED=1 same "long members: cut.tar.gz" "$TMP/cut.tar.gz"
same "long members: nest.tar --max-total=3000000" --max-total=3000000 \
    "$TMP/nest.tar"
same "long members: -q" -q "$TMP/p.tar.gz"
same "long members: -L" -L "$TMP/p.tar.gz"
unset KLEAKSCAN_UNIT_MAX

# A closed pipe ends the run quietly.
x=$("$KLEAKSCAN" -j1 "$TMP/c.tar" 2>&1 | head -n 3)
y=$("$KLEAKSCAN" -j2 "$TMP/c.tar" 2>&1 | head -n 3)
is "$y" "$x" "a closed pipe: the same first lines, nothing on stderr"

# --redact of an archive: the same archive whatever -j says.
"$KLEAKSCAN" -j1 --redact -o "$TMP/r1.tar.gz" "$TMP/p.tar.gz" \
    >"$TMP/r1.out" 2>&1
s1=$?
"$KLEAKSCAN" -j2 --redact -o "$TMP/r2.tar.gz" "$TMP/p.tar.gz" \
    >"$TMP/r2.out" 2>&1
s2=$?
is "$s2" "$s1" "--redact: the same exit status"
ok "--redact: the same messages" cmp -s "$TMP/r1.out" "$TMP/r2.out"
ok "--redact: the same archive" cmp -s "$TMP/r1.tar.gz" "$TMP/r2.tar.gz"

done_testing
