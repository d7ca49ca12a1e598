#!/bin/sh
# chunk.sh - -j 2 on one big plain file scans it in chunks on threads
# (lib/chunk.c): the same bytes on stdout and stderr and the same exit
# status as -j 1, in every output mode, on real logs, with chunks forced
# tiny (KLEAKSCAN_CHUNK_BYTES) so that every cut, resync and rescan path
# runs; KLEAKSCAN_CHUNK_DEBUG=1 says on stderr that the chunks ran and
# how (the line is taken out before comparing).

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}
MAP=$TESTDATA/x86_64-debian-6.1.0-57-System.map.slice

# The output modes compared (one per line; words are arguments).
MODES='
-c
-H -b --stats
-l
-L
-q
--json
--report
--report --json
--sarif
--verdict
--verdict --json --system-map='"$MAP"'
--physical --show-suppressed
-a x86_64
--stats -c
'

# The totals of the debug lines of the last run.
CHUNKS=0 ACCEPTED=0 RESYNCED=0 RESCANNED=0

# cmp1 FILE CB ARGS...: -j 1, and -j $J (2 unless set) with chunks of CB
# bytes; sets BAD to what differed and adds up the debug counters.
J=2
cmp1() {
	f=$1 cb=$2
	shift 2
	"$KLEAKSCAN" -j1 "$@" "$f" >"$TMP/a.out" 2>"$TMP/a.err" </dev/null
	sa=$?
	KLEAKSCAN_CHUNK_BYTES=$cb KLEAKSCAN_CHUNK_DEBUG=1 \
	    "$KLEAKSCAN" -j$J "$@" "$f" >"$TMP/b.out" 2>"$TMP/b.all" </dev/null
	sb=$?
	grep -v '^kleakscan: chunks ' "$TMP/b.all" >"$TMP/b.err"
	dbg=$(grep '^kleakscan: chunks ' "$TMP/b.all")
	if [ -n "$dbg" ]; then
		set -- $dbg
		CHUNKS=$((CHUNKS + $3))
		ACCEPTED=$((ACCEPTED + $5))
		RESYNCED=$((RESYNCED + $7))
		RESCANNED=$((RESCANNED + $9))
	fi
	cmp -s "$TMP/a.out" "$TMP/b.out" || BAD="$BAD [$*]:stdout"
	cmp -s "$TMP/a.err" "$TMP/b.err" || BAD="$BAD [$*]:stderr"
	[ "$sa" = "$sb" ] || BAD="$BAD [$*]:status=$sa/$sb"
}

# same DESC FILE CB...: every mode, for each chunk size CB.
same() {
	desc=$1 file=$2
	shift 2
	BAD=
	CHUNKS=0 ACCEPTED=0 RESYNCED=0 RESCANNED=0
	for cb in "$@"; do
		echo "$MODES" | while IFS= read -r m; do
			[ -n "$m" ] || continue
			# shellcheck disable=SC2086
			cmp1 "$file" "$cb" $m
			echo "BAD='$BAD' CHUNKS=$CHUNKS ACCEPTED=$ACCEPTED RESYNCED=$RESYNCED RESCANNED=$RESCANNED" >"$TMP/state"
		done
		. "$TMP/state"
	done
	is "$BAD" "" "$desc: -j$J in chunks of $* bytes = -j1"
}

