#!/bin/sh
# corpus.sh - findings on real logs of ../shared/corpus (read there by
# tests/cli/tap.sh's real; skipped when the corpus is absent).  The same
# kinds of facts on logs written for the tests: tests/cli/written.sh.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"
. "$TOPSRC/tests/cli/facts.sh"

if ! [ -d "$REAL_CORPUS" ]; then
	echo "1..0 # SKIP no corpus at $REAL_CORPUS"
	exit 0
fi


# ---------------------------------------------------------------------
# x86_64: Ubuntu 5.4 FIPS boot with nine oopses in urandom_read.
# CONFIG_RANDOMIZE_MEMORY puts the vmalloc'd stacks (ffffa667...) and
# the direct map (ffff993f..., GS: per-CPU base) inside one shared span.
f=x86_64-ubuntu-5.4-oops.dmesg
scan "$(real "$f")"
basics "$f" 1 x86_64 46 395
exp="
	873:26:vmalloc 876:21:vmalloc 877:21:direct-map 878:43:vmalloc
	879:47:direct-map 901:26:vmalloc 904:21:vmalloc 905:21:direct-map
	906:43:vmalloc 907:47:direct-map 919:26:vmalloc 922:21:vmalloc
	924:43:vmalloc 925:47:direct-map 946:26:vmalloc 949:21:vmalloc
	950:21:direct-map 951:43:vmalloc 953:47:direct-map 971:26:vmalloc
	974:21:vmalloc 976:43:vmalloc 977:47:direct-map 997:26:vmalloc
	1000:21:vmalloc 1001:21:direct-map 1002:43:vmalloc 1003:47:direct-map
	1015:26:vmalloc 1018:21:vmalloc 1020:43:vmalloc 1021:47:direct-map
	1041:26:vmalloc 1044:21:vmalloc 1045:21:direct-map 1046:43:vmalloc
	1047:47:direct-map 1078:26:vmalloc 1081:21:vmalloc 1083:43:vmalloc
	1084:47:direct-map 1104:26:vmalloc 1107:21:vmalloc 1108:21:direct-map
	1109:43:vmalloc 1110:47:direct-map"
is "$(q list)" "$(norm "$exp")" "$f: RSP/RBP/R14 vmalloc, R10/GS direct-map"
is "$(q regions)" "direct-map=16 vmalloc=30" "$f: summary regions"
is "$(q at 873 26)" "vmalloc - ffffa667c016fe48" \
    "$f: 873:26 RSP: 0018:ffffa667c016fe48 is a vmalloc'd stack"
is "$(q field 873 26 rule)" x86-rsp "$f: 873:26 by the leak source x86-rsp"
is "$(q at 879 47)" "direct-map - ffff993fa4e00000" \
    "$f: 879:47 GS:ffff993fa4e00000 is direct-map"
is "$(q field 879 47 rule)" x86-gs-base "$f: 879:47 by the leak source x86-gs-base"
is "$(q at 877 21)" "direct-map - ffff993fa4e1c848" \
    "$f: 877:21 R10 in the GS base's GiB is direct-map"
is "$(q at 878 43)" "vmalloc - ffffa667c016fe68" \
    "$f: 878:43 R14 in the stack's GiB is vmalloc"
is "$(q at 891 21)" "none err-ptr ffffffffffffffda" \
    "$f: 891:21 RAX ffffffffffffffda (-ENOSYS) is err-ptr"
is "$(q at 891 43)" "none err-ptr ffffffffffffffff" \
    "$f: 891:43 RBX ffffffffffffffff is err-ptr"
is "$(q at 894 21)" "none not-kernel 1999999999999999" \
    "$f: 894:21 R10 1999999999999999 is not a kernel address"
is "$(q at 890 26)" "none not-kernel 00007ffc94663748" \
    "$f: 890:26 the user RSP is not-kernel"
is "$(q at 878 65)" "none not-kernel 0000000000000010" \
    "$f: 878:65 R15 0000000000000010 is a %lx register, not hashed"
is "$(q at 898 31)" "none hash 43ef301ad4cafb21" \
    "$f: 898:31 the end-trace id is a hash"
