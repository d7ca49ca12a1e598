#!/bin/sh
# xz-mt.sh - xz decoded by liblzma's threaded decoder: multi-block files
# made with xz -T2 --block-size=64KiB from the logs of the tests
# give the findings of the uncompressed logs, as a file, on stdin, with
# -j1 and -j2, single-block and concatenated streams too, and a .tar.xz
# of them the findings of the .tar; a cut stream, a corrupted byte and
# garbage after the end give one line each (the messages of the
# libarchive path, KLEAKSCAN_NO_LZMA_MT=1), at the byte where xz -dc
# stops, exit status 2, and the other inputs are still scanned.  And
# zstd and lz4 streams that start with skippable frames (pzstd).

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

for t in xz tar; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "1..0 # SKIP $t is not installed"
		exit 0
	fi
done

cd "$TMP" || exit 99

# Built with liblzma >= 5.4: every byte before damage is handed out.
MT=no
"$KLEAKSCAN" --version | grep -q '^xz: liblzma threaded$' && MT=yes
diag "xz decoded by liblzma's threaded decoder: $MT"

# nolib ARGS...: kleakscan with xz through libarchive.
nolib() {
	KLEAKSCAN_NO_LZMA_MT=1 "$KLEAKSCAN" "$@"
}

# blocks FILE: the number of blocks in the xz file FILE.
blocks() {
	xz --robot -l "$1" | awk -F '\t' '$1 == "totals" { print $3 }'
}

# The real logs of ../shared/corpus, one after the other: 410 KiB, seven
# 64 KiB blocks; without the corpus, the logs of tests/data six times.
if real_copy real; then
	cat real/x86_64-ubuntu-5.4-oops.dmesg real/i386-loghub-2.6.5.syslog \
	    real/riscv64-orangepi-rv2-6.6.dmesg \
	    "$TESTDATA"/x86_64-qemu-6.1-no-hash-pointers.console \
	    real/arm64-orangepi5-5.10-oops.dmesg \
	    "$TESTDATA"/x86_64-qemu-6.1-four-boots.console \
	    real/arm64-rg353v-6.4-console.log >all.log
	cp real/arm64-orangepi5-5.10-boot.dmesg first.log
	cp real/arm-anyka-3.4-layout.dmesg last.log
