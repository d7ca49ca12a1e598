#!/bin/sh
# badinput.sh - inputs that are missing, odd or hostile: a clear error or
# the exact right result, never a crash, and bounded memory.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to build inputs and read JSON"
	exit 0
fi

KLPY=$TMP/kl.py
cat >"$KLPY" <<'EOF'
import json, sys

mode, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
if mode == "pos":
    # "line:column:offset:text" of the findings of a --json run.
    for raw in data.splitlines():
        e = json.loads(raw)
        if e["type"] == "finding" and e["suppressed"] is None:
            print("%d:%d:%d:%s" % (e["line"], e["column"], e["offset"],
                                   e["text"]))
elif mode == "events":
    # Every line is one JSON object; print the event types in order.
    for raw in data.splitlines():
        print(json.loads(raw)["type"])
elif mode == "cands":
    # Candidates of the 64-bit union: 16-digit tokens (8-digit ones count
    # only as findings their line's context makes, see cands8).
    ev = [json.loads(r) for r in data.splitlines()]
    s = ev[-1]
    n8 = len([e for e in ev if e["type"] == "finding" and
              len(e["text"]) == 8])
    print(s["findings"] + sum(s["suppressed"].values()) - n8)
elif mode == "cands8":
    # 8-digit findings: each on a line whose words say kernel (context).
    ev = [json.loads(r) for r in data.splitlines()]
    f = [e for e in ev if e["type"] == "finding" and len(e["text"]) == 8]
    print(len(f), len([e for e in f if e["confidence"] == "low" and
                       e["rule"] != "value"]))
elif mode == "hexruns":
    # Independent count of 16-digit hex runs (optional 0x) bounded by
    # non-alphanumeric bytes: the candidates of the 64-bit union.
    import re
    print(len([m for m in re.finditer(
        rb"(?<![0-9A-Za-z])(?:0[xX])?([0-9A-Fa-f]+)(?![0-9A-Za-z])", data)
        if len(m.group(1)) == 16]))
elif mode == "clean":
    # Text output: valid UTF-8, no control byte but the newline.
    bad = [b for b in set(data) if (b < 0x20 and b != 0x0a) or b == 0x7f]
    try:
        data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        utf8 = False
    print("clean" if not bad and utf8 else
          "control bytes %s, utf-8 %s" % (sorted(bad), utf8))
elif mode == "garbage":
    # 1 MiB from xorshift64 seeded 42, with the kernel text pointer
    # ffffffff81234567 planted between spaces at fixed offsets.
    x, out = 42, bytearray()
    while len(out) < 1 << 20:
        x ^= (x << 13) & 0xffffffffffffffff
        x ^= x >> 7
        x ^= (x << 17) & 0xffffffffffffffff
        out += x.to_bytes(8, "little")
    for off in (4096, 300000, 1048000):
        out[off:off + 18] = b" ffffffff81234567 "
    open(sys.argv[3], "wb").write(bytes(out))
elif mode == "offsets":
    # Byte offsets of the planted token in a file.
    tok, i, o = b"ffffffff81234567", 0, []
    while (i := data.find(tok, i)) >= 0:
        o.append(str(i))
        i += 1
    print(" ".join(o))
EOF

# j MODE FILE: a fact about a file or a --json output (see kl.py).
j() {
	python3 "$KLPY" "$@"
}

# is_jsonl FILE: every line of FILE is one JSON event.
is_jsonl() {
	j events "$1" >/dev/null 2>&1
}

# runj ARGS...: run with --json; output in $TMP/out, STATUS set.
runj() {
	"$KLEAKSCAN" --json "$@" >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	ERR=$(cat "$TMP/err")
}

fx=$WRITTEN/x86_64-frames.report

# --- A missing file among good ones. ---------------------------------
run "$TMP/no-such-file" "$fx"
is_status 2 "missing file and a good one"
is "$ERR" "kleakscan: $TMP/no-such-file: No such file or directory" \
    "missing file: one line 'kleakscan: NAME: message' on stderr"
is "$(printf '%s\n' "$OUT" | grep -c "^$fx:[0-9]*:[0-9]*: text ")" 13 \
    "missing file: the good input is still scanned (13 findings)"
