#!/bin/sh
# kaslr.sh - boot segments, the KASLR slide and symbols: per-boot slides
# on a log of four real boots, the QEMU boots of the corpus against their
# TRUTH.md with the real System.map, maps picked by release, findings
# that wait for a later Kernel Offset line, and --verdict.

. "$(dirname "$0")/tap.sh"

QEMU=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}/qemu
FOUR=$TESTDATA/x86_64-qemu-6.1-four-boots.console
SLICE=$TESTDATA/x86_64-debian-6.1.0-57-System.map.slice

if ! command -v python3 >/dev/null 2>&1; then
	skip "boot events" "python3 is needed to read the JSON output"
	done_testing
fi

# boots JSON: one line per boot event: boot first-last slide text_base
# release map-basename disclosed evidence-kinds.
boots() {
	python3 -c '
import json, os, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "boot":
        continue
    print(e["boot"], "%d-%d" % (e["first_line"], e["last_line"]),
          e["slide"], e["text_base"], e["release"],
          os.path.basename(e["map"]) if e["map"] else None,
          ",".join(e["disclosed"]) or "-",
          ",".join("%s@%d" % (v["kind"], v["line"]) for v in e["evidence"]) or "-")
' "$1"
}
# syms JSON: "line:column symbol" of every text finding.
syms() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] == "text":
        print("%d:%d %s" % (e["line"], e["column"], e["symbol"]))
' "$1"
}

# --- Four real boots in one log: one slide each, never mixed. ----------
"$KLEAKSCAN" --json "$FOUR" >"$TMP/four.json"
is "$?" 1 "four boots: exit status 1 (the Kernel Offset lines leak)"
is "$(boots "$TMP/four.json")" "0 1-5 0x4200000 0xffffffff85200000 6.1.0-57-amd64 None text kernel-offset@5
1 6-10 0x1f600000 0xffffffffa0600000 6.1.0-57-amd64 None text kernel-offset@10
2 11-15 0x2a400000 0xffffffffab400000 6.1.0-57-amd64 None text kernel-offset@15
3 16-20 0x0 0xffffffff81000000 6.1.0-57-amd64 None text kaslr-off@17,kaslr-off@20" \
    "four boots: each segment its own slide (TRUTH.md), nokaslr slide 0"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding":
        print(e["line"], e["column"], e["region"], e["severity"], e["value"], e["rule"], e["boot"])
' "$TMP/four.json")" "5 33 layout high 0x4200000 kernel-offset 0
10 33 layout high 0x1f600000 kernel-offset 1
15 33 layout high 0x2a400000 kernel-offset 2" \
    "four boots: each Kernel Offset value is a layout finding at its digits"
run --verdict "$FOUR"
like "$OUT" '^boot 1, lines 6-10, 6\.1\.0-57-amd64, x86_64$' \
    "--verdict: the segment, its release and arch"
like "$OUT" '^  slide: Kernel Offset: 0x1f600000 from 0xffffffff81000000 \(1 piece of evidence\)$' \
    "--verdict: the slide in the kernel's words"
like "$OUT" '^  slide: Kernel Offset: disabled \(2 pieces of evidence\)$' \
    "--verdict: nokaslr and Kernel Offset: disabled"
like "$OUT" '^  KASLR entropy left: 0 bits$' "--verdict: entropy left"
run "$FOUR"
is "$(printf '%s\n' "$OUT" | grep -c '^boot ')" 0 "without --verdict: no boot report in text"
run --redact --restrict=4 "$FOUR"
is "$(printf '%s\n' "$OUT" | grep -c 'Kernel Offset: 0x0000000 from')" 1 \
    "--restrict=4 zeroes the Kernel Offset value (same width)"

# --- A map, a slide learnt late: the findings before it wait. ----------
printf '%s\n' '[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1' \
    '[    5.100000] RIP: 0010:ffffffff85890926 caller ffffffff85c01de4' \
    '[    5.222317] Kernel Offset: 0x4200000 from 0xffffffff81000000' \
    '[    5.300000] after ffffffff85564470' >"$TMP/late.log"
"$KLEAKSCAN" --json --system-map "$SLICE" "$TMP/late.log" >"$TMP/late.json"
is "$(syms "$TMP/late.json")" "2:26 sysrq_handle_crash+0x16/0x20
2:50 panic+0x134/0x2f4
4:22 do_sys_open+0x0/0x80" \
    "with a map, text findings before the Kernel Offset line get their symbols"
is "$(python3 -c '
import json, sys
print(" ".join(json.loads(l)["type"] for l in open(sys.argv[1])))' "$TMP/late.json")" \
    "begin finding finding finding finding boot end summary" \
    "with a map, the order of events is kept"
run --system-map "$SLICE" "$TMP/late.log"
like "$OUT" '^2:26: text high 0xffffffff85890926 sysrq_handle_crash\+0x16/0x20  ' \
    "text output: the symbol after the value"
"$KLEAKSCAN" --json "$TMP/late.log" >"$TMP/late2.json"
is "$(syms "$TMP/late2.json" | cut -d' ' -f2 | sort -u)" None \
    "without a map: no symbols"

# Maps by release: a directory of maps, and a map for another release.
mkdir "$TMP/maps"
cp "$SLICE" "$TMP/maps/System.map-6.1.0-57-amd64"
cp "$SLICE" "$TMP/maps/System.map-9.9.9-other"
"$KLEAKSCAN" --json --system-map-dir "$TMP/maps" "$TMP/late.log" >"$TMP/dir.json"
is "$(boots "$TMP/dir.json" | cut -d' ' -f5,6)" "6.1.0-57-amd64 System.map-6.1.0-57-amd64" \
    "--system-map-dir: the map named by the banner's release"