is "$(q sup err-ptr)" 8 "$f: 8 err-ptr look-alikes"
is "$(q sup null)" 80 "$f: 80 NULL look-alikes"
todo_is "$(q at 11 53)" "none not-kernel 000000000009ebff" \
    "$f: 11:53 a BIOS-e820 [mem ...] physical address is not-kernel" \
    "reported as hashed: a %#018Lx physical range is not a hashed %p"

# x86_64: syzkaller 4.15 report with old "[<ffffffff...>] sym+off/size"
# frames and a user-mode register dump.
f=x86_64-syzkaller-4.15-frames.report
scan "$(real "$f")"
basics "$f" 1 x86_64 16 33
exp="
	13:19:text 14:19:text 15:19:text 16:19:text 17:19:text 18:19:text
	19:19:text 20:19:text 21:19:text 22:19:text 23:19:text 24:19:text
	25:19:text 26:19:text 27:19:text 28:19:text"
is "$(q list)" "$(norm "$exp")" "$f: the 16 call-trace frames are text"
is "$(q at 13 19)" "text - ffffffff842799f2" "$f: 13:19 dump_stack frame"
is "$(q field 13 19 rule)" bracket-trace "$f: 13:19 by the leak source bracket-trace"
is "$(q at 30 26)" "none not-kernel 00007f4762c25ba0" \
    "$f: 30:26 the user RSP is not-kernel"
is "$(q at 35 65)" "none not-kernel 00000000ffffffff" \
    "$f: 35:65 R15 00000000ffffffff is a register, not hashed"
# ---------------------------------------------------------------------
# arm64: Orange Pi 5, vendor 5.10 kernel, 39-bit VAs.  Boot part: the
# rockchip-drm "bound ... (ops 0x...)" lines print component ops, const
# data of the built-in driver, in the kernel image (5.10: modules end at
# ffffffc010000000 where the image starts).  Line 133 "KASLR disabled
# due to lack of seed" is a layout finding: the same place every boot.
f=arm64-orangepi5-5.10-boot.dmesg
scan "$(real "$f")"
basics "$f" 1 arm64-39 4 48
is "$(q pos)" "$(norm "133:22 507:74 509:75 510:73")" \
    "$f: the KASLR state and the three ops pointers"
is "$(q at 133 22 | cut -d' ' -f1,2)" "layout -" \
    "$f: 133:22 KASLR disabled due to lack of seed is layout"
is "$(q field 133 22 rule)" kaslr-failed "$f: 133:22 by the rule kaslr-failed"
is "$(q at 507 74 | cut -d' ' -f2-)" "- ffffffc01108a1f0" \
    "$f: 507:74 (ops 0xffffffc01108a1f0) is a finding"
todo_is "$(q list)" "$(norm "133:22:layout 507:74:text 509:75:text 510:73:text")" \
    "$f: ops pointers of a built-in driver are kernel image (text)" \
    "labelled modules: v5.10 modules end at ffffffc010000000"

# arm64: the same boot's oops in drm_setversion (lines 1280-1802).
f=arm64-orangepi5-5.10-oops.dmesg
scan "$(real "$f")"
basics "$f" 1 arm64-39 26 52
exp="
	19:21:vmalloc 20:21:vmalloc 20:43:vmalloc 22:43:direct-map
	23:21:direct-map 23:43:vmalloc 24:43:vmalloc 25:21:direct-map
	30:21:vmalloc 31:43:vmalloc 32:21:vmalloc 33:43:direct-map
	115:22:vmalloc 149:22:direct-map 183:22:vmalloc 217:22:vmalloc
	251:22:vmalloc 285:23:direct-map 319:23:vmalloc 353:23:vmalloc
	387:23:direct-map 421:23:direct-map 455:23:vmalloc 489:23:vmalloc"
is "$(q list x=47:22,81:22)" "$(norm "$exp")" \
    "$f: sp/x29/x28 stack vmalloc, x19/x23/x24/x2 direct-map"
is "$(q pos l=47,81)" "$(norm "47:22 81:22")" "$f: the PC: and LR: dump labels"
is "$(q at 19 21)" "vmalloc - ffffffc01400bc40" "$f: 19:21 sp : is a vmapped stack"
is "$(q at 33 43)" "direct-map - ffffff8103a78f40" "$f: 33:43 x2 is linear map"
todo_is "$(q list l=47,81)" "$(norm "47:22:text 81:22:text")" \
    "$f: PC/LR of built-in drm_setversion are kernel text" \
    "labelled modules; pc : drm_setversion+0x80/0x18c has no [module]"

