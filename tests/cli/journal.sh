#!/bin/sh
# journal.sh - systemd journals built with the real tools from a real log:
# an export stream written from the log's lines, turned into a native
# journal file by systemd-journal-remote, read back by journalctl as
# export, json and json-seq.  kleakscan on every form (files and stdin)
# gives the findings of the text log (same values, regions, reasons, and
# per-field line and column); damage, invalid UTF-8, byte arrays, boot
# segments from _BOOT_ID and the text and JSON output forms.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to build inputs and read JSON"
	exit 0
fi
JREMOTE=
for p in /lib/systemd/systemd-journal-remote \
    /usr/lib/systemd/systemd-journal-remote; do
	if [ -x "$p" ]; then
		JREMOTE=$p
		break
	fi
done

cd "$TMP" || exit 99

KLPY=$TMP/kl.py
cat >"$KLPY" <<'EOF'
import json, re, struct, sys

mode = sys.argv[1]
PFX = re.compile(rb"^(\[ *(\d+)\.(\d+)\] )(.*?)\r?$")
BASE = 1700000000000000

def events(path):
    return [json.loads(l) for l in open(path, "rb")]

if mode == "export":
    # export LOG OUT BOOT...: one entry per "[ts] msg" line of LOG, the
    # lines repeated once per boot id (a new boot each time).
    src, out, boots = sys.argv[2], sys.argv[3], sys.argv[4:]
    lines = open(src, "rb").read().split(b"\n")
    with open(out, "wb") as o:
        for b in boots:
            for raw in lines:
                m = PFX.match(raw)
                if not m:
                    continue
                us = int(m.group(2)) * 1000000 + int(m.group(3))
                o.write(b"__REALTIME_TIMESTAMP=%d\n" % (BASE + us))
                o.write(b"__MONOTONIC_TIMESTAMP=%d\n" % us)
                o.write(b"_BOOT_ID=%s\n" % b.encode())
                o.write(b"_TRANSPORT=kernel\nPRIORITY=6\n")
                o.write(b"SYSLOG_IDENTIFIER=kernel\n")
                o.write(b"MESSAGE=" + m.group(4) + b"\n\n")
elif mode == "want":
    # want LOG JSON NBOOTS: the findings of the text scan JSON of LOG as
    # the journal should give them: entry, line 1, column in the message.
    src, path, nboots = sys.argv[2], sys.argv[3], int(sys.argv[4])
    lines = open(src, "rb").read().split(b"\n")
    entry, pfx = {}, {}
    n = 0
    for i, raw in enumerate(lines):
        m = PFX.match(raw)
        if m:
            entry[i + 1] = n
            pfx[i + 1] = len(m.group(1))
            n += 1
    fs = [e for e in events(path) if e["type"] == "finding"]
    for b in range(nboots):
        for e in fs:
            if e["line"] not in entry:
                continue
            print(entry[e["line"]] + b * n, 1, e["column"] - pfx[e["line"]],
                  e["value"], e["region"], e["suppressed"], b, "MESSAGE",
                  BASE + int(PFX.match(lines[e["line"] - 1]).group(2)) *
                  1000000 + int(PFX.match(lines[e["line"] - 1]).group(3)))
elif mode == "got":
    # got JSON: entry, line, column, value, region, reason, boot, field,
    # realtime of each finding.
    for e in events(sys.argv[2]):
        if e["type"] == "finding":
            print(e.get("entry"), e["line"], e["column"], e["value"],
                  e["region"], e["suppressed"], e["boot"], e.get("field"),
                  e.get("realtime"))
elif mode == "cursors":
    # cursors JSON: how many findings have a cursor, and how many not.
    fs = [e for e in events(sys.argv[2]) if e["type"] == "finding"]
    print(sum(1 for e in fs if isinstance(e.get("cursor"), str) and
              e["cursor"].startswith("s=")),
          sum(1 for e in fs if e.get("cursor") is None))
