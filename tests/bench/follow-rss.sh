#!/bin/sh
# follow-rss.sh - --follow for an hour: does the memory stay flat?
# (Not run by make check; figures in BENCHMARKS.md.)
#
# usage: tests/bench/follow-rss.sh [SECS [RATE [DIR [KLEAKSCAN]]]]
#   SECS       how long the generator writes (default 3600)
#   RATE       records a second (default 10000)
#   DIR        the work directory (default ${TMPDIR:-/tmp}/kleak-follow),
#              emptied first
#   KLEAKSCAN  the binary (default ./src/kleakscan, then $TOPSRC's)
# Environment: SAMPLE (seconds between RSS samples, default 10), ROTATE
#   (seconds between logrotate runs, default 300).
#
# A generator appends RATE records a second (in batches every 10 ms) to
# DIR/kern.log, syslog lines as rsyslog writes them: 72 % without an
# address, 18 % with one (24 message shapes: direct map, text, modules,
# vmalloc), 5 % with hashed %p values, 4 % with an address in a message
# made of random words (a new template each time: the report's bound),
# 1 % from one of 100,000 random host names (the hosts' bound); a boot
# banner with a random release every 100,000 records (a new segment, the
# releases' bound).  Three followers read it:
#   redact  kleakscan --follow --redact -o DIR/kern.redacted.log
#   report  kleakscan --follow --report --json       (> DIR/report.jsonl)
#   json    kleakscan --follow --json                 (> /dev/null)
# logrotate rotates kern.log every ROTATE seconds (create; SIGHUP to the
# generator, which reopens it, as rsyslog does) and kern.redacted.log
# (create; SIGHUP to the redact follower, as the Debian package's stanza
# does).  Every SAMPLE seconds VmRSS of each follower and its CPU time go
# to DIR/rss.csv.  At the end the followers get SIGTERM (exit 0 wanted)
# and the script prints the RSS at 1, 10, 30 and 60 minutes (or the last
# sample), the peak (VmHWM), the growth over the last three quarters of
# the run, the CPU used, and whether the redacted copy holds the last
# record written and no kernel address.
set -eu

TOPSRC=${TOPSRC:-$(cd "$(dirname "$0")/../.." && pwd)}
SECS=${1:-3600}
RATE=${2:-10000}
DIR=${3:-${TMPDIR:-/tmp}/kleak-follow}
if [ -n "${4:-}" ]; then
	KLEAKSCAN=$4
elif [ -x ./src/kleakscan ]; then
	KLEAKSCAN=./src/kleakscan
else
	KLEAKSCAN=$TOPSRC/src/kleakscan
fi
KLEAKSCAN=$(cd "$(dirname "$KLEAKSCAN")" && pwd)/$(basename "$KLEAKSCAN")
SAMPLE=${SAMPLE:-10}
ROTATE=${ROTATE:-300}
command -v logrotate >/dev/null || { echo "logrotate is needed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 2; }

rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null || true; done' EXIT

cat >gen.py <<'EOF'
import os, random, signal, sys, time
path, secs, rate = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(33)
reopen = [False]
signal.signal(signal.SIGHUP, lambda s, f: reopen.__setitem__(0, True))
words = ("alloc free page slab irq dma queue ring sched task lock mutex "
         "timer work node zone block req bio inode dentry sock skb").split()
shapes = [w + ": obj %s" for w in words[:8]] + \
    [w + " at %s" for w in words[8:16]] + \
    [w + ": ctx %s state 3" for w in words[16:]]
plain = ["usb 1-1: new high-speed USB device number %d using xhci_hcd",
         "EXT4-fs (vda1): mounted filesystem with ordered data mode, %d",
         "audit: type=1400 audit(%d.123:45): apparmor=\"STATUS\"",
         "e1000e: eth0 NIC Link is Up 1000 Mbps Full Duplex, %d",
         "systemd[1]: Started Session %d of user root."]
regions = [0xffff888000000000, 0xffffffff81000000, 0xffffffffc0000000,
           0xffffc90000000000]
f = open(path, "a")
n, t0, ts = 0, time.monotonic(), 0.0
def addr():
    return "%016x" % (rnd.choice(regions) + rnd.randrange(1 << 24) * 8)
def rw():
    return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7))
