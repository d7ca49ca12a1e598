#!/bin/sh
# arch-kaslr.sh - KASLR and symbols beyond x86_64, on the corpus's QEMU
# boots with their real System.map: arm64 (its slide with and without
# the panic's Kernel Offset line, the image named text inside vmalloc,
# PHYS_OFFSET the direct map's base), s390x (Call Trace frames
# symbolised), mips64 (the slide from frames, the hashed "Kernel
# relocated by" ignored); a stated slide outside the modelled range; arm
# (no KASLR) with a small map written for the rule.

. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
QEMU=$CORPUS/qemu

if ! command -v python3 >/dev/null 2>&1; then
	skip "boot events" "python3 is needed to read the JSON output"
	done_testing
fi

# slides JSON: the slide of each boot event, one per line.
slides() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot":
        print(e["slide"])
' "$1"
}
# kallsyms JSON ALIASES: "line region ok|bad" of each runtime kallsyms
# line "ADDR T name": ok when the symbol is name+0x0/ (or its alias).
kallsyms() {
	python3 -c '
import json, sys
al = dict(a.split("=") for a in sys.argv[2:])
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "finding":
        continue
    w = e["line_text"].split()
    if len(w) == 3 and w[0] == e["text"] and len(w[1]) == 1:
        want = al.get(w[2], w[2]) + "+0x0/"
        ok = (e["symbol"] or "").startswith(want)
        print(e["line"], e["region"], "ok" if ok else "bad")
' "$@"
}
# frames JSON [trimmed]: "region ok|bad" of each [<addr>] frame: ok when
# the symbol is the one printed; with "trimmed" (the trimmed maps of
# tests/qemu/boots, whose sizes are the distance to the next symbol they
# hold) only its name+offset.
frames() {
	python3 -c '
import json, re, sys
cut = len(sys.argv) > 2
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "finding":
        continue
    m = re.search(r"\[<" + e["text"] + r">\] (\S+)", e["line_text"])
    if m:
        p, s = m.group(1), e["symbol"] or ""
        if cut:
            p, s = p.split("/")[0], s.split("/")[0]
        print(e["region"], "ok" if s == p else "bad %s %s" % (p, s))
' "$@"
}

A64=$QEMU/arm64-6.1.0-57-arm64-boot1
if [ -d "$A64" ]; then
	want=$(sed -n 's/.*True KASLR text offset: `\(0x[0-9a-f]*\)`.*/\1/p' "$A64/TRUTH.md")
	"$KLEAKSCAN" --json --system-map-dir "$QEMU" "$A64/console.log" >"$TMP/a.json"
	is "$(slides "$TMP/a.json" | sort -u)" "$want" \
	    "arm64 boot1: every boot segment gives the slide of TRUTH.md ($want)"
	is "$(kallsyms "$TMP/a.json" _stext=bcm2835_handle_irq | sort -u | cut -d' ' -f2,3 | sort -u)" \
	    "text ok" "arm64 boot1: the kallsyms values are text with the names beside them"
	is "$(kallsyms "$TMP/a.json" | wc -l | tr -d ' ')" 6 \
	    "arm64 boot1: the six kallsyms lines are findings"
	# Without the panic's Kernel Offset line: the kallsyms lines say it.
	grep -v 'Kernel Offset:' "$A64/console.log" >"$TMP/cut.log"
	is "$(wc -l <"$TMP/cut.log" | tr -d ' ')" 525 "the cut copy lacks one line"
	"$KLEAKSCAN" --json --system-map-dir "$QEMU" "$TMP/cut.log" >"$TMP/c.json"
	is "$(slides "$TMP/c.json" | head -1)" "$want" \
	    "arm64 boot1 without Kernel Offset: the kallsyms lines give the slide of TRUTH.md"
	is "$(kallsyms "$TMP/c.json" _stext=bcm2835_handle_irq | cut -d' ' -f2,3 | sort -u)" \
	    "text ok" "arm64 boot1 without Kernel Offset: kallsyms values text, symbolised"
	# PHYS_OFFSET: a layout finding, the direct map's base.
	like "$(grep '"line":524,' "$TMP/a.json")" \
	    '"region":"layout".*"severity":"medium".*"rule":"arm64-phys-offset"' \
	    "arm64 boot1: PHYS_OFFSET is a layout finding"
	is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot" and e["phys_offset"]:
        print(e["phys_offset"], e["bases"]["direct-map"])' "$TMP/a.json")" \
	    "0xfffff58b40000000 0xffff0a74c0000000" \
	    "arm64 boot1: the verdict's direct-map base from PHYS_OFFSET"
	like "$("$KLEAKSCAN" --verdict --system-map-dir "$QEMU" "$A64/console.log")" \
	    'direct map: virt = phys \+ 0xffff0a74c0000000 \(PHYS_OFFSET 0xfffff58b40000000\)' \
	    "arm64 boot1: --verdict says the direct map's base"
else
	skip "the arm64 boot" "no $A64"
fi

