#!/bin/sh
# segments.sh - report segments and the architecture rules of issue 14 on
# real mails (tests/data/*.eml, see ATTRIBUTION): the architecture is
# decided per report inside a file, so a mail quoting reports of two
# machines reads each in its own; mips64, arm64 and s390x reports that
# carry only frames, "PC is at [<...>]" or lockdep lines get findings.
. "${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

set -f
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is needed to read the JSON output"
	exit 0
fi

# facts FILE [SHIFT]: "boot N FIRST LAST ARCH" per segment, then
# "LINE-SHIFT:COLUMN ARCH REGION" per finding.
KLPY=$TMP/seg.py
cat >"$KLPY" <<'PYEOF'
import json, sys

shift = int(sys.argv[2]) if len(sys.argv) > 2 else 0
for l in open(sys.argv[1], "rb"):
    e = json.loads(l)
    if e["type"] == "boot":
        print("boot", e["boot"], e["first_line"], e["last_line"], e["arch"])
    elif e["type"] == "finding" and not e["suppressed"]:
        print("%d:%d %s %s" % (e["line"] - shift, e["column"], e["arch"],
                               e["region"]))
PYEOF

# scan FILE OUT: the facts of kleakscan --json FILE into OUT.
scan() {
	"$KLEAKSCAN" --json "$1" >"$TMP/s.json" 2>"$TMP/s.err"
	STATUS=$?
	python3 "$KLPY" "$TMP/s.json" >"$2" 2>&1 || echo "bad JSON" >"$2"
}

S390=$TESTDATA/s390x-linux-s390-6.1-warn.eml
X86=$TESTDATA/x86_64-syzkaller-4.15-frames.report

# --- A mail quoting an x86 report after an s390 one. -------------------
# The s390 mail's own report decides s390x; the quoted x86 report
# (its "BUG:" header, then RIP:) is a segment of its own from its header
# on, with the findings it has alone, shifted by the mail's lines.
n=$(wc -l <"$S390" | tr -d ' ')
{ cat "$S390"; sed 's/^/> /' "$X86"; } >"$TMP/mixed.eml"
scan "$TMP/mixed.eml" "$TMP/mixed"
is "$STATUS" 1 "mixed: exit status"
hdr=$((n + 5))
# Boot events of a message count the lines of its decoded text (the
# mail's header taken off, format=flowed lines joined), findings the
# lines of the file as stored: the segments are checked for their
# order, arches and contiguity; the findings' places below.
is "$(awk '$1 == "boot" { print $2, $5; if (NR > 1 && $3 != last + 1)
    print "gap"; last = $4 }' "$TMP/mixed")" "$(printf '0 s390x\n1 x86_64')" \
    "mixed: two segments, the x86 one from its BUG: header (line $hdr)"
scan "$S390" "$TMP/s390"
grep -v '^boot' "$TMP/s390" >"$TMP/s390.f"
is "$(awk -v n=$n '$1 !~ /^boot/ && $1 + 0 <= n' "$TMP/mixed")" \
    "$(cat "$TMP/s390.f")" "mixed: the s390 part as the mail alone"
"$KLEAKSCAN" --json "$X86" >"$TMP/x.json"
python3 "$KLPY" "$TMP/x.json" | grep -v '^boot' |
    awk '{ split($1, a, ":"); print a[1] ":" a[2] + 2, $2, $3 }' >"$TMP/x86.f"
"$KLEAKSCAN" --json "$TMP/mixed.eml" >"$TMP/m.json"
python3 "$KLPY" "$TMP/m.json" "$n" | grep -v '^boot' |
    awk '$1 + 0 > 0' >"$TMP/mixed.x"
is "$(cat "$TMP/mixed.x")" "$(cat "$TMP/x86.f")" \
    "mixed: the quoted x86 report as the report alone (x86_64, column + 2)"
is "$(wc -l <"$TMP/x86.f" | tr -d ' ')" 16 "mixed: the x86 report has 16 findings"

# --- One machine, several reports: one segment, as before. ---------------
f=x86_64-ubuntu-5.4-oops.dmesg
scan "$TESTDATA/$f" "$TMP/one"
is "$(grep -c '^boot' "$TMP/one")" 1 "$f: one segment for the boot"
is "$(grep -v '^boot' "$TMP/one" | awk '{ print $2 }' | sort -u)" x86_64 \
    "$f: every finding x86_64"

# --- mips64: CKSEG0 frames and the Code: line only. ----------------------
f=mips64-linux-mips-loongson3-frames.eml
scan "$TESTDATA/$f" "$TMP/m64"
is "$(grep -v '^boot' "$TMP/m64" | tr '\n' ' ')" \
    "30:7 mips64 text 31:7 mips64 text 32:7 mips64 text 33:7 mips64 text 34:7 mips64 text " \
    "$f: the five frames are mips64 text"

# --- arm64 4.x vendor kernel: "PC is at [<ffffff80...>]". -----------------
f=arm64-linux-arm-kernel-4.x-pc-is-at.eml
scan "$TESTDATA/$f" "$TMP/a64"
is "$(grep -v '^boot' "$TMP/a64" | wc -l | tr -d ' ')" 18 "$f: 18 findings"
is "$(grep -v '^boot' "$TMP/a64" | awk '{ sub(/-.*/, "", $2); print $2 }' |
    sort -u)" arm64 "$f: all arm64"
is "$(grep -c '^57:12 \|^58:12 \|^64:3 ' "$TMP/a64")" 3 \
    "$f: PC, LR and the first frame"

# --- s390x lockdep report: frames and Last Breaking-Event-Address. -------
f=s390x-linux-s390-5.7-lockdep.eml
scan "$TESTDATA/$f" "$TMP/s57"
is "$(awk '$1 == "boot" { print $2, $3, $5 }' "$TMP/s57")" "0 1 s390x" \
    "$f: s390x"
is "$(grep -c '^2[1-9]:6 s390x kernel\|^3[0-3]:6 s390x kernel' "$TMP/s57")" 13 \
    "$f: the 13 Call Trace frames"

done_testing
