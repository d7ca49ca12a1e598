#!/bin/bash
# make-boot.sh - boot one of Debian's own kernels under QEMU (TCG) with a
# busybox initramfs (init.sh) and write what the boot shows and its truth
# to tests/qemu/boots/VARIANT/ (see README.md).  Run as root: it installs
# QEMU and downloads Debian packages with apt-get.
#
#	make-boot.sh [-c CACHE] [-o OUTDIR] VARIANT...
#
# VARIANT: x86_64-kaslr x86_64-nokaslr x86_64-no-hash-pointers i386
# arm64 armhf ppc64el s390x mips64el armhf-vexpress-2g, or "all".
# armhf-vexpress-2g is no Debian image: a kernel built here from Debian's
# linux-source-6.1 with its arm cross compiler (vexpress_defconfig,
# VMSPLIT_2G), once, in CACHE/build (see build_vexpress).  CACHE
# (packages, extracted kernels and sources, builds, raw consoles) is
# /var/tmp/kl-boot-cache by default; OUTDIR is the boots/ directory
# beside this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=/var/tmp/kl-boot-cache
outdir=$here/boots
while getopts c:o: opt; do
	case $opt in
	c) cache=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
all="x86_64-kaslr x86_64-nokaslr x86_64-no-hash-pointers i386 arm64 armhf ppc64el s390x mips64el armhf-vexpress-2g"
if [ $# -eq 0 ]; then
	echo "usage: make-boot.sh [-c CACHE] [-o OUTDIR] VARIANT... (all: $all)" >&2
	exit 2
fi
[ "$1" = all ] && set -- $all

# variant VARIANT: sets debarch flavour qemupkg qemu (the machine) console
# (the kernel's console) extra (more kernel arguments) karch (the
# kernel's name for its architecture) build (a kernel built here from
# linux-source, not a Debian image: the build's name).
variant() {
	extra= build=
	case $1 in
	x86_64-*)
		debarch=amd64 flavour=amd64 karch=x86_64 qemupkg=qemu-system-x86
		# 4-level paging, as most machines; no_hash_pointers: 5-level.
		qemu="qemu-system-x86_64 -cpu max,la57=off" console=ttyS0
		case $1 in
		x86_64-kaslr) ;;
		x86_64-nokaslr) extra=nokaslr ;;
		x86_64-no-hash-pointers)
			qemu="qemu-system-x86_64 -cpu max" extra=no_hash_pointers ;;
		*) return 1 ;;
		esac ;;
	i386)
		debarch=i386 flavour=686-pae karch=i386 qemupkg=qemu-system-x86
		qemu="qemu-system-i386 -cpu max" console=ttyS0 ;;
	arm64)
		debarch=arm64 flavour=arm64 karch=arm64 qemupkg=qemu-system-arm
		qemu="qemu-system-aarch64 -M virt -cpu cortex-a57" console=ttyAMA0 ;;
	armhf)
		debarch=armhf flavour=armmp-lpae karch=arm qemupkg=qemu-system-arm
		qemu="qemu-system-arm -M virt -cpu cortex-a15" console=ttyAMA0 ;;
	armhf-vexpress-2g)
		debarch=armhf karch=arm qemupkg=qemu-system-arm build=vexpress-2g
		qemu="qemu-system-arm -M vexpress-a15 -cpu cortex-a15" console=ttyAMA0 ;;
	ppc64el)
		debarch=ppc64el flavour=powerpc64le karch=powerpc qemupkg=qemu-system-ppc
		qemu="qemu-system-ppc64 -M pseries" console=hvc0 ;;
	s390x)
		debarch=s390x flavour=s390x karch=s390 qemupkg=qemu-system-misc
		qemu="qemu-system-s390x -M s390-ccw-virtio -cpu max" console=ttysclp0 ;;
	mips64el)
		debarch=mips64el flavour=5kc-malta karch=mips qemupkg=qemu-system-mips
		qemu="qemu-system-mips64el -M malta -cpu 5KEc" console=ttyS0 ;;
	*) return 1 ;;
	esac
}