elif mode == "offsets":
    # offsets JSON FILE: each finding's text is at its offset in FILE.
    data = open(sys.argv[3], "rb").read()
    fs = [e for e in events(sys.argv[2]) if e["type"] == "finding"]
    bad = [e for e in fs if e["offset"] is None or
           data[e["offset"]:e["offset"] + len(e["text"])] !=
           e["text"].encode()]
    print(len(fs), len(bad))
elif mode == "leakoff":
    # leakoff JSON: the offset of the first finding that is a leak.
    print([e for e in events(sys.argv[2]) if e["type"] == "finding" and
           e["suppressed"] is None][0]["offset"])
elif mode == "rules":
    # rules JSON: entry, column, value and rule of each finding.
    for e in events(sys.argv[2]):
        if e["type"] == "finding":
            print(e.get("entry"), e["column"], e["value"], e["rule"])
elif mode == "nulloff":
    fs = [e for e in events(sys.argv[2]) if e["type"] == "finding"]
    print(len(fs), sum(1 for e in fs if e["offset"] is None))
elif mode == "types":
    print(" ".join(e["type"] for e in events(sys.argv[2])))
elif mode == "key":
    # key JSON TYPE KEY...: the keys of each TYPE event.
    for e in events(sys.argv[2]):
        if e["type"] == sys.argv[3]:
            print(" ".join(json.dumps(e.get(k, "<absent>"),
                  separators=(",", ":")) for k in sys.argv[4:]))
elif mode == "badexport":
    # An entry, then one whose binary MESSAGE claims 1000 bytes.
    with open(sys.argv[2], "wb") as o:
        o.write(b"__CURSOR=s=1;i=1\n__REALTIME_TIMESTAMP=1700000000000000\n"
                b"_BOOT_ID=0123456789abcdef0123456789abcdef\n"
                b"MESSAGE=RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246\n\n"
                b"__CURSOR=s=1;i=2\n__REALTIME_TIMESTAMP=1700000000000001\n"
                b"MESSAGE\n" + struct.pack("<Q", 1000) +
                b"R10: ffff993fa4e1c848\n")
elif mode == "badjson":
    # Invalid UTF-8 in a string; a byte array; json-seq's RS.
    arr = list(b"x\xfe R10: ffff993fa4e1c848")
    with open(sys.argv[2], "wb") as o:
        o.write(b'{"__CURSOR":"s=1;i=1","_BOOT_ID":"0123456789abcdef0123'
                b'456789abcdef","MESSAGE":"bad \xff RSP: 0018:ffffa667c01'
                b'6fe48 EFLAGS: 00010246"}\n')
        o.write(b'\x1e{"__CURSOR":"s=1;i=2","MESSAGE":' +
                json.dumps(arr, separators=(",", ":")).encode() + b'}\n')
elif mode == "binexport":
    # A binary MESSAGE (not UTF-8) in an export, for journal-remote.
    msg = b"bin \xff\x01 RSP: 0018:ffffa667c016fe48"
    with open(sys.argv[2], "wb") as o:
        o.write(b"__REALTIME_TIMESTAMP=1700000000000000\n"
                b"_BOOT_ID=0123456789abcdef0123456789abcdef\n"
                b"_TRANSPORT=kernel\nMESSAGE\n" + struct.pack("<Q", len(msg))
                + msg + b"\n\n")
elif mode == "msgtype":
    # msgtype JSON: the JSON type of the first entry's MESSAGE.
    e = json.loads(open(sys.argv[2], "rb").readline())
    print(type(e["MESSAGE"]).__name__)
EOF

# j MODE ARG...: see kl.py.
j() {
	python3 "$KLPY" "$@"
}

# scan OUT ARG...: kleakscan --json --show-suppressed ARG... into OUT;
# STATUS and ERR set.
scan() {
	scan_out=$1
	shift
	"$KLEAKSCAN" --json --show-suppressed "$@" >"$scan_out" 2>"$TMP/err"
	STATUS=$?
	ERR=$(cat "$TMP/err")
}

NATIVE=no
"$KLEAKSCAN" --version | grep -q '^native journals: yes' && NATIVE=yes
diag "native journals: $NATIVE"

