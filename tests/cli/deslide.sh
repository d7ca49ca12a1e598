#!/bin/sh
# deslide.sh - --redact-style=deslide and deslide,hash: kernel image
# addresses written at their System.map values (the value less the
# boot's slide), the rest zeroed or hashed, the slide a log states
# written as 0; the slide known from the log's own evidence, a map, or a
# captured system's kallsyms; the hold that lets a Kernel Offset line at
# the end of a panic de-slide the frames above it; the receipt, the
# notes and the rescan of the output.  Hand-written lines first (an
# x86_64 panic and a 20-line slice of Debian's System.map of
# 6.1.0-57-amd64, whose real runtime addresses were those plus the slide
# 0x4200000), then every QEMU truth boot with KASLR on: the project's
# own (tests/qemu/boots) and those of ../shared/corpus/qemu when it is
# there.

. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
KEY=000102030405060708090a0b0c0d0e0f

if ! command -v python3 >/dev/null 2>&1; then
	skip "deslide properties" "python3 not installed"
	done_testing
fi

# The 20 lines of System.map-6.1.0-57-amd64 the panic below needs.
cat >"$TMP/System.map-6.1.0-57-amd64" <<'EOF'
ffffffff81000000 T _stext
ffffffff81000000 T _text
ffffffff81000000 T startup_64
ffffffff81363fa0 t do_sys_openat2
ffffffff81367160 T vfs_write
ffffffff81367680 T ksys_write
ffffffff81405880 t proc_reg_write
ffffffff81690910 t sysrq_handle_crash
ffffffff81690d00 T __handle_sysrq
ffffffff81691250 t write_sysrq_trigger
ffffffff81a01cb0 T panic
ffffffff81a07e3d T _printk
ffffffff81a301a4 t __handle_sysrq.cold
ffffffff81a43dc0 T do_syscall_64
ffffffff81c000b8 T entry_SYSCALL_64_after_hwframe
ffffffff81e01d32 T _etext
ffffffff82a00000 D _sdata
ffffffff82a1aa40 D init_task
ffffffff83310000 B __bss_start
ffffffff84430000 B _end
EOF
MAP=$TMP/System.map-6.1.0-57-amd64

# A panic at slide 0x4200000: old-style frames, registers holding text,
# data (upper case), a vmalloc'd stack, heap, a module and _end itself,
# and the Kernel Offset line last, as the panic notifier prints it.
cat >"$TMP/panic.log" <<'EOF'
[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3
[    5.220983] sysrq: Trigger a crash
[    5.221011] Kernel panic - not syncing: sysrq triggered crash
[    5.221033] CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-57-amd64 #1  Debian 6.1.192-3
[    5.221050] Call Trace:
[    5.221061]  [<ffffffff85c01db8>] panic+0x108/0x2f4
[    5.221077]  [<ffffffff85890926>] sysrq_handle_crash+0x16/0x20
[    5.221090]  [<ffffffff85c30298>] __handle_sysrq.cold+0xf4/0x11c
[    5.221102]  [<ffffffff85891274>] write_sysrq_trigger+0x24/0x40
[    5.221119] RIP: 0010:ffffffff85890926 RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246
[    5.221130] RAX: ffff888003a1c000 RBX: ffff888003a1c000 RCX: ffff888003a1c008
[    5.221142] R13: FFFFFFFF86C1AA40 R14: ffffffffc0a3e000 R15: ffffffff88630000
[    5.222317] Kernel Offset: 0x4200000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)
EOF
cat >"$TMP/panic.want" <<'EOF'
[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3
[    5.220983] sysrq: Trigger a crash
[    5.221011] Kernel panic - not syncing: sysrq triggered crash
[    5.221033] CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-57-amd64 #1  Debian 6.1.192-3
[    5.221050] Call Trace:
[    5.221061]  [<ffffffff81a01db8>] panic+0x108/0x2f4
[    5.221077]  [<ffffffff81690926>] sysrq_handle_crash+0x16/0x20
[    5.221090]  [<ffffffff81a30298>] __handle_sysrq.cold+0xf4/0x11c
[    5.221102]  [<ffffffff81691274>] write_sysrq_trigger+0x24/0x40
[    5.221119] RIP: 0010:ffffffff81690926 RSP: 0018:0000000000000000 EFLAGS: 00010246
[    5.221130] RAX: 0000000000000000 RBX: 0000000000000000 RCX: 0000000000000000
[    5.221142] R13: FFFFFFFF82A1AA40 R14: 0000000000000000 R15: 0000000000000000
[    5.222317] Kernel Offset: 0x0000000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)
EOF