# deb PACKAGE:ARCH: the path of its .deb in the cache, downloaded once.
deb() {
	local name=${1%%:*} arch=${1##*:} f
	f=$(ls "$cache"/debs/"${name}"_*_"$arch".deb 2>/dev/null | tail -n 1)
	if [ -z "$f" ]; then
		(cd "$cache/debs" && apt-get download "$1" >&2)
		f=$(ls "$cache"/debs/"${name}"_*_"$arch".deb | tail -n 1)
	fi
	echo "$f"
}

# trim_syms NAMES FILE EVERY: the lines of a map or kallsyms FILE whose
# symbol is in NAMES (one a line), and every EVERY-th line besides.
trim_syms() {
	awk -v every="$3" 'NR == FNR { want[$1] = 1; next }
	    ($3 in want) || FNR % every == 0' "$1" "$2"
}

# build_vexpress: build (once) the kernel of armhf-vexpress-2g from
# Debian's linux-source-6.1 with Debian's arm cross compiler in
# CACHE/build/armhf-vexpress-2g: vexpress_defconfig, which has VMSPLIT_2G
# (PAGE_OFFSET 0x80000000) already, made sure of with what the boot
# needs, no debug info (faster; System.map does not need it) and crc7 as
# the module; zImage, the dtbs and the modules on two cores.  Sets rel,
# ver (linux-source's version), kernel, map, mod, dtb, gccver and
# page_offset (the build's CONFIG_PAGE_OFFSET).
build_vexpress() {
	local src=$cache/src/linux-source-6.1 b=$cache/build/armhf-vexpress-2g t0
	local mk="make -C $src O=$b ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-"
	command -v arm-linux-gnueabihf-gcc >/dev/null &&
	    [ -f /usr/src/linux-source-6.1.tar.xz ] ||
	    apt-get install -y gcc-arm-linux-gnueabihf bc bison flex \
	    libssl-dev make xz-utils linux-source-6.1 || return 1
	if [ ! -f "$src/Makefile" ]; then
		mkdir -p "$cache/src"
		tar -C "$cache/src" -xJf /usr/src/linux-source-6.1.tar.xz || return 1
	fi
	if [ ! -f "$b/build.done" ]; then
		mkdir -p "$b"
		$mk vexpress_defconfig >&2 || return 1
		"$src/scripts/config" --file "$b/.config" \
		    --disable VMSPLIT_3G --disable VMSPLIT_1G --enable VMSPLIT_2G \
		    --enable KALLSYMS_ALL --enable BLK_DEV_INITRD \
		    --enable RD_GZIP --enable MAGIC_SYSRQ --enable DEVTMPFS \
		    --enable PROC_FS --module CRC7 \
		    --disable DEBUG_INFO --enable DEBUG_INFO_NONE \
		    --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		    --set-str LOCALVERSION -vexpress-2g || return 1
		$mk olddefconfig >&2 || return 1
		grep -qx 'CONFIG_PAGE_OFFSET=0x80000000' "$b/.config" ||
		    { echo "vexpress-2g: no 2G split in $b/.config" >&2; return 1; }
		echo "vexpress-2g: building in $b (log: $b/build.log)" >&2
		t0=$(date +%s)
		nice -n 10 $mk -j2 zImage dtbs modules >"$b/build.log" 2>&1 ||
		    { echo "vexpress-2g: the build failed (see $b/build.log)" >&2; return 1; }
		echo "$(($(date +%s) - t0)) s" >"$b/build.done"
	fi
	echo "vexpress-2g: the build took $(cat "$b/build.done")" >&2
	rel=$($mk -s kernelrelease)
	ver=$(dpkg-query -W -f '${Version}' linux-source-6.1)
	gccver=$(arm-linux-gnueabihf-gcc --version | head -n 1)
	kernel=$b/arch/arm/boot/zImage
	map=$b/System.map
	mod=$b/lib/crc7.ko
	dtb=$b/arch/arm/boot/dts/vexpress-v2p-ca15-tc1.dtb
	page_offset=$(sed -n 's/^CONFIG_PAGE_OFFSET=//p' "$b/.config")
}

# kernel_deb: Debian's image of the variant's flavour, its System.map
# and its module, downloaded and extracted once.  Sets rel, ver, kernel,
# map and mod.
kernel_deb() {
	local kdeb dbg x
	# The release the flavour's metapackage depends on (6.1.0-N-FLAVOUR).
	rel=$(apt-cache depends "linux-image-$flavour:$debarch" |
	    sed -n 's/^ *Depends: linux-image-\(6\.1\.0-[0-9]*-[^:]*\).*/\1/p' | head -n 1)
	kdeb=$(deb "linux-image-$rel:$debarch")
	dbg=$(deb "linux-image-$rel-dbg:$debarch")
	ver=$(dpkg-deb -f "$kdeb" Version)
	x=$cache/x/$rel
	[ -d "$x" ] || dpkg-deb -x "$kdeb" "$x"
	map=$cache/maps/System.map-$rel
	# The real System.map is in the -dbg package (the image's is a stub).
	[ -s "$map" ] || dpkg-deb --fsys-tarfile "$dbg" |
	    tar -xO "./usr/lib/debug/boot/System.map-$rel" >"$map"
	kernel=$(ls "$x"/boot/vmlinu[xz]-"$rel" | head -n 1)
	mod=$x/lib/modules/$rel/kernel/lib/crc7.ko
}

boot() {
	local v=$1 rel bb kernel map w raw out ver bbver kv mod
	local dtb= gccver= page_offset= pkg
	variant "$v" || { echo "unknown variant $v" >&2; return 2; }
	mkdir -p "$cache/debs" "$cache/x" "$cache/maps" "$cache/raw"
	[ "$debarch" = amd64 ] || dpkg --print-foreign-architectures |
	    grep -qx "$debarch" || { dpkg --add-architecture "$debarch" && apt-get update; }
	command -v "${qemu%% *}" >/dev/null ||
	    apt-get install -y "$qemupkg" cpio xz-utils
	bb=$(deb "busybox-static:$debarch")
	bbver=$(dpkg-deb -f "$bb" Version)
	[ -d "$cache/x/busybox-$debarch" ] || dpkg-deb -x "$bb" "$cache/x/busybox-$debarch"
	if [ -n "$build" ]; then
		build_vexpress || return 1
		pkg=linux-source-6.1
	else
		kernel_deb || return 1
		pkg=linux-image-$rel
	fi

	w=$(mktemp -d)
	mkdir -p "$w/root/bin" "$w/root/proc" "$w/root/sys" "$w/root/dev"
	cp "$cache/x/busybox-$debarch/bin/busybox" "$w/root/bin/busybox"
	install -m 0755 "$here/init.sh" "$w/root/init"
	[ -f "$mod" ] && cp "$mod" "$w/root/m.ko"
	(cd "$w/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$w/initrd.gz"
	raw=$cache/raw/$v.console
	kv="console=$console panic=-1 oops=panic loglevel=7${extra:+ $extra}"
	echo "$v: booting $rel ($ver): $qemu ... -append \"$kv\"" >&2
	# s390x: the SCLP console is QEMU's standard output.
	timeout 900 $qemu -m 1024 -smp 1 -no-reboot ${dtb:+-dtb "$dtb"} \
	    -kernel "$kernel" -initrd "$w/initrd.gz" -append "$kv" \
	    -monitor none -display none -serial stdio </dev/null \
	    >"$raw" 2>"$raw.err" || true
	rm -rf "$w"
	grep -q '^=== KL-END dmesg' "$raw" ||
	    { echo "$v: the boot did not finish (see $raw)" >&2; return 1; }

	# Split the console: the sections, and the log without them.
	w=$(mktemp -d)
	tr -d '\r' <"$raw" | awk -v d="$w" '
	    /^=== KL-BEGIN / { f = d "/" $3; printf "" >f; next }
	    /^=== KL-END / { close(f); f = ""; next }
	    f != "" { print >f; next }
	    { print >(d "/console.log") }'
	# Serial consoles end lines with CR LF: the console log keeps them.
	awk 'BEGIN { ORS = "\r\n" } { print }' "$w/console.log" >"$w/console.crlf"
	mv "$w/console.crlf" "$w/console.log"

	# The truth: runtime _text (else _stext) minus the map's.
	local sym rt mt off names
	sym=_text
	grep -q ' _text$' "$w/kallsyms" || sym=_stext
	rt=0x$(awk -v s="$sym" '$3 == s { print $1; exit }' "$w/kallsyms")
	mt=0x$(awk -v s="$sym" '$3 == s { print $1; exit }' "$map")
	off=$(printf '%#x' $((rt - mt)))
	[ "$off" = 0 ] && off=0x0

	# The symbols the console and the log name, and the image's bounds.
	names=$w/names
	{
		printf '%s\n' _text _stext _etext _sdata _edata _end
		tr -d '\r' <"$w/console.log" | cat - "$w/dmesg" |
		    grep -oE '[A-Za-z_.$][A-Za-z0-9_.$]*\+0x[0-9a-f]+/0x' |
		    sed 's/+.*//'
	} | sort -u >"$names"

	out=$outdir/$v
	rm -rf "$out"
	mkdir -p "$out" "$w/sys/proc/sys/kernel" "$w/sys/sos_commands/kernel"
	# A spread of some 250 more symbols.
	every=$(($(wc -l <"$w/kallsyms") / 250 + 1))
	trim_syms "$names" "$w/kallsyms" "$every" >"$w/sys/proc/kallsyms"
	# Module lines ("name\t[mod]") have four fields: keep them all.
	awk 'NF == 4' "$w/kallsyms" >>"$w/sys/proc/kallsyms"
	trim_syms "$names" "$map" 50 >"$out/System.map-$rel"
	cp "$w/sys/proc/kallsyms" "$out/kallsyms"
	for f in version cmdline cpuinfo modules iomem; do
		cp "$w/$f" "$w/sys/proc/$f"
	done
	for f in kptr_restrict dmesg_restrict randomize_va_space; do
		cp "$w/$f" "$w/sys/proc/sys/kernel/$f"
	done
	cp "$w/dmesg" "$w/sys/sos_commands/kernel/dmesg"
	tar -C "$w/sys" --sort=name --owner=0 --group=0 --numeric-owner \
	    --mtime=@0 -cf "$out/sysroot.tar" proc sos_commands
	cp "$w/console.log" "$out/console.log"
	cat >"$out/TRUTH" <<-EOF
	variant: $v
	arch: $karch
	debian_arch: $debarch
	package: $pkg
	package_version: $ver
	busybox_version: $bbver
	release: $rel
	version: $(cat "$w/version")
	cmdline: $(cat "$w/cmdline")
	qemu: $qemu -m 1024 -smp 1${dtb:+ -dtb $(basename "$dtb")} -append "$kv"
	EOF
	[ -z "$gccver" ] || cat >>"$out/TRUTH" <<-EOF
	build: vexpress_defconfig VMSPLIT_2G KALLSYMS_ALL CRC7=m DEBUG_INFO_NONE LOCALVERSION=-vexpress-2g
	compiler: $gccver
	page_offset: $page_offset
	EOF
	cat >>"$out/TRUTH" <<-EOF
	text_symbol: $sym
	runtime_text: $rt
	map_text: $mt
	offset: $off
	EOF
	rm -rf "$w"
	xz -9 -f "$out"/*
	ls -l "$out" >&2
	echo "$v: $rel offset $off" >&2
}

for v; do
	boot "$v"
done