is "$(syms "$TMP/dir.json" | head -n 1)" "2:26 sysrq_handle_crash+0x16/0x20" \
    "--system-map-dir: symbols from it"
cp "$SLICE" "$TMP/System.map-9.9.9-other"
"$KLEAKSCAN" --json --system-map "$TMP/System.map-9.9.9-other" "$TMP/late.log" \
    >"$TMP/other.json"
is "$(boots "$TMP/other.json" | cut -d' ' -f6)" None \
    "--system-map of another release is not used"
run --system-map "$TMP/no-such-map" "$TMP/late.log"
is_status 2 "a map that cannot be read: exit status 2"

# Frames: a raw address printed beside its symbol gives the slide.
printf '%s\n' '[    1.000000] Call Trace:' \
    '[    1.000001]  [<ffffffff85890926>] sysrq_handle_crash+0x16/0x20' \
    '[    1.000002]  [<ffffffff85c01de4>] panic+0x134/0x2f4' >"$TMP/frames.log"
"$KLEAKSCAN" --json --arch x86_64 --system-map "$SLICE" "$TMP/frames.log" >"$TMP/frames.json"
is "$(boots "$TMP/frames.json" | cut -d' ' -f3,4,8)" \
    "0x4200000 0xffffffff85200000 frame@2,value@2,frame@3" \
    "frames paired with their symbols: the slide from two, the text value"

# --- The QEMU boots of the corpus, with the real System.map. -----------
if [ -d "$QEMU" ]; then
	for d in "$QEMU"/x86_64-*; do
		b=${d##*/}
		want=$(sed -n 's/.*True KASLR text offset: `\(0x[0-9a-f]*\)`.*/\1/p' "$d/TRUTH.md")
		"$KLEAKSCAN" --json --system-map-dir "$QEMU" "$d/console.log" >"$TMP/q.json"
		is "$(boots "$TMP/q.json" | awk '{print $3}' | sort -u)" "$want" \
		    "$b: every boot segment gives the slide of TRUTH.md ($want)"
		# Each runtime kallsyms line: the symbol printed is its name.
		bad=$(python3 -c '
import json, sys
al = {"_stext": "startup_64", "_text": "startup_64", "_sdata": "init_stack"}
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "finding" or e["region"] != "text":
        continue
    w = e["line_text"].split()
    if len(w) == 3 and w[0] == e["text"]:
        want = al.get(w[2], w[2]) + "+0x0/"
        if not (e["symbol"] or "").startswith(want):
            print(e["line"], e["symbol"], w[2])
' "$TMP/q.json")
		is "$bad" "" "$b: each kallsyms address resolves to the name printed beside it"
	done
else
	skip "the QEMU boots" "no $QEMU"
fi

# --- Known leak sources and physical addresses. ------------------------
UB=$TESTDATA/x86_64-ubuntu-5.4-oops.dmesg
"$KLEAKSCAN" --json "$UB" >"$TMP/ub.json"
is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and (e["line"], e["column"]) == (873, 26):
        print(e["rule"], bool(e["explain"]))' "$TMP/ub.json")" "x86-rsp True" \
    "a finding in a known leak source carries its id and explanation"
is "$(grep -c '"type":"finding".*"region":"physical"' "$TMP/ub.json")" 0 \
    "physical addresses are not reported by default"
"$KLEAKSCAN" --json --physical "$UB" >"$TMP/ubp.json"
is "$?" 1 "--physical: exit status 1 (the oops leaks)"
is "$(python3 -c '
import json, sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] == "physical":
        c[e["rule"]] += 1
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' "$TMP/ubp.json")" \
    "e820-map=36 e820-ram-buffer=6 initmem-node=2 node-data=2 node-range=6 ramdisk=2 x86-cr3=10 x86-page-table=10 zone-range=4" \
    "--physical: the memory map, node, zone, ramdisk and CR3 values by source"
like "$(grep -m1 '"region":"physical"' "$TMP/ubp.json")" \
    '"line":11,"column":34,.*"text":"0000000000000000".*"severity":"low".*"rule":"e820-map"' \
    "--physical: 11:34 the first e820 range start"
printf '[    0.000000] BIOS-e820: [mem 0x0000000000100000-0x000000003ffdffff] usable\n' >"$TMP/e820.log"
run --physical "$TMP/e820.log"
is_status 0 "--physical: a memory map alone is no leak (exit status 0)"
is "$(printf '%s\n' "$OUT" | wc -l | tr -d ' ')" 2 "--physical: both ends reported"
"$KLEAKSCAN" --json "$TMP/e820.log" >"$TMP/e820.json"
like "$(grep '"type":"boot"' "$TMP/e820.json")" '"disclosed":\["physical"\]' \
    "the boot event counts physical addresses without --physical"
is "$("$KLEAKSCAN" --redact --restrict=4 "$TMP/e820.log")" \
    "[    0.000000] BIOS-e820: [mem 0x0000000000000000-0x0000000000000000] usable" \
    "--restrict=4 rewrites physical addresses"
is "$("$KLEAKSCAN" --redact "$TMP/e820.log")" "$(cat "$TMP/e820.log")" \
    "--restrict=2 leaves them"
# The built-in copy is data/leak-sources.
"$KLEAKSCAN" --json --physical --leak-sources "$TOPSRC/data/leak-sources" "$UB" >"$TMP/ubf.json"
ok "--leak-sources data/leak-sources: the same as the built-in copy" \
    cmp "$TMP/ubp.json" "$TMP/ubf.json"
printf 'id: x\nbogus: y\n' >"$TMP/bad.ls"
run --leak-sources "$TMP/bad.ls" "$UB"
is_status 2 "a bad --leak-sources file: exit status 2"
like "$ERR" "bad\\.ls:2: unknown key 'bogus'" "a bad --leak-sources file: the line named"

done_testing
