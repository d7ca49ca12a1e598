#!/bin/sh
# qemu-boots.sh - the project's own QEMU boots (tests/qemu/boots, made by
# tests/qemu/make-boot.sh from Debian's kernels) against their TRUTH:
# per boot, the architecture kleakscan names, the KASLR slide it finds
# with the boot's System.map (TRUTH's offset where the console gives it
# away, and never another), the console's leaks, --redact taking every
# runtime kernel-text address off the console, and --live-root on the
# captured system: its architecture, its kallsyms text base (TRUTH's
# runtime _text or _stext), its slide, and no finding in /proc/iomem
# (physical addresses).  Where TRUTH gives the kernel's PAGE_OFFSET (a
# kernel built here: armhf-vexpress-2g), the console's text findings lie
# in the image and --live-root says that PAGE_OFFSET.  Needs no ../shared.

. "$(dirname "$0")/tap.sh"

BOOTS=$TOPSRC/tests/qemu/boots

if ! command -v python3 >/dev/null 2>&1; then
	skip "QEMU boots" "python3 is needed to read the JSON output"
	done_testing
fi
if ! command -v xz >/dev/null 2>&1; then
	skip "QEMU boots" "xz is needed to unpack the boots"
	done_testing
fi

# Checks kleakscan gets wrong on a boot (bugs to fix, not hidden):
# "VARIANT:CHECK reason" lines; such a check is TAP TODO.
KNOWN=$(cat <<'EOF'
armhf-vexpress-2g:redact kleakscan does not find the 2G/2G split (PAGE_OFFSET 0x80000000) on this console (6.1 arm frames have no raw addresses; the map's _text 0x80008000 does not place it): with the 3G layout 0x80100000 and 0x80100060 (the identity map's physical bounds, which equal the kernel's virtual ones on vexpress) are no finding, so nothing rewrites them
armhf-vexpress-2g:text-bounds kleakscan scans this console with the 3G/1G layout (PAGE_OFFSET 0xc0000000, not the 2G split it does not find): the vmalloc'd stacks' Exception stack(0xc08...) values are called text
EOF
)

# todo_reason VARIANT CHECK: the reason of a known bug, or nothing.
todo_reason() {
	printf '%s\n' "$KNOWN" | sed -n "s/^$1:$2 //p"
}

# check VARIANT CHECK GOT WANT DESC: is, or a TAP TODO when known.
check() {
	r=$(todo_reason "$1" "$2")
	if [ -z "$r" ]; then
		is "$3" "$4" "$5"
		return
	fi
	tap_n=$((tap_n + 1))
	if [ "$3" = "$4" ]; then
		printf 'ok %d - %s # TODO %s\n' "$tap_n" "$5" "$r"
	else
		printf 'not ok %d - %s # TODO %s\n' "$tap_n" "$5" "$r"
		diag "got: $3"
		diag "want: $4"
	fi
}

# boots JSON FIELD: that field of every boot event, one a line.
boots() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "boot":
        print(e[sys.argv[2]])
' "$1" "$2"
}

# live JSON FIELD: that field of the live event ("slide": the slide fact).
live() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "live":
        continue
    if sys.argv[2] == "slide":
        f = e["facts"].get("slide")
        print(f["value"] if f else None)
    else:
        print(e[sys.argv[2]])
' "$1" "$2"
}

