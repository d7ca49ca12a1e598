#!/bin/sh
# mail.sh - mail containers on mails: the mails written for the tests
# (tests/data/written) and, when ../shared/corpus is there, real mails of
# its four lists (tap.sh fixtures) one by one, as one mbox
# (mboxrd), as an mbox.gz, on standard input and as a maildir give the
# same messages and the same findings; --redact of the mbox keeps its
# size and its messages and rescans clean; a real report sent as a base64
# or quoted-printable part gives the findings of the plain one, placed in
# the stored lines, and is redacted in its encoding; damage is a one-line
# error naming the message.

. "$(dirname "$0")/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "mail containers" "python3 not installed"
	done_testing
fi

# The mails: every .eml of the fixtures.
fixtures "$TMP/fx"
ls "$TMP/fx"/*.eml >"$TMP/mails"
nm=$(wc -l <"$TMP/mails" | tr -d ' ')

# The containers, built here: an mboxrd (">From" escaped, a blank line
# after each message), its gzip, a maildir.  box.tsv: per message, its
# Message-ID and the line of the mbox its first line is on.
cat >"$TMP/build.py" <<'EOF'
import email, os, re, sys
mails, out = sys.argv[1], sys.argv[2]
box = open(out + "/all.mbox", "wb")
tsv = open(out + "/box.tsv", "w")
line = 1
for i, p in enumerate(open(mails).read().split()):
    b = open(p, "rb").read()
    mid = email.message_from_bytes(b)["Message-ID"].strip().strip("<>")
    if not b.endswith(b"\n"):
        b += b"\n"
    b = re.sub(rb"(?m)^(>*From )", rb">\1", b)
    box.write(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + b + b"\n")
    tsv.write("%s\t%s\t%d\n" % (os.path.basename(p), mid, line + 1))
    line += 1 + b.count(b"\n") + 1
    for d in ("cur", "new"):
        os.makedirs(out + "/md/" + d, exist_ok=True)
    d = "cur" if i % 2 else "new"
    open("%s/md/%s/%d.host:2,S" % (out, d, i), "wb").write(b)
os.makedirs(out + "/md/tmp", exist_ok=True)
EOF
python3 "$TMP/build.py" "$TMP/mails" "$TMP"
gzip -c "$TMP/all.mbox" >"$TMP/all.mbox.gz"

# facts JSON SHIFT: "Message-ID line column value region suppressed" per
# finding, lines moved back by where the message starts in an mbox
# (SHIFT: box.tsv, or - for none); "U Message-ID" per unit.
cat >"$TMP/facts.py" <<'EOF'
import json, sys
shift = {}
if sys.argv[2] != "-":
    for l in open(sys.argv[2]):
        f, mid, ln = l.rstrip("\n").split("\t")
        shift[mid] = int(ln) - 1
out = []
for l in open(sys.argv[1], "rb"):
    e = json.loads(l)
    if e["type"] == "begin":
        out.append("U " + e["members"][-1])
    elif e["type"] == "finding":
        m = e["members"][-1]
        out.append("%s %d %d %s %s %s" % (m, e["line"] - shift.get(m, 0),
                   e["column"], e["value"], e["region"], e["suppressed"]))
for o in sorted(out):
    print(o)
EOF
facts() {
	python3 "$TMP/facts.py" "$@"
}

# One by one: each mail is one unit named by its Message-ID.
: >"$TMP/one.json"
while read -r f; do
	"$KLEAKSCAN" --json --show-suppressed "$f" >>"$TMP/one.json"
done <"$TMP/mails"
facts "$TMP/one.json" - >"$TMP/one.facts"
is "$(grep -c '^U ' "$TMP/one.facts")" "$nm" \
    "$nm mails one by one: one unit each"
is "$(grep '^U ' "$TMP/one.facts" | sed 's/^U //')" \
    "$(cut -f2 "$TMP/box.tsv" | sort)" \
    "each unit is named by the mail's Message-ID"
nf=$(grep -vc '^U ' "$TMP/one.facts")
ok "the mails give findings ($nf)" test "$nf" -gt 50

# The same mails as one mbox, as an mbox.gz, on stdin, as a maildir.
run --json --show-suppressed "$TMP/all.mbox"
is "$STATUS $ERR" "1 " "mbox: exit status 1, nothing on stderr"
printf '%s\n' "$OUT" >"$TMP/box.json"
is "$(facts "$TMP/box.json" "$TMP/box.tsv")" "$(cat "$TMP/one.facts")" \
    "mbox: the same messages and findings, at the lines of the mbox"
grep '"type":"begin"' "$TMP/box.json" | head -1 >"$TMP/b1"
like "$(cat "$TMP/b1")" '"members":\["[^"]+"\]' \
    "mbox: a message is named box{Message-ID}"
run --json --show-suppressed "$TMP/all.mbox.gz"
printf '%s\n' "$OUT" >"$TMP/gz.json"
is "$(facts "$TMP/gz.json" "$TMP/box.tsv")" "$(cat "$TMP/one.facts")" \
    "mbox.gz: the same messages and findings"
like "$(grep -m1 '"type":"begin"' "$TMP/gz.json")" \
    '"members":\["all.mbox","[^"]+"\]' "mbox.gz: named box.gz{box}{Message-ID}"
"$KLEAKSCAN" --json --show-suppressed - <"$TMP/all.mbox" >"$TMP/in.json"
is "$(facts "$TMP/in.json" "$TMP/box.tsv")" "$(cat "$TMP/one.facts")" \
    "mbox on standard input: the same"
"$KLEAKSCAN" --json --show-suppressed --read-size=1 - <"$TMP/all.mbox" \
    >"$TMP/in1.json"
cmp -s "$TMP/in.json" "$TMP/in1.json"
is "$?" 0 "mbox read one byte at a time: the same output"
run --json --show-suppressed "$TMP/md"
printf '%s\n' "$OUT" >"$TMP/md.json"
is "$(facts "$TMP/md.json" -)" "$(cat "$TMP/one.facts")" \
    "maildir (cur/, new/): the same messages and findings"

# Text output: NAME{Message-ID}:LINE:COLUMN: of the mbox as stored.
first=$(head -1 "$TMP/mails")
id1=$(head -1 "$TMP/box.tsv" | cut -f2)
"$KLEAKSCAN" "$first" | head -1 >"$TMP/t1"
like "$(cat "$TMP/t1")" "^$first\\{$id1\\}:[0-9]+:[0-9]+: " \
    "text: file{Message-ID}:line:column:"

# --redact of the mbox: same size, the same messages, a clean rescan.
"$KLEAKSCAN" --redact "$TMP/all.mbox" >"$TMP/red.mbox"
is "$?" 1 "--redact of the mbox: exit status 1 (leaks rewritten)"
is "$(wc -c <"$TMP/red.mbox" | tr -d ' ')" \
    "$(wc -c <"$TMP/all.mbox" | tr -d ' ')" "--redact: the mbox keeps its size"
cat >"$TMP/msgs.py" <<'EOF'
import mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    print(m["Message-ID"].strip(), len(m.as_bytes()))
EOF
is "$(python3 "$TMP/msgs.py" "$TMP/red.mbox")" \
    "$(python3 "$TMP/msgs.py" "$TMP/all.mbox")" \
    "--redact: the same messages, Message-IDs and sizes (python mailbox)"
cat >"$TMP/virt.py" <<'EOF'
import json, sys
n = 0
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] not in ("layout", "physical"):
        n += 1
print(n)
EOF
is "$("$KLEAKSCAN" --json "$TMP/red.mbox" | python3 "$TMP/virt.py")" 0 \
    "--redact: a rescan of the mbox finds no virtual address"
is "$(grep -c '"type":"begin"' "$TMP/box.json")" \
    "$("$KLEAKSCAN" --json "$TMP/red.mbox" | grep -c '"type":"begin"')" \
    "--redact: the rescan reads as many messages"
"$KLEAKSCAN" --redact "$TMP/all.mbox.gz" | gzip -dc >"$TMP/red2.mbox"
ok "--redact of the mbox.gz: the same mbox, compressed" \
    cmp "$TMP/red.mbox" "$TMP/red2.mbox"
"$KLEAKSCAN" --redact --read-size=7 "$TMP/all.mbox" >"$TMP/red7.mbox"
ok "--redact, 7-byte reads: the same output" \
    cmp "$TMP/red.mbox" "$TMP/red7.mbox"

# A real report sent in a transfer encoding: base64 (76-column lines) and
# quoted-printable (soft breaks at 76 columns, inside tokens).
cat >"$TMP/wrap.py" <<'EOF'
import base64, email, quopri, sys
src, enc, out = sys.argv[1], sys.argv[2], sys.argv[3]
m = email.message_from_bytes(open(src, "rb").read())
body = m.get_payload(decode=True)
if enc == "base64":
    e = base64.encodebytes(body)
else:
    e = quopri.encodestring(body)
head = (b"Subject: wrapped\nMessage-ID: <wrapped@test>\nMIME-Version: 1.0\n"
        b"Content-Type: multipart/mixed; boundary=\"XX\"\n\n"
        b"--XX\nContent-Type: text/plain\n\nsee the attachment\n"
        b"--XX\nContent-Type: text/plain; charset=utf-8; name=dmesg.txt\n"
        b"Content-Transfer-Encoding: " + enc.encode() + b"\n\n")
open(out, "wb").write(head + e + b"--XX--\n")
open(out + ".body", "wb").write(body)
open(out + ".first", "w").write(str(head.count(b"\n") + 1))
EOF
# The plain report: mips32, a body without transfer encoding.
plain="$WRITTEN/mips32-oops.eml"
cat >"$TMP/vals.py" <<'EOF'
import json, sys
lo = int(sys.argv[1]) if len(sys.argv) > 1 else 0
out = []
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "finding":
        if e["line"] < lo:
            out.append("BADLINE")
        out.append("%s %s %s" % (e["value"], e["region"], e["suppressed"]))
for o in sorted(out):
    print(o)
EOF
"$KLEAKSCAN" --json --show-suppressed "$plain" | python3 "$TMP/vals.py" \
    >"$TMP/plain.vals"
for enc in base64 quoted-printable; do
	python3 "$TMP/wrap.py" "$plain" "$enc" "$TMP/w.eml"
	first=$(cat "$TMP/w.eml.first")
	"$KLEAKSCAN" --json --show-suppressed "$TMP/w.eml" |
	    python3 "$TMP/vals.py" "$first" >"$TMP/w.vals"
	ok "$enc: the report's findings, placed in the encoded part" \
	    cmp "$TMP/plain.vals" "$TMP/w.vals"
	"$KLEAKSCAN" --redact "$TMP/w.eml" >"$TMP/w.red"
	is "$(wc -c <"$TMP/w.red" | tr -d ' ')" \
	    "$(wc -c <"$TMP/w.eml" | tr -d ' ')" "$enc: --redact keeps the size"
	is "$(awk '{ print length($0) }' "$TMP/w.red" | md5sum)" \
	    "$(awk '{ print length($0) }' "$TMP/w.eml" | md5sum)" \
	    "$enc: --redact keeps every line's length"
	is "$("$KLEAKSCAN" --json "$TMP/w.red" | python3 "$TMP/virt.py")" 0 \
	    "$enc: a rescan finds no virtual address"
	# The decoded part is the plain report redacted.
	python3 -c '
import email, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read())
sys.stdout.buffer.write(m.get_payload()[1].get_payload(decode=True))
' "$TMP/w.red" >"$TMP/w.dec"
	"$KLEAKSCAN" --redact "$TMP/w.eml.body" >"$TMP/w.body.red"
	# (The line end before a boundary is the boundary's: not compared.)
	is "$(cat "$TMP/w.dec")" "$(cat "$TMP/w.body.red")" \
	    "$enc: the decoded part is the plain report redacted"
done

# Damage: one line naming the message, the rest still read.
{
	printf 'From a Thu Jan  1 00:00:00 1970\nSubject: cut\n'
	printf 'Message-ID: <cut@test>\n'
	printf 'Content-Type: multipart/mixed; boundary=ZZ\n\n--ZZ\n\n'
	printf 'RIP: 0010:[<ffffffff81234567>] oops+0x1/0x2\n\n'
	printf 'From b Thu Jan  1 00:00:00 1970\nSubject: b64\n'
	printf 'Message-ID: <bad@test>\nContent-Transfer-Encoding: base64\n\n'
	printf 'UklQOiAwMDEwOls8ZmZmZmZmZmY4MTIzNDU2Nz5dCg*=\n\n'
	printf 'From c Thu Jan  1 00:00:00 1970\nSubject: fine\n\n'
	printf 'RIP: 0010:[<ffffffff81234567>] oops+0x1/0x2\n'
} >"$TMP/bad.mbox"
run "$TMP/bad.mbox"
is "$STATUS" 2 "damage: exit status 2"
is "$ERR" "kleakscan: $TMP/bad.mbox{cut@test}:10: missing closing MIME boundary
kleakscan: $TMP/bad.mbox{bad@test}:15: invalid base64" \
    "damage: one line each, naming the message and the line"
is "$(printf '%s\n' "$OUT" | cut -d: -f1-2 | sed "s|^$TMP/||")" \
    "bad.mbox{cut@test}:8
bad.mbox{bad@test}:15
bad.mbox{#3}:20" \
    "damage: every message is read as far as it goes (#3: no Message-ID)"

# Charsets: an unknown label is a note, its text read whole as UTF-8 (the
# exit status comes from the findings); one that is not ASCII bytes is
# damage read as UTF-8; an ASCII-compatible one is read quietly; a name
# that is not a word is left out of the message.
cs_mail() {
	printf 'From a Thu Jan  1 00:00:00 1970\nMessage-ID: <cs@test>\n'
	printf 'Content-Type: text/plain; charset=%s\n\n' "$1"
	printf 'RIP: 0010:[<ffffffff81234567>] oops+0x1/0x2\n'
}
cs_mail x-bogus >"$TMP/cs1.mbox"
run "$TMP/cs1.mbox"
is "$STATUS" 1 "charset: unknown: a note, exit status 1 (a leak)"
is "$ERR" "kleakscan: $TMP/cs1.mbox{cs@test}:4: unknown charset \"x-bogus\": read as UTF-8" \
    "charset: unknown: one line naming the message and its header's end"
is "$(printf '%s\n' "$OUT" | cut -d: -f2-3)" "5:13" \
    "charset: unknown: the text is still scanned"
# A 500-message mbox with one "charset=yes" post (as a real linux-s390
# post labels its text): every message scanned, exit status 1, and
# --redact writes the whole mbox.
i=0
while [ $i -lt 500 ]; do
	cs=us-ascii
	[ $i -eq 250 ] && cs=yes
	printf 'From a Thu Jan  1 00:00:00 1970\nMessage-ID: <m%d@test>\n' $i
	printf 'Content-Type: text/plain; charset=%s\n\n' $cs
	printf 'Krnl PSW : 0704c00180000000 000003ff800d8f7a (foo+0x1a/0x30)\n\n'
	i=$((i + 1))
done >"$TMP/big.mbox"
run -c "$TMP/big.mbox"
is "$STATUS" 1 "500 messages, one charset=yes: exit status 1"
is "$(printf '%s\n' "$OUT" | grep -c ':1$')" 500 \
    "500 messages, one charset=yes: every message has its finding"
is "$ERR" "kleakscan: $TMP/big.mbox{m250@test}:1504: unknown charset \"yes\": read as UTF-8" \
    "500 messages, one charset=yes: one note naming the message"
"$KLEAKSCAN" --redact -o "$TMP/big.red" "$TMP/big.mbox" 2>/dev/null
is "$?" 1 "500 messages, one charset=yes: --redact exits 1"
is "$(grep -c 000003ff800d8f7a "$TMP/big.red") $(wc -c <"$TMP/big.red")" \
    "0 $(wc -c <"$TMP/big.mbox")" \
    "500 messages, one charset=yes: --redact writes every message, zeroed"
# A finding on a quoted-printable continuation line carries the decoded
# line's text from where that stored line starts (cut at the head).
printf 'From a Thu Jan  1 00:00:00 1970\nMessage-ID: <qp@test>\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n[  12.345678] RIP: 0010:[<ffffffff81234567>] foo+0x1/0x2 some long text that=\n continues RSP: 0018:ffffc90000c67e38 EFLAGS: 00010246\n' >"$TMP/qp.mbox"
run --json "$TMP/qp.mbox"
is "$(printf '%s\n' "$OUT" | python3 -c '
import json, sys
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "finding":
        print(e["line"], e["column"], e["line_column"], e["line_cut"],
              e["line_text"][e["column"] - e["line_column"]:][:16])')" \
    "6 27 1 False ffffffff81234567
7 22 1 True ffffc90000c67e38" \
    "quoted-printable continuation: the decoded text, the token in it"
cs_mail UTF-16LE >"$TMP/cs2.mbox"
run "$TMP/cs2.mbox"
is "$ERR" "kleakscan: $TMP/cs2.mbox{cs@test}:4: charset \"UTF-16LE\" is not ASCII: its text is read as UTF-8, addresses may be missed" \
    "charset: UTF-16 is named as not ASCII"
for cs in koi8-r '"gb2312"' big5 shift_jis us-ascii windows-1251; do
	cs_mail "$cs" >"$TMP/cs3.mbox"
	run "$TMP/cs3.mbox"
	is "$STATUS/$ERR" "1/" "charset: $cs is read quietly"
done
cs_mail 'x\033[31m' >"$TMP/cs4.mbox"
run "$TMP/cs4.mbox"
is "$ERR" "kleakscan: $TMP/cs4.mbox{cs@test}:4: unknown charset: read as UTF-8" \
    "charset: a name with control bytes is left out of the message"

done_testing
