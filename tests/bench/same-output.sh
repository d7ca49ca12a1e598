#!/bin/sh
# same-output.sh - the golden cases of a performance change: run two
# binaries over the same inputs in every output mode and every read path,
# and report any difference in output or exit status (not run by make
# check; tests/cli/engines.sh and jobs.sh hold the equivalences that a
# test can).
#
# usage: tests/bench/same-output.sh REF NEW [INPUT...]
#   REF, NEW  the kleakscan binaries to compare (REF: the build before)
#   INPUT     files or directories (default: tests/data, data, the
#             project's own boots, and ../shared/corpus's boot logs,
#             syzkaller reports, mail and qemu boots when present, plus
#             the real-log benchmark inputs of mkinput.sh when made)
# Environment: BENCH_DIR (where mkinput.sh wrote, default
#   ${TMPDIR:-/tmp}/kleak-bench), SAME_BIG (bytes of each benchmark
#   input to use, default 16M).
# Exit status: 0 all the same, 1 a difference (printed), 2 usage.
set -u

[ $# -ge 2 ] || { echo "usage: same-output.sh REF NEW [INPUT...]" >&2; exit 2; }
REF=$1 NEW=$2
shift 2
TOPSRC=${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/kleak-bench}
BIG=${SAME_BIG:-16M}
W=$(mktemp -d "${TMPDIR:-/tmp}/same.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
C=$TOPSRC/../shared/corpus

if [ $# -eq 0 ]; then
	set -- "$TOPSRC/tests/data" "$TOPSRC/data"
	for b in "$TOPSRC"/tests/qemu/boots/*/console.log.xz; do
		[ -f "$b" ] && xz -dc "$b" >"$W/$(basename "$(dirname "$b")").console" &&
		    set -- "$@" "$W/$(basename "$(dirname "$b")").console"
	done
	for d in boot syzkaller/report mail qemu; do
		[ -d "$C/$d" ] && set -- "$@" "$C/$d"
	done
	for f in real real-hashed nohex; do
		if [ -s "$DIR/$f.log" ]; then
			head -c "$BIG" "$DIR/$f.log" | sed '$d' >"$W/$f.log"
			set -- "$@" "$W/$f.log"
			gzip -1 -c "$W/$f.log" >"$W/$f.log.gz"
			set -- "$@" "$W/$f.log.gz"
		fi
	done
fi
MAP=
for m in "$C/qemu/System.map-6.1.0-57-amd64.xz" \
    "$TOPSRC/tests/data/x86_64-debian-6.1.0-57-System.map.slice"; do
	[ -f "$m" ] && { MAP=$m; break; }
done

bad=0 n=0
# one NAME ARGS...: both binaries on the inputs, stdin from $STDIN
# (default /dev/null).
one() {
	name=$1
	shift
	"$REF" "$@" >"$W/ref.out" 2>"$W/ref.err" <"${STDIN:-/dev/null}"
	rr=$?
	"$NEW" "$@" >"$W/new.out" 2>"$W/new.err" <"${STDIN:-/dev/null}"
	rn=$?
	n=$((n + 1))
	if [ $rr -ne $rn ] || ! cmp -s "$W/ref.out" "$W/new.out" ||
	    ! cmp -s "$W/ref.err" "$W/new.err"; then
		bad=$((bad + 1))
		echo "DIFF $name (exit $rr vs $rn): $*"
		diff "$W/ref.out" "$W/new.out" | head -n 6
		diff "$W/ref.err" "$W/new.err" | head -n 4
	fi
}

for in in "$@"; do
	b=$(basename "$in")
	one "$b text" -j1 "$in"
	one "$b -c" -j1 -c "$in"
	one "$b json" -j1 --json "$in"
	one "$b report" -j1 --report "$in"
	one "$b redact" -j1 --redact "$in"
	one "$b verdict" -j1 --verdict "$in"
	one "$b j2-json" -j2 --json "$in"
	one "$b pcre2" -j1 --engine=pcre2 --json "$in"
	if [ -n "$MAP" ]; then
		one "$b map-json" -j1 --json --system-map "$MAP" "$in"
		one "$b map-verdict" -j1 --verdict --system-map "$MAP" "$in"
	fi
	if [ -f "$in" ]; then
		STDIN=$in
		one "$b stdin" -j1 --json -
		STDIN=
	fi
done
echo "same-output: $n cases, $bad different"
[ $bad -eq 0 ]
