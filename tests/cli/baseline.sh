#!/bin/sh
# baseline.sh - --baseline in every mode: plain output, -c, -l, -L, -q,
# --json, --stats, -j 2 and --report -q.  The baseline is a --report
# --json (and a --sarif) of the project's own logs in tests/data; one log
# line written for this test brings the one new template.  A finding of
# a baselined template is neither printed nor counted, and the exit
# status is 1 only for a new one.  The same holds over the project's own
# QEMU boots, and with ../shared/corpus over its logs and QEMU boots.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

set -f
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to read the JSON output"
	exit 0
fi
CORPUS=$TOPSRC/../shared/corpus
D=$TESTDATA

# summary FILE KEY: a member of the JSON summary event.
summary() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "summary":
        print(e.get(sys.argv[2]))' "$1" "$2"
}

"$KLEAKSCAN" --report --json "$D" >"$TMP/b.json"
is "$?" 1 "the baseline: a report of tests/data (exit 1: leaks)"
"$KLEAKSCAN" --sarif "$D" >"$TMP/b.sarif"
"$KLEAKSCAN" --json "$D" >"$TMP/all.json"
total=$(summary "$TMP/all.json" findings)
printf 'kleakscan-test: a message written for this test at ffffffff81234567\n' \
    >"$TMP/new.log"

# --- -q: the CI line
run -q --baseline "$TMP/b.json" "$D"
is "$STATUS:$OUT" "0:" "-q on the logs the baseline was made from: exit 0, silent"
run -q --baseline "$TMP/b.json" "$D" "$TMP/new.log"
is "$STATUS:$OUT" "1:" "-q with one new template: exit 1, silent"
run -q --baseline "$TMP/b.sarif" "$D"
is "$STATUS" 0 "-q, a SARIF baseline: exit 0"
run -q --baseline "$TMP/b.sarif" "$D" "$TMP/new.log"
is "$STATUS" 1 "-q, a SARIF baseline, one new template: exit 1"
run -q -j 2 --baseline "$TMP/b.json" "$D"
is "$STATUS" 0 "-q -j 2: exit 0"
run -q -j 2 --baseline "$TMP/b.json" "$TMP/new.log" "$D"
is "$STATUS" 1 "-q -j 2 with the new template: exit 1"

# --- plain output
run --baseline "$TMP/b.json" "$D"
is "$STATUS:$OUT" "0:" "plain: nothing printed, exit 0"
run -H --baseline "$TMP/b.json" "$D" "$TMP/new.log"
is "$STATUS" 1 "plain with the new template: exit 1"
is "$OUT" "$TMP/new.log:1:52: text high 0xffffffff81234567  kleakscan-test: a message written for this test at ffffffff81234567" \
    "plain: only the new template's finding is printed"

# --- -c, -l, -L
run -c --baseline "$TMP/b.json" "$D" "$TMP/new.log"
is "$STATUS" 1 "-c: exit 1 for the new one"
is "$(printf '%s\n' "$OUT" | grep -v ':0$')" "$TMP/new.log:1" \
    "-c: every baselined input counts 0, the new log 1"
is "$(printf '%s\n' "$OUT" | wc -l | tr -d ' ')" \
    "$(($(find "$D" -type f | wc -l) + 1))" "-c: one line per input"
run -l --baseline "$TMP/b.json" "$D" "$TMP/new.log"
is "$STATUS:$OUT" "1:$TMP/new.log" "-l: only the input with a new template"
run -l --baseline "$TMP/b.json" "$D"
is "$STATUS:$OUT" "0:" "-l on the baseline's logs: none, exit 0"
run -L --baseline "$TMP/b.json" "$D" "$TMP/new.log"
is "$(printf '%s\n' "$OUT" | grep -c "new.log")" 0 "-L: the new log is not listed"