# textaddrs FILE LOW HIGH BITS: the hex words of FILE (BITS/4 digits,
# with or without 0x) in [LOW, HIGH), the runtime kernel text.
textaddrs() {
	python3 -c '
import re, sys
lo, hi, bits = int(sys.argv[2], 16), int(sys.argv[3], 16), int(sys.argv[4])
pat = re.compile(r"(?<![0-9A-Za-z])(?:0x)?([0-9a-f]{%d})(?![0-9A-Za-z])" % (bits // 4))
for w in pat.findall(open(sys.argv[1], errors="replace").read()):
    if lo <= int(w, 16) < hi:
        print(w)
' "$@"
}

# regions JSON: the regions of the findings, sorted, unique, one line.
regions() {
	python3 -c '
import json, sys
r = set()
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding":
        r.add(e["region"])
print(",".join(sorted(r)) or "-")
' "$1"
}

n=0
for d in "$BOOTS"/*/; do
	[ -f "$d/TRUTH.xz" ] || continue
	n=$((n + 1))
	v=$(basename "$d")
	w=$TMP/$v
	mkdir -p "$w/maps" "$w/root"
	for f in "$d"/*.xz; do
		g=$(basename "$f" .xz)
		xz -dc "$f" >"$w/$g"
	done
	mv "$w"/System.map-* "$w/maps/"
	tar -C "$w/root" -xf "$w/sysroot.tar"
	t() { sed -n "s/^$1: //p" "$w/TRUTH"; }
	rel=$(t release) off=$(t offset) rt=$(t runtime_text) sym=$(t text_symbol)
	po=$(t page_offset)
	map=$w/maps/System.map-$rel
	# The profile kleakscan should name (--list-arches).  A 5-level
	# x86_64 boot prints no address that says so on its console: the
	# console's profile is x86_64; --live-root reads cpuinfo's la57.
	paging=
	case $(t arch) in
	x86_64)
		profile=x86_64 paging=4-level
		if grep -q '^flags.* la57' "$w/root/proc/cpuinfo"; then
			paging=5-level
		fi ;;
	i386) profile=i386 ;;
	arm64) profile=arm64 ;;
	arm) profile=arm ;;
	powerpc) profile=ppc64 ;;
	s390) profile=s390x ;;
	mips) profile=mips64 ;;
	*) profile="unknown $(t arch)" ;;
	esac
	case $rt in
	0x????????) bits=32 ;;
	*) bits=64 ;;
	esac
	etext=0x$(awk '$3 == "_etext" { print $1; exit }' "$w/kallsyms")
	# The runtime end of the image: the map's _end plus the slide.
	iend=$(printf '%#x' $((0x$(awk '$3 == "_end" { print $1; exit }' "$map") + off)))

	# --- The console. ---------------------------------------------
	"$KLEAKSCAN" --json --system-map-dir "$w/maps" "$w/console.log" >"$w/c.json"
	is "$?" 1 "$v: the console leaks (exit status 1)"
	check "$v" arch "$(boots "$w/c.json" arch | sort -u)" "$profile" \
	    "$v: the architecture is $profile"
	is "$(boots "$w/c.json" map | sed 's,.*/,,' | sort -u)" "System.map-$rel" \
	    "$v: the map of the banner's release ($rel)"
	slides=$(boots "$w/c.json" slide | sort -u)
	bad=$(printf '%s\n' "$slides" | grep -vx -e None -e "$off")
	check "$v" slide "$bad" "" \
	    "$v: no slide but TRUTH's ($off) is claimed"
	# A kernel of known PAGE_OFFSET: the layout the scan used calls
	# nothing text but the image, [runtime _text, _end).
	if [ -n "$po" ]; then
		out=$(python3 -c '
import json, sys
lo, hi = int(sys.argv[2], 16), int(sys.argv[3], 16)
r = set()
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and e["region"] == "text" and \
       not lo <= int(e["value"], 16) < hi:
        r.add(e["text"])
print("\n".join(sorted(r)))' "$w/c.json" "$rt" "$iend")
		check "$v" text-bounds "$out" "" \
		    "$v: the console's text findings are in the image ($rt-$iend; PAGE_OFFSET $po)"
	fi
	# Where the console gives the slide away: the kernel's own line,
	# or raw addresses printed beside their symbols.  (i386 prints
	# "Kernel Offset: disabled" whatever the slide: its kaslr_enabled()
	# needs CONFIG_RANDOMIZE_MEMORY, which is x86_64's.)
	tr -d '\r' <"$w/console.log" >"$w/console.lf"
	how=
	if grep -q 'Kernel Offset: 0x' "$w/console.lf"; then
		how="the Kernel Offset line"
	elif [ "$(t arch)" = x86_64 ] &&
	    grep -q 'Kernel Offset: disabled' "$w/console.lf"; then
		how="Kernel Offset: disabled"
	elif grep -q 'KASLR disabled' "$w/console.lf"; then
		how="KASLR disabled"
	elif grep -Eq '\[<?[0-9a-f]{8,16}>?\] [A-Za-z_.][A-Za-z0-9_.]*\+0x' \
	    "$w/console.lf"; then
		how="frames"
	fi
	if [ -n "$how" ]; then
		check "$v" slide-given "$slides" "$off" \
		    "$v: every boot's slide is TRUTH's ($off), from $how"
		run --verdict --system-map-dir "$w/maps" "$w/console.log"
		if [ "$off" = 0x0 ]; then
			want='^  slide: Kernel Offset: (disabled|0x0 from 0x[0-9a-f]+) \('
		else
			want="^  slide: Kernel Offset: $off from 0x[0-9a-f]+ \\("
		fi
		check "$v" verdict "$(printf '%s\n' "$OUT" | grep -Ec "$want")" \
		    "$(printf '%s\n' "$OUT" | grep -c '^boot ')" \
		    "$v: --verdict says the slide, $off, for each boot"
	fi

	# --- --redact: no runtime text address is left. ---------------
	had=$(textaddrs "$w/console.lf" "$rt" "$etext" "$bits" | sort -u)
	"$KLEAKSCAN" --redact "$w/console.log" >"$w/red.log"
	st=$?
	# The scan's status, but for the KASLR state lines, which --redact
	# makes no finding of: no number to rewrite (man page, EXIT STATUS;
	# the nokaslr console's only findings are such lines).
	want=$(python3 -c '
import json, sys
states = {"kernel-offset-disabled", "nokaslr-cmdline", "kaslr-disabled",
          "kaslr-failed"}
n = 0
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "finding" and e["suppressed"] is None and \
       e["region"] != "physical" and e["rule"] not in states:
        n += 1
print(1 if n else 0)' "$w/c.json")
	is "$st" "$want" "$v: --redact: exit status $want, as the scan's but for KASLR state lines"
	if [ -n "$had" ]; then
		left=$(textaddrs "$w/red.log" "$rt" "$etext" "$bits" | sort -u)
		check "$v" redact "$left" "" \
		    "$v: --redact leaves none of the console's $(printf '%s\n' "$had" | wc -l | tr -d ' ') runtime text addresses"
	fi
	is "$(wc -l <"$w/red.log")" "$(wc -l <"$w/console.log")" \
	    "$v: --redact keeps every line"
	# What is left is layout (the Kernel Offset value, nokaslr), which
	# the default --restrict=2 keeps as the kernel prints it.
	"$KLEAKSCAN" --json --system-map-dir "$w/maps" "$w/red.log" >"$w/r.json"
	check "$v" rescan "$(regions "$w/r.json" | tr ',' '\n' | grep -vx -e layout -e -)" "" \
	    "$v: the redacted console has no finding but layout ones"

	# --- --live-root on the captured system. ----------------------
	"$KLEAKSCAN" --live-root "$w/root" --json >"$w/l.json" 2>/dev/null
	check "$v" live-arch "$(live "$w/l.json" arch)" "$profile" \
	    "$v: --live-root names the architecture $profile"
	if [ -n "$paging" ]; then
		is "$(live "$w/l.json" paging)" "$paging" \
		    "$v: --live-root: $paging paging (cpuinfo's la57 flag)"
	fi
	# JSON writes the value without leading zeros (0x100000).
	check "$v" live-text "$(live "$w/l.json" text_base)" \
	    "$(printf '%s\n' "$rt" | sed 's/^0x0*\([0-9a-f]\)/0x\1/')" \
	    "$v: --live-root: the text base is the runtime $sym ($rt)"
	if [ -n "$po" ]; then
		is "$(live "$w/l.json" page_offset)" "$po" \
		    "$v: --live-root: PAGE_OFFSET $po, as the kernel was built"
	fi
	# /proc/iomem holds physical addresses: no kernel pointer.
	check "$v" live-iomem "$(grep '"type":"finding","path":"/proc/iomem"' "$w/l.json" | wc -l | tr -d ' ')" 0 \
	    "$v: --live-root: no finding in /proc/iomem (physical addresses)"
	"$KLEAKSCAN" --live-root "$w/root" --system-map "$map" --json >"$w/lm.json" 2>/dev/null
	check "$v" live-slide "$(live "$w/lm.json" slide)" "$off" \
	    "$v: --live-root with the map: the slide is TRUTH's ($off)"
	"$KLEAKSCAN" --live-root "$w/sysroot.tar" --json >"$w/lt.json" 2>/dev/null
	is "$(live "$w/lt.json" arch) $(live "$w/lt.json" text_base)" \
	    "$(live "$w/l.json" arch) $(live "$w/l.json" text_base)" \
	    "$v: --live-root of the tarball: the same system"
done
if [ "$n" -eq 0 ]; then
	skip "QEMU boots" "no boots in $BOOTS"
fi

done_testing