# check ORIG OUT MAP ORIGSCAN OUTSCAN SLIDE: the properties of a de-slid
# log, from scans of both with the map (JSON Lines): the same length and
# the same bytes but for hex digits; each image address of a boot with
# a slide (the map's [_text, _end) moved by it) now its value less the
# slide, at the map address of the symbol the original scan gave it, and
# the rescan giving it the same symbol; an address of region text
# outside the image zeros; each boot of the rescan at slide 0 or none.
# Prints the counts, or what is wrong.
cat >"$TMP/check.py" <<'EOF'
import json, lzma, sys
orig = open(sys.argv[1], 'rb').read()
out = open(sys.argv[2], 'rb').read()
mp = sys.argv[3]
raw = (lzma.open(mp) if mp.endswith('.xz') else open(mp, 'rb')).read()
addrs = {}
for l in raw.split(b'\n'):
    f = l.split()
    if len(f) >= 3:
        addrs.setdefault(f[2].decode(), set()).add(int(f[0], 16))
slide = int(sys.argv[6], 16)
lo = min(addrs.get('_text', addrs.get('_stext', {0})))
hi = min(addrs['_end'])
def events(path):
    fs, bs = {}, []
    for l in open(path):
        e = json.loads(l)
        if e['type'] == 'finding':
            fs[e['offset']] = e
        elif e['type'] == 'boot':
            bs.append(e)
    return fs, bs
of, ob = events(sys.argv[4])
nf, nb = events(sys.argv[5])
bad = []
if len(orig) != len(out):
    bad.append('length %d, not %d' % (len(out), len(orig)))
hexd = set(b'0123456789abcdefABCDEF')
changed = [i for i in range(min(len(orig), len(out))) if orig[i] != out[i]]
other = [i for i in changed if orig[i] not in hexd or out[i] not in hexd]
if other:
    bad.append('other bytes changed at %s' % other[:5])
deslid = set()
for b in ob:
    if b['slide'] is not None:
        deslid.add(b['boot'])
        if int(b['slide'], 16) != slide:
            bad.append('boot %d: slide %s' % (b['boot'], b['slide']))
nimg = nsym = nrest = 0
for off, e in sorted(of.items()):
    if (e['suppressed'] is not None or e['region'] != 'text' or
            e['boot'] not in deslid):
        continue
    n = len(e['text'])
    v = int(e['value'], 16)
    w = int(out[off:off + n], 16)
    if not lo <= v - slide < hi:
        if w != 0:
            bad.append('line %d: %x outside the image kept' % (e['line'], w))
        nrest += 1
        continue
    if w != v - slide:
        bad.append('line %d: %x, not %x' % (e['line'], w, v - slide))
        continue
    nimg += 1
    if e['symbol'] is None:
        continue
    name, rest = e['symbol'].split('+', 1)
    if w - int(rest.split('/')[0], 16) not in addrs.get(name, ()):
        bad.append('line %d: %x is not %s' % (e['line'], w, e['symbol']))
        continue
    g = nf.get(off)
    if g is None or g['symbol'] != e['symbol']:
        bad.append('line %d: the rescan says %s, not %s' %
                   (e['line'], g and g['symbol'], e['symbol']))
        continue
    nsym += 1
zero = 0
for b in nb:
    if b['boot'] in deslid:
        if b['slide'] not in (None, '0x0'):
            bad.append('rescan of boot %d: slide %s' % (b['boot'], b['slide']))
        zero += b['slide'] == '0x0'
if bad:
    print('; '.join(bad[:5]))
else:
    print('ok: %d boots, %d de-slid, %d at slide 0 in the rescan; %d image '
          'addresses at the map, %d symbolised alike, %d outside zeroed' %
          (len(ob), len(deslid), zero, nimg, nsym, nrest))
EOF

# deslide LOG MAP SLIDE: rewrite LOG with the map, scan both, check.
deslide() {
	"$KLEAKSCAN" --redact --redact-style=deslide --system-map "$2" "$1" \
	    >"$TMP/d.out" 2>"$TMP/d.err"
	"$KLEAKSCAN" --json --system-map "$2" "$1" >"$TMP/d.orig.json"
	"$KLEAKSCAN" --json --system-map "$2" "$TMP/d.out" >"$TMP/d.out.json"
	python3 "$TMP/check.py" "$1" "$TMP/d.out" "$2" "$TMP/d.orig.json" \
	    "$TMP/d.out.json" "$3"
}

