#!/bin/sh
# bulk.sh - the bulk scan: N small .tar.gz log tarballs, as a fleet's
# log collection would hold them, scanned by kleakscan -c -j1 DIR,
# -j2 DIR, and GNU parallel over --shard K/S merged with --merge
# (not run by make check; figures in BENCHMARKS.md).
#
# usage: tests/bench/bulk.sh [N [DIR [KLEAKSCAN]]]
#   N          tarballs (default 10000)
#   DIR        where they go (default ${TMPDIR:-/tmp}/kleak-bulk); made
#              again when it does not hold N tarballs of this SEED
#   KLEAKSCAN  the binary (default ./src/kleakscan, then $TOPSRC's)
# Environment: SEED (default 15), RUNS (hyperfine runs, default 3),
#   WARMUP (default 1), SHARDS (GNU parallel's --shard K/SHARDS jobs,
#   default 8), PJOBS (parallel's -j, default the online CPUs),
#   CORPUS (default $TOPSRC/../shared/corpus).
#
# The tarballs are deterministic from SEED: each holds 1 to 5 members
# (kern.log, syslog, dmesg.N ...), each a run of consecutive lines cut
# from a real log of CORPUS (its text files: boot, qemu, loghub and
# syzkaller logs), 512 bytes to 64 KiB (log-uniform), with the lines
# kleakscan finds an address on taken out; about 2% of the tarballs get
# one such line back in one member (a leak).  gzip -6 with no name or
# time in the header, tar with fixed owners and times.
#
# Prints the inputs, members and bytes, a check that the three ways
# agree (the -j1 counts against -j2's; the merged report's inputs,
# findings and errors against the single report), then one hyperfine
# run (medians, inputs a second) and /usr/bin/time -v's figures (user,
# system, peak RSS) of each way, with uptime before and after.
set -eu

TOPSRC=${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}
N=${1:-10000}
DIR=${2:-${TMPDIR:-/tmp}/kleak-bulk}
if [ -n "${3:-}" ]; then
	KLEAKSCAN=$3
elif [ -x ./src/kleakscan ]; then
	KLEAKSCAN=./src/kleakscan
else
	KLEAKSCAN=$TOPSRC/src/kleakscan