else
	for i in 1 2 3 4 5 6; do
		cat "$TESTDATA"/*.console "$WRITTEN"/*
	done >all.log
	cp "$WRITTEN"/arm64-boot.dmesg first.log
	cp "$WRITTEN"/arm-layout.dmesg last.log
fi
xz -T2 --block-size=64KiB -c all.log >multi.xz
nb=$(blocks multi.xz)
ok "xz -T2 --block-size=64KiB wrote a multi-block file ($nb blocks)" \
    test "$nb" -ge 6

run -h --show-suppressed all.log
plain=$OUT
ok "the plain log has findings" test -n "$plain"
run -h --show-suppressed multi.xz
is "$STATUS:$ERR" "1:" "multi-block xz: exit status 1, nothing on stderr"
is "$OUT" "$plain" "multi-block xz: the findings of the plain log"
run -h --show-suppressed - <multi.xz
is "$OUT" "$plain" "multi-block xz on stdin: the same"
run -h --show-suppressed -j1 multi.xz
is "$OUT" "$plain" "multi-block xz with -j1 (one thread): the same"
run -h --show-suppressed -j2 multi.xz
is "$OUT" "$plain" "multi-block xz with -j2: the same"
# -j N leaves the scan a core: -j3 and -j4 decode on 2 and 3 threads.
for j in 3 4; do
	run -h --show-suppressed -j$j multi.xz
	is "$STATUS:$OUT" "1:$plain" "multi-block xz with -j$j (threads): the same"
done
KLEAKSCAN_NO_LZMA_MT=1 "$KLEAKSCAN" --json multi.xz >old.json 2>old.err
"$KLEAKSCAN" --json multi.xz >new.json 2>new.err
ok "multi-block xz: the --json output of the libarchive path" \
    cmp -s old.json new.json

xz -T1 -c all.log >single.xz
is "$(blocks single.xz)" 1 "xz -T1 wrote one block"
run -h --show-suppressed single.xz
is "$STATUS:$OUT" "1:$plain" "single-block xz: the findings of the plain log"

# Concatenated streams, with stream padding between two: as xz -dc.
xz -T2 --block-size=64KiB -c first.log >cat.xz
cat multi.xz >>cat.xz
head -c 8 /dev/zero >>cat.xz
xz -T1 -c last.log >>cat.xz
cat first.log all.log last.log >cat.log
run -h --show-suppressed cat.log
plaincat=$OUT
run -h --show-suppressed cat.xz
is "$STATUS:$ERR" "1:" "concatenated xz streams: exit status 1, nothing on stderr"
is "$OUT" "$plaincat" "concatenated xz streams: the findings of all three logs"
head -c 4 /dev/zero >>cat.xz
run -h --show-suppressed cat.xz
is "$STATUS:$OUT" "1:$plaincat" "concatenated xz streams, padding at the end: the same"

# A .tar.xz: xz decoded here, the tar read by libarchive.
mkdir m
cp all.log first.log last.log m/
tar -cf m.tar m
xz -T2 --block-size=64KiB -c m.tar >m.tar.xz
run -c m.tar
want=$(printf '%s\n' "$OUT" | sed 's/^m\.tar{/m.tar.xz{/')
for j in 1 2 3; do
	run -c -j$j m.tar.xz
	is "$STATUS:$ERR" "1:" "multi-block tar.xz -j$j: exit status 1, nothing on stderr"
	is "$OUT" "$want" "multi-block tar.xz -j$j: the counts of the tar"
done
"$KLEAKSCAN" --json m.tar.xz >new.json 2>&1
nolib --json m.tar.xz >old.json 2>&1
ok "multi-block tar.xz: the --json output of the libarchive path" \
    cmp -s old.json new.json

# damaged DESC FILE MESSAGE: FILE between two good logs: one line on
# stderr with MESSAGE, at the byte where xz -dc stops (with the threaded
# decoder), the same message through libarchive, exit status 2, both
# good logs scanned.
damaged() {
	dm_d=$1
	dm_f=$2
	dm_m=$3
	dm_b=${dm_f%.xz}
	run -c first.log "$dm_f" last.log
	is_status 2 "$dm_d"
	like "$ERR" "^kleakscan: $dm_b\\.xz\\{$dm_b\\}: $dm_b: broken at byte [0-9]+: xz: $dm_m\$" \
	    "$dm_d: one line naming the input"
	like "$OUT" "^first\\.log:[1-9][0-9]*
$dm_b\\.xz\\{$dm_b\\}:[0-9]+
last\\.log:[1-9][0-9]*\$" "$dm_d: the other inputs are scanned"
	if [ "$MT" = yes ]; then
		dm_n=$(xz -dc "$dm_f" 2>/dev/null | wc -c | tr -d ' ')
		like "$ERR" "broken at byte $dm_n: " \
		    "$dm_d: every byte xz -dc gives is scanned ($dm_n)"
	fi
	nolib -c first.log "$dm_f" last.log >old.out 2>old.err
	like "$?:$(cat old.err)" "^2:kleakscan: $dm_b\\.xz\\{$dm_b\\}: $dm_b: broken at byte [0-9]+: xz: $dm_m\$" \
	    "$dm_d: the same message through libarchive"
}
sz=$(wc -c <multi.xz | tr -d ' ')
head -c $((sz / 2)) multi.xz >cut.xz
damaged "multi-block xz cut in half" cut.xz \
    "lzma library error: no progress is possible"
head -c $((sz - 3)) multi.xz >cutend.xz
damaged "multi-block xz without its last 3 bytes" cutend.xz \
    "lzma library error: no progress is possible"
cp multi.xz corrupt.xz
printf '\377' | dd of=corrupt.xz bs=1 seek=$((sz / 3)) conv=notrunc 2>/dev/null
damaged "multi-block xz with a corrupted byte" corrupt.xz \
    "lzma library error: corrupted input data"
cat multi.xz >junk.xz
printf 'junk after the end of the stream\n' >>junk.xz
damaged "multi-block xz with garbage after it" junk.xz \
    "lzma library error: corrupted input data"
cat multi.xz >pad5.xz
head -c 5 /dev/zero >>pad5.xz
damaged "multi-block xz with 5 bytes of padding" pad5.xz \
    "lzma library error: corrupted input data"
run -c - <cut.xz
like "$STATUS:$ERR" '^2:kleakscan: \(standard input\)\{\(standard input\)\}: \(standard input\): broken at byte [0-9]+: xz: lzma library error: no progress is possible$' \
    "multi-block xz cut short on stdin: one line"

# A cut .tar.xz: the member it cuts says so, the others before it are
# scanned.
sz=$(wc -c <m.tar.xz | tr -d ' ')
head -c $((sz * 2 / 3)) m.tar.xz >mcut.tar.xz
run -c mcut.tar.xz last.log
is_status 2 "multi-block tar.xz cut short"
like "$ERR" '^kleakscan: mcut\.tar\.xz\{m/[a-z.]+\}: m/[a-z.]+: broken at byte [0-9]+: xz: lzma library error: no progress is possible$' \
    "multi-block tar.xz cut short: one line naming the member"
like "$OUT" 'last\.log:[1-9][0-9]*$' \
    "multi-block tar.xz cut short: the next input is scanned"

# A multi-block .xz member of a .tar.gz cut inside it: the gzip layer
# breaks under the decoder, which hands out what it can decode of the
# bytes it got (what xz -dc makes of them), every time, whatever the
# threads' timing, then the gzip message.
mkdir x
cp multi.xz x/
tar -cf x.tar x
gzip -c x.tar >x.tar.gz
sz=$(wc -c <x.tar.gz | tr -d ' ')
head -c $((sz * 2 / 3)) x.tar.gz >xcut.tar.gz
n=$(gzip -dc xcut.tar.gz 2>/dev/null | tail -c +1025 | xz -dc 2>/dev/null |
    wc -c | tr -d ' ')
bad=
for i in 1 2 3; do
	for j in 1 2 3; do
		run -c -j$j xcut.tar.gz
		case $STATUS:$ERR in
		"2:kleakscan: xcut.tar.gz{x/multi.xz}{multi}: multi: broken at byte $n: gzip: truncated gzip input")
			;;
		*)
			bad="$bad [$i -j$j: $STATUS:$ERR]"
			;;
		esac
	done
done
if [ "$MT" = yes ]; then
	is "$bad" "" "a cut .tar.gz around a multi-block .xz: byte $n (xz -dc), every time"
else
	skip "a cut .tar.gz around a multi-block .xz" "xz through libarchive"
fi

# pzstd writes a skippable frame (the size of the next frame) before
# each zstd frame, so that it can decode them in parallel; zstd and lz4
# share that magic: the frame after the skippable ones tells them apart.
if command -v pzstd >/dev/null 2>&1; then
	pzstd -q -p 2 -c all.log >all.log.zst 2>/dev/null
	run -h --show-suppressed all.log.zst
	is "$STATUS:$ERR:$OUT" "1::$plain" "pzstd's skippable frames first: the findings of the plain log"
else
	skip "pzstd's skippable frames first" "pzstd is not installed"
fi
if command -v lz4 >/dev/null 2>&1; then
	printf 'P*M\030\003\000\000\000abc' >skip.lz4
	lz4 -q -c all.log >>skip.lz4
	run -h --show-suppressed skip.lz4
	is "$STATUS:$ERR:$OUT" "1::$plain" "lz4 after a skippable frame: the findings of the plain log"
else
	skip "lz4 after a skippable frame" "lz4 is not installed"
fi

done_testing