# --- The hand-written panic. ---------------------------------------------
run --redact --redact-style=deslide --system-map "$MAP" \
    --receipt="$TMP/rc" "$TMP/panic.log"
is "$STATUS" 1 "panic: exit status 1 (addresses rewritten)"
is "$OUT" "$(cat "$TMP/panic.want")" \
    "panic: frames, RIP and data at their System.map values, upper case kept; stack, heap, module and _end zeroed; the slide written as 0"
like "$ERR" 'panic\.log: boot 0 \(lines 1-13\): de-slid \(slide from kernel-offset line 13, frame line 6 and 3 more; map [^)]*\): 6 image addresses at their System\.map values, 6 others zeroed, the slide it states written as 0; a rescan finds slide 0 \(5 pieces of evidence\)' \
    "panic: the note says how the boot was de-slid and what the rescan found"
like "$ERR" 'deslide verdict: the output discloses no KASLR slide' \
    "panic: the deslide verdict"
like "$(deslide "$TMP/panic.log" "$MAP" 0x4200000)" \
    '^ok: 1 boots, 1 de-slid, 1 at slide 0 in the rescan; 6 image addresses at the map, 6 symbolised alike, 1 outside zeroed$' \
    "panic: only digits changed; each image address the map's for its symbol; the same symbols on a rescan; slide 0"
"$KLEAKSCAN" --verdict --system-map "$MAP" "$TMP/d.out" >"$TMP/v.out"
like "$(cat "$TMP/v.out")" 'slide: Kernel Offset: 0x0 from 0xffffffff81000000' \
    "panic: --verdict of the output says slide 0"
is "$(grep -c '"rewritten":"deslide"' "$TMP/rc")" 7 \
    "receipt: 6 addresses and the slide de-slid"
is "$(grep -c '"rewritten":"zero"' "$TMP/rc")" 6 "receipt: 6 zeroed"
like "$(grep '"type":"boot"' "$TMP/rc")" \
    '^\{"type":"boot","path":"[^"]*panic\.log","members":\[\],"boot":0,"first_line":1,"last_line":13,"slide":"0x4200000","map":"[^"]*","evidence":\[.*\{"kind":"kernel-offset","line":13,"region":"text"\}\],"deslid":6,"rest":6,"slide_tokens":1,"early":0,"rescan_slide":"0x0"\}$' \
    "receipt: the boot line: slide, evidence, counts, the rescan's slide"
ok "receipt: JSON Lines" python3 -c '
import json, sys
[json.loads(l) for l in open(sys.argv[1])]' "$TMP/rc"

printf '%s\n' "$OUT" >"$TMP/once"
"$KLEAKSCAN" --redact --redact-style=deslide --system-map "$MAP" "$TMP/once" \
    >"$TMP/twice" 2>/dev/null
ok "panic: de-sliding the output again changes nothing" \
    cmp "$TMP/once" "$TMP/twice"

# The Kernel Offset line comes last: the frames above wait for it, from a
# file, a pipe, in 1-byte reads.
cat "$TMP/panic.log" | "$KLEAKSCAN" --redact --redact-style=deslide \
    --system-map "$MAP" --read-size=1 - >"$TMP/p1" 2>/dev/null
ok "panic from a pipe in 1-byte reads: the same output" \
    cmp "$TMP/p1" "$TMP/panic.want"
# Without a map the Kernel Offset line alone gives the slide: region text
# from the default _text on is the image, its end not known.
run --redact --redact-style=deslide "$TMP/panic.log"
is "$(printf '%s\n' "$OUT" | sed -n 6p)" \
    "[    5.221061]  [<ffffffff81a01db8>] panic+0x108/0x2f4" \
    "no map: the Kernel Offset line de-slides the frames above it"
is "$(printf '%s\n' "$OUT" | sed -n 12p)" \
    "[    5.221142] R13: FFFFFFFF82A1AA40 R14: 0000000000000000 R15: ffffffff84430000" \
    "no map: a text value past _end is taken for the image (its end is not known)"
like "$ERR" 'de-slid \(slide from kernel-offset line 13\)' \
    "no map: the note names the Kernel Offset line"
