#!/bin/sh
# corpus-stats.sh - figures for the shared corpus (not run by make check).
#
# Scans every file of ../shared/corpus with --json --show-suppressed and
# prints, for the logs (the *.xz symbol maps of qemu/ are counted apart:
# a System.map or a nokaslr /proc/kallsyms lists ~94k link-time symbol
# addresses each and would drown everything else), then for everything:
# inputs per detected arch, findings per arch (the finding's own "arch"
# field), per region and per arch x region, suppressed look-alikes per
# reason; then findings per corpus area and the inputs with the most;
# last, the boot segments of the logs: how many disclose each base
# (text, direct map, physical, ...) and by which kind of evidence, with
# the Debian System.map of qemu/ given by --system-map-dir so that the
# QEMU boots can be checked against their map.
#
# usage: tests/bench/corpus-stats.sh [KLEAKSCAN [CORPUS]]
#   KLEAKSCAN defaults to ./src/kleakscan (a build directory), then to
#   $TOPSRC/src/kleakscan; CORPUS to $TOPSRC/../shared/corpus.

TOPSRC=${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -n "${1:-}" ]; then
	KLEAKSCAN=$1
elif [ -z "${KLEAKSCAN:-}" ]; then
	if [ -x ./src/kleakscan ]; then
		KLEAKSCAN=./src/kleakscan
	else
		KLEAKSCAN=$TOPSRC/src/kleakscan
	fi
fi
CORPUS=${2:-$TOPSRC/../shared/corpus}

if [ ! -d "$CORPUS" ]; then
	echo "corpus-stats: no corpus at $CORPUS" >&2
	exit 2
fi
command -v python3 >/dev/null 2>&1 || {
	echo "corpus-stats: python3 is needed" >&2
	exit 2
}
CORPUS=$(cd "$CORPUS" && pwd)

MAPS=
[ -d "$CORPUS/qemu" ] && MAPS="--system-map-dir $CORPUS/qemu"
# shellcheck disable=SC2086
"$KLEAKSCAN" --json --show-suppressed $MAPS "$CORPUS" | python3 -c '
import collections, json, sys

corpus = sys.argv[1].rstrip("/") + "/"

def rel(p):
    return p[len(corpus):] if p.startswith(corpus) else p

def is_map(p):
    return p.endswith(".xz")

def area(p):
    r = rel(p).split("/")
    if r[0] == "qemu":
        return "qemu (symbol maps, .xz)" if is_map(p) else "qemu (logs)"
    if r[0] in ("mail", "syzkaller") and len(r) > 2:
        return r[0] + "/" + r[1]
    return r[0]

class Tally:
    def __init__(self):
        self.inputs = collections.Counter()
        self.leaky = collections.Counter()
        self.arch = collections.Counter()
        self.region = collections.Counter()
        self.pair = collections.Counter()
        self.reason = collections.Counter()

    def finding(self, e):
        if e["suppressed"] is None:
            self.arch[e["arch"]] += 1
            self.region[e["region"]] += 1
            self.pair[e["arch"] + " " + e["region"]] += 1
        else:
            self.reason[e["suppressed"]] += 1

    def end(self, e):
        a = e["stats"]["arch"]
        self.inputs[a] += 1
        if e["stats"]["findings"]:
            self.leaky[a] += 1

logs, every = Tally(), Tally()
per_file = collections.Counter()
per_area = collections.Counter()
area_inputs = collections.Counter()
summary = None
boots = 0
slides = collections.Counter()
disclosed = collections.Counter()
by_kind = collections.defaultdict(collections.Counter)
for raw in sys.stdin:
    e = json.loads(raw)
    t = e["type"]
    if t == "finding":
        every.finding(e)
        if not is_map(e["path"]):
            logs.finding(e)
        if e["suppressed"] is None:
            per_file[rel(e["path"])] += 1
            per_area[area(e["path"])] += 1
    elif t == "end":
        every.end(e)
        if not is_map(e["path"]):
            logs.end(e)
        area_inputs[area(e["path"])] += 1
    elif t == "boot" and not is_map(e["path"]):
        boots += 1
        if e["slide"] is not None:
            slides["with a slide"] += 1
            if e["kaslr_off"]:
                slides["of which KASLR off (slide 0)"] += 1
        for r in e["disclosed"]:
            disclosed[r] += 1
            kinds = set(v["kind"] for v in e["evidence"]
                        if v["region"] == r)
            for k in kinds or ("(evidence list full)",):
                by_kind[r][k] += 1
    elif t == "summary":
        summary = e

def table(title, c):
    print("\n" + title)
    for k, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %-32s %7d" % (k, v))
    print("  %-32s %7d" % ("total", sum(c.values())))

def report(name, t):
    print("\n==== %s" % name)
    print("\ninputs per detected arch (inputs with findings)")
    for a, n in sorted(t.inputs.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %-32s %7d  (%d)" % (a, n, t.leaky[a]))
    table("findings per arch", t.arch)
    table("findings per region", t.region)
    table("findings per arch and region", t.pair)
    table("suppressed per reason", t.reason)

print("corpus: %s" % corpus)
print("units %d (skipped binary %d), bytes %d, lines %d, errors %d, "
      "findings %d" % (summary["inputs"], summary.get("skipped_binary", 0),
      summary["bytes"], summary["lines"], summary["errors"],
      summary["findings"]))
report("logs (without the qemu/*.xz symbol maps)", logs)
report("everything", every)
print("\nfindings per corpus area (inputs)")
for a in sorted(area_inputs):
    print("  %-32s %7d  (%d)" % (a, per_area[a], area_inputs[a]))
print("\ninputs with the most findings")
for p, n in per_file.most_common(15):
    print("  %-64s %6d" % (p, n))
print("\nboot segments of the logs %d" % boots)
for k, v in sorted(slides.items()):
    print("  %-32s %7d" % (k, v))
print("\nboots disclosing each base, and by which evidence (a boot counts")
print("once per kind of evidence it has for that base)")
for r, n in sorted(disclosed.items(), key=lambda kv: (-kv[1], kv[0])):
    print("  %-32s %7d" % (r, n))
    for k, m in sorted(by_kind[r].items(), key=lambda kv: (-kv[1], kv[0])):
        print("    %-30s %7d" % (k, m))
' "$CORPUS"
