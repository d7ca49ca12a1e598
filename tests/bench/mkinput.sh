#!/bin/sh
# mkinput.sh - build the benchmark inputs from the shared corpus (not run
# by make check).
#
# usage: tests/bench/mkinput.sh [SIZE [OUTDIR [CORPUS]]]
#   SIZE    bytes of each input, with an optional K, M or G suffix
#           (default 1G); the inputs are cut at the last whole line
#   OUTDIR  where to write them (default ${TMPDIR:-/tmp}/kleak-bench)
#   CORPUS  the corpus (default $TOPSRC/../shared/corpus)
#
# Writes OUTDIR/addr.log: the first 400 boot logs and syzkaller reports
# (the issue's benchmark recipe) repeated up to SIZE; OUTDIR/noaddr.log:
# the same text with every run of hex digits broken after seven digits
# (no run of eight anywhere: the "log with no addresses" case, which
# still has the same lines, framing and hex density).
set -eu

TOPSRC=${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}
SIZE=${1:-1G}
OUT=${2:-${TMPDIR:-/tmp}/kleak-bench}
CORPUS=${3:-$TOPSRC/../shared/corpus}

case $SIZE in
*[Kk]) SIZE=$((${SIZE%?} * 1024)) ;;
*[Mm]) SIZE=$((${SIZE%?} * 1024 * 1024)) ;;
*[Gg]) SIZE=$((${SIZE%?} * 1024 * 1024 * 1024)) ;;
esac
if [ ! -d "$CORPUS/boot" ] || [ ! -d "$CORPUS/syzkaller/report" ]; then
	echo "mkinput: no corpus at $CORPUS" >&2
	exit 2
fi
mkdir -p "$OUT"
if [ -s "$OUT/addr.log" ] && [ -s "$OUT/noaddr.log" ] &&
    [ "$(cat "$OUT/size" 2>/dev/null)" = "$SIZE" ]; then
	ls -l "$OUT/addr.log" "$OUT/noaddr.log"
	exit 0	# made before with this size
fi
rm -f "$OUT/size"

# One base file; repeat it, then cut at the last newline before SIZE.
base=$OUT/base.log
ls "$CORPUS"/boot/*.txt "$CORPUS"/syzkaller/report/* | head -400 |
    while read -r f; do cat "$f"; done >"$base"
bs=$(wc -c <"$base")
n=$(((SIZE + bs - 1) / bs))
i=0
while [ $i -lt "$n" ]; do
	cat "$base"
	i=$((i + 1))
done | head -c "$SIZE" | sed '$d' >"$OUT/addr.log"
perl -pe 's/([0-9a-fA-F]{7})(?=[0-9a-fA-F])/$1-/g' "$OUT/addr.log" \
    >"$OUT/noaddr.log"
rm -f "$base"
echo "$SIZE" >"$OUT/size"
ls -l "$OUT/addr.log" "$OUT/noaddr.log"
