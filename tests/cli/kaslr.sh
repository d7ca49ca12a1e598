#!/bin/sh
# kaslr.sh - boot segments, the KASLR slide and symbols: per-boot slides
# on a log of four real boots, the QEMU boots of the corpus against their
# TRUTH.md with the real System.map, maps picked by release, findings
# that wait for a later Kernel Offset line, and --verdict; register
# dumps paired with small maps, KASLR state findings, bases printed by
# layout dumps, freed ranges, other kasld shapes and memory maps.

. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
QEMU=$CORPUS/qemu
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
        print(e["line"], e["column"], e["region"], e["severity"], e["text"], e["value"], e["rule"], e["boot"])
' "$TMP/four.json")" "5 33 layout high 4200000 0x4200000 kernel-offset 0
10 33 layout high 1f600000 0x1f600000 kernel-offset 1
15 33 layout high 2a400000 0x2a400000 kernel-offset 2
17 75 layout high nokaslr 0x0 nokaslr-cmdline 3
20 31 layout high disabled 0x0 kernel-offset-disabled 3" \
    "four boots: each Kernel Offset value, nokaslr and Kernel Offset: disabled are layout findings"
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

# --- The project's own x86_64 boots (tests/qemu/boots), the same checks:
# the console with the boot's trimmed System.map, and its /proc/kallsyms
# cut (global text names the map holds once, each its own +0x0).
for v in x86_64-kaslr x86_64-nokaslr x86_64-no-hash-pointers; do
	if ! d=$(own_boot "$v"); then
		skip "own boot $v" "no $OWN_BOOTS/$v or no xz"
		continue
	fi
	want=$(truth "$d" offset)
	"$KLEAKSCAN" --json --system-map-dir "$d/maps" "$d/console.log" >"$TMP/q.json"
	is "$(boots "$TMP/q.json" | awk '{print $3}' | sort -u)" "$want" \
	    "own $v: every boot segment gives TRUTH's slide ($want)"
	"$KLEAKSCAN" --json --system-map "$d"/maps/System.map-* \
	    "$d/kallsyms" >"$TMP/q.json"
	is "$(boots "$TMP/q.json" | awk '{print $3}')" "$want" \
	    "own $v: its kallsyms with the map give TRUTH's slide ($want)"
	kallsyms_named "$TMP/q.json" "$d"/maps/System.map-* \
	    "own $v: the kallsyms addresses the map names"
done

# --- Known leak sources and physical addresses. ------------------------
# sources NAME LOG LINE COL PHYS FIRST: a finding in a known leak source
# (x86-rsp at LINE:COL), physical addresses only with --physical (PHYS by
# source), FIRST the ERE of the first.
sources() {
	"$KLEAKSCAN" --json "$2" >"$TMP/ub.json"
	is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and (e["line"], e["column"]) == (int(sys.argv[2]), int(sys.argv[3])):
        print(e["rule"], bool(e["explain"]))' "$TMP/ub.json" "$3" "$4")" \
	    "x86-rsp True" \
	    "$1: a finding in a known leak source carries its id and explanation"
	is "$(grep -c '"type":"finding".*"region":"physical"' "$TMP/ub.json")" 0 \
	    "$1: physical addresses are not reported by default"
	"$KLEAKSCAN" --json --physical "$2" >"$TMP/ubp.json"
	is "$?" 1 "$1: --physical: exit status 1 (the oops leaks)"
	is "$(python3 -c '
import json, sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] == "physical":
        c[e["rule"]] += 1
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' "$TMP/ubp.json")" \
	    "$5" \
	    "$1: --physical: the memory map, node, zone, ramdisk and CR3 values by source"
	like "$(grep -m1 '"region":"physical"' "$TMP/ubp.json")" "$6" \
	    "$1: --physical: the first e820 range start"
}
# Written: six e820 ranges, two RAM buffers, two node ranges, the
# initmem, NODE_DATA and RAMDISK ranges, two zones, CR3 and "PGD 0 P4D 0".
UB=$WRITTEN/x86_64-oops.dmesg
sources "${UB##*/}" "$UB" 37 26 \
    "e820-map=12 e820-ram-buffer=4 initmem-node=2 node-data=2 node-range=4 ramdisk=2 x86-cr3=1 x86-page-table=2 zone-range=4" \
    '"line":4,"column":34,.*"text":"0000000000000000".*"severity":"low".*"rule":"e820-map"'
