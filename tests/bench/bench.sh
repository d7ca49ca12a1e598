#!/bin/sh
# bench.sh - compare kleakscan with cat, rg, grep -P, ugrep -P and the
# kernel's leaking_addresses.pl matching (not run by make check).
#
# usage: tests/bench/bench.sh real [SIZE [KLEAKSCAN]]
#        tests/bench/bench.sh [SIZE [KLEAKSCAN]]
#        tests/bench/bench.sh archives [SIZE [KLEAKSCAN]]
#   SIZE       of the inputs (mkinput.sh; default 1G)
#   KLEAKSCAN  the binary (default ./src/kleakscan, then $TOPSRC's): the
#              one users build, by ./bootstrap or make pgo (README)
# real: the real-log inputs (mkinput.sh: real.log, its hashed copy and
#   nohex.log), each against cat and rg -c, kleakscan -j1 -c and -j2 -c,
#   and the previous release's binary (BASE) in the same hyperfine run;
#   then real.log compressed with gzip, zstd and xz, kleakscan -c against
#   igzip -dc, zstdcat and xz -dc (and BASE); peak RSS of each (of -c,
#   text and --json output for the compressed ones: a stream is scanned
#   in chunks, whose events text and JSON output make many).
# archives: compressed inputs instead (see bench_archives below): a
#   .tar.gz, .tar.zst and .tar.xz of the first 300 MiB of addr.log in 100
#   members, and addr.log.gz, against igzip -dc, zcat, zstdcat and xzcat
#   writing to /dev/null, and kleakscan on the old paths (zlib, no
#   producer thread); the plain logs.tar against cat; kleakscan -j1 and
#   -j2 on each (one archive named alone: its members go to the workers).
# Environment: BENCH_DIR (inputs, default ${TMPDIR:-/tmp}/kleak-bench),
#   RUNS (hyperfine runs, default 5), WARMUP (default 1), BASE (the
#   previous release's kleakscan, for the real rows; skipped when unset).
#
# Every command writes through a pipe (| cat >/dev/null): GNU grep and
# ugrep notice a /dev/null stdout and stop at the first match.  A tool
# that is not installed is skipped.  Prints a table of medians, CPU
# times and the ratio of each to kleakscan -c on the same input.
set -eu

MODE=text
case ${1:-} in
archives|real)
	MODE=$1
	shift ;;
esac
TOPSRC=${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}
HERE=$(cd "$(dirname "$0")" && pwd)
SIZE=${1:-1G}
if [ -n "${2:-}" ]; then
	KLEAKSCAN=$2
elif [ -x ./src/kleakscan ]; then
	KLEAKSCAN=./src/kleakscan
else
	KLEAKSCAN=$TOPSRC/src/kleakscan
fi
KLEAKSCAN=$(cd "$(dirname "$KLEAKSCAN")" && pwd)/$(basename "$KLEAKSCAN")
DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/kleak-bench}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}

if ! command -v hyperfine >/dev/null 2>&1; then
	echo "bench: hyperfine is needed (apt-get install hyperfine)" >&2
	exit 2
fi
"$HERE/mkinput.sh" "$SIZE" "$DIR"

# x86_64 kernel addresses (4- and 5-level), as a grep would look for them.
RE='\b(0x)?ff[0-9a-f]{14}\b'

have() { command -v "$1" >/dev/null 2>&1; }

# report JSON BYTES [BASE]: medians of wall time, mean CPU time (user +
# system, of the whole pipeline) and the ratio of each to BASE (default
# kleakscan-c).  On a busy machine the CPU times are the steadier
# figures.
report() {
	perl -MJSON::PP -e '
	    my ($file, $bytes, $base) = @ARGV;
	    local $/; open my $fh, "<", $file or die; my $j = decode_json(<$fh>);
	    my ($k) = grep { $_->{command} eq $base } @{$j->{results}};
	    my $kc = $k->{user} + $k->{system};
	    printf "%-21s %9s %7s %8s %7s %8s %8s\n", "command", "median s",
	        "MB/s", "x klscan", "cpu s", "cpu MB/s", "x klscan";
	    for my $r (@{$j->{results}}) {
	        my $m = $r->{median};
	        my $c = $r->{user} + $r->{system};
	        printf "%-21s %9.3f %7.0f %8.2f %7.3f %8.0f %8.2f\n",
	            $r->{command}, $m, $bytes / $m / 1e6, $m / $k->{median},
	            $c, $bytes / $c / 1e6, $c / $kc;
	    }' "$1" "$2" "${3:-kleakscan-c}"
}

# report_arch JSON BYTES: medians, CPU time and the ratio of each median
# to the fastest decompressor's (a command named dec-*).
report_arch() {
	perl -MJSON::PP -e '
	    my ($file, $bytes) = @ARGV;
	    local $/; open my $fh, "<", $file or die; my $j = decode_json(<$fh>);
	    my ($best) = sort { $a <=> $b } map { $_->{median} }
	        grep { $_->{command} =~ /^dec-/ } @{$j->{results}};
	    printf "%-24s %9s %7s %8s %7s\n", "command", "median s",
	        "MB/s", "x dec", "cpu s";
	    for my $r (@{$j->{results}}) {
	        my $m = $r->{median};
	        printf "%-24s %9.3f %7.0f %8.2f %7.3f\n", $r->{command}, $m,
	            $bytes / $m / 1e6, $m / $best, $r->{user} + $r->{system};
	    }' "$1" "$2"
}

