#!/bin/sh
# hardening.sh - a redacted file stays the same file, and no write fails
# silently: --in-place and hard links (refused, or --break-links),
# extended attributes and POSIX ACLs kept, write failures on a full
# tmpfs (worker temporary files of -j, stdout, -o, --in-place,
# --output-dir) each one line naming what and why, and SIGKILL at many
# points of --in-place, -o and --output-dir runs over a large corpus
# file and a tar.gz: the destination is untouched or fully rewritten,
# and a later run names the temporary file left behind.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

# A log whose every finding --redact rewrites (no layout value).
LOG=$WRITTEN/ppc64-oops.log
CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
# The logs of the corpus (its captured/ sysroots are systems, read with
# --live-root by live.sh: device-tree and notes files are binary).
LOGS="$CORPUS/syzkaller $CORPUS/boot $CORPUS/loghub $CORPUS/mail $CORPUS/qemu"
# BOOTS: its QEMU boots.  Without the corpus: the logs of tests/data
# (tap.sh fixtures), both.
BOOTS=$CORPUS/qemu
if ! [ -d "$CORPUS/qemu" ]; then
	fixtures "$TMP/fx"
	LOGS=$TMP/fx
	BOOTS=$TMP/fx
fi
MNT=
trap 'if [ -n "$MNT" ]; then umount "$MNT" 2>/dev/null; fi;
    chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT

"$KLEAKSCAN" --redact "$LOG" >"$TMP/log.red"
want_leaks=$("$KLEAKSCAN" -c "$LOG")

# --- Hard links: refused unless --break-links. ---------------------------
mkdir "$TMP/hl"
cp "$LOG" "$TMP/hl/h1.log"
ln "$TMP/hl/h1.log" "$TMP/hl/h2.log"
ino=$(stat -c %i "$TMP/hl/h1.log")
for n in h1 h2; do
	run --redact --in-place "$TMP/hl/$n.log"
	is_status 2 "hard link $n: refused"
	is "$ERR" "kleakscan: $TMP/hl/$n.log: not rewritten: it has 2 hard \
links and the other names would keep what was redacted (--break-links \
rewrites this name alone)" "hard link $n: one line says why"
	ok "hard link $n: h1.log as it was" cmp -s "$LOG" "$TMP/hl/h1.log"
	ok "hard link $n: h2.log as it was" cmp -s "$LOG" "$TMP/hl/h2.log"
	is "$(stat -c %i:%h "$TMP/hl/h1.log")" "$ino:2" \
	    "hard link $n: still one inode with two names"
	is "$(ls -A "$TMP/hl" | grep -c kleakscan-)" 0 \
	    "hard link $n: no temporary file left"
done
printf 'nothing to redact\n' >"$TMP/hl/clean.log"
ln "$TMP/hl/clean.log" "$TMP/hl/clean2.log"
run --redact --in-place "$TMP/hl/clean.log"
is "$STATUS:$ERR" "0:" "hard link, nothing to rewrite: no error, exit 0"
run --redact --in-place --break-links "$TMP/hl/h1.log"
is_status 1 "--break-links: h1.log rewritten"
ok "--break-links: h1.log holds the redacted log" \
    cmp -s "$TMP/log.red" "$TMP/hl/h1.log"
ok "--break-links: h2.log, the other name, kept the old bytes" \
    cmp -s "$LOG" "$TMP/hl/h2.log"
is "$(stat -c %h "$TMP/hl/h1.log"):$(stat -c %i:%h "$TMP/hl/h2.log")" \
    "1:$ino:1" "--break-links: two files now, h2.log the old inode"
is "$("$KLEAKSCAN" -c "$TMP/hl/h1.log" "$TMP/hl/h2.log")" \
    "$TMP/hl/h1.log:0
$TMP/hl/h2.log:$want_leaks" "--break-links: the leaks are under h2.log only"
run --redact --break-links "$LOG"
is_status 2 "--break-links without --in-place: refused"

# --- Extended attributes and POSIX ACLs. ---------------------------------
mkdir "$TMP/xa"
cp "$LOG" "$TMP/xa/a.log"
if ! command -v setfattr >/dev/null 2>&1 ||
    ! command -v getfattr >/dev/null 2>&1 ||
    ! command -v setfacl >/dev/null 2>&1 ||
    ! command -v getfacl >/dev/null 2>&1; then
	skip "extended attributes and ACLs" "attr or acl not installed"
