#!/bin/sh
# captured.sh - a captured system is one machine (issue 28): --live-root
# names its architecture and machine from all its files, takes its
# layout (a VMSPLIT's PAGE_OFFSET) from where kallsyms puts the image,
# reports its kallsyms _text (or _stext) as the text base, and makes a
# finding of every kernel address of its kallsyms.
#
# Self-contained sysroots written here (lines of the shapes real systems
# print: /proc/version, /proc/cpuinfo, kallsyms), the systems captured
# by the project's own QEMU boots, then the captured systems of
# ../shared/corpus/captured when they are there.
. "$(dirname "$0")/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}

# The live event and the kallsyms findings of --live-root DIR, one line:
# arch machine text_base page_offset kallsyms-findings regions
live_line() {
	"$KLEAKSCAN" --live-root "$1" --json 2>/dev/null | python3 -c '
import json, sys
n, regions, live = 0, set(), None
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "live":
        live = e
    elif e["type"] == "finding" and e["path"].endswith("/proc/kallsyms"):
        n += 1
        regions.add(e["region"])
print(live["arch"], live["machine"], live["text_base"], live["page_offset"],
      n, ",".join(sorted(regions)) or "-")'
}

# sysroot NAME VERSION CPUINFO KALLSYMS: a minimal captured system.
sysroot() {
	d=$TMP/$1/sysroot
	mkdir -p "$d/proc/sys/kernel"
	printf '%s\n' "$2" >"$d/proc/version"
	printf '%b\n' "$3" >"$d/proc/cpuinfo"
	printf '%b\n' "$4" >"$d/proc/kallsyms"
	echo 0 >"$d/proc/sys/kernel/kptr_restrict"
	echo "$d"
}

d=$(sysroot i386 "Linux version 6.1.0-18-686-pae (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1" \
    'processor\t: 0\nvendor_id\t: GenuineIntel\naddress sizes\t: 36 bits physical, 32 bits virtual' \
    '00000000 A __per_cpu_start\nca000000 T _text\nca000000 T startup_32\nca9c1d50 T printk\ncb4a2000 D init_task\ncbd8c000 B _end')
is "$(live_line "$d")" "i386 i686 0xca000000 0xc0000000 5 text" \
    "i386 6.1 with KASLR: arch, machine, text base, PAGE_OFFSET, every symbol"

d=$(sysroot arm2g "Linux version 6.1.0 (syzkaller@host) (arm-linux-gnueabihf-gcc (Debian 12.2.0-14) 12.2.0) #1 SMP" \
    'processor\t: 0\nmodel name\t: ARMv7 Processor rev 1 (v7l)\nCPU architecture: 7' \
    '80008000 T _text\n80100000 T _stext\n8054b718 T jffs2_parse_param\n82715620 t dump_backtrace\n7f001000 t foo_probe\t[foo]')
is "$(live_line "$d")" "arm armv7l 0x80008000 0x80000000 5 modules,text" \
    "arm with the 2G split: PAGE_OFFSET 0x80000000 from _text, modules below"

d=$(sysroot loong "Linux version 6.18.33-0-lts (buildozer@build-3-23-loongarch64) (cc (Alpine 15.2.0) 15.2.0, GNU ld (GNU Binutils) 2.45.1) #1-Alpine SMP PREEMPT_DYNAMIC" \
    'system type\t\t: generic-loongson-machine\nprocessor\t\t: 0\nCPU Family\t\t: Loongson-64bit\nAddress Sizes\t\t: 48 bits physical, 48 bits virtual' \
    '90000000022f0000 T _text\n90000000022f0000 T _stext\n9000000003a61000 D _etext\nffff800002004000 t foo_init\t[foo]')
is "$(live_line "$d")" "loongarch64 loongarch64 0x90000000022f0000 None 4 modules,text" \
    "loongarch64: the DMW1 image, a module in XKVRANGE"

d=$(sysroot ppc64 "Linux version 6.12.94+deb13-powerpc64le (debian-kernel@lists.debian.org) (powerpc64le-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0) #1 SMP Debian 6.12.94-1" \
    'processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\nplatform\t: pSeries' \
    'c000000000000000 T _stext\nc000000000000000 T _text\nc000000001009000 D _etext')
is "$(live_line "$d")" "ppc64 ppc64le 0xc000000000000000 None 3 text" \
    "ppc64: _text at PAGE_OFFSET is an address in kallsyms, not a mask"

d=$(sysroot arm64 "Linux version 6.12.74+deb13-arm64 (debian-kernel@lists.debian.org) (aarch64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0) #1 SMP Debian 6.12.74-2" \
    'processor\t: 0\nFeatures\t: fp asimd evtstrm\nCPU architecture: 8' \
    'ffff800080000000 T _text\nffff800080010000 T _stext\nffff800081a60000 D _etext')
is "$(live_line "$d")" "arm64 aarch64 0xffff800080000000 None 3 text" \
    "arm64 6.12 without KASLR: the image at ffff800080000000"

