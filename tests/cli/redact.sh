#!/bin/sh
# redact.sh - --redact on real logs: the properties the rewriter promises
# (same length, bytes changed only inside reported spans, a clean rescan,
# idempotence, the same output from every read path), the styles and
# levels, the receipt, and the safety of -o and --in-place.

. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
# The logs of the corpus (its captured/ sysroots are systems, read with
# --live-root by live.sh: device-tree and notes files are binary).
LOGS="$CORPUS/syzkaller $CORPUS/boot $CORPUS/loghub $CORPUS/mail $CORPUS/qemu"
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
        # In a quoted-printable mail a token's digits may be stored on
        # both sides of a soft line break ("=" at the end of a line).
        at, i = [], off
        while len(at) < k and i < len(orig):
            if orig[i:i + 2] == b'=\n' or orig[i:i + 3] == b'=\r\n':
                i += 2 if orig[i + 1:i + 2] == b'\n' else 3
                continue
            at.append(i)
            i += 1
        if bytes(out[j] for j in at) != b'0' * k:
            print("%s: span at %d not zeroed" % (name, off)); sys.exit()
        for j in at:
            allowed[j] = 1
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

# --- Every fixture and the corpus, every property. ----------------------
fixtures "$TMP/fx"
ls "$TMP/fx"/* >"$TMP/list"
ls "$TOPSRC"/data/*.log >>"$TMP/list"
[ -d "$CORPUS" ] && find $LOGS -type f ! -name '*.md' ! -name '*.tsv' \
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
for f in "$TMP/fx"/*; do
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
    "[  118.402546] RSP: 0018:0000000000000000 EFLAGS: 00010286" \
    "sample: the vmalloc'd stack pointer is zeroed, the rest kept"
is "$(printf '%s\n' "$OUT" | grep -c 'ffffb0a1c1d37d98')" 0 \
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
    '"line":11,"column":26,"offset":[0-9]+,"original":"ffffb0a1c1d37d98","region":"vmalloc"' \
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

# A compressed file is rewritten in place, in the same compression.
if command -v gzip >/dev/null 2>&1; then
	gzip -c "$X86" >"$TMP/ip/c.log.gz"
	run --redact --in-place "$TMP/ip/c.log.gz"
	is_status 1 "--in-place on a .gz: exit status 1"
	is "$(od -An -tx1 -N3 "$TMP/ip/c.log.gz" | tr -d ' ')" 1f8b08 \
	    "--in-place on a .gz: still gzip"
	ok "--in-place on a .gz: the rewritten log inside" \
	    cmp "$TMP/sample.red" "$(gzip -dc "$TMP/ip/c.log.gz" >"$TMP/c.out";
	    echo "$TMP/c.out")"
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
is "$(grep -c ffffb0a1c1d37d98 "$TMP/big.log")" 0 \
    "--in-place run again: the copy replaced the file"

# --- Archives and compressed files, repacked. ----------------------------
# Real logs and a binary file, with a directory, a symlink, odd modes and
# fixed mtimes, packed with the real tools: each output is the same
# format and compression (magic bytes), lists the same members with the
# same metadata, holds each log as --redact writes it alone and the
# binary file as it was, and scans clean.
need=
for t in tar gzip xz zstd bzip2 lz4 zip unzip cpio; do
	command -v $t >/dev/null 2>&1 || need="$need $t"
done
if [ -n "$need" ]; then
	skip "archives repacked" "not installed:$need"
	done_testing
fi
A=$TMP/arc
mkdir -p "$A/in/logs" "$A/in/empty"
L1=ppc64-oops.log
L2=x86_64-frames.report
cp "$WRITTEN/$L1" "$WRITTEN/$L2" "$A/in/logs/"
# A log of 4000 direct-map pointers that xz packs poorly: a cut of the
# tar.xz at 30000 bytes (below) falls inside it.
awk 'BEGIN { x = 7; for (i = 0; i < 4000; i++) {
	x = (x * 1103515245 + 12345) % 2147483648
	printf "[%5d.%06d] kworker: object at ffff9b8e%08x freed\n",
	    i / 100, x % 1000000, x }
}' >"$A/in/logs/many.log"
cp "$X86" "$A/in/sample.log"
python3 -c 'import sys
x, out = 7, bytearray()
while len(out) < 65536:
    x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    out += (x >> 33).to_bytes(4, "little")
out[0:4] = b"\x00\x01\x02\x03"
open(sys.argv[1], "wb").write(bytes(out))' "$A/in/blob.bin"
chmod 600 "$A/in/logs/$L2"
chmod 751 "$A/in/empty"
ln -s sample.log "$A/in/link"
find "$A/in" -exec touch -h -d '2021-03-04 05:06:07' {} +
for f in logs/$L1 logs/$L2 sample.log; do
	"$KLEAKSCAN" --redact "$A/in/$f" >"$A/want.$(basename "$f")"
done

# magic FILE: the bytes that tell its compression or format, as hex:
# the first four; of a tar, the ustar magic and version too.
magic() {
	case $1 in
	*.gz) mg_cat="gzip -dc" ;;
	*.xz) mg_cat="xz -dc" ;;
	*.zst) mg_cat="zstd -dcq" ;;
	*.bz2) mg_cat="bzip2 -dc" ;;
	*) mg_cat=cat ;;
	esac
	od -An -tx1 -N4 "$1" | tr -d ' \n'
	case $1 in
	*.tar*) echo; $mg_cat "$1" | od -An -tx1 -j257 -N8 | tr -d ' \n' ;;
	esac
}

# unpack FILE DIR: extract an archive of any kind here.
unpack() {
	mkdir -p "$2"
	case $1 in
	*.zip) (cd "$2" && unzip -q "$1") ;;
	*.cpio) (cd "$2" && cpio -idm --quiet <"$1") ;;
	*) tar -C "$2" -xf "$1" ;;
	esac
}

# listing FILE: names, sizes, modes, owners and mtimes of the members.
listing() {
	case $1 in
	*.zip) unzip -Z "$1" | awk '$1 ~ /^[-dl][-r]/ {
	    print $1, $4, $7, $8, $9}' | sort ;;
	*.cpio) cpio -itv --quiet <"$1" | sort -k9 ;;
	*) tar -tvf "$1" | sort -k6 ;;
	esac
}

# check_archive NAME FILE MAGIC: --redact FILE -o and every property.
check_archive() {
	ca_name=$1
	ca_in=$2
	ca_out=$A/out.${ca_in##*/}
	run --redact "$ca_in" -o "$ca_out"
	is "$STATUS:$ERR" "1:" "$ca_name: exit status 1, nothing on stderr"
	is "$(magic "$ca_out")" "$(magic "$ca_in")" \
	    "$ca_name: the same format and compression (magic bytes)"
	listing "$ca_in" >"$A/l.in"
	listing "$ca_out" >"$A/l.out"
	ok "$ca_name: the same members, sizes, modes, owners and mtimes" \
	    cmp "$A/l.in" "$A/l.out"
	rm -rf "$A/x"
	unpack "$ca_out" "$A/x"
	ca_bad=
	for f in logs/$L1 logs/$L2 sample.log; do
		cmp -s "$A/x/$f" "$A/want.$(basename "$f")" || ca_bad="$ca_bad $f"
	done
	is "$ca_bad" "" "$ca_name: each log as --redact writes it alone"
	ok "$ca_name: the binary member byte for byte" \
	    cmp "$A/x/blob.bin" "$A/in/blob.bin"
	"$KLEAKSCAN" -q "$ca_out" 2>/dev/null
	is "$?" 0 "$ca_name: a rescan of the output finds nothing"
}

