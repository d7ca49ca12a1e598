#!/bin/sh
# jobs.sh - -j N: the same bytes on stdout and stderr and the same exit
# status as -j 1 over ../shared/corpus, or the logs of tests/data laid out
# the same way when it is absent (a directory, many operands, a
# --files-from list, archives with many members, stdin), with errors
# among the inputs, -q, -l and -L, stdout and stderr to one file, --redact
# and a closed pipe.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
# Without it, the same walks over the project's own logs in its layout.
if [ ! -d "$CORPUS" ]; then
	diag "no corpus at $CORPUS: the logs of tests/data in its layout"
	CORPUS=$(own_corpus "$TMP/own") || exit 99
fi
# The logs of the corpus (its captured/ sysroots are systems, read with
# --live-root by live.sh: device-tree and notes files are binary).
LOGS="$CORPUS/syzkaller $CORPUS/boot $CORPUS/loghub $CORPUS/mail $CORPUS/qemu"

# same DESC ARGS...: -j 1, -j 2 and -j 4 write the same stdout, the same
# stderr and exit the same; ALSO_MERGED=1 also compares 2>&1.  Leaves
# the -j 1 results in $TMP/j1.out, $TMP/j1.err and J1_STATUS.
same() {
	desc=$1
	shift
	"$KLEAKSCAN" -j1 "$@" >"$TMP/j1.out" 2>"$TMP/j1.err" <"${STDIN:-/dev/null}"
	J1_STATUS=$?
	if [ -n "${ALSO_MERGED:-}" ]; then
		"$KLEAKSCAN" -j1 "$@" >"$TMP/j1.all" 2>&1 <"${STDIN:-/dev/null}"
	fi
	bad=
	for j in 2 4; do
		"$KLEAKSCAN" -j$j "$@" >"$TMP/jn.out" 2>"$TMP/jn.err" \
		    <"${STDIN:-/dev/null}"
		st=$?
		cmp -s "$TMP/j1.out" "$TMP/jn.out" || bad="$bad -j$j:stdout"
		cmp -s "$TMP/j1.err" "$TMP/jn.err" || bad="$bad -j$j:stderr"
		[ "$st" = "$J1_STATUS" ] || bad="$bad -j$j:status=$st"
		if [ -n "${ALSO_MERGED:-}" ]; then
			"$KLEAKSCAN" -j$j "$@" >"$TMP/jn.all" 2>&1 \
			    <"${STDIN:-/dev/null}"
			cmp -s "$TMP/j1.all" "$TMP/jn.all" ||
			    bad="$bad -j$j:2>&1"
		fi
	done
	is "$bad" "" "$desc"
}

# The corpus as a directory, in every output mode.
files=$(find $LOGS -type f | wc -l)
files=$((files + 0))
same "corpus dir: text" $LOGS
is "$J1_STATUS" 1 "corpus dir: leaks (exit status)"
is "$(wc -c <"$TMP/j1.err" | tr -d ' ')" 0 "corpus dir: nothing on stderr"
same "corpus dir: --json" --json $LOGS
is "$(grep -c '"type":"begin"' "$TMP/j1.out")" "$files" \
    "corpus dir: --json: a begin event per file"
same "corpus dir: -c" -c $LOGS
is "$(wc -l <"$TMP/j1.out" | tr -d ' ')" "$files" "corpus dir: -c: a count per file"
same "corpus dir: -l" -l $LOGS
nl=$(wc -l <"$TMP/j1.out" | tr -d ' ')
same "corpus dir: -L" -L $LOGS
nL=$(wc -l <"$TMP/j1.out" | tr -d ' ')
is "$((nl + nL))" "$files" "corpus dir: -l and -L split the files"
same "corpus dir: --stats -b --show-suppressed" --stats -b --show-suppressed \
    $LOGS
like "$(grep '^inputs ' "$TMP/j1.out")" "^inputs +$files\$" \
    "corpus dir: --stats: every input summed"
same "corpus dir: --json --stats --verdict" --json --stats --verdict $LOGS
same "corpus dir: -q" -q $LOGS
is "$J1_STATUS" 1 "corpus dir: -q (exit status)"

# Many operands, a --files-from list with missing names.
find $LOGS -type f | sort >"$TMP/list"
same "corpus as operands: -c" -c $(cat "$TMP/list")
{ echo /nonexistent/a; head -n 40 "$TMP/list"; echo /nonexistent/b
  tail -n 40 "$TMP/list"; } >"$TMP/list2"
same "--files-from with missing names: -c" -c --files-from "$TMP/list2"
is "$J1_STATUS" 2 "--files-from with missing names (exit status)"
is "$(grep -c nonexistent "$TMP/j1.err")" 2 \
    "--files-from with missing names: two errors"