# --- --json and --stats
"$KLEAKSCAN" --json --baseline "$TMP/b.json" "$D" "$TMP/new.log" >"$TMP/j.json"
is "$?" 1 "--json: exit 1 for the new one"
is "$(grep -c '"type":"finding"' "$TMP/j.json")" 1 "--json: one finding event, the new one"
is "$(summary "$TMP/j.json" findings) $(summary "$TMP/j.json" baselined_findings)" \
    "1 $total" "--json summary: 1 finding counted, the baselined ones apart"
run --stats --baseline "$TMP/b.json" "$D"
like "$OUT" "findings +0" "--stats: baselined findings not counted"
like "$OUT" "baselined +$total" "--stats: a baselined row"

# --- --report -q prints nothing and gives -q's status
run --report -q --baseline "$TMP/b.json" "$D"
is "$STATUS:$OUT" "0:" "--report -q: silent, exit 0"
run --report -q --baseline "$TMP/b.json" "$D" "$TMP/new.log"
is "$STATUS:$OUT" "1:" "--report -q with a new template: silent, exit 1"
run --sarif -q "$TMP/new.log"
is "$STATUS:$OUT" "1:" "--sarif -q without a baseline: silent, exit 1 for a leak"

# --- a report still rows the baselined templates
"$KLEAKSCAN" --report --json --baseline "$TMP/b.json" "$D" "$TMP/new.log" \
    >"$TMP/r.json"
is "$?" 1 "--report --baseline: exit 1 for the new template"
is "$(summary "$TMP/r.json" new) $(summary "$TMP/r.json" findings)" \
    "1 $((total + 1))" "--report: every row, one new; every finding counted"

# --- options
run --redact --baseline "$TMP/b.json" "$TMP/new.log"
is "$STATUS" 2 "--baseline with --redact: a usage error"
run -q --baseline "$TMP/nonexistent" "$TMP/new.log"
is "$STATUS" 2 "-q, a missing baseline: exit 2"

# --- many logs: the corpus's logs and QEMU boots, the project's own boots
# whole NAME DIR...: -q --baseline made from DIRs is clean on them, one
# new template on top exits 1, and --json counts no finding.
whole() {
	wn=$1
	shift
	"$KLEAKSCAN" --report --json -j 2 "$@" >"$TMP/c.json" 2>/dev/null
	run -q -j 2 --baseline "$TMP/c.json" "$@"
	is "$STATUS" 0 "$wn: -q --baseline on the logs it was made from: exit 0"
	run -q -j 2 --baseline "$TMP/c.json" "$@" "$TMP/new.log"
	is "$STATUS" 1 "$wn: -q --baseline with one new template: exit 1"
	"$KLEAKSCAN" --json -j 2 --baseline "$TMP/c.json" "$@" >"$TMP/cj.json" \
	    2>/dev/null
	is "$(summary "$TMP/cj.json" findings) $(python3 -c '
import json, sys
print(sum(json.loads(l)["count"] for l in open(sys.argv[1])
          if "\"type\":\"template\"" in l))' "$TMP/c.json")" \
	    "0 $(summary "$TMP/cj.json" baselined_findings)" \
	    "$wn: --json counts no finding; the baselined ones are the report's"
	ok "$wn: ... and there are some" \
	    test "$(summary "$TMP/cj.json" baselined_findings)" -gt 0
}
if [ -d "$CORPUS/syzkaller" ]; then
	whole corpus "$CORPUS/syzkaller" "$CORPUS/boot" "$CORPUS/mail" \
	    "$CORPUS/qemu" "$CORPUS/loghub"
else
	skip "corpus: -q --baseline" "no ../shared/corpus"
fi
# The project's own QEMU boots (tests/qemu/boots): consoles and kallsyms.
set --
for b in $(ls "$OWN_BOOTS"); do
	d=$(own_boot "$b") && set -- "$@" "$d/console.log" "$d/kallsyms"
done
if [ $# -gt 0 ]; then
	whole "own boots ($(($# / 2)))" "$@"
else
	skip "own boots: -q --baseline" "no boots in $OWN_BOOTS or no xz"
fi

done_testing