elif ! setfattr -n user.kleakscan -v test "$TMP/xa/a.log" 2>/dev/null ||
    ! setfacl -m u:nobody:rw "$TMP/xa/a.log" 2>/dev/null; then
	skip "extended attributes and ACLs" \
	    "$TMP: no user xattrs or ACLs on this file system"
else
	setfattr -n user.origin -v 'journald host 7' "$TMP/xa/a.log"
	setfattr -n user.empty "$TMP/xa/a.log"
	setfacl -m g:adm:r,g:nogroup:r,u:nobody:rw "$TMP/xa/a.log"
	chmod 640 "$TMP/xa/a.log"
	sec=no
	setfattr -n security.kleakscan -v label "$TMP/xa/a.log" 2>/dev/null &&
	    sec=yes
	getfattr -d -m - -e hex "$TMP/xa/a.log" 2>/dev/null |
	    grep -v '^#' >"$TMP/xa/before.attr"
	getfacl -p "$TMP/xa/a.log" 2>/dev/null >"$TMP/xa/before.acl"
	ls -l "$TMP/xa/a.log" | cut -c1-11 >"$TMP/xa/before.mode"
	ino=$(stat -c %i "$TMP/xa/a.log")
	run --redact --in-place "$TMP/xa/a.log"
	is_status 1 "xattrs: rewritten in place"
	ok "xattrs: the redacted log" cmp -s "$TMP/log.red" "$TMP/xa/a.log"
	isnt_ino=$(stat -c %i "$TMP/xa/a.log")
	ok "xattrs: a new file took its place" test "$isnt_ino" != "$ino"
	getfattr -d -m - -e hex "$TMP/xa/a.log" 2>/dev/null |
	    grep -v '^#' >"$TMP/xa/after.attr"
	is "$(cat "$TMP/xa/after.attr")" "$(cat "$TMP/xa/before.attr")" \
	    "xattrs: every attribute kept, with its value"
	like "$(cat "$TMP/xa/after.attr")" '^user\.origin=0x6a6f75726e616c6420686f73742037$' \
	    "xattrs: user.origin among them"
	getfacl -p "$TMP/xa/a.log" 2>/dev/null >"$TMP/xa/after.acl"
	is "$(cat "$TMP/xa/after.acl")" "$(cat "$TMP/xa/before.acl")" \
	    "ACL: every entry kept"
	like "$(cat "$TMP/xa/after.acl")" '^group:adm:r--$' \
	    "ACL: the adm group entry among them"
	is "$(ls -l "$TMP/xa/a.log" | cut -c1-11)" \
	    "$(cat "$TMP/xa/before.mode")" "ACL: mode and ACL mark kept"
	if [ $sec = yes ]; then
		like "$(cat "$TMP/xa/after.attr")" '^security\.kleakscan=' \
		    "xattrs: a security.* label kept"
	else
		skip "xattrs: a security.* label kept" "cannot set one here"
	fi
	# A label the caller may not set: an error, the file as it was.
	if [ $sec = yes ] && [ "$(id -u)" -eq 0 ] &&
	    command -v setpriv >/dev/null 2>&1; then
		mkdir "$TMP/xa/u"
		cp "$LOG" "$TMP/xa/u/b.log"
		setfattr -n security.kleakscan -v label "$TMP/xa/u/b.log"
		chown nobody "$TMP/xa/u" "$TMP/xa/u/b.log"
		chmod 755 "$TMP" "$TMP/xa"
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
		    "$KLEAKSCAN" --redact --in-place "$TMP/xa/u/b.log" \
		    >"$TMP/out" 2>"$TMP/err"
		st=$?
		chmod 700 "$TMP"
		if grep -q 'Permission denied\|not found' "$TMP/err" &&
		    ! grep -q security.kleakscan "$TMP/err"; then
			skip "xattrs: a label that cannot be copied" \
			    "nobody cannot run $KLEAKSCAN here"
		else
			is "$st" 2 "xattrs: a label that cannot be copied: error"
			like "$(cat "$TMP/err")" "^kleakscan: $TMP/xa/u/b.log: cannot copy the extended attribute security\.kleakscan to .*: Operation not permitted$" \
			    "xattrs: a label that cannot be copied: one line says which"
			ok "xattrs: a label that cannot be copied: the file as it was" \
			    cmp -s "$LOG" "$TMP/xa/u/b.log"
			is "$(ls -A "$TMP/xa/u" | grep -c kleakscan-)" 0 \
			    "xattrs: a label that cannot be copied: no temporary file"
		fi
	else
		skip "xattrs: a label that cannot be copied" \
		    "needs root, setpriv and security.* xattrs"
	fi
