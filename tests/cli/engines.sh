#!/bin/sh
# engines.sh - the differential test: the fast candidate finder and the
# PCRE2 reference engine give byte-identical --json --show-suppressed
# output (every finding, look-alike, reason and summary count) over
#   - every fixture in tests/data (auto, and forced 64- and 32-bit
#     profiles, so both token widths go through both engines),
#   - every seed in tests/fuzz/corpus/*/ and tests/fuzz/regress/,
#   - the project's own QEMU boots (tests/qemu/boots),
#   - every file of ../shared/corpus when it is there (skipped if not),
# one test per directory (per boot) for the last three.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

CORPUS=${KLEAK_CORPUS:-$TOPSRC/../shared/corpus}

# same_engines [OPTION...] FILE...: 0 when both engines print the same
# and exit the same way (0, 1, or 2 for an input error such as a truncated
# journal seed; a crash never passes).
same_engines() {
	"$KLEAKSCAN" --engine fast --json --show-suppressed "$@" \
	    >"$TMP/fast.json" 2>"$TMP/fast.err"
	se_fast=$?
	"$KLEAKSCAN" --engine pcre2 --json --show-suppressed "$@" \
	    >"$TMP/pcre2.json" 2>"$TMP/pcre2.err"
	se_pcre2=$?
	[ "$se_fast" = "$se_pcre2" ] && [ "$se_fast" -le 2 ] &&
	    cmp -s "$TMP/fast.json" "$TMP/pcre2.json" &&
	    cmp -s "$TMP/fast.err" "$TMP/pcre2.err"
}

# why_differ: diagnostics for the last same_engines failure.
why_differ() {
	diag "exit status fast $se_fast, pcre2 $se_pcre2"
	diag "$(diff "$TMP/fast.json" "$TMP/pcre2.json" | head -10)"
	diag "$(diff "$TMP/fast.err" "$TMP/pcre2.err" | head -4)"
}

# Check that the engine option is real: an unknown engine is refused.
"$KLEAKSCAN" --engine nosuch /dev/null >/dev/null 2>&1
is "$?" 2 "--engine nosuch is refused (exit 2)"

# Fixtures, each under auto and two forced profiles.
fixtures "$TMP/fx"
for fx in "$TMP/fx"/*; do
	case $fx in
	*/ATTRIBUTION) continue ;;
	esac
	[ -f "$fx" ] || continue
	for arch in "" "--arch=x86_64" "--arch=arm"; do
		if same_engines $arch "$fx"; then
			pass "${fx##*/}${arch:+ $arch}: fast = pcre2"
		else
			fail "${fx##*/}${arch:+ $arch}: fast = pcre2"
			why_differ
		fi
	done
done

# Fuzz seeds: one run of each engine per corpus directory, every seed an
# operand (the minimised corpora hold hundreds of files a harness), and
# the crash reproducers of tests/fuzz/regress.
nseed=0
for dir in "$TOPSRC"/tests/fuzz/corpus/*/ "$TOPSRC"/tests/fuzz/regress/; do
	set --
	for seed in "$dir"*; do
		[ -f "$seed" ] && set -- "$@" "$seed"
	done
	[ $# -gt 0 ] || continue
	nseed=$((nseed + $#))
	d=${dir#"$TOPSRC"/tests/fuzz/}
	if same_engines "$@"; then
		pass "${d%/}: $# seeds, fast = pcre2"
	else
		fail "${d%/}: $# seeds, fast = pcre2"
		why_differ
	fi
done
ok "some fuzz seeds were compared" test "$nseed" -gt 0

# The project's own QEMU boots (tests/qemu/boots): per boot, its console,
# kallsyms and captured dmesg in one run, with its System.map.
n=0
for b in $(ls "$OWN_BOOTS"); do
	d=$(own_boot "$b") || continue
	n=$((n + 1))
	if same_engines --system-map-dir "$d/maps" "$d/console.log" \
	    "$d/kallsyms" "$d/root/sos_commands/kernel/dmesg"; then
		pass "own boot $b: console, kallsyms, dmesg: fast = pcre2"
	else
		fail "own boot $b: console, kallsyms, dmesg: fast = pcre2"
		why_differ
	fi
done
[ "$n" -gt 0 ] || skip "own QEMU boots: fast = pcre2" "no boots in $OWN_BOOTS or no xz"

# The shared corpus: one test per directory holding files.
if [ -d "$CORPUS" ]; then
	find "$CORPUS" -type f | sed 's|/[^/]*$||' | sort -u >"$TMP/dirs"
	while read -r dir; do
		bad=
		n=0
		for f in "$dir"/*; do
			[ -f "$f" ] || continue
			n=$((n + 1))
			if ! same_engines "$f"; then
				bad="$bad ${f#"$CORPUS"/}"
				cp "$TMP/fast.json" "$TMP/bad-fast.json"
				cp "$TMP/pcre2.json" "$TMP/bad-pcre2.json"
			fi
		done
		d=${dir#"$CORPUS"}
		d=corpus${d:-/}
		if [ -z "$bad" ]; then
			pass "$d: $n files, fast = pcre2"
		else
			fail "$d: $n files, fast = pcre2"
			diag "differ:$bad"
			diag "$(diff "$TMP/bad-fast.json" "$TMP/bad-pcre2.json" |
			    head -10)"
		fi
	done <"$TMP/dirs"
else
	skip "the shared corpus: fast = pcre2" "no $CORPUS"
fi

done_testing