# The same on a real report of the corpus (16 frames).
if rfx=$(real x86_64-syzkaller-4.15-frames.report); then
	run "$TMP/no-such-file" "$rfx"
	is "$STATUS:$(printf '%s\n' "$OUT" | grep -c "^$rfx:[0-9]*:[0-9]*: text ")" \
	    2:16 "missing file: a real report is still scanned (16 findings)"
else
	skip "missing file: a real report is still scanned" "no corpus"
fi
run "$fx" "$TMP/no-such-file"
is_status 2 "missing file after a good one"
is "$(printf '%s\n' "$OUT" | wc -l | tr -d ' ')" 13 \
    "missing file last: the findings before it are all printed"
runj "$TMP/no-such-file" "$fx"
is "$(j events "$TMP/out" | paste -sd' ' -)" \
    "error begin $(printf 'finding %.0s' $(seq 13))boot end summary" \
    "missing file, --json: an error event, then the good input"
is "$(grep '"type":"summary"' "$TMP/out" | grep -c '"errors":1')" 1 \
    "missing file, --json: the summary counts one error"
run -s "$TMP/no-such-file" "$fx"
is "$STATUS:$ERR" "2:" "missing file with -s: no message, exit status 2"
run -q "$TMP/no-such-file" "$fx"
is "$STATUS" 1 "missing file with -q and a leak: exit status 1"
touch "$TMP/plain"
run "$TMP/plain/child"
is_status 2 "a path through a plain file"
is "$ERR" "kleakscan: $TMP/plain/child: Not a directory" \
    "a path through a plain file: ENOTDIR message"

# An unreadable file (only meaningful when not root).
cp "$fx" "$TMP/unreadable"
chmod 000 "$TMP/unreadable"
if [ "$(id -u)" = 0 ] || [ -r "$TMP/unreadable" ]; then
	skip "an unreadable file gives exit status 2" "running as root"
else
	run "$TMP/unreadable" "$fx"
	is "$STATUS:$ERR" \
	    "2:kleakscan: $TMP/unreadable: Permission denied" \
	    "an unreadable file: exit status 2 and one message"
fi
chmod 644 "$TMP/unreadable"

# --- A directory operand is walked; symlinks are not followed. --------
mkdir -p "$TMP/tree/sub/deeper"
cp "$fx" "$TMP/tree/sub/deeper/a.report"
cp "$WRITTEN/arm64-oops.log" "$TMP/tree/b.report"
: >"$TMP/tree/sub/empty"
ln -s .. "$TMP/tree/sub/loop"
ln -s ../b.report "$TMP/tree/sub/link"
run -c "$TMP/tree"
is_status 1 "a directory operand"
is "$(printf '%s\n' "$OUT" | sort)" \
    "$(printf '%s\n' "$TMP/tree/b.report:9" "$TMP/tree/sub/deeper/a.report:13" \
    "$TMP/tree/sub/empty:0" | sort)" \
    "a directory is walked: every file once, links and loops not followed"
is "$ERR" "" "a directory walk: nothing on stderr"

# --- An empty file. ---------------------------------------------------
: >"$TMP/empty"
run "$TMP/empty"
is "$STATUS:$OUT:$ERR" "0::" "an empty file: exit 0, no output"
runj "$TMP/empty"
is "$(j events "$TMP/out" | paste -sd' ' -)" "begin end summary" \
    "an empty file, --json: begin, end, summary"

# --- Binary garbage. --------------------------------------------------
# By default a unit that is no log, met in a directory walk, is skipped,
# noted on stderr and counted, without changing the exit status;
# --format=text scans it.  Named on the command line it is scanned as
# text (it used to be skipped like a walked one: a named file is never
# skipped silently now).
j garbage /dev/null "$TMP/garbage"
is "$(wc -c <"$TMP/garbage" | tr -d ' ')" 1048576 "garbage: 1 MiB generated"
mkdir "$TMP/gdir"
cp "$TMP/garbage" "$TMP/gdir/garbage"
runj "$TMP/gdir"
is "$STATUS" 0 "garbage, --json: exit status 0"
is "$ERR" "kleakscan: $TMP/gdir/garbage: skipped: binary file" \
    "garbage: one 'skipped: binary file' note on stderr"