(cd "$A/in" && tar -czf "$A/b.tar.gz" .)
check_archive "tar.gz (GNU)" "$A/b.tar.gz"
(cd "$A/in" && tar --format=pax -cJf "$A/b.tar.xz" .)
check_archive "tar.xz (pax)" "$A/b.tar.xz"
(cd "$A/in" && tar --format=ustar --zstd -cf "$A/b.tar.zst" .)
check_archive "tar.zst (ustar)" "$A/b.tar.zst"
(cd "$A/in" && tar -cf - . | bzip2 >"$A/b.tar.bz2")
check_archive "tar.bz2" "$A/b.tar.bz2"
(cd "$A/in" && tar -cf "$A/b.tar" .)
check_archive "tar" "$A/b.tar"
(cd "$A/in" && zip -qry "$A/b.zip" .)
check_archive "zip" "$A/b.zip"
(cd "$A/in" && find . | sort | cpio -o -H newc --quiet >"$A/b.cpio")
check_archive "cpio (newc)" "$A/b.cpio"
(cd "$A/in" && find . | sort | cpio -o -H odc --quiet >"$A/o.cpio")
check_archive "cpio (odc)" "$A/o.cpio"

# The same output on standard output and from a pipe.
"$KLEAKSCAN" --redact "$A/b.tar.xz" >"$A/stdout.tar.xz"
ok "tar.xz: standard output gets the bytes -o writes" \
    cmp "$A/stdout.tar.xz" "$A/out.b.tar.xz"
"$KLEAKSCAN" --redact - <"$A/b.zip" | cat >"$A/pipe.zip"
ok "zip from a pipe: the bytes -o writes from the file" \
    cmp "$A/pipe.zip" "$A/out.b.zip"