S390=$QEMU/s390x-6.1.0-50-s390x-boot1
if [ -d "$S390" ]; then
	"$KLEAKSCAN" --json --system-map-dir "$QEMU" "$S390/console.log" >"$TMP/s.json"
	is "$(slides "$TMP/s.json" | sort -u)" "0x0" "s390x boot1: slide 0 (TRUTH.md)"
	is "$(frames "$TMP/s.json" | sort | uniq -c | sed 's/^ *//')" "18 text ok" \
	    "s390x boot1: the 18 Call Trace frames are text with their symbols"
else
	skip "the s390x boot" "no $S390"
fi

# mips_boot NAME MAPDIR CONSOLE SLIDE [trimmed]: a mips64 boot whose
# frames give the slide and whose "Kernel relocated by" is hashed; its
# frames are text with their symbols (trimmed: the map holds only some,
# so each frame is compared without its /size).
mips_boot() {
	"$KLEAKSCAN" --json --system-map-dir "$2" "$3" >"$TMP/m.json"
	is "$(slides "$TMP/m.json" | sort -u)" "$4" "$1: slide $4 from its frames"
	is "$(grep -c '"kind":"kernel-offset"' "$TMP/m.json")" 0 \
	    "$1: the hashed Kernel relocated by is no evidence"
	r=$(frames "$TMP/m.json" $5 | cut -d' ' -f1,2 | sort | uniq -c |
	    sed 's/^ *//')
	like "$r" '^[1-9][0-9]* text ok$' "$1: frames text with their symbols ($r)"
}
MIPS=$QEMU/mips64-6.1.0-50-5kc-malta-boot1
if [ -d "$MIPS" ]; then
	mips_boot "mips64 boot1 (TRUTH.md)" "$QEMU" "$MIPS/console.log" 0x12d0000
else
	skip "the mips64 boot" "no $MIPS"
fi

# --- The project's own boots (tests/qemu/boots) against their TRUTH. ---
if d=$(own_boot arm64); then
	want=$(truth "$d" offset)
	"$KLEAKSCAN" --json --system-map-dir "$d/maps" "$d/console.log" >"$TMP/a.json"
	is "$(slides "$TMP/a.json" | sort -u)" "$want" \
	    "own arm64: every boot segment gives TRUTH's slide ($want)"
	# PHYS_OFFSET as printed; the direct map's base is PAGE_OFFSET
	# (0xffff000000000000, 48-bit VA) minus it.
	po=$(tr -d '\r' <"$d/console.log" | sed -n 's/.*PHYS_OFFSET: \(0x[0-9a-f]*\).*/\1/p')
	dm=$(python3 -c 'import sys; print("0x%x" % ((0xffff000000000000 - int(sys.argv[1], 16)) % 2**64))' "$po")
	like "$(grep 'PHYS_OFFSET' "$TMP/a.json" | grep '"type":"finding"')" \
	    '"region":"layout".*"severity":"medium".*"rule":"arm64-phys-offset"' \
	    "own arm64: PHYS_OFFSET is a layout finding"
	is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot" and e["phys_offset"]:
        print(e["phys_offset"], e["bases"]["direct-map"])' "$TMP/a.json")" \
	    "$po $dm" "own arm64: the verdict's direct-map base from PHYS_OFFSET ($dm)"
	# Without the panic's Kernel Offset line, the captured kallsyms
	# appended: its lines give the slide, each value its own name.
	{ tr -d '\r' <"$d/console.log" | grep -v 'Kernel Offset:'
	    cat "$d/kallsyms"; } >"$TMP/cut.log"
	"$KLEAKSCAN" --json --system-map-dir "$d/maps" "$TMP/cut.log" >"$TMP/c.json"
	is "$(slides "$TMP/c.json")" "$want" \
	    "own arm64 without Kernel Offset: its kallsyms lines give TRUTH's slide"
	kallsyms_named "$TMP/c.json" "$d"/maps/System.map-* \
	    "own arm64 without Kernel Offset: the kallsyms values the map names"
else
	skip "own arm64 boot" "no $OWN_BOOTS/arm64 or no xz"
fi
if d=$(own_boot s390x); then
	"$KLEAKSCAN" --json --system-map-dir "$d/maps" "$d/console.log" >"$TMP/s.json"
	is "$(slides "$TMP/s.json" | sort -u)" "$(truth "$d" offset)" \
	    "own s390x: TRUTH's slide ($(truth "$d" offset): no PRNG, KASLR disabled)"
	r=$(frames "$TMP/s.json" trimmed | sort | uniq -c | sed 's/^ *//')
	like "$r" '^[1-9][0-9]+ text ok$' \
	    "own s390x: the Call Trace frames are text with their symbols ($r)"
else
	skip "own s390x boot" "no $OWN_BOOTS/s390x or no xz"
fi
if d=$(own_boot mips64el); then
	ok "own mips64el: the console prints the hashed Kernel relocated by" \
	    grep -q 'Kernel relocated by 0x' "$d/console.log"
	mips_boot "own mips64el (TRUTH)" "$d/maps" "$d/console.log" \
	    "$(truth "$d" offset)" trimmed
