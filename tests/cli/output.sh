#!/bin/sh
# output.sh - the text format exactly (names, -b, -c, -l, -L, -q, color,
# escaping, --show-suppressed, [unhashed], cut lines, --stats), JSON Lines
# validity and fields, broken pipes.

. "$(dirname "$0")/tap.sh"

cd "$TMP" || exit 99

BANNER='[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-01)'
L2='[   12.345678] RSP: 0018:ffffa667c016fe48 EFLAGS: 00010246'
L3='[   12.345679]  [<ffffffff8123abcd>] do_syscall_64+0x5c/0x90'
L4='[   12.345680] R13: FFFF8881003E5000 R14: 0000000000000000'
L5='[   12.345681] foo: ptr 00000000a1b2c3d4'
printf '%s\n' "$BANNER" "$L2" "$L3" "$L4" "$L5" >sample.log
printf '%s\n[    1.000000] nothing to see here\n' "$BANNER" >clean.log
printf '%s\n' "$BANNER" "$L5" >hashed.log

F2="2:26: vmalloc medium 0xffffa667c016fe48  $L2"
F3="3:19: text high 0xffffffff8123abcd  $L3"
F4="4:21: direct-map medium 0xffff8881003e5000  $L4"
S4="4:43: suppressed null 0x0000000000000000  $L4"
S5="5:25: suppressed hashed 0x00000000a1b2c3d4  $L5"
O2=$(($(printf '%s\n' "$BANNER" | wc -c) + 25))

json_checker

# jfield FILE TYPE KEY...: the keys of each TYPE event, space-separated
# (strings bare, other values as JSON).
jfield() {
	if [ "$JSON_CHECK" = json_check_python ]; then
		python3 -c '
import json, sys
f, t, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
for line in open(f, "rb"):
    e = json.loads(line.decode("utf-8"))
    if e.get("type") != t:
        continue
    out = []
    for k in keys:
        v = e.get(k, "<absent>")
        out.append(v if isinstance(v, str) else
            json.dumps(v, separators=(",", ":")))
    print(" ".join(out))
' "$@"
	else
		jf_file=$1
		jf_type=$2
		shift 2
		jf_expr=
		for k in "$@"; do
			jf_expr="$jf_expr${jf_expr:+, }(if has(\"$k\") then .\"$k\" else \"<absent>\" end | if type == \"string\" then . else tojson end)"
		done
		jq -r --arg t "$jf_type" \
		    "select(.type == \$t) | [$jf_expr] | join(\" \")" <"$jf_file"
	fi
}

# The text format.
run sample.log
is_status 1 "a log with leaks"
is "$OUT" "$F2
$F3
$F4" "text: line:col: region severity value  line"
run -H sample.log
is "$OUT" "sample.log:$F2
sample.log:$F3
sample.log:$F4" "-H: path:line:col:"
run sample.log clean.log
is "$OUT" "sample.log:$F2
sample.log:$F3
sample.log:$F4" "two inputs: names shown"
run -b sample.log
is "$(printf '%s\n' "$OUT" | sed -n 1p)" \
    "2:26:$O2: vmalloc medium 0xffffa667c016fe48  $L2" \
    "-b: line:col:offset:"
run --show-suppressed sample.log
is_status 1 "--show-suppressed"
is "$OUT" "$F2
$F3
$F4
$S4
$S5" "--show-suppressed: suppressed REASON value, in input order"
run --show-suppressed hashed.log
is_status 0 "suppressed findings are not leaks"
is "$OUT" "2:25: suppressed hashed 0x00000000a1b2c3d4  $L5" \
    "a suppressed look-alike alone"