# The inputs of tests/data (the project's QEMU boots, the written logs).
QEMU1=$TESTDATA/x86_64-qemu-6.1-no-hash-pointers.console
cat "$TESTDATA"/*.console >"$TMP/qemu.log"
# Different machines one after another: chunks disagree at the cuts.
cat "$WRITTEN"/arm64-boot.dmesg "$WRITTEN"/x86_64-oops.dmesg \
    "$WRITTEN"/riscv64-boot.dmesg "$WRITTEN"/arm-layout.dmesg \
    "$TESTDATA"/x86_64-qemu-6.1-four-boots.console \
    "$WRITTEN"/ppc64-oops.log "$QEMU1" >"$TMP/mixed.log"
# Boots told apart by the kernel clock alone (no banner).
grep -v 'Linux version' "$WRITTEN"/x86_64-oops.dmesg >"$TMP/snip"
cat "$TMP/snip" "$TMP/snip" "$TMP/snip" "$TMP/snip" >"$TMP/clock.log"
# CRLF line ends, no newline at the end, a line of 200 KB.
sed 's/$/\r/' "$QEMU1" >"$TMP/crlf.log"
head -c -1 "$TMP/qemu.log" >"$TMP/nonl.log"
{
	head -n 300 "$QEMU1"
	awk 'BEGIN { for (i = 0; i < 12000; i++)
	    printf "x ffffffff8%07x ", i * 4096; print "" }'
	tail -n +300 "$QEMU1"
} >"$TMP/long.log"

same "mixed machines" "$TMP/mixed.log" 1024 4096 10000
is "$((CHUNKS > 0))" 1 "mixed machines: the chunked scan ran ($CHUNKS chunks)"
is "$((ACCEPTED > 0))" 1 "mixed machines: chunks accepted as scanned ahead"
is "$((RESYNCED + RESCANNED > 0))" 1 \
    "mixed machines: chunks that disagreed were resynced or rescanned"
same "boots by the clock" "$TMP/clock.log" 300 1000 5000
is "$((ACCEPTED > 0))" 1 "boots by the clock: chunks accepted"
same "qemu boots" "$TMP/qemu.log" 1024 4096
is "$((ACCEPTED > 0 && RESYNCED > 0))" 1 \
    "qemu boots: chunks accepted and resynced at new boots"
# Boots that each start with a banner, as the corpus's boot logs do: a
# chunk scanned ahead from a state that has seen a banner is cut before
# the last banner of its second half (lib/chunk.c banner_cut()), so the
# next one starts with a new boot; few chunks are then scanned again in
# order (without the cut, 232 of 1113 were).
for i in 1 2 3 4 5 6 7 8 9 10; do
	cat "$WRITTEN"/x86_64-oops.dmesg "$WRITTEN"/x86_64-oops.dmesg \
	    "$WRITTEN"/x86_64-oops.dmesg "$WRITTEN"/x86_64-oops.dmesg \
	    "$WRITTEN"/x86_64-oops.dmesg "$WRITTEN"/x86_64-oops.dmesg
done >"$TMP/banners.log"
same "banner-started boots" "$TMP/banners.log" 4096 16384
is "$((CHUNKS > 0 && RESCANNED * 10 < CHUNKS))" 1 \
    "banner-started boots: chunks cut before a banner, $RESCANNED of $CHUNKS scanned again"
same "CRLF" "$TMP/crlf.log" 4096 777
same "no final newline" "$TMP/nonl.log" 4096
same "a 200 KB line" "$TMP/long.log" 4096 50000
is "$((CHUNKS > 0))" 1 "a 200 KB line: the chunked scan ran"
# Chunks that record more than a huge page of findings each: under a
# line filter (-c, -l) the first 2 MiB of a slot's lists are a huge page,
# the rest grows on the heap (lib/chunk.c list_grow()).  1 MiB chunks of
# 17,000 lines, 34,000 findings: 5 MB of findings, 2 MB of events each.
# (Only -c and the like take the huge page, and they print counts, not
# findings: test-chunk's test_dense checks each finding's fields.)
awk 'BEGIN { for (i = 0; i < 60000; i++)
    printf "[%5d.%06d] pid %d at ffffffff8%07x ffffffffc%07x\n",
        i / 1000, i % 1000000, i, i * 64, i * 32 }' >"$TMP/dense.log"
BAD=
CHUNKS=0 ACCEPTED=0 RESYNCED=0 RESCANNED=0
for m in "-c" "-a x86_64 -c" "-l" "--stats -c" "-a x86_64"; do
	# shellcheck disable=SC2086
	cmp1 "$TMP/dense.log" 1048576 $m
done
is "$BAD" "" "dense findings: -j2 in chunks of 1 MiB = -j1"
is "$((CHUNKS >= 3 && ACCEPTED + RESYNCED >= 2))" 1 \
    "dense findings: chunks scanned ahead ($CHUNKS)"

# Compressed streams, one named input: decompressed on the input
# layer's thread, their text scanned in chunks as it comes (unit.c,
# kl_chunk_feed()); cut short, the same error at the same place.  -j 3:
# the decoder has a thread of its own, so -c and the like chunk a stream
# only from three threads on (src/chunk.c, stream_threads()).
J=3
for z in gzip zstd xz; do
	case $z in
	gzip) ext=gz ;;
	zstd) ext=zst ;;
	*) ext=xz ;;
	esac
	if ! command -v $z >/dev/null 2>&1; then
		skip "$z streams in chunks" "no $z"
		continue
	fi
	for f in mixed qemu nonl long banners; do
		$z -c "$TMP/$f.log" >"$TMP/$f.log.$ext"
	done
	same "$z: mixed machines" "$TMP/mixed.log.$ext" 1024 4096
	is "$((CHUNKS > 0 && ACCEPTED + RESYNCED > 0))" 1 \
	    "$z: mixed machines: chunks scanned ahead ($CHUNKS)"
	same "$z: qemu boots" "$TMP/qemu.log.$ext" 4096
	same "$z: banner-started boots" "$TMP/banners.log.$ext" 16384 32768
	is "$((CHUNKS > 0 && RESCANNED * 10 < CHUNKS))" 1 \
	    "$z: banner-started boots: $RESCANNED of $CHUNKS scanned again"
	same "$z: no final newline" "$TMP/nonl.log.$ext" 4096
	same "$z: a 200 KB line" "$TMP/long.log.$ext" 4096 50000
	size=$(wc -c <"$TMP/banners.log.$ext")
	head -c $((size * 2 / 3)) "$TMP/banners.log.$ext" >"$TMP/cut.$ext"
	same "$z: cut short" "$TMP/cut.$ext" 4096
	grep -q 'kleakscan: ' "$TMP/a.err"
	is $? 0 "$z: cut short: an error, as in order"
done
J=2

# How many threads a stream's chunks get: with -j 2, -c and -l leave the
# second core to the decoder and scan in order; text and --report, whose
# every line the main thread reads, still chunk; -j 3 -c chunks.
if command -v gzip >/dev/null 2>&1; then
	for args in "-j2 -c:0" "-j2 -l:0" "-j2 -q:0" "-j2 :1" "-j2 --report:1" \
	    "-j3 -c:1" "-j1 :0"; do
		want=${args##*:}
		# shellcheck disable=SC2086
		KLEAKSCAN_CHUNK_BYTES=4096 KLEAKSCAN_CHUNK_DEBUG=1 \
		    "$KLEAKSCAN" ${args%:*} "$TMP/mixed.log.gz" >/dev/null \
		    2>"$TMP/thr.err" </dev/null
		is "$(grep -c '^kleakscan: chunks' "$TMP/thr.err")" "$want" \
		    "gzip stream, ${args%:*}: chunked $want"
	done
else
	skip "threads of a stream's chunks" "no gzip"
fi

# The project's own QEMU boots (tests/qemu/boots): nine machines' consoles
# one after another (CR LF), then their captured dmesg without the
# banners (LF; boots told apart by the kernel clock alone).
: >"$TMP/own.log"
: >"$TMP/ownd.log"
for b in $(ls "$OWN_BOOTS"); do
	d=$(own_boot "$b") || continue
	cat "$d/console.log" >>"$TMP/own.log"
	grep -v 'Linux version' "$d/root/sos_commands/kernel/dmesg" >>"$TMP/ownd.log"
done
if [ -s "$TMP/own.log" ]; then
	same "own boots' consoles" "$TMP/own.log" 4096 100000
	is "$((ACCEPTED > 0 && RESYNCED > 0))" 1 \
	    "own boots' consoles: chunks accepted and resynced at new boots"
	same "own boots' dmesg, no banner" "$TMP/ownd.log" 4096 50000
	is "$((CHUNKS > 0))" 1 "own boots' dmesg: the chunked scan ran"
	# One machine's consoles, boot after boot, as a serial log keeps
	# them: a chunk's first new boot is taken over from the scan ahead
	# (resynced), though the real scan is never clean at a cut (a boot
	# holds waiting tokens), so the chunks start from its latest state,
	# not the file start's (no banner seen, 57 of 59 scanned again).
	: >"$TMP/series.log"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		for b in x86_64-kaslr x86_64-nokaslr x86_64-no-hash-pointers; do
			d=$(own_boot "$b") && cat "$d/console.log"
		done
	done >>"$TMP/series.log"
	same "one machine's boots" "$TMP/series.log" 65536
	is "$((CHUNKS > 10 && RESCANNED * 4 < CHUNKS))" 1 \
	    "one machine's boots: $RESCANNED of $CHUNKS chunks scanned again"
	# The same with the firmware's lines before each boot (plain), as a
	# serial console shows them: a chunk cut before a banner starts
	# after a plain line, where the state it was scanned ahead from had
	# seen a dmesg one; framing reads the banner alike after either
	# (kl_frame_prev_same()), so the chunk is taken (76 of 672 chunks
	# were scanned again when the two kinds had to be the same).
	sed 's/^\(\[    0\.000000\] Linux version \)/SeaBIOS (version 1.16.2)\
Booting from ROM...\
\1/' "$TMP/series.log" >"$TMP/fw.log"
	same "one machine's boots after firmware" "$TMP/fw.log" 65536
	is "$((CHUNKS > 10 && RESCANNED * 10 < CHUNKS))" 1 \
	    "after firmware: $RESCANNED of $CHUNKS chunks scanned again"
else
	skip "own boots in chunks" "no boots in $OWN_BOOTS or no xz"
fi
# The same on the real logs of ../shared/corpus when it is there.
if [ -d "$CORPUS/qemu" ] && [ -d "$CORPUS/boot" ] &&
    real_copy "$TMP/real"; then
	cat "$CORPUS"/qemu/*/console.log "$CORPUS"/qemu/*/dmesg.log \
	    >"$TMP/cqemu.log"
	cat "$CORPUS"/boot/* >"$TMP/boot.log"
	cat "$TMP/real"/arm64-orangepi5-5.10-boot.dmesg \
	    "$TMP/real"/x86_64-ubuntu-5.4-oops.dmesg \
	    "$TMP/real"/riscv64-orangepi-rv2-6.6.dmesg \
	    "$TMP/real"/arm-anyka-3.4-layout.dmesg \
	    "$TESTDATA"/x86_64-qemu-6.1-four-boots.console \
	    "$TMP/real"/ppc64-syzkaller-5.4-oops.report \
	    "$QEMU1" >"$TMP/cmixed.log"
	# Dense: the corpus's boot logs, syzkaller reports and QEMU consoles.
	cat "$CORPUS"/boot/* "$CORPUS"/syzkaller/report/* \
	    "$CORPUS"/qemu/*/console.log >"$TMP/dense.log"
	grep -v 'Linux version' \
	    "$CORPUS"/qemu/x86_64-6.1.0-57-amd64-boot1/dmesg.log >"$TMP/snip"
	cat "$TMP/snip" "$TMP/snip" "$TMP/snip" "$TMP/snip" >"$TMP/cclock.log"
	same "real: mixed machines" "$TMP/cmixed.log" 4096 1000 65536
	is "$((RESYNCED + RESCANNED > 0))" 1 \
	    "real: mixed machines: chunks that disagreed were resynced or rescanned"
	same "real: dense corpus" "$TMP/dense.log" 4096 100000 1000000
	is "$((ACCEPTED > 0 && RESYNCED > 0))" 1 \
	    "real: dense corpus: chunks accepted and resynced at new boots"
	same "real: boots by the clock" "$TMP/cclock.log" 300 1000 5000 7777
	is "$((ACCEPTED > 0))" 1 "real: boots by the clock: chunks accepted"
	same "real: qemu boots" "$TMP/cqemu.log" 4096 12345
	same "real: corpus boot logs" "$TMP/boot.log" 4096 100000
	is "$((CHUNKS > 0))" 1 "real: corpus boot logs: the chunked scan ran"
	for f in "$TMP/real"/*; do
		same "real: $(basename "$f")" "$f" 300 4096
	done
else
	skip "the real logs in chunks" "no corpus at $CORPUS"
fi

# Every file of tests/data, in chunks of 300 bytes and of 4 KiB.
for f in "$TESTDATA"/* "$WRITTEN"/*; do
	case $f in
	*ATTRIBUTION) continue ;;
	esac
	[ -f "$f" ] || continue
	same "$(basename "$f")" "$f" 300 4096
done

# Off: KLEAKSCAN_NO_CHUNK=1, and files below the size.
KLEAKSCAN_NO_CHUNK=1 KLEAKSCAN_CHUNK_BYTES=4096 KLEAKSCAN_CHUNK_DEBUG=1 \
    "$KLEAKSCAN" -j2 -c "$TMP/qemu.log" >/dev/null 2>"$TMP/off.err"
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err")" 0 \
    "KLEAKSCAN_NO_CHUNK=1: no chunks"
KLEAKSCAN_CHUNK_DEBUG=1 "$KLEAKSCAN" -j2 -c "$TMP/qemu.log" >/dev/null \
    2>"$TMP/off.err"
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err")" 0 \
    "a file below 64 MiB: no chunks"
# ...and one of 64 MiB, with no test size set, is chunked (128 MiB was
# the size before stop 41), the same count as in order.
: >"$TMP/big.log"
while [ "$(wc -c <"$TMP/big.log")" -lt 67108864 ]; do
	cat "$TMP/qemu.log" "$TMP/qemu.log" "$TMP/qemu.log" "$TMP/qemu.log" \
	    >>"$TMP/big.log"
done
KLEAKSCAN_CHUNK_DEBUG=1 "$KLEAKSCAN" -j2 -c "$TMP/big.log" >"$TMP/big.b" \
    2>"$TMP/off.err"
"$KLEAKSCAN" -j1 -c "$TMP/big.log" >"$TMP/big.a" 2>/dev/null
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err") $(cat "$TMP/big.b")" \
    "1 $(cat "$TMP/big.a")" "a file of 64 MiB: chunks, the same count"
rm -f "$TMP/big.log"
KLEAKSCAN_CHUNK_BYTES=4096 KLEAKSCAN_CHUNK_DEBUG=1 \
    "$KLEAKSCAN" -j1 -c "$TMP/qemu.log" >/dev/null 2>"$TMP/off.err"
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err")" 0 "-j1: no chunks"
# A small compressed file, and mail (plain or compressed), are read as
# before.
gzip -c "$TMP/qemu.log" >"$TMP/qemu.log.gz"
KLEAKSCAN_CHUNK_DEBUG=1 \
    "$KLEAKSCAN" -j2 -c "$TMP/qemu.log.gz" >/dev/null 2>"$TMP/off.err"
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err")" 0 \
    "gzip below 2 MiB: no chunks"
KLEAKSCAN_CHUNK_BYTES=300 KLEAKSCAN_CHUNK_DEBUG=1 "$KLEAKSCAN" -j2 -c \
    "$WRITTEN"/s390x-warn.eml >/dev/null 2>"$TMP/off.err"
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err")" 0 "mail: no chunks"
gzip -c "$WRITTEN"/s390x-warn.eml >"$TMP/warn.eml.gz"
KLEAKSCAN_CHUNK_BYTES=300 KLEAKSCAN_CHUNK_DEBUG=1 "$KLEAKSCAN" -j2 -c \
    "$TMP/warn.eml.gz" >/dev/null 2>"$TMP/off.err"
is "$(grep -c '^kleakscan: chunks' "$TMP/off.err")" 0 "gzip mail: no chunks"

done_testing
