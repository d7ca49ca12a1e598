#!/bin/sh
# run-fuzz.sh - tests/fuzz/run-fuzz.sh's keep and report step
# (FUZZ_NO_RUN=1), which `make fuzz` ends with and which writes into
# tests/fuzz/corpus: named seeds stay, the last minimised corpus is
# replaced, a seed's copy is not kept twice, the size budget drops the
# largest files, libFuzzer's lines are read as bytes whatever the locale,
# and a harness that never ran is one line.  A shell script stands in
# for the libFuzzer binary: its -merge=1 keeps, named by SHA-1, every
# input not starting with "dull" (an input that adds no coverage).

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

if [ ! -x /usr/bin/time ]; then
	skip "run-fuzz.sh keep step" "no /usr/bin/time"
	done_testing
fi

sha() { printf '%s' "$1" | sha1sum | cut -d ' ' -f 1; }

S=$TMP/src
B=$TMP/build
K=$S/tests/fuzz/corpus/x
W=$B/fuzz-work/x
mkdir -p "$K" "$S/tests/fuzz/regress" "$B/tests/fuzz" "$W/corpus" \
    "$W/crash"
for h in x y; do
	cat >"$B/tests/fuzz/fuzz-$h" <<'EOF'
#!/bin/sh
out=
for a; do
	case $a in
	-*) ;;
	*)
		if [ -z "$out" ]; then
			out=$a
			continue
		fi
		for f in "$a"/*; do
			[ -f "$f" ] || continue
			case $(head -c 4 "$f") in dull) continue ;; esac
			cp "$f" "$out/$(sha1sum <"$f" | cut -d ' ' -f 1)"
		done ;;
	esac
done
EOF
	chmod +x "$B/tests/fuzz/fuzz-$h"
done

# The kept corpus: two named seeds (one the merge drops) and an input
# of the last minimised corpus that adds nothing now.
printf 'dull named seed' >"$K/named-dull"
printf 'seed' >"$K/named"
printf 'dull old input' >"$K/$(sha 'dull old input')"
# The work corpus: a new input, a copy of a named seed, one too large.
printf 'new input' >"$W/corpus/a"
printf 'seed' >"$W/corpus/b"
head -c 3000 /dev/zero | tr '\0' 'z' >"$W/corpus/c"
# What the run left: a status line quoting a dictionary entry byte for
# byte (not UTF-8), the final statistics and time -v's figures.
printf '#1234\tREDUCE cov: 563 ft: 3848 corp: 3/3Kb exec/s: 5 rss: 20Mb MS: 1 CMP- DE: "\243\006"-\n' >"$W/log"
printf 'stat::number_of_executed_units: 1234\nstat::peak_rss_mb: 20\n' \
    >>"$W/log"
printf '\tUser time (seconds): 10.25\n\tSystem time (seconds): 1.5\n' \
    >"$W/time"
echo 0 >"$W/status"
echo 12 >"$W/cpu-total"

LC_ALL=C.UTF-8 FUZZ_NO_RUN=1 FUZZ_KEEP=1 FUZZ_CORPUS_KIB=2 \
    sh "$TOPSRC/tests/fuzz/run-fuzz.sh" "$S" "$B" 60 x y \
    >"$TMP/out" 2>"$TMP/err"
is "$?" 0 "keep step: exit 0 (no crash, status 0)"
is "$(cat "$TMP/err")" "" "keep step: nothing on stderr"

ok "a named seed the merge drops stays" test -f "$K/named-dull"
ok "a named seed the merge keeps stays" test -f "$K/named"
ok "the last minimised corpus's input that adds nothing goes" \
    test ! -e "$K/$(sha 'dull old input')"
ok "a new input is kept, named by its SHA-1" test -f "$K/$(sha 'new input')"
ok "a copy of a named seed is not kept twice" test ! -e "$K/$(sha seed)"
is "$(ls "$K" | wc -l | tr -d ' ')" 3 "the kept corpus holds 3 files"
ok "the file over FUZZ_CORPUS_KIB is dropped" \
    grep -qx '    x: the 1 largest files dropped (FUZZ_CORPUS_KIB)' \
    "$TMP/out"

# harness execs cov ft corpus KiB rss-MB cpu-s total-s crashes
is "$(awk '$1 == "x" { print $2, $3, $4, $5, $7, $8, $9, $10 }' \
    "$TMP/out")" "1234 563 3848 2 20 12 12 0" \
    "report line: figures read as bytes in a UTF-8 locale"
is "$(awk '$1 == "y" { $1 = ""; print }' "$TMP/out")" " not run" \
    "a harness that never ran is one line"

# FUZZ_KEEP=0 leaves the kept corpus as it is.
ls "$K" >"$TMP/before"
printf 'another input' >"$W/corpus/d"
FUZZ_NO_RUN=1 FUZZ_KEEP=0 FUZZ_CORPUS_KIB=2 \
    sh "$TOPSRC/tests/fuzz/run-fuzz.sh" "$S" "$B" 60 x >/dev/null 2>&1
ok "FUZZ_KEEP=0: the kept corpus is untouched" \
    sh -c "ls '$K' | cmp -s - '$TMP/before'"

done_testing
