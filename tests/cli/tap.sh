# tap.sh - a tiny TAP helper for the CLI tests (POSIX sh; source it).
#
# The Makefile sets KLEAKSCAN, TESTDATA and TOPSRC; run by hand, they
# default to the source tree this file is in and a binary at
# ./src/kleakscan (a build directory) or $TOPSRC/src/kleakscan.
#
#	ok DESC CMD...		a command that must succeed
#	is GOT WANT DESC	two strings that must be equal
#	like GOT PATTERN DESC	a string that must match a grep -E pattern
#	skip DESC REASON	a test that cannot run here
#	diag TEXT		a comment line
#	run ARGS...		run kleakscan; sets OUT, ERR, STATUS
#	done_testing		print the plan and exit with the result
#
# The plan goes out at the end, so tests can be added without counting.

LC_ALL=C
export LC_ALL
unset NO_COLOR
TERM=dumb
export TERM

if [ -z "${TOPSRC:-}" ]; then
	TOPSRC=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${TESTDATA:=$TOPSRC/tests/data}"
if [ -z "${KLEAKSCAN:-}" ]; then
	if [ -x ./src/kleakscan ]; then
		KLEAKSCAN=$(pwd)/src/kleakscan
	else
		KLEAKSCAN=$TOPSRC/src/kleakscan
	fi
fi
export TOPSRC TESTDATA KLEAKSCAN

# The shared corpus of real logs beside the source tree (never copied
# into it): tests read it there and skip what needs it when it is absent.
REAL_CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}

tap_n=0
tap_failed=0

# A scratch directory, removed at exit.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kleakscan-test.XXXXXX") || exit 99
trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 99' HUP INT TERM

# Print a comment line (each line of $* prefixed with "# ").
diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# Record a passing test.
pass() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s\n' "$tap_n" "$1"
}

# Record a failing test.
fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	printf 'not ok %d - %s\n' "$tap_n" "$1"
}

# ok DESC CMD...: pass when the command succeeds.
ok() {
	tap_desc=$1
	shift
	if "$@"; then
		pass "$tap_desc"
	else
		fail "$tap_desc"
	fi
}

# is GOT WANT DESC: pass when the strings are equal, else show both.
is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3"
		diag "got:"
		diag "$1"
		diag "want:"
		diag "$2"
	fi
}

# like GOT ERE DESC: pass when GOT matches the extended regex.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		pass "$3"
	else
		fail "$3"
		diag "got:"
		diag "$1"
		diag "does not match: $2"
	fi
}

# unlike GOT ERE DESC: pass when GOT does not match.
unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		fail "$3"
		diag "got:"
		diag "$1"
		diag "matches: $2"
	else
		pass "$3"
	fi
}

# todo_is GOT WANT DESC REASON: like is, but a known defect (TAP TODO)
# when unequal: "not ok # TODO" without failing the run, and a plain
# pass once the defect is fixed.
todo_is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		tap_n=$((tap_n + 1))
		printf 'not ok %d - %s # TODO %s\n' "$tap_n" "$3" "$4"
		diag "got:  $(printf '%s\n' "$1" | paste -sd' ' -)"
		diag "want: $(printf '%s\n' "$2" | paste -sd' ' -)"
	fi
}

# skip DESC REASON: a test that cannot run here.
skip() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - %s # SKIP %s\n' "$tap_n" "$1" "$2"
}