# A .gz inside a .tar.xz: recompressed with its gzip header (name, mtime)
# kept; one with nothing to rewrite is copied byte for byte.
mkdir "$A/nest"
gzip -c "$WRITTEN/$L1" >"$A/nest/kern.log.2.gz"
printf 'no pointers here\n' | gzip -c >"$A/nest/clean.gz"
cp "$A/in/blob.bin" "$A/nest/"
(cd "$A/nest" && tar -cJf "$A/n.tar.xz" .)
run --redact --receipt="$A/receipt" "$A/n.tar.xz" -o "$A/out.n.tar.xz"
is "$STATUS:$ERR" "1:" "a .gz in a .tar.xz: exit status 1, nothing on stderr"
rm -rf "$A/x" && unpack "$A/out.n.tar.xz" "$A/x"
ok "a .gz in a .tar.xz: the log inside as --redact writes it alone" \
    cmp "$A/want.$L1" "$(gzip -dc "$A/x/kern.log.2.gz" >"$A/x/k";
    echo "$A/x/k")"
is "$(gzip -lN "$A/x/kern.log.2.gz" | awk 'NR == 2 {print $NF}' |
    sed 's,.*/,,')" "$L1" \
    "a .gz in a .tar.xz: the name in its gzip header is kept"
ok "a .gz in a .tar.xz: a .gz with nothing to rewrite is copied as it was" \
    cmp "$A/x/clean.gz" "$A/nest/clean.gz"
"$KLEAKSCAN" -q "$A/out.n.tar.xz" 2>/dev/null
is "$?" 0 "a .gz in a .tar.xz: a rescan finds nothing"
like "$(head -n 1 "$A/receipt")" \
    '"members":\["\./kern\.log\.2\.gz","ppc64-oops\.log"\],"line":' \
    "a .gz in a .tar.xz: the receipt names the member chain"
run --redact --max-depth=1 "$A/n.tar.xz" -o "$A/depth.tar.xz"
is_status 2 "--max-depth=1 on a .gz in a .tar.xz: exit status 2"
like "$ERR" 'n\.tar\.xz\{\./kern\.log\.2\.gz\}: nesting limit reached' \
    "--max-depth=1: one error naming the input and member"
ok "--max-depth=1: nothing written" test ! -e "$A/depth.tar.xz"

# Single compressed files, each into its own compression.
for c in gzip xz zstd bzip2 lz4; do
	$c -c "$WRITTEN/$L1" >"$A/one.$c"
	run --redact "$A/one.$c" -o "$A/out.one.$c"
	is "$STATUS:$(magic "$A/out.one.$c")" "1:$(magic "$A/one.$c")" \
	    "a single $c file: exit status 1, still $c"
	$c -dc "$A/out.one.$c" >"$A/one.out"
	ok "a single $c file: the log inside as --redact writes it alone" \
	    cmp "$A/one.out" "$A/want.$L1"
done

# --in-place on an archive: rewritten, mode kept; nothing to rewrite:
# not touched.
cp "$A/b.tar.gz" "$A/ip.tar.gz"
chmod 640 "$A/ip.tar.gz"
run --redact --in-place "$A/ip.tar.gz"
is_status 1 "--in-place on a .tar.gz: exit status 1"
listing "$A/ip.tar.gz" >"$A/l.ip"
listing "$A/b.tar.gz" >"$A/l.in"
ok "--in-place on a .tar.gz: the same members" cmp "$A/l.ip" "$A/l.in"
"$KLEAKSCAN" -q "$A/ip.tar.gz" 2>/dev/null
is "$?" 0 "--in-place on a .tar.gz: a rescan finds nothing"
is "$(stat -c %a "$A/ip.tar.gz")" 640 "--in-place on a .tar.gz: the mode is kept"

# Damage: exit 2, one line naming the input and member, -o and
# --in-place leave their files as they were.
head -c 30000 "$A/b.tar.xz" >"$A/cut.tar.xz"
echo previous >"$A/keep.tar.xz"
run --redact "$A/cut.tar.xz" -o "$A/keep.tar.xz"
is_status 2 "a truncated tar.xz: exit status 2"
like "$ERR" '^kleakscan: [^ ]*cut\.tar\.xz\{[^}]*\}: ' \
    "a truncated tar.xz: the error names the input and member"
is "$(cat "$A/keep.tar.xz")" previous \
    "a truncated tar.xz: the -o file is left as it was"
cp "$A/cut.tar.xz" "$A/cut2.tar.xz"
run --redact --in-place "$A/cut2.tar.xz"
is_status 2 "a truncated tar.xz --in-place: exit status 2"
ok "a truncated tar.xz --in-place: the file is left as it was" \
    cmp "$A/cut2.tar.xz" "$A/cut.tar.xz"
is "$(ls -a "$A" | grep -c kleakscan-)" 0 \
    "damage: no temporary file left"

# Formats libarchive cannot write back: refused, nothing written.
(cd "$A/in" && find . | cpio -o --quiet >"$A/bin.cpio")
run --redact "$A/bin.cpio"
is "$STATUS:$OUT" "2:" "binary cpio: exit status 2, nothing written"
like "$ERR" '^kleakscan: [^ ]*bin\.cpio: cannot rewrite cpio' \
    "binary cpio: one line naming the input and the format"
