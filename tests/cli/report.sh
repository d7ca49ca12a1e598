#!/bin/sh
# report.sh - --report, --sarif and --baseline on real logs, and the
# "fingerprint" of --json finding events.
#
# The corpus (../shared/corpus) is scanned whole: the report must have far
# fewer rows than findings, count every finding in exactly one row, and
# be the same with -j 1 and -j 2.  The x86_64 QEMU boots of one kernel
# with different KASLR slides must give the same templates; one real
# oops report (tests/data/written/x86_64-frames.report) turned into
# a syslog file, a mail quote and a journal export must too.  SARIF is
# checked by Microsoft's sarif-multitool when it is installed.  A
# baseline made from half the corpus must leave exactly the templates of
# the other half that the first half lacks.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

set -f
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to read the JSON output"
	exit 0
fi
CORPUS=$TOPSRC/../shared/corpus
# The logs of the corpus (its captured/ sysroots are systems, read with
# --live-root by live.sh: device-tree and notes files are binary).
LOGS="$CORPUS/syzkaller $CORPUS/boot $CORPUS/loghub $CORPUS/mail $CORPUS/qemu"
OOPS=$WRITTEN/x86_64-frames.report

# py FILE EXPR...: run a python snippet with the JSON Lines of FILE in ev.
cat >"$TMP/q.py" <<'EOF'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1], "rb") if l.strip()]
tpl = [e for e in ev if e["type"] == "template"]
summ = [e for e in ev if e["type"] == "summary"]
summ = summ[-1] if summ else {}
fps = sorted(e["fingerprint"] for e in tpl)
exec(sys.argv[2])
EOF
py() {
	python3 "$TMP/q.py" "$@"
}

# --- the fingerprint member of finding events
run --json "$OOPS"
printf '%s\n' "$OUT" >"$TMP/plain.json"
is "$(py "$TMP/plain.json" '
f = [e for e in ev if e["type"] == "finding"]
print(len(f) > 0 and all(len(e["fingerprint"]) == 16 and
    list(e)[-1] == "fingerprint" for e in f))')" True \
    "--json: every finding ends with a 16-digit fingerprint"
run --report --json "$OOPS"
printf '%s\n' "$OUT" >"$TMP/oops.json"
is "$(py "$TMP/plain.json" '
f = sorted(set(e["fingerprint"] for e in ev if e["type"] == "finding"))
print(" ".join(f))')" "$(py "$TMP/oops.json" 'print(" ".join(fps))')" \
    "finding fingerprints are the report's template fingerprints"

# --- one printk, one template, whatever the log format
MSG='import re, sys
for l in open(sys.argv[1], "rb"):
    l = l.rstrip(b"\n")
    m = re.match(rb"^\[ *[0-9]+\.[0-9]+\] ?", l)
    if m:
        sys.stdout.buffer.write(sys.argv[2].encode() + l[m.end():] + b"\n")
    else:
        sys.stdout.buffer.write(l + b"\n")
'
python3 -c "$MSG" "$OOPS" "Dec  4 10:00:00 buildhost kernel: " \
    >"$TMP/oops.syslog"
sed 's/^/> > /' "$OOPS" >"$TMP/oops.quote"
python3 - "$OOPS" >"$TMP/oops.export" <<'EOF'
import re, sys
out = sys.stdout.buffer
for i, l in enumerate(open(sys.argv[1], "rb")):
    l = l.rstrip(b"\n")
    m = re.match(rb"^\[ *[0-9]+\.[0-9]+\] ?", l)
    msg = l[m.end():] if m else l
    out.write(b"__CURSOR=s=1;i=%d\n__REALTIME_TIMESTAMP=%d\n"
              b"_BOOT_ID=0123456789abcdef0123456789abcdef\n"
              b"_HOSTNAME=journalhost\n_TRANSPORT=kernel\nMESSAGE=%s\n\n"
              % (i + 1, 1700000000000000 + i, msg))
EOF
want=$(py "$TMP/oops.json" 'print(len(fps) > 3, " ".join(fps),
    sum(e["count"] for e in tpl))')
for f in syslog quote export; do
	run --report --json "$TMP/oops.$f"
	printf '%s\n' "$OUT" >"$TMP/f.json"
	is "$(py "$TMP/f.json" 'print(len(fps) > 3, " ".join(fps),
	    sum(e["count"] for e in tpl))')" "$want" \
	    "$f form of the oops: the same templates and counts"
