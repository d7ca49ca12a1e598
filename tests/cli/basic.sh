#!/bin/sh
# basic.sh - the README's quick start and the three ways the issue names:
# a file, `dmesg | kleakscan -`, and --json, on the shipped samples.

. "$(dirname "$0")/tap.sh"

DATA=$TOPSRC/data
X86=$DATA/sample-x86_64-oops.log
ARM64=$DATA/sample-arm64-boot.log

# The quick start's scan: a visible finding and exit status 1.
run "$X86"
is_status 1 "quick start: the sample leaks (exit 1)"
like "$OUT" '^11:26: vmalloc medium 0xffffb0a1c1d37d98  \[  118\.402546\] RSP: 0018:ffffb0a1c1d37d98 EFLAGS: 00010286$' \
    "quick start: the vmalloc'd stack pointer is reported first"
is "$(printf '%s\n' "$OUT" | wc -l | tr -d ' ')" 5 "quick start: five leaks"
is "$(printf '%s\n' "$OUT" | awk '{print $2}' | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
    " 2 direct-map; 3 vmalloc;" "quick start: regions"
is "$ERR" "" "quick start: nothing on stderr"

# dmesg | kleakscan -: same findings from a pipe.
"$KLEAKSCAN" "$X86" >"$TMP/file.out"
cat "$X86" | "$KLEAKSCAN" - >"$TMP/pipe.out"
ok "a pipe gives the same findings as the file" cmp "$TMP/file.out" "$TMP/pipe.out"
cat "$X86" | "$KLEAKSCAN" >"$TMP/noarg.out"
ok "no operand with a pipe reads stdin" cmp "$TMP/file.out" "$TMP/noarg.out"

# arm64 5.10 on 39-bit VAs: the component ops pointers are text.
run --json "$ARM64"
is_status 1 "arm64 sample leaks"
is "$(printf '%s\n' "$OUT" | grep -c '"type":"finding"')" 3 "arm64: three findings"
like "$OUT" '"arch":"arm64-39"' "arm64: arch decided from the log (39-bit VAs)"
like "$OUT" '"line":10,"column":74,.*"value":"0xffffffc010e7c3a8"' \
    "arm64: first ops pointer at 10:74"
like "$OUT" '"region":"text"' "arm64: the ops pointers are kernel text"

# The summary event closes the stream.
is "$(printf '%s\n' "$OUT" | tail -n 1 | cut -c1-18)" '{"type":"summary",' \
    "JSON ends with the summary event"

done_testing
