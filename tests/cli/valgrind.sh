#!/bin/sh
# valgrind.sh - memcheck over the main read paths: a multi-boot console
# log with a System.map and --verdict, a tar.gz (ISA-L, the producer
# thread), --redact of a tar.xz repacked, a journal export stream, and
# -j2 over a directory (forked workers, batches).  Each run must give the
# output and exit status of the run without valgrind, with no memcheck
# error and no definite leak.  PCRE2's JIT code is beyond memcheck, so
# these runs interpret (KLEAKSCAN_NO_JIT=1).

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	echo "1..0 # SKIP valgrind is not installed"
	exit 0
fi
if grep -q -a -e __asan_init -e __tsan_init "$KLEAKSCAN"; then
	echo "1..0 # SKIP a sanitizer build cannot run under valgrind"
	exit 0
fi
for t in tar gzip xz python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "1..0 # SKIP $t is not installed"
		exit 0
	fi
done

cd "$TMP" || exit 99
KLEAKSCAN_NO_JIT=1
export KLEAKSCAN_NO_JIT

# vg DESC ARGS...: the same stdout and status under memcheck, clean.
vg() {
	desc=$1
	shift
	"$KLEAKSCAN" "$@" >"$TMP/n.out" 2>/dev/null <"${STDIN:-/dev/null}"
	want=$?
	valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite --log-file="$TMP/vg.%p" \
	    "$KLEAKSCAN" "$@" >"$TMP/v.out" 2>/dev/null <"${STDIN:-/dev/null}"
	got=$?
	is "$got" "$want" "$desc: exit status $want under memcheck"
	ok "$desc: the same output" cmp -s "$TMP/n.out" "$TMP/v.out"
	is "$(cat "$TMP"/vg.* 2>/dev/null | head -n 20)" "" \
	    "$desc: no memcheck report"
	rm -f "$TMP"/vg.*
}

vg "console log, --verdict with a System.map" --verdict \
    --system-map "$TESTDATA/x86_64-debian-6.1.0-57-System.map.slice" \
    "$TESTDATA/x86_64-qemu-6.1-four-boots.console"

mkdir logs
cp "$WRITTEN"/* logs/
tar -czf logs.tar.gz logs
tar -cJf logs.tar.xz logs
vg "tar.gz, --json" --json logs.tar.gz
vg "--redact of a tar.xz, repacked" --redact -o clean.tar.xz logs.tar.xz
vg "the repacked tar.xz, rescanned" -c clean.tar.xz

python3 - "$WRITTEN/x86_64-oops.dmesg" >export <<'PYEOF'
import sys
for i, line in enumerate(open(sys.argv[1], "rb")):
    sys.stdout.buffer.write(b"__CURSOR=c%d\n_BOOT_ID=0123456789abcdef0123456789abcdef\n"
                            b"MESSAGE=" % i + line.rstrip(b"\n") + b"\n\n")
PYEOF
STDIN=export vg "journal export on stdin, --redact" --redact -
vg "-j2 over a directory" -j2 -c "$TESTDATA"

done_testing