# arm64: RG353V serial capture, 6.4 mainline: CRLF, NUL bytes, U-Boot
# output first; no raw kernel address anywhere.
f=arm64-rg353v-6.4-console.log
scan "$(real "$f")"
basics "$f" 0 arm64 0 19
is "$(q at 128 47)" "none hashed 00000000fe660000" \
    "$f: 128:47 the earlycon MMIO address is a look-alike"
is "$(q at 218 92)" "none not-kernel 6370867519511994" \
    "$f: 218:92 a decimal max_idle_ns is not-kernel"
run "$(real "$f")"
is "$OUT" "" "$f: text output is empty"

# arm64: syzkaller 6.1 paging request in simple_xattr_alloc (GCE, no
# KASLR: "Kernel Offset: disabled", a layout finding of its own).
f=arm64-syzkaller-6.1-oops.report
scan "$(real "$f")"
basics "$f" 1 arm64 13 39
exp="
	35:29:vmalloc 36:29:vmalloc 38:30:direct-map 38:52:vmalloc
	39:29:vmalloc 39:73:vmalloc 41:51:direct-map 42:51:vmalloc
	42:73:direct-map 43:73:direct-map 45:51:vmalloc 47:73:vmemmap
	71:39:layout"
is "$(q list)" "$(norm "$exp")" \
    "$f: stack/image vmalloc, slab direct-map, page vmemmap, KASLR off"
is "$(q at 35 29)" "vmalloc - ffff80000fee3890" "$f: 35:29 sp : is a vmapped stack"
is "$(q field 35 29 rule)" arm64-sp "$f: 35:29 by the leak source arm64-sp"
is "$(q at 47 73)" "vmemmap - fffffc00032c8dc0" "$f: 47:73 x0 is a struct page"
is "$(q at 6 82)" "none not-kernel 00616161616161a1" \
    "$f: 6:82 the faulting address 00616161616161a1 is not kernel"
is "$(q at 40 51)" "none not-kernel 6161616161616161" \
    "$f: 40:51 x22 6161616161616161 (ASCII) is not kernel"

# ---------------------------------------------------------------------
# arm: Anyka camera, 3.4.35 with its "Virtual kernel memory layout"
# banner: lowmem c0000000-c2800000 (image .text c0008000-c0379000, .bss
# ends c03d4d1c), vmalloc c3000000-ff000000, modules bf000000-c0000000.
f=arm-anyka-3.4-layout.dmesg
scan "$(real "$f")"
basics "$f" 1 arm 23 58
exp="
	10:36 10:59 24:30 26:17 27:30 28:17 29:17 29:30 30:17 30:30
	31:17 31:30 32:17 32:30 314:17 315:17 316:17 318:53 318:90 351:24
	359:25 385:24 440:20"
is "$(q pos)" "$(norm "$exp")" "$f: the 23 kernel addresses"
exp="
	10:36:text 24:30:fixmap 26:17:kernel 27:30:kernel 28:17:modules
	29:17:text 29:30:text 30:17:text 30:30:text 31:17:text 31:30:text
	32:17:text 32:30:text 314:17:fixmap 315:17:fixmap 316:17:fixmap
	318:53:fixmap 318:90:kernel 440:20:modules"
is "$(q list x=10:59,351:24,359:25,385:24)" "$(norm "$exp")" \
    "$f: layout banner and pointers by region"
is "$(q at 10 36)" "text - c03b64d8" "$f: 10:36 pgdat in .data"
is "$(q at 24 17)" "none mask ffff0000" "$f: 24:17 the vector page base is a mask"
is "$(q at 361 21)" "none mask c0000000" "$f: 361:21 the ALSA boundary is a mask"
is "$(q at 42 38)" "none not-kernel 81ab7810" \
    "$f: 42:38 the identity map is physical"
is "$(q sup mask)" 7 "$f: 7 mask look-alikes"
todo_is "$(q list l=10,351,359,385 x=10:36)" \
    "$(norm "10:59:direct-map 351:24:direct-map 359:25:direct-map 385:24:direct-map")" \
    "$f: node_mem_map and the ALSA buffers lie in lowmem past .bss" \
    "labelled text: the log's own layout banner puts c03d5000-c2800000 in lowmem, not the image"