else
	skip "own mips64el boot" "no $OWN_BOOTS/mips64el or no xz"
fi

# The kernel's own statement outside the modelled range (96 TiB on a
# 6.1 arm64 kernel): taken, the disagreement a conflict.
printf '%s\n' \
    '[    0.000000] Linux version 6.1.0-57-arm64 (debian-kernel@lists.debian.org) #1 SMP Debian 6.1.192-3' \
    '[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd070]' \
    '[    2.583315] Kernel Offset: 0x600000000000 from 0xffff800008000000' >"$TMP/out.log"
"$KLEAKSCAN" --json --arch arm64 "$TMP/out.log" >"$TMP/out.json"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot":
        print(e["slide"], e["slide_conflicts"], e["slide_outside_range"])' "$TMP/out.json")" \
    "0x600000000000 1 True" "a stated slide outside the range is taken, as a conflict"
like "$("$KLEAKSCAN" --verdict --arch arm64 "$TMP/out.log")" \
    "slide: Kernel Offset: 0x600000000000 from 0xffff800008000000 \\(1 piece of evidence, 1 other slide disagree; the kernel's own statement lies outside the modelled range\\)" \
    "--verdict: the disagreement said"
# 64 TiB and above is inside arm64's range (the issue's 0x56ae70200000).
sed 's/0x600000000000/0x56ae70200000/' "$TMP/out.log" >"$TMP/hi.log"
"$KLEAKSCAN" --json --arch arm64 "$TMP/hi.log" >"$TMP/hi.json"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot":
        print(e["slide"], e["slide_conflicts"], e["slide_outside_range"])' "$TMP/hi.json")" \
    "0x56ae70200000 0 False" "arm64: a slide above 64 TiB is in range"

# arm (32-bit) has no KASLR: with a map, slide 0 by construction, and
# text values get their symbols.
printf '%s\n' 'c0008000 T _text' 'c0008000 T stext' 'c0100000 T panic' \
    'c0200000 T _etext' 'c0800000 B _end' >"$TMP/arm.map"
printf '%s\n' \
    '[    0.000000] Linux version 6.1.0-57-armmp (debian-kernel@lists.debian.org) #1 SMP Debian 6.1.192-3' \
    '[    1.000000] CPU: ARMv7 Processor [414fc0f0] revision 0 (ARMv7), cr=10c5387d' \
    '[    2.000000] [<c0100010>] (panic) from [<c0100024>] (do_exit)' >"$TMP/arm.log"
"$KLEAKSCAN" --json --arch arm --system-map "$TMP/arm.map" "$TMP/arm.log" >"$TMP/arm.json"
is "$(slides "$TMP/arm.json")" "0x0" "arm with a map: slide 0 by construction"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding":
        print(e["region"], e["symbol"])' "$TMP/arm.json")" "text panic+0x10/0x100000
text panic+0x24/0x100000" "arm with a map: text values symbolised"
"$KLEAKSCAN" --json --arch arm "$TMP/arm.log" >"$TMP/arm0.json"
is "$(slides "$TMP/arm0.json")" "None" "arm without a map: no slide"

# arm with highmem: the Memory: line puts lowmem's end (high_memory) at
# 0xf0000000, so the vmapped exception stack above it is vmalloc; one in
# lowmem stays direct-map, and without the line nothing changes.
printf '%s\n' \
    '[    0.000000] Linux version 6.1.0-57-armmp (debian-kernel@lists.debian.org) #1 SMP Debian 6.1.192-3' \
    '[    0.000000] CPU: ARMv7 Processor [414fc0f0] revision 0 (ARMv7), cr=10c5387d' \
    '[    0.000000] Memory: 1012480K/1048576K available (10240K kernel code, 1843K rwdata, 3508K rodata, 2048K init, 435K bss, 36096K reserved, 0K cma-reserved, 262144K highmem)' \
    '[    2.000000] Exception stack(0xf080dfa8 to 0xf080dff0)' \
    '[    2.000001] Exception stack(0xc280dfa8 to 0xc280dff0)' >"$TMP/hm.log"
run --arch arm "$TMP/hm.log"
is "$OUT" "4:34: vmalloc medium 0xf080dfa8  [    2.000000] Exception stack(0xf080dfa8 to 0xf080dff0)
4:48: vmalloc medium 0xf080dff0  [    2.000000] Exception stack(0xf080dfa8 to 0xf080dff0)
5:34: direct-map medium 0xc280dfa8  [    2.000001] Exception stack(0xc280dfa8 to 0xc280dff0)
5:48: direct-map medium 0xc280dff0  [    2.000001] Exception stack(0xc280dfa8 to 0xc280dff0)" \
    "arm highmem: an exception stack above lowmem's end is vmalloc"
grep -v 'Memory:' "$TMP/hm.log" >"$TMP/hm0.log"
run --arch arm "$TMP/hm0.log"
is "$(printf '%s\n' "$OUT" | cut -d' ' -f2 | sort | uniq -c | sed 's/^ *//')" "4 direct-map" \
    "arm without the Memory: line: the stacks stay direct-map"

done_testing