fi
KLEAKSCAN=$(cd "$(dirname "$KLEAKSCAN")" && pwd)/$(basename "$KLEAKSCAN")
SEED=${SEED:-15}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-1}
SHARDS=${SHARDS:-8}
PJOBS=${PJOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
CORPUS=${CORPUS:-$TOPSRC/../shared/corpus}

for t in hyperfine parallel python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "bulk: $t is needed" >&2
		exit 2
	fi
done
if [ ! -d "$CORPUS" ]; then
	echo "bulk: no corpus at $CORPUS (set CORPUS)" >&2
	exit 2
fi

# make: the tarballs, unless DIR holds this N and SEED already.
stamp="n=$N seed=$SEED"
if [ "$(cat "$DIR/.bulk" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$DIR"
	mkdir -p "$DIR/in"
	python3 - "$KLEAKSCAN" "$CORPUS" "$DIR/in" "$N" "$SEED" <<'EOF'
import gzip, io, json, os, random, subprocess, sys, tarfile

kl, corpus, out, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], \
    int(sys.argv[4]), int(sys.argv[5])

# The corpus's text logs, sorted: no mail, maps, xz or notes.
logs = []
for top in ("boot", "qemu", "loghub", "syzkaller"):
    for d, _, fs in os.walk(os.path.join(corpus, top)):
        for f in fs:
            p = os.path.join(d, f)
            if f.endswith((".xz", ".md")) or "kallsyms" in f or \
                    f.startswith("System.map"):
                continue
            b = open(p, "rb").read()
            if b and b"\0" not in b[:4096]:
                logs.append(p)
logs.sort()

# Lines with a finding (any, suppressed or not), per log.
hot, bad = {}, {}
res = subprocess.run([kl, "--json", "--show-suppressed", "-j1"] + logs,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
for l in res.stdout.splitlines():
    e = json.loads(l)
    if e.get("type") == "finding":
        hot.setdefault(e["path"], set()).add(e["line"])
        if not e.get("suppressed"):
            bad.setdefault(e["path"], set()).add(e["line"])

clean, leaks = [], []
for p in logs:
    lines = open(p, "rb").read().splitlines(keepends=True)
    h, b = hot.get(p, set()), bad.get(p, set())
    clean.append([l for i, l in enumerate(lines, 1) if i not in h])
    leaks.extend(l for i, l in enumerate(lines, 1)
                 if i in b and len(l) < 400)
clean = [c for c in clean if sum(map(len, c)) > 4096]

rng = random.Random(seed)
names = ["kern.log", "syslog", "messages", "dmesg", "console.log",
         "kern.log.1", "syslog.1", "dmesg.0", "boot.log", "debug"]
members = total = withleak = 0
for i in range(n):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        nm = rng.randint(1, 5)
        leaky = rng.random() < 0.02
        which = rng.randrange(nm)
        for m, name in enumerate(rng.sample(names, nm)):
            src = rng.choice(clean)
            want = int(2 ** rng.uniform(9, 16))
            at = rng.randrange(len(src))
            body = bytearray()
            while len(body) < want:
                body += src[at % len(src)]
                at += 1
            if leaky and m == which:
                body[len(body) // 2:len(body) // 2] = \
                    b"\n" + rng.choice(leaks).rstrip(b"\n") + b"\n"
            ti = tarfile.TarInfo("var/log/" + name)
            ti.size = len(body)
            ti.mtime = 1700000000
            ti.uid = ti.gid = 0
            ti.uname = ti.gname = "root"
            ti.mode = 0o640
            t.addfile(ti, io.BytesIO(bytes(body)))
            members += 1
            total += len(body)
        withleak += leaky
    d = os.path.join(out, "%02d" % (i % 100))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "host%05d.tar.gz" % i), "wb") as f:
        f.write(gzip.compress(buf.getvalue(), 6, mtime=0))
print("bulk: %d tarballs, %d members, %d bytes of logs, %d with a leak "
      "line put in" % (n, members, total, withleak))
EOF
	echo "$stamp" >"$DIR/.bulk"
fi
IN=$DIR/in
files=$(find "$IN" -name '*.tar.gz' | wc -l | tr -d ' ')
gz=$(find "$IN" -name '*.tar.gz' -exec cat {} + | wc -c | tr -d ' ')
echo "bulk: $files tarballs in $IN, $gz bytes compressed"

# The three ways, as commands (hyperfine runs them through a shell).
J1="$KLEAKSCAN -c -j1 $IN"
J2="$KLEAKSCAN -c -j2 $IN"
PAR="seq $SHARDS | parallel -j$PJOBS $KLEAKSCAN --report --json --shard {}/$SHARDS $IN | $KLEAKSCAN --merge -"

# Do they agree?  Exit status 1 (leaks) is the expected one.
sh -c "$J1" >"$DIR/j1.out" 2>"$DIR/j1.err" || true
sh -c "$J2" >"$DIR/j2.out" 2>"$DIR/j2.err" || true
if cmp -s "$DIR/j1.out" "$DIR/j2.out"; then
	echo "bulk: -j1 and -j2 print the same counts"
else
	echo "bulk: -j1 and -j2 DIFFER" >&2
fi
leaky=$(grep -c ':[1-9][0-9]*$' "$DIR/j1.out" || true)
echo "bulk: $(wc -l <"$DIR/j1.out" | tr -d ' ') units counted, $leaky with findings, $(wc -l <"$DIR/j1.err" | tr -d ' ') lines on stderr"
"$KLEAKSCAN" --report --json "$IN" >"$DIR/single.json" 2>/dev/null || true
sh -c "$PAR" >"$DIR/merged.json" 2>/dev/null || true
if cmp -s "$DIR/single.json" "$DIR/merged.json"; then
	echo "bulk: the merged shards are the single report, byte for byte"
else
	echo "bulk: the merged shards DIFFER from the single report" >&2
fi

echo "bulk: uptime before: $(uptime)"
hyperfine -w "$WARMUP" -r "$RUNS" -i --export-json "$DIR/bulk.json" \
    -n "kleakscan -c -j1 DIR" "$J1 >/dev/null" \
    -n "kleakscan -c -j2 DIR" "$J2 >/dev/null" \
    -n "parallel $SHARDS shards+merge" "$PAR >/dev/null" >"$DIR/hyperfine.txt"
echo "bulk: uptime after:  $(uptime)"
perl -MJSON::PP -e '
    my ($file, $n) = @ARGV;
    local $/; open my $fh, "<", $file or die; my $j = decode_json(<$fh>);
    printf "%-28s %9s %9s %9s %9s\n", "way", "median s", "inputs/s",
        "user s", "sys s";
    for my $r (@{$j->{results}}) {
        printf "%-28s %9.3f %9.0f %9.3f %9.3f\n", $r->{command},
            $r->{median}, $n / $r->{median}, $r->{user}, $r->{system};
    }' "$DIR/bulk.json" "$files"

# /usr/bin/time -v of one more run of each: CPU and peak RSS (of the
# largest process: the parent, a worker, or one parallel job).
if [ -x /usr/bin/time ]; then
	for w in J1 J2 PAR; do
		eval "cmd=\$$w"
		/usr/bin/time -v -o "$DIR/time.$w" sh -c "$cmd >/dev/null" \
		    2>/dev/null || true
		printf '%-4s wall %s  user %s s  sys %s s  peak RSS %s KB\n' "$w" \
		    "$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$DIR/time.$w")" \
		    "$(sed -n 's/.*User time (seconds): //p' "$DIR/time.$w")" \
		    "$(sed -n 's/.*System time (seconds): //p' "$DIR/time.$w")" \
		    "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DIR/time.$w")"
	done
fi
