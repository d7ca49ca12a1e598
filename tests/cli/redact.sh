#!/bin/sh
# redact.sh - --redact on real logs: the properties the rewriter promises
# (same length, bytes changed only inside reported spans, a clean rescan,
# idempotence, the same output from every read path), the styles and
# levels, the receipt, and the safety of -o and --in-place.

. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
KEY=000102030405060708090a0b0c0d0e0f
X86=$TOPSRC/data/sample-x86_64-oops.log

if ! command -v python3 >/dev/null 2>&1; then
	skip "redaction properties" "python3 not installed"
	done_testing
fi

# check LIST JSON REDACTED SPLITDIR: the rewriter's properties over the
# inputs named in LIST, checked against the scan's own findings (JSON
# Lines with the suppressed ones): the rewritten inputs, one after the
# other in REDACTED, have each the length of their input; every changed
# byte is inside the digits of a finding that level 2 redacts; every
# such finding's digits are zeros.  Each rewritten input is written to
# SPLITDIR/N and listed in SPLITDIR.list for the rescans.  Prints "ok" or
# what is wrong.
cat >"$TMP/check.py" <<'EOF'
import json, os, sys
names = open(sys.argv[1], 'rb').read().split(b'\n')[:-1]
spans = {}
for line in open(sys.argv[2], encoding='utf-8'):
    e = json.loads(line)
    if e.get('type') != 'finding':
        continue
    if e['suppressed'] is None and e['region'] not in ('layout', 'physical'):
        spans.setdefault(e['path'].encode(), []).append(
            (e['offset'], len(e['text'])))
red = open(sys.argv[3], 'rb').read()
split = sys.argv[4]
os.mkdir(split)
lst = open(split + '.list', 'w')
pos = 0
for n, name in enumerate(names):
    orig = open(name, 'rb').read()
    out = red[pos:pos + len(orig)]
    pos += len(orig)
    if len(out) != len(orig):
        print("%s: output too short" % name); sys.exit()
    allowed = bytearray(len(orig))
    for off, k in spans.get(name, []):
        if out[off:off + k] != b'0' * k:
            print("%s: span at %d not zeroed" % (name, off)); sys.exit()
        allowed[off:off + k] = b'\1' * k
    if out != orig:
        diff = [i for i in range(len(orig))
                if orig[i] != out[i] and not allowed[i]]
        if diff:
            print("%s: bytes changed outside the spans at %s" %
                  (name, diff[:5]))
            sys.exit()
    open('%s/%d' % (split, n), 'wb').write(out)
    lst.write('%s/%d\n' % (split, n))
if pos != len(red):
    print("output longer than the inputs"); sys.exit()
print("ok")
EOF