done
run --report --json "$TMP/oops.syslog" "$TMP/oops.export"
printf '%s\n' "$OUT" >"$TMP/f.json"
is "$(py "$TMP/f.json" 'print(sorted(set(h for e in tpl
    for h in e["host_names"])), max(e["hosts"] for e in tpl))')" \
    "['buildhost', 'journalhost'] 2" \
    "hosts: the syslog host and the journal's _HOSTNAME"
is "$(py "$TMP/f.json" 'e = tpl[0]["examples"][0]
print(e["timestamp"] is not None, e["line"] > 0)')" "True True" \
    "examples have a line and the log's time"

# --- the QEMU boots of one kernel, different slides: the same templates
if [ -d "$CORPUS/qemu" ]; then
	prev=
	slides=
	for b in boot1 boot2 boot3 boot5-no_hash_pointers; do
		d=$CORPUS/qemu/x86_64-6.1.0-57-amd64-$b
		run --report --json "$d/console.log" "$d/dmesg.log" \
		    "$d/kallsyms-truth.txt"
		printf '%s\n' "$OUT" >"$TMP/b.json"
		got=$(py "$TMP/b.json" 'print(len(fps), " ".join(fps))')
		slides="$slides $(grep -ho 'Kernel Offset: 0x[0-9a-f]*' \
		    "$d/console.log")"
		if [ -n "$prev" ]; then
			is "$got" "$prev" "QEMU x86_64 $b: the templates of boot1"
		fi
		prev=$got
	done
	is "$(printf '%s\n' $slides | grep -v -e Kernel -e Offset | sort -u | wc -l |
	    tr -d ' ')" 4 "... and the four boots have four slides"
	like "$prev" '^[2-9] ' "... with the kallsyms and Kernel Offset templates"
else
	skip "QEMU boots: the same templates" "no ../shared/corpus"
fi
# The same on the project's own x86_64 boots with KASLR on (tests/qemu/boots):
# two slides, each console with its kallsyms.
prev= slides=
for v in x86_64-kaslr x86_64-no-hash-pointers; do
	if ! d=$(own_boot "$v"); then
		skip "own boot $v: the same templates" "no $OWN_BOOTS/$v or no xz"
		continue
	fi
	run --report --json "$d/console.log" "$d/kallsyms"
	printf '%s\n' "$OUT" >"$TMP/b.json"
	got=$(py "$TMP/b.json" 'print(len(fps), " ".join(fps))')
	slides="$slides $(tr -d '\r' <"$d/console.log" |
	    sed -n 's/.*Kernel Offset: \(0x[0-9a-f]*\).*/\1/p')"
	[ -n "$prev" ] && is "$got" "$prev" "own $v: the templates of x86_64-kaslr"
	prev=$got
done
if [ -n "$prev" ]; then
	is "$(printf '%s\n' $slides | sort -u | wc -l | tr -d ' ')" 2 \
	    "... and the two own boots have two slides"
	like "$prev" '^2 ' "... the kallsyms and Kernel Offset templates"
fi
# The same on the three KASLR boots of tests/data's four-boot console
# (five lines each, one boot a file).
awk -v d="$TMP" '/Linux version/ { n++ } n <= 3 { print >(d "/four." n) }' \
    "$TESTDATA/x86_64-qemu-6.1-four-boots.console"
prev=
for n in 1 2 3; do
	run --report --json "$TMP/four.$n"
	printf '%s\n' "$OUT" >"$TMP/b.json"
	got=$(py "$TMP/b.json" 'print(len(fps), " ".join(fps))')
	[ -n "$prev" ] && is "$got" "$prev" "four-boots $n: the templates of boot 1"
	prev=$got
done
is "$(grep -ho 'Kernel Offset: 0x[0-9a-f]*' "$TMP/four.1" "$TMP/four.2" \
    "$TMP/four.3" | sort -u | wc -l | tr -d ' ')" 3 \
    "... and the three boots have three slides"
like "$prev" '^1 ' "... one template: the Kernel Offset line"