# No slide at all: the image addresses go in the style of the rest.
grep -v 'Kernel Offset' "$TMP/panic.log" >"$TMP/noslide.log"
run --redact --redact-style=deslide "$TMP/noslide.log"
is "$(printf '%s\n' "$OUT" | grep -c 'ffffffff')" 0 \
    "no slide known: every address zeroed"
like "$ERR" 'boot 0 \(lines 1-12\): no slide known \(no map, and no Kernel Offset line\): its 12 addresses zeroed; a rescan finds no slide evidence left' \
    "no slide known: the note says so"
is "$(printf '%s\n' "$OUT")" \
    "$("$KLEAKSCAN" --redact "$TMP/noslide.log")" \
    "no slide known: the same output as --redact-style=zero"

# More than the hold waits (a test hook makes it 1000 bytes): the
# addresses are decided with what the boot has told so far.  The frames
# and the map give the slide early; without the map nothing has, and they
# are zeroed, though the Kernel Offset line comes later.
{
	sed -n 1,12p "$TMP/panic.log"
	i=0
	while [ $i -lt 3000 ]; do
		echo "[    5.222000] filler line $i"
		i=$((i + 1))
	done
	sed -n 13p "$TMP/panic.log"
} >"$TMP/long.log"
KLEAKSCAN_TEST_DESLIDE_HOLD=1000 run --redact --redact-style=deslide \
    --read-size=4096 --system-map "$MAP" "$TMP/long.log"
is "$(printf '%s\n' "$OUT" | sed -n 6,12p)" "$(sed -n 6,12p "$TMP/panic.want")" \
    "past the hold, with the map: the frames give the slide early, de-slid"
like "$ERR" 'long\.log: boot 0: 12 addresses were decided before the boot ended \(more than 1000 bytes held\)' \
    "past the hold: a note says so"
KLEAKSCAN_TEST_DESLIDE_HOLD=1000 run --redact --redact-style=deslide \
    --read-size=4096 "$TMP/long.log"
is "$(printf '%s\n' "$OUT" | sed -n 6,12p | grep -c 'ffffffff')" 0 \
    "past the hold, no map: no slide known yet, every address zeroed"
is "$(printf '%s\n' "$OUT" | tail -n 1)" "$(tail -n 1 "$TMP/panic.want")" \
    "past the hold, no map: the later Kernel Offset still written as 0"

# deslide,hash: the image de-slid all the same; equal pointers equal,
# different ones different.
run --redact --redact-style=deslide,hash --hash-key=$KEY --system-map "$MAP" \
    "$TMP/panic.log"
is "$(printf '%s\n' "$OUT" | sed -n 6,9p)" \
    "$(sed -n 6,9p "$TMP/panic.want")" "deslide,hash: the frames de-slid"
is "$(printf '%s\n' "$OUT" | sed -n 11p | awk '{print ($4 == $6) ? "equal" : "differ", ($4 == $8) ? "equal" : "differ"}')" \
    "equal differ" "deslide,hash: equal heap pointers stay equal, others differ"
like "$(printf '%s\n' "$OUT" | sed -n 11p)" \
    'RAX: 00000000[0-9a-f]{8} RBX: 00000000[0-9a-f]{8} RCX: 00000000[0-9a-f]{8}$' \
    "deslide,hash: the rest in the %p shape"
is "$(printf '%s\n' "$OUT" | sed -n 13p)" "$(sed -n 13p "$TMP/panic.want")" \
    "deslide,hash: the slide written as 0, not hashed"

# Two boots, each at its own slide; the rescan of the output says 0 for
# both.
sed 's/ffffffff85c01db8/ffffffff9fc01db8/; s/0x4200000 from/0x1e200000 from/' \
    "$TMP/panic.log" | grep -v -e RIP -e RAX -e R13 -e 'ffffffff858' \
    -e 'ffffffff85c3' >"$TMP/b2"
cat "$TMP/panic.log" "$TMP/b2" >"$TMP/two.log"
run --redact --redact-style=deslide --system-map "$MAP" "$TMP/two.log"
is "$(printf '%s\n' "$OUT" | grep -c 'ffffffff81a01db8')" 2 \
    "two boots: each frame de-slid by its own boot's slide"
like "$ERR" 'boot 1 \(lines 14-20\): de-slid \(slide from kernel-offset line 20, frame line 19\; map [^)]*\): 1 image addresses' \
    "two boots: the second told apart"