# arm: syzkaller 6.3 on ARM-Versatile Express with a 2G/2G split: the
# symbolised frames "[<817b2528>] (dump_backtrace) from" put the kernel
# text at 0x80200000-0x81800000, so PAGE_OFFSET is 0x80000000.
f=arm-syzkaller-6.3-vmsplit2g.report
exp="
	12:3:text 12:38:text 13:5:text 13:17:kernel 13:41:text 14:3:text
	14:34:text 15:3:text 15:34:text 16:3:text 16:38:text 17:17:kernel
	18:3:text 18:34:text 19:3:text 19:29:text 20:5:kernel 20:29:text
	20:41:text 21:5:text 22:3:text 22:43:text 23:3:text 23:30:text
	24:29:text 24:41:kernel 24:53:kernel 25:3:text 25:41:text
	26:18:kernel 26:30:kernel 26:42:kernel 28:3:text 28:44:text
	29:18:kernel 29:30:kernel 29:66:kernel 31:3:text 31:36:text
	32:3:text 32:35:text 33:3:text 33:35:text 34:5:kernel 34:17:kernel
	35:3:text 35:38:text 36:5:text 36:41:text 36:53:kernel 37:3:text
	37:40:text 38:3:text 38:40:text 40:3:text 40:38:text
	41:19:direct-map"
scan "$(real "$f")" --page-offset 0x80000000
basics "$f (--page-offset 0x80000000)" 1 arm 58 95
is "$(q list x=41:33)" "$(norm "$exp")" \
    "$f (--page-offset 0x80000000): frames text, registers kernel"
is "$(q at 13 29)" "none not-kernel 60000093" \
    "$f: 13:29 r5 60000093 (a CPSR) is not kernel"
todo_is "$(q at 41 33)" "direct-map - df981ff0" \
    "$f: 41:33 the end of the exception stack is in the same region" \
    "Exception stack(0xdf981fa8 to 0xdf981ff0): first end direct-map, second kernel"
exp_auto=$(q pos)
scan "$(real "$f")"
is "$STATUS" 1 "$f: exit status"
is "$(q arch)" arm "$f: detected arch"
is "$(q cands)" 95 "$f: 95 candidates in all"
is "$(q pos)" "$exp_auto" \
    "$f: auto finds the 58 kernel addresses without --page-offset (the split from its frames)"

# ---------------------------------------------------------------------
# ppc64: syzkaller 5.4 pSeries (MMU=Hash) oops.
f=ppc64-syzkaller-5.4-oops.report
scan "$(real "$f")"
basics "$f" 1 ppc64 45 64
exp="
	8:33:text 14:7:text 14:28:text 15:7:direct-map 17:7:text 18:8:text
	18:25:direct-map 18:42:text 20:25:direct-map 20:42:direct-map
	21:25:text 21:42:text 21:59:direct-map 22:8:text 22:25:text
	22:59:text 23:8:text 23:59:direct-map 24:8:text 24:25:text
	24:59:direct-map 25:25:direct-map 26:6:text 27:5:text 28:5:text
	30:2:direct-map 30:21:text 31:2:direct-map 31:21:text
	32:2:direct-map 32:21:text 33:2:direct-map 33:21:text
	34:2:direct-map 34:21:text 35:2:direct-map 35:21:text
	36:2:direct-map 36:21:text 37:2:direct-map 37:21:text
	38:2:direct-map 38:21:text 39:2:direct-map 39:21:text"
is "$(q list)" "$(norm "$exp")" "$f: NIP/LR/frames text, stack and GPRs by value"
is "$(q at 8 33)" "text - c00000000022d79c" "$f: 8:33 the faulting instruction"
is "$(q at 30 2)" "direct-map - c00000007a3efa20" "$f: 30:2 a stack frame pointer"
is "$(q at 7 47)" "none not-kernel 8000000041a25f20" \
    "$f: 7:47 the bad data address is not kernel"
is "$(q at 43 16)" "none hash ecc3a767a3dac4b3" "$f: 43:16 the end-trace id is a hash"