# --- Exports written by hand (no tools needed). -------------------------
LOG=$WRITTEN/x86_64-oops.dmesg
BOOT1=0123456789abcdef0123456789abcdef
BOOT2=fedcba9876543210fedcba9876543210
j export "$LOG" hand.export $BOOT1
scan text.json "$LOG"
j want "$LOG" text.json 1 >want
n=$(wc -l <want | tr -d ' ')
ok "the text log has findings to compare ($n)" test "$n" -ge 8

scan out.json hand.export
is "$STATUS" 1 "hand-written export: exit status 1"
is "$(j got out.json)" "$(cat want)" \
    "hand-written export: the text log's findings, per-field line and column"
is "$(j offsets out.json hand.export)" "$n 0" \
    "hand-written export: every offset points at the token in the stream"
is "$(j cursors out.json)" "0 $n" "hand-written export: no cursor, null"
scan out.json - <hand.export
is "$(j got out.json)" "$(cat want)" "hand-written export on stdin: the same"

# Text output: entryN:FIELD:line:col:, names as usual.
"$KLEAKSCAN" -H hand.export >out.txt 2>&1
first=$(grep -n 'RSP: 0018:ffffb7d2c0d3bd70' "$LOG" | head -1 | cut -d: -f1)
ent=$(head -n "$first" "$LOG" | grep -c '^\[ *[0-9]*\.[0-9]*\] ')
ent=$((ent - 1))
is "$(grep 'ffffb7d2c0d3bd70 ' out.txt | head -1)" \
    "hand.export:entry$ent:MESSAGE:1:11: vmalloc medium 0xffffb7d2c0d3bd70  RSP: 0018:ffffb7d2c0d3bd70 EFLAGS: 00010246" \
    "text: path:entryN:FIELD:line:col: region severity value  line"
"$KLEAKSCAN" -b hand.export >out.txt 2>&1
off=$(j leakoff out.json)
like "$(head -1 out.txt)" "^entry$ent:MESSAGE:1:11:$off: " \
    "-b: the stream offset after the column"
nleaks=$(awk '$6 == "None"' want | wc -l | tr -d ' ')
"$KLEAKSCAN" -c hand.export >out.txt 2>&1
is "$(cat out.txt)" "$nleaks" "-c counts the journal's leaks"

# A second _BOOT_ID starts a new boot segment.
j export "$LOG" two.export $BOOT1 $BOOT2
j want "$LOG" text.json 2 >want2
scan out.json two.export
is "$(j got out.json)" "$(cat want2)" \
    "a second _BOOT_ID: the same findings again, boot 0 then boot 1"
is "$(j key out.json end stats | sed 's/.*"boots":\([0-9]*\).*/\1/')" 2 \
    "a second _BOOT_ID: two boots in the end event"

# --format forces: export as text sees MESSAGE= lines.
scan out.json --format=export hand.export
is "$(j got out.json)" "$(cat want)" "--format=export on an export: the same"
scan out.json --format=text hand.export
is "$(j got out.json | awk '{print $1}' | sort -u)" "None" \
    "--format=text on an export: text findings, no journal fields"
is "$(j got out.json | awk '$6 == "None"' | wc -l | tr -d ' ')" "$nleaks" \
    "--format=text on an export: the same number of leaks"

# Damage: a binary field whose length runs past the end.
j badexport bad.export
for how in auto export; do
	scan out.json --format=$how bad.export
	is "$STATUS" 2 "binary length past the end (--format=$how): exit 2"
	like "$ERR" '^kleakscan: bad\.export:[0-9]+: .*MESSAGE.*' \
	    "binary length past the end (--format=$how): the error names the field"
	is "$(j key out.json finding entry value | head -1)" \
	    '0 "0xffffa667c016fe48"' \
	    "binary length past the end (--format=$how): the entry before is scanned"
	like "$(j key out.json error message)" 'MESSAGE' \
	    "binary length past the end (--format=$how): an error event"
done

