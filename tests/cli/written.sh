#!/bin/sh
# written.sh - findings on the logs of tests/data: the QEMU boot of the
# project and the logs written for the tests (tests/data/written, see
# ATTRIBUTION), one per architecture and kind of leak.  The same kinds
# of facts on real logs of ../shared/corpus: tests/cli/corpus.sh.
#
# Candidate counts were checked against the hex runs of the width
# (sed 's/0x/ /g' FILE | grep -oE '[0-9a-fA-F]+' | awk 'length==16').

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"
. "$TOPSRC/tests/cli/facts.sh"

# x86_64: Debian 6.1 under QEMU with no_hash_pointers; the init script
# prints /proc/kallsyms lines (real leaks) and the panic prints
# "Kernel Offset: 0x4c00000 from 0xffffffff81000000" (the slide, which
# TRUTH.md confirms, against two link-time constants).
f=x86_64-qemu-6.1-no-hash-pointers.console
scan "$TESTDATA/$f"
is "$STATUS" 1 "$f: exit status"
is "$(q arch)" x86_64 "$f: detected arch"
is "$(q cands)" 123 "$f: 123 candidates in all"
exp="
	370:1:text 371:1:text 372:1:text 373:1:text 374:1:text 375:1:text
	376:1:text 377:1:text 378:1:text 379:1:text 830:33:layout"
is "$(q list x=830:48,830:105)" "$(norm "$exp")" \
    "$f: the ten kallsyms lines are text, the Kernel Offset value layout"
is "$(q at 372 1)" "text - ffffffff85c00000" "$f: 372:1 _text at its true address"
is "$(q field 372 1 unhashed)" true "$f: findings say hashing is off (line 22)"
is "$(q at 830 86)" "none mask ffffffff80000000" \
    "$f: 830:86 the relocation range start is a mask"
is "$(q sup err-ptr)" 6 "$f: 6 err-ptr look-alikes"
is "$(q sup mask)" 4 "$f: 4 mask look-alikes (830:86 and 830:105 the relocation range)"
is "$(q sup constant)" 1 "$f: 830:48 __START_KERNEL on the Kernel Offset line is a constant"
is "$(q pos l=830)" "830:33" \
    "$f: line 830 discloses the slide 0x4c00000, not the constants"
todo_is "$(q sup hashed)" 0 \
    "$f: nothing is a hashed %p in a no_hash_pointers boot" \
    "physical [mem ...] and e820 values are counted as hashed"

# ---------------------------------------------------------------------
# x86_64: a Debian 6.1 boot (e820 map, zones) and a NULL dereference in
# seq_read_iter: RSP/RBP/R14 a vmalloc'd stack, RBX and GS: the direct
# map; the panic repeats RSP and GS and prints the Kernel Offset.
f=x86_64-oops.dmesg
scan "$WRITTEN/$f"
basics "$f" 1 x86_64 8 72
exp="37:26:vmalloc 38:43:direct-map 40:21:vmalloc 42:43:vmalloc
	43:47:direct-map 71:26:vmalloc 72:47:direct-map 74:33:layout"
is "$(q list)" "$(norm "$exp")" "$f: the stack, the direct map, the slide"
is "$(q regions)" "direct-map=3 layout=1 vmalloc=4" "$f: summary regions"
is "$(q field 37 26 rule)" x86-rsp "$f: 37:26 by the leak source x86-rsp"
is "$(q at 61 21)" "none err-ptr ffffffffffffffda" \
    "$f: 61:21 the user RAX -ENOSYS is an error pointer"
is "$(q at 43 21)" "none not-kernel 00007f3a1c9d7740" \
    "$f: 43:21 FS: a user address"
is "$(q at 74 49)" "none constant ffffffff81000000" \
    "$f: 74:49 __START_KERNEL on the Kernel Offset line is a constant"
is "$(q sup mask)" 2 "$f: 2 masks (the relocation range)"
is "$(q sup null)" 16 "$f: 16 zero values"

# x86_64: a syzkaller-style report (header lines, a blank line) with
# 4.14-style [<ffffffff...>] frames: every frame is text; the user
# registers after RIP: 0033 are not.
f=x86_64-frames.report
scan "$WRITTEN/$f"
basics "$f" 1 x86_64 13 30
is "$(q pos)" "$(seq 10 22 | sed 's/$/:19/')" "$f: the 13 frames, no register"
is "$(q at 12 19)" "text - ffffffff8114e3e0" "$f: 12:19 a '?' frame is text too"
is "$(q at 25 21)" "none err-ptr ffffffffffffffda" "$f: 25:21 RAX -ENOSYS"

