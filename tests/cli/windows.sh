#!/bin/sh
# windows.sh - every fixture gives the same findings read as a file, from
# standard input ("-" redirected, and a pipe), and in 1-, 7- and 17-byte
# read windows (a token split across windows is found exactly once), with
# and without --show-suppressed.
#
# Compared per finding: line, column, offset, text, value, arch, region,
# severity, confidence, rule, suppressed; and the summary's counts.

. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to read the JSON output"
	exit 0
fi

# compare.py REF VARIANT...: one line per variant, "same" or what
# differs (the first differing finding).
CMP=$TMP/compare.py
cat >"$CMP" <<'EOF'
import json, sys

keys = ("line", "column", "offset", "text", "value", "arch", "region",
        "severity", "confidence", "rule", "suppressed")

def canon(path):
    out = []
    try:
        for raw in open(path, "rb"):
            e = json.loads(raw)
            if e["type"] == "finding":
                out.append(" ".join(str(e[k]) for k in keys))
            elif e["type"] == "summary":
                out.append("summary %d lines %d bytes %d %s %s" % (
                    e["findings"], e["lines"], e["bytes"],
                    json.dumps(e["regions"], sort_keys=True),
                    json.dumps(e["suppressed"], sort_keys=True)))
    except (ValueError, KeyError) as x:
        out.append("bad output: %s" % x)
    return out

ref = canon(sys.argv[1])
for v in sys.argv[2:]:
    got = canon(v)
    if got == ref:
        print("same")
        continue
    for i in range(max(len(got), len(ref))):
        r = ref[i] if i < len(ref) else "(nothing)"
        g = got[i] if i < len(got) else "(nothing)"
        if r != g:
            print("item %d: want [%s] got [%s] (%d vs %d items)" % (
                i + 1, r, g, len(ref), len(got)))
            break
EOF

# Variants: name, then the command (run by sh -c with $1 the fixture,
# $2 the binary, $3 the extra option).
VARIANTS="stdin '-'|\"\$2\" --json \$3 - <\"\$1\"
pipe|cat \"\$1\" | \"\$2\" --json \$3 -
--read-size 1|\"\$2\" --json \$3 --read-size 1 \"\$1\"
--read-size 7|\"\$2\" --json \$3 --read-size 7 \"\$1\"
--read-size 17|\"\$2\" --json \$3 --read-size 17 \"\$1\"
pipe, --read-size 7|cat \"\$1\" | \"\$2\" --json \$3 --read-size 7 -"

nfix=0
fixtures "$TMP/fx"
for fx in "$TMP/fx"/*; do
	case $fx in
	*/ATTRIBUTION) continue ;;
	esac
	[ -f "$fx" ] || continue
	nfix=$((nfix + 1))
	name=${fx##*/}
	for sup in "" --show-suppressed; do
		tag="$name${sup:+ $sup}"
		"$KLEAKSCAN" --json $sup "$fx" >"$TMP/ref.json" 2>"$TMP/ref.err"
		ref_status=$?
		ok "$tag: file scan succeeds" test "$ref_status" -le 1
		# Run every variant, noting exit status and stderr.
		i=0
		files=
		printf '%s\n' "$VARIANTS" >"$TMP/variants"
		while IFS='|' read -r vname vcmd; do
			i=$((i + 1))
			sh -c "$vcmd" sh "$fx" "$KLEAKSCAN" "$sup" \
			    >"$TMP/v$i.json" 2>"$TMP/v$i.err"
			echo "$?" >"$TMP/v$i.status"
			files="$files $TMP/v$i.json"
		done <"$TMP/variants"
		python3 "$CMP" "$TMP/ref.json" $files >"$TMP/verdicts"
		i=0
		while IFS='|' read -r vname vcmd; do
			i=$((i + 1))
			verdict=$(sed -n "${i}p" "$TMP/verdicts")
			st=$(cat "$TMP/v$i.status")
			if [ "$verdict" = same ] && [ "$st" = "$ref_status" ] &&
			    [ ! -s "$TMP/v$i.err" ]; then
				pass "$tag: $vname"
			else
				fail "$tag: $vname"
				diag "exit status $st, file scan $ref_status"
				diag "$(head -3 "$TMP/v$i.err")"
				diag "$verdict"
			fi
		done <"$TMP/variants"
	done
done
ok "at least one fixture (tap.sh fixtures)" test "$nfix" -gt 0

done_testing