# JSON: invalid UTF-8 in a string, a byte-array MESSAGE, RS separators.
j badjson bad.json
scan out.json bad.json
is "$STATUS" 1 "JSON with invalid UTF-8 and a byte array: exit status 1"
is "$(j got out.json)" "0 1 17 0xffffa667c016fe48 vmalloc None 0 MESSAGE None
1 1 9 0xffff993fa4e1c848 direct-map None 0 MESSAGE None" \
    "JSON: a string with invalid UTF-8 and a byte array are both scanned"
b1=$(printf 'bad \377 RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246' | base64 | tr -d '\n')
b2=$(printf 'x\376 R10: ffff993fa4e1c848' | base64 | tr -d '\n')
is "$(j key out.json finding line_bytes line_text cursor)" \
    "\"$b1\" \"<absent>\" \"s=1;i=1\"
\"$b2\" \"<absent>\" \"s=1;i=2\"" \
    "JSON: lines that are not UTF-8 go out as line_bytes; cursors kept"
is "$(j nulloff out.json)" "2 1" \
    "JSON: an exact offset for the raw string, null for the byte array"
"$KLEAKSCAN" bad.json >out.txt 2>&1
is "$(cat out.txt)" 's=1;i=1:MESSAGE:1:17: vmalloc medium 0xffffa667c016fe48  bad \xff RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246
s=1;i=2:MESSAGE:1:9: direct-map medium 0xffff993fa4e1c848  x\xfe R10: ffff993fa4e1c848' \
    "JSON, text output: CURSOR:FIELD:line:col:, bytes escaped"
"$KLEAKSCAN" -b bad.json >out.txt 2>&1
like "$(sed -n 2p out.txt)" '^s=1;i=2:MESSAGE:1:9:-: ' \
    "-b: - for an offset that is not exact"
printf '{"__CURSOR":"a:b{c}","MESSAGE":"R10: ffff993fa4e1c848"}\n' >odd.json
"$KLEAKSCAN" odd.json >out.txt 2>&1
like "$(cat out.txt)" '^a\\:b\\\{c\\\}:MESSAGE:1:6: ' \
    "a cursor with : { } is escaped in text"

# --- Real tools: systemd-journal-remote and journalctl. ------------------
if [ -z "$JREMOTE" ] || ! command -v journalctl >/dev/null 2>&1; then
	skip "native journal from systemd-journal-remote" \
	    "systemd-journal-remote or journalctl not installed"
	done_testing
fi
if ! "$JREMOTE" -o "$TMP/x.journal" hand.export >jr.out 2>&1 ||
    ! journalctl --file "$TMP/x.journal" -o export >x.export 2>jr.err; then
	diag "$(cat jr.out jr.err 2>/dev/null)"
	skip "native journal from systemd-journal-remote" "it failed here"
	done_testing
fi
journalctl --file x.journal -o json >x.json
journalctl --file x.journal -o json-seq >x.jseq
is "$(grep -c '^MESSAGE=' x.export)" "$(grep -c '^MESSAGE=' hand.export)" \
    "journalctl gives back every entry"

for f in x.export x.json x.jseq; do
	scan out.json "$f"
	is "$STATUS" 1 "journalctl $f: exit status 1"
	is "$(j got out.json)" "$(cat want)" \
	    "journalctl $f: the text log's findings, per-field line and column"
	is "$(j cursors out.json)" "$n 0" "journalctl $f: every finding has the cursor"
	scan out.json - <"$f"
	is "$(j got out.json)" "$(cat want)" "journalctl $f on stdin: the same"
	cat "$f" | "$KLEAKSCAN" --json --show-suppressed >out.json 2>/dev/null
	is "$(j got out.json)" "$(cat want)" "journalctl $f from a pipe: the same"
done
scan out.json x.export
is "$(j offsets out.json x.export)" "$n 0" \
    "journalctl -o export: every offset points at the token"