# Four QEMU boots of the project (tests/data): three state their slide,
# each is written as 0, each told in the receipt with its own.
run --redact --redact-style=deslide --receipt="$TMP/four.rc" \
    "$TESTDATA/x86_64-qemu-6.1-four-boots.console"
is "$(printf '%s\n' "$OUT" | grep 'Kernel Offset')" \
    "[    5.222317] Kernel Offset: 0x0000000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)
[    5.312162] Kernel Offset: 0x00000000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)
[    4.685813] Kernel Offset: 0x00000000 from 0xffffffff81000000 (relocation range: 0xffffffff80000000-0xffffffffbfffffff)
[   22.290779] Kernel Offset: disabled" \
    "four QEMU boots: each stated slide written as 0, in its width"
is "$(sed -n 's/.*"type":"boot".*"boot":\([0-9]\).*"slide":"\([0-9a-fx]*\)".*"rescan_slide":"\([0-9a-fx]*\)".*/\1 \2 \3/p' "$TMP/four.rc" | tr '\n' ' ')" \
    "0 0x4200000 0x0 1 0x1f600000 0x0 2 0x2a400000 0x0 " \
    "four QEMU boots: the receipt gives each boot its slide, and the rescan 0"
printf '%s\n' "$OUT" >"$TMP/four.out"
is "$("$KLEAKSCAN" --json "$TMP/four.out" | sed -n 's/.*"type":"boot".*"slide":\([^,]*\),.*/\1/p' | tr '\n' ' ')" \
    '"0x0" "0x0" "0x0" "0x0" ' "four QEMU boots: a scan of the output finds slide 0 in each"

# The VMCOREINFO note (makedumpfile -g, crash): KERNELOFFSET= is the
# slide, SYMBOL()= run-time addresses.
printf 'OSRELEASE=6.1.0-57-amd64\nSYMBOL(init_task)=ffffffff86c1aa40\nSYMBOL(_stext)=ffffffff85200000\nKERNELOFFSET=4200000\nNUMBER(phys_base)=16777216\n' \
    >"$TMP/vmcoreinfo"
run --redact --redact-style=deslide --system-map "$MAP" "$TMP/vmcoreinfo"
is "$OUT" "OSRELEASE=6.1.0-57-amd64
SYMBOL(init_task)=ffffffff82a1aa40
SYMBOL(_stext)=ffffffff81000000
KERNELOFFSET=0000000
NUMBER(phys_base)=16777216" \
    "VMCOREINFO: symbols at the map's addresses, KERNELOFFSET= written as 0"
like "$ERR" 'slide from kernel-offset line 4, kallsyms line 2 and 1 more' \
    "VMCOREINFO: KERNELOFFSET= and SYMBOL()= are the evidence"

# A scan reports the lines that state the slide as layout findings.
printf '[    0.000000] Kernel relocated by 0x3510000\nKERNELOFFSET=4200000\n' \
    >"$TMP/stated.log"
is "$("$KLEAKSCAN" --json "$TMP/stated.log" | sed -n 's/.*"text":"\([0-9a-f]*\)".*"region":"layout".*"rule":"\([a-z-]*\)".*/\1 \2/p' | tr '\n' ' ')" \
    "3510000 kernel-relocated 4200000 vmcoreinfo-kerneloffset " \
    "scan: Kernel relocated by and KERNELOFFSET= are layout findings"

# The rescan refuses an output that still tells the slide: with a 32-bit
# profile the 64-bit frames are no findings, yet they pair with the map.
run --redact --redact-style=deslide --arch i386 --system-map "$MAP" \
    -o "$TMP/refused.out" "$TMP/panic.log"
is "$STATUS" 2 "an output that still tells the slide: exit status 2"
like "$ERR" 'panic\.log: boot 0 of the rewritten output still tells a KASLR slide \(4 pieces of evidence\): not written' \
    "an output that still tells the slide: the error says why"
ok "an output that still tells the slide: -o is not written" \
    test ! -e "$TMP/refused.out"
run --redact --redact-style=deslide --arch i386 --system-map "$MAP" \
    "$TMP/panic.log"
is "$STATUS" 2 "an output that still tells the slide, on standard output: exit 2"
like "$ERR" 'panic\.log: boot 0 of the rewritten output still tells a KASLR slide \(4 pieces of evidence\): do not publish what went to standard output' \
    "an output that still tells the slide, on standard output: the error says not to publish it"
like "$ERR" 'deslide: .*; 1 at another slide \(refused\)$' \
    "an output that still tells the slide: the summary counts it"
