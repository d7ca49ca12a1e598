#!/bin/sh
# segments.sh - report segments and the architecture rules of issue 14 on
# mails (written ones of tests/data/written, and the real ones of
# ../shared/corpus/mail when it is there): the architecture is
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

# --- A mail quoting an x86 report after an s390 one. -------------------
# mixed NAME S390 X86 BUG LAST FINDINGS: the s390 mail's own report
# decides s390x; the quoted x86 report (its "BUG:" header on line BUG of
# the report, then RIP:) is a segment of its own from its header on to
# the report's LAST line, with the FINDINGS it has alone, shifted by the
# mail's lines.
mixed() {
	n=$(wc -l <"$2" | tr -d ' ')
	{ cat "$2"; sed 's/^/> /' "$3"; } >"$TMP/mixed.eml"
	scan "$TMP/mixed.eml" "$TMP/mixed"
	is "$STATUS" 1 "$1: mixed: exit status"
	hdr=$((n + $4))
	# Boot events give lines of the file as stored: the first segment
	# from the message's first line (its header).  The s390 mail is
	# format=flowed, so the quoted empty line before the BUG: line
	# ("> ", line hdr-1) is a soft break that the BUG: line continues:
	# the decoded header line, and the x86 segment, start there.
	is "$(grep '^boot' "$TMP/mixed")" "$(printf 'boot 0 1 %d s390x\nboot 1 %d %d x86_64' \
	    $((hdr - 2)) $((hdr - 1)) $((n + $5)))" \
	    "$1: mixed: two segments, the x86 one from its BUG: line (flowed: lines $((hdr - 1))-$hdr)"
	scan "$2" "$TMP/s390"
	grep -v '^boot' "$TMP/s390" >"$TMP/s390.f"
	is "$(awk -v n=$n '$1 !~ /^boot/ && $1 + 0 <= n' "$TMP/mixed")" \
	    "$(cat "$TMP/s390.f")" "$1: mixed: the s390 part as the mail alone"
	"$KLEAKSCAN" --json "$3" >"$TMP/x.json"
	python3 "$KLPY" "$TMP/x.json" | grep -v '^boot' |
	    awk '{ split($1, a, ":"); print a[1] ":" a[2] + 2, $2, $3 }' \
	    >"$TMP/x86.f"
	"$KLEAKSCAN" --json "$TMP/mixed.eml" >"$TMP/m.json"
	python3 "$KLPY" "$TMP/m.json" "$n" | grep -v '^boot' |
	    awk '$1 + 0 > 0' >"$TMP/mixed.x"
	is "$(cat "$TMP/mixed.x")" "$(cat "$TMP/x86.f")" \
	    "$1: mixed: the quoted x86 report as the report alone (x86_64, column + 2)"
	is "$(wc -l <"$TMP/x86.f" | tr -d ' ')" "$6" \
	    "$1: mixed: the x86 report has $6 findings"
}
mixed written "$WRITTEN/s390x-warn.eml" "$WRITTEN/x86_64-frames.report" \
    4 29 13
if S390=$(real s390x-linux-s390-6.1-warn.eml) &&
    X86=$(real x86_64-syzkaller-4.15-frames.report); then
	mixed real "$S390" "$X86" 5 35 16
else
	skip "real: a mail quoting an x86 report after an s390 one" "no corpus"
fi

# --- One machine, several reports: one segment, as before. ---------------
f=x86_64-oops.dmesg
scan "$WRITTEN/$f" "$TMP/one"
is "$(grep -c '^boot' "$TMP/one")" 1 "$f: one segment for the boot"
is "$(grep -v '^boot' "$TMP/one" | awk '{ print $2 }' | sort -u)" x86_64 \
    "$f: every finding x86_64"

# --- Written mails that carry only frames, "PC is at" or lockdep lines. --
f=mips64-frames.eml
scan "$WRITTEN/$f" "$TMP/wm64"
is "$(grep -v '^boot' "$TMP/wm64" | tr '\n' ' ')" \
    "16:7 mips64 text 17:7 mips64 text 18:7 mips64 text 19:7 mips64 text 20:7 mips64 text " \
    "$f: the five quoted CKSEG0 frames are mips64 text"
f=arm64-pc-is-at.eml
scan "$WRITTEN/$f" "$TMP/wa64"
is "$(grep -v '^boot' "$TMP/wa64" | wc -l | tr -d ' ')" 8 "$f: 8 findings"
is "$(grep -v '^boot' "$TMP/wa64" | awk '{ sub(/-.*/, "", $2); print $2 }' |
    sort -u)" arm64 "$f: all arm64"
is "$(grep -c '^13:12 \|^14:12 \|^20:3 ' "$TMP/wa64")" 3 \
    "$f: PC, LR and the first frame"
f=s390x-lockdep.eml
scan "$WRITTEN/$f" "$TMP/ws57"
is "$(grep '^boot' "$TMP/ws57")" "boot 0 1 32 s390x" "$f: s390x, lines 1-32"
is "$(grep -c '^1[4-9]:6 s390x kernel\|^20:6 s390x kernel' "$TMP/ws57")" 7 \
    "$f: the 7 Call Trace frames"
is "$(grep -cE '^(2[23]:8|25:6) s390x kernel' "$TMP/ws57")" 3 \
    "$f: the lockdep lines and the Last Breaking-Event-Address"
is "$(grep -cE '^(2[7-9]|30):39 s390x kernel' "$TMP/ws57")" 4 \
    "$f: the four irq event stamps"

# The real mails of ../shared/corpus that carry only frames, "PC is at"
# or lockdep lines (skipped without the corpus).
if ! [ -d "$REAL_CORPUS/mail" ]; then
	skip "real: mips64 frames, arm64 PC is at, s390x lockdep" "no corpus"