# --- Every real fixture and the corpus, every property. -----------------
ls "$TESTDATA"/*.* | grep -v ATTRIBUTION >"$TMP/list"
ls "$TOPSRC"/data/*.log >>"$TMP/list"
[ -d "$CORPUS" ] && find "$CORPUS" -type f ! -name '*.md' ! -name '*.tsv' \
    ! -name '*.xz' | sort >>"$TMP/list"
nfiles=$(wc -l <"$TMP/list" | tr -d ' ')
"$KLEAKSCAN" --json --show-suppressed --files-from "$TMP/list" >"$TMP/all.json"
"$KLEAKSCAN" --redact --files-from "$TMP/list" >"$TMP/all.red"
is "$?" 1 "$nfiles logs: --redact exits 1 (leaks rewritten)"
is "$(python3 "$TMP/check.py" "$TMP/list" "$TMP/all.json" "$TMP/all.red" \
    "$TMP/split")" ok \
    "$nfiles logs: same lengths, only the digits of leaks changed, all zeroed"
# Level 2 rewrites kernel virtual addresses: a rescan finds none (layout
# lines such as Kernel Offset are level 4).
is "$("$KLEAKSCAN" --json --files-from "$TMP/split.list" | python3 -c '
import json, sys
n = 0
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] not in ("layout", "physical"):
        n += 1
print(n)')" 0 "$nfiles logs: a rescan of each output finds no virtual address"
"$KLEAKSCAN" --redact --files-from "$TMP/split.list" >"$TMP/all.red2"
ok "$nfiles logs: rewriting twice is rewriting once" \
    cmp "$TMP/all.red" "$TMP/all.red2"
"$KLEAKSCAN" --redact --read-size=7 --files-from "$TMP/list" >"$TMP/all.red7"
ok "$nfiles logs: 7-byte reads give the same output" \
    cmp "$TMP/all.red" "$TMP/all.red7"
bad=
for f in $(ls "$TESTDATA"/*.* | grep -v ATTRIBUTION); do
	"$KLEAKSCAN" --redact "$f" >"$TMP/r1" 2>/dev/null
	"$KLEAKSCAN" --redact - <"$f" >"$TMP/r2" 2>/dev/null
	cmp -s "$TMP/r1" "$TMP/r2" || bad="$bad $f"
	cat "$f" | "$KLEAKSCAN" --redact --read-size=1 >"$TMP/r3" 2>/dev/null
	cmp -s "$TMP/r1" "$TMP/r3" || bad="$bad $f(1-byte pipe)"
done
is "$bad" "" \
    "every fixture: a file, standard input and a 1-byte pipe give the same output"

# --- Exact bytes on the quick-start sample. ------------------------------
run --redact "$X86"
is_status 1 "sample: exit status 1 (leaks rewritten)"
is "$(printf '%s\n' "$OUT" | sed -n 11p | cut -c1-60)" \
    "[   29.368305] RSP: 0018:0000000000000000 EFLAGS: 00010246" \
    "sample: the vmalloc'd stack pointer is zeroed, the rest kept"
is "$(printf '%s\n' "$OUT" | grep -c 'ffffa667c016fe48')" 0 \
    "sample: no copy of the stack pointer is left"
printf '%s\n' "$OUT" >"$TMP/sample.red"
"$KLEAKSCAN" --redact "$TMP/nonexistent" "$X86" >"$TMP/o" 2>"$TMP/e"
is "$?" 2 "a missing input among others: exit status 2"
ok "a missing input among others: the others are still written" \
    cmp "$TMP/o" "$TMP/sample.red"
like "$(cat "$TMP/e")" '^kleakscan: .*nonexistent: ' \
    "a missing input among others: one error line naming it"

# --- Levels and styles. --------------------------------------------------
printf '[    1.000000] a %s b %s c 0x%s d %s\n' ffff888003a1c000 \
    00000000deadbeef ffffffffa0012345 fffffffffffffff2 >"$TMP/lv"
is "$("$KLEAKSCAN" --redact "$TMP/lv")" \
    "[    1.000000] a 0000000000000000 b 00000000deadbeef c 0x0000000000000000 d fffffffffffffff2" \
    "--restrict=2: kernel addresses zeroed, hashed and ERR_PTR kept"
is "$("$KLEAKSCAN" --redact --restrict=3 "$TMP/lv")" \
    "[    1.000000] a 0000000000000000 b 0000000000000000 c 0x0000000000000000 d fffffffffffffff2" \
    "--restrict=3: hashed %p zeroed too, ERR_PTR kept"
h1=$("$KLEAKSCAN" --redact --redact-style=hash --hash-key=$KEY "$TMP/lv")
h2=$("$KLEAKSCAN" --redact --redact-style=hash --hash-key=$KEY "$TMP/lv")
is "$h1" "$h2" "--redact-style=hash with a key: the same output twice"
like "$h1" '^\[    1\.000000\] a 00000000[0-9a-f]{8} b 00000000deadbeef c 0x00000000[0-9a-f]{8} d fffffffffffffff2$' \
    "--redact-style=hash: %p shape (eight zeros, eight hash digits)"
printf '[    2.000000] x %s y %s z %s\n' ffff888003a1c000 ffff888003a1c000 \
    ffff888003a1c008 >"$TMP/eq"
is "$("$KLEAKSCAN" --redact --redact-style=hash --hash-key=$KEY "$TMP/eq" |
    awk '{print ($4 == $6) ? "equal" : "differ", ($4 == $8) ? "equal" : "differ"}')" \
    "equal differ" "--redact-style=hash: equal pointers stay equal, others differ"
h3=$("$KLEAKSCAN" --redact --redact-style=hash \
    --hash-key=f0e0d0c0b0a090807060504030201000 "$TMP/lv")
ok "--redact-style=hash: another key, other digits" test "$h1" != "$h3"
run --redact --hash-key=xyz "$TMP/lv"
is_status 2 "--hash-key of the wrong shape: exit status 2"
run --redact --restrict=5 "$TMP/lv"
is_status 2 "--restrict=5: exit status 2"
run -o "$TMP/x" "$TMP/lv"
is_status 2 "-o without --redact: exit status 2"
run --redact --json "$TMP/lv"
is_status 2 "--redact --json: exit status 2"

# --- The receipt. --------------------------------------------------------
"$KLEAKSCAN" --redact --receipt="$TMP/receipt" "$X86" >/dev/null
is "$(stat -c %a "$TMP/receipt")" 600 "--receipt: mode 0600"
is "$(wc -l <"$TMP/receipt" | tr -d ' ')" 5 \
    "--receipt: one line per rewritten token"
ok "--receipt: JSON Lines" json_checker "$TMP/receipt"
like "$(head -n 1 "$TMP/receipt")" \
    '"line":11,"column":26,"offset":[0-9]+,"original":"ffffa667c016fe48","region":"vmalloc"' \
    "--receipt: line, column and the original digits"

# --- -o: written whole, or not at all. -----------------------------------
"$KLEAKSCAN" --redact -o "$TMP/out.log" "$X86"
is "$?" 1 "-o: exit status 1"
ok "-o: the same bytes as standard output" cmp "$TMP/out.log" "$TMP/sample.red"
echo previous >"$TMP/keep.log"
"$KLEAKSCAN" --redact -o "$TMP/keep.log" "$X86" "$TMP/nonexistent" 2>/dev/null
is "$?" 2 "-o with a bad input: exit status 2"
is "$(cat "$TMP/keep.log")" previous \
    "-o with a bad input: the file is left as it was"
is "$(ls -a "$TMP" | grep -c kleakscan-)" 0 \
    "-o with a bad input: no temporary file left"
cp "$X86" "$TMP/self.log"
"$KLEAKSCAN" --redact -o "$TMP/self.log" "$TMP/self.log"
ok "-o onto its own input: the rewritten log" \
    cmp "$TMP/self.log" "$TMP/sample.red"

# --- --in-place. ---------------------------------------------------------
mkdir "$TMP/ip"
cp "$X86" "$TMP/ip/a.log"
printf 'no pointers here\n' >"$TMP/ip/b.log"
chmod 640 "$TMP/ip/a.log"
touch -d '2020-01-01 00:00:00' "$TMP/ip/b.log"
ln -s a.log "$TMP/ip/link.log"
"$KLEAKSCAN" --redact --in-place "$TMP/ip/link.log" "$TMP/ip/b.log"
is "$?" 1 "--in-place: exit status 1"
ok "--in-place: the file behind the link is rewritten" \
    cmp "$TMP/ip/a.log" "$TMP/sample.red"
ok "--in-place: the link is still a link" test -L "$TMP/ip/link.log"
is "$(stat -c %a "$TMP/ip/a.log")" 640 "--in-place: the mode is kept"
is "$(stat -c %Y "$TMP/ip/b.log")" "$(date -d '2020-01-01 00:00:00' +%s)" \
    "--in-place: a file with nothing to rewrite is not touched"
is "$(ls -a "$TMP/ip" | grep -c kleakscan-)" 0 \
    "--in-place: no temporary file left"
run --redact --in-place - <"$X86"
is_status 2 "--in-place on standard input: exit status 2"

# An archive cannot be rewritten yet: an error, nothing written.
if command -v gzip >/dev/null 2>&1; then
	gzip -c "$X86" >"$TMP/ip/c.log.gz"
	cp "$TMP/ip/c.log.gz" "$TMP/c.orig"
	run --redact --in-place "$TMP/ip/c.log.gz"
	is_status 2 "--in-place on a .gz: exit status 2"
	like "$ERR" 'c\.log\.gz.*cannot rewrite archives or compressed files yet' \
	    "--in-place on a .gz: the error names the input"
	ok "--in-place on a .gz: the file is left as it was" \
	    cmp "$TMP/ip/c.log.gz" "$TMP/c.orig"
else
	skip "--in-place on a .gz" "gzip not installed"
fi

# Killed in the middle (a test hook sends SIGKILL to the program once it
# has written 1 MiB of the copy): the original is intact.
i=0
: >"$TMP/big.log"
while [ $i -lt 64 ]; do
	cat "$X86" "$X86" "$X86" "$X86" >>"$TMP/big.log"
	i=$((i + 1))
done
while [ "$(wc -c <"$TMP/big.log")" -lt 4000000 ]; do
	cat "$TMP/big.log" "$TMP/big.log" >"$TMP/big2.log"
	mv "$TMP/big2.log" "$TMP/big.log"
done
sum=$(cksum <"$TMP/big.log")
KLEAKSCAN_TEST_KILL_AFTER=1048576 "$KLEAKSCAN" --redact --in-place \
    "$TMP/big.log" 2>/dev/null
is "$?" 137 "--in-place: the test hook killed the program (status 137)"
is "$(cksum <"$TMP/big.log")" "$sum" \
    "--in-place killed with SIGKILL: the original is intact"
ok "--in-place killed: its partial copy is a separate file" \
    test -n "$(ls -a "$TMP" | grep '^\.big\.log\.kleakscan-')"
rm -f "$TMP"/.big.log.kleakscan-*
"$KLEAKSCAN" --redact --in-place "$TMP/big.log"
is "$?" 1 "--in-place run again: it completes"
is "$(grep -c ffffa667c016fe48 "$TMP/big.log")" 0 \
    "--in-place run again: the copy replaced the file"

done_testing