is "$(j events "$TMP/out" | paste -sd' ' -)" "begin end summary" \
    "garbage, --json: begin, end, summary"
is "$(grep -c '"skipped_binary":1' "$TMP/out")" 1 \
    "garbage, --json: the summary counts one skipped binary unit"
run -s "$TMP/gdir"
is "$STATUS:$OUT:$ERR" "0::" "garbage with -s: no note, no output, exit 0"
runj "$TMP/garbage"
is "$(j pos "$TMP/out" | cut -d: -f3 | paste -sd' ' -)" \
    "$(j offsets "$TMP/garbage")" \
    "garbage named: scanned as text, the three planted pointers found"
is "$ERR" "" "garbage named: no note"
runj --format=text "$TMP/garbage"
ok "garbage --format=text: exit status 0 or 1" test "$STATUS" -le 1
ok "garbage --format=text, --json: every output line is a JSON event" \
    is_jsonl "$TMP/out"
is "$(j pos "$TMP/out" | cut -d: -f3 | paste -sd' ' -)" \
    "$(j offsets "$TMP/garbage")" \
    "garbage --format=text: the three planted pointers once each, offsets exact"
is "$(j cands "$TMP/out")" "$(j hexruns "$TMP/garbage")" \
    "garbage --format=text: every 16-digit hex run is a candidate"
"$KLEAKSCAN" --format=text --color=never "$TMP/garbage" >"$TMP/text" \
    2>/dev/null
is "$(j clean "$TMP/text")" clean \
    "garbage --format=text, text: escaped (no control bytes, valid UTF-8)"
"$KLEAKSCAN" --format=text --color=never --show-suppressed -b \
    "$TMP/garbage" >"$TMP/text" 2>/dev/null
is "$(j clean "$TMP/text")" clean \
    "garbage --format=text --show-suppressed -b: escaped"