fi

# --- Write failures: one line each, naming what and why. ----------------
if [ ! -w /dev/full ]; then
	skip "standard output on /dev/full" "no /dev/full"
else
	"$KLEAKSCAN" --redact "$LOG" >/dev/full 2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "2:kleakscan: cannot write standard output: \
No space left on device" "--redact to a full stdout: one line, exit 2"
	"$KLEAKSCAN" "$LOG" >/dev/full 2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "2:kleakscan: cannot write standard output: \
No space left on device" "scan to a full stdout: one line, exit 2"
fi

mkdir "$TMP/small"
if [ "$(id -u)" -ne 0 ]; then
	skip "a full tmpfs" "not root: cannot mount a 64 KiB tmpfs"
elif ! mount -t tmpfs -o size=64k kleakscan-test "$TMP/small" 2>/dev/null
then
	skip "a full tmpfs" "mounting a tmpfs is not allowed here"
else
	MNT=$TMP/small
	# Eight logs of boots (1.5 MB or more: the QEMU boots of the corpus,
	# else the logs of tests/data, repeated), each printing more than
	# the 64 KiB tmpfs holds: then every input a worker writes to a
	# temporary file fills it.  With smaller outputs, whether two of them
	# are ever waiting at once depends on the timing of a loaded machine.
	find "$BOOTS" -name '*.log' -o -name '*.console' -o -name '*.dmesg' |
	    sort | xargs cat >"$TMP/all.log"
	if ! [ -s "$TMP/all.log" ]; then
		echo "Bail out! no logs under $BOOTS"
		exit 99
	fi
	mkdir "$TMP/eight"
	sz=1500000
	while :; do
		while [ "$(wc -c <"$TMP/all.log")" -lt $((sz + 100000)) ]; do
			cat "$TMP/all.log" "$TMP/all.log" >"$TMP/all2.log"
			mv "$TMP/all2.log" "$TMP/all.log"
		done
		head -c $sz "$TMP/all.log" | sed '$d' >"$TMP/eight/b1.log"
		[ "$("$KLEAKSCAN" "$TMP/eight/b1.log" | wc -c)" -gt 98304 ] ||
		    [ $sz -gt 50000000 ] && break
		sz=$((sz * 2))
	done
	for i in 2 3 4 5 6 7 8; do
		cp "$TMP/eight/b1.log" "$TMP/eight/b$i.log"
	done
	"$KLEAKSCAN" -j1 "$TMP/eight" >"$TMP/j1.out" 2>"$TMP/j1.err"
	is "$?:$(cat "$TMP/j1.err")" "1:" "eight logs of 1.5 MB or more, -j1: leaks"
	TMPDIR=$MNT "$KLEAKSCAN" -j2 "$TMP/eight" >"$TMP/j2.out" \
	    2>"$TMP/j2.err"
	is "$?" 2 "-j2, TMPDIR full: exit status 2"
	is "$(cat "$TMP/j2.err")" "kleakscan: cannot write a temporary file \
in $MNT: No space left on device" "-j2, TMPDIR full: one line says what and why"
	n=$(wc -c <"$TMP/j2.out")
	ok "-j2, TMPDIR full: what was written is the start of -j1's" \
	    cmp -s "$TMP/j2.out" "$(head -c "$n" "$TMP/j1.out" \
	    >"$TMP/j1.head"; echo "$TMP/j1.head")"
	per=$(( $(wc -l <"$TMP/j1.out") / 8 ))
	is "$(( $(wc -l <"$TMP/j2.out") % per ))" 0 \
	    "-j2, TMPDIR full: whole inputs only"
	# -o, --in-place and --output-dir on the full file system.
	"$KLEAKSCAN" --redact -o "$MNT/out.log" "$TMP/eight/b1.log" \
	    2>"$TMP/err"
	st=$?
	like "$(cat "$TMP/err")" "^kleakscan: $TMP/eight/b1.log: cannot write $MNT/\.out\.log\.kleakscan-[A-Za-z0-9]{6} \(to become $MNT/out\.log\): No space left on device$" \
	    "-o on a full tmpfs: one line names the file and why"
	is "$st:$(ls -A "$MNT")" "2:" "-o on a full tmpfs: exit 2, nothing left"
	head -c 40000 "$TMP/eight/b1.log" | sed '$d' >"$MNT/in.log"
	cp "$MNT/in.log" "$TMP/in.orig"
	"$KLEAKSCAN" --redact --in-place "$MNT/in.log" 2>"$TMP/err"
	st=$?
	is "$st:$(cat "$TMP/err" | sed "s,$MNT/\.in\.log\.kleakscan-[A-Za-z0-9]*,TMPFILE,")" \
	    "2:kleakscan: $MNT/in.log: cannot write TMPFILE (to become $MNT/in.log): No space left on device" \
	    "--in-place on a full tmpfs: one line names the file and why"
	ok "--in-place on a full tmpfs: the original as it was" \
	    cmp -s "$TMP/in.orig" "$MNT/in.log"
	is "$(ls -A "$MNT")" "in.log" "--in-place on a full tmpfs: nothing left"
	rm -f "$MNT/in.log"
	"$KLEAKSCAN" --redact --output-dir="$MNT/od" "$TMP/eight/b1.log" \
	    2>"$TMP/err"
	st=$?
	like "$st:$(cat "$TMP/err")" "^2:kleakscan: $TMP/eight/b1.log: cannot write $MNT/od/.*\.b1\.log\.kleakscan-[A-Za-z0-9]{6} \(to become $MNT/od/.*b1\.log\): No space left on device$" \
	    "--output-dir on a full tmpfs: one line names the file and why"
	umount "$MNT" && MNT=