printf '!<arch>\nkern.log/       0           0     0     644     4         `\nabc\n' \
    >"$A/x.a"
run --redact "$A/x.a" -o "$A/x.out"
is "$STATUS:$(test -e "$A/x.out" && echo written)" "2:" \
    "ar: exit status 2, nothing written"
like "$ERR" '^kleakscan: [^ ]*x\.a: cannot rewrite ar archives' \
    "ar: one line naming the input and the format"

# --- Journal export streams: rewritten in place, lengths stay valid. ---
python3 - "$TMP/j.export" <<'EOF'
import struct, sys
def entry(i, fields):
    out = b"__CURSOR=s=1;i=%d\n__REALTIME_TIMESTAMP=%d\n_BOOT_ID=0a1b\n" % (i, 1000 + i)
    for k, v in fields:
        if b"\n" in v:
            out += k + b"\n" + struct.pack("<Q", len(v)) + v + b"\n"
        else:
            out += k + b"=" + v + b"\n"
    return out + b"\n"
data = entry(1, [(b"MESSAGE", b"RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246")])
data += entry(2, [(b"MESSAGE", b"two lines\nR10: ffff888003a1c000 done")])
data += entry(3, [(b"MESSAGE", b"nothing here")])
open(sys.argv[1], "wb").write(data)
EOF
run --redact "$TMP/j.export"
is_status 1 "export: exit status 1"
"$KLEAKSCAN" --redact "$TMP/j.export" >"$TMP/j.red"
is "$(wc -c <"$TMP/j.red" | tr -d ' ')" "$(wc -c <"$TMP/j.export" | tr -d ' ')" \
    "export: the same length"
is "$(cmp -l "$TMP/j.export" "$TMP/j.red" | wc -l | tr -d ' ')" 26 \
    "export: only the digits of the two leaks changed (15 + 11 non-zero digits)"
is "$("$KLEAKSCAN" -c "$TMP/j.red")" 0 "export: a rescan finds nothing"
is "$("$KLEAKSCAN" --json "$TMP/j.red" | grep -c '"type":"error"')" 0 \
    "export: the binary field's length is still right"
cat "$TMP/j.export" | "$KLEAKSCAN" --redact --read-size=5 >"$TMP/j.red2"
ok "export on a pipe in 5-byte reads: the same" cmp "$TMP/j.red" "$TMP/j.red2"
# Tokens that wait for the architecture over several entries stay held
# (they were written out with the entry before: "not held by the rewriter").
python3 - "$TESTDATA/x86_64-debian-6.1.0-57-System.map.slice" "$TMP/map.export" <<'EOF'
import sys
out = b""
for i, l in enumerate(open(sys.argv[1], "rb").read().split(b"\n")):
    if l.strip():
        out += b"__CURSOR=s=1;i=%d\n_BOOT_ID=ab\nMESSAGE=%s\n\n" % (i, l)
open(sys.argv[2], "wb").write(out)
EOF
run --redact "$TMP/map.export"
is "$STATUS:$ERR" "1:" \
    "export, a token waiting for the architecture past its entry: rewritten, no error"
printf '%s\n' "$OUT" >"$TMP/map.red"
is "$("$KLEAKSCAN" -c "$TMP/map.red")" 0 \
    "export, tokens waiting for the architecture: a rescan finds nothing"

# --- --output-dir: a copy of each input under DIR, rewritten or not. ---
mkdir -p "$TMP/od/in/sub"
cp "$X86" "$TMP/od/in/a.log"
printf 'no pointers here\n' >"$TMP/od/in/sub/b.log"
chmod 640 "$TMP/od/in/a.log"
(cd "$TMP/od" && "$KLEAKSCAN" --redact --output-dir out in)
is "$?" 1 "--output-dir: exit status 1"
is "$(cd "$TMP/od/out" && find . -type f | sort | tr '\n' ' ')" \
    "./in/a.log ./in/sub/b.log " "--output-dir: each input under its path"
ok "--output-dir: the rewritten log" cmp "$TMP/od/out/in/a.log" "$TMP/sample.red"
ok "--output-dir: a log without leaks is copied as it is" \
    cmp "$TMP/od/out/in/sub/b.log" "$TMP/od/in/sub/b.log"
is "$(stat -c %a "$TMP/od/out/in/a.log")" 640 "--output-dir: the mode is kept"
ok "--output-dir: the inputs are left as they were" cmp "$TMP/od/in/a.log" "$X86"
"$KLEAKSCAN" --redact --output-dir "$TMP/od/o2" - <"$X86"
ok "--output-dir: standard input as standard-input" \
    cmp "$TMP/od/o2/standard-input" "$TMP/sample.red"
run --redact --output-dir "$TMP/od/o3" "$TMP/od/in/../in/a.log"
is_status 2 "--output-dir: a path with .. is an error"
like "$ERR" 'cannot go under --output-dir' "--output-dir: the error says why"
is "$(ls -A "$TMP/od/o3" 2>/dev/null | wc -l | tr -d ' ')" 0 \
    "--output-dir: nothing written for it"