# Compressed inputs: each with its decompressors and kleakscan -c, the
# latter also on the old paths (KLEAKSCAN_NO_ISAL=1: zlib through
# libarchive; KLEAKSCAN_NO_PIPELINE=1: no producer thread), in one
# hyperfine run per input; then kleakscan's peak RSS.
bench_archives() {
	a=$DIR/arch
	if [ ! -s "$a/logs.tar.xz" ] || [ ! -s "$a/addr.log.gz" ]; then
		rm -rf "$a"
		mkdir -p "$a/logs"
		i=0
		while [ $i -lt 100 ]; do
			dd if="$DIR/addr.log" of="$a/logs/kern$(printf %03d $i).log" \
			    bs=1M skip=$((i * 3)) count=3 status=none
			i=$((i + 1))
		done
		(cd "$a" && tar -cf logs.tar logs)
		gzip -6 -c "$a/logs.tar" >"$a/logs.tar.gz"
		zstd -q -3 -c "$a/logs.tar" >"$a/logs.tar.zst"
		xz -6 -T2 -c "$a/logs.tar" >"$a/logs.tar.xz"
		gzip -6 -c "$DIR/addr.log" >"$a/addr.log.gz"
	fi
	for f in logs.tar logs.tar.gz addr.log.gz logs.tar.zst logs.tar.xz; do
		p=$a/$f
		case $f in
		*.tar)
			set -- -n dec-cat "cat $p >/dev/null"
			bytes=$(wc -c <"$p") ;;
		*.gz)
			set --
			have igzip && set -- -n dec-igzip "igzip -dc $p >/dev/null"
			set -- "$@" -n dec-zcat "zcat $p >/dev/null"
			bytes=$(gzip -dc "$p" | wc -c) ;;
		*.zst)
			set -- -n dec-zstdcat "zstdcat $p >/dev/null"
			bytes=$(zstdcat "$p" | wc -c) ;;
		*.xz)
			set -- -n dec-xzcat "xzcat $p >/dev/null"
			bytes=$(xzcat "$p" | wc -c) ;;
		esac
		set -- "$@" -n kleakscan-c "$KLEAKSCAN -c $p | cat >/dev/null" \
		    -n kleakscan-c-j1 "$KLEAKSCAN -j1 -c $p | cat >/dev/null" \
		    -n kleakscan-c-j2 "$KLEAKSCAN -j2 -c $p | cat >/dev/null" \
		    -n kleakscan-c-nothread \
		    "KLEAKSCAN_NO_PIPELINE=1 $KLEAKSCAN -c $p | cat >/dev/null"
		case $f in
		*.gz)
			set -- "$@" -n kleakscan-c-zlib-nothread \
			    "KLEAKSCAN_NO_ISAL=1 KLEAKSCAN_NO_PIPELINE=1 $KLEAKSCAN -c $p | cat >/dev/null" ;;
		esac
		hyperfine -i --style none -w "$WARMUP" -r "$RUNS" \
		    --export-json "$DIR/$f.json" "$@" >/dev/null
		echo
		echo "input: $f, $(wc -c <"$p" | tr -d ' ') bytes, $bytes expanded"
		report_arch "$DIR/$f.json" "$bytes"
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f %M -o "$DIR/rss" "$KLEAKSCAN" -c "$p" \
			    >/dev/null 2>&1 || :
			echo "kleakscan -c peak RSS: $(tail -n 1 "$DIR/rss") KiB"
		fi
	done
}

# bench_input NAME FILE HYPERFINE-ARGS...: one hyperfine run of the
# commands on FILE (-i: grep and kleakscan exit 1 when they find
# something), then its table (report()).
bench_input() {
	name=$1 file=$2
	shift 2
	hyperfine -i --style none -w "$WARMUP" -r "$RUNS" \
	    --export-json "$DIR/$name.json" "$@" >/dev/null
	echo
	echo "input: $name.log, $(wc -c <"$file" | tr -d ' ') bytes"
	report "$DIR/$name.json" "$(wc -c <"$file")"
}

# rss CMD...: the peak RSS of a command in KiB (GNU time), or "-".
rss() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$DIR/rss" "$@" >/dev/null 2>&1 || :
		tail -n 1 "$DIR/rss"
	else
		echo -
	fi
}