if RUB=$(real x86_64-ubuntu-5.4-oops.dmesg); then
	sources "real: Ubuntu 5.4" "$RUB" 873 26 \
	    "e820-map=36 e820-ram-buffer=6 initmem-node=2 node-data=2 node-range=6 ramdisk=2 x86-cr3=10 x86-page-table=10 zone-range=4" \
	    '"line":11,"column":34,.*"text":"0000000000000000".*"severity":"low".*"rule":"e820-map"'
else
	skip "real: Ubuntu 5.4: leak sources and physical addresses" "no corpus"
fi
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
"$KLEAKSCAN" --json --physical "$UB" >"$TMP/ubp.json"
"$KLEAKSCAN" --json --physical --leak-sources "$TOPSRC/data/leak-sources" "$UB" >"$TMP/ubf.json"
ok "--leak-sources data/leak-sources: the same as the built-in copy" \
    cmp "$TMP/ubp.json" "$TMP/ubf.json"
printf 'id: x\nbogus: y\n' >"$TMP/bad.ls"
run --leak-sources "$TMP/bad.ls" "$UB"
is_status 2 "a bad --leak-sources file: exit status 2"
like "$ERR" "bad\\.ls:2: unknown key 'bogus'" "a bad --leak-sources file: the line named"

# --- Register dumps: a raw value and its symbol in one oops. -----------
# Written lines: a 4.4 x86_64 oops whose RIP: 0010:[<..>]  [<..>] line
# and frames name their symbols; the map places them 2 MiB lower.
cat >"$TMP/reg.log" <<'EOF'
[  301.118204] BUG: unable to handle kernel NULL pointer dereference at 0000000000000008
[  301.118276] IP: [<ffffffff8134a2d6>] ext4_da_write_end+0x56/0x330
[  301.118311] PGD 3b2f1067 PUD 3b2f0067 PMD 0 
[  301.118340] Oops: 0000 [#1] SMP 
[  301.118362] CPU: 1 PID: 2291 Comm: dd Not tainted 4.4.0-21-generic #37-Ubuntu
[  301.118401] task: ffff88003b9d1c00 ti: ffff88003a6c4000 task.ti: ffff88003a6c4000
[  301.118440] RIP: 0010:[<ffffffff8134a2d6>]  [<ffffffff8134a2d6>] ext4_da_write_end+0x56/0x330
[  301.118488] RSP: 0018:ffff88003a6c7c98  EFLAGS: 00010246
[  301.118520] Call Trace:
[  301.118540]  [<ffffffff8118c9b4>] generic_perform_write+0x114/0x1c0
[  301.118576]  [<ffffffff8118e862>] __generic_file_write_iter+0x1a2/0x1e0
EOF
printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff8114a280 T ext4_da_write_end' \
    'ffffffff80f8c8a0 T generic_perform_write' >"$TMP/reg.map"
"$KLEAKSCAN" --json --system-map "$TMP/reg.map" "$TMP/reg.log" >"$TMP/reg.json"
is "$(boots "$TMP/reg.json" | cut -d' ' -f3,4,8)" \
    "0x200000 0xffffffff81200000 frame@2,value@2,value@3,value@6,register@7,frame@10" \
    "x86: RIP: 0010:[<..>]  [<..>] ext4_da_write_end+0x56/0x330 is a register: a 2 MiB slide"
# syzkaller's arm, riscv and x86 reports with a map written for the rule
# (the real maps of those builds are not in the corpus).
if [ -d "$CORPUS/syzkaller" ]; then
	printf '%s\n' '80008000 T _text' '8054b718 T jffs2_parse_param' \
	    '8054b8a4 T jffs2_fill_super' >"$TMP/arm.map"
	"$KLEAKSCAN" --json --system-map "$TMP/arm.map" \
	    "$CORPUS/syzkaller/report/551" >"$TMP/reg.json"
	is "$(boots "$TMP/reg.json")" \
	    "0 1-73 0x0 0x80008000 None arm.map text,direct-map,kernel register@18,register@18,value@18,value@19,value@20" \
	    "arm: PC is at / LR is at and pc : [<..>] lr : [<..>] give slide 0"
	printf '%s\n' 'ffffffdfffe00000 T _text' \
	    'ffffffdfffe8c6f0 T schedule_tail' >"$TMP/rv.map"
	# 607 is a 5.11 kernel (riscv64-pre5.13, no KASLR): the rule is
	# tested on the profile with KASLR, then auto must find no slide.
	"$KLEAKSCAN" --json --arch riscv64 --system-map "$TMP/rv.map" \
	    "$CORPUS/syzkaller/report/607" >"$TMP/reg.json"
	is "$(boots "$TMP/reg.json" | cut -d' ' -f3,4,8)" \
	    "0x200000 0xffffffe000000000 register@11,register@11,value@11,value@11,frame@24" \
	    "riscv: epc : / ra : symbols, the raw epc ra line and a frame: a 2 MiB slide"
	"$KLEAKSCAN" --json --system-map "$TMP/rv.map" \
	    "$CORPUS/syzkaller/report/607" >"$TMP/reg.json"
	is "$(boots "$TMP/reg.json" | cut -d' ' -f3)" "0x0" \
	    "riscv: a 5.11 kernel (riscv64-pre5.13) has no KASLR: slide 0"
	printf '%s\n' 'ffffffff81000000 T _text' \
	    'ffffffff816112f0 T next_group' >"$TMP/x.map"
	"$KLEAKSCAN" --json --system-map "$TMP/x.map" \
	    "$CORPUS/syzkaller/guilty/15" >"$TMP/reg.json"
	is "$(boots "$TMP/reg.json" | cut -d' ' -f3,4,8)" \
	    "0x200000 0xffffffff81200000 value@4,register@9" \
	    "x86: RIP: 0010:[<..>]  [<..>] next_group+0x5a/0x2e0 is a register"
else
	skip "register dumps" "no $CORPUS/syzkaller"
fi
# The same shapes on lines written for the test, with maps written to
# match: an arm 5.10 oops (no KASLR: pc is ext4_fill_super+0x1c4 at the
# map's address, slide 0) and a riscv64 6.12 one whose epc, ra and
# frames sit 0x1a00000 above the map (kthread at ffffffff8004e1a0).
# regs JSON: slide, text base and the register and frame evidence.
regs() {
	boots "$1" | cut -d' ' -f3,4,8 |
	    sed 's/value@[0-9]*,//g; s/,value@[0-9]*//g'
}
cat >"$TMP/arm.log" <<'EOF'
[  812.331904] 8<--- cut here ---
[  812.332117] Unable to handle kernel NULL pointer dereference at virtual address 00000010
[  812.332541] Internal error: Oops: 17 [#1] SMP ARM
[  812.332760] Modules linked in:
[  812.332948] CPU: 1 PID: 4411 Comm: mount Not tainted 5.10.0-28-armmp #1 Debian 5.10.209-2
[  812.333302] Hardware name: Generic DT based system
[  812.333511] PC is at ext4_fill_super+0x1c4/0x2a10
[  812.333729] LR is at ext4_fill_super+0x1b0/0x2a10
[  812.333950] pc : [<c0312c04>]    lr : [<c0312bf0>]    psr: 60000013
[  812.334203] sp : c3a4bd58  ip : 00000000  fp : c3a4be2c
[  812.334431] r10: c2e51000  r9 : 00000000  r8 : c1f0a800
EOF
printf '%s\n' 'c0008000 T _text' 'c0312a40 T ext4_fill_super' \
    'c0315450 T ext4_mount' >"$TMP/arm.map"
"$KLEAKSCAN" --json --system-map "$TMP/arm.map" "$TMP/arm.log" >"$TMP/reg.json"
is "$(regs "$TMP/reg.json")" "0x0 0xc0008000 register@9,register@9" \
    "arm (written): PC is at / LR is at and pc : [<..>] lr : [<..>] give slide 0"
cat >"$TMP/rv.log" <<'EOF'
[    0.000000] Linux version 6.12.38+deb13-riscv64 (debian-kernel@lists.debian.org) (riscv64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0, GNU ld (GNU Binutils for Debian) 2.44) #1 SMP Debian 6.12.38-1 (2025-07-16)
[  301.604211] Unable to handle kernel NULL pointer dereference at virtual address 0000000000000018
[  301.604982] Oops [#1]
[  301.605455] CPU: 2 PID: 87 Comm: kworker/2:1 Not tainted 6.12.38+deb13-riscv64 #1 Debian 6.12.38-1
[  301.605990] Hardware name: riscv-virtio,qemu (DT)
[  301.606301] epc : kthread+0x9c/0x1d0
[  301.606544]  ra : kthread+0x94/0x1d0
[  301.606790] epc : ffffffff81a4e23c ra : ffffffff81a4e234 sp : ff20000000a3be80
[  301.607250]  gp : ffffffff82ac3a18 tp : ff60000001f4c600 t0 : 0000000000000000
[  301.607733] status: 0000000200000120 badaddr: 0000000000000018 cause: 000000000000000d
[  301.608201] [<ffffffff81a4e23c>] kthread+0x9c/0x1d0
[  301.608497] [<ffffffff81a03b6e>] ret_from_exception+0x0/0x16
EOF
printf '%s\n' 'ffffffff80000000 T _text' 'ffffffff80003b6e T ret_from_exception' \
    'ffffffff8004e1a0 T kthread' >"$TMP/rv.map"
"$KLEAKSCAN" --json --system-map "$TMP/rv.map" "$TMP/rv.log" >"$TMP/reg.json"
is "$(regs "$TMP/reg.json")" \
    "0x1a00000 0xffffffff81a00000 register@8,register@8,frame@11,frame@12" \
    "riscv64 (written): epc : / ra : symbols, the raw epc ra line and frames: slide 0x1a00000"

# --- KASLR state lines are layout findings. ----------------------------
# failed NAME LOG BOOT LINE TEXT: "KASLR disabled due to lack of seed" at
# LINE (TEXT the whole line) is a medium layout finding; BOOT the boot.
failed() {
	"$KLEAKSCAN" --json "$2" >"$TMP/op.json"
	is "$(boots "$TMP/op.json")" "$3" \
	    "$1: failed randomisation: evidence, no slide; ops pointers a kasld shape"
	is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] == "layout":
        print(e["line"], e["column"], e["severity"], e["text"], e["value"], e["rule"])
    if e["type"] == "boot":
        print(e["kaslr_off"], e["kaslr_failed"], e["entropy_bits"])
' "$TMP/op.json")" "$4 22 medium disabled 0x0 kaslr-failed
False True 9" \
	    "$1: KASLR disabled due to lack of seed: a medium layout finding"
	run --redact --restrict=4 "$2"
	is "$(printf '%s\n' "$OUT" | sed -n "$4p")" "$5" \
	    "$1: --restrict=4 leaves the state words alone"
}
failed arm64-boot.dmesg "$WRITTEN/arm64-boot.dmesg" \
    "0 1-19 None 0xffffffc010f20000 5.10.160-rockchip None text,physical memory-map@4,kaslr-failed@11,leak-source@14" \
    11 "[    0.032554] KASLR disabled due to lack of seed"
if OP=$(real arm64-orangepi5-5.10-boot.dmesg); then
	failed "real: Orange Pi 5" "$OP" \
	    "0 1-520 None 0xffffffc011080000 5.10.110+ None text,physical memory-map@7,kaslr-failed@133,leak-source@507" \
	    133 "[    2.222565] KASLR disabled due to lack of seed"
else
	skip "real: Orange Pi 5: failed randomisation" "no corpus"
fi

# --- Bases the kernel printed. -----------------------------------------
# bases NAME LOG BOOT BASES: an arm layout dump gives the bases, exact.
bases() {
	"$KLEAKSCAN" --json "$2" >"$TMP/ak.json"
	is "$(boots "$TMP/ak.json" | cut -d' ' -f3,4,7,8)" "$3" \
	    "$1: arm layout dump: vmalloc, lowmem, modules and .text lines are bases"
	is "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot":
        b = e["bases"]
        print(b["text"], b["modules"], b["direct-map"], b["vmalloc"], e["text_base_exact"], e["entropy_bits"])
' "$TMP/ak.json")" "$4" "$1: arm layout dump: the bases as printed, exact"
}
bases arm-layout.dmesg "$WRITTEN/arm-layout.dmesg" \
    "0x0 0xc0008000 text,modules,direct-map,vmalloc,fixmap,kernel,physical value@7,value@16,layout-dump@18,value@18,layout-dump@19,layout-dump@20,value@20,layout-dump@21,memory-map@28" \
    "0xc0008000 0xbf000000 0xc0000000 0xc8800000 True 0"
if AK=$(real arm-anyka-3.4-layout.dmesg); then
	bases "real: anyka" "$AK" \
	    "0x0 0xc0008000 text,modules,direct-map,vmalloc,fixmap,kernel,physical value@10,value@24,layout-dump@26,value@26,layout-dump@27,layout-dump@28,value@28,layout-dump@29,memory-map@42" \
	    "0xc0008000 0xbf000000 0xc0000000 0xc3000000 True 0"
else
	skip "real: anyka: arm layout dump" "no corpus"
fi
# Written lines: a 4.4 x86_64 boot's "Freeing unused kernel memory:
# NK (a - b)" ranges, the init text and two direct-map pieces.
cat >"$TMP/freed.log" <<'EOF'
[    0.000000] Linux version 4.4.0-142-generic (buildd@lgw01-amd64-033) (gcc version 5.4.0 20160609 (Ubuntu 5.4.0-6ubuntu1~16.04.10) ) #168-Ubuntu SMP Wed Jan 16 21:00:45 UTC 2019 (Ubuntu 4.4.0-142.168-generic 4.4.167)
[    0.000000] BIOS-e820: [mem 0x0000000000000000-0x000000000009dfff] usable
[    0.000000] BIOS-e820: [mem 0x0000000000100000-0x000000007fffffff] usable
[    1.912420] Freeing unused kernel memory: 1492K (ffffffff81f41000 - ffffffff820b6000)
[    1.918003] Freeing unused kernel memory: 2004K (ffff88000180b000 - ffff880001a00000)
[    1.920114] Freeing unused kernel memory: 396K (ffff880001d9d000 - ffff880001e00000)
EOF
"$KLEAKSCAN" --json "$TMP/freed.log" >"$TMP/fr.json"
is "$(boots "$TMP/fr.json" | cut -d' ' -f3,4,7,8)" \
    "None 0xffffffff81e00000 text,direct-map,physical memory-map@2,freed-range@4,freed-range@5" \
    "x86_64 4.4 (written): Freeing ... (a - b) ranges give the text base's 2 MiB"
if [ -f "$CORPUS/boot/surface-book__dmesg.txt" ]; then
	"$KLEAKSCAN" --json "$CORPUS/boot/surface-book__dmesg.txt" >"$TMP/sb.json"
	is "$(boots "$TMP/sb.json" | cut -d' ' -f3,4,7,8)" \
	    "None 0xffffffff81e00000 text,direct-map,vmalloc,physical memory-map@21,value@66,freed-range@220,leak-source@286,freed-range@524,value@562" \
	    "x86_64 4.4: Freeing ... (a - b) ranges, an ACPI SSDT address, e820"
else
	skip "freed ranges" "no $CORPUS/boot"
fi
"$KLEAKSCAN" --json "$UB" >"$TMP/ubb.json"
is "$(boots "$TMP/ubb.json" | cut -d' ' -f7,8)" \
    "text,direct-map,vmalloc,physical memory-map@4,value@37,value@38,kernel-offset@74" \
    "the e820 map is memory-map evidence of the physical base"
if [ -n "$RUB" ]; then
	"$KLEAKSCAN" --json "$RUB" >"$TMP/ubb.json"
	is "$(boots "$TMP/ubb.json" | cut -d' ' -f7,8)" \
	    "direct-map,vmalloc,physical memory-map@11,value@873,value@877" \
	    "real: Ubuntu 5.4: the e820 map is memory-map evidence"
fi

done_testing