# ppc64: linuxppc-dev mail, an e6500 (Book3E) 5.12 WARNING with NIP/LR
# and a call trace, unquoted.
f=ppc64-linuxppc-dev-5.12-e6500-warn.eml
scan "$(real "$f")"
basics "$f" 1 ppc64 29 47
exp="
	17:7:text 17:28:text 18:7:direct-map 21:8:text 21:25:direct-map
	21:42:text 21:59:direct-map 24:25:direct-map 24:42:direct-map
	24:59:text 25:42:text 26:25:text 26:42:text 26:59:text 27:8:text
	27:25:text 27:42:text 27:59:text 28:59:direct-map 29:6:text 30:5:text
	32:2:direct-map 32:21:text 33:2:direct-map 33:21:text
	34:2:direct-map 34:21:text 35:2:direct-map 35:21:text"
is "$(q list)" "$(norm "$exp")" "$f: NIP/LR/GPR/frames"
is "$(q at 17 7)" "text - c000000000003ec0" "$f: 17:7 NIP"

# ppc64: linuxppc-dev mail quoting a PowerNV 5.5 oops as syslog lines
# ("> kernel: NIP:  c0000000002f9c70 LR: ...").
f=ppc64-linuxppc-dev-5.5-quoted-syslog.eml
exp="
	35:43:text 49:17:text 49:38:text 49:60:text 50:17:direct-map
	52:17:text 52:56:text 53:3:direct-map 53:20:text 54:20:direct-map
	55:31:text 56:3:vmalloc 56:31:text 56:48:direct-map 60:31:text
	61:31:text 61:48:direct-map 62:20:direct-map 63:16:text 64:15:text
	66:12:direct-map 66:31:text 67:12:direct-map 67:31:text
	68:12:direct-map 68:31:text 69:12:direct-map 69:31:text
	70:12:direct-map 70:31:modules 71:12:direct-map 71:31:modules
	72:12:direct-map 72:31:modules 73:12:direct-map 73:31:text
	74:12:direct-map 74:31:text 75:12:direct-map 75:31:text
	76:12:direct-map 76:31:text 77:12:direct-map 77:31:text
	78:12:direct-map 78:31:text 79:12:direct-map 79:31:modules
	80:12:direct-map 80:31:text 81:12:direct-map 81:31:text"
scan "$(real "$f")" --arch ppc64
basics "$f (--arch ppc64)" 1 ppc64 52 79
is "$(q list)" "$(norm "$exp")" "$f (--arch ppc64): NIP/LR/GPRs/frames, [mpt3sas] modules"
is "$(q at 70 31)" "modules - c00800000fb917b8" "$f: 70:31 a [mpt3sas] frame"
scan "$(real "$f")"
is "$(q cands)" 79 "$f: 79 candidates in all"
is "$(q arch)" ppc64 "$f: detected arch through the '> kernel: ' quoting"
is "$(q list)" "$(norm "$exp")" "$f: auto finds the 52 kernel addresses"
is "$STATUS" 1 "$f: exit status"

# ppc32: linuxppc-dev mail, an MPC8544 (e500v2) 6.11 WARNING.
f=ppc32-linuxppc-dev-6.11-e500-warn.eml
scan "$(real "$f")"
# 83 candidates: the header (Message-ID) of a mail is not scanned.
basics "$f" 1 ppc32 39 83
exp="
	35:7:text 35:20:text 36:7:kernel 38:8:text 38:17:kernel 38:26:kernel
	38:35:kernel 38:71:kernel 39:26:kernel 40:53:text 40:71:kernel
	41:8:text 41:17:text 41:26:text 42:6:text 43:5:text 45:2:direct-map
	46:2:direct-map 46:13:text 47:2:direct-map 47:13:text 48:2:direct-map
	48:13:text 49:2:direct-map 49:13:text 50:2:direct-map 50:13:text
	51:2:direct-map 51:13:text 52:2:direct-map 52:13:text 53:2:direct-map
	53:13:text 54:2:direct-map 54:13:text 57:37:text 58:37:text 59:35:text
	60:35:text"
is "$(q list)" "$(norm "$exp")" "$f: NIP/LR/frames text, stack lowmem"
is "$(q at 49 13)" "text - c2033ebc" "$f: 49:13 an __init frame above 32 MiB is text"
is "$(q at 3 14)" "" "$f: 3:14 the Message-ID header is not scanned"
is "$(q at 55 7)" "none hexdump 91220000" "$f: 55:7 the Code: dump"
is "$(q sup hexdump)" 16 "$f: the 16 Code: words are hexdump"