# -c, -l, -L, -q.
run -c sample.log
is "$STATUS:$OUT" "1:3" "-c with one input: just the count"
run -c sample.log clean.log
is "$OUT" "sample.log:3
clean.log:0" "-c with two inputs: path:count"
run -l sample.log clean.log hashed.log
is "$STATUS:$OUT" "1:sample.log" "-l names inputs with leaks"
run -L sample.log clean.log hashed.log
is "$STATUS:$OUT" "1:clean.log
hashed.log" "-L names inputs without leaks"
run -L clean.log
is "$STATUS:$OUT" "0:clean.log" "-L with only clean inputs: exit 0"
run -l -0 sample.log clean.log
is "$(od -An -c "$TMP/out" | tr -s ' ' | sed 's/^ //')" \
    's a m p l e . l o g \0' "-l -0 ends names with NUL"
run -q sample.log
is "$STATUS:$OUT:$ERR" "1::" "-q: exit 1, no output"
run -q clean.log
is "$STATUS:$OUT" "0:" "-q on a clean input: exit 0"
run -q --stats --json sample.log
is "$STATUS:$OUT" "1:" "-q wins over --json and --stats"

# --stats.
bytes=$(wc -c <sample.log | tr -d ' ')
run --stats sample.log
is "$OUT" "$F2
$F3
$F4
inputs             1
bytes              $bytes
lines              5
findings           3
  text             1
  direct-map       1
  vmalloc          1
suppressed         2
  hashed           1
  null             1
boots              1
  slide            0
  text             1
  direct-map       1
  vmalloc          1
errors             0" "--stats after the results (boots: how many disclose what)"
run --stats -c sample.log missing.log
is "$(printf '%s\n' "$OUT" | sed -n '1p;2p;$p')" "sample.log:3
inputs             1
errors             1" "--stats counts errors, -c works with it"

# Escaping: control bytes and invalid UTF-8 in a line, in a name.
printf '%s\n' "$BANNER" >ctl.log
printf '[   12.345682] bad\001\033[31m\377\376 ptr ffffffff8123abcd\t end\n' \
    >>ctl.log
run ctl.log
is "$OUT" '2:32: text high 0xffffffff8123abcd  [   12.345682] bad\x01\x1b[31m\xff\xfe ptr ffffffff8123abcd\t end' \
    "control bytes and invalid UTF-8 are escaped in text"
bad=$(tr -d '\n -~' <"$TMP/out" | wc -c | tr -d ' ')
is "$bad" 0 "text output has only printable ASCII and newlines"
badname=$(printf 'bad\377\033name.log')
cp sample.log "$badname"
run -c "$badname" clean.log
is "$(printf '%s\n' "$OUT" | sed -n 1p)" 'bad\xff\x1bname.log:3' \
    "a path is escaped in text"

# Long lines are cut around the token.
sp=$(printf '%6000s' '')
printf '%sffffffff8123abcd%s\n' "$sp" "$sp" >long.log
run long.log
like "$OUT" '^1:6001: [a-z-]+ [a-z]+ 0xffffffff8123abcd  \.\.\. +ffffffff8123abcd +\.\.\.$' \
    "a very long line: both cut ends are shown as ..."
n=$(printf '%s' "$OUT" | wc -c | tr -d ' ')
ok "a very long line: the printed line is bounded ($n bytes)" \
    test "$n" -lt 4096

# Unhashed pointers.
{
	printf '%s\n' "$BANNER"
	printf '[    0.000000] %s\n' \
	    '**********************************************************' \
	    '**   NOTICE NOTICE NOTICE NOTICE NOTICE NOTICE NOTICE   **' \
	    '**                                                      **' \
	    '** This system shows unhashed kernel memory addresses   **' \
	    '** via the console, logs, and other interfaces. This    **' \
	    '** might reduce the security of your system.            **' \
	    '**********************************************************'
	printf '%s\n' "$L3"
} >unhashed.log
run unhashed.log
is "$OUT" "9:19: text high 0xffffffff8123abcd [unhashed]  $L3" \
    "[unhashed] after the value when hashing is off"

# Color.
ESC=$(printf '\033')
run --color=always sample.log
is "$(printf '%s\n' "$OUT" | sed -n 2p)" \
    "${ESC}[32m3${ESC}[0m:${ESC}[32m19${ESC}[0m: ${ESC}[1;31mtext high${ESC}[0m ${ESC}[1m0xffffffff8123abcd${ESC}[0m  $L3" \
    "--color=always: positions green, high bold red, value bold"