is "$(printf '%s\n' "$ERR" | grep -c 'deslide verdict')" 0 \
    "an output that still tells the slide: no deslide verdict"

# A journal export: de-slid in place, lengths kept, not rescanned.
python3 - "$TMP/panic.log" "$TMP/p.export" <<'EOF'
import re, sys
out = b""
for i, l in enumerate(open(sys.argv[1], "rb").read().split(b"\n")):
    if l:
        m = re.sub(rb"^\[ *[0-9.]+\] ", b"", l)
        out += b"__CURSOR=s=1;i=%d\n_BOOT_ID=ab\nMESSAGE=%s\n\n" % (i, m)
open(sys.argv[2], "wb").write(out)
EOF
run --redact --redact-style=deslide --system-map "$MAP" "$TMP/p.export"
like "$OUT" 'MESSAGE= \[<ffffffff81a01db8>\] panic\+0x108/0x2f4' \
    "journal export: the frames de-slid"
like "$ERR" 'not rescanned \(a journal stream\)' \
    "journal export: said not rescanned"
"$KLEAKSCAN" --redact --redact-style=deslide --system-map "$MAP" \
    "$TMP/p.export" >"$TMP/p.export.out" 2>/dev/null
is "$(wc -c <"$TMP/p.export.out" | tr -d ' ')" \
    "$(wc -c <"$TMP/p.export" | tr -d ' ')" "journal export: the same length"

# --- A captured system. --------------------------------------------------
# A sosreport-like tree of a kernel at slide 0x4200000: its kallsyms, the
# files of its present state, a kdump log and a syslog of other boots.
C=$TMP/cap/sosreport-host-2025
mkdir -p "$C/proc/sys/kernel" "$C/sys/kernel/debug/tracing" \
    "$C/sos_commands/kernel" "$C/var/log" "$C/var/crash/127.0.0.1-2025"
echo 6.1.0-57-amd64 >"$C/proc/sys/kernel/osrelease"
python3 -c '
import sys
for l in open(sys.argv[1]):
    a, t, n = l.split()
    if n != "_end":
        print("%016x %s %s" % (int(a, 16) + 0x4200000, t, n))' "$MAP" \
    >"$C/proc/kallsyms"
printf 'ffffffffc0a3e000 t e1000_probe\t[e1000]\n' >>"$C/proc/kallsyms"
printf 'e1000 159744 0 - Live 0xffffffffc0a3e000\n' >"$C/proc/modules"
printf '0xffffffff85c07e3d : "%%s\\n"\n0xffffffff86c1aa40 : "task"\n' \
    >"$C/sys/kernel/debug/tracing/printk_formats"
sed -n 1,9p "$TMP/panic.log" | grep -v 'Trigger' >"$C/sos_commands/kernel/dmesg"
# Another boot's panic (slide 0x1e200000), kdump's copy of its log.
sed 's/ffffffff85c01db8/ffffffff9fc01db8/; s/0x4200000 from/0x1e200000 from/' \
    "$TMP/panic.log" | grep -v -e RIP -e RAX -e R13 -e 'ffffffff858' \
    -e 'ffffffff85c3' >"$C/var/crash/127.0.0.1-2025/vmcore-dmesg.txt"
printf 'Jan  1 00:00:00 host kernel: R13: ffffffff9fc1aa40\n' \
    >"$C/var/log/kern.log"
run --redact --redact-style=deslide --system-map "$MAP" \
    --output-dir "$TMP/capout" "$C"