# Errors, a binary file, stdin among the inputs; 2>&1 keeps its order.
# The binary file is met in a walk (named, it is scanned as text).
mkdir "$TMP/bin"
printf 'binary\0\1\2\n' >"$TMP/bin/bin"
cp "$WRITTEN/x86_64-oops.dmesg" "$TMP/in"
STDIN=$TMP/in ALSO_MERGED=1 same "errors, binary, stdin: text" \
    "$CORPUS/qemu" /nonexistent "$TMP/bin" - "$CORPUS/loghub" /nonexistent2
is "$J1_STATUS" 2 "errors, binary, stdin (exit status)"
is "$(sed 's/:.*//' "$TMP/j1.err" | tr '\n' ' ')" \
    "kleakscan kleakscan kleakscan " "errors, binary, stdin: three messages"
like "$(sed -n 2p "$TMP/j1.err")" "bin: skipped: binary file" \
    "errors, binary, stdin: in input order"
STDIN=$TMP/in ALSO_MERGED=1 same "errors, binary, stdin: --json" --json \
    "$CORPUS/qemu" /nonexistent "$TMP/bin" - "$CORPUS/loghub" /nonexistent2
STDIN=$TMP/in ALSO_MERGED=1 same "errors, binary, stdin: -c -s" -c -s \
    "$CORPUS/qemu" /nonexistent "$TMP/bin" - "$CORPUS/loghub" /nonexistent2

# Standard input twice: the second read starts where the first ended.
find "$CORPUS/qemu" -type f -name '*.log' | sort | xargs cat >"$TMP/big"
for i in 1 2 3; do
	STDIN=$TMP/big same "stdin twice, run $i: -c" -c - -
done
once=$("$KLEAKSCAN" -c - <"$TMP/big")
is "$(sed -n '1p;$p' "$TMP/j1.out" | tr '\n' ' ')" \
    "(standard input):$once (standard input):0 " "stdin twice: all, then nothing"

# -q: the error before the first leak is reported, the one after not.
printf 'nothing here\n' >"$TMP/clean"
STDIN=$TMP/in same "-q: stops at the first leak" -q "$TMP/clean" \
    /nonexistent - /nonexistent2 $LOGS
is "$J1_STATUS" 1 "-q: a leak wins over the error before it (exit status)"
is "$(grep -c nonexistent "$TMP/j1.err")" 1 "-q: only the error before it"

# Archives with many members, and compressed files.
if command -v tar >/dev/null 2>&1 && command -v gzip >/dev/null 2>&1; then
	(cd "$CORPUS/.." && tar -czf "$TMP/corpus.tar.gz" corpus/syzkaller)
	(cd "$CORPUS/.." && tar -cf "$TMP/corpus.tar" corpus/qemu corpus/mail)
	gzip -c "$WRITTEN/x86_64-oops.dmesg" >"$TMP/oops.gz"
	same "archives: text" "$TMP/corpus.tar.gz" "$TMP/oops.gz" \
	    "$TMP/corpus.tar"
	same "archives: --json" --json "$TMP/corpus.tar.gz" "$TMP/oops.gz" \
	    "$TMP/corpus.tar"
	STDIN=$TMP/corpus.tar.gz same "archives: -c, one on stdin" -c \
	    "$TMP/corpus.tar" - "$TMP/oops.gz"
	like "$(cat "$TMP/j1.out")" "^\(standard input\)\{corpus/syzkaller/" \
	    "archives: members of stdin counted"
else
	skip "archives" "tar or gzip missing"
fi

# A closed pipe ends the run quietly, with the first lines -j 1 gives.
a=$("$KLEAKSCAN" -j1 $LOGS 2>&1 | head -n 3)
b=$("$KLEAKSCAN" -j2 $LOGS 2>&1 | head -n 3)
is "$b" "$a" "a closed pipe: the same first lines, nothing on stderr"

# --redact scans one input at a time whatever -j says.
mkdir "$TMP/r1" "$TMP/r2"
"$KLEAKSCAN" -j1 --redact --output-dir="$TMP/r1" "$CORPUS/qemu" \
    "$CORPUS/loghub" >/dev/null 2>&1
s1=$?
"$KLEAKSCAN" -j2 --redact --output-dir="$TMP/r2" "$CORPUS/qemu" \
    "$CORPUS/loghub" >/dev/null 2>&1
s2=$?
is "$s2" "$s1" "--redact -j2: the exit status of -j1"
ok "--redact -j2: the same rewritten files" diff -r "$TMP/r1" "$TMP/r2"

# Without a temporary directory: one input at a time, and a warning.
"$KLEAKSCAN" -j1 "$CORPUS/qemu" "$CORPUS/loghub" >"$TMP/t1.out" 2>/dev/null
s1=$?
TMPDIR=/nonexistent "$KLEAKSCAN" -j2 "$CORPUS/qemu" "$CORPUS/loghub" \
    >"$TMP/t2.out" 2>"$TMP/t2.err"