# ---------------------------------------------------------------------
# arm64: an oops with pc : / lr : / sp : and the x29..x0 dump; the panic
# prints the Kernel Offset.  48-bit VAs: ffff8000... vmalloc'd stack,
# ffff0000... the linear map.
f=arm64-oops.log
scan "$WRITTEN/$f"
basics "$f" 1 arm64 9 42
exp="21:29:vmalloc 22:29:vmalloc 23:29:direct-map 23:73:direct-map
	24:51:direct-map 24:73:direct-map 25:51:direct-map 28:73:vmalloc
	43:41:layout"
is "$(q list)" "$(norm "$exp")" "$f: sp, the stack and linear-map registers, the slide"
is "$(q at 12 47)" "none page-table 0800000046f3e003" \
    "$f: 12:47 a page-table entry is no address"
is "$(q at 43 59)" "none constant ffff800008000000" \
    "$f: 43:59 the arm64 KIMAGE_VADDR is a constant"
is "$(q sup null)" 22 "$f: 22 zero registers"

# arm64: a 5.10 boot on 39-bit VAs whose KASLR failed: a layout finding,
# and the rockchip-drm ops pointers are kernel text.
f=arm64-boot.dmesg
scan "$WRITTEN/$f"
basics "$f" 1 arm64-39 3 6
is "$(q list)" "$(norm "11:22:layout 14:74:text 16:75:text")" \
    "$f: KASLR disabled, two ops pointers"
is "$(q at 4 62)" "none hashed 000000007c000000" "$f: 4:62 a CMA base is no address"

# arm: a 3.4 boot printing its virtual memory layout.
f=arm-layout.dmesg
scan "$WRITTEN/$f"
basics "$f" 1 arm 14 25
is "$(q regions)" "fixmap=1 kernel=2 modules=1 text=10" "$f: summary regions"
is "$(q pos l=21,22,23,24 | paste -sd' ' -)" \
    "21:17 21:30 22:17 22:30 23:17 23:30 24:17 24:30" \
    "$f: both ends of .text, .init, .data and .bss"
is "$(q at 19 17)" "none mask c0000000" "$f: 19:17 PAGE_OFFSET is a mask"
is "$(q at 28 38)" "none not-kernel 403c8e68" "$f: 28:38 a physical address"

# ---------------------------------------------------------------------
# ppc64: an oops with NIP/LR, the GPR dump and [sp] [pc] frames.
f=ppc64-oops.log
scan "$WRITTEN/$f"
basics "$f" 1 ppc64 34 47
is "$(q regions)" "direct-map=16 text=18" "$f: summary regions"
is "$(q list l=7,8)" "$(norm "7:22:text 7:43:text 7:65:text 8:22:direct-map")" \
    "$f: NIP, LR and CTR are text, REGS the stack"
is "$(q list l=19)" "$(norm "19:17:direct-map 19:36:text")" \
    "$f: a frame: the stack pointer and the return address"
is "$(q at 9 22)" "none not-kernel 800000000280b033" "$f: 9:22 the MSR"
is "$(q at 30 31)" "none hash 5f3a1b2c7d8e9f40" "$f: 30:31 an end-trace id is a hash"

# ---------------------------------------------------------------------
# s390x: a WARNING posted in a mail: the PSW address, GPRS in its GiB,
# Krnl Code addresses and the call trace are kernel addresses; the PSW
# mask and heap-like GPRS are context only.
f=s390x-warn.eml
scan "$WRITTEN/$f"
basics "$f" 1 s390x 21 36
is "$(q at 18 47)" "kernel - 000000003c2d6f4a" "$f: 18:47 the Krnl PSW address"
is "$(q at 18 30)" "none context-only 0704c00180000000" "$f: 18:30 the PSW mask"
is "$(q pos l=30,31,32,33,34,35,36,37,38,40 | wc -l | tr -d ' ')" 10 \
    "$f: the ten call-trace frames"
is "$(q at 23 81)" "none context-only 0000038000ebfb88" \
    "$f: 23:81 a stack address outside the PSW's GiB is context only"

# ---------------------------------------------------------------------
# riscv64: a 6.6 boot with no leak; i386: a syslog with no hex at all.
f=riscv64-boot.dmesg
scan "$WRITTEN/$f"
basics "$f" 0 riscv64 0 8
is "$(q at 17 44)" "none err-ptr ffffffffffffffff" "$f: 17:44 a clocksource mask"
f=i386-syslog.log
scan "$WRITTEN/$f"
basics "$f" 0 x86_64 0 0

done_testing