is "$(printf '%s\n' "$OUT" | sed -n 1p)" \
    "${ESC}[32m2${ESC}[0m:${ESC}[32m26${ESC}[0m: ${ESC}[33mvmalloc medium${ESC}[0m ${ESC}[1m0xffffa667c016fe48${ESC}[0m  $L2" \
    "--color=always: medium yellow"
run --color=always -H sample.log
like "$OUT" "^${ESC}\\[35msample\\.log${ESC}\\[0m:" "--color=always: path magenta"
NO_COLOR=1 "$KLEAKSCAN" --color=always sample.log >"$TMP/out" 2>&1
like "$(cat "$TMP/out")" "$ESC" "--color=always wins over NO_COLOR"
run --color=never sample.log
unlike "$OUT" "$ESC" "--color=never: no escapes"
run --color sample.log
unlike "$OUT" "$ESC" "--color (auto) to a file: no escapes"
run --json --color=always sample.log
unlike "$OUT" "$ESC" "JSON is never colored"
if command -v script >/dev/null 2>&1 &&
    script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
	TERM=xterm script -qec "\"$KLEAKSCAN\" sample.log" /dev/null \
	    </dev/null >"$TMP/tty" 2>&1
	like "$(cat "$TMP/tty")" "$ESC" "auto on a terminal: colored"
	TERM=xterm NO_COLOR=1 script -qec "\"$KLEAKSCAN\" sample.log" \
	    /dev/null </dev/null >"$TMP/tty" 2>&1
	like "$(cat "$TMP/tty")" '0xffffa667c016fe48' \
	    "NO_COLOR on a terminal: findings printed"
	unlike "$(cat "$TMP/tty")" "$ESC" "NO_COLOR on a terminal: no color"
	TERM=xterm NO_COLOR= script -qec "\"$KLEAKSCAN\" sample.log" \
	    /dev/null </dev/null >"$TMP/tty" 2>&1
	like "$(cat "$TMP/tty")" "$ESC" "an empty NO_COLOR does not count"
else
	for d in "auto on a terminal: colored" \
	    "NO_COLOR on a terminal: findings printed" \
	    "NO_COLOR on a terminal: no color" \
	    "an empty NO_COLOR does not count"; do
		skip "$d" "script(1) not usable"
	done
fi

# JSON Lines.
"$KLEAKSCAN" --json --show-suppressed sample.log clean.log missing.log \
    ctl.log "$badname" >"$TMP/json" 2>"$TMP/jerr"
STATUS=$?
is "$STATUS" 2 "--json: exit status with an error"
is "$(cat "$TMP/jerr")" "kleakscan: missing.log: No such file or directory" \
    "--json: errors still go to stderr too"
if [ -z "$JSON_CHECK" ]; then
	skip "--json output is valid JSON Lines" "no python3 or jq"
	done_testing
fi
ok "--json output is valid JSON Lines" $JSON_CHECK "$TMP/json"
is "$(jfield "$TMP/json" begin path members; echo /; jfield "$TMP/json" end path)" \
    "sample.log []
clean.log []
ctl.log []
null []
/
sample.log
clean.log
ctl.log
null" "begin and end events per input"
is "$(sed -n 's/.*"type":"\([a-z]*\)".*/\1/p' "$TMP/json" | tr '\n' ' ')" \
    "begin finding finding finding finding finding boot end begin boot end error begin finding boot end begin finding finding finding finding finding boot end summary " \
    "event order: begin, findings, boot, end per input; error; summary last"
is "$(jfield "$TMP/json" finding path line column offset text value region severity suppressed unhashed line_cut | sed -n '1,5p')" \
    "sample.log 2 26 $O2 ffffa667c016fe48 0xffffa667c016fe48 vmalloc medium null false false