run --redact --output-dir "$TMP/od/o4" -o "$TMP/x" "$X86"
is_status 2 "--output-dir with -o: a usage error"

# --- Journal JSON: tokens rewritten in the raw JSON, the width kept. ----
# Escapes before the token (\n \" \u00e9, a surrogate pair, a lone one,
# \\), a byte-array MESSAGE, a repeated field holding a string and a byte
# array written with white space.
cat >"$TMP/esc.json" <<'EOF'
{"__CURSOR":"s=1;i=1","_BOOT_ID":"ab","MESSAGE":"caf\u00e9 \"q\"\n\ud83d\ude00\udc00\\ R10: ffff888003a1c000 done"}
{"__CURSOR":"s=1;i=2","_BOOT_ID":"ab","MESSAGE":[120,254,32,102,102,102,102,56,56,56,48,48,51,97,49,99,48,48,48],"X":["RSP ffffa667c016fe48",[32, 102, 102,102,102,57,57,51,102,97,52,101,49,99,56,52,56 ]]}
EOF
cat >"$TMP/esc.want" <<'EOF'
{"__CURSOR":"s=1;i=1","_BOOT_ID":"ab","MESSAGE":"caf\u00e9 \"q\"\n\ud83d\ude00\udc00\\ R10: 0000000000000000 done"}
{"__CURSOR":"s=1;i=2","_BOOT_ID":"ab","MESSAGE":[120,254,32,48,48,48,48,48,48,48,48,48,48,48,48,48,48,48,48    ],"X":["RSP 0000000000000000",[32, 48,48,48,48,48,48,48,48,48,48,48,48,48,48,48,48        ]]}
EOF
run --redact --receipt="$TMP/esc.rc" "$TMP/esc.json"
is_status 1 "JSON with escapes and byte arrays: exit status 1"
is "$OUT" "$(cat "$TMP/esc.want")" \
    "JSON: each token zeroed where it stands, byte-array numbers in their width"
is "$(wc -l <"$TMP/esc.rc" | tr -d ' ')" 4 "JSON: four tokens in the receipt"
is "$(sed -n 1p "$TMP/esc.rc" | sed 's/.*"offset":\([0-9]*\).*/\1/')" \
    "$(grep -b -o 'ffff888003a1c000' "$TMP/esc.json" | head -1 | cut -d: -f1)" \
    "JSON: the receipt gives the raw offset of a token after escapes"
printf '{"MESSAGE":"R10: \\u0066fff888003a1c000"}\n' >"$TMP/u.json"
run --redact -o "$TMP/u.out" "$TMP/u.json"
is "$STATUS:$(test -e "$TMP/u.out" && echo written)" "2:" \
    "JSON: a token made by \\u escapes is refused, nothing written"
like "$ERR" '^kleakscan: [^ ]*u\.json:1: cannot rewrite a value made by JSON escapes' \
    "JSON: the error says why"

JREMOTE=
for p in /lib/systemd/systemd-journal-remote \
    /usr/lib/systemd/systemd-journal-remote; do
	[ -x "$p" ] && JREMOTE=$p && break
done
if [ -z "$JREMOTE" ] || ! command -v journalctl >/dev/null 2>&1; then
	skip "journal JSON and native journals from the real tools" \
	    "systemd-journal-remote or journalctl not installed"
	done_testing
fi
# A journal made from every fixture: one kernel entry per line, a boot per
# file, lines with control bytes as binary fields; journalctl -o json
# writes byte arrays for those that are not printable UTF-8.
cat >"$TMP/mkj.py" <<'EOF'
import hashlib, struct, sys
out = open(sys.argv[1], "wb")
t = 1700000000000000
for path in sys.argv[2:]:
    boot = hashlib.md5(path.encode()).hexdigest().encode()
    for i, line in enumerate(open(path, "rb").read().split(b"\n")):
        if not line.strip():
            continue
        t += 1
        out.write(b"__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n" % (t, i + 1))
        out.write(b"_BOOT_ID=%s\n_TRANSPORT=kernel\nPRIORITY=6\n" % boot)
        if any(c < 0x20 and c != 9 for c in line):
            out.write(b"MESSAGE\n" + struct.pack("<Q", len(line)) + line + b"\n\n")
        else:
            out.write(b"MESSAGE=" + line + b"\n\n")
EOF
# checkj IN OUT SCAN RECEIPT: the properties of a rewritten JSON stream.
# Every output line is JSON of the input line's length; every decoded
# value has its input's length and differs only where a hex digit became
# '0' (with HASH set: another hex digit); raw bytes differ only where
# digits, commas and spaces are; the receipt has one line per token the
# scan reports at level 2.
cat >"$TMP/checkj.py" <<'EOF'
import json, os, sys
def dec(v):
    if isinstance(v, str):
        return [v.encode("utf-8", "surrogatepass")]
    if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
        return [bytes(v)]
    if isinstance(v, list):
        return [b for x in v for b in dec(x)]
    return [json.dumps(v).encode()]