# real NAME: the path of a real log of $REAL_CORPUS, by the name the tests
# give it: the whole corpus file, or the line range cut to $TMP/real-cut/NAME
# (the corpus path and range are below).  Fails when the corpus is absent.
real() {
	real_r=
	case $1 in
	x86_64-ubuntu-5.4-oops.dmesg)
		real_f=boot/Ubuntu-20.04-FIPS-logs__dmesg.txt ;;
	x86_64-syzkaller-4.15-frames.report)
		real_f=syzkaller/report/366 ;;
	arm64-orangepi5-5.10-boot.dmesg)
		real_f=boot/OrangePi5-OpenCL__dmesg.txt real_r=1,520 ;;
	arm64-orangepi5-5.10-oops.dmesg)
		real_f=boot/OrangePi5-OpenCL__dmesg.txt real_r=1280,1802 ;;
	arm64-rg353v-6.4-console.log)
		real_f=boot/rg353v_linux__latest_mainline.log ;;
	arm64-syzkaller-6.1-oops.report)
		real_f=syzkaller/report/680 ;;
	arm-anyka-3.4-layout.dmesg)
		real_f=boot/anyka-cams__dmesg.txt ;;
	arm-syzkaller-6.3-vmsplit2g.report)
		real_f=syzkaller/report/697 ;;
	ppc64-syzkaller-5.4-oops.report)
		real_f=syzkaller/report/431 ;;
	ppc64-linuxppc-dev-5.12-e6500-warn.eml)
		real_f=mail/linuxppc-dev/976adfdecacb752cc9ac6aea1b0640cbd28af44d.eml ;;
	ppc64-linuxppc-dev-5.5-quoted-syslog.eml)
		real_f=mail/linuxppc-dev/f3e724d756949b3ac73c28003c9052d2e9e960b0.eml ;;
	ppc32-linuxppc-dev-6.11-e500-warn.eml)
		real_f=mail/linuxppc-dev/00767a409bcf24e1c3f239e4dd4d8c806440b5a8.eml ;;
	riscv64-orangepi-rv2-6.6.dmesg)
		real_f=boot/orangepi-rv2-notes__dmesg.txt ;;
	riscv64-syzkaller-5.11-oops.report)
		real_f=syzkaller/report/607 ;;
	mips64-linux-mips-6.19-loongson3.eml)
		real_f=mail/linux-mips/3f9d6675c03d117ff9d3bac58569adbfff6b1817.eml ;;
	mips32-linux-mips-5.9-24kec.eml)
		real_f=mail/linux-mips/51d4ec9225c20f5fa09d41a93b68705ec6b2b59a.eml ;;
	mips64-linux-mips-loongson3-frames.eml)
		real_f=mail/linux-mips/f8c6a247c9340c5cca2c088ec407860abdc09605.eml ;;
	s390x-linux-s390-6.1-warn.eml)
		real_f=mail/linux-s390/8ceeab5364cde6dbcd16621ebe1723cb5a4cf5ac.eml ;;
	s390x-linux-s390-5.7-lockdep.eml)
		real_f=mail/linux-s390/0714a7f56762809455f091f80321af939c18414c.eml ;;
	arm64-linux-arm-kernel-4.x-pc-is-at.eml)
		real_f=mail/linux-arm-kernel/4ff7d3eaee7f98a73834e36afae59aaaa7257022.eml ;;
	mail-arm-linux-arm-kernel-5.4-irqchip.eml)
		real_f=mail/linux-arm-kernel/5fd7b238942577ddd42bdc2c075d8151bae790a0.eml ;;
	i386-loghub-2.6.5.syslog)
		real_f=loghub/loghub__Linux_Linux_2k.log real_r=901,2000 ;;
	*)
		echo "real: no such log: $1" >&2
		return 1 ;;
	esac
	[ -f "$REAL_CORPUS/$real_f" ] || return 1
	if [ -z "$real_r" ]; then
		printf '%s\n' "$REAL_CORPUS/$real_f"
		return 0
	fi
	mkdir -p "$TMP/real-cut" || return 1
	[ -f "$TMP/real-cut/$1" ] ||
	    sed -n "${real_r}p" "$REAL_CORPUS/$real_f" >"$TMP/real-cut/$1" || return 1
	printf '%s\n' "$TMP/real-cut/$1"
}