else
	# --- mips64: CKSEG0 frames and the Code: line only. ----------------------
	f=mips64-linux-mips-loongson3-frames.eml
	scan "$(real "$f")" "$TMP/m64"
	is "$(grep -v '^boot' "$TMP/m64" | tr '\n' ' ')" \
	    "30:7 mips64 text 31:7 mips64 text 32:7 mips64 text 33:7 mips64 text 34:7 mips64 text " \
	    "$f: the five frames are mips64 text"

	# --- arm64 4.x vendor kernel: "PC is at [<ffffff80...>]". -----------------
	f=arm64-linux-arm-kernel-4.x-pc-is-at.eml
	scan "$(real "$f")" "$TMP/a64"
	is "$(grep -v '^boot' "$TMP/a64" | wc -l | tr -d ' ')" 18 "$f: 18 findings"
	is "$(grep -v '^boot' "$TMP/a64" | awk '{ sub(/-.*/, "", $2); print $2 }' |
	    sort -u)" arm64 "$f: all arm64"
	is "$(grep -c '^57:12 \|^58:12 \|^64:3 ' "$TMP/a64")" 3 \
	    "$f: PC, LR and the first frame"

	# --- s390x lockdep report: frames and Last Breaking-Event-Address. -------
	f=s390x-linux-s390-5.7-lockdep.eml
	scan "$(real "$f")" "$TMP/s57"
	is "$(grep '^boot' "$TMP/s57")" "boot 0 1 74 s390x" "$f: s390x, lines 1-74"
	is "$(grep -c '^2[1-9]:6 s390x kernel\|^3[0-3]:6 s390x kernel' "$TMP/s57")" 13 \
	    "$f: the 13 Call Trace frames"
fi

# --- Boot lines of a message where decoded and stored lines differ. ------
# Two boots (a second "Linux version" banner starts one).  Lines are
# those of the file as stored: a segment ends at the line holding the
# last byte of its last decoded line, the next starts at the line
# holding the first byte of its first.
BANNER='Linux version 5.10.0-8-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils for Debian) 2.35.2) #1 SMP Debian 5.10.46-4 (2021-08-03)'
# msghead HEADER-EXTRA: a message header, then a blank line.
msghead() {
	printf 'From: a@example.org\nSubject: boots\nMIME-Version: 1.0\n'
	printf 'Content-Type: text/plain; charset=us-ascii%s\n\n' "$1"
}
# boots FILE: "BOOT FIRST LAST" per boot event of kleakscan --json FILE.
boots() {
	"$KLEAKSCAN" --json "$1" >"$TMP/b.json" 2>/dev/null
	python3 "$KLPY" "$TMP/b.json" | awk '$1 == "boot" { print $2, $3, $4 }'
}
# Quoted-printable: soft line breaks (lines 8-9, 10-11, 12-13 decode
# to one line each).
{ msghead '
Content-Transfer-Encoding: quoted-printable'
  printf '[    0.000000] %s\n' "$BANNER"
  printf '[    1.000000] a line that is =\nsoft broken\n'
  printf '[    0.000000] Linux version =\n5.10.0-8-amd64 (debian-kernel@lists.debian.org) #2 SMP\n'
  printf '[    2.000000] tail=\n end\n'; } >"$TMP/qp.eml"
is "$(boots "$TMP/qp.eml")" "$(printf '0 1 9\n1 10 13')" \
    "quoted-printable: boot lines of the stored file (1-9, 10-13)"
# The same as an mbox of two messages: each from its "From " line.
{ echo 'From a@example.org Fri Dec  4 00:00:00 2026'; cat "$TMP/qp.eml"; echo
  echo 'From b@example.org Fri Dec  4 00:00:00 2026'; cat "$TMP/qp.eml"; } \
    >"$TMP/qp.mbox"
is "$(boots "$TMP/qp.mbox")" "$(printf '0 1 10\n1 11 15\n0 16 25\n1 26 29')" \
    "quoted-printable mbox: each message from its From line"
# format=flowed, quoted: lines ending in a space continue (lines 7-9,
# 10-11 and 12-13 decode to one line each).
{ msghead '; format=flowed'
  printf '> [    0.000000] %s\n' "$BANNER"
  printf '> [    1.000000] a line \n> that flows \n> on\n'
  printf '> [    0.000000] Linux version \n> 5.10.0-8-amd64 (debian-kernel@lists.debian.org) #2 SMP\n'
  printf '> [    2.000000] tail \n> end\n'; } >"$TMP/flowed.eml"
is "$(boots "$TMP/flowed.eml")" "$(printf '0 1 9\n1 10 13')" \
    "format=flowed: boot lines of the stored file (1-9, 10-13)"
# A long second boot: its first line is read long before it ends, when
# the map of decoded bytes no longer holds it (kl_scan_marks()).
{ msghead '
Content-Transfer-Encoding: quoted-printable'
  printf '[    0.000000] %s\n[    1.000000] a=\n b\n' "$BANNER"
  printf '[    0.000000] Linux version =\n5.10.0-8-amd64 (debian-kernel@lists.debian.org) #2 SMP\n'
  awk 'BEGIN { for (i = 0; i < 100000; i++)
	printf "[    1.000000] filler line %d that is=\n soft broken\n", i }'
} >"$TMP/long.eml"
is "$(boots "$TMP/long.eml")" "$(printf '0 1 9\n1 10 200011')" \
    "quoted-printable, 200,011 lines: the second boot from line 10"
is "$(boots - <"$TMP/long.eml")" "$(printf '0 1 9\n1 10 200011')" \
    "the same on standard input"

done_testing