ins = open(sys.argv[1], "rb").read().split(b"\n")
outs = open(sys.argv[2], "rb").read().split(b"\n")
if len(ins) != len(outs):
    print("%d lines, not %d" % (len(outs), len(ins))); sys.exit()
hexd = set(b"0123456789abcdefABCDEF,")
# zeros, or with HASH set any hex digit
ok = hexd - {44} if os.environ.get("HASH") else {48}
rawok = set(b"0123456789, ") | (ok if os.environ.get("HASH") else set())
for n, (a, b) in enumerate(zip(ins, outs)):
    if a == b:
        continue
    if len(a) != len(b):
        print("line %d: length %d, not %d" % (n + 1, len(b), len(a))); sys.exit()
    for x, y in zip(a, b):
        if x != y and (x not in hexd or y not in rawok):
            print("line %d: byte %r became %r" % (n + 1, chr(x), chr(y))); sys.exit()
    ja, jb = json.loads(a), json.loads(b)
    if sorted(ja) != sorted(jb):
        print("line %d: other members" % (n + 1)); sys.exit()
    for k in ja:
        for va, vb in zip(dec(ja[k]), dec(jb[k])):
            if len(va) != len(vb) or any(
                    x != y and (x not in hexd or y not in ok)
                    for x, y in zip(va, vb)):
                print("line %d: %s decodes to other bytes" % (n + 1, k))
                sys.exit()
want = 0
for l in open(sys.argv[3]):
    e = json.loads(l)
    if (e["type"] == "finding" and e["suppressed"] is None and
            e["region"] not in ("layout", "physical")):
        want += 1
got = len(open(sys.argv[4]).read().splitlines())
if got != want:
    print("%d tokens rewritten, the scan reports %d" % (got, want)); sys.exit()
