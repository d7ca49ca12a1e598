#!/bin/sh
# inputs.sh - operands: files, stdin, -, --label, directory walks (with a
# symlink loop), --files-from (newline and NUL), errors per input, empty
# files, binary data, usage errors.

. "$(dirname "$0")/tap.sh"

cd "$TMP" || exit 99

BANNER='[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-01)'
RSP='[   12.345678] RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246'
printf '%s\n%s\n' "$BANNER" "$RSP" >leak.log
printf '%s\n[    1.000000] nothing to see here\n' "$BANNER" >clean.log
: >empty.log

# Use a timeout where there is one, so a walk that loops fails the test.
if command -v timeout >/dev/null 2>&1; then
	TIMEOUT="timeout 60"
else
	TIMEOUT=
fi

# The reference: a file operand, one input, so no name.
run leak.log
is_status 1 "a file with a leak"
like "$OUT" '^2:26: [a-z-]+ [a-z]+ 0xffffa667c016fe48  \[   12\.345678\] RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246$' \
    "a file operand: one finding at 2:26, no name"
is "$ERR" "" "a file with a leak: nothing on stderr"
REF=$OUT

run <leak.log
is_status 1 "stdin without an operand"
is "$OUT" "$REF" "stdin without an operand gives the same findings"

run - <leak.log
is_status 1 "the operand -"
is "$OUT" "$REF" "the operand - reads stdin"

run -H - <leak.log
is "$OUT" "(standard input):$REF" "stdin is named (standard input)"

run -H --label=dmesg <leak.log
is "$OUT" "dmesg:$REF" "--label names stdin"

run -H leak.log
is "$OUT" "leak.log:$REF" "-H shows the name of a single file"

run --read-size=1 leak.log
is "$OUT" "$REF" "--read-size=1 gives the same findings"
run --read-size=7 - <leak.log
is "$OUT" "$REF" "--read-size=7 on stdin gives the same findings"

# Two inputs: names shown, in operand order; -h hides them.
run clean.log leak.log
is_status 1 "two files, one with a leak"
is "$OUT" "leak.log:$REF" "two files: names shown"
run -h clean.log leak.log
is "$OUT" "$REF" "-h hides names"
run -c clean.log leak.log empty.log
is "$OUT" "clean.log:0
leak.log:1
empty.log:0" "-c counts per input in operand order"

# A file named -q after --.
cp leak.log ./-q
run -c -- -q
is_status 1 "a file named -q after --"
is "$OUT" "1" "-- ends the options"

# Empty and clean inputs.
run empty.log
is_status 0 "an empty file"
is "$OUT$ERR" "" "an empty file: no output"
run clean.log
is_status 0 "a clean file"
run </dev/null
is_status 0 "empty stdin"

# A directory tree with a symlink loop, a symlink to a file, a FIFO.
mkdir -p tree/b tree/a/c tree/a/d
cp leak.log tree/b/x.log
cp leak.log tree/a/c/y.log
cp clean.log tree/a/z.log
cp leak.log tree/a/B.log
ln -s .. tree/a/c/loop
ln -s ../../leak.log tree/a/link.log
ln -s /nonexistent tree/a/dangling.log
mkfifo tree/fifo 2>/dev/null || :
ln -s tree treelink
want='tree/a/B.log:1
tree/a/c/y.log:1
tree/a/z.log:0
tree/b/x.log:1'
$TIMEOUT "$KLEAKSCAN" -c tree >"$TMP/out" 2>"$TMP/err"
STATUS=$?
is_status 1 "a directory walk ends (symlink loop, FIFO)"
is "$(cat "$TMP/out")" "$want" \
    "a walk: sorted, regular files only, symlinks not followed"
is "$(cat "$TMP/err")" "" "a walk: no errors"
run -c tree/
is "$OUT" "$want" "a trailing slash gives the same names"
run -c treelink
is "$OUT" "$(printf '%s\n' "$want" | sed 's/^tree/treelink/')" \
    "a symlink to a directory given as operand is followed"
run -c tree/a/link.log
is_status 1 "a symlink to a file given as operand is followed"
is "$OUT" "1" "a symlink operand: its target is scanned"
run tree/a/d
is_status 0 "an empty directory"
is "$OUT$ERR" "" "an empty directory: no output"

# A FIFO given as an operand is read.
if [ -p tree/fifo ]; then
	cat leak.log >tree/fifo &
	run tree/fifo
	wait
	is "$OUT" "$REF" "a FIFO operand is read"
else
	skip "a FIFO operand is read" "mkfifo failed"
fi

# --files-from, newline-separated, with an empty line; then NUL-separated.
printf 'leak.log\n\nclean.log\ntree\n' >list
run -c --files-from=list
is_status 1 "--files-from"
is "$OUT" "leak.log:1
clean.log:0
$want" "--files-from: names in list order, directories walked"
run -c --files-from - <list
is "$OUT" "leak.log:1
clean.log:0
$want" "--files-from - reads the list from stdin"
printf 'leak.log\000clean.log\000' >list0
run -c -0 --files-from=list0
is "$OUT" "leak.log:1
clean.log:0" "--files-from with -0: NUL-separated names"
printf 'odd\nname.log' >"$TMP/odd
name.log"
printf 'odd\nname.log\000' >list3
run -c --null --files-from=- <list3
is "$OUT" 'odd\nname.log:0' "-0: a name with a newline (escaped in output)"
run -c -0 empty.log --files-from=list0
is "$OUT" "empty.log:0
leak.log:1
clean.log:0" "--files-from comes after the operands"

