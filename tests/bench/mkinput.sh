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
# Writes, under OUTDIR, each cut at its last whole line before SIZE:
#   real.log         every boot log and syzkaller report of the corpus
#                    (boot/*, syzkaller/report/*, in name order, each
#                    ending with a newline), repeated: the logs users scan;
#   real-hashed.log  real.log with every 16-digit hex value replaced by a
#                    %p-style hash, 00000000 and eight hex digits (a digest
#                    of the value: equal values stay equal), as kernels
#                    since 4.15 print most pointers;
#   nohex.log        real.log with no hex number at all: every run of hex
#                    digits that is 0x-prefixed, eight or more long, or
#                    mixes digits and the letters a-f, turned into z's of
#                    the same length (decimal numbers, timestamps, words
#                    and the CPU numbers of printk caller ids, "[    C0]",
#                    stay, so the framing and line lengths are the same);
#   shuffled.log     the logs of real.log, each pass over them in a new
#                    order (perl's srand(42)), after one boot log (so
#                    that it is not sniffed as mail): a concatenation of
#                    different machines whose period is no chunk size
#                    (real.log's, 3.9 MiB, meets -j's 4 MiB chunks);
#   addr.log         the earlier recipe: the first 400 boot logs and
#                    syzkaller reports repeated;
#   noaddr.log       addr.log with every run of hex digits broken after
#                    seven digits (no run of eight anywhere).
# Needs perl (Digest::MD5 is a core module).
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
OUTS="real.log real-hashed.log nohex.log shuffled.log addr.log noaddr.log"
made=1
for f in $OUTS; do
	[ -s "$OUT/$f" ] || made=0
done
if [ $made = 1 ] && [ "$(cat "$OUT/size" 2>/dev/null)" = "$SIZE" ]; then
	(cd "$OUT" && ls -l $OUTS)
	exit 0	# made before with this size
fi
rm -f "$OUT/size"

# repeat BASE OUT: BASE over and over, cut at the last newline before SIZE.
repeat() {
	bs=$(wc -c <"$1")
	n=$(((SIZE + bs - 1) / bs))
	i=0
	while [ $i -lt "$n" ]; do
		cat "$1"
		i=$((i + 1))
	done | head -c "$SIZE" | sed '$d' >"$2"
}

# The logs of real.log and shuffled.log, in name order.
LOGS=$(LC_ALL=C ls "$CORPUS"/boot/* "$CORPUS"/syzkaller/report/*)
base=$OUT/base.log
for f in $LOGS; do
	[ -f "$f" ] || continue
	cat "$f"
	[ -z "$(tail -c 1 "$f")" ] || echo
done >"$base"
repeat "$base" "$OUT/real.log"
perl -MDigest::MD5=md5_hex -pe '
    s/(?<![0-9A-Za-z_])[0-9a-fA-F]{16}(?![0-9A-Za-z_])/
        "00000000" . substr(md5_hex(lc $&), 0, 8)/ge' \
    "$OUT/real.log" >"$OUT/real-hashed.log"
perl -pe '
    s/(?<![0-9A-Za-z_])(?:0[xX][0-9a-fA-F]+|[0-9a-fA-F]{8,}|
        (?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]+)
        (?![0-9A-Za-z_])/$& =~ m{^C[0-9]+$} ? $& : "z" x length($&)/gex' \
    "$OUT/real.log" >"$OUT/nohex.log"

perl -e '
    my ($size, @f) = @ARGV;
    my ($n, @d) = (0);
    for (@f) {
        open(my $h, "<", $_) or die "$_: $!";
        local $/;
        my $t = <$h>;
        $t .= "\n" if length($t) && substr($t, -1) ne "\n";
        push @d, $t;
    }
    srand(42);
    print $d[0];
    $n = length($d[0]);
    while ($n < $size) {
        my @o = (0 .. $#d);
        for (my $i = $#o; $i > 0; $i--) {
            my $j = int(rand($i + 1));
            @o[$i, $j] = @o[$j, $i];
        }
        for (@o) {
            print $d[$_];
            $n += length($d[$_]);
            last if $n >= $size;
        }
    }' "$SIZE" $LOGS |
    head -c "$SIZE" | sed '$d' >"$OUT/shuffled.log"

ls "$CORPUS"/boot/*.txt "$CORPUS"/syzkaller/report/* | head -400 |
    while read -r f; do cat "$f"; done >"$base"
repeat "$base" "$OUT/addr.log"
perl -pe 's/([0-9a-fA-F]{7})(?=[0-9a-fA-F])/$1-/g' "$OUT/addr.log" \
    >"$OUT/noaddr.log"
rm -f "$base"
echo "$SIZE" >"$OUT/size"
(cd "$OUT" && ls -l $OUTS)