# REAL_LOGS: the names real() knows, for loops over every real log.
REAL_LOGS="x86_64-ubuntu-5.4-oops.dmesg x86_64-syzkaller-4.15-frames.report
arm64-orangepi5-5.10-boot.dmesg arm64-orangepi5-5.10-oops.dmesg
arm64-rg353v-6.4-console.log arm64-syzkaller-6.1-oops.report
arm-anyka-3.4-layout.dmesg arm-syzkaller-6.3-vmsplit2g.report
ppc64-syzkaller-5.4-oops.report ppc64-linuxppc-dev-5.12-e6500-warn.eml
ppc64-linuxppc-dev-5.5-quoted-syslog.eml ppc32-linuxppc-dev-6.11-e500-warn.eml
riscv64-orangepi-rv2-6.6.dmesg riscv64-syzkaller-5.11-oops.report
mips64-linux-mips-6.19-loongson3.eml mips32-linux-mips-5.9-24kec.eml
mips64-linux-mips-loongson3-frames.eml s390x-linux-s390-6.1-warn.eml
s390x-linux-s390-5.7-lockdep.eml arm64-linux-arm-kernel-4.x-pc-is-at.eml
mail-arm-linux-arm-kernel-5.4-irqchip.eml i386-loghub-2.6.5.syslog"

# real_copy DIR: copy every real log into DIR under its name; fails
# (copying nothing) when the corpus is absent.
real_copy() {
	[ -d "$REAL_CORPUS" ] || return 1
	mkdir -p "$1" || return 1
	for real_n in $REAL_LOGS; do
		real_p=$(real "$real_n") || return 1
		cp "$real_p" "$1/$real_n" || return 1
	done
}

# WRITTEN: the logs written for the tests (tests/data/written).
WRITTEN=$TESTDATA/written

# fixtures DIR: fill DIR with the logs of the tests, one directory deep
# (a subshell: globbing on whatever the caller's set -f):
# the files of tests/data (ATTRIBUTION left out) and of tests/data/written,
# and the real logs of the corpus when it is there.
fixtures() (
	set +f
	mkdir -p "$1" || return 1
	for fx_f in "$TESTDATA"/* "$WRITTEN"/*; do
		[ -f "$fx_f" ] || continue
		[ "${fx_f##*/}" = ATTRIBUTION ] && continue
		cp "$fx_f" "$1/" || return 1
	done
	real_copy "$1" || :
)

# own_corpus DIR: the project's own logs in the layout of ../shared/corpus
# (DIR/corpus: boot, loghub, mail, qemu/BOOT/console.log, syzkaller), for
# the tests that walk the corpus to run without it; prints DIR/corpus.
own_corpus() (
	set +f
	oc=$1/corpus
	mkdir -p "$oc/boot" "$oc/loghub" "$oc/mail" "$oc/syzkaller" || return 1
	for oc_f in "$TESTDATA"/*.console; do
		oc_b=${oc_f##*/}
		mkdir -p "$oc/qemu/${oc_b%.console}" &&
		    cp "$oc_f" "$oc/qemu/${oc_b%.console}/console.log" ||
		    return 1
	done
	# An input over 64 KiB (one a worker writes to a temporary file).
	mkdir -p "$oc/qemu/three-boots" &&
	    cat "$TESTDATA"/*.console "$TESTDATA"/*.console \
	    "$TESTDATA"/*.console >"$oc/qemu/three-boots/console.log" &&
	    xz -c "$TESTDATA"/x86_64-debian-6.1.0-57-System.map.slice \
	    >"$oc/qemu/System.map-6.1.0-57-amd64.xz" || return 1
	cp "$WRITTEN"/*.dmesg "$oc/boot/" &&
	    cp "$WRITTEN"/*.eml "$oc/mail/" &&
	    cp "$WRITTEN"/i386-syslog.log "$oc/loghub/" &&
	    cp "$WRITTEN"/*.report "$WRITTEN"/arm64-oops.log \
	    "$WRITTEN"/ppc64-oops.log "$oc/syzkaller/" || return 1
	printf '%s\n' "$oc"
)

# OWN_BOOTS: the project's own QEMU boots (tests/qemu/README.md).
OWN_BOOTS=$TOPSRC/tests/qemu/boots

# own_boot VARIANT: unpack that boot of tests/qemu/boots into
# $TMP/own-boots/VARIANT (once) and print the directory: console.log, TRUTH,
# kallsyms, sysroot.tar, root/ (sysroot.tar unpacked) and maps/ (its
# System.map-RELEASE).  Fails when the boot or xz is not there.
# (A subshell: globbing on whatever the caller's set -f.)
own_boot() (
	set +f
	ob_s=$OWN_BOOTS/$1 ob_d=$TMP/own-boots/$1
	if [ ! -f "$ob_d/TRUTH" ]; then
		[ -f "$ob_s/TRUTH.xz" ] && command -v xz >/dev/null 2>&1 ||
		    return 1
		mkdir -p "$ob_d/maps" "$ob_d/root" || return 1
		for ob_f in "$ob_s"/*.xz; do
			ob_g=${ob_f##*/}
			case $ob_g in
			System.map-*) xz -dc "$ob_f" >"$ob_d/maps/${ob_g%.xz}" ;;
			*) xz -dc "$ob_f" >"$ob_d/${ob_g%.xz}" ;;
			esac || return 1
		done
		tar -C "$ob_d/root" -xf "$ob_d/sysroot.tar" || return 1
	fi
	printf '%s\n' "$ob_d"
)