# --- the whole corpus; without it, the project's own logs in its layout
# (own_corpus: the written logs and tests/data's consoles) and every own
# QEMU boot's console and kallsyms, each a directory of qemu/.  FEW: how
# many findings a row gathers at least (the own set repeats less: 5742
# findings in 85 rows, the corpus's hundreds a row).
WHAT=corpus FEW=100
if [ ! -d "$CORPUS" ] && OWN=$(own_corpus "$TMP/own"); then
	for b in $(ls "$OWN_BOOTS"); do
		d=$(own_boot "$b") || continue
		mkdir -p "$OWN/qemu/$b" &&
		    cp "$d/console.log" "$d/kallsyms" "$OWN/qemu/$b/"
	done
	LOGS="$OWN/syzkaller $OWN/boot $OWN/loghub $OWN/mail $OWN/qemu"
	CORPUS=$OWN WHAT="own corpus" FEW=50
fi
if [ -d "$CORPUS" ]; then
	"$KLEAKSCAN" --json -j 2 $LOGS >"$TMP/scan.json" 2>/dev/null
	"$KLEAKSCAN" --report --json -j 1 $LOGS >"$TMP/r1.json" \
	    2>"$TMP/r1.err"
	STATUS=$?
	is_status 1 "$WHAT --report --json -j 1"
	"$KLEAKSCAN" --report --json -j 2 $LOGS >"$TMP/r2.json" 2>/dev/null
	findings=$(py "$TMP/scan.json" 'print(summ["findings"])')
	is "$(py "$TMP/r1.json" 'print(sum(e["count"] for e in tpl),
	    summ["findings"], summ["templates"] == len(tpl))')" \
	    "$findings $findings True" \
	    "$WHAT: every finding ($findings) is counted in exactly one row"
	rows=$(py "$TMP/r1.json" 'print(len(tpl))')
	ok "$WHAT: far fewer rows ($rows) than findings ($findings)" \
	    test $((rows * FEW)) -lt "$findings"
	ok "$WHAT: -j 2 gives the rows of -j 1, byte for byte" \
	    cmp -s "$TMP/r1.json" "$TMP/r2.json"
	is "$(py "$TMP/r1.json" '
order = ["pointer", "leak-source", "report", "register", "frame", "file",
         "layout"]
sev = {"high": 3, "medium": 2, "low": 1, "none": 0}
k = [(order.index(e["class"]), -sev[e["severity"]], -e["inputs"],
      -e["boots"], -e["hosts"], -e["count"]) for e in tpl]
print(k == sorted(k), [e["rank"] for e in tpl] == list(range(1, len(tpl) + 1)))')" \
	    "True True" "rows ranked: class, severity, spread, count"
	is "$(py "$TMP/r1.json" '
import re
s = [x["line_text"] for e in tpl for x in e["examples"] if x.get("line_text")]
print(any(re.search(r"ffffffff8x{7}", t) for t in s),
      any(re.search(r"(?<![0-9a-zA-Z_])f{8}[89a-e][0-9a-f]{7}(?![0-9a-zA-Z_])", t)
          for t in s))')" "True False" \
	    "examples: addresses masked (ffffffff8xxxxxxx), none left whole"
	"$KLEAKSCAN" --report --json --show-addresses "$OOPS" >"$TMP/sa.json"
	like "$(py "$TMP/sa.json" 'print(" ".join(x["line_text"] for e in tpl
	    for x in e["examples"]))')" 'ffffffff8[0-9a-f]{7}' \
	    "--show-addresses: addresses whole"
	is "$(py "$TMP/r1.json" 'c = [e for e in tpl if e["class"] == "file"]
print(len(c), c[0]["conversion"], c[0]["inputs"] >= 5)')" \
	    "1 %pK with kptr_restrict=0 True" \
	    "kallsyms dumps: one file template, %pK with kptr_restrict=0"
	"$KLEAKSCAN" --report --json --top 3 $LOGS >"$TMP/top.json"
	is "$(py "$TMP/top.json" 'print(len(tpl), summ["templates"])')" \
	    "3 $rows" "--top 3: three rows, the summary counts them all"

	# text table
	COLUMNS=72 "$KLEAKSCAN" --report -j 2 $LOGS >"$TMP/t.txt" 2>/dev/null
	ok "text: no line longer than COLUMNS=72" \
	    awk 'length($0) > 72 { exit 1 }' "$TMP/t.txt"
	like "$(head -1 "$TMP/t.txt")" \
	    '^ *# CLASS +SEV +COUNT +INPUTS +BOOTS +HOSTS +FINGERPRINT +TEM' \
	    "text: the header"
	like "$(tail -1 "$TMP/t.txt")" \
	    "^$rows templates, $findings findings, [0-9]+ inputs\$" \
	    "text: the totals line"
	is "$(grep -c '^ *[0-9][0-9]* [a-z-]* ' "$TMP/t.txt")" "$rows" \
	    "text: one table line per row"
	ok "text: printable ASCII only" \
	    sh -c "! LC_ALL=C grep -q '[^ -~]' '$TMP/t.txt'"
	env -u COLUMNS "$KLEAKSCAN" --report $LOGS >"$TMP/tw.txt" 2>/dev/null
	is "$(python3 - "$TMP/r1.json" "$TMP/tw.txt" <<'EOF'