# The native file.
if [ "$NATIVE" = yes ]; then
	scan out.json x.journal
	is "$STATUS" 1 "native journal: exit status 1"
	is "$(j got out.json)" "$(cat want)" \
	    "native journal: the text log's findings, per-field line and column"
	is "$(j cursors out.json)" "$n 0" "native journal: cursors"
	is "$(j nulloff out.json)" "$n $n" "native journal: offsets are null"
	# Every field's offsets start at 0 in a native journal: a finding
	# takes the leak source of its own line, not of an earlier entry's
	# line at the same offsets (x86-rsp on RAX lines, before).
	j rules out.json >rules.native
	scan out.json x.export
	j rules out.json >rules.export
	ok "native journal: the export's findings have leak-source rules" \
	    test "$(grep -c ' x86-gprs$' rules.export)" -ge 10
	is "$(diff rules.export rules.native)" "" \
	    "native journal: each finding's rule as in the export stream"
	scan out.json x.journal
	scan out.json - <x.journal
	is "$(j got out.json)" "$(cat want)" \
	    "native journal on stdin (a redirected file): the same"
	cat x.journal | "$KLEAKSCAN" >out.txt 2>err.txt
	is "$?:$(cat err.txt)" \
	    "2:kleakscan: (standard input): a native journal can only be read from a file: give its name" \
	    "native journal from a pipe: a clear error"
	# The first finding in text: the cursor journalctl prints.
	cur=$(journalctl --file x.journal -o export | grep '^__CURSOR=' |
	    sed -n "$((ent + 1))p" | sed 's/^__CURSOR=//')
	"$KLEAKSCAN" -H x.journal >out.txt 2>&1
	is "$(grep 'ffffb7d2c0d3bd70 ' out.txt | head -1)" \
	    "x.journal:$cur:MESSAGE:1:11: vmalloc medium 0xffffb7d2c0d3bd70  RSP: 0018:ffffb7d2c0d3bd70 EFLAGS: 00010246" \
	    "native journal, text: path:CURSOR:FIELD:line:col:"
	# A directory of journals is walked, like /var/log/journal/.
	mkdir -p var/log/journal/m
	cp x.journal var/log/journal/m/system.journal
	"$KLEAKSCAN" -c var/log/journal/ >out.txt 2>&1
	is "$(cat out.txt)" "var/log/journal/m/system.journal:$nleaks" \
	    "a walk of a journal directory reads the journal files"
	# A native journal inside an archive cannot be read.
	tar -cf jr.tar x.journal
	run jr.tar
	is "$STATUS:$ERR" \
	    "2:kleakscan: jr.tar{x.journal}: native journal inside an archive is not supported" \
	    "a native journal inside an archive: a clear error"
	# Two boots through journal-remote.
	"$JREMOTE" -o "$TMP/two.journal" two.export >/dev/null 2>&1
	scan out.json two.journal
	is "$(j got out.json)" "$(cat want2)" \
	    "native journal with two _BOOT_IDs: boot 0 then boot 1"
else
	run x.journal
	is_status 2 "native journal without libsystemd"
	like "$ERR" '^kleakscan: x\.journal: .*--with-systemd' \
	    "native journal without libsystemd: the message names --with-systemd"
fi

# A MESSAGE that is not UTF-8: journalctl -o json writes a byte array.
j binexport bin.export
if "$JREMOTE" -o "$TMP/bin.journal" bin.export >/dev/null 2>&1; then
	journalctl --file bin.journal -o json >bin.json
	is "$(j msgtype bin.json)" list "journalctl -o json: the MESSAGE is a byte array"
	scan out.json bin.json
	is "$(j got out.json | cut -d' ' -f1-6)" \
	    "0 1 18 0xffffa667c016fe48 vmalloc None" \
	    "a byte-array MESSAGE from journalctl is scanned"
	if [ "$NATIVE" = yes ]; then
		scan out.json bin.journal
		is "$(j got out.json | cut -d' ' -f1-6)" \
		    "0 1 18 0xffffa667c016fe48 vmalloc None" \
		    "a binary MESSAGE in a native journal is scanned"
	fi
else
	skip "a byte-array MESSAGE from journalctl" "journal-remote refused it"
fi

done_testing
