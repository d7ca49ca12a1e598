#!/bin/sh
# run-fuzz.sh - run libFuzzer harnesses for a while, then minimise corpora.
#
# Usage: run-fuzz.sh SRCDIR BUILDDIR SECONDS [NAME...]
#
# Every harness named (all tests/fuzz/fuzz-*.c when none is) runs at once
# under nice -n 19 for SECONDS, each with a work corpus seeded from
# SRCDIR/tests/fuzz/corpus/NAME and SRCDIR/tests/fuzz/regress.  Logs, crash
# artifacts and /usr/bin/time -v figures go to BUILDDIR/fuzz-work/.  Then
# each work corpus is merged (-merge=1) with the kept one into a minimised
# corpus that replaces the last one in SRCDIR/tests/fuzz/corpus/NAME when
# FUZZ_KEEP=1 (the default; the named seeds there stay), and a table of
# executions, coverage, peak RSS, CPU seconds and
# crashes (crash-, leak-, timeout- and oom- artifacts; slow-unit- ones are
# listed but are no failure) is printed.  Exit status 1 when a harness
# crashed.  FUZZ_NO_RUN=1 only minimises and reports what a run left.
# FUZZ_CPU_SECONDS=S stops each harness once it has used S seconds of CPU
# (SECONDS then bounds only the wall time), and FUZZ_PARALLEL=N runs the
# harnesses N at a time instead of all at once: on a shared machine an
# hour of fuzzing is an hour of CPU, not of wall time.
# FUZZ_RESUME=1 continues the last run in BUILDDIR: each harness keeps its
# work corpus and crash artifacts, its CPU seconds add up over the legs
# (fuzz-work/NAME/cpu-total), and FUZZ_CPU_SECONDS bounds that total, so a
# harness that has had its hour is skipped.  Touching fuzz-work/STOP ends
# the running harnesses as the CPU bound does and starts no others.
# A minimised corpus larger than FUZZ_CORPUS_KIB (default 224, so that
# the fifteen stay near 3 MB) loses its largest files until it fits: the
# committed corpora are kept small.
#
# Real memory is limited (-rss_limit_mb=2048); one malloc may be larger
# (-malloc_limit_mb=8192): libarchive sizes read-ahead buffers from header
# fields and allocates them before reading (see .ci/run).
set -u
# libFuzzer's status lines quote dictionary entries byte for byte: read
# them as bytes, not as text of the user's locale.
LC_ALL=C
export LC_ALL
[ $# -ge 3 ] || { echo "usage: $0 SRCDIR BUILDDIR SECONDS [NAME...]" >&2; exit 2; }
# Absolute paths: each harness runs in its own work directory.
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
secs=$3
shift 3
keep=${FUZZ_KEEP:-1}
# Per-input limit: generous, since the runs share a busy machine at nice 19
# (the 2.5 GB cpio seed takes 5 s alone, over 10 s under load).
tmo=${FUZZ_TIMEOUT:-60}
budget=${FUZZ_CORPUS_KIB:-224}
if [ $# -eq 0 ]; then
	set -- $(cd "$src/tests/fuzz" && ls fuzz-*.c | sed 's/^fuzz-//; s/\.c$//')
fi
work="$build/fuzz-work"
mkdir -p "$work"
rm -f "$work/STOP"
timev=
[ -x /usr/bin/time ] && timev="/usr/bin/time -v -o"

for f in "$@"; do
	bin="$build/tests/fuzz/fuzz-$f"
	if [ ! -x "$bin" ]; then
		echo "run-fuzz: $bin: not built (./configure CC=clang" \
		    "--enable-fuzzing --enable-sanitizers)" >&2
		exit 2
	fi
done

# cpu_of PID: user + system seconds the process has used so far.
cpu_of() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, "");
	    printf "%d\n", ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null
}