d=$(sysroot rv32 "Linux version 6.6.0 (user@host) (riscv32-unknown-linux-gnu-gcc 13.2.0) #1" \
    'processor\t: 0\nisa\t\t: rv32imacu\nmmu\t\t: sv32' \
    'c0000000 T _start\nc0001000 T _stext\nc0600000 D _etext\na1000000 t foo_init\t[foo]')
is "$(live_line "$d")" "riscv32 riscv32 0xc0001000 None 4 modules,text" \
    "riscv32: the sv32 profile, _stext as the text base"

d=$(sysroot mips32 "Linux version 6.15.6 (builder@host) (mips-unknown-linux-musl-gcc 15.2.0) #1 SMP" \
    'system type\t\t: MIPS Malta\nprocessor\t\t: 0\ncpu model\t\t: MIPS 24Kc V0.0  FPU V0.0' \
    '80100400 T _stext\n808c86f0 T _etext\nc0012000 t foo_init\t[foo]')
is "$(live_line "$d")" "mips32 mips 0x80100400 None 3 modules,text" \
    "mips32: KSEG0 image, a module in KSEG2"

d=$(sysroot s390 "Linux version 6.12.94+deb13-s390x (debian-kernel@lists.debian.org) (s390x-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0) #1 SMP" \
    'vendor_id       : IBM/S390\n# processors    : 1' \
    '0000000000039000 A __per_cpu_end\n000003fffe900000 T _stext\n000003fffe900000 T _text\n000003ffff4d6000 T _etext')
is "$(live_line "$d")" "s390x s390x 0x3fffe900000 None 3 kernel" \
    "s390x: context decides kallsyms, not a per-CPU offset"

# No evidence at all: no arch, and the kallsyms lines are still findings.
d=$(sysroot none "" "" 'ffffffff81000000 T _text\nffffffff81000000 T startup_64')
is "$(live_line "$d")" "x86_64 x86_64 0xffffffff81000000 None 2 text" \
    "kallsyms alone: startup_64 names x86_64"

# The captured systems of the project's own QEMU boots (tests/qemu/boots):
# the architecture the boot's TRUTH names, the text base its runtime
# _text or _stext, every kallsyms address but per-CPU offsets a finding.
n=0
for b in $(ls "$OWN_BOOTS"); do
	d=$(own_boot "$b") || continue
	n=$((n + 1))
	set -- $(live_line "$d/root")
	case $(truth "$d" arch) in
	powerpc) want=ppc64 ;;
	s390) want=s390x ;;
	mips) want=mips64 ;;
	*) want=$(truth "$d" arch) ;;
	esac
	is "$1" "$want" "own $b: arch $want (TRUTH: $(truth "$d" arch))"
	rt=$(truth "$d" runtime_text)
	is "$3" "$(printf '0x%x' "$rt")" \
	    "own $b: the text base is TRUTH's runtime $(truth "$d" text_symbol) ($rt)"
	# Per-CPU offsets are the absolute (A) symbols here: s390x's image
	# sits at 0x100000, under the corpus test's zero-prefix rule.
	k=$d/root/proc/kallsyms
	is "$5" "$(awk '$2 != "A" && $2 != "a"' "$k" | wc -l | tr -d ' ')" \
	    "own $b: every kallsyms address but the per-CPU (A) ones a finding"
done
[ "$n" -gt 0 ] || skip "own captured systems" "no boots in $OWN_BOOTS or no xz"

# The captured systems of the shared corpus (kasld's fixtures).
if [ -d "$CORPUS/captured" ]; then
	for m in "$CORPUS"/captured/*/*/meta.txt; do
		dir=${m%/meta.txt}
		name=${dir#"$CORPUS"/captured/}
		canon=$(sed -n 's/^arch_canonical: *//p' "$m")
		set -- $(live_line "$dir/sysroot")
		case $canon in
		x86_32) want=i386 ;;
		arm32) want=arm ;;
		s390) want=s390x ;;
		*) want=$canon ;;
		esac
		case $1 in
		"$want"*) pass "$name: arch $1 ($canon)" ;;
		*) fail "$name: arch $1, want $canon" ;;
		esac
		k=$dir/sysroot/proc/kallsyms
		if [ -f "$k" ] && grep -q '^[0-9a-f]* [TtDdBbRr] _s*text$' "$k"; then
			t=$(awk '$3 == "_text" { print $1; exit }' "$k")
			[ -n "$t" ] || t=$(awk '$3 == "_stext" { print $1; exit }' "$k")
			is "$3" "$(printf '0x%x' "0x$t")" "$name: the text base is kallsyms' $t"
			# Every address that is no per-CPU offset is a finding.
			n=$(awk '$1 !~ /^0000000000/ && $1 !~ /^0+$/' "$k" | wc -l | tr -d ' ')
			is "$5" "$n" "$name: every kallsyms address a finding"
		fi
	done
else
	skip "the captured systems" "no $CORPUS/captured"
fi

done_testing
