# facts.sh - scan a log with --json --show-suppressed and ask about its
# findings (source after tap.sh): for tests/cli/corpus.sh (the real logs
# of ../shared/corpus) and tests/cli/written.sh (the logs of tests/data).
#
# Every expected position, region and reason in those tests was checked
# by reading the log line.  Where the tool's answer is wrong, the test
# asserts the right answer as a TAP TODO (todo_is): the defect shows as
# "not ok # TODO" without failing the build, and passes plainly once fixed.
#
# Lists are "line:column:region" of the findings (suppressed look-alikes
# left out), in output order; "at L C" is "region reason value" of the
# candidate at line L column C, reason "-" for a finding.
set -f
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to read the JSON output"
	exit 0
fi

KLPY=$TMP/kl.py
cat >"$KLPY" <<'EOF'
# Turn a --json --show-suppressed run into lines of facts for q().
import json, sys

ev = [json.loads(l) for l in open(sys.argv[1], "rb")]
summ = [e for e in ev if e["type"] == "summary"][-1]
print("arch", " ".join(e["stats"]["arch"] for e in ev if e["type"] == "end"))
print("count", summ["findings"])
# Candidates are hex runs: a layout finding (the value of a Kernel
# Offset line) is not one.
print("cands", summ["findings"] - summ["regions"].get("layout", 0) +
      sum(summ["suppressed"].values()))
print("regions",
      " ".join("%s=%d" % kv for kv in sorted(summ["regions"].items())))
for k, v in summ["suppressed"].items():
    print("sup", k, v)
for e in ev:
    if e["type"] == "finding":
        print("f", e["line"], e["column"], e["suppressed"] or "-",
              e["region"], e["text"], e["rule"],
              "true" if e["unhashed"] else "false")
EOF

# scan FILE [OPTION...]: run with --json --show-suppressed; the facts of
# the run in $TMP/facts, the exit status in STATUS.
scan() {
	scan_f=$1
	shift
	"$KLEAKSCAN" --json --show-suppressed "$@" "$scan_f" \
	    >"$TMP/scan.json" 2>"$TMP/scan.err"
	STATUS=$?
	python3 "$KLPY" "$TMP/scan.json" >"$TMP/facts" 2>&1 ||
	    echo "bad JSON" >"$TMP/facts"
}

# q MODE [ARG...]: a fact of the last scan.
#	arch, count, cands, regions, sup REASON
#	list [l=LINE,...] [x=LINE:COL,...]	findings as line:col:region
#	pos [l=...] [x=...]			findings as line:col
#	at LINE COL		"region reason value" (reason "-": a finding)
#	field LINE COL rule|unhashed
q() {
	awk -v mode="$1" -v a2="${2:-}" -v a3="${3:-}" -v a4="${4:-}" '
	function set(arg, pfx, arr,   n, i, t) {
		if (index(arg, pfx) != 1)
			return 0
		n = split(substr(arg, length(pfx) + 1), t, ",")
		for (i = 1; i <= n; i++)
			arr[t[i]] = 1
		return 1
	}
	BEGIN {
		hasl = set(a2, "l=", L) + set(a3, "l=", L)
		set(a2, "x=", X)
		set(a3, "x=", X)
	}
	mode == "arch" && $1 == "arch" { sub(/^arch ?/, ""); print }
	(mode == "count" || mode == "cands" || mode == "regions") &&
	    $1 == mode { sub(/^[^ ]* ?/, ""); print }
	mode == "sup" && $1 == "sup" && $2 == a2 { n = $3 }
	(mode == "list" || mode == "pos") && $1 == "f" && $4 == "-" {
		if (($2 ":" $3) in X || (hasl && !($2 in L)))
			next
		print $2 ":" $3 (mode == "list" ? ":" $5 : "")
	}
	mode == "at" && $1 == "f" && $2 == a2 && $3 == a3 {
		print $5, $4, $6
	}
	mode == "field" && $1 == "f" && $2 == a2 && $3 == a3 {
		print (a4 == "rule" ? $7 : $8)
	}
	END { if (mode == "sup") print n + 0 }
	' "$TMP/facts"
}

# norm WORDS: one word a line (expected lists are written wrapped).
norm() {
	printf '%s\n' $1
}

# basics NAME STATUS ARCH FINDINGS CANDIDATES: the common facts of a scan.
# CANDIDATES counts every hex run of the profile's width (16 digits on
# 64-bit, 8 on 32-bit), findings and look-alikes together: counted
# independently with a regex over the file.
basics() {
	is "$STATUS" "$2" "$1: exit status"
	is "$(cat "$TMP/scan.err")" "" "$1: nothing on stderr"
	is "$(q arch)" "$3" "$1: detected arch"
	is "$(q count)" "$4" "$1: $4 findings"
	is "$(q cands)" "$5" "$1: $5 candidates in all"
}