# ELF bytes: the binary itself and /bin/ls.
for elf in "$KLEAKSCAN" /bin/ls; do
	[ -f "$elf" ] || continue
	e=${elf##*/}
	runj --binary-files=skip "$elf"
	is "$STATUS:$ERR" "0:kleakscan: $elf: skipped: binary file" \
	    "ELF $e --binary-files=skip: skipped with a note, exit status 0"
	runj "$elf"
	is "$(j cands "$TMP/out")" "$(j hexruns "$elf")" \
	    "ELF $e named: scanned as text, its 16-digit hex runs are candidates"
	runj --format=text "$elf"
	ok "ELF $e --format=text: exit status 0 or 1" test "$STATUS" -le 1
	ok "ELF $e --format=text, --json: every line is a JSON event" \
	    is_jsonl "$TMP/out"
	is "$(j cands "$TMP/out")" "$(j hexruns "$elf")" \
	    "ELF $e --format=text: candidates are exactly its 16-digit hex runs"
	n8=$(j cands8 "$TMP/out")
	is "${n8% *}" "${n8#* }" \
	    "ELF $e --format=text: an 8-digit finding only where context says"
	"$KLEAKSCAN" --format=text --color=never --show-suppressed "$elf" \
	    >"$TMP/text" 2>"$TMP/err"
	ok "ELF $e --format=text, text: exit status 0 or 1" test "$?" -le 1
	is "$(j clean "$TMP/text")" clean "ELF $e --format=text, text: escaped"
done

# --- NUL bytes, CRLF, no final newline. -------------------------------
# The same three lines with LF, with CRLF, and without the last newline;
# a NUL before the token on line 2 is data and counts as one column.
printf 'RIP: 0010:x\na\000b ffffffff81234567 c\000\nRSP: 0018:ffffa667c016fe48\n' \
    >"$TMP/lf"
printf 'RIP: 0010:x\r\na\000b ffffffff81234567 c\000\r\nRSP: 0018:ffffa667c016fe48\r\n' \
    >"$TMP/crlf"
printf 'RIP: 0010:x\na\000b ffffffff81234567 c\000\nRSP: 0018:ffffa667c016fe48' \
    >"$TMP/nonl"
runj "$TMP/lf"
is "$STATUS" 1 "LF: exit status"
is "$(j pos "$TMP/out" | paste -sd' ' -)" \
    "2:5:16:ffffffff81234567 3:11:46:ffffa667c016fe48" \
    "LF, NUL in a line: both found, columns and offsets exact"
runj "$TMP/crlf"
is "$(j pos "$TMP/out" | paste -sd' ' -)" \
    "2:5:17:ffffffff81234567 3:11:48:ffffa667c016fe48" \
    "CRLF: same lines and columns as LF (offsets count the CRs)"
runj "$TMP/nonl"
is "$(j pos "$TMP/out" | paste -sd' ' -)" \
    "2:5:16:ffffffff81234567 3:11:46:ffffa667c016fe48" \
    "no final newline: the last line's token is found"
for rs in 1 7; do
	runj --read-size $rs "$TMP/nonl"
	is "$(j pos "$TMP/out" | paste -sd' ' -)" \
	    "2:5:16:ffffffff81234567 3:11:46:ffffa667c016fe48" \
	    "no final newline, --read-size $rs: the same"
done
run --color=never "$TMP/crlf"
printf '%s\n' "$OUT" >"$TMP/text"
is "$(j clean "$TMP/text")" clean "CRLF and NUL: text output escaped"
is "$OUT" "$(printf '%s\n' \
    '2:5: text high 0xffffffff81234567  a\x00b ffffffff81234567 c\x00' \
    '3:11: vmalloc medium 0xffffa667c016fe48  RSP: 0018:ffffa667c016fe48')" \
    "CRLF and NUL, text: NUL shown as \\x00, the CR of CRLF dropped"

# --- A 64 MiB line: tokens at its start, middle and end. ---------------
# Line 2 is 64 MiB of 'a' with " ffffffff81234567 " at columns 10, 2^25
# and 2^26 - 20 (the token one column later); line 1 is a RIP: line.
python3 - "$TMP/big" <<'EOF'
import sys
n = 1 << 26
with open(sys.argv[1], "wb") as f:
    f.write(b"RIP: 0010:x\n")
    line = bytearray(b"a" * n)
    for c in (10, n // 2, n - 20):
        line[c - 1:c + 17] = b" ffffffff81234567 "
    f.write(line)
    f.write(b"\n")
EOF
want="2:11:22:ffffffff81234567 2:33554433:33554444:ffffffff81234567 2:67108845:67108856:ffffffff81234567"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o "$TMP/rss" "$KLEAKSCAN" --json "$TMP/big" \
	    >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	rss=$(tail -1 "$TMP/rss")
else
	"$KLEAKSCAN" --json "$TMP/big" >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	rss=
fi
is "$STATUS" 1 "64 MiB line: exit status"
is "$(j pos "$TMP/out" | paste -sd' ' -)" "$want" \
    "64 MiB line: start, middle and end tokens once each, columns exact"
if [ -n "$rss" ]; then
	ok "64 MiB line: peak RSS ${rss} KiB is below 64 MiB" \
	    test "$rss" -lt 65536
else
	skip "64 MiB line: peak RSS below 64 MiB" "no /usr/bin/time"
fi
cat "$TMP/big" | "$KLEAKSCAN" --json - >"$TMP/out" 2>"$TMP/err"
is "$(j pos "$TMP/out" | paste -sd' ' -)" "$want" \
    "64 MiB line through a pipe: the same three findings"
rm -f "$TMP/big"

# --- Option values that cannot describe a layout. ---------------------
# PAGE_OFFSET above 4 GiB cannot be a 32-bit split: refuse it, as an
# unparsable one is refused, instead of scanning with no kernel range.
echo 'mapped 4G/4G trampoline to ffff3000.' >"$TMP/tramp"
run --arch i386 --page-offset zz "$TMP/tramp"
is "$STATUS" 2 "--page-offset zz: exit status 2"
run --arch i386 --page-offset 0x100000000 "$TMP/tramp"
todo_is "$STATUS" 2 "--page-offset 0x100000000 (above 4 GiB): exit status 2" \
    "accepted: every value is then not-kernel, even the fixmap"
run --arch i386 "$TMP/tramp"
is "$STATUS:$OUT" \
    "1:1:28: fixmap low 0xffff3000  mapped 4G/4G trampoline to ffff3000." \
    "--arch i386: the 4G/4G trampoline is a fixmap address"

done_testing