print("ok %d" % got)
EOF
# virt JSON: the findings of a scan at level 2 (virtual addresses).
virt() {
	python3 -c '
import json, sys
print(sum(1 for l in open(sys.argv[1]) for e in [json.loads(l)]
          if e["type"] == "finding" and e["region"] not in ("layout", "physical")))' "$1"
}
J=$TMP/jr
mkdir -p "$J"
python3 "$TMP/mkj.py" "$J/all.export" "$TMP/fx"/*
if ! "$JREMOTE" -o "$J/x.journal" "$J/all.export" >"$J/jr.out" 2>&1 ||
    ! journalctl --file "$J/x.journal" -o json >"$J/x.json" 2>"$J/jr.err"; then
	diag "$(cat "$J/jr.out" "$J/jr.err" 2>/dev/null)"
	skip "journal JSON and native journals" "journal-remote failed here"
	done_testing
fi
journalctl --file "$J/x.journal" -o json-seq >"$J/x.jseq"
journalctl --file "$J/x.journal" -o export >"$J/x.export"
nent=$(wc -l <"$J/x.json" | tr -d ' ')
narr=$(grep -c '"MESSAGE":\[' "$J/x.json")
"$KLEAKSCAN" --json --show-suppressed "$J/x.json" >"$J/x.scan"
run --redact --receipt="$J/x.rc" "$J/x.json"
printf '%s\n' "$OUT" >"$J/x.red"
is_status 1 "journalctl -o json of the fixtures ($nent entries, $narr byte arrays): exit status 1"
like "$(python3 "$TMP/checkj.py" "$J/x.json" "$J/x.red" "$J/x.scan" "$J/x.rc")" \
    '^ok [1-9][0-9]*$' \
    "journal JSON: valid JSON Lines, same lengths, only digits changed, every token"
"$KLEAKSCAN" --json "$J/x.red" >"$J/red.scan"
is "$(virt "$J/red.scan")" 0 "journal JSON: a rescan finds no virtual address"
"$KLEAKSCAN" --redact "$J/x.red" >"$J/x.red2"
ok "journal JSON: rewriting twice is rewriting once" cmp "$J/x.red" "$J/x.red2"
cat "$J/x.json" | "$KLEAKSCAN" --redact --read-size=3 >"$J/x.red3"
ok "journal JSON from a pipe in 3-byte reads: the same" \
    cmp "$J/x.red" "$J/x.red3"
"$KLEAKSCAN" --redact "$J/x.jseq" | tr -d '\036' >"$J/x.seqred"
tr -d '\036' <"$J/x.jseq" | "$KLEAKSCAN" --redact >"$J/x.seqred2"
ok "json-seq: the same rewrite with and without the record separators" \
    cmp "$J/x.seqred" "$J/x.seqred2"
"$KLEAKSCAN" --redact --redact-style=hash --hash-key=$KEY \
    --receipt="$J/h.rc" "$J/x.json" >"$J/x.hash"
like "$(HASH=1 python3 "$TMP/checkj.py" "$J/x.json" "$J/x.hash" "$J/x.scan" \
    "$J/h.rc")" '^ok [1-9][0-9]*$' \
    "journal JSON, hash style: valid JSON Lines, only digits changed, every token"
# (A 32-bit hash may look like a 32-bit pointer, and 00000000 and eight
# digits like s390x kernel text: other 64-bit ones are checked.)
"$KLEAKSCAN" --json "$J/x.hash" >"$J/hash.scan"
is "$(python3 -c '
import json, sys
print(sum(1 for l in open(sys.argv[1]) for e in [json.loads(l)]
          if e["type"] == "finding" and len(e["text"]) == 16 and
          e["arch"] != "s390x" and
          e["region"] not in ("layout", "physical")))' "$J/hash.scan")" 0 \
    "journal JSON, hash style: a rescan finds no 64-bit virtual address"
cp "$J/x.json" "$J/ip.json"
chmod 640 "$J/ip.json"
"$KLEAKSCAN" --redact --in-place "$J/ip.json"
ok "journal JSON --in-place: the rewritten stream" cmp "$J/ip.json" "$J/x.red"
is "$(stat -c %a "$J/ip.json")" 640 "journal JSON --in-place: the mode is kept"
(cd "$J" && "$KLEAKSCAN" --redact --output-dir od x.json)
ok "journal JSON --output-dir: the rewritten stream" cmp "$J/od/x.json" "$J/x.red"
mkdir -p "$J/tar"
cp "$J/x.json" "$J/tar/x.json"
cp "$WRITTEN/x86_64-oops.dmesg" "$J/tar/"
tar -czf "$J/j.tar.gz" -C "$J/tar" .
"$KLEAKSCAN" --redact -o "$J/j2.tar.gz" "$J/j.tar.gz"
is "$?" 1 "journal JSON in a tar.gz: exit status 1"
mkdir -p "$J/untar"
tar -xzf "$J/j2.tar.gz" -C "$J/untar"
ok "journal JSON in a tar.gz: the member as --redact writes it alone" \
    cmp "$J/untar/x.json" "$J/x.red"

# --- Native journals: read as export, written back by journal-remote. ---
if ! "$KLEAKSCAN" --version | grep -q '^native journals: yes'; then
	skip "native journals" "built without libsystemd"
	done_testing
fi
# exportcmp A B: the export streams differ only in __CURSOR and in hex
# digits that became '0' (binary fields included); prints what differs.
cat >"$TMP/expcmp.py" <<'EOF'
import struct, sys
def entries(path):
    d, i, out, cur = open(path, "rb").read(), 0, [], []
    while i < len(d):
        j = d.index(b"\n", i)
        line = d[i:j]
        if line == b"":
            out.append(cur); cur = []; i = j + 1; continue
        if b"=" in line:
            k, v = line.split(b"=", 1); i = j + 1
        else:
            n = struct.unpack("<Q", d[j + 1:j + 9])[0]
            k, v = line, d[j + 9:j + 9 + n]; i = j + 10 + n
        cur.append((k, v))
    return out
a, b = entries(sys.argv[1]), entries(sys.argv[2])
if len(a) != len(b):
    print("%d entries, not %d" % (len(b), len(a))); sys.exit()
hexd = set(b"0123456789abcdefABCDEF")
nz = 0
for ea, eb in zip(a, b):
    if [k for k, v in ea] != [k for k, v in eb]:
        print("other fields: %r" % [k for k, v in eb]); sys.exit()
    for (k, va), (_, vb) in zip(ea, eb):
        if k == b"__CURSOR" or va == vb:
            continue
        if len(va) != len(vb) or any(x != y and (y != 48 or x not in hexd)
                                     for x, y in zip(va, vb)):
            print("%s differs: %r" % (k.decode(), vb[:80])); sys.exit()
        nz += 1
print("ok %d" % len(a))
EOF
"$KLEAKSCAN" --redact "$J/x.journal" >"$J/n.stdout"
is "$?" 1 "native journal to standard output: exit status 1"
"$KLEAKSCAN" --redact "$J/x.export" >"$J/x.expred"
ok "native journal to standard output: the rewritten journalctl -o export stream" \
    cmp "$J/n.stdout" "$J/x.expred"
run --redact -o "$J/clean.journal" "$J/x.journal"
is "$STATUS:$ERR" "1:" "native journal -o: exit status 1, nothing on stderr"
journalctl --file "$J/clean.journal" -o export >"$J/clean.export"
is "$(python3 "$TMP/expcmp.py" "$J/x.export" "$J/clean.export")" "ok $nent" \
    "native journal -o: every entry, field, timestamp and boot id kept; only digits zeroed and cursors new"
cmp -s "$J/x.export" "$J/clean.export"
is "$?" 1 "native journal -o: the journal did change"
journalctl --file "$J/clean.journal" -o export | sed '/^__CURSOR=/d' >"$J/c1"
sed '/^__CURSOR=/d' "$J/x.expred" >"$J/c2"
ok "native journal -o: its export is the rewritten export, cursors aside" \
    cmp "$J/c1" "$J/c2"
"$KLEAKSCAN" --json "$J/clean.journal" >"$J/clean.scan"
is "$(virt "$J/clean.scan")" 0 "native journal -o: a rescan finds no virtual address"
cp "$J/x.journal" "$J/ip.journal"
chmod 604 "$J/ip.journal"
"$KLEAKSCAN" --redact --in-place "$J/ip.journal"
is "$?" 1 "native journal --in-place: exit status 1"
journalctl --file "$J/ip.journal" -o export | sed '/^__CURSOR=/d' >"$J/c3"
ok "native journal --in-place: the rewritten journal" cmp "$J/c3" "$J/c2"
is "$(stat -c %a "$J/ip.journal")" 604 "native journal --in-place: the mode is kept"
"$KLEAKSCAN" --redact - <"$J/x.journal" >"$J/n.stdin"
ok "native journal on standard input (a redirected file): the same export stream" \
    cmp "$J/n.stdin" "$J/x.expred"
cat "$J/x.journal" | "$KLEAKSCAN" --redact >"$J/n.pipe" 2>"$J/n.err"
is "$?:$(cat "$J/n.err"):$(wc -c <"$J/n.pipe" | tr -d ' ')" \
    "2:kleakscan: (standard input): a native journal can only be rewritten from a file: give its name:0" \
    "native journal from a pipe: a clear error, nothing written"
(cd "$J" && "$KLEAKSCAN" --redact --output-dir nd x.journal)
journalctl --file "$J/nd/x.journal" -o export | sed '/^__CURSOR=/d' >"$J/c4"
ok "native journal --output-dir: the rewritten journal" cmp "$J/c4" "$J/c2"
is "$(ls -A "$J" | grep -c kleakscan-)" 0 "native journal: no temporary file left"
# Without systemd-journal-remote, or when it fails: nothing written.
cp "$J/x.journal" "$J/keep.journal"
KLEAKSCAN_JOURNAL_REMOTE=$J/none run --redact -o "$J/no.journal" "$J/x.journal"
is "$STATUS:$(test -e "$J/no.journal" && echo written)" "2:" \
    "no systemd-journal-remote: exit status 2, nothing written"
like "$ERR" '^kleakscan: [^ ]*x\.journal: cannot write a native journal: systemd-journal-remote not found' \
    "no systemd-journal-remote: one clear line"
KLEAKSCAN_JOURNAL_REMOTE=/bin/false run --redact --in-place "$J/keep.journal"
is "$STATUS" 2 "journal-remote fails --in-place: exit status 2"
like "$ERR" 'keep\.journal: systemd-journal-remote failed' \
    "journal-remote fails --in-place: the error says so"
ok "journal-remote fails --in-place: the journal is left as it was" \
    cmp "$J/keep.journal" "$J/x.journal"
is "$(ls -A "$J" | grep -c kleakscan-)" 0 "journal-remote fails: no temporary file left"
run --redact -o "$J/two.out" "$J/x.json" "$J/x.journal"
is "$STATUS:$(test -e "$J/two.out" && echo written)" "2:" \
    "-o with a native journal and another input: exit status 2, nothing written"
like "$ERR" 'a native journal can go to [^ ]*two\.out only as its only input' \
    "-o with a native journal and another input: the error says why"
tar -cf "$J/n.tar" -C "$J" x.journal
run --redact -o "$J/n2.tar" "$J/n.tar"
is "$STATUS:$(test -e "$J/n2.tar" && echo written)" "2:" \
    "a native journal inside an archive: exit status 2, nothing written"
like "$ERR" 'n\.tar\{x\.journal\}: cannot rewrite native journals inside archives' \
    "a native journal inside an archive: a clear error"

# A pair joined by '.', the second half starting with a letter
# (fuzz-redact crash-5cd8057e, crash-8d8b9907): both halves go in one
# pass, and the rewritten lines have nothing left to find.
printf 'Reui.ffff888003a1c000.ffff888003a1c008 d\nb ffff888003a1c000.ffff88802d680214-0\n' >"$TMP/pair.log"
run --redact --arch x86_64 "$TMP/pair.log"
is "$STATUS:$OUT" "1:Reui.0000000000000000.0000000000000000 d
b 0000000000000000.0000000000000000-0" \
    "a '.'-joined pair: both halves zeroed in one pass"
printf '%s\n' "$OUT" >"$TMP/pair2.log"
run --arch x86_64 "$TMP/pair2.log"
is "$STATUS:$OUT" "0:" "a '.'-joined pair: the rewritten line rescans clean"

done_testing