# ---------------------------------------------------------------------
# riscv64: Orange Pi RV2 (SpacemiT K1), 6.6 boot: no raw kernel address;
# two real hashed %p values.
f=riscv64-orangepi-rv2-6.6.dmesg
scan "$(real "$f")"
basics "$f" 0 riscv64 0 51
is "$(q at 377 40)" "none hashed 00000000f4c726a8" "$f: 377:40 a hashed %p"
is "$(q at 650 92)" "none hashed 00000000386d64af" "$f: 650:92 a hashed %p"
is "$(q at 650 66)" "none null 0000000000000000" "$f: 650:66 NULL"
is "$(q at 81 56)" "none err-ptr ffffffffffffffff" "$f: 81:56 the clocksource mask"

# riscv64: syzkaller 5.11 (qemu virt, KASAN), the pre-5.13 Sv39 layout:
# image and linear map at ffffffe000000000, KASAN shadow from
# ffffffc000000000.  "Not tainted 5.11.0-..." picks riscv64-pre5.13.
f=riscv64-syzkaller-5.11-oops.report
scan "$(real "$f")"
is "$STATUS" 1 "$f: exit status"
is "$(q arch)" riscv64-pre5.13 "$f: detected arch"
is "$(q cands)" 39 "$f: 39 candidates in all"
exp="
	11:30 11:52 11:74 12:30 12:52 13:74 15:52 16:74 17:52 17:74 18:52
	18:74 19:30 19:52 19:74 24:26 25:26"
is "$(q pos x=20:74,21:30)" "$(norm "$exp")" "$f: epc/ra/sp, registers, frames"
is "$(q at 11 74)" "direct-map - ffffffe00853fec0" "$f: 11:74 sp in the linear map"
is "$(q at 15 30)" "none not-kernel 1ffffffc0ffb0b00" \
    "$f: 15:30 a2 1ffffffc0ffb0b00 (a shadow offset) is not kernel"
is "$(q list l=11,24,25 x=11:74)" \
    "$(norm "11:30:text 11:52:text 24:26:text 25:26:text")" \
    "$f: epc/ra and the frames are kernel text"
is "$(q at 20 74)" "kasan-shadow - ffffffc404a90fb2" \
    "$f: 20:74 t4 is a KASAN shadow address"
is "$(q at 21 30)" "kasan-shadow - ffffffc404a90fba" \
    "$f: 21:30 t5 is a KASAN shadow address"
is "$(q at 12 30)" "text - ffffffe006c38208" \
    "$f: 12:30 gp (small data, +108 MiB) is in the image window"
is "$(q at 12 52)" "direct-map - ffffffe009bb16c0" \
    "$f: 12:52 tp (a task_struct above the image window) is linear map"
is "$(q count)" 19 "$f: 19 findings"
scan "$(real "$f")" --arch riscv64
is "$(q at 20 74)" "none hole ffffffc404a90fb2" \
    "$f: --arch riscv64 (the 5.13+ layout) has no row for t4"
scan "$(real "$f")" --arch riscv64-pre5.13
is "$(q count)" 19 "$f: --arch riscv64-pre5.13 gives the same 19 findings"

# ---------------------------------------------------------------------
# mips64: linux-mips mail, a Loongson-3 6.19 oops in init_idle.
f=mips64-linux-mips-6.19-loongson3.eml
scan "$(real "$f")"
basics "$f" 1 mips64 40 82
exp="
	36:105:text 36:129:text 42:24:text 42:41:text 43:41:text 43:58:text
	44:41:text 45:24:text 45:58:text 45:75:direct-map 46:41:text
	46:75:text 47:41:text 48:24:text 48:41:text 48:75:text 51:24:text
	52:24:text 58:24:direct-map 58:41:text 59:41:text 59:75:text
	60:41:direct-map 60:58:direct-map 60:75:text 61:24:text 61:41:text
	61:75:text 62:24:text 62:41:text 62:58:text 62:75:text 63:24:text
	63:41:text 65:58:text 67:41:text 67:58:text 70:18:text 71:18:text
	72:18:text"
