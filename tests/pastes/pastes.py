#!/usr/bin/env python3
"""pastes.py - turn kernel logs into the shapes people paste them in, and
check that kleakscan finds the same tokens in every shape (issue 28).

usage: pastes.py KLEAKSCAN WORKDIR [--excerpt N] [--min-recall R] LOG...

For each log, the plain log is scanned; then every shape below is made of
it (of each N-line excerpt around its findings with --excerpt) and
scanned.  A shape must give the tokens of the plain log (or excerpt) on
the same original lines, no more and no fewer; with --min-recall the
excerpts (which lose the lines that told the machine) need only reach
that share of the plain log's tokens, and still may add none.  The last
line printed is "ok N" (N shapes checked) or the failures.
"""
import collections
import json
import os
import re
import subprocess
import sys

TS = re.compile(rb"^\[ *\d+\.\d+\]")


def strip_ts(line):
    m = TS.match(line)
    return line[m.end():].lstrip(b" ") if m else line


def after_ts(line, tag):
    """Insert tag after the printk time (or in front, with none)."""
    m = TS.match(line)
    if not m:
        return None
    return line[:m.end()] + tag + line[m.end():].lstrip(b" ")


# Each shape maps the lines to (new lines, origin of each new line or None).
def lines_map(fn):
    def shape(lines):
        out, org = [], []
        for i, l in enumerate(lines):
            for nl in fn(l):
                out.append(nl)
                org.append(i)
        return out, org
    return shape


def tagged(tag):
    def fn(l):
        r = after_ts(l, tag)
        return [r if r is not None else l]
    return fn


def fenced(lines):
    out = [b"Here is what I see:", b"", b"```"]
    org = [None, None, None]
    out += lines
    org += list(range(len(lines)))
    out += [b"```", b"", b"Any idea? Thanks."]
    org += [None, None, None]
    return out, org


SHAPES = {
    "quote": lines_map(lambda l: [b"> " + l]),
    "quote2": lines_map(lambda l: [b">> " + l]),
    "quote3": lines_map(lambda l: [b"> > > " + l]),
    "fence": fenced,
    "indent": lines_map(lambda l: [b"    " + l]),
    "lineno": None,                     # "  12 | line", made below
    "lineno-colon": None,               # "12: line"
    "journal": lines_map(lambda l: [b"Dec 06 12:34:56 web-01 kernel: " +
                                    strip_ts(l)]),
    "journal-ts": lines_map(lambda l: [b"Dec 06 12:34:56 web-01 kernel: " +
                                       l]),
    "rfc3339": lines_map(lambda l: [
        b"2026-12-06T12:34:56.123456+00:00 web-01 kernel: " + l]),
    "cpu": lines_map(tagged(b"c1 ")),
    "cpu-pid": lines_map(tagged(b"c3   1234 ")),
    "caller": lines_map(tagged(b"[ T1234] ")),
    "mtk": lines_map(tagged(b"(1)[1234:kworker/1:2]")),
    "at-cpu": lines_map(lambda l: [TS.sub(lambda m: m.group(0)[:-1] + b"@0]",
                                          l, count=1)]),
    "dmesg-T": lines_map(lambda l: [b"[Sun Dec  6 12:34:56 2026] " + l]),
    "crlf": lines_map(lambda l: [l + b"\r"]),
    "doubled": lines_map(lambda l: [l, l]),
    "backticks": lines_map(lambda l: [b"`" + l + b"`" if l else l]),
}


def numbered(fmt):
    def shape(lines):
        return ([fmt % (i + 1) + l for i, l in enumerate(lines)],
                list(range(len(lines))))
    return shape


def glued(lines):
    """rsyslog: a multi-line message in one line, "#012" between its lines
    (a group of four lines stands for each origin as its first)."""
    out, org = [], []
    for i in range(0, len(lines), 4):
        grp = [strip_ts(l) for l in lines[i:i + 4]]
        out.append(b"Dec  6 12:34:56 web-01 kernel: " + b"#012".join(grp))
        org.append(tuple(range(i, min(i + 4, len(lines)))))
    return out, org


SHAPES["rsyslog-012"] = glued
SHAPES["lineno"] = numbered(b"%5d | ")
SHAPES["lineno-colon"] = numbered(b"%d: ")


def scan(kl, paths):
    """Findings (line, text) per path of one kleakscan --json run."""
    r = subprocess.run([kl, "--json", "-j1", "--", *paths],
                       capture_output=True)
    res = collections.defaultdict(list)
    for raw in r.stdout.splitlines():
        e = json.loads(raw)
        if e["type"] == "finding" and e["suppressed"] is None and \
                e["region"] not in ("layout", "physical"):
            res[e["path"]].append((e["line"], e["text"]))
    return res


def main():
    args = sys.argv[1:]
    kl, work = args[0], args[1]
    args = args[2:]
    excerpt, min_recall = 0, None
    while args and args[0].startswith("--"):
        if args[0] == "--excerpt":
            excerpt = int(args[1])
        elif args[0] == "--min-recall":
            min_recall = float(args[1])
        args = args[2:]
    logs = args
    os.makedirs(work, exist_ok=True)
    plain = scan(kl, logs)
    jobs = []
    for k, path in enumerate(logs):
        lines = open(path, "rb").read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        want_all = plain.get(path, [])
        wins = [(0, len(lines))]
        if excerpt:
            found = sorted({ln for ln, _ in want_all})
            wins = []
            for c in found[::max(1, len(found) // 3)][:3]:
                lo = max(0, c - 1 - excerpt // 2)
                wins.append((lo, min(len(lines), lo + excerpt)))
        for w, (lo, hi) in enumerate(wins):
            seg = lines[lo:hi]
            for name, shape in SHAPES.items():
                out, org = shape(seg)
                vp = os.path.join(work, "%d.%d.%s" % (k, w, name))
                with open(vp, "wb") as f:
                    f.write(b"\n".join(out) + b"\n")
                jobs.append((vp, path, lo, hi, name, org))
    got_all = scan(kl, [j[0] for j in jobs])
    bad, want_n, got_n = [], 0, 0
    for vp, path, lo, hi, name, org in jobs:
        # Each origin line stands for itself, or for its group's first.
        first = {}
        for o in org:
            for x in (o if isinstance(o, tuple) else (o,)):
                if x is not None:
                    first[x] = o[0] if isinstance(o, tuple) else o
        want = collections.Counter(
            (lo + first.get(ln - 1 - lo, ln - 1 - lo) + 1, t)
            for ln, t in plain.get(path, []) if lo < ln <= hi)
        got = collections.Counter()
        for ln, t in got_all.get(vp, []):
            o = org[ln - 1] if ln - 1 < len(org) else None
            if isinstance(o, tuple):
                o = o[0]
            got[(lo + o + 1 if o is not None else -1, t)] += 1
        if name == "doubled":
            want = want + want
        missing, extra = want - got, got - want
        want_n += sum(want.values())
        got_n += sum((want & got).values())
        if extra or (missing and min_recall is None):
            bad.append("%s (%s): missing %s extra %s" % (
                path, name, sorted(missing)[:4], sorted(extra)[:4]))
    if min_recall is not None and want_n and got_n / want_n < min_recall:
        bad.append("recall %.4f < %.4f" % (got_n / want_n, min_recall))
    for b in bad[:20]:
        print(b)
    if bad:
        print("FAILED %d of %d shapes (recall %d/%d)" % (
            len(bad), len(jobs), got_n, want_n))
        sys.exit(1)
    print("ok %d shapes, %d/%d tokens" % (len(jobs), got_n, want_n))


main()