is "$STATUS" 1 "captured directory: exit status 1"
O=$TMP/capout/${C#/}
awk '$3 != "_end"' "$MAP" >"$TMP/map.noend"
printf '0000000000000000 t e1000_probe\t[e1000]\n' >>"$TMP/map.noend"
ok "captured directory: kallsyms holds the map's addresses, the module symbol zeroed" \
    cmp "$O/proc/kallsyms" "$TMP/map.noend"
is "$(cat "$O/proc/modules")" "e1000 159744 0 - Live 0x0000000000000000" \
    "captured directory: a module base in the style of the rest"
is "$(cat "$O/sys/kernel/debug/tracing/printk_formats")" \
    "$(printf '0xffffffff81a07e3d : "%%s\\n"\n0xffffffff82a1aa40 : "task"')" \
    "captured directory: printk_formats de-slid by the system's slide"
is "$(cat "$O/sos_commands/kernel/dmesg")" "$(sed -n 1,9p "$TMP/panic.want" | grep -v Trigger)" \
    "captured directory: its dmesg de-slid"
like "$(cat "$O/var/crash/127.0.0.1-2025/vmcore-dmesg.txt")" \
    '\[<ffffffff81a01db8>\] panic\+0x108/0x2f4' \
    "captured directory: kdump's log of another boot de-slid by its own Kernel Offset"
is "$(cat "$O/var/log/kern.log")" \
    "Jan  1 00:00:00 host kernel: R13: 0000000000000000" \
    "captured directory: a syslog line of another boot without a slide: zeroed, not de-slid by the system's"
like "$ERR" 'sosreport-host-2025: captured system \(release 6\.1\.0-57-amd64\): slide from its kallsyms and the map [^ ]* \(19 lines agree\)' \
    "captured directory: the note names the slide's evidence"
like "$ERR" 'printk_formats: boot 0 \(lines 1-2\): de-slid \(slide from capture; map' \
    "captured directory: printk_formats de-slid by the capture's slide"

# The same tree as a tar.xz, to -o, and from a pipe (kallsyms first).
(cd "$TMP/cap" && tar -cJf "$TMP/cap.tar.xz" sosreport-host-2025)
run --redact --redact-style=deslide --system-map "$MAP" -o "$TMP/capout.tar.xz" \
    "$TMP/cap.tar.xz"
is "$STATUS" 1 "captured archive: exit status 1"
mkdir "$TMP/cx" && tar -xJf "$TMP/capout.tar.xz" -C "$TMP/cx"
X=$TMP/cx/sosreport-host-2025
ok "captured archive: kallsyms holds the map's addresses" \
    cmp "$X/proc/kallsyms" "$TMP/map.noend"
ok "captured archive: printk_formats as from the directory" \
    cmp "$X/sys/kernel/debug/tracing/printk_formats" \
    "$O/sys/kernel/debug/tracing/printk_formats"
is "$(tar -tJf "$TMP/capout.tar.xz" | sort | md5sum)" \
    "$(tar -tJf "$TMP/cap.tar.xz" | sort | md5sum)" \
    "captured archive: every member kept"
(cd "$TMP/cap" && tar -cf - sosreport-host-2025/proc/kallsyms \
    sosreport-host-2025/sys) >"$TMP/first.tar"
"$KLEAKSCAN" --redact --redact-style=deslide --system-map "$MAP" - \
    <"$TMP/first.tar" 2>/dev/null | cat >"$TMP/first.out.tar"
mkdir "$TMP/fx" && tar -xf "$TMP/first.out.tar" -C "$TMP/fx"
ok "captured archive from a pipe: the slide of its kallsyms serves the members after it" \
    cmp "$TMP/fx/sosreport-host-2025/sys/kernel/debug/tracing/printk_formats" \
    "$O/sys/kernel/debug/tracing/printk_formats"
# Without the map: kallsyms zeroed, with a clear note.
run --redact --redact-style=deslide -o "$TMP/nomap.tar.xz" "$TMP/cap.tar.xz"
like "$ERR" 'cap\.tar\.xz: captured system \(release 6\.1\.0-57-amd64\): no System\.map of its kernel, so its kallsyms and the addresses of its present state are written in the style of the rest' \
    "captured archive without a map: the note says so"
is "$(tar -xJOf "$TMP/nomap.tar.xz" sosreport-host-2025/proc/kallsyms |
    grep -cv '^0000000000000000 ')" 0 \
    "captured archive without a map: every kallsyms address zeroed"
# The capture's own boot/System.map-RELEASE serves when none is given.
mkdir -p "$C/boot"
cp "$MAP" "$C/boot/System.map-6.1.0-57-amd64"
(cd "$TMP/cap" && tar -cJf "$TMP/cap2.tar.xz" sosreport-host-2025)
run --redact --redact-style=deslide -o "$TMP/own.tar.xz" "$TMP/cap2.tar.xz"
like "$ERR" 'slide from its kallsyms and the map [^ ]*cap2\.tar\.xz\{boot/System\.map-6\.1\.0-57-amd64\}' \
    "captured archive with its own System.map: that map is used"
is "$(tar -xJOf "$TMP/own.tar.xz" sosreport-host-2025/proc/kallsyms)" \
    "$(cat "$TMP/map.noend")" \
    "captured archive with its own System.map: kallsyms at the map's addresses"