# run_one NAME: one harness, its log, its time figures and its status.
# With FUZZ_CPU_SECONDS set, a watcher interrupts it (SIGINT: libFuzzer
# prints its final statistics and exits 72) once it has used that much
# CPU time; SECONDS then only bounds the wall time.
run_one() {
	w="$work/$1"
	[ -f "$work/STOP" ] && return
	prev=0
	resume=0
	if [ "${FUZZ_RESUME:-0}" = 1 ] && [ -d "$w/corpus" ]; then
		resume=1
		prev=$(cat "$w/cpu-total" 2>/dev/null || echo 0)
	fi
	cap=${FUZZ_CPU_SECONDS:-}
	if [ -n "$cap" ]; then
		cap=$((cap - prev))
		# This harness has had its time: its last leg stands.
		[ $cap -le 0 ] && return
	fi
	if [ $resume = 1 ]; then
		legs=$(ls "$w" | grep -c '^log\.')
		[ -f "$w/log" ] && mv "$w/log" "$w/log.$legs"
		[ -f "$w/time" ] && mv "$w/time" "$w/time.$legs"
		rm -f "$w/interrupted" "$w/status"
	else
		rm -rf "$w"
	fi
	mkdir -p "$w/corpus" "$w/crash"
	cp "$src/tests/fuzz/corpus/$1/"* "$w/corpus/" 2>/dev/null
	cp "$src/tests/fuzz/regress/"* "$w/corpus/" 2>/dev/null
	(
		cd "$w" || exit 2
		exec nice -n 19 $timev "$w/time" "$build/tests/fuzz/fuzz-$1" \
		    -max_total_time="$secs" -timeout="$tmo" \
		    -rss_limit_mb=2048 -malloc_limit_mb=8192 \
		    -print_final_stats=1 -artifact_prefix="$w/crash/" \
		    corpus >"$w/log" 2>&1
	) &
	top=$!
	# The harness is the runner's child when time -v wraps it.
	sleep 2
	fz=$(pgrep -P $top -f "fuzz-$1" 2>/dev/null | head -n 1)
	[ -n "$fz" ] || fz=$top
	while kill -0 $fz 2>/dev/null; do
		c=$(cpu_of $fz)
		if [ -f "$work/STOP" ] || { [ -n "$cap" ] && [ -n "$c" ] &&
		    [ "$c" -ge "$cap" ]; }; then
			kill -INT $fz
			echo interrupted >"$w/interrupted"
			break
		fi
		sleep 5
	done
	wait $top
	st=$?
	# An interruption asked for is a normal end.
	[ $st = 72 ] && [ -f "$w/interrupted" ] && st=0
	echo $st >"$w/status"
	leg=$(awk -F': ' '/User time|System time/ {s += $2}
	    END {printf "%.0f", s}' "$w/time" 2>/dev/null)
	echo $((prev + ${leg:-0})) >"$w/cpu-total"
}

# Start the harnesses: all at once, or in FUZZ_PARALLEL lanes that each
# run their share one after the other.
[ -n "$timev" ] || { echo "run-fuzz: /usr/bin/time is needed" >&2; exit 2; }
pids=
[ "${FUZZ_NO_RUN:-0}" = 1 ] && set -- --no-run "$@"
if [ "$1" != --no-run ]; then
	lanes=${FUZZ_PARALLEL:-$#}
	lane=0
	while [ $lane -lt "$lanes" ]; do
		(
			i=0
			for f in "$@"; do
				[ $((i % lanes)) = $lane ] && run_one "$f"
				i=$((i + 1))
			done
		) &
		pids="$pids $!"
		lane=$((lane + 1))
	done
fi
if [ "$1" = --no-run ]; then
	shift
else
	echo "run-fuzz: $# harnesses for ${secs}s each${FUZZ_CPU_SECONDS:+" or ${FUZZ_CPU_SECONDS} CPU seconds"}," \
	    "${lanes} at a time; logs in $work/NAME/log"
	wait $pids
fi

# Minimise: merge the kept and the work corpus into an empty one, and keep
# the result.  libFuzzer takes the new inputs smallest first, whichever
# directory they are in: a kept seed stays only if no smaller input has
# all it adds.
rc=0
printf '%-8s %12s %8s %8s %8s %8s %8s %8s %8s %s\n' harness execs cov ft \
    corpus KiB rss-MB cpu-s total-s crashes
for f in "$@"; do
	w="$work/$f"
	# Stopped (fuzz-work/STOP) before its turn came.
	if [ ! -d "$w/corpus" ]; then
		printf '%-8s %s\n' "$f" "not run"
		continue
	fi
	rm -rf "$w/min"
	mkdir -p "$w/min"
	nice -n 19 "$build/tests/fuzz/fuzz-$f" -merge=1 -timeout="$tmo" \
	    -rss_limit_mb=2048 -malloc_limit_mb=8192 \
	    "$w/min" "$src/tests/fuzz/corpus/$f" "$w/corpus" \
	    >"$w/merge.log" 2>&1
	# The smallest files that fit the budget stay.
	find "$w/min" -type f -printf '%s %f\n' | sort -n |
	    awk -v b=$((budget * 1024)) '{ s += $1; if (s > b) print $2 }' \
	    >"$w/trim"
	trimmed=$(wc -l <"$w/trim")
	(cd "$w/min" && xargs rm -f <"$w/trim")
	nmin=$(ls "$w/min" | wc -l)
	kmin=$(($(cat "$w/min/"* 2>/dev/null | wc -c) / 1024))
	# The merge names its files by the SHA-1 of their contents.  Those
	# of the kept corpus are the last run's minimised corpus: they go,
	# and this one's come.  A named seed (hand-made, described in the
	# harness's header) stays, and is not copied a second time.
	if [ "$keep" = 1 ] && [ "$nmin" -gt 0 ]; then
		for k in "$src/tests/fuzz/corpus/$f/"*; do
			[ -f "$k" ] || continue
			if echo "${k##*/}" | grep -qx '[0-9a-f]\{40\}'; then
				rm -f "$k"
			else
				rm -f "$w/min/$(sha1sum <"$k" | cut -d ' ' -f 1)"
			fi
		done
		[ -n "$(ls "$w/min")" ] &&
		    cp "$w/min/"* "$src/tests/fuzz/corpus/$f/"
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log")
	line=$(grep -E '^#[0-9]+' "$w/log" | tail -n 1)
	cov=$(echo "$line" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$line" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$w/log")
	cpu=-
	if [ -f "$w/time" ]; then
		cpu=$(awk -F': ' '/User time|System time/ {s += $2}
		    END {printf "%.0f", s}' "$w/time")
	fi
	crashes=$(ls "$w/crash" | grep -cv '^slow-unit-')
	[ "$crashes" -eq 0 ] || rc=1
	[ "$(cat "$w/status" 2>/dev/null)" = 0 ] || rc=1
	printf '%-8s %12s %8s %8s %8s %8s %8s %8s %8s %s\n' "$f" "${execs:--}" \
	    "${cov:--}" "${ft:--}" "$nmin" "$kmin" "${rss:--}" \
	    "$cpu" "$(cat "$w/cpu-total" 2>/dev/null || echo -)" "$crashes"
	[ $trimmed -eq 0 ] ||
	    echo "    $f: the $trimmed largest files dropped (FUZZ_CORPUS_KIB)"
	for a in $(ls "$w/crash"); do
		echo "    $f: $w/crash/$a"
	done
done
exit $rc