# Errors per input: one line, exit 2, the other inputs still scanned.
run missing.log leak.log
is_status 2 "a nonexistent file"
is "$ERR" "kleakscan: missing.log: No such file or directory" \
    "a nonexistent file: the message"
is "$OUT" "leak.log:$REF" "a nonexistent file: the other input is scanned"
run -s missing.log leak.log
is_status 2 "-s keeps exit status 2"
is "$ERR" "" "-s hides the message"
run missing.log clean.log
is_status 2 "an error and no leak"
run -q missing.log leak.log
is_status 1 "-q with an error and a leak: the leak wins"
is "$OUT" "" "-q prints nothing"
run -q missing.log
is_status 2 "-q with only an error"
run -c --files-from=nolist leak.log
is_status 2 "a nonexistent --files-from list"
is "$ERR" "kleakscan: nolist: No such file or directory" \
    "a nonexistent list: the message"
is "$OUT" "leak.log:1" "a nonexistent list: the operands are still scanned"
printf 'gone.log\nleak.log\n' >list2
run -c --files-from=list2
is_status 2 "a nonexistent name in --files-from"
is "$ERR" "kleakscan: gone.log: No such file or directory" \
    "a nonexistent listed name: the message"
is "$OUT" "leak.log:1" "a nonexistent listed name: the rest is scanned"
run "$(printf 'bad\033[2Jname')"
is "$ERR" 'kleakscan: bad\x1b[2Jname: No such file or directory' \
    "a name in a message is escaped"

# Permission errors need a user that is not root: as root, drop to
# nobody with setpriv(1) when that works, else skip.
AS=
if [ "$(id -u)" != 0 ]; then
	AS=env
elif command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$TMP"
	if setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$KLEAKSCAN" "$TMP/clean.log" >/dev/null 2>&1; then
		AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
fi
if [ -z "$AS" ]; then
	skip "an unreadable file" "running as root without setpriv"
	skip "an unreadable file: the message" "running as root"
	skip "an unreadable directory in a walk" "running as root"
else
	cp leak.log locked.log
	chmod 000 locked.log
	$AS "$KLEAKSCAN" locked.log leak.log >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	ERR=$(cat "$TMP/err")
	is_status 2 "an unreadable file"
	is "$ERR" "kleakscan: locked.log: Permission denied" \
	    "an unreadable file: the message"
	mkdir -p tree2/locked
	cp leak.log tree2/ok.log
	chmod 000 tree2/locked
	$AS "$KLEAKSCAN" -c tree2 >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	is "$(cat "$TMP/out")|$(cat "$TMP/err")|$STATUS" \
	    "tree2/ok.log:1|kleakscan: tree2/locked: Permission denied|2" \
	    "an unreadable directory in a walk"
	chmod 755 tree2/locked
fi

# Binary data: NUL is data, the line is still scanned.
printf 'x\000y RSP: 0018:ffffa667c016fe48\n' >nul.log
run nul.log
is_status 1 "a line with a NUL byte is scanned"
like "$OUT" '^1:15: [a-z-]+ [a-z]+ 0xffffa667c016fe48  x\\x00y RSP: 0018:ffffa667c016fe48$' \
    "a NUL byte: exact column, escaped in the line"
head -c 4096 /dev/urandom >random.bin 2>/dev/null ||
    dd if=/dev/urandom of=random.bin bs=4096 count=1 2>/dev/null
$TIMEOUT "$KLEAKSCAN" -c random.bin >"$TMP/out" 2>"$TMP/err"
STATUS=$?
like "$STATUS:$(cat "$TMP/out")" '^[01]:[0-9]+$' \
    "random bytes: a count and exit 0 or 1"

# Usage errors: exit 2, nothing on stdout.
for args in "--arch=vax" "--read-size=0" "--read-size=x" "--color=sometimes" \
    "--format=xml" "--engine=magic" "--page-offset=zz" "--json -c" \
    "--json -l"; do
	# shellcheck disable=SC2086
	run $args leak.log
	is "$STATUS|$OUT" "2|" "usage error: $args"
done
run --files-from - - <list
is_status 2 "--files-from - with the operand -"
if command -v script >/dev/null 2>&1 &&
    script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
	script -qec "\"$KLEAKSCAN\"; echo \"status=\$?\"" /dev/null \
	    </dev/null >"$TMP/tty" 2>&1
	tr -d '\r' <"$TMP/tty" >"$TMP/tty2"
	is "$(cat "$TMP/tty2")" "kleakscan: no input: give a FILE, a DIR, or - for standard input
Try 'kleakscan --help' for more information.
status=2" "no operand and a terminal on stdin: usage error"
else
	skip "no operand and a terminal on stdin: usage error" \
	    "script(1) not usable"
fi

done_testing