# --live-root of the output: the slide is 0, nothing beyond the map.
run --live-root "$TMP/capout.tar.xz" --system-map "$MAP"
like "$OUT" "live: slide=0x0: from kallsyms _text and the map; .*kallsyms holds the map's own addresses" \
    "--live-root of the redacted capture: slide 0, the map's own addresses"

# --- The QEMU truth boots with KASLR on: the project's own
# (tests/qemu/boots: console and the captured dmesg, the trimmed map) and
# those of ../shared/corpus/qemu when it is there.
# truthboot NAME MAP SLIDE CONSOLE [LOG...]: deslide each log with the
# boot's map and true slide; then deslide,hash on the console.
truthboot() {
	tb_n=$1 tb_m=$2 tb_t=$3
	shift 3
	for f in "$@"; do
		r=$(deslide "$f" "$tb_m" "$tb_t")
		like "$r" '^ok: ' "$tb_n/${f##*/}: $r"
	done
	set -- "$tb_n" "$tb_m" "$1"
	"$KLEAKSCAN" --redact --redact-style=deslide,hash --hash-key=$KEY \
	    --system-map "$2" "$3" >"$TMP/h.out" 2>/dev/null
	"$KLEAKSCAN" --redact --redact-style=deslide --system-map "$2" \
	    "$3" >"$TMP/z.out" 2>/dev/null
	"$KLEAKSCAN" --json --show-suppressed --system-map "$2" \
	    "$3" >"$TMP/c.json"
	r=$(python3 - "$3" "$TMP/h.out" "$TMP/z.out" \
    "$TMP/c.json" <<'EOF'
import json, sys
orig, h, z = (open(p, 'rb').read() for p in sys.argv[1:4])
seen, bad, n = {}, 0, 0
for l in open(sys.argv[4]):
    e = json.loads(l)
    if e['type'] != 'finding' or e['suppressed'] is not None:
        continue
    o, k = e['offset'], len(e['text'])
    if z[o:o + k] != b'0' * k:
        if h[o:o + k] != z[o:o + k]:
            bad += 1        # de-slid the same in both styles
        continue
    n += 1
    seen.setdefault(e['value'], set()).add(h[o:o + k])
vals = {v: s.pop() for v, s in seen.items() if len(s) == 1}
if len(vals) != len(seen) or len(set(vals.values())) != len(vals):
    bad += 1
print('ok' if bad == 0 else 'bad %d' % bad,
      '(%d tokens in the rest style, %d values, %d of them repeated)' %
      (n, len(seen), n - len(seen)))
EOF
	)
	like "$r" '^ok ' "$1: deslide,hash: image addresses as deslide; equal pointers equal, different ones different $r"
}
for v in $(ls "$OWN_BOOTS"); do
	d=$(own_boot "$v") || continue
	t=$(truth "$d" offset)
	[ "$t" = 0x0 ] && continue	# KASLR off
	truthboot "own $v" "$d"/maps/System.map-* "$t" "$d/console.log" \
	    "$d/root/sos_commands/kernel/dmesg"
	# The consoles of x86_64, i386 and arm64 print no raw image address:
	# the console with the captured kallsyms after it has hundreds.
	{ tr -d '\r' <"$d/console.log"; cat "$d/kallsyms"; } >"$TMP/own.log"
	r=$(deslide "$TMP/own.log" "$d"/maps/System.map-* "$t")
	desc="own $v: the console and its kallsyms de-slid, each address the map's ($r)"
	like "$r" \
	    '^ok: 1 boots, 1 de-slid, 1 at slide 0 in the rescan; [1-9][0-9]+ image addresses at the map, [1-9][0-9]+ symbolised alike' \
	    "$desc"
done
Q=$CORPUS/qemu
if [ ! -d "$Q" ]; then
	skip "QEMU truth boots of the corpus" "$Q is not there"
	done_testing
fi
for d in "$Q"/*/; do
	d=${d%/}
	b=$(basename "$d")
	t=$(sed -n 's/.*True KASLR text offset: `\(0x[0-9a-f]*\)`.*/\1/p' \
	    "$d/TRUTH.md")
	case $t in
	''|0x0) continue ;;	# KASLR off or failed
	esac
	m=$(ls "$Q"/System.map-*.xz | while read -r f; do
		r=${f##*/System.map-}
		case $b in *"${r%.xz}"*) echo "$f" ;; esac
	done | head -n 1)
	truthboot "$b" "$m" "$t" "$d/console.log" "$d/dmesg.log"
done

done_testing