import json, re, sys
tpl = [json.loads(l) for l in open(sys.argv[1]) if '"type":"template"' in l]
rows = [l.rstrip("\n") for l in open(sys.argv[2], errors="replace")
        if re.match(r"^ *[0-9]+ [a-z-]+ ", l)]
print(len(tpl) == len(rows), sum(1 for t, r in zip(tpl, rows)
      if isinstance(t["template"], str) and
      re.fullmatch(r"[ -~]*", t["template"]) and
      not r.endswith(" " + t["template"])))
EOF
)" "True 0" "text: not a terminal and COLUMNS unset: every template whole"
	ok "text: ... and lines longer than 80 columns where templates are" \
	    awk 'length($0) > 200 { f = 1 } END { exit !f }' "$TMP/tw.txt"

	# SARIF
	"$KLEAKSCAN" --sarif -j 2 $LOGS >"$TMP/r.sarif" 2>/dev/null
	STATUS=$?
	is_status 1 "--sarif on the $WHAT"
	is "$(python3 - "$TMP/r.sarif" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
rules = run["tool"]["driver"]["rules"]
rs = run["results"]
print(d["version"], len(rs),
      all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in rs),
      all(float(x["properties"]["security-severity"]) > 0 for x in rules),
      len(set(r["partialFingerprints"]["kleakscan/v1"] for r in rs)),
      sum(r["properties"]["count"] for r in rs))
EOF
)" "2.1.0 $rows True True $rows $findings" \
	    "SARIF: one result per template, rules with security-severity"
	if command -v sarif-multitool >/dev/null 2>&1; then
		(cd "$TMP" && sarif-multitool validate r.sarif -o val.sarif \
		    >val.out 2>&1)
		is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(len([r for r in rs if r.get("level") == "error"]))' "$TMP/val.sarif")" \
		    0 "sarif-multitool validate: no error"
	else
		skip "sarif-multitool validate: no error" \
		    "sarif-multitool not installed (npm i -g @microsoft/sarif-multitool)"
	fi

	# baselines: half the corpus, then all of it
	find $LOGS -type f | sort >"$TMP/all.list"
	n=$(wc -l <"$TMP/all.list")
	head -n $((n / 2)) "$TMP/all.list" >"$TMP/a.list"
	tail -n +$((n / 2 + 1)) "$TMP/all.list" >"$TMP/b.list"
	"$KLEAKSCAN" --report --json --files-from "$TMP/a.list" \
	    >"$TMP/a.json" 2>/dev/null
	"$KLEAKSCAN" --report --json --files-from "$TMP/b.list" \
	    >"$TMP/b.json" 2>/dev/null
	"$KLEAKSCAN" --report --json --files-from "$TMP/all.list" \
	    --baseline "$TMP/a.json" >"$TMP/ab.json" 2>/dev/null
	STATUS=$?
	is_status 1 "--baseline half A: B brings new templates"
	want=$(python3 - "$TMP/a.json" "$TMP/b.json" <<'EOF'
import json, sys
def fps(f):
    return set(json.loads(l)["fingerprint"] for l in open(f)
               if '"type":"template"' in l)
a, b = fps(sys.argv[1]), fps(sys.argv[2])
print(len(a), len(b - a), " ".join(sorted(b - a)))
EOF
)
	is "$(py "$TMP/ab.json" 'print(summ["baselined"], summ["new"],
	    " ".join(sorted(e["fingerprint"] for e in tpl if not e["baselined"])))')" \
	    "$want" "--baseline: only B's templates that A lacks are new"
	"$KLEAKSCAN" --report --files-from "$TMP/all.list" \
	    --baseline "$TMP/a.json" >"$TMP/ab.txt" 2>/dev/null
	like "$(tail -1 "$TMP/ab.txt")" \
	    "; $(echo "$want" | cut -d' ' -f1) baselined, $(echo "$want" |
	    cut -d' ' -f2) new\$" "--baseline, text: the totals say so"
	"$KLEAKSCAN" --sarif --files-from "$TMP/a.list" >"$TMP/a.sarif" \
	    2>/dev/null
	"$KLEAKSCAN" --report --json --files-from "$TMP/all.list" \
	    --baseline "$TMP/a.sarif" >"$TMP/abs.json" 2>/dev/null
	is "$(py "$TMP/abs.json" 'print(summ["baselined"], summ["new"],
	    " ".join(sorted(e["fingerprint"] for e in tpl if not e["baselined"])))')" \
	    "$want" "--baseline from SARIF: the same"
	"$KLEAKSCAN" --report --json $LOGS --baseline "$TMP/r1.json" \
	    >"$TMP/same.json" 2>/dev/null
	STATUS=$?
	is_status 0 "--baseline of the same $WHAT: nothing new"
	is "$(py "$TMP/same.json" 'print(summ["new"], summ["baselined"])')" \
	    "0 $rows" "... 0 new, every row baselined"
	"$KLEAKSCAN" --sarif $LOGS --baseline "$TMP/r1.json" \
	    >"$TMP/same.sarif" 2>/dev/null
	is "$(python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["runs"][0]["results"]