is "$(q list)" "$(norm "$exp")" "$f: CKSEG0 text, XKPHYS direct-map"
is "$(q at 51 24)" "text - ffffffff81afada8" "$f: 51:24 epc"
is "$(q at 45 75)" "direct-map - 9800000005dfbe80" "$f: 45:75 an XKPHYS pointer"

# mips32: linux-mips mail, a 24KEc 5.9 oops (KSEG0 kernel at 0x80000000).
# The mips32 profile: KSEG0 values are kernel addresses.
f=mips32-linux-mips-5.9-24kec.eml
scan "$(real "$f")"
is "$(cat "$TMP/scan.err")" "" "$f: nothing on stderr"
is "$(q arch)" mips32 "$f: detected arch"
is "$STATUS" 1 "$f: exit status"
is "$(q pos l=12,25,26,40)" "$(norm "12:82 12:98 25:9 26:9 40:3")" \
    "$f: epc 801be4f0 and ra 80993778 are found"

# ---------------------------------------------------------------------
# s390x: linux-s390 mail, a 6.1 WARNING.  Context-only: no value rule
# (kernel addresses have the top 32 bits clear, like hashed %p), but the
# call trace "[<00000000b05ec33c>] sym+off/size" and the PSW address with
# its symbol are kernel text, and they anchor their GiB: the registers,
# the Krnl Code addresses and the lockdep locks in it are kernel's too.
f=s390x-linux-s390-6.1-warn.eml
frames="34:22 35:22 36:22 37:22 38:22 39:22 40:22 41:22 42:22 43:22 44:22
	45:22 46:22 47:22 48:22 49:22 50:22 56:22"
anchored="21:64 21:81 22:64 22:81 24:30 24:64 25:30 25:79 26:30 26:77 27:30
	28:30 28:82 29:30 30:30 30:82 31:30 31:82 32:30 52:24 53:24 54:24"
scan "$(real "$f")"
is "$(cat "$TMP/scan.err")" "" "$f: nothing on stderr"
is "$(q arch)" s390x "$f: detected arch"
is "$(q cands)" 52 "$f: 52 candidates in all"
is "$(q pos x=19:47,$(norm "$frames $anchored" | paste -sd, -))" "" \
    "$f: no finding outside the call trace, the PSW and their GiB"
is "$(q pos l=21,22,23,24)" "$(norm "21:64 21:81 22:64 22:81 24:30 24:64")" \
    "$f: the GPRS in the PSW's GiB, not 0x80000001 (flags) nor 0x38000000100"
is "$(q pos l=34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,56)" \
    "$(norm "$frames")" "$f: the 18 symbolised frames are findings"
is "$(q at 36 22)" "kernel - 000003ff7fbb81ce" "$f: 36:22 a [virtio_net] frame"
is "$(q at 19 47)" "kernel - 00000000b05ec33c" \
    "$f: 19:47 the Krnl PSW address (with its symbol) is a finding"
is "$(q at 19 30 | cut -d' ' -f2)" context-only \
    "$f: 19:30 the PSW mask is not an address"
is "$(q at 53 24 | cut -d' ' -f1)" kernel \
    "$f: 53:24 a lockdep %px address in the PSW's GiB, not hashed"

# ---------------------------------------------------------------------
# i386: loghub syslog of a Red Hat 2.6.5 (4G/4G split) box, lines
# 901-2000: sshd, ftpd, cups noise, then the kernel boot.
f=i386-loghub-2.6.5.syslog
scan "$(real "$f")"
is "$STATUS" 1 "$f: exit status (one real, fixed fixmap address)"
is "$(cat "$TMP/scan.err")" "" "$f: nothing on stderr"
is "$(q arch)" i386 "$f: detected arch"
is "$(q cands)" 10 "$f: 10 candidates in all"
is "$(q list x=10:118,12:118,14:118,16:118)" "1032:58:fixmap" \
    "$f: only the 4G/4G trampoline at ffff3000"
is "$(q at 1011 110)" "none not-kernel 20040412" "$f: 1011:110 a gcc date"
is "$(q at 1034 53)" "none not-kernel 02345000" \
    "$f: 1034:53 irqstacks below PAGE_OFFSET 0xc0000000"
todo_is "$(q pos l=10,12,14,16)" "" \
    "$f: rhost=c9063558.virtua.com.br is a host name, not an address" \
    "four sshd lines reported as text (a DNS label in a non-kernel message)"

done_testing