fi

# --- Few descriptors: batches and the queue shrink, nothing falls back. --
# (Each waiting input holds two temporary files, a batch one descriptor
# per input; the budget leaves room for both under the limit.)
"$KLEAKSCAN" -j1 -c $LOGS >"$TMP/f1.out" 2>/dev/null
bad=
for n in 32 24 20; do
	for i in 1 2 3; do
		(ulimit -n $n && "$KLEAKSCAN" -j4 -c $LOGS \
		    >"$TMP/f2.out" 2>"$TMP/f2.err")
		cmp -s "$TMP/f1.out" "$TMP/f2.out" || bad="$bad $n:out"
		[ -s "$TMP/f2.err" ] && bad="$bad $n:$(head -n 1 "$TMP/f2.err")"
	done
done
is "$bad" "" "32, 24 and 20 descriptors, -j4, three runs each: the output of -j1, nothing on stderr"

# --- SIGKILL at many points: never a mix, and the leftover is named. ----
# A test hook kills the program once it has written N bytes of its copy
# (KLEAKSCAN_TEST_KILL_AFTER), or just before or after its rename
# (KLEAKSCAN_TEST_KILL_AT).  After each kill the destination must be the
# original or the complete rewritten copy, and the next run (not killed)
# warns about the temporary file the killed one left.
if [ -d "$CORPUS/qemu" ]; then
	find "$CORPUS/qemu" -name '*.log' | sort | head -n 6 |
	    xargs cat >"$TMP/k.log"
	while [ "$(wc -c <"$TMP/k.log")" -lt 2000000 ]; do
		cat "$TMP/k.log" "$TMP/k.log" >"$TMP/k2.log"
		mv "$TMP/k2.log" "$TMP/k.log"
	done
	(cd "$CORPUS/.." && find corpus/qemu -name '*.log' | sort |
	    tar -czf "$TMP/k.tar.gz" -T - corpus/boot)