print(set(r["baselineState"] for r in rs))' "$TMP/same.sarif")" \
	    "{'unchanged'}" "SARIF with --baseline: baselineState"
else
	skip "the corpus report" "no ../shared/corpus"
fi

# --- bad baselines: an error, exit 2, never an empty baseline
printf 'not json\n' >"$TMP/bad1"
: >"$TMP/bad2"
printf '{"type":"template","fingerprint":"xyz"}\n' >"$TMP/bad3"
printf '{"type":"summary","findings":1' >"$TMP/bad4"
for f in nonexistent bad1 bad2 bad3 bad4 plain.json; do
	run --report "$OOPS" --baseline "$TMP/$f"
	is "$STATUS:$OUT" "2:" "--baseline $f: exit 2, no report"
	like "$ERR" "^kleakscan: .*$f" "--baseline $f: one error naming it"
done

# --- options
run --top 3 "$OOPS"
is_status 2 "--top needs --report"
run --report -c "$OOPS"
is_status 2 "--report with -c"
run --sarif --json "$OOPS"
is_status 2 "--sarif with --json"
run --report --top 0 "$OOPS"
is_status 2 "--top 0"

# --- whole templates in a pipe or a file (COLUMNS unset), cut to COLUMNS
long="kleakscan-test: a message written for this test that goes on and on, far past the eighty columns of a terminal, before it names"
printf '%s ffffffff81234567 and ends\n' "$long" >"$TMP/long.log"
env -u COLUMNS "$KLEAKSCAN" --report "$TMP/long.log" >"$TMP/long.txt"
like "$(sed -n 2p "$TMP/long.txt")" " $long %x and ends\$" \
    "text, not a terminal: the whole template"
like "$(grep ' first ' "$TMP/long.txt")" "ffffffff8xxxxxxx and ends\$" \
    "text, not a terminal: the whole example"
COLUMNS=100 "$KLEAKSCAN" --report "$TMP/long.log" >"$TMP/long100.txt"
is "$(awk 'length($0) > 100' "$TMP/long100.txt")$(sed -n 2p "$TMP/long100.txt" |
    grep -c '\.\.\.$')" 1 "text, COLUMNS=100: cut to 100 columns with ..."

# --- hostile bytes in a template are escaped
printf 'evil \033[31m\001 at ffffffff81234567\n' >"$TMP/evil.log"
run --report "$TMP/evil.log"
ok "text: control bytes of a template are escaped" \
    sh -c "! LC_ALL=C grep -q '[^ -~]' '$TMP/out'"
run --report --json "$TMP/evil.log"
printf '%s\n' "$OUT" >"$TMP/e.json"
is "$(py "$TMP/e.json" 'print(repr(tpl[0]["template"]))')" \
    "'evil \\x1b[31m\\x01 at %x'" "JSON: the template with its bytes"

done_testing
