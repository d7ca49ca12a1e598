#!/bin/sh
# mail-measure.sh [KLEAKSCAN [CORPUS]] - per list of ../shared/corpus/mail,
# the share of reports (mails with a register or frame address, labelled
# in mail-arch.tsv) that get at least one finding, and the share that get
# one with the right architecture (the most common arch of its findings).
here=$(cd "$(dirname "$0")" && pwd)
kl=${1:-$here/../../src/kleakscan}
corpus=${2:-$here/../../../shared/corpus}
grep -v '^#' "$here/mail-arch.tsv" | while IFS='	' read -r f want; do
	[ "$want" = - ] && continue
	"$kl" --json "$corpus/$f" 2>/dev/null | python3 -c '
import json, sys, collections
c = collections.Counter()
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "finding" and not e["suppressed"]:
        c[e["arch"]] += 1
n = sum(c.values())
top = c.most_common(1)[0][0] if n else "-"
print(sys.argv[1].split("/")[1], sys.argv[1].split("/")[2][:8], sys.argv[2], top, n)
' "$f" "$want"
done | awk '
{ n[$1]++; if ($5 > 0) f[$1]++; fam = $4; sub(/-.*/, "", fam)
  if ($5 > 0 && $3 == fam) a[$1]++
  if ($3 != fam || $5 == 0) bad[$1] = bad[$1] " " $2 ":" $3 "/" $4 "/" $5 }
END { for (l in n) printf "%-17s reports %2d  found %2d (%.2f)  right-arch %2d (%.2f) %s\n",
	l, n[l], f[l], f[l] / n[l], a[l], a[l] / n[l], (ENVIRON["V"] ? bad[l] : "") }' | sort