while True:
    now = time.monotonic() - t0
    if now >= secs:
        break
    due = int(now * rate) + 1
    out = []
    while n < due:
        ts += 1.0 / rate
        host = "bench"
        r = rnd.random()
        if n % 100000 == 0:
            msg = ("Linux version 6.1.0-%d-amd64 (gcc) #1 SMP" %
                   rnd.randrange(1000000))
            ts = 0.0
        elif r < 0.72:
            msg = rnd.choice(plain) % rnd.randrange(100000)
        elif r < 0.90:
            msg = rnd.choice(shapes) % addr()
        elif r < 0.95:
            msg = "net: sock %08x hashed" % rnd.randrange(1 << 32)
        elif r < 0.99:
            msg = "%s %s: obj %s" % (rw(), rw(), addr())
        else:
            host = "h%05d" % rnd.randrange(100000)
            msg = rnd.choice(shapes[:8]) % addr()
        out.append("Dec  6 03:%02d:%02d %s kernel: [%5d.%06d] %s rec=%d\n" % (
            int(now // 60) % 60, int(now) % 60, host, int(ts),
            int(ts * 1e6) % 1000000, msg, n))
        n += 1
    if reopen[0]:
        f.close()
        f = open(path, "a")
        reopen[0] = False
    f.write("".join(out))
    f.flush()
    time.sleep(0.01)
f.close()
print(n - 1)
EOF

: >kern.log
"$KLEAKSCAN" --follow --redact -o kern.redacted.log kern.log 2>redact.err &
RP=$!
"$KLEAKSCAN" --follow --report --json kern.log >report.jsonl 2>report.err &
PP=$!
"$KLEAKSCAN" --follow --json kern.log >/dev/null 2>json.err &
JP=$!
PIDS="$RP $PP $JP"
sleep 0.5
python3 gen.py kern.log "$SECS" "$RATE" >gen.out &
GP=$!
PIDS="$PIDS $GP"

cat >lr.conf <<EOF
$DIR/kern.log {
	rotate 2
	create
	missingok
	postrotate
		kill -HUP $GP
	endscript
}
$DIR/kern.redacted.log {
	rotate 2
	create 0640
	missingok
	postrotate
		kill -HUP $RP
	endscript
}
EOF

# The CPU seconds (user + system) of a process.
cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' \
	    "/proc/$1/stat" 2>/dev/null || echo 0
}
# A field of /proc/PID/status in kB.
kb() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null ||
	    echo 0
}

echo "t,redact_rss_kb,report_rss_kb,json_rss_kb,redact_cpu_s,report_cpu_s,json_cpu_s,load1" >rss.csv
start=$(date +%s)
next_rot=$((start + ROTATE))
echo "follow-rss: $SECS s at $RATE records/s into $DIR, $(date -u +%FT%TZ), $(uptime)"
while kill -0 "$GP" 2>/dev/null; do
	sleep "$SAMPLE"
	now=$(date +%s)
	if [ "$now" -ge "$next_rot" ]; then
		logrotate -f -s lr.state lr.conf || true
		next_rot=$((now + ROTATE))
	fi
	echo "$((now - start)),$(kb "$RP" VmRSS),$(kb "$PP" VmRSS),$(kb "$JP" VmRSS),$(cpu "$RP"),$(cpu "$PP"),$(cpu "$JP"),$(cut -d' ' -f1 /proc/loadavg)" >>rss.csv
done
wait "$GP"
last=$(cat gen.out)
# The followers catch up, then stop.
i=0
# (in the copy, or in its rotated copy when logrotate ran last)
while ! tail -q -c 4096 kern.redacted.log kern.redacted.log.1 2>/dev/null |
    grep -q "rec=$last\$" && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
caught=$((i * 100))
hwm_r=$(kb "$RP" VmHWM); hwm_p=$(kb "$PP" VmHWM); hwm_j=$(kb "$JP" VmHWM)
cpu_r=$(cpu "$RP"); cpu_p=$(cpu "$PP"); cpu_j=$(cpu "$JP")
st=
for p in $RP $PP $JP; do
	kill -TERM "$p"
	if wait "$p"; then st="$st 0"; else st="$st $?"; fi
done
PIDS=
echo "follow-rss: done $(date -u +%FT%TZ), $(uptime)"
echo "records written: $((last + 1)) in $SECS s"
echo "redacted copy has the last record: $(tail -q -c 4096 kern.redacted.log kern.redacted.log.1 2>/dev/null | grep -c "rec=$last\$") (after ${caught} ms)"
echo "kernel addresses left in the redacted copies: $(cat kern.redacted.log* | grep -Ec 'ffff(888|c90)[0-9a-f]{10}|ffffffff[89c][0-9a-f]{7}' || true)"
echo "exit statuses after SIGTERM (redact report json):$st"
echo "report: $(grep -c '"new":true' report.jsonl) new-template events, $(grep -c '"rank"' report.jsonl) rows, $(grep -o '"template":"(other templates)","fingerprint":"[0-9a-f]*","class":"[a-z]*","severity":"[a-z]*","count":[0-9]*' report.jsonl | grep -o 'count":[0-9]*')"
echo "peak RSS (VmHWM, kB): redact $hwm_r, report $hwm_p, json $hwm_j"
echo "CPU seconds: redact $cpu_r, report $cpu_p, json $cpu_j"
python3 - rss.csv "$SECS" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
secs = float(sys.argv[2])
def at(t):
    best = min(rows, key=lambda r: abs(float(r["t"]) - t))
    return best
print("RSS in kB at        redact   report     json")
for t in (60, 600, 1800, 3600):
    if t > secs + 60:
        continue
    r = at(t)
    print("  %5d s        %8s %8s %8s" % (float(r["t"]), r["redact_rss_kb"],
          r["report_rss_kb"], r["json_rss_kb"]))
q = [r for r in rows if float(r["t"]) >= secs / 4]
for k in ("redact", "report", "json"):
    v = [float(r[k + "_rss_kb"]) for r in q if r[k + "_rss_kb"]]
    if v:
        print("%-6s RSS over the last three quarters: min %d, max %d kB "
              "(growth %+d kB)" % (k, min(v), max(v), v[-1] - v[0]))
EOF