# truth DIR KEY: the value of KEY in the TRUTH of an own_boot directory.
truth() {
	sed -n "s/^$2: //p" "$1/TRUTH"
}

# kallsyms_named JSON MAP DESC: a check that the findings on kallsyms
# global text lines ("ADDR T name") whose name MAP holds once and the
# scanned kallsyms once, at least ten, each resolve to that name's
# address +0x0 (the trimmed maps of tests/qemu/boots hold only some
# symbols: the others resolve to an earlier one).
kallsyms_named() {
	kn_r=$(python3 -c '
import json, sys
m, dup = {}, set()
for l in open(sys.argv[2]):
    w = l.split()
    if len(w) >= 3:
        if w[2] in m:
            dup.add(w[2])
        m.setdefault(w[2], int(w[0], 16))
ev, seen = [], set()
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] != "finding" or e["region"] != "text":
        continue
    w = e["line_text"].split()
    if len(w) < 3 or w[0] != e["text"] or w[1] != "T":
        continue
    if w[2] in seen:
        dup.add(w[2])
    seen.add(w[2])
    ev.append((e, w))
n, bad = 0, []
for e, w in ev:
    if w[2] not in m or w[2] in dup:
        continue
    n += 1
    name, _, off = (e["symbol"] or "").partition("+")
    if not off.startswith("0x0/") or m.get(name) != m[w[2]]:
        bad.append("%d:%s=%s" % (e["line"], w[2], e["symbol"]))
print(n, " ".join(bad) or "-")
' "$1" "$2")
	like "$kn_r" '^[1-9][0-9]+ -$' "$3: each resolves to its name ($kn_r)"
}

# run ARGS...: run the binary; OUT and ERR hold its output (trailing
# newlines dropped), STATUS its exit status; $TMP/out and $TMP/err keep
# the exact bytes.  Standard input is the caller's.
run() {
	"$KLEAKSCAN" "$@" >"$TMP/out" 2>"$TMP/err"
	STATUS=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}

# is_status WANT DESC: check STATUS of the last run.
is_status() {
	is "$STATUS" "$1" "$2 (exit status)"
	if [ "$STATUS" != "$1" ] && [ -n "$ERR" ]; then
		diag "stderr:"
		diag "$ERR"
	fi
}

# Is a JSON checker available?  Sets JSON_CHECK to a command reading a
# JSON Lines file name as $1.
json_checker() {
	if command -v python3 >/dev/null 2>&1 &&
	    python3 -c 'import json' 2>/dev/null; then
		JSON_CHECK=json_check_python
	elif command -v jq >/dev/null 2>&1; then
		JSON_CHECK=json_check_jq
	else
		JSON_CHECK=
	fi
}

# Every line of $1 is one JSON object (python3).
json_check_python() {
	python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1], "rb"):
    n += 1
    if not line.endswith(b"\n"):
        sys.exit("line %d: no newline" % n)
    v = json.loads(line.decode("utf-8"))
    if not isinstance(v, dict) or "type" not in v:
        sys.exit("line %d: not an event" % n)
' "$1"
}

# Every line of $1 is one JSON object (jq).
json_check_jq() {
	jq -n 'inputs | if type == "object" and has("type") then empty
	    else error("not an event") end' <"$1" >/dev/null
}

# done_testing: print the plan; the exit status tells the result.
done_testing() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}