else
	cat "$LOGS"/* >"$TMP/k.log"
	while [ "$(wc -c <"$TMP/k.log")" -lt 2000000 ]; do
		cat "$TMP/k.log" "$TMP/k.log" >"$TMP/k2.log"
		mv "$TMP/k2.log" "$TMP/k.log"
	done
	tar -czf "$TMP/k.tar.gz" -C "$TMP" k.log -C "$TESTDATA" .
fi
"$KLEAKSCAN" --redact "$TMP/k.log" >"$TMP/k.red"
"$KLEAKSCAN" --redact -o "$TMP/k.tar.gz.red" "$TMP/k.tar.gz" 2>/dev/null
sum_c() {
	"$KLEAKSCAN" -c "$1" | awk -F: '{ s += $NF } END { print s + 0 }'
}
b=$(sum_c "$TMP/k.tar.gz")
a=$(sum_c "$TMP/k.tar.gz.red")
ok "the tar.gz rewritten in one run: fewer leaks ($b, then $a)" \
    test "$a" -lt "$b"

# killed WHAT SIZE: the points to kill a copy of SIZE bytes at.
points() {
	echo 1 4096 65537 $(($2 / 3)) $(($2 / 2)) $(($2 - 4096)) $(($2 - 1)) \
	    rename renamed
}

# kill_run MODE INPUT WANT ORIG POINT: one killed run and the check.
mix=
kill_run() {
	mode=$1 in=$2 red=$3 orig=$4 pt=$5
	rm -rf "$TMP/kd"
	mkdir "$TMP/kd"
	base=${in##*/}
	case $mode in
	in-place)
		cp "$orig" "$TMP/kd/$base"
		dest=$TMP/kd/$base
		set -- --in-place "$dest" ;;
	o)
		printf 'the old output\n' >"$TMP/kd/out"
		cp "$TMP/kd/out" "$TMP/kd/out.orig"
		dest=$TMP/kd/out
		set -- -o "$dest" "$in" ;;
	dir)
		mkdir -p "$TMP/kd/d${in%/*}"
		printf 'the old copy\n' >"$TMP/kd/d$in"
		cp "$TMP/kd/d$in" "$TMP/kd/out.orig"
		dest=$TMP/kd/d$in
		set -- --output-dir="$TMP/kd/d" "$in" ;;
	esac
	[ "$mode" = in-place ] && cp "$orig" "$TMP/kd/out.orig"
	case $pt in
	rename*) KLEAKSCAN_TEST_KILL_AT=$pt "$KLEAKSCAN" --redact "$@" \
	    >/dev/null 2>&1 ;;
	*) KLEAKSCAN_TEST_KILL_AFTER=$pt "$KLEAKSCAN" --redact "$@" \
	    >/dev/null 2>&1 ;;
	esac
	st=$?
	if [ $st -ne 137 ]; then
		mix="$mix $mode:$base:$pt:status=$st"
	elif [ "$pt" = renamed ]; then
		cmp -s "$dest" "$red" || mix="$mix $mode:$base:$pt:not-new"
	elif ! cmp -s "$dest" "$TMP/kd/out.orig"; then
		mix="$mix $mode:$base:$pt:changed"
	fi
	left=$(ls -A "${dest%/*}" | grep "^\.${dest##*/}\.kleakscan-......$")
	if [ "$pt" = renamed ]; then
		[ -z "$left" ] || mix="$mix $mode:$base:$pt:left"
		return
	fi
	if [ -z "$left" ]; then
		mix="$mix $mode:$base:$pt:no-temp"
		return
	fi
	# The next run completes and names what the killed one left.
	"$KLEAKSCAN" --redact "$@" >/dev/null 2>"$TMP/kd/err"
	cmp -s "$dest" "$red" || mix="$mix $mode:$base:$pt:rerun-not-new"
	grep -q "^kleakscan: ${dest%/*}/$left: a temporary file left by an \
interrupted run (it may hold the unredacted log): remove it\$" "$TMP/kd/err" ||
	    mix="$mix $mode:$base:$pt:not-named"
}

for in in "$TMP/k.log" "$TMP/k.tar.gz"; do
	if [ "$in" = "$TMP/k.log" ]; then red=$TMP/k.red; else
		red=$TMP/k.tar.gz.red; fi
	size=$(wc -c <"$red")
	n=0
	for mode in in-place o dir; do
		for pt in $(points "$mode" "$size"); do
			kill_run "$mode" "$in" "$red" "$in" "$pt"
			n=$((n + 1))
		done
	done
	is "$mix" "" "SIGKILL at $n points of ${in##*/}: untouched or whole, \
the leftover named"
	mix=
done

done_testing