# The real-log rows: see the head of this file.
bench_real() {
	for input in real real-hashed nohex; do
		f=$DIR/$input.log
		set -- -n cat "cat $f | cat >/dev/null"
		have rg && set -- "$@" -n rg "rg -c '$RE' $f | cat >/dev/null"
		[ -n "${BASE:-}" ] && set -- "$@" -n base-j1-c \
		    "$BASE -j1 -c $f | cat >/dev/null"
		set -- "$@" -n kleakscan-c "$KLEAKSCAN -j1 -c $f | cat >/dev/null" \
		    -n kleakscan-j2-c "$KLEAKSCAN -j2 -c $f | cat >/dev/null"
		[ -n "${BASE:-}" ] && set -- "$@" -n base-j2-c \
		    "$BASE -j2 -c $f | cat >/dev/null"
		bench_input "$input" "$f" "$@"
		echo "kleakscan -j1 -c peak RSS: $(rss "$KLEAKSCAN" -j1 -c "$f") KiB;" \
		    "-j2: $(rss "$KLEAKSCAN" -j2 -c "$f") KiB"
	done
	f=$DIR/real.log
	[ -s "$f.gz" ] || gzip -6 -c "$f" >"$f.gz"
	[ -s "$f.zst" ] || zstd -q -3 -c "$f" >"$f.zst"
	[ -s "$f.xz" ] || xz -6 -T2 -c "$f" >"$f.xz"
	bytes=$(wc -c <"$f")
	for z in gz zst xz; do
		p=$f.$z
		case $z in
		gz)
			set --
			have igzip && set -- -n dec-igzip "igzip -dc $p >/dev/null"
			set -- "$@" -n dec-zcat "zcat $p >/dev/null" ;;
		zst) set -- -n dec-zstdcat "zstdcat $p >/dev/null" ;;
		xz) set -- -n dec-xz "xz -dc $p >/dev/null" \
		    -n dec-xz-T2 "xz -T2 -dc $p >/dev/null" ;;
		esac
		set -- "$@" -n kleakscan-c "$KLEAKSCAN -c $p | cat >/dev/null"
		[ -n "${BASE:-}" ] && set -- "$@" -n base-c \
		    "$BASE -c $p | cat >/dev/null"
		hyperfine -i --style none -w "$WARMUP" -r "$RUNS" \
		    --export-json "$DIR/real.$z.json" "$@" >/dev/null
		echo
		echo "input: real.log.$z, $(wc -c <"$p" | tr -d ' ') bytes, $bytes expanded"
		report_arch "$DIR/real.$z.json" "$bytes"
		echo "kleakscan -c peak RSS: $(rss "$KLEAKSCAN" -c "$p") KiB;" \
		    "text: $(rss "$KLEAKSCAN" "$p") KiB;" \
		    "--json: $(rss "$KLEAKSCAN" --json "$p") KiB"
	done
}

if [ "$MODE" = archives ]; then
	bench_archives
	exit 0
fi
if [ "$MODE" = real ]; then
	bench_real
	exit 0
fi

for input in addr noaddr; do
	f=$DIR/$input.log
	set -- -n cat "cat $f | cat >/dev/null"
	have rg && set -- "$@" -n rg "rg -c '$RE' $f | cat >/dev/null"
	have grep && set -- "$@" -n grep-P "grep -cP '$RE' $f | cat >/dev/null"
	have ugrep && set -- "$@" -n ugrep-P "ugrep -cP '$RE' $f | cat >/dev/null"
	have perl && set -- "$@" -n leaking_addresses.pl \
	    "perl $HERE/leaking-addresses.pl $f | cat >/dev/null"
	# -j1: one thread (a big file is scanned in chunks on every core
	# by default); --redact both into a pipe and into a file.
	set -- "$@" -n kleakscan-c "$KLEAKSCAN -j1 -c $f | cat >/dev/null" \
	    -n kleakscan-redact "$KLEAKSCAN -j1 --redact $f | cat >/dev/null" \
	    -n kleakscan-redact-o "$KLEAKSCAN -j1 --redact -o $DIR/redacted.out $f"
	bench_input "$input" "$f" "$@"
	rm -f "$DIR/redacted.out"
done

# Parallel scanning (-j): many inputs (addr.log cut into 64 files at line
# boundaries, and the corpus three times over: 2193 small files), and the
# one big file, each with one worker and with two.
if [ ! -s "$DIR/split/part.63" ]; then
	rm -rf "$DIR/split"
	mkdir -p "$DIR/split"
	split -n l/64 -d -a 2 "$DIR/addr.log" "$DIR/split/part."
fi
if [ ! -d "$DIR/corpus3/c3" ]; then
	rm -rf "$DIR/corpus3"
	mkdir -p "$DIR/corpus3"
	for i in 1 2 3; do
		cp -R "$TOPSRC/../shared/corpus" "$DIR/corpus3/c$i"
	done
fi
for input in split corpus3 addr.log; do
	f=$DIR/$input
	hyperfine -i --style none -w "$WARMUP" -r "$RUNS" \
	    --export-json "$DIR/jobs-$input.json" \
	    -n kleakscan-j1 "$KLEAKSCAN -j1 -c $f | cat >/dev/null" \
	    -n kleakscan-j2 "$KLEAKSCAN -j2 -c $f | cat >/dev/null" \
	    >/dev/null
	bytes=$(find "$f" -type f -exec cat {} + | wc -c)
	echo
	echo "input: $input ($(find "$f" -type f | wc -l) files), $bytes bytes"
	report "$DIR/jobs-$input.json" "$bytes" kleakscan-j1
done