sample.log 3 19 $((O2 + ${#L2} + 1 - 25 + 18)) ffffffff8123abcd 0xffffffff8123abcd text high null false false
sample.log 4 21 $((O2 + ${#L2} + 1 + ${#L3} + 1 - 25 + 20)) FFFF8881003E5000 0xffff8881003e5000 direct-map medium null false false
sample.log 4 43 $((O2 + ${#L2} + 1 + ${#L3} + 1 - 25 + 42)) 0000000000000000 0x0000000000000000 none none null false false
sample.log 5 25 $((O2 + ${#L2} + 1 + ${#L3} + 1 + ${#L4} + 1 - 25 + 24)) 00000000a1b2c3d4 0x00000000a1b2c3d4 none none hashed false false" \
    "finding fields: line, column, offset, text as printed, value lower-case"
is "$(jfield "$TMP/json" finding arch | sort -u)" "x86_64" \
    "finding arch: decided from the banner"
missing=$(jfield "$TMP/json" finding path members line column offset text \
    value arch region severity confidence rule suppressed boot unhashed \
    line_cut line_column | grep -c '<absent>')
is "$missing" 0 "every finding has every field"
is "$(jfield "$TMP/json" finding line_text | sed -n 1p)" "$L2" \
    "line_text holds the line"
want64=$(sed -n 2p ctl.log | tr -d '\n' | base64 | tr -d '\n')
is "$(jfield "$TMP/json" finding path line line_bytes line_text | sed -n 6p)" \
    "ctl.log 2 $want64 <absent>" "a line that is not UTF-8 goes out as line_bytes"
name64=$(printf '%s' "$badname" | base64 | tr -d '\n')
is "$(jfield "$TMP/json" begin path path_bytes | sed -n 4p)" "null $name64" \
    "a path that is not UTF-8: path null and path_bytes"
is "$(jfield "$TMP/json" error path members line message)" \
    "missing.log [] null No such file or directory" "the error event"
is "$(jfield "$TMP/json" summary inputs errors findings regions suppressed)" \
    "4 1 7 {\"text\":3,\"direct-map\":2,\"vmalloc\":2} {\"hashed\":2,\"null\":2}" \
    "the summary event"
is "$(jfield "$TMP/json" end path stats | sed -n 1p)" \
    "sample.log {\"bytes\":$bytes,\"lines\":5,\"findings\":3,\"suppressed\":2,\"boots\":1,\"arch\":\"x86_64\",\"unhashed\":0,\"slides\":0,\"disclosed\":{\"text\":1,\"direct-map\":1,\"vmalloc\":1}}" \
    "the end event's stats"

"$KLEAKSCAN" --json unhashed.log long.log >"$TMP/json2" 2>/dev/null
ok "--json: unhashed and cut lines are valid JSON" $JSON_CHECK "$TMP/json2"
is "$(jfield "$TMP/json2" finding path unhashed line_cut)" \
    "unhashed.log true false
long.log false true" "unhashed and line_cut flags"

# Broken pipes: quiet.
i=0
: >big.log
printf '%s\n' "$BANNER" >big.log
while [ $i -lt 200 ]; do
	printf '%s\n' "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" \
	    "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" \
	    "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" "$L2" "$L3" "$L2" "$L3"
	i=$((i + 1))
done >>big.log
for c in 1 2 3 4 5 6 7 8; do cat big.log; done >big2.log
{ "$KLEAKSCAN" big2.log 2>"$TMP/pipe.err"; echo $? >"$TMP/pipe.st"; } |
    head -n 1 >"$TMP/pipe.out"
is "$(cat "$TMP/pipe.out")" "$F2" "a broken pipe: head got the first line"
is "$(cat "$TMP/pipe.err")" "" "a broken pipe (SIGPIPE): nothing on stderr"
(
	trap '' PIPE
	{ "$KLEAKSCAN" big2.log 2>"$TMP/pipe.err"; echo $? >"$TMP/pipe.st"; } |
	    head -n 1 >"$TMP/pipe.out"
)
is "$(cat "$TMP/pipe.err")" "" "a broken pipe (EPIPE): nothing on stderr"
is "$(cat "$TMP/pipe.st")" 1 "a broken pipe (EPIPE): exit status so far"

done_testing