s2=$?
is "$s2" "$s1" "TMPDIR missing: the exit status of -j1"
ok "TMPDIR missing: the output of -j1" cmp -s "$TMP/t1.out" "$TMP/t2.out"
is "$(cat "$TMP/t2.err")" "kleakscan: cannot create a temporary file in \
/nonexistent: No such file or directory: scanning one input at a time" \
    "TMPDIR missing: one warning"

# Small files go to the workers in batches of up to 32: 300 one-line
# files, one leak in the 137th and a missing name at the 100th, a big
# file in the middle of a batch, and -q stopping inside a batch.
mkdir "$TMP/tiny"
i=0
while [ $i -lt 300 ]; do
	n=$(printf '%03d' $i)
	if [ $i -eq 137 ]; then
		echo "[    0.000000] leak at ffffffff81234567 in file $n"
	else
		echo "[    0.000000] nothing in file $n"
	fi >"$TMP/tiny/f$n"
	i=$((i + 1))
done
(cd "$TMP/tiny" && ls) | sed "s,^,$TMP/tiny/," >"$TMP/tlist"
sed '100a\
'"$TMP"'/tiny/missing' "$TMP/tlist" >"$TMP/tlist2"
sed '50a\
'"$CORPUS"'/qemu/System.map-6.1.0-57-amd64.xz' "$TMP/tlist2" \
    >"$TMP/tlist3"
same "300 small files: -c" -c --files-from "$TMP/tlist3"
is "$(wc -l <"$TMP/j1.out" | tr -d ' ')" 301 "300 small files: -c: a count each"
like "$(cat "$TMP/j1.err")" "tiny/missing: " "300 small files: the missing one named"
same "300 small files: -l" -l --files-from "$TMP/tlist3"
same "300 small files: -q" -q --files-from "$TMP/tlist2"
is "$J1_STATUS" 1 "300 small files: -q: exit status 1"
same "300 small files: --json --stats" --json --stats "$TMP/tiny"

# Few descriptors: fewer inputs wait at once, the output is the same and
# nothing is said (up to 64 wait per worker, two temporary files each).
"$KLEAKSCAN" -j1 -c $LOGS >"$TMP/f1.out" 2>/dev/null
(ulimit -n 32 && "$KLEAKSCAN" -j4 -c $LOGS >"$TMP/f2.out" 2>"$TMP/f2.err")
ok "32 descriptors, -j4: the output of -j1" cmp -s "$TMP/f1.out" "$TMP/f2.out"
is "$(cat "$TMP/f2.err")" "" "32 descriptors, -j4: nothing on stderr"

# One input, named or standard input, that is no archive and too small to
# cut in chunks is scanned by the process itself, with no worker forked
# (a fork is most of a small log's time); two inputs go to the workers.
# The inputs are FIFOs held open, so that the scan waits on them while
# the children of kleakscan are counted; then it is stopped.
# nchildren PID: how many processes PID is the parent of.
nchildren() {
	awk -v p="$1" '{ sub(/^.*\) /, ""); if ($2 == p) n++ } END { print n + 0 }' \
	    /proc/[0-9]*/stat 2>/dev/null
}
# forks DESC EXPECT ARGS...: kleakscan -j2 ARGS, its standard input the
# FIFO $TMP/fifo0; is it the parent of a process within 1.5 s (yes, no)?
forks() {
	desc=$1 want=$2
	shift 2
	rm -f "$TMP/fifo0" "$TMP/fifo1"
	mkfifo "$TMP/fifo0" "$TMP/fifo1"
	"$KLEAKSCAN" -j2 "$@" <"$TMP/fifo0" >/dev/null 2>&1 &
	pid=$!
	exec 4<>"$TMP/fifo0" 5<>"$TMP/fifo1"
	got=no
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		[ "$(nchildren "$pid")" -gt 0 ] && { got=yes; break; }
		sleep 0.1
	done
	exec 4>&- 5>&-
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	is "$got" "$want" "$desc"
}
if [ -r /proc/self/stat ] && command -v mkfifo >/dev/null 2>&1; then
	forks "-j2, standard input alone: no worker" no -c -
	forks "-j2, no operand (standard input): no worker" no -c
	forks "-j2, one FIFO named: no worker" no -c "$TMP/fifo1"
	forks "-j2, two inputs: the workers" yes -c - \
	    "$TOPSRC/data/sample-x86_64-oops.log"
else
	skip "no worker for one input" "no /proc or mkfifo"
fi

# Bad values.
for v in 0 257 x 2x; do
	run -j "$v" "$CORPUS/qemu"
	is "$STATUS" 2 "-j $v is refused (exit status)"
done
run --jobs=256 -c "$TOPSRC/data/sample-x86_64-oops.log"
is "$STATUS:$OUT" "1:5" "--jobs=256 with one input"

done_testing
